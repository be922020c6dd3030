// confsched: the check-in page's helpers. Without this file the page works the same: the code
// is typed and the form sent. With it: the input is emptied and focused after each answer,
// ready for the next person; and, where the browser reads QR codes itself (BarcodeDetector)
// and offers a camera, a "Scan with camera" button fills in the code and sends the form.
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

  var SAME_CODE_MS = 4000; // the same QR code held up again within this time is read once

  function ready(form) {
    var input = form.querySelector("input[name=code]");
    input.value = "";
    // While the camera scans, a focused input would only raise the phone's keyboard.
    if (!form.hasAttribute("data-scanning")) { input.focus(); }
  }

  function send(form) {
    if (form.requestSubmit) { form.requestSubmit(); } else { form.submit(); }
  }

  function camera(form) {
    var button = form.querySelector("[data-scan]");
    var video = document.querySelector("[data-scan-video]");
    if (!button || !video) { return; }
    if (!("BarcodeDetector" in window) || !navigator.mediaDevices ||
        !navigator.mediaDevices.getUserMedia) { return; }
    var detector = null, stream = null, last = "", lastAt = 0;

    function stop() {
      if (stream) { stream.getTracks().forEach(function (track) { track.stop(); }); }
      stream = null;
      video.srcObject = null;
      video.hidden = true;
      form.removeAttribute("data-scanning");
      button.textContent = t("Scan with camera");
      button.setAttribute("aria-pressed", "false");
    }

    function look() {
      if (!stream) { return; }
      detector.detect(video).then(function (codes) {
        var now = Date.now();
        var text = codes.length ? codes[0].rawValue.trim() : "";
        if (text && (text !== last || now - lastAt > SAME_CODE_MS)) {
          last = text;
          lastAt = now;
          form.querySelector("input[name=code]").value = text;
          send(form);
        }
      }).catch(function () { /* a frame not ready yet: try the next one */ }).then(function () {
        if (stream) { window.setTimeout(look, 200); }
      });
    }

    function start() {
      try {
        detector = new window.BarcodeDetector({ formats: ["qr_code"] });
      } catch (error) {
        return;
      }
      navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false })
        .then(function (media) {
          stream = media;
          video.srcObject = media;
          video.hidden = false;
          form.setAttribute("data-scanning", "");
          button.textContent = t("Stop camera");
          button.setAttribute("aria-pressed", "true");
          return video.play();
        })
        .then(look)
        .catch(function () {
          stop();
          button.textContent = t("Camera not available: type the code");
          button.disabled = true;
        });
    }

    button.hidden = false;
    button.addEventListener("click", function () {
      if (stream) { stop(); } else { start(); }
    });
    window.addEventListener("pagehide", stop);
  }

  function init() {
    var form = document.querySelector("[data-checkin-form]");
    if (!form) { return; }
    camera(form);
    // After htmx swapped in the answer: the next code, please.
    document.body.addEventListener("htmx:afterRequest", function (event) {
      var source = event.detail && event.detail.elt;
      if (source && source.closest && source.closest(".checkin")) { ready(form); }
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
}());
