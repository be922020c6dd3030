"""Favourites that travel: a person's stars as an open JSON document, a short import address
for a QR code, and a Giggity share link; and each of them read back.

The JSON format is documented in docs/favourites-format.md:
{"format": "confsched-favourites", "version": 1, "schedule": "<schedule.json URL>",
"event": "<slug>", "favourites": ["<c3voc event guid>", ...]}. Sessions are named by the guid
the c3voc and frab exports give them (`c3voc_schedule2.session_guid`), so any app that reads
those exports can match them.

The import address carries the first 8 hex digits of each guid ("-" between them), 9
characters a star: 200 stars make an address of about 1,900 characters, which a QR code still
holds (version 40 holds 2,331 bytes at error correction L); more are refused, and the JSON file
carries any number. Giggity shares selections as
https://ggt.gaa.st/#url=<schedule URL>&see=<base64url of zlib of a JSON array of event guids>
(its app's own deep-link tests use that form); `del=` (hidden items) is ignored.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from urllib.parse import parse_qsl, quote, urlsplit

import orjson
from django.utils.formats import number_format
from django.utils.translation import gettext, gettext_noop

from confsched.core.errors import ParseError
from confsched.interchange.documents import read_json

FORMAT = "confsched-favourites"
VERSION = 1
MAX_BYTES = 64 * 1024  # a document of 1,000 guids is about 40 KB
MAX_FAVOURITES = 1000
MAX_IN_ADDRESS = 200
PREFIX_LENGTH = 8
GIGGITY_HOST = "ggt.gaa.st"
DOCUMENT = gettext_noop("a favourites document")
_UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
_PREFIX = re.compile(r"^[0-9a-f]{8}$")


def render_favourites(*, schedule_url: str, slug: str, guids: list[str]) -> bytes:
    """The favourites document: guids sorted, so that the same stars give the same bytes."""
    document = {
        "format": FORMAT,
        "version": VERSION,
        "schedule": schedule_url,
        "event": slug,
        "favourites": sorted(set(guids)),
    }
    return orjson.dumps(document, option=orjson.OPT_INDENT_2) + b"\n"


def parse_favourites(data: bytes, *, slug: str, source: str = "favourites") -> list[str]:
    """The guids of a favourites document for the event `slug`, or a ParseError saying why not."""
    if len(data) > MAX_BYTES:
        raise ParseError(
            gettext("is %(size)s bytes; a favourites document is at most %(most)s")
            % {"size": _n(len(data)), "most": _n(MAX_BYTES)},
            source=source,
        )
    # The importers' defended loading: deep nesting and huge numbers are refused in words.
    document = read_json(data, source=source, what=gettext(DOCUMENT))
    if not isinstance(document, dict):
        raise ParseError(
            gettext("is not a favourites document: the top level is not an object"), source=source
        )
    if document.get("format") != FORMAT:
        raise ParseError(
            gettext('has "format" %(found)s; expected "%(expected)s"')
            % {"found": _shown(document.get("format")), "expected": FORMAT},
            source=source,
        )
    if document.get("version") != VERSION:
        raise ParseError(
            gettext('has "version" %(found)s; this site reads version %(version)s')
            % {"found": _shown(document.get("version")), "version": VERSION},
            source=source,
        )
    if document.get("event") != slug:
        raise ParseError(
            gettext('is for the event %(found)s, not "%(slug)s": import it on that event\'s pages')
            % {"found": _shown(document.get("event")), "slug": slug},
            source=source,
        )
    favourites = document.get("favourites")
    if not isinstance(favourites, list):
        raise ParseError(gettext('has no "favourites" array of event guids'), source=source)
    if len(favourites) > MAX_FAVOURITES:
        raise ParseError(
            gettext('"favourites" holds %(count)s items; at most %(most)s')
            % {"count": _n(len(favourites)), "most": _n(MAX_FAVOURITES)},
            source=source,
        )
    guids: list[str] = []
    for index, item in enumerate(favourites):
        if not isinstance(item, str) or not _UUID.match(item.strip().lower()):
            raise ParseError(
                gettext(
                    "favourites[%(index)s] is %(found)s; expected an event guid such as %(example)s"
                )
                % {
                    "index": index,
                    "found": _shown(item),
                    "example": '"0bc49473-9235-5259-adb4-b65add83c406"',
                },
                source=source,
            )
        guids.append(item.strip().lower())
    return list(dict.fromkeys(guids))


def compact(guids: list[str]) -> str:
    """The `f` parameter of the import address: guid prefixes, sorted, "-" between them."""
    prefixes = sorted({guid[:PREFIX_LENGTH] for guid in guids})
    if len(prefixes) > MAX_IN_ADDRESS:
        raise ParseError(
            gettext(
                "%(count)s favourites are too many for a QR code (at most %(most)s); "
                "download the file instead"
            )
            % {"count": len(prefixes), "most": MAX_IN_ADDRESS}
        )
    return "-".join(prefixes)


def parse_compact(text: str) -> list[str]:
    """The guid prefixes of an import address's `f` parameter."""
    parts = [part for part in text.strip().lower().split("-") if part]
    if not parts:
        raise ParseError(gettext("the address lists no favourites"), source="f")
    if len(parts) > MAX_IN_ADDRESS:
        raise ParseError(
            gettext("lists %(count)s favourites; at most %(most)s")
            % {"count": len(parts), "most": MAX_IN_ADDRESS},
            source="f",
        )
    for index, part in enumerate(parts):
        if not _PREFIX.match(part):
            raise ParseError(
                gettext("item %(number)s is %(found)s; expected 8 hexadecimal digits")
                % {"number": index + 1, "found": _shown(part[:20])},
                source="f",
            )
    return list(dict.fromkeys(parts))


