// confsched: small enhancements; every page works without this file.
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
        button.textContent = t("Use my device's zone ({zone})", { zone: zone });
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
    // On a phone the results come first: the active filters show as chips above them.
    if (panel && !wide) { panel.open = false; }
    revealCopyButtons(document);
    addFacetFinders(document);
    showNow(true);
  }

  // -- Filters: every choice kept, whatever the order and speed of the clicks. --------------

  function filtersForm() { return document.getElementById("filters"); }

  function formState(form) { return new URLSearchParams(new FormData(form)).toString(); }

  // One request is in flight per form (hx-sync replace); each remembers the form as it was
  // sent. A response to a form changed since then would tick boxes back to how they were:
  // it is dropped, as the change that made it stale has sent (or will send) its own request.
  document.addEventListener("htmx:configRequest", function (event) {
    var form = filtersForm();
    if (form && event.detail.elt === form) { form.setAttribute("data-sent", formState(form)); }
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    var form = filtersForm();
    if (!form || event.detail.requestConfig.elt !== form) { return; }
    if (formState(form) !== form.getAttribute("data-sent")) { event.detail.shouldSwap = false; }
  });

  // Chips and "Clear all" are links that work alone; with htmx they change the form instead,
  // which then asks for the results like any other change.
  document.addEventListener("click", function (event) {
    var chip = event.target.closest("[data-chip]");
    var form = filtersForm();
    if (!chip || !form || typeof window.htmx === "undefined") { return; }
    var name = chip.getAttribute("data-chip");
    var search = form.querySelector("#q");
    if (name === "all") {
      form.querySelectorAll("input[type=checkbox]:checked").forEach(function (box) { box.checked = false; });
      if (search) { search.value = ""; }
    } else if (name === "q") {
      if (!search) { return; }
      search.value = "";
    } else {
      var box = document.getElementById(name);
      if (!box || !form.contains(box)) { return; }
      box.checked = false;
    }
    event.preventDefault();
    form.dispatchEvent(new Event("change", { bubbles: true }));
  });

  // -- A write whose answer was lost: sent again, and its answer is the true state. --------
  // A 502 or 504 from the front (an app host went away after saving), a 503 (the database
  // busy or restarting) or a dropped connection say nothing of whether the star or the seat
  // was saved. Sending the same request again is safe: a star asks for a state ("starred=1"),
  // a seat for "reserve" or "cancel", and the server answers with the state they are in now.

  var RETRY_WRITE_MS = [500, 2000];
  var LOST_ANSWERS = [0, 502, 503, 504];

  function isRetriedWrite(elt) {
    return Boolean(elt && elt.matches && elt.matches("button.star, button.seat-button"));
  }

  function notSaved(elt) {
    var note = document.createElement("p");
    note.className = "seat-note is-error";
    note.setAttribute("role", "status");
    note.textContent = t("Not saved: the schedule could not be reached. Press again in a moment.");
    elt.removeAttribute("data-retries");
    elt.after(note);
  }

  function retryWrite(event) {
    var elt = event.detail.elt;
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (!isRetriedWrite(elt) || LOST_ANSWERS.indexOf(status) < 0) { return; }
    var tries = Number(elt.getAttribute("data-retries") || "0");
    if (tries >= RETRY_WRITE_MS.length) { notSaved(elt); return; }
    elt.setAttribute("data-retries", String(tries + 1));
    setTimeout(function () { if (elt.isConnected) { elt.click(); } }, RETRY_WRITE_MS[tries]);
  }
  document.addEventListener("htmx:responseError", retryWrite);
  document.addEventListener("htmx:sendError", retryWrite);

  // -- Facets with many values: a box to narrow the list while typing. ----------------------

  var FINDER_FROM = 7; // options in a facet before it gets a finder
  var finderText = {}; // what was typed per facet, kept across swaps of the facets

  function folded(text) {
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }

  function applyFinder(fieldset, text) {
    var wanted = folded(text.trim());
    var shown = 0;
    fieldset.querySelectorAll("label.option").forEach(function (option) {
      var box = option.querySelector("input[type=checkbox]");
      var label = option.querySelector(".option-label");
      var match = !wanted || folded(label.textContent).indexOf(wanted) !== -1 || (box && box.checked);
      option.hidden = !match;
      if (match) { shown += 1; }
    });
    var none = fieldset.querySelector("[data-finder-none]");
    if (none) { none.hidden = shown > 0; }
  }

  function addFacetFinders(root) {
    root.querySelectorAll("fieldset.facet").forEach(function (fieldset) {
      var options = fieldset.querySelectorAll("label.option");
      if (options.length < FINDER_FROM || fieldset.querySelector("[data-finder]")) { return; }
      var name = options[0].querySelector("input").name;
      var legend = fieldset.querySelector("legend").textContent.trim();
      var input = document.createElement("input");
      input.type = "search";
      input.className = "facet-finder";
      input.setAttribute("data-finder", name);
      input.setAttribute("aria-label", t("Find in {facet}…", { facet: legend }).replace(/…$/, ""));
      input.placeholder = t("Find in {facet}…", { facet: legend.toLowerCase() });
      input.autocomplete = "off";
      input.value = finderText[name] || "";
      var none = document.createElement("p");
      none.className = "finder-none";
      none.setAttribute("data-finder-none", "");
      none.textContent = "No " + legend.toLowerCase() + " matches.";
      none.hidden = true;
      fieldset.querySelector("legend").after(input);
      fieldset.appendChild(none);
      // Not a filter itself: its typing must not ask for results.
      input.addEventListener("change", function (event) { event.stopPropagation(); });
      input.addEventListener("keydown", function (event) {
        if (event.key === "Enter") { event.preventDefault(); }
      });
      input.addEventListener("input", function (event) {
        event.stopPropagation();
        finderText[name] = input.value;
        applyFinder(fieldset, input.value);
      });
      applyFinder(fieldset, input.value);
    });
  }

  // -- Now: during the event, the list and grid open at the time slot running now. ----------

  function times(selector) {
    return Array.prototype.map.call(document.querySelectorAll(selector), function (time) {
      return { el: time, at: Date.parse(time.getAttribute("datetime")) };
    });
  }

  function currentSlot(now) {
    // The latest slot started by now, if the sessions on the page have not all ended.
    var ends = times("#results .card .when time:last-of-type").map(function (t) { return t.at; });
    if (!ends.length || now >= Math.max.apply(null, ends)) { return null; }
    var starts = times("#results .slot-time time, #results .grid tbody .grid-time time");
    // The list opens at the first session still running, not the latest slot started: a
    // session running since 09:45 stays in view at 10:05 (the grid shows it beside now's row).
    var until = now;
    if (document.querySelector("#results .slot-time")) {
      Array.prototype.forEach.call(document.querySelectorAll("#results .card .when"), function (when) {
        var at = when.querySelectorAll("time");
        var start = Date.parse(at[0].getAttribute("datetime"));
        var end = Date.parse(at[at.length - 1].getAttribute("datetime"));
        if (start <= now && now < end && start < until) { until = start; }
      });
    }
    var best = null;
    starts.forEach(function (start) {
      if (start.at <= until && (!best || start.at >= best.at)) { best = start; }
    });
    return best;
  }

  function drawNowLine(now) {
    document.querySelectorAll(".now-line").forEach(function (line) { line.remove(); });
    document.querySelectorAll("[data-grid] tbody tr").forEach(function (row) {
      var start = Date.parse(row.querySelector("time").getAttribute("datetime"));
      var end = Date.parse(row.getAttribute("data-ends"));
      if (!(start <= now && now < end)) { return; }
      var box = row.closest("[data-grid]");
      var line = document.createElement("div");
      line.className = "now-line";
      line.setAttribute("aria-hidden", "true");
      line.style.top = Math.round(row.offsetTop + (row.offsetHeight * (now - start)) / (end - start)) + "px";
      line.style.width = box.querySelector("table").offsetWidth + "px";
      box.appendChild(line);
    });
  }

  function showNow(isPageLoad) {
    var links = document.querySelector("#results .view-links");
    var old = document.querySelector("[data-now-jump]");
    if (old) { old.parentNode.remove(); }
    var now = Date.now();
    var slot = currentSlot(now);
    drawNowLine(now);
    if (!slot || !links) { return; }
    var target = slot.el.closest("[id]");
    var item = document.createElement("li");
    var jump = document.createElement("a");
    jump.href = "#" + target.id;
    jump.setAttribute("data-now-jump", "");
    jump.textContent = t("Jump to now ({time})", { time: slot.el.textContent.trim() });
    item.appendChild(jump);
    links.insertBefore(item, links.firstChild);
    if (isPageLoad && !window.location.hash) { target.scrollIntoView({ block: "start", behavior: "instant" }); }
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
    function done(ok) { if (status) { status.textContent = ok ? t("Link copied.") : t("Select the link and copy it."); } }
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
  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.target.id === "results") { showNow(false); }
    addFacetFinders(document);
  });

  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", setUp); } else { setUp(); }
})();

