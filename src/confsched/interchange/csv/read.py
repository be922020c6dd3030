"""confsched's CSV: one row per session, the columns documented in docs/csv-format.md.

The file an organizer fills in a spreadsheet (docs/csv-template.csv is the template). CSV
itself follows RFC 4180 as spreadsheets write it, with these quirks accepted:

* UTF-8 with or without a byte-order mark (Excel writes one, and a sheet saved twice may
  start with two; other encodings are refused with a hint to save as "CSV UTF-8").
* Comma, semicolon or tab delimiter, told from the header line: spreadsheets in locales with
  a decimal comma (most of Europe) write ";".
* CRLF, LF or CR line ends; quoted fields holding delimiters, quotes ("" inside) and newlines.
* Header names in any case, with spaces or hyphens for underscores ("Starts at"), invisible
  characters (byte-order marks, zero-width spaces) dropped; unknown columns are ignored; rows
  of empty cells (a spreadsheet's trailing rows) are skipped. A column the header does not
  name says nothing about its field: the fields it would fill are left out of
  `Programme.carries`, and a re-import leaves them as they are.
* A leading apostrophe before = + - @ or ' is dropped: it is the guard spreadsheets use, and
  that `render` writes, against cells read as formulas (CSV injection).

Times are ISO 8601 date-times. An offset is trusted; a naive time is local time in the row's
`timezone` column, else in `default_timezone`, else refused; a local time the clocks skip
moves forward by the gap, with a warning. `Programme.timezone` is the zone
the `timezone` column names (the first one, if rows name several), else `default_timezone`
when a naive time needed it, else "".
A zone name must be one the tz database lists ("Europe/Paris"; not a folder such as
"Europe"). A time within a day of the ends of the calendar (years 1 and 9999) is refused: it
could not be turned into UTC or a local time.

Links (`links`: "[Kind: ][Title ]<address>" separated by "; " or new lines; a slides link makes
`slides` yes), seats (`seats`: a number of seats, `open` for open entry, empty: unchanged) and
identity (`key`, else the slug of the title and the local start, as `identity.derived_key`
makes it; a speaker's key is the slug of their name) are as docs/csv-format.md says.

Errors name the physical line where the row starts (the header is line 1), the column and
the value. `render` writes what `parse` reads back to the same sessions.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo

from confsched.core.errors import ParseError
from confsched.core.text import shortened, slugify
from confsched.core.timezones import get_zone, is_zone_name, zone_problem
from confsched.interchange.identity import derived_key, visible
from confsched.interchange.links import link_kind
from confsched.interchange.programme import (
    LINK_KINDS,
    Programme,
    Session,
    SessionLink,
    SessionSpeaker,
    Speaker,
)
from confsched.interchange.zones import skipped_time, wall_time

FORMAT_NAME = "csv"
DESCRIPTION = "CSV spreadsheet, one row per session (columns in docs/csv-format.md)"

COLUMNS = (
    "key", "title", "kind", "starts_at", "ends_at", "timezone", "room", "track", "level",
    "language", "speakers", "abstract", "slides", "links", "seats",
)  # fmt: skip
REQUIRED_COLUMNS = ("title", "starts_at")
# The session fields (as Programme.carries names them) each column fills.
COLUMN_FIELDS: dict[str, frozenset[str]] = {
    "key": frozenset(),
    "title": frozenset({"title"}),
    "kind": frozenset({"kind"}),
    "starts_at": frozenset({"starts_at"}),
    "ends_at": frozenset({"ends_at"}),
    "timezone": frozenset(),
    "room": frozenset({"room"}),
    "track": frozenset({"track"}),
    "level": frozenset({"level"}),
    "language": frozenset({"language"}),
    "speakers": frozenset({"speakers", "affiliations", "speaker.name"}),
    "abstract": frozenset({"abstract"}),
    "slides": frozenset({"has_slides"}),
    "links": frozenset({"links"}),
    "seats": frozenset({"seats"}),
}

TIME_EXAMPLE = "expected e.g. 2026-04-07T11:00 or 2026-04-07 11:00+02:00"
_DATE_TIME = re.compile(
    r"^(?P<date>\d{4}-\d{2}-\d{2})[Tt ](?P<hour>\d{1,2}):(?P<minute>\d{2})"
    r"(?::(?P<second>\d{2})(?:[.,](?P<fraction>\d{1,6}))?)?"
    r"\s*(?P<offset>[Zz]|[+-]\d{2}(?::?\d{2})?)?$"
)
# A day inside what datetime holds: no UTC offset (always under a day) can push a time in
# this range out of it, so converting to UTC or to any zone cannot overflow.
_EARLIEST = datetime(1, 1, 2, tzinfo=UTC)
_LATEST = datetime(9999, 12, 30, tzinfo=UTC)
_YES = {"yes", "y", "true", "1"}
_NO = {"no", "n", "false", "0", ""}
OPEN_ENTRY = "open"  # the `seats` cell of open entry (an empty one says nothing of seats)
_DELIMITERS = (",", ";", "\t")
# Links in one cell: separated by "; " or new lines; each "[Kind: ][Title ]<address>".
_LINK_SEPARATOR = re.compile(r";\s+|;$|\n")
_SEPARATING_SEMICOLON = re.compile(r";(?=\s|$)")
_KIND_PREFIX = re.compile(rf"(?P<kind>{'|'.join(LINK_KINDS)})\s*:\s*", re.IGNORECASE)
_WEB = re.compile(r"https?://\S", re.IGNORECASE)
# First characters a spreadsheet may read as a formula; "'" so that the guard is reversible.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "'")


def looks_like(head: str) -> bool:
    """True when the first line is a header naming at least the title and starts_at columns."""
    first = re.split(r"\r\n|\r|\n", head.lstrip("\ufeff"), maxsplit=1)[0]
    try:
        cells = next(csv.reader([first], delimiter=_sniff(first), strict=True), [])
    except csv.Error:
        return False
    return set(REQUIRED_COLUMNS) <= {_column_name(cell) for cell in cells}


# --- reading -------------------------------------------------------------------------------


@dataclass
class _Row:
    line: int
    values: dict[str, str]


def parse(data: bytes, *, source: str, default_timezone: str = "") -> Programme:
    """Read a confsched CSV into a Programme; refuse it whole, naming the line, if it is broken."""
    rows = _records(_decode(data, source), source)
    if not rows:
        raise ParseError(
            "the file is empty; expected a header row naming the columns "
            f"({', '.join(COLUMNS)}) and one row per session",
            source=source,
        )
    header_line, header = rows[0]
    columns = _columns(header, source=source, line=header_line)
    programme = Programme(
        carries=frozenset().union(*(COLUMN_FIELDS[name] for name in columns)),
    )
    ignored = [
        cell.strip() for cell in header if cell.strip() and _column_name(cell) not in COLUMNS
    ]
    if ignored:
        programme.notes.append(
            f"{source}: columns ignored: {', '.join(repr(name) for name in ignored)}"
        )

    reader = _RowReader(source=source, default_timezone=default_timezone)
    # The event's zone, for keys made from times: the caller's, else the first the file names.
    named = [
        cells[columns["timezone"]].strip()
        for _, cells in rows[1:]
        if "timezone" in columns and columns["timezone"] < len(cells)
    ]
    key_zone = next(
        (name for name in (default_timezone, *named) if name and is_zone_name(name)), ""
    )
    reader.key_zone = get_zone(key_zone) if key_zone else None
    sessions: dict[str, Session] = {}
    key_lines: dict[str, int] = {}
    speakers: dict[str, Speaker] = {}
    speaker_lines: dict[str, int] = {}
    rooms: dict[str, None] = {}
    for line, cells in rows[1:]:
        if not any(cell.strip() for cell in cells):
            continue
        extra = [cell for cell in cells[len(header) :] if cell.strip()]
        if extra:
            raise ParseError(
                f"{len(cells)} cells but the header has {len(header)} columns; a value "
                "holding the delimiter must be in double quotes",
                source=source,
                line=line,
            )
        values = {
            name: _unguard(cells[index].strip()) if index < len(cells) else ""
            for name, index in columns.items()
        }
        session, billed = reader.session(_Row(line=line, values=values))
        if session.key in key_lines:
            raise ParseError(
                f"key {session.key!r} is also the key of line {key_lines[session.key]}; "
                "give each session its own key",
                source=source,
                line=line,
            )
        key_lines[session.key] = line
        sessions[session.key] = session
        if session.room:
            rooms.setdefault(session.room)
        for speaker in billed:
            known = speakers.get(speaker.key)
            if known is None:
                speakers[speaker.key] = speaker
                speaker_lines[speaker.key] = line
                continue
            if known.name != speaker.name:
                programme.warnings.append(
                    f"{source}, line {line}: speaker {speaker.name!r} has the same key as "
                    f"{known.name!r} (line {speaker_lines[speaker.key]}); taken as one person"
                )
            if not known.company and speaker.company:
                speakers[speaker.key] = Speaker(
                    key=known.key, name=known.name, company=speaker.company
                )

    programme.sessions = list(sessions.values())
    programme.speakers = list(speakers.values())
    programme.rooms = list(rooms)
    programme.warnings.extend(reader.warnings)
    declared = list(dict.fromkeys(reader.declared_zones))
    if len(declared) > 1:
        programme.warnings.append(
            f"{source}: rows name several time zones ({', '.join(declared)}); "
            f"the programme's zone is {declared[0]}"
        )
    if declared:
        programme.timezone = declared[0]
    elif reader.used_default:
        programme.timezone = default_timezone
    zone = get_zone(programme.timezone) if programme.timezone else None
    local_days = sorted(
        (session.starts_at.astimezone(zone) if zone else session.starts_at).date()
        for session in programme.sessions
        if session.starts_at
    )
    if local_days:
        programme.start_date, programme.end_date = local_days[0], local_days[-1]
    return programme


def _decode(data: bytes, source: str) -> str:
    try:
        # A sheet re-saved by a tool that adds a byte-order mark before the one it read starts
        # with two: both go, or the first column would be "\ufeffkey", unknown.
        return data.decode("utf-8-sig").lstrip("\ufeff")
    except UnicodeDecodeError as exc:
        raise ParseError(
            f"not UTF-8 text (byte {exc.start} cannot be decoded); save the sheet as "
            "'CSV UTF-8' (Excel) or with the character set 'Unicode (UTF-8)' (LibreOffice)",
            source=source,
            line=data[: exc.start].count(b"\n") + 1,
        ) from exc


def _sniff(line: str) -> str:
    """The delimiter the header line uses most: ',' unless ';' or a tab wins."""
    return max(_DELIMITERS, key=line.count) if any(d in line for d in _DELIMITERS) else ","


def _records(text: str, source: str) -> list[tuple[int, list[str]]]:
    """Each record with the line it starts on; leading blank lines skipped."""
    lines = io.StringIO(text, newline="")
    first = next((line for line in lines if line.strip()), "")
    lines.seek(0)
    reader = csv.reader(lines, delimiter=_sniff(first.rstrip("\r\n")), strict=True)
    records: list[tuple[int, list[str]]] = []
    start = 1
    try:
        for cells in reader:
            if records or any(cell.strip() for cell in cells):
                records.append((start, cells))
            start = reader.line_num + 1
    except csv.Error as exc:
        raise ParseError(
            f"badly quoted value ({exc}): a value in double quotes must end with a double quote, "
            'and a double quote inside it is written twice ("")',
            source=source,
            line=start,
        ) from exc
    return records


def _column_name(cell: str) -> str:
    return re.sub(r"[\s-]+", "_", visible(cell).casefold())


def _columns(header: list[str], *, source: str, line: int) -> dict[str, int]:
    """Known column -> its index in the header."""
    columns: dict[str, int] = {}
    for index, cell in enumerate(header):
        name = _column_name(cell)
        if name not in COLUMNS:
            continue
        if name in columns:
            raise ParseError(
                f"column {name!r} appears twice in the header (columns {columns[name] + 1} and "
                f"{index + 1})",
                source=source,
                line=line,
            )
        columns[name] = index
    missing = [name for name in REQUIRED_COLUMNS if name not in columns]
    if missing:
        found = ", ".join(repr(cell.strip()) for cell in header if cell.strip()) or "nothing"
        raise ParseError(
            f"the header row has no {' and no '.join(repr(name) for name in missing)} column "
            f"(it names {found}); the first line must name the columns, at least "
            f"{' and '.join(REQUIRED_COLUMNS)}",
            source=source,
            line=line,
        )
    return columns


def _unguard(value: str) -> str:
    """Drop the apostrophe that keeps a spreadsheet from reading a cell as a formula."""
    if value.startswith("'") and value[1:2] and value[1] in _FORMULA_STARTS:
        return value[1:]
    return value


class _RowReader:
    """Turns rows into sessions; remembers which zones the file declared or needed."""

    def __init__(self, *, source: str, default_timezone: str) -> None:
        self.source = source
        self.default_timezone = default_timezone
        self.declared_zones: list[str] = []
        self.used_default = False
        self.warnings: list[str] = []
        self.key_zone: tzinfo | None = None

    def fail(self, row: _Row, message: str) -> ParseError:
        return ParseError(message, source=self.source, line=row.line)

    def session(self, row: _Row) -> tuple[Session, list[Speaker]]:
        values = row.values
        title = values.get("title", "")
        if not title:
            raise self.fail(row, "title is empty; every session needs a title")
        zone = self._row_zone(row)
        starts_at = self._time(row, "starts_at", zone)
        ends_at = self._time(row, "ends_at", zone)
        if ends_at is not None and starts_at is None:
            raise self.fail(row, f"ends_at {values['ends_at']!r} is given but starts_at is empty")
        if starts_at and ends_at and ends_at < starts_at:
            raise self.fail(
                row,
                f"ends_at {values['ends_at']!r} is before starts_at {values['starts_at']!r}",
            )
        slides = values.get("slides", "").casefold()
        if slides not in _YES | _NO:
            raise self.fail(row, f"slides {values['slides']!r} is not yes or no")
        seats = values.get("seats", "").strip()
        is_open = seats.casefold() == OPEN_ENTRY
        if seats and not is_open and not (seats.isascii() and seats.isdigit()):
            raise self.fail(
                row,
                f"seats {shortened(values['seats'], most=80)!r} is not a whole number nor "
                f"{OPEN_ENTRY!r} (empty: left as it is)",
            )
        key = visible(values.get("key", "")) or derived_key(title, starts_at, zone=self.key_zone)
        billed = self._speakers(row)
        session = Session(
            key=key,
            title=title,
            kind=values.get("kind", ""),
            abstract=values.get("abstract", "").replace("\r\n", "\n").replace("\r", "\n"),
            starts_at=starts_at,
            ends_at=ends_at,
            room=values.get("room", ""),
            track=values.get("track", ""),
            level=values.get("level", ""),
            language=values.get("language", ""),
            has_slides=slides in _YES,
            seats=int(seats) if seats and not is_open else None,
            # An empty cell says nothing of the seats: a re-import keeps the organizer's.
            unknown=frozenset() if seats or "seats" not in values else frozenset({"seats"}),
            links=self._links(row),
            speakers=tuple(
                SessionSpeaker(speaker_key=speaker.key, affiliation=speaker.company)
                for speaker in billed
            ),
        )
        return session, billed

    def _links(self, row: _Row) -> tuple[SessionLink, ...]:
        links: list[SessionLink] = []
        for part in _LINK_SEPARATOR.split(row.values.get("links", "")):
            part = part.strip()
            if not part:
                continue
            # Split, not matched by one pattern: a pattern retrying at every space of a long run
            # of them would cost time in the square of the cell's length.
            head, _, url = " ".join(part.split()).rpartition(" ")
            if not _WEB.match(url):
                raise self.fail(
                    row,
                    f"links: {shortened(part, most=80)!r} does not end with a web address "
                    "(http:// or https://); write each link as [Slides: ][title ]address, "
                    "separated by '; '",
                )
            prefix = _KIND_PREFIX.match(head)
            title = head[prefix.end() :] if prefix else head
            kind = prefix["kind"].casefold() if prefix else link_kind(url, title)
            links.append(SessionLink(url=url, title=title, kind=kind))
        return tuple(links)

    def _row_zone(self, row: _Row) -> tzinfo | None:
        name = row.values.get("timezone", "")
        if not name:
            return None
        if not is_zone_name(name):
            raise self.fail(row, f"timezone: {zone_problem(name)}")
        self.declared_zones.append(name)
        return get_zone(name)

    def _time(self, row: _Row, column: str, zone: tzinfo | None) -> datetime | None:
        value = row.values.get(column, "")
        if not value:
            return None
        match = _DATE_TIME.match(value)
        if match is None:
            raise self.fail(row, f"{column} {value!r} is not a date-time ({TIME_EXAMPLE})")
        offset = match["offset"] or ""
        if offset.upper() == "Z":
            offset = "+00:00"
        elif offset:
            digits = offset[1:].replace(":", "")
            offset = f"{offset[0]}{digits[:2]}:{digits[2:] or '00'}"
        normalised = (
            f"{match['date']}T{int(match['hour']):02d}:{match['minute']}:{match['second'] or '00'}"
            f"{'.' + match['fraction'].ljust(6, '0') if match['fraction'] else ''}{offset}"
        )
        try:
            parsed = datetime.fromisoformat(normalised)
        except ValueError as exc:
            raise self.fail(row, f"{column} {value!r} is not a date-time ({TIME_EXAMPLE})") from exc
        if parsed.tzinfo is not None:
            self._check_range(row, column, parsed)
            return parsed
        if zone is None:
            zone = self._default_zone(row, column, value)
        self._check_range(row, column, parsed.replace(tzinfo=zone))
        moved, skipped = wall_time(parsed, zone)
        if skipped:
            self.warnings.append(
                skipped_time(f"{self.source}, line {row.line}: {column}", value, zone, moved)
            )
        return moved

    def _check_range(self, row: _Row, column: str, value: datetime) -> None:
        """Refuse a time too near the ends of the calendar to be converted between zones."""
        # Comparing aware datetimes never overflows, unlike astimezone().
        if not _EARLIEST <= value <= _LATEST:
            raise self.fail(
                row,
                f"{column} {row.values[column]!r} is out of range: a time must fall between "
                f"{_EARLIEST.date().isoformat()} and {_LATEST.date().isoformat()} (UTC)",
            )

    def _default_zone(self, row: _Row, column: str, value: str) -> tzinfo:
        if not self.default_timezone:
            raise self.fail(
                row,
                f"{column} {value!r} has no UTC offset and no time zone is given for it; write "
                "the offset (2026-04-07 11:00+02:00), fill the timezone column "
                "(e.g. Europe/Paris) or import with --timezone",
            )
        if not is_zone_name(self.default_timezone):
            raise self.fail(
                row,
                f"{column} {value!r} has no UTC offset and the time zone given cannot read it: "
                f"{zone_problem(self.default_timezone)}",
            )
        self.used_default = True
        return get_zone(self.default_timezone)

    def _speakers(self, row: _Row) -> list[Speaker]:
        speakers: list[Speaker] = []
        seen: set[str] = set()
        for part in row.values.get("speakers", "").split(";"):
            part = " ".join(part.split())
            if not part:
                continue
            name, company = split_speaker(part)
            if not name:
                raise self.fail(row, f"speakers: {part!r} has no name before the parentheses")
            speaker = Speaker(key=slugify(name), name=name, company=company)
            if speaker.key not in seen:
                seen.add(speaker.key)
                speakers.append(speaker)
        return speakers


def split_speaker(text: str) -> tuple[str, str]:
    """'Ada Lovelace (Analytical Engines)' -> name and company; the last balanced () wins."""
    text = text.strip()
    if not text.endswith(")"):
        return text, ""
    depth = 0
    for index in range(len(text) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(text[index], 0)
        if depth == 0:
            return text[:index].strip(), text[index + 1 : -1].strip()
    return text, ""  # unbalanced: no company
