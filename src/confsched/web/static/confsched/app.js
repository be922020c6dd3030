// confsched: small enhancements; every page works without this file.
(function () {
  "use strict";

  function deviceZone() {
    try { return Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { return ""; }
  }

  function zoneForm() { return document.querySelector("[data-zone-form]"); }

  // The zone form carries the current filters; htmx may have changed them since the page loaded.
  function submitZone(form) {
    var current = new URLSearchParams(window.location.search);
    form.querySelectorAll("input[type=hidden]").forEach(function (input) { input.remove(); });
    current.forEach(function (value, name) {
      if (name === "tz") { return; }
      var input = document.createElement("input");
      input.type = "hidden"; input.name = name; input.value = value;
      form.appendChild(input);
    });
    form.submit();
  }

  function setUp() {
    var form = zoneForm();
    if (form) {
      var select = form.querySelector("select[name=tz]");
      var button = form.querySelector("[data-device-zone]");
      var zone = deviceZone();
      if (button && zone) {
        button.hidden = false;
        button.textContent = "Use my device's zone (" + zone + ")";
        if (zone === select.value) { button.hidden = true; }
        button.addEventListener("click", function () {
          if (!Array.prototype.some.call(select.options, function (o) { return o.value === zone; })) {
            select.add(new Option(zone, zone));
          }
          select.value = zone;
          submitZone(form);
        });
      }
      select.addEventListener("change", function () { submitZone(form); });
      var apply = form.querySelector("button[type=submit]");
      if (apply) { apply.hidden = true; } // the select applies itself
      form.addEventListener("submit", function (event) { event.preventDefault(); submitZone(form); });
    }
    var panel = document.querySelector("[data-filters-panel]");
    var wide = window.matchMedia("(min-width: 900px)").matches;
    if (panel && wide && !panel.hasAttribute("data-closed-when-wide")) { panel.open = true; }
    revealCopyButtons(document);
  }

  function revealCopyButtons(root) {
    if (!navigator.clipboard && !document.queryCommandSupported) { return; }
    root.querySelectorAll("[data-copy]").forEach(function (button) { button.hidden = false; });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy]");
    if (!button) { return; }
    var input = document.querySelector(button.getAttribute("data-copy"));
    var status = button.closest(".share").querySelector("[data-copy-status]");
    var value = input.value;
    function done(ok) { if (status) { status.textContent = ok ? "Link copied." : "Select the link and copy it."; } }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(value).then(function () { done(true); }, function () { done(false); });
    } else {
      input.select();
      var ok = false;
      try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
      done(ok);
    }
  });

  // After htmx swaps in new results, the share link changed: show its copy button again.
  document.addEventListener("htmx:afterSwap", function (event) { revealCopyButtons(event.target); });

  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", setUp); } else { setUp(); }
})();
