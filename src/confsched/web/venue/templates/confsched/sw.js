// confsched service worker for one event: its pages readable offline, stars kept until sent.
// Served by venue/offline.service_worker, which writes CONFIG (addresses under any prefix).
//
// Every page of the event is personal (the account corner, the stars), so pages are kept per
// account: in a cache named after the marker the server gives for the person now signed in
// (version.json's "account", never a secret), and only that person's cache is ever read. When
// the marker changes (a log-out skipped, a session expired, another tab), the other people's
// caches and kept stars are dropped. Log-out itself clears everything (Clear-Site-Data).
// A response marked no-store is never kept, unless the server says the person's copy may keep
// it (X-Confsched-Offline: account). Copies are kept gzip-compressed. The agenda is no-store
// (its feed and share addresses): opened online, the worker asks for its copy without them
// (X-Confsched-Offline: copy), which the person's cache keeps like their other pages.
"use strict";

var CONFIG = {{ config|safe }};
// The words of the pages made offline, in the person's language (web/site/script_strings.py).
function t(text, values) {
  return ((CONFIG.strings || {})[text] || text).replace(/\{(\w+)\}/g, function (whole, name) {
    return values && name in values ? String(values[name]) : whole;
  });
}
var NETWORK_TIMEOUT_MS = 3000;
var CACHED_AT = "X-Confsched-Cached-At";
var PACKED = "X-Confsched-Packed";
var DB_NAME = CONFIG.cachePrefix + "outbox";
// Cache keys leave out a URL's fragment: these two differ by their query.
var VERSION_KEY = CONFIG.version + "?seen";
var ACCOUNT_KEY = CONFIG.version + "?account";

function absolute(path) { return new URL(path, self.location.origin).href; }
var SCOPE = absolute(CONFIG.scope);
var STATIC_FILES = CONFIG.staticFiles.map(absolute);
var SKIP = CONFIG.skip.map(absolute);
var AGENDA = absolute(CONFIG.agenda);
var SEARCH = absolute(CONFIG.search);

// ---- Whose copy: the account marker the server names, remembered for reading offline. ----

function pagesCache(account) { return CONFIG.cache + "/" + account; }

function rememberedAccount() {
  return caches.open(CONFIG.cache).then(function (cache) {
    return cache.match(absolute(ACCOUNT_KEY));
  }).then(function (found) { return found ? found.text() : ""; });
}

// Another person now: their copy starts empty; no one else's pages or stars are kept.
function switchAccount(account) {
  return caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf(CONFIG.cachePrefix) === 0 && name.indexOf("/") >= 0 && name !== pagesCache(account);
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () {
    return outbox("readwrite", function (stars) {
      var reading = stars.getAll();
      reading.onsuccess = function () {
        reading.result.forEach(function (entry) { if (entry.account !== account) { stars.delete(entry.id); } });
      };
    });
  }).then(function () {
    return caches.open(CONFIG.cache).then(function (cache) {
      return cache.put(absolute(ACCOUNT_KEY), new Response(account, { headers: { "Content-Type": "text/plain" } }));
    });
  });
}

function learnAccount(account) {
  return rememberedAccount().then(function (before) {
    return before === account ? account : switchAccount(account).then(function () { return account; });
  });
}

var asking = null;

// Who the server says is signed in now ("" when it cannot be asked); also the version.
function askServer() {
  if (asking) { return asking; }
  asking = fetch(absolute(CONFIG.version), { credentials: "same-origin", cache: "no-cache" }).then(function (response) {
    if (!response.ok) { return null; }
    return response.json().then(function (now) {
      return learnAccount(now.account).then(function () { return now; });
    });
  }).catch(function () { return null; }).finally(function () { asking = null; });
  return asking;
}

// ---- The copy: pages and static files, each stamped with when it was taken. ----

function isNoStore(response) {
  return /(^|,)\s*no-store\s*(,|$)/i.test(response.headers.get("cache-control") || "");
}

