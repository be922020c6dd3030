"""Every export, byte for byte as committed: the demo event as the web serves it, and each
shared sample through its reader and every writer.

A change that only moves code must leave every byte alone; a change that means to alter an
export updates the expected files in the same commit, where review sees the difference:

    CONFSCHED_UPDATE_EXPECTED=1 .venv/bin/pytest tests/test_exports_unchanged.py

The demo's exports are committed whole (the demo ships with confsched). The shared samples
belong to their conferences and are test inputs only, never redistributed: for them the
expected file holds each export's SHA-256 and length.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from confsched.interchange.formats import WRITERS, parse_files
from confsched.interchange.ical.write import render_ical
from confsched.interchange.programme import Programme
from tests.conftest import DEMO_SLUG, SHARED_DIR, demo_files, unavailable

EXPECTED = Path(__file__).parent / "expected_exports"
UPDATE = os.environ.get("CONFSCHED_UPDATE_EXPECTED") == "1"
SITE = "https://testserver/"  # the address the test client's requests come to
# Samples whose times carry no offset are read in the zone their organizers would give.
ZONES = {
    "mttcrsp-fosdem_2007.xml": "Europe/Brussels",
    "orlando-codecamp-2020_All.json": "America/New_York",
}
SAMPLES = SHARED_DIR / "formats" / "samples"

# What the web serves of the demo: each writer's file, the calendar, one session's calendar,
# and the JSON API's reading endpoints.
DEMO_PATHS = [
    # schedule.ics among them: the writer "ics" is the event's calendar's (its own view serves it).
    *(f"{DEMO_SLUG}/schedule.{extension}" for extension in sorted(WRITERS)),
    f"{DEMO_SLUG}/sessions/lightning-talk-torchjd-jacobian-descent-in-pytorch/calendar.ics",
    f"api/v1/events/{DEMO_SLUG}",
    f"api/v1/events/{DEMO_SLUG}/sessions?page_size=500",
    f"api/v1/events/{DEMO_SLUG}/speakers",
    f"api/v1/events/{DEMO_SLUG}/rooms",
    f"api/v1/events/{DEMO_SLUG}/tracks",
    f"api/v1/events/{DEMO_SLUG}/levels",
]
# Calendars stamp each session with when it last changed: the demo is imported at this moment.
IMPORTED_AT = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def _file_name(path: str) -> str:
    """A committed file's name for a served path: slashes and query marks made plain."""
    return path.removeprefix(f"{DEMO_SLUG}/").replace("/", "__").replace("?", "--")


def _compare(expected: Path, actual: bytes) -> None:
    if UPDATE:
        expected.parent.mkdir(parents=True, exist_ok=True)
        expected.write_bytes(actual)
        return
    assert expected.exists(), f"{expected} is not committed; run with CONFSCHED_UPDATE_EXPECTED=1"
    wanted = expected.read_bytes()
    if actual != wanted:
        at = next(
            (i for i, (a, b) in enumerate(zip(actual, wanted, strict=False)) if a != b),
            min(len(actual), len(wanted)),
        )
        context = actual[max(0, at - 80) : at + 80]
        pytest.fail(
            f"{expected.name} differs from byte {at} on ({len(actual)} bytes, expected "
            f"{len(wanted)}): ...{context!r}..."
        )


@pytest.fixture
def demo_imported_at_a_known_time(db, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    from django.utils import timezone

    from confsched.core import clock
    from confsched.programme.services import create_event, load_programme

    monkeypatch.setattr(timezone, "now", lambda: IMPORTED_AT)
    monkeypatch.setattr(clock, "now", lambda: IMPORTED_AT)
    event = create_event(
        slug=DEMO_SLUG, name="PyTorch Conference Europe 2026", timezone="Europe/Paris"
    )
    load_programme(event, parse_files(demo_files()))


@pytest.mark.parametrize("path", DEMO_PATHS, ids=_file_name)
def test_the_demo_as_the_web_serves_it(client, demo_imported_at_a_known_time, path: str) -> None:  # noqa: ANN001
    response = client.get(f"/{path}", secure=True)
    assert response.status_code == 200, response.content[:300]
    body = b"".join(response.streaming_content) if response.streaming else response.content
    _compare(EXPECTED / "demo" / _file_name(path), body)


def _writers(slug: str) -> dict[str, Callable[[Programme], bytes]]:
    """Every writer of the registry, and the calendar, as the web calls them."""
    chosen: dict[str, Callable[[Programme], bytes]] = {
        f"schedule.{extension}": (
            lambda programme, writer=writer: writer.render(
                programme, slug=slug, base_url=SITE, **_uid_domain(writer.render)
            )
        )
        for extension, writer in sorted(WRITERS.items())
    }
    chosen["schedule.ics"] = lambda programme: render_ical(
        programme, uid_domain="confsched.example", calendar_name=slug
    )
    return chosen


def _uid_domain(render: Callable[..., bytes]) -> dict[str, str]:
    import inspect

    takes = "uid_domain" in inspect.signature(render).parameters
    return {"uid_domain": "confsched.example"} if takes else {}


def _samples() -> list[Path]:
    return sorted(SAMPLES.glob("*/*")) if SAMPLES.is_dir() else []


def _digest(data: bytes) -> str:
    return f"sha256:{hashlib.sha256(data).hexdigest()} bytes:{len(data)}"


def test_every_writer_on_the_demo_pages() -> None:
    programme = parse_files(demo_files())
    for name, render in _writers(DEMO_SLUG).items():
        _compare(EXPECTED / "demo-pages" / name, render(programme))


@pytest.mark.parametrize("sample", _samples(), ids=lambda path: path.name)
def test_every_writer_on_each_shared_sample(sample: Path) -> None:
    programme = parse_files(
        [(sample.name, sample.read_bytes())], default_timezone=ZONES.get(sample.name, "")
    )
    actual = {name: _digest(render(programme)) for name, render in _writers("sample").items()}
    expected_file = EXPECTED / "shared" / f"{sample.parent.name}--{sample.name}.json"
    if UPDATE:
        expected_file.parent.mkdir(parents=True, exist_ok=True)
        expected_file.write_text(json.dumps(actual, indent=1, sort_keys=True) + "\n")
        return
    assert json.loads(expected_file.read_text()) == actual


def test_the_shared_samples_are_all_there() -> None:
    """The parametrized test above runs on nothing when ../shared is absent; say so."""
    if not SAMPLES.is_dir():
        unavailable(f"{SAMPLES} is absent", "CONFSCHED_REQUIRE_SHARED")
    committed = sorted(path.stem for path in (EXPECTED / "shared").glob("*.json"))
    assert committed == sorted(f"{path.parent.name}--{path.name}" for path in _samples())