def giggity_link(*, schedule_url: str, guids: list[str]) -> str:
    """A Giggity share link: the schedule Giggity reads, with these events selected."""
    selected = json.dumps(sorted(set(guids)), separators=(",", ":")).encode()
    see = base64.urlsafe_b64encode(zlib.compress(selected, 9)).decode().rstrip("=")
    return f"https://{GIGGITY_HOST}/#url={quote(schedule_url, safe='')}&see={see}"


def parse_giggity_link(link: str) -> list[str]:
    """The selected event guids of a Giggity share link."""
    source = gettext("the Giggity link")
    not_a_link = ParseError(
        gettext("is not a %(link)s share link") % {"link": f"https://{GIGGITY_HOST}/#…"},
        source=source,
    )
    try:
        parts = urlsplit(link.strip())
        hostname = parts.hostname
    except ValueError as exc:  # "https://[host/": an unclosed IPv6 bracket, a bad port
        raise not_a_link from exc
    if hostname != GIGGITY_HOST or not parts.fragment:
        raise not_a_link
    params = dict(parse_qsl(parts.fragment, keep_blank_values=True))
    if "see" not in params:
        raise ParseError(
            gettext('has no "see=" part: it shares a schedule but no selections'), source=source
        )
    text = params["see"]
    try:
        packed = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        inflater = zlib.decompressobj()
        raw = inflater.decompress(packed, MAX_BYTES)
    except (binascii.Error, zlib.error, ValueError) as exc:
        raise ParseError(
            gettext('"see=" is not base64 of zlib-packed JSON (%(error)s)')
            % {"error": type(exc).__name__},
            source=source,
        ) from exc
    if inflater.unconsumed_tail:
        raise ParseError(
            gettext('"see=" unpacks to more than %(most)s bytes') % {"most": _n(MAX_BYTES)},
            source=source,
        )
    selected = read_json(
        raw,
        source=gettext('%(link)s\'s "see="') % {"link": source},
        what=gettext("a list of event ids"),
    )
    if not isinstance(selected, list) or not all(isinstance(item, str) for item in selected):
        raise ParseError(gettext('"see=" is not a list of event ids'), source=source)
    if len(selected) > MAX_FAVOURITES:
        raise ParseError(
            gettext('"see=" lists %(count)s events; at most %(most)s')
            % {"count": _n(len(selected)), "most": _n(MAX_FAVOURITES)},
            source=source,
        )
    return list(dict.fromkeys(item.strip().lower() for item in selected))


def read_import(text: str, *, slug: str) -> list[str]:
    """Guids from what a person pasted or uploaded: a Giggity link or a favourites document."""
    stripped = text.strip()
    if stripped.startswith(("https://", "http://")):
        return parse_giggity_link(stripped)
    return parse_favourites(stripped.encode(), slug=slug)


def _n(number: int) -> str:
    """A count with the active language's thousands separator (65,536; 65 536; 65.536)."""
    return number_format(number, force_grouping=True)


def _shown(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 64 else text[:64] + "…"