// issue 29 item 16: a control that htmx replaces with its answer (a star, a seat's button) keeps
// the keyboard's focus (WCAG 2.4.3): without this the focus fell back to the page's start and
// the next Tab began again at the skip link. The control of what came in with the same name
// (the seat's "Cancel my seat" for its "Reserve a seat") takes it, else the first control.
(function () {
  var CONTROLS = "button:not([disabled]), a[href], input:not([type=hidden]):not([disabled]), select, textarea";
  var held = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target, focused = document.activeElement;
    held = target && focused && focused !== document.body && target.contains(focused)
      ? { target: target, parent: target.parentNode, before: target.previousElementSibling,
          name: focused.getAttribute("name") } : null;
  });
  document.addEventListener("htmx:afterSwap", function () {
    if (!held) { return; }
    var place = held, focused = document.activeElement;
    held = null;
    if (focused && focused !== document.body && focused.isConnected) { return; }
    var node = place.target.isConnected ? place.target
      : place.before ? place.before.nextElementSibling : place.parent && place.parent.firstElementChild;
    var same = node && place.name ? node.querySelector("[name=\"" + CSS.escape(place.name) + "\"]") : null;
    var control = same || (node && (node.matches(CONTROLS) ? node : node.querySelector(CONTROLS)));
    if (control) { control.focus(); }
  });
})();

// issue 29 items 5 and 16: a control of the grid that Tab reaches comes whole into view once its
// card has opened (focus shows the whole card): the browser scrolls only before the card grows,
// and leaves a card with a sliver showing at the box's edge as it is. "nearest" keeps what is
// already in view where it is; the page's scroll-margin keeps it clear of the sticky rows.
document.addEventListener("focusin", function (event) {
  var target = event.target;
  if (!target.closest || !target.closest(".grid-sideways .grid-cell")) { return; }
  requestAnimationFrame(function () {
    if (document.activeElement === target) { target.scrollIntoView({ block: "nearest", inline: "nearest" }); }
  });
});