function packed(response) {
  var headers = new Headers();
  response.headers.forEach(function (value, name) {
    // The body is stored recompressed by us: its old encoding and length no longer describe it.
    if (name !== "content-encoding" && name !== "content-length") { headers.set(name, value); }
  });
  headers.set(CACHED_AT, new Date().toISOString());
  headers.set(PACKED, "gzip");
  var body = response.body.pipeThrough(new CompressionStream("gzip"));
  return new Response(body).blob().then(function (blob) {
    return new Response(blob, { status: response.status, statusText: response.statusText, headers: headers });
  });
}

function unpacked(copy) {
  if (!copy || copy.headers.get(PACKED) !== "gzip") { return copy; }
  var headers = new Headers(copy.headers);
  headers.delete(PACKED);
  return new Response(copy.body.pipeThrough(new DecompressionStream("gzip")), {
    status: copy.status, statusText: copy.statusText, headers: headers,
  });
}

// A person's page is no-store for every HTTP cache; the server says which of them this copy,
// the person's own and dropped at log-out, may keep (web/site/private.py): not those with
// secrets (the agenda's feed address, a check-in code).
function isKeptPage(request, response) {
  var type = response.headers.get("content-type") || "";
  var mayKeep = !isNoStore(response) || response.headers.get("X-Confsched-Offline") === "account";
  return response.status === 200 && type.indexOf("text/html") === 0 && !request.headers.get("HX-Request") && mayKeep;
}

function isKeptStatic(request, response) {
  return STATIC_FILES.indexOf(request.url) >= 0 && response.ok && !isNoStore(response);
}

function storeIn(name, url, response) {
  return packed(response).then(function (copy) {
    return caches.open(name).then(function (cache) { return cache.put(url, copy); });
  });
}

// A page goes in the cache of the person the server says it was made for. Its body is read
// first: no HTTP cache stores a person's page (no-store), so its connection stays busy until
// the body is read, and asking the server whose it is needs a connection too.
function storePage(url, response) {
  var copying = packed(response);
  return askServer().then(function (now) {
    return copying.then(function (copy) {
      if (!now) { return null; }
      // A copy that names its person (the agenda's) is kept only while they are signed in.
      var whose = copy.headers.get("X-Confsched-Offline-Account");
      if (whose && whose !== now.account) { return null; }
      return caches.open(pagesCache(now.account)).then(function (cache) { return cache.put(url, copy); });
    });
  });
}

function fetchAndStore(url) {
  // The agenda's own copy: the page without its secrets, which the person's copy may keep.
  var headers = url === AGENDA ? { "X-Confsched-Offline": "copy" } : {};
  var request = new Request(url, { credentials: "same-origin", cache: "no-cache", headers: headers });
  return fetch(request).then(function (response) {
    if (isKeptStatic(request, response)) { return storeIn(CONFIG.cache, url, response); }
    if (isKeptPage(request, response)) { return storePage(url, response); }
    return null;
  });
}

function cachedCopy(url) {
  var inCache = function (name) {
    return caches.open(name).then(function (cache) { return cache.match(url, { ignoreVary: true }); });
  };
  if (STATIC_FILES.indexOf(url) >= 0) { return inCache(CONFIG.cache).then(unpacked); }
  return rememberedAccount().then(function (account) {
    return account ? inCache(pagesCache(account)).then(unpacked) : null;
  });
}

function escapeHtml(text) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

// The zone the page's times are in: the one chosen in its zone picker, else the event's.
function pageZone(html) {
  var picker = html.indexOf('id="tz"');
  var chosen = picker >= 0 ? /<option(?: value="([^"]*)")? selected>([^<]*)</.exec(html.slice(picker, picker + 20000)) : null;
  return chosen ? (chosen[1] || chosen[2]) : CONFIG.timeZone;
}

