"""Queries compiled once (core/prepared.py): the same rows and model instances the queryset
itself returns, on SQLite and PostgreSQL, and clear errors for a query that cannot be prepared
or values that do not fit it."""

from __future__ import annotations

from datetime import date

import pytest

from confsched.core.prepared import Prepared
from confsched.programme.models import Event, Room
from confsched.programme.services import create_event

pytestmark = pytest.mark.django_db


def _by_slug() -> Prepared[Event]:
    return Prepared(Event, lambda slug: Event.objects.filter(slug=slug).order_by(), slug=str)


def test_instances_are_the_rows_the_orm_returns_with_their_types() -> None:
    event = create_event(slug="pycon", name="PyCon", timezone="Europe/Paris")
    Event.objects.filter(pk=event.pk).update(start_date=date(2026, 10, 7))
    found = _by_slug().instances(slug="pycon")
    orm = Event.objects.get(slug="pycon")
    assert [(e.pk, e.slug, e.start_date, e.updated_at, e._state.adding) for e in found] == [
        (orm.pk, "pycon", date(2026, 10, 7), orm.updated_at, False)
    ]
    assert found[0].__dict__.keys() == orm.__dict__.keys()


def test_the_statement_is_kept_and_each_run_takes_its_own_values() -> None:
    create_event(slug="pycon", name="PyCon", timezone="Europe/Paris")
    create_event(slug="djangocon", name="DjangoCon", timezone="Europe/Berlin")
    prepared = _by_slug()
    assert [e.name for e in prepared.instances(slug="djangocon")] == ["DjangoCon"]
    assert [e.name for e in prepared.instances(slug="pycon")] == ["PyCon"]
    assert prepared.instances(slug="nope") == []
    assert len(prepared._kept) == 1


def test_rows_of_a_join_with_two_values() -> None:
    event = create_event(slug="pycon", name="PyCon", timezone="Europe/Paris")
    Room.objects.create(event=event, name="Amphi", slug="amphi", position=2)
    Room.objects.create(event=event, name="Salle 1", slug="salle-1", position=1)
    rooms = Prepared(
        Room,
        lambda event, position: (
            Room.objects.filter(event__slug=event, position__gte=position)
            .order_by("position")
            .values_list("name", "event__name")
        ),
        event=str,
        position=int,
    )
    assert rooms.rows(event="pycon", position=1) == [("Salle 1", "PyCon"), ("Amphi", "PyCon")]
    assert rooms.rows(event="pycon", position=2) == [("Amphi", "PyCon")]


def test_values_that_do_not_fit_are_refused() -> None:
    with pytest.raises(TypeError, match=r"give exactly \['slug'\], not \['name'\]"):
        _by_slug().instances(name="pycon")


def test_a_placeholder_the_statement_does_not_hold_once_is_refused() -> None:
    twice = Prepared(
        Event, lambda slug: Event.objects.filter(slug=slug) | Event.objects.filter(name=slug),
        slug=str,
    )  # fmt: skip
    with pytest.raises(ValueError, match="placeholder 'slug' is in the statement 2 times"):
        twice.instances(slug="pycon")
    with pytest.raises(TypeError, match="placeholders are str or int, not date"):
        Prepared(Event, lambda day: Event.objects.filter(start_date=day), day=date).rows(
            day=date(2026, 1, 1)
        )


def test_instances_with_select_related_and_only_are_what_the_queryset_makes() -> None:
    event = create_event(slug="pycon", name="PyCon", timezone="Europe/Paris")
    room = Room.objects.create(event=event, name="Amphi", slug="amphi", position=2)
    rooms = Prepared(
        Room,
        lambda slug: (
            Room.objects.filter(event__slug=slug)
            .select_related("event")
            .only("name", "event__name", "event__timezone")
            .order_by()
        ),
        slug=str,
    )
    (found,) = rooms.instances(slug="pycon")
    assert (found.pk, found.name, found.event.pk, found.event.name, found.event.timezone) == (
        room.pk, "Amphi", event.pk, "PyCon", "Europe/Paris",
    )  # fmt: skip
    assert found.get_deferred_fields() == {"slug", "position", "capacity"}
    assert "slug" in found.event.get_deferred_fields()


def test_rows_of_values_are_no_instances() -> None:
    names = Prepared(
        Room, lambda slug: Room.objects.filter(event__slug=slug).values_list("name"), slug=str
    )
    with pytest.raises(TypeError, match=r"this query selects values, not model rows: use rows\(\)"):
        names.instances(slug="pycon")
