"""Every string of the interface has its French and German, and no page shows English in them.

Two checks. The catalogues: `makemessages` run over a copy of the source finds no string that
is not translated (nor fuzzy), and the compiled .mo files say what the .po files say. The pages:
every attendee page kind is rendered in English and in French or German, and a visible text
(or a label read aloud: aria-label, title, placeholder, alt) that is the same in both is
English left over, unless it is the event's own data (titles, names, rooms) or a word that is
the same in that language.
"""

from __future__ import annotations

import gettext
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client, override_settings

from confsched.core.timezones import zone_names
from confsched.programme.models import (
    Event,
    Room,
    ScheduleVersion,
    Session,
    SessionSpeaker,
    Speaker,
)
from tests.conftest import DEMO_SLUG, ROOT, unavailable

LOCALE = ROOT / "src" / "confsched" / "locale"
LANGUAGES = ("fr", "de")
BASE = f"/{DEMO_SLUG}/"
TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"

# Words a translation rightly leaves as they are in English.
SAME_IN = {
    "fr": {
        "Session",
        "Sessions",
        "Version",
        "Type",
        "Date",
        "PDF",
        "confsched",
        "Page",
        "Programme",
    },
    "de": {
        "Session",
        "Sessions",
        "Version",
        "PDF",
        "confsched",
        "Feedback",
        "Link",
        "Links",
        "Video",
        "in",
        "Giggity",
    },
}
# The attendee pages, by kind (tests/web/test_html_valid.py has every page kind).
VISITOR_PAGES = {
    "about": "/about/",
    "list": BASE,
    "grid": BASE + "grid/",
    "filtered list": BASE + "?track=training-systems&q=torch",
    "filtered grid": BASE + "grid/?date=2026-04-08&tz=Asia/Tokyo",
    "no match": BASE + "?q=nothing-matches-this",
    "bad date": BASE + "?date=someday",
    "session": f"{BASE}sessions/{TORCHJD}/",
    "speaker": BASE + "speakers/valerian-rey/",
    "speakers": BASE + "speakers/",
    "speakers, searched": BASE + "speakers/?q=rey",
    "visitor agenda": BASE + "agenda/",
    "now": BASE + "now/",
    "plan": BASE + "plan/",
    "plan, proposed": BASE + "plan/?planned=1&q=torch",
    "search": BASE + "search/?q=torch",
    "search, empty": BASE + "search/",
    "changes": BASE + "changes/",
    "zones": BASE + "zones/",
    "print index": BASE + "print/",
    "print day": BASE + "print/2026-04-07/",
    "print agenda": BASE + "agenda/print/2026-04-07/",
    "embed": BASE + "embed/",
    "login, event frame": f"/accounts/login/?next={BASE}agenda/",
    "signup, event frame": f"/accounts/signup/?next={BASE}",
    "password reset": "/accounts/password/reset/",
    "favourites": BASE + "agenda/favourites/",
    "people": BASE + "people/",
    "people, searched": BASE + "people/?q=nobody",
    "who's going": f"{BASE}sessions/{TORCHJD}/going/",
    "seat, visitor": f"{BASE}sessions/{TORCHJD}/seat/",
    "feedback, visitor": f"{BASE}sessions/{TORCHJD}/feedback/",
}
SIGNED_IN_PAGES = {
    "agenda with stars": BASE + "agenda/",
    "session starred": f"{BASE}sessions/{TORCHJD}/",
    "password change": f"/accounts/password/change/?next={BASE}",
    "account deletion": f"/accounts/delete/?next={BASE}",
    "favourites, signed in": BASE + "agenda/favourites/",
    "profile": BASE + "profile/",
    "feedback, signed in": f"{BASE}sessions/{TORCHJD}/feedback/",
}
ERROR_PAGES = {
    "404": (BASE + "sessions/no-such-session/", 404),
    "unknown zone": (BASE + "?tz=Nowhere/Atlantis", 400),
}


