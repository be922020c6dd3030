"""The words our scripts write (app.js, now.js, offline.js, checkin.js and the service worker),
translated here so that one catalogue holds every string of the interface.

A page in another language than English carries them as JSON in `<body data-strings>` (no
inline script: the site's CSP forbids it), keyed by the English text; the service worker gets
them in its CONFIG. Each script looks a text up there and falls back to the English, so English
pages carry nothing extra. `{name}` marks where a script puts a value.
"""

from __future__ import annotations

import json

from django.utils.translation import get_language, gettext, gettext_noop

_STRINGS = [
    # app.js
    gettext_noop("Use my device's zone ({zone})"),
    gettext_noop("Find in {facet}…"),
    gettext_noop("Jump to now ({time})"),
    gettext_noop("Link copied."),
    gettext_noop("Select the link and copy it."),
    gettext_noop("Not saved: the schedule could not be reached. Press again in a moment."),
    # offline.js, the service worker's star buttons
    gettext_noop("Remove from my agenda"),
    gettext_noop("Add to my agenda"),
    gettext_noop("1 star made offline was saved."),
    gettext_noop("{count} stars made offline were saved."),
    gettext_noop("Starred: remove “{title}” from my agenda"),
    gettext_noop("Star “{title}” for my agenda"),
    gettext_noop("this session"),
    # now.js (the same words as venue/now_board.duration_words)
    gettext_noop("less than a minute"),
    gettext_noop("{minutes} min"),
    gettext_noop("{hours} h {minutes} min"),
    gettext_noop("{hours} h"),
    gettext_noop("{days} day"),
    gettext_noop("{days} days"),
    gettext_noop("{words} left"),
    gettext_noop("ended"),
    gettext_noop("in {words}"),
    gettext_noop("starting now"),
    gettext_noop("Could not refresh (offline?): this is the board as of {time}."),
    gettext_noop("earlier"),
    # checkin.js
    gettext_noop("Scan with camera"),
    gettext_noop("Stop camera"),
    gettext_noop("Camera not available: type the code"),
    # the service worker's offline pages
    gettext_noop("Offline copy from {time}. It refreshes when you are back online."),
    gettext_noop(
        "This filtered view needs the network: here is the whole list from the offline copy."
    ),
    gettext_noop("Breadcrumb"),
    gettext_noop("Schedule"),
    gettext_noop("Session"),
    gettext_noop("Sessions"),
    gettext_noop("Speakers"),
    gettext_noop("When"),
    gettext_noop("Where"),
    gettext_noop("Type"),
    gettext_noop("About this session"),
    # the service worker's offline agenda and search
    gettext_noop("My agenda"),
    gettext_noop(
        "Your agenda is not in this phone's offline copy. Sign in and open My agenda while "
        "online: it is then kept here for reading offline, until you log out."
    ),
    gettext_noop("Read the schedule offline"),
    gettext_noop("Search sessions"),
    gettext_noop("Search"),
    gettext_noop("Describe what you are looking for"),
    gettext_noop("Offline: searched by words in the kept programme."),
    gettext_noop("Sessions matching “{q}”"),
    gettext_noop("No session matches “{q}”"),
    gettext_noop("Try other words."),
]


def script_strings() -> dict[str, str]:
    """The scripts' words in the active language, by their English text; {} in English."""
    if (get_language() or "en").split("-")[0] == "en":
        return {}
    return {string: gettext(string) for string in _STRINGS}


def script_strings_json() -> str:
    """`script_strings()` as JSON for a data attribute ("" in English)."""
    strings = script_strings()
    return json.dumps(strings, ensure_ascii=False, sort_keys=True) if strings else ""