// The time a copy was taken, as the site writes times: in the page's zone, on a 24-hour clock.
function takenLabel(when, zone) {
  var options = { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23" };
  try {
    return when.toLocaleString("en-GB", Object.assign({ timeZone: zone }, options));
  } catch (error) {  // a zone this browser does not know: the event's
    return when.toLocaleString("en-GB", Object.assign({ timeZone: CONFIG.timeZone }, options));
  }
}

// A page from the copy says so at its top, with the time the copy was taken. The banner goes
// after the site header, not before it: reloading a page that has gone offline, the browser
// brings back the scroll position by the element that was at the top (the header), so a banner
// above the header would open scrolled out of view. Sticky (app.css), it stays on screen.
function withBanner(response) {
  var taken = response.headers.get(CACHED_AT) || "";
  return response.text().then(function (html) {
    var when = taken ? new Date(taken) : null;
    var label = when ? takenLabel(when, pageZone(html)) : t("earlier");
    var time = '<time datetime="' + escapeHtml(taken) + '">' + escapeHtml(label) + "</time>";
    var banner = '<p class="offline-banner" role="status" data-offline-copy>' +
      escapeHtml(t("Offline copy from {time}. It refreshes when you are back online.")).replace("{time}", time) +
      " <span data-offline-status></span></p>";
    var after = html.indexOf("</header>") >= 0 ? /<\/header>/ : /<body[^>]*>/;
    var page = html.replace(after, function (tag) { return tag + banner; });
    var headers = new Headers(response.headers);
    headers.delete("etag");
    headers.delete(CACHED_AT);
    return new Response(page, { status: response.status, headers: headers });
  });
}

// ---- Pages not read yet: made offline from the event's data (its JSON export). ----
//
// Every session and speaker page at 5,000 sessions would be ~130 MB (~30 MB compressed):
// instead the worker keeps the schedule's JSON export (public, one request, ~0.6 MB kept
// compressed at 5,000 sessions) and draws a page it has no copy of from it, inside the frame
// of the person's own copy of the schedule page.

var DATA_URL = absolute(CONFIG.data);
var data = null;  // { at, sessions: {path: session}, byPerson: {name: [session]} }

function fetchData() {
  return fetch(new Request(DATA_URL, { credentials: "same-origin", cache: "no-cache" })).then(function (response) {
    if (!response.ok || isNoStore(response)) { return null; }
    data = null;
    return storeIn(CONFIG.cache, DATA_URL, response);
  }).catch(function () { return null; });
}

function eventData() {
  if (data) { return Promise.resolve(data); }
  return caches.open(CONFIG.cache).then(function (cache) { return cache.match(DATA_URL); }).then(function (copy) {
    if (!copy) { return null; }
    var at = copy.headers.get(CACHED_AT) || "";
    return unpacked(copy).json().then(function (json) {
      var sessions = {};
      var byPerson = {};
      (json.schedule.conference.days || []).forEach(function (day) {
        Object.keys(day.rooms || {}).forEach(function (room) {
          day.rooms[room].forEach(function (session) {
            sessions[new URL(session.url).pathname] = session;
            (session.persons || []).forEach(function (person) {
              var name = person.public_name || person.name;
              (byPerson[name] = byPerson[name] || []).push(session);
            });
          });
        });
      });
      data = { at: at, sessions: sessions, byPerson: byPerson };
      return data;
    });
  });
}

function paragraphs(text) {
  return String(text || "").split(/\n\s*\n/).filter(function (part) { return part.trim(); }).map(function (part) {
    return "<p>" + escapeHtml(part.trim()).replace(/\n/g, "<br>") + "</p>";
  }).join("");
}

function when(iso, zone, options) {
  try {
    return new Date(iso).toLocaleString("en-GB", Object.assign({ timeZone: zone, hourCycle: "h23" }, options));
  } catch (error) {
    return new Date(iso).toLocaleString("en-GB", Object.assign({ timeZone: CONFIG.timeZone, hourCycle: "h23" }, options));
  }
}

var DAY_TIME = { weekday: "long", day: "numeric", month: "long", year: "numeric", hour: "2-digit", minute: "2-digit" };
var TIME = { hour: "2-digit", minute: "2-digit" };

// The person's star for a session as their copy of the schedule shows it (else not starred).
function starFor(path, title, frame) {
  var star = path + "star";
  var at = frame.indexOf('formaction="' + escapeHtml(star) + '"');
  var isStarred = at >= 0 && /aria-pressed="true"/.test(frame.slice(frame.lastIndexOf("<button", at), frame.indexOf("</button>", at)));
  return starButton(star, isStarred, escapeHtml(title));
}

function speakerPaths(frameOfSpeakers) {
  var paths = {};
  var link = /<a href="([^"]+\/speakers\/[^"\/]+\/)">([^<]*)<\/a>/g;
  var found;
  while ((found = link.exec(frameOfSpeakers))) { paths[found[2]] = found[1]; }
  return paths;
}

function sessionMain(session, path, zone, frame, speakers) {
  var people = (session.persons || []).map(function (person) {
    var name = escapeHtml(person.public_name || person.name);
    return "<li>" + (speakers[name] ? '<a href="' + speakers[name] + '">' + name + "</a>" : name) + "</li>";
  }).join("");
  return '<nav class="crumbs" aria-label="' + t("Breadcrumb") + '"><a href="' + escapeHtml(SCOPE) + '">' + t("Schedule") + '</a> › <span aria-current="page">' + t("Session") + "</span></nav>" +
    '<article class="session-page">' + (session.type ? '<p class="kind">' + escapeHtml(session.type) + "</p>" : "") +
    "<h1>" + escapeHtml(session.title) + "</h1>" +
    '<div class="session-actions">' + starFor(path, session.title, frame) + "</div>" +
    '<dl class="facts"><div><dt>' + t("When") + "</dt><dd>" + '<time datetime="' + escapeHtml(session.date) + '">' + escapeHtml(when(session.date, zone, DAY_TIME)) +
    '</time>–<time datetime="' + escapeHtml(session.end) + '">' + escapeHtml(when(session.end, zone, TIME)) + '</time> <span class="zone-note">' + escapeHtml(zone) + "</span></dd></div>" +
    (session.room ? "<div><dt>" + t("Where") + "</dt><dd>" + escapeHtml(session.room) + "</dd></div>" : "") +
    (session.track ? "<div><dt>" + t("Type") + "</dt><dd>" + escapeHtml(session.track) + "</dd></div>" : "") + "</dl>" +
    (session.abstract ? '<section class="abstract" aria-labelledby="abstract-heading"><h2 id="abstract-heading">' + t("About this session") + "</h2>" + paragraphs(session.abstract) + "</section>" : "") +
    (people ? '<section aria-labelledby="speakers-heading"><h2 id="speakers-heading">' + t("Speakers") + "</h2><ul>" + people + "</ul></section>" : "") +
    "</article>";
}

function speakerMain(name, sessions, zone) {
  var person = null;
  sessions[0].persons.forEach(function (p) { if (escapeHtml(p.public_name || p.name) === name) { person = p; } });
  var items = sessions.slice().sort(function (a, b) { return a.date < b.date ? -1 : 1; }).map(function (session) {
    return '<li><a href="' + escapeHtml(new URL(session.url).pathname) + '">' + escapeHtml(session.title) + '</a> · <time datetime="' +
      escapeHtml(session.date) + '">' + escapeHtml(when(session.date, zone, DAY_TIME)) + "</time>" + (session.room ? " · " + escapeHtml(session.room) : "") + "</li>";
  }).join("");
  return '<nav class="crumbs" aria-label="' + t("Breadcrumb") + '"><a href="' + escapeHtml(absolute(CONFIG.speakers)) + '">' + t("Speakers") + '</a> › <span aria-current="page">' + name + "</span></nav>" +
    '<article class="speaker-page"><div class="speaker-head"><div><h1>' + name + "</h1></div></div>" +
    (person && person.biography ? '<div class="bio">' + paragraphs(person.biography) + "</div>" : "") +
    '<section aria-labelledby="sessions-heading"><h2 id="sessions-heading">' + (sessions.length === 1 ? t("Session") : t("Sessions")) + "</h2><ul>" + items + "</ul></section></article>";
}

// The person's copy of a page with its <main> replaced, its <title> led by this page's.
function framed(frame, title, main, taken) {
  var start = frame.indexOf('<main id="main"');
  var end = frame.lastIndexOf("</main>");
  if (start < 0 || end < 0) { return null; }
  var open = frame.slice(start, frame.indexOf(">", start) + 1);
  var html = frame.slice(0, start).replace(/<title>([\s\S]*?)<\/title>/, function (tag, whole) {
      // "Schedule · <event> · confsched": this page's name in place of the frame's.
      return "<title>" + [title].concat(whole.split(" · ").slice(1)).join(" · ") + "</title>";
    }) +
    open + main + frame.slice(end);
  var headers = new Headers({ "Content-Type": "text/html; charset=utf-8" });
  if (taken) { headers.set(CACHED_AT, taken); }
  return new Response(html, { headers: headers });
}

// A page with no copy, made from the data: a session, a speaker; or, for a filtered view,
// the whole list it filters, saying so (the filter itself needs the network).
function madeOffline(url) {
  var address = new URL(url);
  var path = address.pathname;
  if (path === new URL(SEARCH).pathname) { return searchedOffline(address.searchParams.get("q") || ""); }
  if (path === new URL(AGENDA).pathname && !address.search) { return noAgendaOffline(); }
  if (address.search) {
    return cachedCopy(address.origin + path).then(function (whole) {
      if (!whole) { return null; }
      var note = '<p class="offline-banner offline-note" role="status">' + escapeHtml(t("This filtered view needs the network: here is the whole list from the offline copy.")) + "</p>";
      return whole.text().then(function (html) {
        var page = html.replace(/<main id="main"[^>]*>/, function (tag) { return tag + note; });
        return new Response(page, { headers: whole.headers });
      });
    });
  }
  var isSession = path.indexOf(absolute(CONFIG.scope + "sessions/").slice(self.location.origin.length)) === 0;
  var isSpeaker = path.indexOf(absolute(CONFIG.speakers).slice(self.location.origin.length)) === 0 && path !== new URL(absolute(CONFIG.speakers)).pathname;
  if (!isSession && !isSpeaker) { return Promise.resolve(null); }
  return Promise.all([eventData(), cachedCopy(SCOPE), cachedCopy(absolute(CONFIG.speakers))]).then(function (found) {
    var facts = found[0];
    if (!facts || !found[1]) { return null; }
    return Promise.all([found[1].text(), found[2] ? found[2].text() : ""]).then(function (texts) {
      var frame = texts[0];
      var speakers = speakerPaths(texts[1]);
      var zone = pageZone(frame);
      if (isSession) {
        var session = facts.sessions[path];
        if (!session) { return null; }
        return framed(frame, escapeHtml(session.title), sessionMain(session, path, zone, frame, speakers), facts.at);
      }
      var name = Object.keys(speakers).filter(function (key) { return speakers[key] === path; })[0];
      var sessions = name ? facts.byPerson[name.replace(/&amp;/g, "&").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#x27;|&#39;/g, "'")] : null;
      if (!sessions) { return null; }
      return framed(frame, name, speakerMain(name, sessions, zone), facts.at);
    });
  });
}

// ---- Offline agenda and search: what the copy holds, or says it does not. ----

// The frame's menu with `url` as the page it is on (the frame is the schedule's page).
function currentIn(html, url) {
  var end = html.indexOf("</header>");
  if (end < 0) { return html; }
  var path = escapeHtml(new URL(url).pathname);
  var header = html.slice(0, end).replace(/ aria-current="page"/g, "").replace('<a href="' + path + '">', '<a href="' + path + '" aria-current="page">');
  return header + html.slice(end);
}

// A page of ours around `main`: in the frame of the person's copy of the schedule, else bare.
function madePage(title, main, url) {
  return cachedCopy(SCOPE).then(function (frame) {
    if (!frame) {
      var html = '<!DOCTYPE html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
        "<title>" + title + '</title><link rel="stylesheet" href="' + escapeHtml(STATIC_FILES[0]) + '"></head><body><main id="main">' + main + "</main></body></html>";
      return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } });
    }
    var taken = frame.headers.get(CACHED_AT);
    return frame.text().then(function (text) { return framed(currentIn(text, url), title, main, taken); });
  });
}

