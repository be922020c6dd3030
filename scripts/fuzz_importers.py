"""Fuzz every importer: a mutated real file must end in a programme or in a ParseError.

Usage: python scripts/fuzz_importers.py [--inputs N] [--seed S] [--format NAME]...
           [--time-limit SECONDS] [--workers N] [--examples DIR] [--shrink-seconds SECONDS]
(defaults: 10,000 inputs per reader, seed 0, every reader, 2 s, 2 workers, var/fuzz-crashes, 30 s)

For each reader in the registry (`confsched.interchange.formats.FORMATS`) the seeds are the
format's samples in ../shared/formats/samples, our own writer's output for the format (xCal,
CSV, frab XML, c3voc JSON), the CSV template, the Sched demo pages for sched-pages, view/Sessions
and view/GridSmart documents made from the Sessionize demo, schedule2 documents made from the
c3voc v1 samples, and the audit's crash inputs in ../shared/audit/importer-crashes/<format>. A
reader this script does not know gets the samples its sniffer claims. Each input is a seed
changed by one to four mutations: byte flips, inserts, deletions, duplicated and spliced
chunks, records repeated up to 2,500 times, and dates, times, offsets, zone names, numbers,
durations and strings replaced by extreme values (years 1 and 9999, -23:59, "Europe", 300 ×
"A", 5,000-digit integers, 100,000 nested brackets, NUL bytes, 40,000 spaces). The same --seed
gives the same inputs.

Every input goes through `parse_files` as `confsched import` calls it (default time zone
Europe/Paris), then through `validate_programme`. Outcomes: parsed; refused (the project's own
error: a ParseError or another ConfschedError, except ReaderFault); crashed (any other
exception, or ReaderFault, the safety net that turns an unforeseen exception into a refusal);
slow (more than --time-limit seconds of CPU, measured per process so that a busy machine does
not count; the input is stopped there). The table gives the counts per format; each distinct
crash (exception type and innermost frame in confsched) is shrunk and written to --examples as
<format>/min_<Type>_<file>_L<line>.<ext>, the slowest slow input per format as
<format>/slow_<n>.<ext>. The exit status is 1 when any input crashed.
"""

from __future__ import annotations

import argparse
import inspect
import os
import random
import re
import resource
import signal
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
SAMPLES = SHARED / "formats" / "samples"
AUDIT = SHARED / "audit" / "importer-crashes"
DEMO = ROOT / "demo" / "pytorch-conference-europe-2026"
# Folders of ../shared/formats/samples, by reader.
SAMPLE_DIRS = {
    "ical": "ics",
    "frab-xml": "frab-xml",
    "c3voc-json": "c3voc-json",
    "sessionize-json": "sessionize",
}
DEFAULT_TIMEZONE = "Europe/Paris"
# Beyond this, a mutation repeats or inserts less: the point is odd shapes, not memory.
MAX_INPUT = 8 * 1024 * 1024
# Each worker process; a reader that wants more gets MemoryError, counted as a crash.
MEMORY_LIMIT = 3 * 1024 * 1024 * 1024
CHUNK = 25  # inputs per task sent to a worker


# --- seeds -----------------------------------------------------------------------------------


def _setup_django() -> None:
    # validate_programme reads column lengths from the models; nothing touches a database.
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "confsched.settings")
    os.environ.setdefault("CONFSCHED_TESTING", "1")
    import django

    django.setup()


def _files(folder: Path) -> list[tuple[str, bytes]]:
    if not folder.is_dir():
        return []
    return [
        (str(path.relative_to(folder)), path.read_bytes())
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    ]


def _sample_programmes() -> list[Any]:
    """Programmes parsed from a few samples, for the writers to turn into seeds."""
    from confsched.interchange.formats import parse_files

    programmes = []
    demo = [(path.name, path.read_bytes()) for path in sorted(DEMO.glob("*.txt"))]
    if demo:
        programmes.append(parse_files(demo, format_name="sched-pages"))
    debconf = SAMPLES / "frab-xml" / "giggity_debconf23.xml"
    if debconf.is_file():
        programmes.append(
            parse_files([(debconf.name, debconf.read_bytes())], format_name="frab-xml")
        )
    return programmes


