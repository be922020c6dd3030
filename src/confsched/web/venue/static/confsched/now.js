// confsched: keeps the now-and-next page current. Without it the page is right when loaded.
// Every minute it counts the "left" and "in" times down and fetches the board afresh; with no
// network it keeps counting and says since when the board is stale.
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

  var MINUTE = 60000;

  // The same words as web/venue/now_board.py duration_words.
  function words(ms) {
    var minutes = Math.floor(ms / MINUTE);
    if (minutes < 1) { return t("less than a minute"); }
    if (minutes < 60) { return t("{minutes} min", { minutes: minutes }); }
    if (minutes < 24 * 60) {
      var hours = Math.floor(minutes / 60), rest = minutes % 60;
      return rest ? t("{hours} h {minutes} min", { hours: hours, minutes: rest }) : t("{hours} h", { hours: hours });
    }
    var days = Math.floor(minutes / (24 * 60));
    return days === 1 ? t("{days} day", { days: days }) : t("{days} days", { days: days });
  }

  function countDown(root) {
    var now = Date.now();
    root.querySelectorAll("[data-countdown]").forEach(function (element) {
      var left = Date.parse(element.getAttribute("data-at")) - now;
      if (isNaN(left)) { return; }
      if (element.getAttribute("data-countdown") === "left") {
        element.textContent = left > 0 ? t("{words} left", { words: words(left) }) : t("ended");
      } else {
        element.textContent = left > 0 ? t("in {words}", { words: words(left) }) : t("starting now");
      }
    });
  }

  function board() { return document.querySelector("[data-now-board]"); }

  function say(message) {
    var status = document.querySelector("[data-now-status]");
    if (status) { status.textContent = message; }
  }

  var isLoading = false;

  function refresh() {
    var current = board();
    if (!current || isLoading || !window.fetch || !window.DOMParser) { return; }
    isLoading = true;
    fetch(window.location.href, { cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) { throw new Error("HTTP " + response.status); }
        return response.text();
      })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html").querySelector("[data-now-board]");
        if (!fresh) { throw new Error("no board in the page"); }
        // Keep a keyboard user's place: focus the same link in the new board.
        var focused = document.activeElement;
        var href = focused && current.contains(focused) ? focused.getAttribute("href") : null;
        current.replaceWith(fresh);
        if (href) {
          var same = fresh.querySelector('a[href="' + CSS.escape(href) + '"]');
          if (same) { same.focus(); }
        }
        countDown(fresh);
      })
      .catch(function () {
        var time = document.querySelector("[data-now-board] .now-as-of time");
        say(t("Could not refresh (offline?): this is the board as of {time}.", { time: time ? time.textContent : t("earlier") }));
        countDown(document);
      })
      .then(function () { isLoading = false; });
  }

  function everyMinute() {
    refresh();
    // At the turn of each minute (and a second after, so the server's minute has turned too).
    window.setTimeout(everyMinute, MINUTE - (Date.now() % MINUTE) + 1000);
  }

  function setUp() {
    if (!board()) { return; }
    countDown(document);
    window.setTimeout(everyMinute, MINUTE - (Date.now() % MINUTE) + 1000);
    // A phone taken out of a pocket, or back on the network: show what runs now at once.
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") { refresh(); }
    });
    window.addEventListener("online", refresh);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUp);
  } else {
    setUp();
  }
})();
