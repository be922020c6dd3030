// confsched: the schedule editor's drag and drop. Without this file every session is moved with
// its form (open it from the grid). With it: a session card dragged onto another room column or
// time row asks the server to check the move (the same check as the form's "Check", answered
// as an HTML fragment), shows the problems in a panel before anything is saved, and the panel's
// button saves it (a plain form: the page comes back with the grid updated). The card's lower
// edge changes its length the same way.
(function () {
  "use strict";

  var panel = document.getElementById("editor-panel");
  if (!panel || !document.querySelector("[data-editor-grid]") || !window.fetch) { return; }
  var dragged = null, marked = null;

  function token() {
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }
  function cellOf(event) {
    var node = event.target;
    if (node && node.nodeType !== 1) { node = node.parentElement; }
    return node && node.closest ? node.closest("[data-editor-grid] td[data-room]") : null;
  }
  function mark(cell) {
    if (marked === cell) { return; }
    if (marked) { marked.classList.remove("is-drop-target"); }
    marked = cell;
    if (cell) { cell.classList.add("is-drop-target"); }
  }
  function close() {
    panel.hidden = true;
    panel.textContent = "";
    mark(null);
  }
  function show(html) {
    panel.innerHTML = html;
    panel.hidden = false;
    var cancel = panel.querySelector("[data-editor-cancel]");
    if (cancel) {
      cancel.hidden = false;
      cancel.addEventListener("click", close);
    }
    var first = panel.querySelector("button[type=submit]") || cancel;
    if (first) { first.focus(); }
  }

  document.addEventListener("dragstart", function (event) {
    var card = event.target && event.target.closest ? event.target.closest(".editor-card") : null;
    if (!card) { return; }
    dragged = card;
    event.dataTransfer.setData("text/plain", card.getAttribute("data-key"));
    event.dataTransfer.effectAllowed = "move";
    card.classList.add("is-dragging");
  });
  document.addEventListener("dragend", function () {
    if (dragged) { dragged.classList.remove("is-dragging"); }
    dragged = null;
  });
  document.addEventListener("dragover", function (event) {
    var cell = cellOf(event);
    if (!cell || !dragged) { return; }
    event.preventDefault();
    event.dataTransfer.dropEffect = "move";
    mark(cell);
  });
  // Ask for the check of the session `key` placed there; the panel shows the answer.
  function check(key, day, start, minutes, room) {
    var data = new FormData();
    data.append("csrfmiddlewaretoken", token());
    data.append("action", "check");
    data.append("key", key);
    data.append("day", day);
    data.append("start", start);
    data.append("minutes", String(minutes));
    data.append("room", room);
    fetch(window.location.pathname, {
      method: "POST", body: data, credentials: "same-origin", headers: { "HX-Request": "true" }
    }).then(function (response) { return response.text(); }).then(show, close);
  }

  document.addEventListener("drop", function (event) {
    var cell = cellOf(event);
    if (!cell || !dragged) { return; }
    event.preventDefault();
    mark(cell);
    var row = cell.parentElement;
    check(dragged.getAttribute("data-key"), row.getAttribute("data-day"),
          row.getAttribute("data-start"), dragged.getAttribute("data-minutes"),
          cell.getAttribute("data-room"));
  });

  // The card's lower edge: dragged down or up, the length changes in steps of five minutes,
  // one step for each grid step of height (the grid's --step), then the check as for a move.
  var STEP_MINUTES = 5;
  function end(start, minutes) {  // "HH:MM" of `start` ("HH:MM") plus `minutes`, on a clock
    var parts = start.split(":"), total = (Number(parts[0]) * 60 + Number(parts[1]) + minutes) % 1440;
    return ("0" + Math.floor(total / 60)).slice(-2) + ":" + ("0" + total % 60).slice(-2);
  }
  document.querySelectorAll("[data-editor-resize]").forEach(function (handle) { handle.hidden = false; });
  document.addEventListener("pointerdown", function (event) {
    var handle = event.target && event.target.closest ? event.target.closest("[data-editor-resize]") : null;
    if (!handle) { return; }
    event.preventDefault();
    var card = handle.closest(".editor-card");
    var grid = card.closest(".grid");
    var step = parseFloat(getComputedStyle(grid).getPropertyValue("--step")) *
      parseFloat(getComputedStyle(document.documentElement).fontSize) || 24;
    var from = event.clientY, minutes = Number(card.getAttribute("data-minutes")), length = minutes;
    card.setAttribute("draggable", "false");
    card.classList.add("is-resizing");
    function move(moved) {
      length = Math.max(STEP_MINUTES, minutes + Math.round((moved.clientY - from) / step) * STEP_MINUTES);
      handle.textContent = "→ " + end(card.getAttribute("data-start"), length);
    }
    function up() {
      document.removeEventListener("pointermove", move);
      document.removeEventListener("pointerup", up);
      card.setAttribute("draggable", "true");
      card.classList.remove("is-resizing");
      handle.textContent = "";
      if (length !== minutes) {
        mark(card.closest("td"));
        check(card.getAttribute("data-key"), card.getAttribute("data-day"),
              card.getAttribute("data-start"), length, card.getAttribute("data-room"));
      }
    }
    document.addEventListener("pointermove", move);
    document.addEventListener("pointerup", up);
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && !panel.hidden) { close(); }
  });
})();
