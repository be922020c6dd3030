// Web Push, an enhancement of the devices page (web/agenda/push.py): where the browser has a
// service worker and a PushManager, a button asks permission on a press, subscribes with the
// site's VAPID key (the page's data-key) and posts the subscription (CSRF header) to the site.
// Without it the page still lists the devices and turns each off with a plain form.
"use strict";

(function () {
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) { return; }
  var button = document.querySelector("[data-push-subscribe]");
  var status = document.querySelector("[data-push-status]");
  if (!button || !status) { return; }

  function say(name, detail) {
    status.textContent = (status.getAttribute("data-" + name) || "") + (detail ? " " + detail : "");
  }

  // The application server key arrives base64url; pushManager.subscribe takes bytes.
  function keyBytes(text) {
    var padded = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(padded);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i += 1) { bytes[i] = raw.charCodeAt(i); }
    return bytes;
  }

  function csrfToken() {
    var field = document.querySelector("[data-push-csrf] input[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }

  function post(subscription) {
    return fetch(button.getAttribute("data-url"), {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify(subscription.toJSON())
    }).then(function (response) {
      if (response.ok) { return null; }
      return response.text().then(function (text) { throw new Error(text || String(response.status)); });
    });
  }

  function turnOn() {
    button.disabled = true;
    say("ready");
    Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") { throw new Error("denied"); }
      return navigator.serviceWorker.ready;
    }).then(function (registration) {
      return registration.pushManager.getSubscription().then(function (existing) {
        return existing || registration.pushManager.subscribe({
          userVisibleOnly: true, applicationServerKey: keyBytes(button.getAttribute("data-key"))
        });
      });
    }).then(post).then(function () {
      say("done");
      window.location.reload();
    }).catch(function (error) {
      button.disabled = false;
      if (error && error.message === "denied") { say("denied"); } else { say("failed", error && error.message); }
    });
  }

  status.textContent = "";
  document.querySelector("[data-push-on]").hidden = false;
  button.addEventListener("click", turnOn);
})();
