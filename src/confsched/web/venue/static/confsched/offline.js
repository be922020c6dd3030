// confsched: the event as an installable app that reads offline. Registers the event's service
// worker (its address is on <link rel="manifest">), asks it to send stars kept offline when the
// network is back, and shows kept stars on pages from the offline copy. Pages work without it.
(function () {
  "use strict";

  // The page's words for this script (web/site/script_strings.py), by their English text.
  var STRINGS = (function () {
    try { return JSON.parse(document.body.getAttribute("data-strings") || "{}"); } catch (e) { return {}; }
  })();
  function t(text, values) {
    return (STRINGS[text] || text).replace(/\{(\w+)\}/g, function (whole, name) {
      return values && name in values ? String(values[name]) : whole;
    });
  }
  if (!("serviceWorker" in navigator)) { return; }
  var link = document.querySelector("link[rel=manifest][data-service-worker]");
  if (!link) { return; }
  var workerUrl = link.getAttribute("data-service-worker");
  var scope = link.getAttribute("data-scope");

  function tell(message) {
    navigator.serviceWorker.ready.then(function (registration) {
      if (registration.active) { registration.active.postMessage(message); }
    });
  }

  // The outbox the worker keeps (same origin, same database): stars not yet sent.
  function keptStars(done) {
    if (!window.indexedDB) { return; }
    var opening = indexedDB.open("confsched:" + scope.split("/").filter(Boolean).pop() + ":outbox", 1);
    opening.onupgradeneeded = function () { opening.result.createObjectStore("stars", { keyPath: "id", autoIncrement: true }); };
    opening.onsuccess = function () {
      var db = opening.result;
      var reading = db.transaction("stars", "readonly").objectStore("stars").getAll();
      reading.onsuccess = function () { done(reading.result); db.close(); };
    };
  }

  // A page from the copy was taken before these stars: draw them as they now are.
  function showKeptStars() {
    keptStars(function (entries) {
      entries.forEach(function (entry) {
        var path = new URL(entry.url).pathname;
        var isStarred = new URLSearchParams(entry.body).get("starred") === "1";
        document.querySelectorAll("button.star").forEach(function (button) {
          if (button.getAttribute("formaction") !== path) { return; }
          button.classList.toggle("is-starred", isStarred);
          button.setAttribute("aria-pressed", isStarred ? "true" : "false");
          button.value = isStarred ? "0" : "1";
          button.title = isStarred ? t("Remove from my agenda") : t("Add to my agenda");
          var icon = button.querySelector("[aria-hidden]");
          if (icon) { icon.textContent = isStarred ? "\u2605" : "\u2606"; }
        });
      });
    });
  }

  // Stars the worker could not send yet are asked for again, sooner first, while online.
  var RETRY_MS = [1000, 2000, 5000, 10000, 30000];
  var retries = 0;
  var retryTimer = null;
  function replay() {
    clearTimeout(retryTimer);
    tell({ type: "replay" });
  }
  function replayLater() {
    clearTimeout(retryTimer);
    if (!navigator.onLine) { return; }  // "online" asks again
    retryTimer = setTimeout(replay, RETRY_MS[Math.min(retries, RETRY_MS.length - 1)]);
    retries += 1;
  }

  navigator.serviceWorker.register(workerUrl, { scope: scope }).catch(function () { /* no offline copy then */ });
  window.addEventListener("online", function () { retries = 0; replay(); });
  navigator.serviceWorker.addEventListener("message", function (event) {
    var data = event.data || {};
    var status = document.querySelector("[data-offline-status]");
    if (data.type === "stars-waiting") { replayLater(); }
    if (data.type === "stars-sent") {
      retries = 0;
      if (status) {
        status.textContent = data.count === 1 ? t("1 star made offline was saved.") : t("{count} stars made offline were saved.", { count: data.count });
      }
    }
  });

  function setUp() {
    if (document.querySelector("[data-offline-copy]")) { showKeptStars(); }
    if (navigator.onLine) {
      replay();
      tell({ type: "check" });
    }
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", setUp); } else { setUp(); }
})();