def _sessionize_list_shapes(data: bytes) -> list[tuple[str, bytes]]:
    """view/Sessions and view/GridSmart documents made from a view/All export."""
    import json

    root = json.loads(data.decode("utf-8-sig"))
    rooms = {room["id"]: room["name"] for room in root["rooms"]}
    speakers = {speaker["id"]: speaker["fullName"] for speaker in root["speakers"]}
    items = {
        item["id"]: (category, item)
        for category in root["categories"]
        for item in category["items"]
    }

    def listed(session: dict[str, Any]) -> dict[str, Any]:
        groups: dict[int, dict[str, Any]] = {}
        for item_id in session["categoryItems"]:
            category, item = items[item_id]
            group = groups.setdefault(
                category["id"],
                {"id": category["id"], "name": category["title"], "categoryItems": []},
            )
            group["sort"] = category.get("sort", 0)
            group["categoryItems"].append({"id": item["id"], "name": item["name"]})
        return {
            **{key: value for key, value in session.items() if key != "categoryItems"},
            "speakers": [{"id": key, "name": speakers[key]} for key in session["speakers"]],
            "categories": list(groups.values()),
            "room": rooms.get(session["roomId"]),
            "status": "Accepted",
        }

    sessions = [listed(session) for session in root["sessions"]]
    view_sessions = [{"groupId": None, "groupName": "All", "sessions": sessions}]
    days: dict[str, dict[str, Any]] = {}
    for session in sessions:
        day = days.setdefault(
            (session["startsAt"] or "")[:10],
            {"date": (session["startsAt"] or "")[:10] + "T00:00:00", "isDefault": False},
        )
        room = day.setdefault("byRoom", {}).setdefault(
            session["roomId"],
            {"id": session["roomId"], "name": session["room"], "sessions": []},
        )
        room["sessions"].append(session)
        day.setdefault("timeSlots", []).append(
            {
                "slotStart": (session["startsAt"] or "T00:00:00")[11:19],
                "rooms": [{"id": session["roomId"], "name": session["room"], "session": session}],
            }
        )
    grid = [
        {
            "date": day["date"],
            "isDefault": day["isDefault"],
            "rooms": list(day["byRoom"].values()),
            "timeSlots": day["timeSlots"],
        }
        for day in days.values()
    ]
    return [
        ("view-sessions.json", json.dumps(view_sessions, indent=2).encode()),
        ("view-gridsmart.json", json.dumps(grid, indent=2).encode()),
    ]


def _schedule2_from_v1(data: bytes) -> bytes:
    """A c3voc schedule2 document made from a v1 schedule.json (no real samples exist yet)."""
    import json
    from datetime import timedelta

    conference = json.loads(data.decode("utf-8-sig"))["schedule"]["conference"]
    rooms: dict[str, dict[str, str]] = {}
    events = []
    for day in conference["days"]:
        for room, entries in day["rooms"].items():
            rooms.setdefault(room, {"name": room, "slug": re.sub(r"\W+", "-", room).lower()})
            for event in entries:
                start = datetime.fromisoformat(event["date"])
                hours, minutes = (int(part) for part in event["duration"].split(":")[:2])
                persons = event.get("persons") or []
                events.append(
                    {
                        "guid": event.get("guid"),
                        "start": start.isoformat(),
                        "end": (start + timedelta(hours=hours, minutes=minutes)).isoformat(),
                        "room": {"name": room, "slug": rooms[room]["slug"]},
                        "slug": event.get("slug"),
                        "title": event.get("title"),
                        "subtitle": event.get("subtitle"),
                        "track": {"name": event["track"]} if event.get("track") else None,
                        "type": re.sub(r"\W+", "_", event.get("type") or "talk").upper(),
                        "language": event.get("language"),
                        "abstract": event.get("abstract"),
                        "description": event.get("description"),
                        "participants": [
                            {
                                "name": person.get("public_name") or person.get("name"),
                                "guid": person.get("guid"),
                                "role": "SPEAKER",
                            }
                            for person in persons
                        ],
                        "links": [],
                    }
                )
    document = {
        "$schema": "https://c3voc.de/schema/schedule2",
        "schedule": {
            "version": "fuzz",
            "conference": {
                "acronym": conference.get("acronym"),
                "title": conference.get("title"),
                "start": conference.get("start"),
                "end": conference.get("end"),
                "time_zone_name": conference.get("time_zone_name"),
                "rooms": list(rooms.values()),
            },
            "events": events,
        },
    }
    return json.dumps(document, indent=2, ensure_ascii=False).encode()


