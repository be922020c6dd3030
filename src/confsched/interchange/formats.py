"""The registry of formats: which reader a file needs (told from its content) and the writers.

Readers are tried in this order; each sniffer is cheap and precise, and the Sched-page reader,
whose sniffer is the loosest (plain text), comes last.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from types import ModuleType
from typing import Any, TypeVar

from confsched.core.errors import ConfschedError, ParseError, ReaderFault, UnknownFormatError
from confsched.interchange.c3voc import read as c3voc_json
from confsched.interchange.c3voc import schedule2_read as c3voc_schedule2
from confsched.interchange.c3voc import schedule2_write as c3voc_schedule2_write
from confsched.interchange.c3voc import write as c3voc_json_write
from confsched.interchange.csv import read as csv_format
from confsched.interchange.csv import write as csv_format_write
from confsched.interchange.frab import read as frab_xml
from confsched.interchange.frab import write as frab_xml_write
from confsched.interchange.ical import read as ical_reader
from confsched.interchange.ical import write as ical_write
from confsched.interchange.ical import xcal_read as xcal
from confsched.interchange.ical import xcal_write as xcal_write
from confsched.interchange.programme import Programme
from confsched.interchange.sched import read as sched_pages
from confsched.interchange.sessionize import read as sessionize


@dataclass(frozen=True)
class Format:
    name: str
    description: str
    sniff: Callable[[str], bool]
    parse: Callable[..., Programme]
    # Session fields the format can express; a re-import leaves the others alone (None: all).
    carries: frozenset[str] | None = None
    # Sched spreads one event over several pages; every other format is one file.
    reads_many_files: bool = False


# "speaker.X" names what a format says about people beyond their names.
_TIMES = {
    "title", "kind", "abstract", "starts_at", "ends_at", "room", "track", "speakers",
    "speaker.name",
}  # fmt: skip
CALENDAR_FIELDS = frozenset(_TIMES | {"affiliations", "is_cancelled"})
# The frab family carries links; a "slides attached" flag only through a slides link.
FRAB_FIELDS = frozenset(_TIMES | {"language", "links"})
C3VOC_FIELDS = frozenset(FRAB_FIELDS | {"speaker.bio", "speaker.avatar_url"})
# schedule2 says which events are cancelled or still drafts.
SCHEDULE2_FIELDS = frozenset(FRAB_FIELDS | {"is_cancelled", "needs_review", "review_note"})
SESSIONIZE_FIELDS = frozenset(
    _TIMES | {"level", "language", "is_cancelled", "needs_review", "review_note"}
    | {"speaker.company", "speaker.position", "speaker.bio", "speaker.avatar_url"}
)  # fmt: skip
CSV_FIELDS = frozenset(
    _TIMES | {"affiliations", "level", "language", "has_slides", "links", "seats"}
)


def _module_format(module: ModuleType, carries: frozenset[str]) -> Format:
    return Format(
        name=module.FORMAT_NAME,
        description=module.DESCRIPTION,
        sniff=module.looks_like,
        parse=module.parse,
        carries=carries,
    )


FORMATS: tuple[Format, ...] = (
    _module_format(ical_reader, CALENDAR_FIELDS),
    _module_format(xcal, CALENDAR_FIELDS),
    _module_format(frab_xml, FRAB_FIELDS),
    _module_format(c3voc_json, C3VOC_FIELDS),
    _module_format(c3voc_schedule2, SCHEDULE2_FIELDS),
    _module_format(sessionize, SESSIONIZE_FIELDS),
    _module_format(csv_format, CSV_FIELDS),
    Format(
        name=sched_pages.FORMAT_NAME,
        description="Sched schedule pages saved as text (listings and session pages)",
        sniff=sched_pages.looks_like_sched_page,
        parse=sched_pages.parse_sched_pages,
        reads_many_files=True,
    ),
)


@dataclass(frozen=True)
class Writer:
    extension: str
    format_name: str
    content_type: str
    render: Callable[..., bytes]


WRITERS: dict[str, Writer] = {
    writer.extension: writer
    for writer in (
        Writer(
            "xml", frab_xml.FORMAT_NAME, "application/xml; charset=utf-8", frab_xml_write.render
        ),
        Writer(
            "json",
            c3voc_json.FORMAT_NAME,
            "application/json; charset=utf-8",
            c3voc_json_write.render,
        ),
        # schedule.xcal is the frab/pentabarf dialect that frab and pretalx serve there and the
        # phone apps (Giggity) read; the standard form has its own name.
        Writer(
            "xcal", xcal.FORMAT_NAME, "application/xml; charset=utf-8", xcal_write.render_pentabarf
        ),
        Writer(
            "rfc6321.xcal",
            xcal.FORMAT_NAME,
            "application/calendar+xml; charset=utf-8",
            xcal_write.render,
        ),
        # The event's calendar: served at /<event>/schedule.ics by its own view (filters, ETag
        # of the event); the registry's writer renders a version's calendar from its programme.
        Writer("ics", ical_reader.FORMAT_NAME, "text/calendar; charset=utf-8", ical_write.render),
        Writer("csv", csv_format.FORMAT_NAME, "text/csv; charset=utf-8", csv_format_write.render),
        # Served as /<event>/schedule2.json: "schedule.schedule2" would read as a typo.
        Writer(
            "schedule2",
            c3voc_schedule2.FORMAT_NAME,
            "application/json; charset=utf-8",
            c3voc_schedule2_write.render,
        ),
    )
}


def format_names() -> str:
    return ", ".join(f"{fmt.name} ({fmt.description})" for fmt in FORMATS)


def get_format(name: str) -> Format:
    for fmt in FORMATS:
        if fmt.name == name:
            return fmt
    raise UnknownFormatError(f"unknown format {name!r}; confsched reads: {format_names()}")


_HEAD = 200_000  # bytes a sniffer sees: the root element, first line or first keys are there


def _text_of(data: bytes) -> str:
    """`data` as text for sniffing: UTF-16 (with a byte-order mark, or XML without one: "<"
    and a zero byte, in either order) as such, anything else as UTF-8; byte-order marks
    dropped."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        encoding = "utf-16"
    elif data[:2] == b"<\x00":
        encoding = "utf-16-le"
    elif data[:2] == b"\x00<":
        encoding = "utf-16-be"
    else:
        encoding = "utf-8"
    return data.decode(encoding, errors="replace").lstrip("\ufeff")


