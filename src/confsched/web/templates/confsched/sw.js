// confsched service worker for one event: its pages readable offline, stars kept until sent.
// Served by views_offline.service_worker, which writes CONFIG (addresses under any prefix).
"use strict";

var CONFIG = {{ config|safe }};
var NETWORK_TIMEOUT_MS = 3000;
var CACHED_AT = "X-Confsched-Cached-At";
var DB_NAME = CONFIG.cachePrefix + "outbox";
var VERSION_KEY = CONFIG.version + "#seen";

function absolute(path) { return new URL(path, self.location.origin).href; }
var SCOPE = absolute(CONFIG.scope);
var STATIC_FILES = CONFIG.staticFiles.map(absolute);
var SKIP = CONFIG.skip.map(absolute);

// ---- The copy: pages and static files, each stamped with when it was taken. ----

function stamped(response) {
  var headers = new Headers();
  response.headers.forEach(function (value, name) {
    // The body is stored decoded: its old encoding and length no longer describe it.
    if (name !== "content-encoding" && name !== "content-length") { headers.set(name, value); }
  });
  headers.set(CACHED_AT, new Date().toISOString());
  return response.blob().then(function (body) {
    return new Response(body, { status: response.status, statusText: response.statusText, headers: headers });
  });
}

function isKeptPage(request, response) {
  var type = response.headers.get("content-type") || "";
  return response.status === 200 && type.indexOf("text/html") === 0 && !request.headers.get("HX-Request");
}

function store(request, response) {
  return stamped(response).then(function (copy) {
    return caches.open(CONFIG.cache).then(function (cache) { return cache.put(request.url, copy); });
  });
}

function fetchAndStore(url) {
  var request = new Request(url, { credentials: "same-origin", cache: "no-cache" });
  return fetch(request).then(function (response) {
    if (response.ok) { return store(request, response.clone()).then(function () { return response; }); }
    return response;
  });
}

function cachedCopy(url) {
  return caches.open(CONFIG.cache).then(function (cache) { return cache.match(url, { ignoreVary: true }); });
}

function escapeHtml(text) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

