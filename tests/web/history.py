"""For the tests of what the history, speakers and version pages show: small real imports (a
Sessionize view/All export with a waitlisted session, a confsched CSV with a row without a
time, each loaded version after version through load_programme), and the history's pages
read back as lines."""

from __future__ import annotations

import json
import re
from html import unescape
from typing import Any

from django.contrib.auth.models import User
from django.test import Client

from confsched.interchange.csv.read import parse as parse_csv
from confsched.interchange.sessionize.read import parse as parse_sessionize
from confsched.programme.models import Event
from confsched.programme.services import create_event, load_programme
from tests.teams import on_team

SUMMIT = "data-summit"
SESSIONIZE_URL = "https://sessionize.com/api/v2/k3yz9q7w/view/All"
ADA, GRACE = "5b0e7c1a-ada", "9f3d2e4b-grace"
OPENING, WAITLISTED = "440101", "440202"
OPENING_TITLE = "Compilers for everyone"
EMBARGOED_TITLE = "Merger with Initech, under embargo"
ACCEPTED_TITLE = "Data at rest"
WITHDRAWN_TITLE = "Data at rest (the Initech deal)"
GRACE_BIO = "Embargoed: joins Initech in June."


def _session(key: str, title: str, start: str, end: str, speaker: str, status: str) -> dict:
    return {
        "id": key, "title": title, "description": f"About {title}.", "startsAt": start,
        "endsAt": end, "isServiceSession": False, "isPlenumSession": False,
        "speakers": [speaker], "categoryItems": [], "questionAnswers": [], "roomId": 5,
        "status": status,
    }  # fmt: skip


def sessionize_export(*, opening_at: str = "11:00", waitlisted: tuple[str, str] | None) -> bytes:
    """The summit as Sessionize's view/All gives it: Ada's talk (at `opening_at` to 45 minutes
    later, local time in Europe/Paris) and, when `waitlisted` is (title, status), Grace's."""
    hour, minute = (int(part) for part in opening_at.split(":"))
    sessions = [
        _session(
            OPENING,
            OPENING_TITLE,
            f"2026-06-02T{hour:02d}:{minute:02d}:00",
            f"2026-06-02T{hour:02d}:{minute + 45:02d}:00",
            ADA,
            "Accepted",
        )  # fmt: skip
    ]
    if waitlisted is not None:
        title, status = waitlisted
        sessions.append(
            _session(WAITLISTED, title, "2026-06-02T14:00:00", "2026-06-02T14:30:00", GRACE, status)
        )
    speakers: list[dict[str, Any]] = [
        {"id": ADA, "firstName": "Ada", "lastName": "Lovelace", "fullName": "Ada Lovelace",
         "bio": "Wrote the first program.", "tagLine": "Analyst at Analytical Engines",
         "profilePicture": None, "sessions": [int(OPENING)]},
        {"id": GRACE, "firstName": "Grace", "lastName": "Hopper", "fullName": "Grace Hopper",
         "bio": GRACE_BIO, "tagLine": "Rear Admiral", "profilePicture": None,
         "sessions": [int(WAITLISTED)]},
    ]  # fmt: skip
    rooms = [{"id": 5, "name": "Room A", "sort": 0}]
    document = {
        "sessions": sessions, "speakers": speakers, "questions": [], "categories": [],
        "rooms": rooms,
    }  # fmt: skip
    return json.dumps(document).encode()


def load_sessionize(event: Event, data: bytes) -> None:
    programme = parse_sessionize(data, source=SESSIONIZE_URL, default_timezone="Europe/Paris")
    load_programme(event, programme, source=f"import: {SESSIONIZE_URL}")


def summit() -> Event:
    """Version 1: Ada's talk at 11:00 (CEST), Grace's waitlisted under its embargoed title."""
    event = create_event(slug=SUMMIT, name="Data Summit", timezone="Europe/Paris")
    load_sessionize(event, sessionize_export(waitlisted=(EMBARGOED_TITLE, "Waitlisted")))
    return event


CSVCONF = "csv-conf"
CSV_FILE = "/home/orga/exports/000_1139db4cf8be8007.csv"
KEYNOTE, PANEL = "opening-keynote", "tbd-panel"
PANEL_TITLE, PANEL_RETITLED = "Panel on the unannounced product", "Panel: Product X launch"
HEADER = "key,title,kind,starts_at,ends_at,room,speakers\n"


def csv_rows(*, keynote: str, panel_title: str, room: str = "Main Hall") -> bytes:
    """The keynote (at `keynote`, local time, or without a time when "") and the panel without
    a time: a CSV row with an empty `starts_at`."""
    end = f"2026-04-07 {int(keynote[11:13]) + 1:02d}:00" if keynote else ""
    return (
        HEADER
        + f"{KEYNOTE},Opening keynote,Keynote,{keynote},{end},{room},Ada Lovelace\n"
        + f"{PANEL},{panel_title},Panel,,,Main Hall,Linus Quiet\n"
    ).encode()


def load_csv(event: Event, data: bytes, *, source: str = CSV_FILE) -> None:
    programme = parse_csv(data, source=source, default_timezone="Europe/Paris")
    load_programme(event, programme, source=f"import: {source}")


def csvconf() -> Event:
    """Version 1: the keynote at 11:00 (CEST) in the Main Hall, the panel without a time."""
    event = create_event(slug=CSVCONF, name="CSV Conf", timezone="Europe/Paris")
    load_csv(event, csv_rows(keynote="2026-04-07 11:00", panel_title=PANEL_TITLE))
    return event


# ---- the history's pages, read back ---------------------------------------------------------


def _text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", "", html)).split())


def change_log(html: str) -> dict[int, list[str]]:
    """{version: its lines as read} from the change log page."""
    sections = re.split(r'<section class="version" id="v(\d+)"', html)[1:]
    return {
        int(number): [_text(line) for line in re.findall(r'<li class="change.*?</li>', body)]
        for number, body in zip(sections[::2], sections[1::2], strict=True)
    }


def version_lines(html: str) -> tuple[str, list[str]]:
    """A version page's summary and change lines, as read."""
    part = html[html.index('id="changes-heading"') : html.index('id="programme-heading"')]
    summary = re.search(r"<p>(.*?)</p>", part, flags=re.S)
    assert summary is not None
    return _text(summary[1]), [_text(li) for li in re.findall(r"<li class=.*?</li>", part)]


def surfaces(client: Client, slug: str, last: int) -> dict[str, str]:
    """Every public surface of the history: the change log, its feed, each version's page, the
    API's versions and changes."""
    paths = [
        f"/{slug}/changes/",
        f"/{slug}/changes.atom",
        *(f"/{slug}/v/{number}/" for number in range(1, last + 1)),
        f"/api/v1/events/{slug}/versions",
        f"/api/v1/events/{slug}/changes",
    ]
    bodies = {}
    for path in paths:
        response = client.get(path)
        assert response.status_code == 200, path
        bodies[path] = response.content.decode()
    return bodies


def leaks(bodies: dict[str, str], words: tuple[str, ...]) -> list[tuple[str, str]]:
    return [(path, word) for path, body in bodies.items() for word in words if word in body]


def team_client(slug: str, role: str = "viewer") -> Client:
    team = Client()
    team.force_login(on_team(User.objects.create_user(f"{role}-{slug}"), role, slug=slug))
    return team
