// confsched: the schedule editor's drag and drop. Without this file every session is moved with
// its form (open it from the grid). With it: a session card dragged onto another room column or
// time row asks the server to check the move (the same check as the form's "Check", answered
// as an HTML fragment), shows the problems in a panel before anything is saved, and the panel's
// button saves it (a plain form: the page comes back with the grid updated).
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
  document.addEventListener("drop", function (event) {
    var cell = cellOf(event);
    if (!cell || !dragged) { return; }
    event.preventDefault();
    mark(cell);
    var row = cell.parentElement;
    var data = new FormData();
    data.append("csrfmiddlewaretoken", token());
    data.append("action", "check");
    data.append("key", dragged.getAttribute("data-key"));
    data.append("day", row.getAttribute("data-day"));
    data.append("start", row.getAttribute("data-start"));
    data.append("minutes", dragged.getAttribute("data-minutes"));
    data.append("room", cell.getAttribute("data-room"));
    fetch(window.location.pathname, {
      method: "POST", body: data, credentials: "same-origin", headers: { "HX-Request": "true" }
    }).then(function (response) { return response.text(); }).then(show, close);
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && !panel.hidden) { close(); }
  });
})();