// A page from the copy says so at its top, with the time the copy was taken. The banner goes
// after the site header, not before it: reloading a page that has gone offline, the browser
// brings back the scroll position by the element that was at the top (the header), so a banner
// above the header would open scrolled out of view. Sticky (app.css), it stays on screen.
function withBanner(response) {
  var taken = response.headers.get(CACHED_AT) || "";
  return response.text().then(function (html) {
    var when = taken ? new Date(taken) : null;
    var label = when ? when.toLocaleString(undefined, { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" }) : "earlier";
    var banner = '<p class="offline-banner" role="status" data-offline-copy>Offline copy from <time datetime="' +
      escapeHtml(taken) + '">' + escapeHtml(label) + "</time>. It refreshes when you are back online. <span data-offline-status></span></p>";
    var after = html.indexOf("</header>") >= 0 ? /<\/header>/ : /<body[^>]*>/;
    var page = html.replace(after, function (tag) { return tag + banner; });
    var headers = new Headers(response.headers);
    headers.delete("etag");
    return new Response(page, { status: response.status, headers: headers });
  });
}

function timeout(ms) {
  return new Promise(function (resolve) { setTimeout(function () { resolve(null); }, ms); });
}

// Network first (the schedule may have changed), the copy when the network fails or is slow.
function networkFirst(event) {
  var request = event.request;
  var isPage = request.mode === "navigate";
  var network = fetch(request).then(function (response) {
    if (isKeptPage(request, response) || (STATIC_FILES.indexOf(request.url) >= 0 && response.ok)) {
      event.waitUntil(store(request, response.clone()));
    }
    return response;
  });
  var fallback = function () {
    return cachedCopy(request.url).then(function (copy) {
      if (!copy) { return network; }
      return isPage ? withBanner(copy) : copy;
    });
  };
  var raced = Promise.race([network.catch(function () { return null; }), timeout(NETWORK_TIMEOUT_MS)]);
  return raced.then(function (response) { return response || fallback(); });
}

// ---- Stars sent offline: kept in order in IndexedDB, sent when the network is back. ----

function openOutbox() {
  return new Promise(function (resolve, reject) {
    var opening = indexedDB.open(DB_NAME, 1);
    opening.onupgradeneeded = function () { opening.result.createObjectStore("stars", { keyPath: "id", autoIncrement: true }); };
    opening.onsuccess = function () { resolve(opening.result); };
    opening.onerror = function () { reject(opening.error); };
  });
}

function outbox(mode, work) {
  return openOutbox().then(function (db) {
    return new Promise(function (resolve, reject) {
      var transaction = db.transaction("stars", mode);
      var result = work(transaction.objectStore("stars"));
      transaction.oncomplete = function () { db.close(); resolve(result && "result" in result ? result.result : result); };
      transaction.onerror = function () { db.close(); reject(transaction.error); };
    });
  });
}

function queued() { return outbox("readonly", function (stars) { return stars.getAll(); }); }

function starredFrom(body) { return new URLSearchParams(body).get("starred") === "1"; }

// The button as _star.html draws it, in its new state; the title comes from the page's copy.
function starButton(path, isStarred, title) {
  var url = escapeHtml(path);
  return '<button type="submit" form="star-form" formaction="' + url + '" name="starred" value="' + (isStarred ? "0" : "1") +
    '" hx-post="' + url + '" hx-swap="outerHTML" class="star' + (isStarred ? " is-starred" : "") + '" aria-pressed="' + (isStarred ? "true" : "false") +
    '" title="' + (isStarred ? "Remove from my agenda" : "Add to my agenda") + '"><span aria-hidden="true">' + (isStarred ? "\u2605" : "\u2606") +
    '</span><span class="visually-hidden">' + (isStarred ? "Starred: remove \u201c" + title + "\u201d from my agenda" : "Star \u201c" + title + "\u201d for my agenda") +
    "</span></button>";
}

// The session's title as escaped in the page the star was clicked on (or its session page).
function titleFor(path, pageUrl) {
  var look = function (url) {
    return url ? cachedCopy(url).then(function (copy) { return copy ? copy.text() : ""; }) : Promise.resolve("");
  };
  var find = function (html) {
    var at = html.indexOf('formaction="' + escapeHtml(path) + '"');
    if (at < 0) { return ""; }
    var found = /<span class="visually-hidden">(?:Starred: remove|Star) \u201c([\s\S]*?)\u201d/.exec(html.slice(at, at + 4000));
    return found ? found[1] : "";
  };
  return look(pageUrl).then(function (html) {
    var title = find(html);
    return title ? title : look(absolute(path.replace(/star$/, ""))).then(find);
  }).then(function (title) { return title || "this session"; });
}

function keepStar(request, body) {
  var entry = {
    url: request.url, body: body, at: new Date().toISOString(),
    contentType: request.headers.get("Content-Type") || "application/x-www-form-urlencoded",
  };
  return outbox("readwrite", function (stars) { stars.add(entry); }).then(function () {
    notify({ type: "star-kept", url: request.url, starred: starredFrom(body) });
  });
}

// Star requests one at a time, in the order they were made: a visitor's stars live in their
// Django session, and two star requests in flight would each save it without the other's star.
var sending = Promise.resolve();

function inTurn(work) {
  var turn = sending.then(work);
  sending = turn.catch(function () { return null; });
  return turn;
}

function sendStar(request) { return inTurn(function () { return sendStarNow(request); }); }

function sendStarNow(request) {
  return request.clone().text().then(function (body) {
    // Stars kept offline go first; whatever becomes of them, this star still goes out now.
    var earlier = replay().catch(function (error) { console.error("confsched: kept stars not sent", error); });
    // Only a network failure keeps the star for later: online, the server's answer is shown.
    return earlier.then(function () { return fetch(request); }).catch(function () {
      return keepStar(request, body).then(function () {
        var url = new URL(request.url);
        var isStarred = starredFrom(body);
        if (request.headers.get("HX-Request")) {
          return titleFor(url.pathname, request.headers.get("HX-Current-URL") || request.referrer).then(function (title) {
            return new Response(starButton(url.pathname, isStarred, title), { headers: { "Content-Type": "text/html; charset=utf-8" } });
          });
        }
        // A plain form: back to the page it came from, as the server would have done.
        var next = new URLSearchParams(body).get("next") || "";
        var target = new URL(next || request.referrer || SCOPE, self.location.origin);
        return Response.redirect(target.origin === self.location.origin ? target.href : SCOPE, 303);
      });
    });
  });
}

function freshToken() {
  return fetch(absolute(CONFIG.agenda), { credentials: "same-origin", cache: "no-cache" }).then(function (response) {
    return response.text();
  }).then(function (html) {
    var found = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(html);
    return found ? found[1] : "";
  });
}

function post(entry, body) {
  return fetch(entry.url, {
    method: "POST", body: body, credentials: "same-origin", redirect: "manual",
    headers: { "Content-Type": entry.contentType, "HX-Request": "true" },
  });
}

function sendKept(entry) {
  return post(entry, entry.body).then(function (response) {
    if (response.status !== 403) { return response; }
    // The token in the kept form went stale (a log-in since): the same star with a new one.
    return freshToken().then(function (token) {
      var form = new URLSearchParams(entry.body);
      form.set("csrfmiddlewaretoken", token);
      return post(entry, form.toString());
    });
  });
}

var replaying = null;

// Sends the kept stars oldest first; stops at the first network failure, keeping the rest.
function replay() {
  if (replaying) { return replaying; }
  replaying = queued().then(function (entries) {
    var sent = 0;
    var next = function (index) {
      // Always a promise, also for an empty outbox: the caller chains .catch on it.
      if (index >= entries.length) { return Promise.resolve(sent); }
      return sendKept(entries[index]).then(function (response) {
        // Sent, or refused for good (a session gone): either way it leaves the outbox.
        if (response.status >= 500) { throw new Error("server error " + response.status); }
        return outbox("readwrite", function (stars) { stars.delete(entries[index].id); }).then(function () {
          sent += 1;
          return next(index + 1);
        });
      });
    };
    return next(0).catch(function () { return sent; }).then(function () {
      // Stars still kept (the network came back to the page before it came back here, or
      // went again): the page asks again a little later (offline.js).
      if (sent < entries.length) { notify({ type: "stars-waiting", count: entries.length - sent }); }
      return sent;
    });
  }).then(function (sent) {
    if (sent) {
      notify({ type: "stars-sent", count: sent });
      return refreshCopy().then(function () { return sent; });
    }
    return sent;
  }).finally(function () { replaying = null; });
  return replaying;
}

// ---- Keeping the copy current: the version endpoint says when the schedule changed. ----

function refreshCopy() {
  return caches.open(CONFIG.cache).then(function (cache) {
    return cache.keys().then(function (requests) {
      var pages = requests.map(function (request) { return request.url; }).filter(function (url) {
        return STATIC_FILES.indexOf(url) < 0 && url !== absolute(VERSION_KEY);
      });
      CONFIG.pages.map(absolute).forEach(function (url) { if (pages.indexOf(url) < 0) { pages.push(url); } });
      return Promise.all(pages.map(function (url) { return fetchAndStore(url).catch(function () { return null; }); }));
    });
  });
}

function checkVersion() {
  return fetch(absolute(CONFIG.version), { cache: "no-cache" }).then(function (response) {
    if (!response.ok) { return false; }
    return response.json().then(function (now) {
      return caches.open(CONFIG.cache).then(function (cache) {
        return cache.match(absolute(VERSION_KEY)).then(function (seen) {
          return seen ? seen.json() : null;
        }).then(function (before) {
          var stamp = new Response(JSON.stringify(now), { headers: { "Content-Type": "application/json" } });
          return cache.put(absolute(VERSION_KEY), stamp).then(function () {
            if (!before || before.updated_at === now.updated_at) { return false; }
            return refreshCopy().then(function () {
              notify({ type: "copy-refreshed", version: now.version });
              return true;
            });
          });
        });
      });
    });
  }).catch(function () { return false; });
}

function notify(message) {
  return self.clients.matchAll({ type: "window" }).then(function (windows) {
    windows.forEach(function (client) { client.postMessage(message); });
  });
}

self.addEventListener("install", function (event) {
  event.waitUntil(
    Promise.all(CONFIG.pages.map(absolute).concat(STATIC_FILES).map(function (url) {
      return fetchAndStore(url).catch(function () { return null; });
    })).then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf(CONFIG.cachePrefix) === 0 && name !== CONFIG.cache;
      }).map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); }).then(checkVersion)
  );
});

self.addEventListener("message", function (event) {
  var type = event.data && event.data.type;
  if (type === "replay") { event.waitUntil(inTurn(replay)); }
  if (type === "check") { event.waitUntil(checkVersion()); }
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin || SKIP.indexOf(url.href.split("?")[0]) >= 0) { return; }
  if (request.method === "POST") {
    if (url.href.indexOf(SCOPE) === 0 && /\/sessions\/[^/]+\/star$/.test(url.pathname)) {
      event.respondWith(sendStar(request));
    }
    return;
  }
  if (request.method !== "GET") { return; }
  var isStatic = STATIC_FILES.indexOf(url.href) >= 0;
  // htmx's fragments are not pages: never kept, never answered with a whole page.
  var isPage = url.href.indexOf(SCOPE) === 0 && !request.headers.get("HX-Request") &&
    (request.mode === "navigate" || (request.headers.get("Accept") || "").indexOf("text/html") >= 0);
  if (isStatic || isPage) { event.respondWith(networkFirst(event)); }
});
