"""Property: whatever sequence of edits and re-imports, no attendee's star is ever lost."""

from __future__ import annotations

import itertools
from dataclasses import replace
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from confsched.agenda.models import AgendaItem
from confsched.agenda.services import star_session
from confsched.interchange import programme as pm
from confsched.interchange.synthetic import synthetic_programme
from confsched.programme.models import Session
from confsched.programme.services import create_event, load_programme

pytestmark = pytest.mark.django_db

_slugs = itertools.count()

# One edit: (what, which session by index, a number to vary it with)
EDITS = st.tuples(
    st.sampled_from(["retime", "move", "retitle", "drop", "add", "restore", "speakers", "cancel"]),
    st.integers(min_value=0, max_value=50),
    st.integers(min_value=1, max_value=500),
)


def _apply(
    current: pm.Programme, original: pm.Programme, edit: tuple[str, int, int]
) -> pm.Programme:
    what, index, amount = edit
    sessions = list(current.sessions)
    if what == "add":
        if f"new-{amount}" not in {s.key for s in sessions}:
            base = original.sessions[0]
            sessions.append(replace(base, key=f"new-{amount}", title=f"New session {amount}"))
    elif what == "restore":
        missing = [s for s in original.sessions if s.key not in {x.key for x in sessions}]
        if missing:
            sessions.append(missing[index % len(missing)])
    elif sessions:
        i = index % len(sessions)
        session = sessions[i]
        if what == "retime":
            shift = timedelta(minutes=5 * amount)
            sessions[i] = replace(
                session, starts_at=session.starts_at + shift, ends_at=session.ends_at + shift
            )
        elif what == "move":
            sessions[i] = replace(session, room=f"Room {amount % 7}")
        elif what == "retitle":
            sessions[i] = replace(session, title=f"Retitled {amount}")
        elif what == "speakers":
            sessions[i] = replace(session, speakers=session.speakers[::-1][: amount % 3])
        elif what == "cancel":
            sessions[i] = replace(session, is_cancelled=True)
        elif what == "drop":
            del sessions[i]
    return replace(current, sessions=sessions)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    starred=st.lists(st.integers(min_value=0, max_value=7), min_size=1, max_size=8),
    rounds=st.lists(st.lists(EDITS, min_size=1, max_size=4), min_size=1, max_size=5),
)
def test_every_star_survives_every_reimport(db, starred: list[int], rounds: list) -> None:  # noqa: ANN001
    original = synthetic_programme(8)
    event = create_event(slug=f"prop-{next(_slugs)}", name="Property", timezone="Europe/Paris")
    load_programme(event, original)
    user, _ = User.objects.get_or_create(username="attendee")
    keys = {original.sessions[i].key for i in starred}
    for key in keys:
        star_session(user, Session.objects.get(event=event, key=key))
    before = set(
        AgendaItem.objects.filter(user=user, session__event=event).values_list("pk", "session__key")
    )
    current = original
    for edits in rounds:
        for edit in edits:
            current = _apply(current, original, edit)
        load_programme(event, current)
        after = set(
            AgendaItem.objects.filter(user=user, session__event=event).values_list(
                "pk", "session__key"
            )
        )
        assert after == before  # the same stars, on the same sessions
        present = {s.key: s.is_cancelled for s in current.sessions}
        for session in Session.objects.filter(event=event):
            # Never deleted; cancelled exactly when the source drops or cancels it.
            assert session.is_cancelled == present.get(session.key, True), session.key
