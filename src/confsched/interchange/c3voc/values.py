"""What both c3voc readers (schedule.json v1 and schedule2) make of JSON values: text, times,
links, identities, room capacities, the fields an event leaves out, and values in messages."""

from __future__ import annotations

import json
import re
from datetime import datetime, time, timedelta
from typing import Protocol
from urllib.parse import urljoin, urlsplit
from zoneinfo import ZoneInfo

from confsched.core.errors import ParseError
from confsched.core.timezones import get_zone, is_zone_name
from confsched.interchange.html_text import html_to_text as _html_to_text
from confsched.interchange.identity import visible
from confsched.interchange.links import link_kind, with_attachments
from confsched.interchange.programme import SessionLink

_CLOCK = re.compile(r"^(\d{1,2}):([0-5]\d)(?::([0-5]\d))?$")


# Tags that make a text HTML; without one it is Markdown or plain text and stays as written.
_HTML_TAG_NAMES = frozenset(
    "address article aside blockquote dd div dl dt figcaption figure footer h1 h2 h3 h4 h5 h6 "
    "header hr li main nav ol p pre section table tbody td tfoot th thead tr ul "
    "a abbr b br cite code del em i img ins kbd mark q s small span strong sub sup u".split()
)


_HTML_TAG = re.compile(r"</?([a-zA-Z][a-zA-Z0-9]*)\b[^<>]*>")


def room_capacities(rooms: object, *, path: str, warnings: list[str]) -> dict[str, int]:
    """Seats of the declared rooms that give a `capacity` (schema: number or null).

    null or absent: unknown. Anything but a whole number from 0 up is named in a warning and
    left out: a wrong capacity would only mislead the organizers' overflow guess.
    """
    if not isinstance(rooms, list):
        return {}
    seats: dict[str, int] = {}
    for index, room in enumerate(rooms):
        if not isinstance(room, dict) or room.get("capacity") is None:
            continue
        name, value = room.get("name"), room["capacity"]
        if not isinstance(name, str) or not name.strip():
            continue
        is_count = isinstance(value, int | float) and not isinstance(value, bool)
        if not is_count or value < 0 or value != int(value):
            warnings.append(
                f"{path}[{index}].capacity is {json.dumps(value, ensure_ascii=False)}; expected "
                f"a whole number of seats for room {name.strip()!r}, so it has none"
            )
            continue
        seats.setdefault(name.strip(), int(value))
    return seats


def identity_field(mapping: dict, name: str, path: str, *, warnings: list[str]) -> str:
    """An event's guid, id, code or slug as a key, invisible characters dropped; "" when it
    has none. A value that is neither a string nor a whole number is not used, with a warning
    naming its path; a guid written as a whole number is used as written, with a warning (the
    schema's guid is a string)."""
    value = mapping.get(name)
    if value is None or value == "":
        return ""
    if isinstance(value, bool) or not isinstance(value, int | str):
        warnings.append(
            f"{path}.{name} is {describe_value(value)}, not a string; not used as the "
            "event's identity"
        )
        return ""
    if name == "guid" and isinstance(value, int):
        warnings.append(
            f"{path}.guid is the number {shown_value(value)}, not a string; used as written"
        )
    return visible(str(value))


# Session fields, and the keys of an event that carry them: an event with none of them says
# nothing about the field. Shared with the schedule2 reader.
_V1_CARRIERS = {
    "kind": ("type",),
    "track": ("track",),
    "language": ("language",),
    "abstract": ("abstract", "description"),
    "speakers": ("persons",),
    "links": ("links", "attachments"),
    "ends_at": ("end", "duration"),
}


def unknown_fields(
    event: dict, carriers: dict[str, tuple[str, ...]], *, has_room: bool
) -> frozenset[str]:
    """The fields `event` has no key for (Session.unknown); "room" unless it has a room."""
    unknown = {name for name, keys in carriers.items() if not any(key in event for key in keys)}
    if not has_room and "room" not in event:
        unknown.add("room")
    return frozenset(unknown)