// The kept agenda fetched again (once more at most after the one on its way: stars come in
// runs), when there is one: offline it then holds the stars made online since it was opened.
var agendaRefresh = null;
var agendaAgain = false;

function refreshAgenda() {
  if (agendaRefresh) {
    agendaAgain = true;
    return agendaRefresh;
  }
  agendaRefresh = cachedCopy(AGENDA).then(function (copy) {
    return copy ? fetchAndStore(AGENDA) : null;
  }).catch(function () { return null; }).then(function () {
    agendaRefresh = null;
    if (!agendaAgain) { return null; }
    agendaAgain = false;
    return refreshAgenda();
  });
  return agendaRefresh;
}

// Not signed in when it was last opened online, or signed out since (which drops the copy).
function noAgendaOffline() {
  return madePage(escapeHtml(t("My agenda")), "<h1>" + escapeHtml(t("My agenda")) + '</h1><p class="notice" data-no-offline-agenda>' +
    escapeHtml(t("Your agenda is not in this phone's offline copy. Sign in and open My agenda while online: it is then kept here for reading offline, until you log out.")) +
    '</p><p><a href="' + escapeHtml(SCOPE) + '">' + escapeHtml(t("Read the schedule offline")) + "</a></p>", AGENDA);
}

// The form search/words.py compares: lower-case, no accents ("Valérian" -> "valerian").
function fold(text) {
  return String(text || "").normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase().replace(/\u00df/g, "ss");
}