def collect_seeds(format_names: Iterable[str]) -> dict[str, list[tuple[str, bytes]]]:
    """The seed files of each reader, by format name (see the module docstring)."""
    from confsched.interchange.formats import FORMATS, WRITERS

    every_sample = _files(SAMPLES)
    programmes = _sample_programmes()
    fixed_now = datetime(2026, 1, 1, tzinfo=UTC)
    seeds: dict[str, list[tuple[str, bytes]]] = {}
    for name in format_names:
        fmt = next(fmt for fmt in FORMATS if fmt.name == name)
        found: list[tuple[str, bytes]] = []
        if name in SAMPLE_DIRS:
            found += _files(SAMPLES / SAMPLE_DIRS[name])
        else:
            found += [
                (sample, data)
                for sample, data in every_sample
                if fmt.sniff(data[:200_000].decode("utf-8", errors="replace").lstrip("\ufeff"))
            ]
        if name == "csv":
            found.append(("csv-template.csv", (ROOT / "docs" / "csv-template.csv").read_bytes()))
        if name == "sched-pages":
            found += [(path.name, path.read_bytes()) for path in sorted(DEMO.glob("*.txt"))]
        if name == "c3voc-schedule2":
            found += [
                (f"schedule2-{path}", _schedule2_from_v1(data))
                for path, data in _files(SAMPLES / "c3voc-json")
            ]
        if name == "sessionize-json":
            demo = SAMPLES / "sessionize" / "sessionize-demo_All.json"
            if demo.is_file():
                found += _sessionize_list_shapes(demo.read_bytes())
        for extension, writer in WRITERS.items():
            if writer.format_name == name:
                for number, programme in enumerate(programmes):
                    # A writer that stamps the time it writes (DTSTAMP) is given a fixed one.
                    parameters = inspect.signature(writer.render).parameters
                    options: dict[str, Any] = {"now": fixed_now} if "now" in parameters else {}
                    if "uid_domain" in parameters:  # the calendar's UIDs name the event
                        options["uid_domain"] = "fuzz.confsched"
                    rendered = writer.render(programme, slug="fuzz", **options)
                    found.append((f"rendered-{number}.{extension}", rendered))
        found += [(f"audit/{path}", data) for path, data in _files(AUDIT / name)]
        seeds[name] = found
    return seeds


# --- mutations -------------------------------------------------------------------------------

INTERESTING_BYTES = b"\x00\xff\x7f\x80\"'<>{}[],;:\\\n\r\t &=+-/ZT0159"
TOKENS = [
    b"\x00", b"\xef\xbb\xbf", b"\r", b"\r\n", b'"', b"'", b"<", b"</", b"/>", b"&amp;",
    b"&#0;", b"&#xD800;", b"]]>", b"<![CDATA[", b"{", b"}", b"[", b"]", b"null", b"true",
    b"-0", b"1e999", b"NaN", b"\\u0000", b"\\ud800", b";VALUE=BINARY", b";TZID=Europe",
    b"BEGIN:VEVENT\r\n", b"END:VEVENT\r\n", b"BEGIN:VTIMEZONE\r\n", b"\xf0\x9f\x98\x80",
    b"\xc3\x28", b"\xed\xa0\x80",
]  # fmt: skip
EXTREMES: dict[str, list[bytes]] = {
    "date": [b"0001-01-01", b"9999-12-31", b"0000-00-00", b"2026-02-30", b"99999-01-01",
             b"2026-13-01", b"1900-01-01", b"3000-01-01"],
    "compact": [b"00010101T000000", b"99991231T235959", b"99991231T235959Z", b"00010101",
                b"99991231", b"20260230T250000"],
    "time": [b"23:59", b"24:00", b"99:99", b"00:00:60", b"-1:00", b"23:59:59.999999",
             b"0:00", b"9999:00"],
    "offset": [b"-23:59", b"+23:59", b"+24:00", b"-00:01", b"Z", b"+14:00", b"-12:00"],
    "zone": [b"Europe", b"Etc", b"A" * 300, b"a/" * 300 + b"b", b"../../../etc/passwd",
             b"/etc/localtime", b"Europe/Paris\x00", b"posix/Europe/Paris", b"right/UTC",
             b"Etc/GMT+14", b"EST5EDT", b"", b"Europe/", b"Europe//Paris"],
    "number": [b"9" * 5000, b"0", b"-1", b"1e400", b"4294967296", b"9" * 30, b"NaN",
               b"Infinity", b"-9" * 20, b"0.5", b"00"],
    "duration": [b"P9999999D", b"PT-1H", b"P99999999W", b"-P1D", b"PT0S", b"P1Y",
                 b"PT99999999999H"],
    "text": [b"x" * 300, b"\\u0000", b"\\ud800", b"\x00", b"N" * 10_000, b"", b" ",
             "\u202e\u00e9\u4e2d".encode(), b"&lt;script&gt;", b"\\"],
}  # fmt: skip
PATTERNS = {
    "date": re.compile(rb"\d{4}-\d{2}-\d{2}"),
    "compact": re.compile(rb"\d{8}(?:T\d{6}Z?)?"),
    "time": re.compile(rb"\d{1,2}:\d{2}(?::\d{2})?"),
    "offset": re.compile(rb"(?<=\d)(?:Z|[+-]\d{2}:?\d{2})"),
    "zone": re.compile(rb"[A-Z][a-z]+/[A-Z][A-Za-z_]+(?:/[A-Z][A-Za-z_]+)?"),
    "number": re.compile(rb"\d+"),
    "duration": re.compile(rb"P(?:\d+[DW](?:T(?:\d+[HMS])+)?|T(?:\d+[HMS])+)"),
    "text": re.compile(rb'(?<=")[^"\\\n]{1,80}(?=")|(?<=>)[^<\n]{1,80}(?=<)|(?<=:)[^\r\n]{1,80}'),
}
# Where a record starts, to repeat whole records (2,500 events with one UID).
RECORD_STARTS = [b"BEGIN:VEVENT", b"<event ", b"<event>", b"<vevent>", b'{"id"', b'"id":', b"\n"]
DEEP = [b"[" * 100_000, b'{"a":' * 50_000, b"<a>" * 100_000, b"(" * 50_000]
RUNS = [
    b" " * 40_000,
    b" " * 100_000,
    b"\t" * 10_000,
    b"a" * 100_000,
    b"\x00" * 1000,
    b"\n" * 50_000,
]