def _po_entries(path: Path) -> list[dict[str, object]]:
    """Each entry of a .po file: its flags, context, msgid and msgstr (a list for plurals)."""
    entries = []
    for block in path.read_text().split("\n\n"):
        entry: dict[str, object] = {"flags": "", "msgstr": []}
        field = ""
        values: dict[str, list[str]] = {}
        for line in block.splitlines():
            if line.startswith("#,"):
                entry["flags"] = line
            elif line.startswith("#"):
                continue
            elif match := re.match(
                r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d\])?) (".*")$', line
            ):
                field = match.group(1)
                values[field] = [match.group(2)]
            elif line.startswith('"'):
                values[field].append(line)
        if "msgid" not in values:
            continue
        text = {name: "".join(_unquote(part) for part in parts) for name, parts in values.items()}
        entry["msgid"] = text["msgid"]
        entry["context"] = text.get("msgctxt")
        entry["plural"] = text.get("msgid_plural")
        entry["msgstr"] = [text[name] for name in sorted(text) if name.startswith("msgstr")]
        entries.append(entry)
    return entries


def _unquote(quoted: str) -> str:
    """A .po string's text: its quotes off, its C escapes (\\n, \\", \\\\) undone."""
    escapes = {"n": "\n", "t": "\t"}
    return re.sub(r"\\(.)", lambda m: escapes.get(m.group(1), m.group(1)), quoted[1:-1])


def _problems(path: Path) -> list[str]:
    return [
        f"{entry['msgid']!r}: {'fuzzy' if 'fuzzy' in str(entry['flags']) else 'untranslated'}"
        for entry in _po_entries(path)
        if entry["msgid"] and ("fuzzy" in str(entry["flags"]) or not all(entry["msgstr"]))  # type: ignore[arg-type]
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_string_is_translated_and_compiled(language: str) -> None:
    po = LOCALE / language / "LC_MESSAGES" / "django.po"
    assert _problems(po) == []
    with (po.with_suffix(".mo")).open("rb") as compiled:
        catalogue = gettext.GNUTranslations(compiled)
    stale = []
    for entry in _po_entries(po):
        msgid, context, plural = entry["msgid"], entry["context"], entry["plural"]
        if not msgid:
            continue
        strings: list[str] = entry["msgstr"]  # type: ignore[assignment]
        if plural:
            found = [
                catalogue.npgettext(context, msgid, plural, n)
                if context
                # type: ignore[arg-type]
                else catalogue.ngettext(msgid, plural, n)
                for n in (1, 5)
            ]  # type: ignore[arg-type]
            expected = [strings[0], strings[-1]]
        else:
            found = [catalogue.pgettext(context, msgid) if context else catalogue.gettext(msgid)]  # type: ignore[arg-type]
            expected = [strings[0]]
        if found != expected:
            stale.append(msgid)
    assert stale == [], "run `make messages`: the .mo files are older than the .po files"


def test_makemessages_finds_no_string_left_untranslated(tmp_path: Path) -> None:
    if shutil.which("xgettext") is None or shutil.which("msgmerge") is None:
        unavailable("GNU gettext is not installed (make gettext)", "CONFSCHED_REQUIRE_BROWSER")
    copy = tmp_path / "confsched"
    shutil.copytree(
        ROOT / "src" / "confsched", copy, ignore=shutil.ignore_patterns("__pycache__", "*.mo")
    )
    with override_settings(LOCALE_PATHS=[copy / "locale"]):
        cwd = Path.cwd()
        try:
            import os

            os.chdir(copy)
            call_command("makemessages", locale=list(LANGUAGES), no_location=True, verbosity=0)
        finally:
            os.chdir(cwd)
    for language in LANGUAGES:
        assert _problems(copy / "locale" / language / "LC_MESSAGES" / "django.po") == [], language


class _Texts(HTMLParser):
    """The texts a person sees or hears: text nodes outside scripts, and labels read aloud."""

    LABELS = ("aria-label", "title", "placeholder", "alt")

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "code", "pre", "textarea"):
            self._skip += 1
        if tag == "meta":
            return
        self.texts += [value for name, value in attrs if name in self.LABELS and value]

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "code", "pre", "textarea"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.texts.append(data)


