// confsched: shows which rooms are full on pages a cache keeps the same for everyone (the list,
// the grid, a session's page) and keeps the now page's badges current. Every few seconds, while
// the page is seen and shows a session running now (or the now page's rooms), it reads the
// rooms' state (FOSDEM's listrooms shape, web/venue/rooms.py) and shows "Room full" in each
// slot of a full room: [data-room-full="<room name>"], with data-from and data-until when the
// slot belongs to one session (shown only while it runs). On a card the slot is bare (5,000
// cards: every byte counts): its room is the card's .room, its times the card's <time>s. A
// change is said once, politely, to
// screen readers. Without JavaScript the now page and the check-in pages still say it.
(function () {
  "use strict";

  var script = document.currentScript;
  var ADDRESS = script && script.getAttribute("data-rooms");
  if (!ADDRESS || !window.fetch) { return; }
  var FULL = script.getAttribute("data-full") || "Room full";
  var OPEN = script.getAttribute("data-open") || "Room open again";
  // The JSON is kept at most 5 s by a cache: asked every 4 s, a change shows within 10 s.
  var EVERY = 4000;

  var known = null; // {room name: true when full}, as last read
  var news = null; // the polite status region, made at the start
  var isLoading = false;

  function slots() { return document.querySelectorAll("[data-room-full]"); }

  // The room a slot names, or its card's.
  function roomOf(slot) {
    var named = slot.getAttribute("data-room-full");
    if (named) { return named; }
    var card = slot.closest("article");
    var room = card && card.querySelector(".room");
    return room ? room.textContent : "";
  }

  // A session's start and end: the slot's own, or its card's two <time>s.
  function timesOf(slot) {
    var from = slot.getAttribute("data-from"), until = slot.getAttribute("data-until");
    if (from === null) {
      var card = slot.closest("article");
      var times = card ? card.querySelectorAll(".when time[datetime]") : [];
      if (times.length < 2) { return null; }
      from = times[0].getAttribute("datetime");
      until = times[1].getAttribute("datetime");
    }
    return [Date.parse(from), Date.parse(until || "")];
  }

  // A session's slot counts while the session runs (by this device's clock); a room's, always.
  function isRunning(slot, now) {
    if (slot.getAttribute("data-room-full") && slot.getAttribute("data-from") === null) {
      return true;
    }
    var times = timesOf(slot);
    return times !== null && !isNaN(times[0]) && !isNaN(times[1]) &&
      times[0] <= now && now < times[1];
  }

  function show(full) {
    var now = Date.now();
    slots().forEach(function (slot) {
      var isFull = full[roomOf(slot)] === true && isRunning(slot, now);
      if (isFull && (slot.hidden || slot.textContent !== FULL)) {
        slot.textContent = FULL;
        slot.hidden = false;
      } else if (!isFull && !slot.hidden) {
        slot.hidden = true;
        slot.textContent = "";
      }
    });
  }

  // Only rooms this page shows now are said, and only when their state changed.
  function say(full) {
    if (known === null) { return; }
    var now = Date.now(), seen = {}, lines = [];
    slots().forEach(function (slot) {
      var room = roomOf(slot);
      if (seen[room] || !isRunning(slot, now)) { return; }
      seen[room] = true;
      var was = known[room] === true, is = full[room] === true;
      if (was !== is) { lines.push((is ? FULL : OPEN) + ": " + room); }
    });
    if (lines.length && news) { news.textContent = lines.join(". "); }
  }

  function isWanted() {
    if (document.visibilityState === "hidden") { return false; }
    var now = Date.now();
    return Array.prototype.some.call(slots(), function (slot) { return isRunning(slot, now); });
  }

  function poll() {
    if (isLoading || !isWanted()) { return; }
    isLoading = true;
    // no-store: past the browser's own cache (the cache in front keeps it 5 s at most).
    fetch(ADDRESS, { cache: "no-store", credentials: "omit", headers: { Accept: "application/json" } })
      .then(function (response) {
        if (!response.ok) { throw new Error("HTTP " + response.status); }
        return response.json();
      })
      .then(function (rooms) {
        var full = {};
        rooms.forEach(function (room) { full[room.roomname] = room.state === "1"; });
        say(full);
        known = full;
        show(full);
      })
      .catch(function () { /* offline or refused: the page keeps what it shows */ })
      .then(function () { isLoading = false; });
  }

  function setUp() {
    // The live region exists before anything is said in it, so that it is heard.
    news = document.createElement("p");
    news.className = "visually-hidden";
    news.setAttribute("role", "status");
    news.setAttribute("aria-live", "polite");
    news.setAttribute("data-room-news", "");
    document.body.appendChild(news);
    poll();
    window.setInterval(function () {
      poll();
      if (known) { show(known); } // sessions begin and end between answers; the now page refreshes
    }, EVERY);
    document.addEventListener("visibilitychange", poll);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUp);
  } else {
    setUp();
  }
})();