def _position(rng: random.Random, data: bytes) -> int:
    return rng.randrange(len(data) + 1)


def _chunk(rng: random.Random, data: bytes) -> tuple[int, int]:
    if not data:
        return 0, 0
    start = rng.randrange(len(data))
    # Mostly small chunks, sometimes large ones.
    length = min(len(data) - start, int(rng.paretovariate(1.0) * rng.choice([1, 8, 64])))
    return start, start + max(length, 1)


def flip_bit(rng: random.Random, data: bytes, others: Sequence[bytes]) -> bytes:
    if not data:
        return data
    at = rng.randrange(len(data))
    return data[:at] + bytes([data[at] ^ (1 << rng.randrange(8))]) + data[at + 1 :]


def set_byte(rng: random.Random, data: bytes, others: Sequence[bytes]) -> bytes:
    if not data:
        return data
    at = rng.randrange(len(data))
    return data[:at] + bytes([rng.choice(INTERESTING_BYTES)]) + data[at + 1 :]


def insert_bytes(rng: random.Random, data: bytes, others: Sequence[bytes]) -> bytes:
    at = _position(rng, data)
    if rng.random() < 0.5:
        piece = rng.choice(TOKENS)
    else:
        piece = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
    return data[:at] + piece + data[at:]


def delete_chunk(rng: random.Random, data: bytes, others: Sequence[bytes]) -> bytes:
    start, end = _chunk(rng, data)
    return data[:start] + data[end:]


