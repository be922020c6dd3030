"""A visitor's stars are rows, so two sent at once are both kept (they were one session blob)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.db import SessionStore
from django.test import Client, RequestFactory

from confsched.agenda.models import VisitorStar
from confsched.programme.models import Session
from confsched.web.agenda import stars
from tests.conftest import DEMO_SLUG

pytestmark = pytest.mark.django_db

TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"
HELION = "helion-1-0-a-high-level-dsl-for-performance-portable-kernels"


def _request(session_key: str | None):  # noqa: ANN202
    request = RequestFactory().post("/")
    request.user = AnonymousUser()
    request.session = SessionStore(session_key)
    return request


def test_two_stars_sent_at_once_are_both_kept(demo_event) -> None:
    first = _request(None)
    stars.set_star(first, Session.objects.get(key=TORCHJD), is_starred=True)
    first.session.save()
    key = first.session.session_key
    # Two requests of the same browser load its session before either saves it.
    one, two = _request(key), _request(key)
    stars.set_star(one, Session.objects.get(key=HELION), is_starred=True)
    stars.set_star(two, Session.objects.get(key=TORCHJD), is_starred=False)
    one.session.save()
    two.session.save()
    assert stars.starred_ids(_request(key), demo_event) == {Session.objects.get(key=HELION).pk}


def test_stars_kept_the_old_way_in_the_session_are_taken_over(demo_event) -> None:
    old = _request(None)
    ids = sorted(Session.objects.filter(key__in=[TORCHJD, HELION]).values_list("pk", flat=True))
    old.session[f"stars:{demo_event.pk}"] = ids
    old.session.save()
    again = _request(old.session.session_key)
    assert stars.starred_ids(again, demo_event) == set(ids)
    assert f"stars:{demo_event.pk}" not in again.session
    assert VisitorStar.objects.filter(visitor=again.session["visitor"]).count() == 2


def test_unstarring_without_stars_makes_no_visitor(client: Client, demo_event) -> None:
    client.post(f"/{DEMO_SLUG}/sessions/{TORCHJD}/star", {"starred": "0"})
    assert (VisitorStar.objects.count(), client.session.get("visitor")) == (0, None)
    client.post(f"/{DEMO_SLUG}/sessions/{TORCHJD}/star", {"starred": "1"})
    client.post(f"/{DEMO_SLUG}/sessions/{TORCHJD}/star", {"starred": "1"})  # a replay
    assert VisitorStar.objects.filter(visitor=client.session["visitor"]).count() == 1