def _texts(html: str) -> set[str]:
    parser = _Texts()
    parser.feed(html)
    return {" ".join(text.split()) for text in parser.texts}


def _event_data(event: Event) -> tuple[list[str], list[str]]:
    """The event's own words (titles, names, rooms, zones…), longest first, and its long texts
    (abstracts, bios, the change log's recorded words), whose parts pages show."""
    words = {event.name, event.location, event.timezone, "PyTorch"}
    words |= set(zone_names()) | {name.split("/")[0] for name in zone_names()}
    texts = [
        plain
        for text in Session.objects.filter(event=event).values_list("abstract", flat=True)
        for plain in (" ".join(text.split()),)
    ]
    texts += [
        " ".join(bio.split())
        for bio in Speaker.objects.filter(event=event).values_list("bio", flat=True)
    ]
    for version in ScheduleVersion.objects.filter(event=event).prefetch_related("changes"):
        texts.append(version.summary)
        texts += [change.description for change in version.changes.all()]
    for session in Session.objects.filter(event=event).select_related("track", "level"):
        words |= {session.title, session.kind, session.full_title}
        words |= {facet.name for facet in (session.track, session.level) if facet}
    words |= set(Room.objects.filter(event=event).values_list("name", flat=True))
    for speaker in Speaker.objects.filter(event=event):
        words |= {speaker.name, speaker.company, speaker.position}
    words |= set(
        SessionSpeaker.objects.filter(session__event=event).values_list("affiliation", flat=True)
    )
    words |= {"English", "Français", "Deutsch", "ada"}
    return sorted((word for word in words if word), key=len, reverse=True), texts


def _leftover(text: str, data: tuple[list[str], list[str]], same: set[str]) -> bool:
    """Whether `text` is interface English: letters left once data and shared words are out."""
    words, texts = data
    bare = text.removesuffix("...").strip(" :.·").lower()
    if any(bare in long.lower() for long in texts):
        return False
    rest = text
    for word in words:
        rest = rest.replace(word, " ")
    rest = re.sub(r"[A-Z][a-z]+/[A-Za-z_/]+", " ", rest)  # zone names
    rest = re.sub(r"https?://\S+|\S+@\S+", " ", rest)
    if any(rest.strip(" :.·").lower() in long.lower() for long in texts):
        return False
    found = re.findall(r"[A-Za-zÀ-ÿ]{2,}", rest)
    # Words in capitals are initials and abbreviations (CEST, UTC, JSON): no language's.
    return any(word.lower() not in same for word in found if not word.isupper())


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_attendee_page_kind_is_in_the_language(demo_event: Event, language: str) -> None:
    demo_event.languages = "en, fr, de"
    demo_event.save()
    user = User.objects.create_user("ada", "ada@example.org", "a fine password 7")
    signed_in = Client()
    signed_in.force_login(user)
    signed_in.post(f"{BASE}sessions/{TORCHJD}/star", {"starred": "1", "next": BASE})
    pages = [(Client(), url, 200) for url in VISITOR_PAGES.values()]
    pages += [(signed_in, url, 200) for url in SIGNED_IN_PAGES.values()]
    pages += [(Client(), url, status) for url, status in ERROR_PAGES.values()]
    data = _event_data(demo_event)
    same = {word.lower() for word in SAME_IN[language]}
    left: dict[str, list[str]] = {}
    for client, url, status in pages:
        english = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
        translated = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
        assert (english.status_code, translated.status_code) == (status, status), url
        assert f'<html lang="{language}">' in translated.content.decode(), url
        shared = _texts(english.content.decode()) & _texts(translated.content.decode())
        found = sorted(text for text in shared if _leftover(text, data, same))
        if found:
            left[url] = found
    assert left == {}, "\n".join(f"{url}: {texts}" for url, texts in left.items())