var STOP_WORDS = {};
(CONFIG.stopWords || []).forEach(function (word) { STOP_WORDS[word] = true; });

// The words that tell sessions apart, as search/words.keywords finds them.
function keywords(text) {
  return (fold(text).match(/[\p{L}\p{N}_]+/gu) || []).filter(function (word) { return word.length > 1 && !STOP_WORDS[word]; });
}

// The sessions holding at least one of the query's words (in the title, abstract or speakers'
// names), best first: a word counts more the fewer sessions hold it, then more occurrences
// win, then the earlier session (search/words.WordIndex.scores).
function sessionsMatching(query, facts) {
  var wanted = {};
  keywords(query).forEach(function (word) { wanted[word] = true; });
  var holding = {};  // word -> [{ index, count }]
  var sessions = Object.keys(facts.sessions).map(function (path) { return facts.sessions[path]; });
  sessions.sort(function (a, b) { return a.date < b.date ? -1 : a.date > b.date ? 1 : 0; });
  sessions.forEach(function (session, index) {
    var names = (session.persons || []).map(function (person) { return person.public_name || person.name; }).join("\n");
    var counts = {};
    keywords(session.title + "\n" + (session.abstract || "") + "\n" + names).forEach(function (word) {
      if (wanted[word]) { counts[word] = (counts[word] || 0) + 1; }
    });
    Object.keys(counts).forEach(function (word) { (holding[word] = holding[word] || []).push({ index: index, count: counts[word] }); });
  });
  var weights = {};
  var hits = {};
  Object.keys(holding).sort().forEach(function (word) {
    holding[word].forEach(function (hit) {
      weights[hit.index] = (weights[hit.index] || 0) + 1 / holding[word].length;
      hits[hit.index] = (hits[hit.index] || 0) + hit.count;
    });
  });
  return Object.keys(weights).map(Number).sort(function (a, b) {
    return (weights[b] - weights[a]) || (hits[b] - hits[a]) || (a - b);
  }).map(function (index) { return sessions[index]; });
}