def duplicate_chunk(rng: random.Random, data: bytes, others: Sequence[bytes]) -> bytes:
    start, end = _chunk(rng, data)
    piece = data[start:end]
    times = rng.choice([1, 1, 2, 10, 100])
    times = max(1, min(times, (MAX_INPUT - len(data)) // max(len(piece), 1)))
    at = _position(rng, data)
    return data[:at] + piece * times + data[at:]


def splice(rng: random.Random, data: bytes, others: Sequence[bytes]) -> bytes:
    other = rng.choice(others) if others else data
    return data[: _position(rng, data)] + other[_position(rng, other) :]


def truncate(rng: random.Random, data: bytes, others: Sequence[bytes]) -> bytes:
    return data[: _position(rng, data)]


def replace_token(rng: random.Random, data: bytes, others: Sequence[bytes]) -> bytes:
    """A date, time, offset, zone, number, duration or text replaced by an extreme value."""
    kind = rng.choice(sorted(PATTERNS))
    pattern = PATTERNS[kind]
    match = pattern.search(data, _position(rng, data)) or pattern.search(data)
    if match is None:
        return data
    value = rng.choice(EXTREMES[kind])
    if rng.random() < 0.2:
        # The same replacement in many places (every session's date), within MAX_INPUT.
        count = 0 if len(value) <= 16 else 100
        return pattern.sub(lambda _: value, data, count=count)
    return data[: match.start()] + value + data[match.end() :]


def repeat_record(rng: random.Random, data: bytes, others: Sequence[bytes]) -> bytes:
    """A record (event, session, line) repeated up to 2,500 times."""
    marker = rng.choice(RECORD_STARTS)
    start = data.find(marker, _position(rng, data))
    if start < 0:
        start = data.find(marker)
    end = data.find(marker, start + len(marker)) if start >= 0 else -1
    if start < 0 or end < 0:
        return data
    record = data[start:end]
    times = rng.choice([2, 50, 500, 2500])
    times = max(1, min(times, (MAX_INPUT - len(data)) // max(len(record), 1)))
    return data[:start] + record * times + data[start:]


def insert_structure(rng: random.Random, data: bytes, others: Sequence[bytes]) -> bytes:
    """Deep nesting, long runs of one character, or a hostile XML prologue."""
    choice = rng.randrange(3)
    if choice == 0:
        piece = rng.choice(DEEP)
    elif choice == 1:
        piece = rng.choice(RUNS)
    else:
        prologue = rng.choice(
            [
                b'<?xml version="1.0" encoding="x-klingon"?>',
                b'<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>',
                b'<!DOCTYPE x SYSTEM "file:///etc/passwd">',
                b"\xef\xbb\xbf",
                b'<?xml version="1.0" encoding="UTF-16"?>',
            ]
        )
        return prologue + data
    at = _position(rng, data)
    return data[:at] + piece + data[at:]


MUTATIONS: list[Callable[[random.Random, bytes, Sequence[bytes]], bytes]] = [
    flip_bit, set_byte, insert_bytes, delete_chunk, duplicate_chunk, splice, truncate,
    replace_token, replace_token, replace_token, repeat_record, insert_structure,
]  # fmt: skip


def make_input(
    seeds: Sequence[tuple[str, bytes]], *, fmt: str, index: int, seed: int
) -> tuple[str, bytes]:
    """Input number `index` for `fmt`: the same arguments always give the same bytes."""
    rng = random.Random(f"{seed}:{fmt}:{index}")  # noqa: S311 - reproducible, not secret
    name, data = seeds[rng.randrange(len(seeds))]
    others = [other for _, other in seeds]
    for _ in range(min(1 + int(rng.expovariate(1.2)), 4)):
        data = rng.choice(MUTATIONS)(rng, data, others)[:MAX_INPUT]
    return name, data


# --- running one input -----------------------------------------------------------------------


class _TooSlow(BaseException):
    """Raised by the CPU timer; a BaseException so that no reader's `except` swallows it."""


def _on_timer(signum: int, frame: FrameType | None) -> None:
    raise _TooSlow


@dataclass(frozen=True)
class Outcome:
    kind: str  # parsed, refused, crashed, slow
    cpu: float
    size: int
    signature: str = ""  # crashed: "Type at file:line"
    message: str = ""


def _signature(exc: BaseException) -> str:
    """Exception type and the innermost frame in confsched (then the innermost of all)."""
    from confsched.core.errors import ReaderFault

    root: BaseException = exc
    if isinstance(exc, ReaderFault) and exc.__cause__ is not None:
        root = exc.__cause__
    frames = traceback.extract_tb(root.__traceback__)
    ours = [frame for frame in frames if "/confsched/" in frame.filename.replace("\\", "/")]
    where = ""
    if ours:
        path = ours[-1].filename.replace("\\", "/").split("/confsched/", 1)[1]
        where = f" at {path}:{ours[-1].lineno}"
        if frames[-1] is not ours[-1]:
            where += f" (in {Path(frames[-1].filename).name}:{frames[-1].lineno})"
    elif frames:
        where = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}"
    return f"{type(root).__name__}{where}"


def run_one(name: str, data: bytes, *, fmt: str, time_limit: float) -> Outcome:
    """Import `data` as `confsched import` does and say how it ended."""
    from confsched.core.errors import ConfschedError, ReaderFault
    from confsched.interchange.formats import parse_files

    validate = _validator()
    signal.signal(signal.SIGPROF, _on_timer)
    started = time.process_time()
    kind, signature, message = "parsed", "", ""
    try:
        signal.setitimer(signal.ITIMER_PROF, time_limit)
        try:
            programme = parse_files(
                [(name, data)], format_name=fmt, default_timezone=DEFAULT_TIMEZONE
            )
            if validate is not None:
                validate(programme)
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
    except _TooSlow:
        kind = "slow"
    except ReaderFault as exc:
        kind, signature, message = "crashed", _signature(exc), str(exc)
    except ConfschedError:
        kind = "refused"
    except Exception as exc:
        kind, signature, message = "crashed", _signature(exc), f"{type(exc).__name__}: {exc}"
    cpu = time.process_time() - started
    if kind != "slow" and cpu > time_limit:
        kind = "slow"
    return Outcome(kind, cpu, len(data), signature, message[:300])


_VALIDATOR: list[Callable[[Any], Any] | None] = []


def _validator() -> Callable[[Any], Any] | None:
    """validate_programme when the project has it (it checks columns, NUL bytes, years)."""
    if not _VALIDATOR:
        try:
            from confsched.programme.services import validate_programme
        except ImportError:
            _VALIDATOR.append(None)
        else:
            _VALIDATOR.append(validate_programme)
    return _VALIDATOR[0]


# --- workers ---------------------------------------------------------------------------------

_SEEDS: dict[str, list[tuple[str, bytes]]] = {}


def _init_worker(seeds: dict[str, list[tuple[str, bytes]]], limit_memory: bool) -> None:
    _setup_django()
    if limit_memory:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    _SEEDS.clear()
    _SEEDS.update(seeds)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 1000))


def _run_task(fmt: str, indexes: Sequence[int], seed: int, time_limit: float) -> list[Outcome]:
    outcomes = []
    for index in indexes:
        name, data = make_input(_SEEDS[fmt], fmt=fmt, index=index, seed=seed)
        outcomes.append(run_one(name, data, fmt=fmt, time_limit=time_limit))
    return outcomes


def _shrink_task(
    fmt: str, name: str, data: bytes, signature: str, time_limit: float, budget: float
) -> bytes:
    """A smaller input that crashes the same way: lines, then bytes, removed while it does."""
    deadline = time.monotonic() + budget

    def same(candidate: bytes) -> bool:
        outcome = run_one(name, candidate, fmt=fmt, time_limit=time_limit)
        return outcome.kind == "crashed" and outcome.signature == signature

    def reduce(units: list[bytes]) -> list[bytes]:
        size = max(len(units) // 2, 1)
        while size >= 1 and time.monotonic() < deadline:
            start, removed = 0, False
            while start < len(units) and time.monotonic() < deadline:
                candidate = units[:start] + units[start + size :]
                if candidate and same(b"".join(candidate)):
                    units, removed = candidate, True
                else:
                    start += size
            if not removed:
                size //= 2
        return units

    data = b"".join(reduce(data.splitlines(keepends=True)))
    return b"".join(reduce([data[at : at + 1] for at in range(len(data))]))


# --- the run ---------------------------------------------------------------------------------


@dataclass
class Counts:
    inputs: int = 0
    parsed: int = 0
    refused: int = 0
    crashed: int = 0
    slow: int = 0
    cpu: float = 0.0

    def add(self, outcome: Outcome) -> None:
        self.inputs += 1
        setattr(self, outcome.kind, getattr(self, outcome.kind) + 1)
        self.cpu += outcome.cpu


@dataclass
class CrashClass:
    signature: str
    message: str
    count: int = 0
    formats: Counter[str] = field(default_factory=Counter)
    example: tuple[str, int, int] = ("", -1, 0)  # format, index, size of the smallest input
    written: Path | None = None


@dataclass
class Report:
    counts: dict[str, Counts]
    seeds: dict[str, int]
    crashes: dict[str, CrashClass]
    slowest: dict[str, tuple[int, float]]  # format -> (index, cpu) of its slowest slow input
    seconds: float = 0.0


def _record(report: Report, fmt: str, index: int, outcome: Outcome) -> None:
    report.counts[fmt].add(outcome)
    if outcome.kind == "crashed":
        crash = report.crashes.setdefault(
            outcome.signature, CrashClass(outcome.signature, outcome.message)
        )
        crash.count += 1
        crash.formats[fmt] += 1
        if crash.example[1] < 0 or outcome.size < crash.example[2]:
            crash.example, crash.message = (fmt, index, outcome.size), outcome.message
    if outcome.kind == "slow" and outcome.cpu > report.slowest.get(fmt, (0, 0.0))[1]:
        report.slowest[fmt] = (index, outcome.cpu)


def run(
    *,
    inputs: int,
    seed: int = 0,
    formats: Sequence[str] = (),
    time_limit: float = 2.0,
    workers: int = 2,
    examples: Path | None = None,
    shrink_seconds: float = 30.0,
    progress: Callable[[str], None] | None = None,
    seeds: dict[str, list[tuple[str, bytes]]] | None = None,
) -> Report:
    """Fuzz the readers named (all by default); workers=0 runs in this process.

    `seeds` replaces collect_seeds (tests give a made-up reader its own)."""
    from confsched.interchange.formats import FORMATS

    names = list(formats) or [fmt.name for fmt in FORMATS]
    seeds = seeds if seeds is not None else collect_seeds(names)
    names = [name for name in names if seeds[name]]
    report = Report(
        counts={name: Counts() for name in names},
        seeds={name: len(seeds[name]) for name in seeds},
        crashes={},
        slowest={},
    )
    started = time.monotonic()
    tasks = [
        (name, list(range(start, min(start + CHUNK, inputs))))
        for name in names
        for start in range(0, inputs, CHUNK)
    ]
    if workers == 0:
        _SEEDS.update(seeds)
        for name, indexes in tasks:
            for index, outcome in zip(
                indexes, _run_task(name, indexes, seed, time_limit), strict=True
            ):
                _record(report, name, index, outcome)
    else:
        _run_in_pool(report, tasks, seeds, seed, time_limit, workers, progress)
    report.seconds = time.monotonic() - started
    if examples is not None:
        _write_examples(report, seeds, seed, time_limit, workers, examples, shrink_seconds)
    return report


DIED = "worker process died"


def _run_in_pool(
    report: Report,
    tasks: list[tuple[str, list[int]]],
    seeds: dict[str, list[tuple[str, bytes]]],
    seed: int,
    time_limit: float,
    workers: int,
    progress: Callable[[str], None] | None,
) -> None:
    started = time.monotonic()
    lost: list[tuple[str, int]] = []
    with ProcessPoolExecutor(workers, initializer=_init_worker, initargs=(seeds, True)) as pool:
        futures = [
            (pool.submit(_run_task, name, indexes, seed, time_limit), name, indexes)
            for name, indexes in tasks
        ]
        for done, (future, name, indexes) in enumerate(futures, start=1):
            try:
                outcomes = future.result()
            except BrokenProcessPool:
                lost.extend((name, index) for index in indexes)
                continue
            for index, outcome in zip(indexes, outcomes, strict=True):
                _record(report, name, index, outcome)
            if progress and done % max(len(tasks) // 20, 1) == 0:
                elapsed = time.monotonic() - started
                progress(f"{done}/{len(tasks)} tasks ({name}), {elapsed:.0f} s")
    # A worker died (a crash in C code, the kernel's OOM killer) and took every task still
    # queued with it: run those again one input at a time, to find the one that kills.
    pool = None
    try:
        for name, index in lost:
            if pool is None:
                pool = ProcessPoolExecutor(1, initializer=_init_worker, initargs=(seeds, True))
            try:
                outcome = pool.submit(_run_task, name, [index], seed, time_limit).result()[0]
            except BrokenProcessPool:
                pool.shutdown()
                pool = None
                outcome = Outcome("crashed", 0.0, 0, DIED, "the process running the reader died")
            _record(report, name, index, outcome)
    finally:
        if pool is not None:
            pool.shutdown()


def _example_name(signature: str, source_name: str) -> str:
    """min_<Type>_<file>_L<line>[_<inner file>_L<line>].<ext>, as the audit names its files."""
    extension = Path(source_name).suffix or ".bin"
    match = re.fullmatch(
        r"(\w+)(?: at ([\w/.<> -]+):(\d+))?(?: \(in ([\w.<> -]+):(\d+)\))?", signature
    )
    if match is None:
        return "min_" + re.sub(r"\W+", "_", signature) + extension
    kind, path, line, inner, inner_line = match.groups()
    name = f"min_{kind}"
    if path:
        name += f"_{path.replace('/', '_')}_L{line}"
    if inner:
        name += f"_{inner}_L{inner_line}"
    return re.sub(r"[^\w.-]+", "_", name) + extension


def _write_examples(
    report: Report,
    seeds: dict[str, list[tuple[str, bytes]]],
    seed: int,
    time_limit: float,
    workers: int,
    folder: Path,
    shrink_seconds: float,
) -> None:
    """One shrunk input per crash class, and the slowest slow input per format."""
    found = []
    for crash in report.crashes.values():
        fmt, index, _ = crash.example
        if index >= 0:
            name, data = make_input(seeds[fmt], fmt=fmt, index=index, seed=seed)
            found.append((crash, fmt, name, data))
    if workers == 0:
        shrunk = [
            _shrink_task(fmt, name, data, crash.signature, time_limit, shrink_seconds)
            for crash, fmt, name, data in found
        ]
    else:
        shrunk = []
        with ProcessPoolExecutor(workers, initializer=_init_worker, initargs=({}, True)) as pool:
            futures = [
                None
                if crash.signature == DIED
                else pool.submit(
                    _shrink_task, fmt, name, data, crash.signature, time_limit, shrink_seconds
                )
                for crash, fmt, name, data in found
            ]
            for future, (_, _, _, data) in zip(futures, found, strict=True):
                try:
                    shrunk.append(data if future is None else future.result())
                except BrokenProcessPool:
                    shrunk.append(data)
    for (crash, fmt, name, _), data in zip(found, shrunk, strict=True):
        path = folder / fmt / _example_name(crash.signature, name)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        crash.written = path
    for fmt, (index, _) in report.slowest.items():
        name, data = make_input(seeds[fmt], fmt=fmt, index=index, seed=seed)
        path = folder / fmt / f"slow_{index}{Path(name).suffix or '.bin'}"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def format_report(report: Report) -> str:
    lines = [
        f"{'format':<18}{'seeds':>6}{'inputs':>8}{'parsed':>8}{'refused':>9}{'crashed':>9}"
        f"{'slow':>6}{'cpu s':>9}"
    ]
    for name, counts in report.counts.items():
        lines.append(
            f"{name:<18}{report.seeds[name]:>6}{counts.inputs:>8}{counts.parsed:>8}"
            f"{counts.refused:>9}{counts.crashed:>9}{counts.slow:>6}{counts.cpu:>9.1f}"
        )
    missing = [name for name, count in report.seeds.items() if not count]
    if missing:
        lines.append(f"no seeds, not fuzzed: {', '.join(missing)}")
    lines.append(f"wall time {report.seconds:.0f} s")
    if report.crashes:
        lines.append("")
        lines.append(f"{len(report.crashes)} distinct crashes:")
        for crash in sorted(report.crashes.values(), key=lambda crash: -crash.count):
            formats = ", ".join(f"{name} {count}" for name, count in crash.formats.items())
            lines.append(f"  {crash.signature}  ({crash.count}: {formats})")
            lines.append(f"      {crash.message[:200]}")
            if crash.written:
                lines.append(f"      example: {crash.written}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--inputs", type=int, default=10_000, help="inputs per importer")
    parser.add_argument("--seed", type=int, default=0, help="the same seed, the same inputs")
    parser.add_argument(
        "--format", action="append", default=[], help="a reader to fuzz (repeatable; all)"
    )
    parser.add_argument(
        "--time-limit", type=float, default=2.0, help="CPU seconds before an input is slow"
    )
    parser.add_argument("--workers", type=int, default=2, help="processes (0: this one)")
    parser.add_argument(
        "--shrink-seconds", type=float, default=30.0, help="time to shrink each crash's example"
    )
    parser.add_argument(
        "--examples",
        type=Path,
        default=Path("var/fuzz-crashes"),
        help="folder for one shrunk input per crash class",
    )
    args = parser.parse_args(argv)
    _setup_django()
    from confsched.interchange.formats import FORMATS

    known = [fmt.name for fmt in FORMATS]
    unknown = [name for name in args.format if name not in known]
    if unknown:
        parser.error(f"unknown format {', '.join(unknown)}; the readers are {', '.join(known)}")
    report = run(
        inputs=args.inputs,
        seed=args.seed,
        formats=args.format,
        time_limit=args.time_limit,
        workers=args.workers,
        examples=args.examples,
        shrink_seconds=args.shrink_seconds,
        progress=lambda line: print(line, file=sys.stderr, flush=True),
    )
    print(format_report(report))
    return 1 if report.crashes else 0


if __name__ == "__main__":
    sys.exit(main())