def read_links(
    reader: Refuser, event: dict, path: str, *, base_url: str, urlless: list[str]
) -> tuple[SessionLink, ...]:
    """The event's `links` then `attachments` (references or plain addresses) as links, an
    attachment that repeats a link's url marking that link (`links.with_attachments`); the
    paths of those without a url go to `urlless`. Shared with the schedule2 reader."""
    found: list[SessionLink] = []
    for name in ("links", "attachments"):
        for index, item in enumerate(_array(reader, event, name, path)):
            item_path = f"{path}.{name}[{index}]"
            if isinstance(item, str):
                item = {"url": item}
            if not isinstance(item, dict):
                raise reader.refuse(
                    f"{item_path} is {describe_value(item)}; expected a link object with a url, "
                    "or an address"
                )
            href = text_field(reader, item, "url", item_path).strip()
            if not href:
                urlless.append(item_path)
                continue
            url = href
            if base_url and _is_url(href):
                url = urljoin(base_url, href)
            title = " ".join(text_field(reader, item, "title", item_path).split())
            if title in (href, url):
                title = ""
            is_attachment = name == "attachments"
            kind = link_kind(
                url,
                title,
                declared=text_field(reader, item, "type", item_path),
                is_attachment=is_attachment,
            )
            found.append(SessionLink(url=url, title=title, kind=kind, is_attachment=is_attachment))
    return with_attachments(found)


def urlless_warning(paths: list[str]) -> str:
    """For programme.warnings: how many links had no url, with the first one's path."""
    if not paths:
        return ""
    count = len(paths)
    return f"{count} link{'s' if count > 1 else ''} without a url left out (first: {paths[0]})"


def _array(reader: Refuser, mapping: dict, name: str, path: str) -> list:
    value = mapping.get(name)
    if value is None:
        return []
    if not isinstance(value, list):
        raise reader.refuse(f"{path}.{name} is {describe_value(value)}; expected an array")
    return value


def text_field(reader: Refuser, mapping: dict, name: str, path: str) -> str:
    """mapping[name] as text: "" when absent or null, numbers as written, else a refusal."""
    value = mapping.get(name)
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    raise reader.refuse(f"{path}.{name} is {describe_value(value)}; expected a string")


class Refuser(Protocol):
    def refuse(self, message: str) -> ParseError: ...


def plain_text(value: object) -> str:
    """A stripped string, or "" for anything that is not one."""
    return value.strip() if isinstance(value, str) else ""


# Every field frab and pretalx have named a person by: frab's schedule.json of around 2013
# wrote `full_public_name`, later frab `public_name`, pretalx `name`; the c3voc person schema
# also knows `full_name`.
PERSON_NAME_FIELDS = ("public_name", "name", "full_public_name", "full_name")


def person_name(person: dict, *, fields: tuple[str, ...] = PERSON_NAME_FIELDS) -> str:
    """A person's name, from the first of `fields` that holds one, on one line."""
    for name in fields:
        if text := " ".join(plain_text(person.get(name)).split()):
            return text
    return ""


def _parse_clock(value: object) -> time | None:
    match = _CLOCK.match(value.strip()) if isinstance(value, str) else None
    if match is None or int(match[1]) > 23:
        return None
    return time(int(match[1]), int(match[2]), int(match[3] or 0))


def _parse_datetime(value: object) -> datetime | None:
    if not isinstance(value, str) or not value.strip():
        return None
    try:
        return datetime.fromisoformat(value.strip())
    except ValueError:
        return None


def _abstract(abstract: str, description: str) -> str:
    parts = [clean_text(abstract), clean_text(description)]
    if parts[0] == parts[1]:
        parts = parts[:1]
    return "\n\n".join(part for part in parts if part)


def clean_text(text: str) -> str:
    """Plain text or Markdown as written (line ends normalised); HTML as text."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if any(tag.lower() in _HTML_TAG_NAMES for tag in _HTML_TAG.findall(text)):
        text = _html_to_text(text)
    return text.strip()


def _zone_or_none(name: str) -> ZoneInfo | None:
    return get_zone(name) if is_zone_name(name) else None


def _plus(value: datetime, delta: timedelta) -> datetime | None:
    """`value + delta`, or None past the years datetime holds."""
    try:
        return value + delta
    except OverflowError:
        return None


def _is_url(text: str) -> bool:
    """False for what urllib cannot even split ("http://[", a bracketed host left open)."""
    try:
        urlsplit(text)
    except ValueError:
        return False
    return True


def _shorten(text: str, limit: int = 64) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


def describe_value(value: object) -> str:
    """What a JSON value is, for messages: 'null', 'an array (of 3 items)', 'the string "x"'."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return f"an array (of {len(value)} items)"
    if isinstance(value, str):
        return f"the string {shown_value(value)}"
    return f"the number {value}"


def shown_value(value: object, limit: int = 64) -> str:
    """A JSON value as written, cut short: a mutated file may hold megabytes in one value."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[:limit] + "…"