var DAY = { weekday: "long", day: "numeric", month: "long" };

// The search page offline: the form, and the kept programme's sessions matching its words.
function searchedOffline(query) {
  var q = query.split(/\s+/).filter(Boolean).join(" ").slice(0, 200);
  return Promise.all([eventData(), cachedCopy(SCOPE)]).then(function (found) {
    var facts = found[0];
    if (!facts) { return null; }
    var zone = found[1] ? null : CONFIG.timeZone;
    var framing = found[1] ? found[1].text().then(pageZone) : Promise.resolve(zone);
    return framing.then(function (pageZoneName) {
      var form = '<form class="search-form" method="get" action="' + escapeHtml(SEARCH) + '" role="search"><label for="search-q">' +
        escapeHtml(t("Describe what you are looking for")) + '</label><div class="search-row"><input id="search-q" type="search" name="q" value="' +
        escapeHtml(q) + '" maxlength="200"><button type="submit">' + escapeHtml(t("Search")) + "</button></div></form>";
      var results = "";
      if (q) {
        var matching = sessionsMatching(q, facts).slice(0, CONFIG.resultsShown || 20);
        var items = matching.map(function (session) {
          var names = (session.persons || []).map(function (person) { return escapeHtml(person.public_name || person.name); }).join(", ");
          return '<li><a href="' + escapeHtml(new URL(session.url).pathname) + '">' + escapeHtml(session.title) + '</a><br><time datetime="' +
            escapeHtml(session.date) + '">' + escapeHtml(when(session.date, pageZoneName, DAY) + " " + when(session.date, pageZoneName, TIME)) + "</time>" +
            (session.room ? " · " + escapeHtml(session.room) : "") + (names ? " · " + names : "") + "</li>";
        }).join("");
        var heading = matching.length ? t("Sessions matching “{q}”") : t("No session matches “{q}”");
        results = '<section aria-labelledby="search-results-heading"><h2 id="search-results-heading">' + escapeHtml(heading).replace("{q}", escapeHtml(q)) + "</h2>" +
          (items ? '<ol class="offline-results" data-offline-results>' + items + "</ol>" : "<p>" + escapeHtml(t("Try other words.")) + "</p>") + "</section>";
      }
      var main = '<nav class="crumbs" aria-label="' + escapeHtml(t("Breadcrumb")) + '"><a href="' + escapeHtml(SCOPE) + '">' + escapeHtml(t("Schedule")) +
        '</a> › <span aria-current="page">' + escapeHtml(t("Search")) + '</span></nav><div class="search-page"><h1>' + escapeHtml(t("Search sessions")) + "</h1>" + form +
        '<p class="hint">' + escapeHtml(t("Offline: searched by words in the kept programme.")) + "</p>" + results + "</div>";
      var title = (q ? escapeHtml(q) + " · " : "") + escapeHtml(t("Search sessions"));
      return madePage(title, main, SEARCH).then(function (page) {
        // The time of the programme searched, not of the frame around it.
        if (page && facts.at) { page.headers.set(CACHED_AT, facts.at); }
        return page;
      });
    });
  });
}

