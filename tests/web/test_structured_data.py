"""schema.org JSON-LD on session pages: status (cancelled, rescheduled) and place."""

from __future__ import annotations

import json
import re
from datetime import timedelta

from django.test import Client

from confsched.programme.models import Event, Session
from confsched.programme.services import record_edit, session_facts
from tests.conftest import DEMO_SLUG

TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"
PAGE = f"/{DEMO_SLUG}/sessions/{TORCHJD}/"
_LD = re.compile(r'<script type="application/ld\+json">(.*?)</script>', re.DOTALL)


def json_ld(client: Client) -> dict:
    response = client.get(PAGE)
    assert response.status_code == 200
    return json.loads(_LD.search(response.content.decode())[1])


def edit(session: Session, **values: object) -> None:
    before = session_facts(session)
    for name, value in values.items():
        setattr(session, name, value)
    session.save()
    record_edit(session, before, editor="olga")


def test_a_session_never_moved_is_scheduled(client: Client, demo_event: Event) -> None:
    data = json_ld(client)
    assert data["eventStatus"] == "https://schema.org/EventScheduled"
    assert "previousStartDate" not in data


def test_a_cancelled_session_says_so(client: Client, demo_event: Event) -> None:
    session = Session.objects.get(event=demo_event, key=TORCHJD)
    edit(session, is_cancelled=True)
    assert json_ld(client)["eventStatus"] == "https://schema.org/EventCancelled"


def test_a_moved_session_is_rescheduled_from_its_first_start(
    client: Client, demo_event: Event
) -> None:
    session = Session.objects.get(event=demo_event, key=TORCHJD)
    first = session.starts_at
    assert first.astimezone(demo_event.zone).isoformat() == "2026-04-07T11:45:00+02:00"
    edit(
        session, starts_at=first + timedelta(hours=1), ends_at=session.ends_at + timedelta(hours=1)
    )
    edit(session, starts_at=first + timedelta(days=1), ends_at=session.ends_at + timedelta(days=1))
    data = json_ld(client)
    assert data["eventStatus"] == "https://schema.org/EventRescheduled"
    assert data["previousStartDate"] == "2026-04-07T11:45:00+02:00"
    assert data["startDate"] == "2026-04-08T11:45:00+02:00"


def test_a_session_moved_back_to_its_first_start_is_scheduled(
    client: Client, demo_event: Event
) -> None:
    session = Session.objects.get(event=demo_event, key=TORCHJD)
    first, end = session.starts_at, session.ends_at
    edit(session, starts_at=first + timedelta(hours=1), ends_at=end + timedelta(hours=1))
    edit(session, starts_at=first, ends_at=end)
    data = json_ld(client)
    assert data["eventStatus"] == "https://schema.org/EventScheduled"
    assert "previousStartDate" not in data


def test_a_session_first_published_without_a_time_is_not_rescheduled(
    client: Client, demo_event: Event
) -> None:
    session = Session.objects.get(event=demo_event, key=TORCHJD)
    start, end = session.starts_at, session.ends_at
    Session.objects.filter(pk=session.pk).update(first_starts_at=None)
    session.refresh_from_db()
    edit(session, starts_at=None, ends_at=None)
    assert Session.objects.get(pk=session.pk).first_starts_at is None
    edit(session, starts_at=start, ends_at=end)
    assert Session.objects.get(pk=session.pk).first_starts_at == start
    assert json_ld(client)["eventStatus"] == "https://schema.org/EventScheduled"


def test_an_import_that_moves_a_session_makes_it_rescheduled(
    client: Client, demo_event: Event, demo_programme
) -> None:  # noqa: ANN001
    from dataclasses import replace

    from confsched.programme.services import load_programme

    moved = [
        replace(
            s, starts_at=s.starts_at + timedelta(hours=2), ends_at=s.ends_at + timedelta(hours=2)
        )
        if s.key == TORCHJD
        else s
        for s in demo_programme.sessions
    ]
    load_programme(demo_event, replace(demo_programme, sessions=moved))
    data = json_ld(client)
    assert (data["eventStatus"], data["previousStartDate"], data["startDate"]) == (
        "https://schema.org/EventRescheduled",
        "2026-04-07T11:45:00+02:00",
        "2026-04-07T13:45:00+02:00",
    )


def test_the_place_is_the_room_with_the_events_address(client: Client, demo_event: Event) -> None:
    assert json_ld(client)["location"] == {
        "@type": "Place",
        "name": "Founders Cafe",
        "address": "Paris, France",
    }


def test_without_an_address_the_place_is_still_the_room(client: Client, demo_event: Event) -> None:
    """Google's Event results require a location: the room is one even with no address known."""
    demo_event.location = ""
    demo_event.save()
    assert json_ld(client)["location"] == {"@type": "Place", "name": "Founders Cafe"}


def test_a_session_without_a_room_is_at_the_venue_or_the_event(
    client: Client, demo_event: Event
) -> None:
    Session.objects.filter(event=demo_event, key=TORCHJD).update(room=None)
    assert json_ld(client)["location"] == {
        "@type": "Place",
        "name": "Paris, France",
        "address": "Paris, France",
    }
    demo_event.location = ""
    demo_event.save()
    assert json_ld(client)["location"] == {"@type": "Place", "name": demo_event.name}


def test_the_description_is_the_abstract_as_plain_text(client: Client, demo_event: Event) -> None:
    Session.objects.filter(event=demo_event, key=TORCHJD).update(
        abstract="## Why\n\nJacobian descent **without** the [paper](https://example.org/p).\n\n"
        "- one\n- two `torch.autograd`"
    )
    assert json_ld(client)["description"] == (
        "Why Jacobian descent without the paper. one two torch.autograd"
    )