def detect_format(source: str, data: bytes) -> Format:
    """The format whose sniffer recognises the start of `data`, or an error naming the file.

    A JSON document may name what it is late (schedule2's "conference" after a long "events"
    list): when its start decides nothing, the sniffers see all of it.
    """
    head = _text_of(data[:_HEAD])
    for fmt in FORMATS:
        if _guarded(fmt, source, fmt.sniff, head):
            return fmt
    if len(data) > _HEAD and head.lstrip(" \t\r\n").startswith("{"):
        whole = _text_of(data)
        for fmt in FORMATS:
            if _guarded(fmt, source, fmt.sniff, whole):
                return fmt
    raise UnknownFormatError(
        f"not a programme confsched can read; it reads: {format_names()}", source=source
    )


T = TypeVar("T")


def _guarded(
    fmt: Format, where: str, function: Callable[..., T], /, *args: Any, **kwargs: Any
) -> T:
    """Run a reader; what it did not foresee becomes a ReaderFault naming the file, not a
    traceback. Readers name the place themselves for every fault they know of; a ReaderFault
    is a defect to fix in the reader (the fuzz harness counts them)."""
    try:
        return function(*args, **kwargs)
    except ConfschedError:
        raise
    except Exception as exc:  # noqa: BLE001 - the last line of defence, re-raised as our own
        raise ReaderFault(
            f"the {fmt.name} reader could not read this file ({type(exc).__name__}: "
            f"{str(exc)[:200]}); nothing was imported. This is a defect in confsched: please "
            "report it with the file",
            source=where,
        ) from exc


def _call(fmt: Format, source: str, data: bytes, **options: Any) -> Programme:
    """Pass a reader only the options it takes (zones for naive times, our own UID domain)."""
    accepted = inspect.signature(fmt.parse).parameters
    chosen = {name: value for name, value in options.items() if name in accepted}
    return _guarded(fmt, source, fmt.parse, data, source=source, **chosen)


def parse_files(
    files: Sequence[tuple[str, bytes]], *, format_name: str = "", default_timezone: str = "",
    uid_domain: str = "", location: str = "",
) -> Programme:  # fmt: skip
    """Parse the files of one import, all of one format (detected unless named)."""
    if not files:
        raise ParseError("no files to import")
    if format_name:
        fmt = get_format(format_name)
    else:
        detected = [(source, detect_format(source, data)) for source, data in files]
        fmt = detected[0][1]
        for source, other in detected[1:]:
            if other is not fmt:
                raise ParseError(
                    f"is {other.name} but {detected[0][0]} is {fmt.name}; "
                    "import one format at a time",
                    source=source,
                )
    if fmt.reads_many_files:
        return _guarded(fmt, files[0][0], fmt.parse, files)
    if len(files) > 1:
        raise ParseError(
            f"{fmt.name} holds a whole programme in one file: import one file at a time",
            source=files[1][0],
        )
    source, data = files[0]
    programme = _call(
        fmt, source, data, default_timezone=default_timezone, uid_domain=uid_domain,
        location=location,
    )  # fmt: skip
    # A reader may say it carries less than its format can (Sessionize's list exports).
    carries = programme.carries if programme.carries is not None else fmt.carries
    return replace(programme, carries=carries)