function timeout(ms) {
  return new Promise(function (resolve) { setTimeout(function () { resolve(null); }, ms); });
}

// Network first (the schedule may have changed), the copy when the network fails or is slow.
function networkFirst(event) {
  var request = event.request;
  var isPage = request.mode === "navigate";
  // A page asks the server each time (a bare 304 when unchanged): public pages may sit fresh
  // in the browser's HTTP cache for a minute, which would hide that the network is gone.
  var network = fetch(isPage ? new Request(request, { cache: "no-cache" }) : request).then(function (response) {
    if (isKeptStatic(request, response)) {
      event.waitUntil(storeIn(CONFIG.cache, request.url, response.clone()));
    } else if (isKeptPage(request, response)) {
      event.waitUntil(storePage(request.url, response.clone()));
    } else if (isPage && request.url === AGENDA && response.status === 200) {
      // The agenda as the person last opened it online, for reading offline (no secrets).
      event.waitUntil(fetchAndStore(AGENDA).catch(function () { return null; }));
    }
    return response;
  });
  var fallback = function () {
    return cachedCopy(request.url).then(function (copy) {
      if (copy || !isPage) { return copy; }
      return madeOffline(request.url).catch(function (error) { console.error("confsched: no page made offline", error); return null; });
    }).then(function (copy) {
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
    '" data-hx-post="' + url + '" data-hx-swap="outerHTML" class="star' + (isStarred ? " is-starred" : "") + '" aria-pressed="' + (isStarred ? "true" : "false") +
    '" title="' + escapeHtml(isStarred ? t("Remove from my agenda") : t("Add to my agenda")) + '"><span aria-hidden="true">' + (isStarred ? "\u2605" : "\u2606") +
    '</span><span class="visually-hidden">' + escapeHtml(isStarred ? t("Starred: remove “{title}” from my agenda") : t("Star “{title}” for my agenda")).replace("{title}", title) +
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
    // The title between the quotation marks of the star's words, in any of the site's languages.
    var found = /<span class="visually-hidden">[^<\u201c\u201e\u00ab]*[\u201c\u201e\u00ab]\u00a0?([\s\S]*?)\u00a0?[\u201d\u201c\u00bb]/.exec(html.slice(at, at + 4000));
    return found ? found[1] : "";
  };
  return look(pageUrl).then(function (html) {
    var title = find(html);
    return title ? title : look(absolute(path.replace(/star$/, ""))).then(find);
  }).then(function (title) { return title || t("this session"); });
}

// A kept star names whose it is: the person the server last said was signed in here. It is
// sent only while the server still says so; someone else's is dropped, never sent as them.
function keepStar(request, body) {
  return rememberedAccount().then(function (account) {
    var entry = {
      url: request.url, body: body, at: new Date().toISOString(), account: account,
      contentType: request.headers.get("Content-Type") || "application/x-www-form-urlencoded",
    };
    return outbox("readwrite", function (stars) { stars.add(entry); });
  }).then(function () {
    notify({ type: "star-kept", url: request.url, starred: starredFrom(body) });
    // While online (an app host that did not answer), the page asks again a little later.
    notify({ type: "stars-waiting", count: 1 });
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
    // Only no answer keeps the star for later: a network failure, or a gateway's 502, 503 or
    // 504 (an app host gone, perhaps after saving it: sending it again is safe, a star asks
    // for a state). Any answer of the app's own is shown.
    return earlier.then(function () { return fetch(request); }).then(function (response) {
      if ([502, 503, 504].indexOf(response.status) < 0) { return response; }
      throw new Error("no answer from the app: " + response.status);
    }).catch(function () {
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
  var waiting = 0;
  replaying = queued().then(function (entries) {
    waiting = entries.length;
    if (!entries.length) { return entries; }
    // Whose stars may go: asked of the server, which also drops anyone else's (learnAccount).
    return askServer().then(function (now) {
      if (!now) { throw new Error("the server cannot say who is signed in"); }
      var others = entries.filter(function (entry) { return entry.account !== now.account; });
      return outbox("readwrite", function (stars) {
        others.forEach(function (entry) { stars.delete(entry.id); });
      }).then(function () {
        return entries.filter(function (entry) { return entry.account === now.account; });
      });
    });
  }).catch(function () {
    if (waiting) { notify({ type: "stars-waiting", count: waiting }); }
    return [];
  }).then(function (entries) {
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

// Refetches the pages of the copy of the person signed in now (no-store pages were never kept).
function refreshCopy() {
  return rememberedAccount().then(function (account) {
    return account ? caches.open(pagesCache(account)).then(function (cache) { return cache.keys(); }) : [];
  }).then(function (requests) {
    var pages = requests.map(function (request) { return request.url; });
    CONFIG.pages.map(absolute).forEach(function (url) { if (pages.indexOf(url) < 0) { pages.push(url); } });
    return Promise.all(pages.map(function (url) { return fetchAndStore(url).catch(function () { return null; }); }).concat([fetchData()]));
  });
}

function checkVersion() {
  return askServer().then(function (now) {
    if (!now) { return false; }
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
        return name.indexOf(CONFIG.cachePrefix) === 0 && name !== CONFIG.cache && name.indexOf(CONFIG.cache + "/") !== 0;
      }).map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); }).then(checkVersion).then(function (refreshed) {
      // In the background, once this worker runs: the first page never waits for it.
      return refreshed ? null : fetchData();
    })
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
      var answered = sendStar(request);
      event.respondWith(answered);
      // A star changes the person's agenda: its kept copy follows, if they keep one.
      event.waitUntil(answered.then(refreshAgenda).catch(function () { return null; }));
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

// ---- Web Push (push/): a notification per message, and a press opens its page. ----
// The message is JSON {title, body, url, tag} (push/messages.py); a newer one with the same
// tag replaces the older. Only pages of this site are opened.

// The site's icon, as kept for offline (its hashed static name).
function pushIcon() {
  return STATIC_FILES.filter(function (url) { return /\/icon[^/]*\.svg$/.test(url); })[0];
}

self.addEventListener("push", function (event) {
  var data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = { body: event.data ? event.data.text() : "" }; }
  var url = absolute(typeof data.url === "string" ? data.url : CONFIG.scope);
  if (new URL(url).origin !== self.location.origin) { url = SCOPE; }
  event.waitUntil(self.registration.showNotification(data.title || "confsched", {
    body: data.body || "",
    tag: data.tag || undefined,
    data: { url: url },
    icon: pushIcon()
  }));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var url = (event.notification.data && event.notification.data.url) || SCOPE;
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
    for (var i = 0; i < windows.length; i += 1) {
      if (windows[i].url === url && "focus" in windows[i]) { return windows[i].focus(); }
    }
    return self.clients.openWindow(url);
  }));
});
