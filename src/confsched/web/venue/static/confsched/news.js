// confsched: keeps the team's announcements banner current without a reload. Every 10 s while
// the page is seen it reads /<event>/announcements.json (web/venue/news.py, kept 5 s at most by
// a cache) and shows, updates or removes the banner (the same markup the server draws:
// web/venue/templates/confsched/_news.html), in the page's language, else the event's default.
// A new announcement is said once, politely, to screen readers. Without JavaScript the banner
// is drawn by the server on every page load.
(function () {
  "use strict";

  var script = document.currentScript;
  var ADDRESS = script && script.getAttribute("data-news");
  if (!ADDRESS || !window.fetch) { return; }
  var TITLE = script.getAttribute("data-title") || "From the organizers";
  var MORE = script.getAttribute("data-more") || "Read more";
  var NEW = script.getAttribute("data-new") || "New announcement";
  var EVERY = 10000;

  var isLoading = false;
  var status = null; // the polite live region, made at the start

  function language() { return document.documentElement.lang || ""; }

  function shownIds() {
    var ids = [];
    document.querySelectorAll("[data-news-banner] [data-news-id]").forEach(function (item) {
      ids.push(item.getAttribute("data-news-id"));
    });
    return ids;
  }

  function item(news, fallback) {
    var own = news.texts[language()] ? language() : fallback;
    var li = document.createElement("li");
    li.setAttribute("data-news-id", String(news.id));
    var text = document.createElement("p");
    text.id = "news-" + news.id;
    if (own !== language()) { text.setAttribute("lang", own); }
    text.textContent = news.texts[own] || "";
    li.appendChild(text);
    if (news.link) {
      li.appendChild(document.createTextNode(" "));
      var link = document.createElement("a");
      link.href = news.link; // an https address or a path: the server refuses any other
      link.setAttribute("aria-describedby", text.id);
      link.textContent = MORE;
      li.appendChild(link);
    }
    return li;
  }

  function banner(list, fallback) {
    var section = document.createElement("section");
    section.className = "news";
    section.setAttribute("aria-labelledby", "news-title");
    section.setAttribute("data-news-banner", "");
    var wrap = document.createElement("div");
    wrap.className = "wrap";
    var title = document.createElement("h2");
    title.className = "news-title";
    title.id = "news-title";
    title.textContent = TITLE;
    var items = document.createElement("ul");
    items.className = "news-list";
    list.forEach(function (news) { items.appendChild(item(news, fallback)); });
    wrap.appendChild(title);
    wrap.appendChild(items);
    section.appendChild(wrap);
    return section;
  }

  function show(answer) {
    var list = answer.announcements || [];
    var before = shownIds();
    var after = list.map(function (news) { return String(news.id); });
    if (before.join(",") === after.join(",")) { return; }
    var old = document.querySelector("[data-news-banner]");
    if (!list.length) {
      if (old) { old.remove(); }
      return;
    }
    var fresh = banner(list, answer.language || "");
    if (old) {
      old.replaceWith(fresh);
    } else {
      var header = document.querySelector(".site-header");
      if (!header) { return; }
      header.insertAdjacentElement("afterend", fresh);
    }
    var added = list.filter(function (news) { return before.indexOf(String(news.id)) < 0; });
    if (added.length && status) {
      var first = fresh.querySelector("[data-news-id='" + added[0].id + "'] p");
      status.textContent = NEW + ": " + (first ? first.textContent : "");
    }
  }

  function poll() {
    if (isLoading || document.visibilityState === "hidden") { return; }
    isLoading = true;
    fetch(ADDRESS, { cache: "no-store", credentials: "omit", headers: { Accept: "application/json" } })
      .then(function (response) {
        if (!response.ok) { throw new Error("HTTP " + response.status); }
        return response.json();
      })
      .then(show)
      .catch(function () { /* offline or refused: the page keeps what it shows */ })
      .then(function () { isLoading = false; });
  }

  function setUp() {
    // The live region exists before anything is said in it, so that it is heard.
    status = document.createElement("p");
    status.className = "visually-hidden";
    status.setAttribute("role", "status");
    status.setAttribute("aria-live", "polite");
    status.setAttribute("data-news-status", "");
    document.body.appendChild(status);
    window.setInterval(poll, EVERY);
    document.addEventListener("visibilitychange", poll);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUp);
  } else {
    setUp();
  }
})();
