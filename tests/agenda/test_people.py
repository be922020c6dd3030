"""People (agenda/people.py): profiles and their checks, the directory, who is going, a person's
data as JSON, and deleting an account with its seats passed on. SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.core import mail

from confsched.agenda import alerts, people, reservations
from confsched.agenda.models import (
    AgendaItem,
    AgendaLinks,
    AlertSubscription,
    AttendeeProfile,
    Feedback,
    ReminderSetting,
    Reservation,
)
from confsched.agenda.people import ProfileError
from confsched.agenda.services import agenda_links, set_sharing, star_session
from confsched.core.errors import TeamError
from confsched.programme.models import Event, Room, Session
from confsched.programme.services import create_event
from confsched.teams.rights import Role
from confsched.teams.services import add_member

pytestmark = pytest.mark.django_db

START = datetime(2027, 3, 1, 9, 0, tzinfo=UTC)
NOW = START - timedelta(days=1)  # the day before: reservations are open
JOINED = datetime(2027, 1, 15, 8, 30, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _before_the_event(monkeypatch: pytest.MonkeyPatch) -> None:
    # Through django.utils.timezone: the clock and every auto_now field read the same moment.
    monkeypatch.setattr("django.utils.timezone.now", lambda: NOW)


@pytest.fixture
def event() -> Event:
    return create_event(slug="workshops", name="Workshops 2027", timezone="Europe/Paris")


def _session(event: Event, key: str, *, seats: int | None = None, hour: int = 0) -> Session:
    room, _ = Room.objects.get_or_create(event=event, name="Lab", slug="lab")
    return Session.objects.create(
        event=event, key=key, title=key.title(), room=room, seats=seats,
        starts_at=START + timedelta(hours=hour), ends_at=START + timedelta(hours=hour, minutes=50),
    )  # fmt: skip


def _user(name: str) -> User:
    return User.objects.create_user(name, f"{name}@example.org", "a fine password 7")


def _public(user: User, event: Event, name: str, **fields: str) -> AttendeeProfile:
    values = {"company": "", "role": "", "links": ""} | fields
    return people.save_profile(user, event, is_public=True, display_name=name, **values)


# ---- profiles -------------------------------------------------------------------------------


def test_a_profile_is_saved_with_spaces_collapsed_and_blank_link_lines_dropped(
    event: Event,
) -> None:
    ada = _user("ada")
    profile = people.save_profile(
        ada, event, is_public=True, display_name="  Ada \t Lovelace ", company=" Analytical  Engines ",
        role="Programmer\n", links="\n https://ada.example.org/ \n\nhttp://example.com/notes\n",
    )  # fmt: skip
    row = AttendeeProfile.objects.get(pk=profile.pk)
    assert (row.is_public, row.display_name, row.company, row.role, row.links) == (
        True, "Ada Lovelace", "Analytical Engines", "Programmer",
        "https://ada.example.org/\nhttp://example.com/notes",
    )  # fmt: skip


def test_a_profile_is_private_unless_asked_and_saving_again_changes_the_one_row(
    event: Event,
) -> None:
    ada = _user("ada")
    assert AttendeeProfile._meta.get_field("is_public").default is False
    _public(ada, event, "Ada")
    people.save_profile(ada, event, is_public=False, display_name="", company="", role="", links="")
    assert list(AttendeeProfile.objects.values_list("user__username", "is_public")) == [
        ("ada", False)
    ]


@pytest.mark.parametrize(
    ("fields", "errors"),
    [
        (
            {"is_public": True, "display_name": "   "},
            {"display_name": ["Display name: needed to show you in the attendee directory (or "
                              "leave the box unticked)."]},
        ),
        (
            {"display_name": "x" * 151},
            {"display_name": ["Display name: at most 150 characters (this one has 151)."]},
        ),
        (
            {"company": "c" * 201, "role": "r" * 205},
            {"company": ["Company: at most 200 characters (this one has 201)."],
             "role": ["Role: at most 200 characters (this one has 205)."]},
        ),
        (
            {"links": "https://ok.example.org\n\nftp://files.example.org\nnot a link"},
            {"links": ["Links, line 3: “ftp://files.example.org” is not a web address starting "
                       "with http:// or https://.",
                       "Links, line 4: “not a link” is not a web address starting with http:// "
                       "or https://."]},
        ),
        (
            {"links": "\n".join(f"https://example.org/{n}" for n in range(7))},
            {"links": ["Links: at most 5, one a line (you gave 7)."]},
        ),
        (
            {"links": "https://example.org/" + "a" * 300},
            {"links": ["Links, line 1: at most 300 characters (this one has 320)."]},
        ),
        (
            {"links": "javascript:alert(1)"},
            {"links": ["Links, line 1: “javascript:alert(1)” is not a web address starting "
                       "with http:// or https://."]},
        ),
    ],
)  # fmt: skip
def test_a_wrong_profile_names_each_field_and_line_and_saves_nothing(
    event: Event, fields: dict, errors: dict
) -> None:
    ada = _user("ada")
    values = {"is_public": False, "display_name": "Ada", "company": "", "role": "", "links": ""}
    with pytest.raises(ProfileError) as raised:
        people.save_profile(ada, event, **(values | fields))
    assert raised.value.errors == errors
    assert str(raised.value) == " ".join(m for messages in errors.values() for m in messages)
    assert AttendeeProfile.objects.count() == 0


# ---- the directory --------------------------------------------------------------------------


def test_the_directory_lists_only_the_opted_in_of_the_event_by_name(event: Event) -> None:
    other_event = create_event(slug="other", name="Other", timezone="UTC")
    _public(_user("u1"), event, "grace Hopper", company="Navy", role="Admiral")
    _public(_user("u2"), event, "Ada Lovelace", links="https://ada.example.org")
    people.save_profile(
        _user("u3"), event, is_public=False, display_name="Hidden Person", company="Navy",
        role="", links="",
    )  # fmt: skip
    _public(_user("u4"), other_event, "Alan Turing")
    listed = people.directory(event)
    assert [(p.display_name, p.company, p.role, p.links) for p in listed] == [
        ("Ada Lovelace", "", "", ("https://ada.example.org",)),
        ("grace Hopper", "Navy", "Admiral", ()),
    ]
    assert [p.anchor for p in listed] == [
        f"person-{AttendeeProfile.objects.get(display_name=name).pk}"
        for name in ("Ada Lovelace", "grace Hopper")
    ]


def test_the_directory_search_needs_every_word_in_name_role_or_company(
    event: Event, django_assert_num_queries
) -> None:  # noqa: ANN001
    _public(_user("u1"), event, "Grace Hopper", company="Navy", role="Admiral")
    _public(_user("u2"), event, "Ada Lovelace", company="Analytical Engines")
    _public(_user("u3"), event, "Navy Seal", company="Zoo")
    people.save_profile(
        _user("u4"), event, is_public=False, display_name="Navy Private", company="",
        role="", links="",
    )  # fmt: skip
    with django_assert_num_queries(1):
        found = people.directory(event, q="  navy ")
    assert [p.display_name for p in found] == ["Grace Hopper", "Navy Seal"]
    assert [p.display_name for p in people.directory(event, q="navy admiral")] == ["Grace Hopper"]
    assert people.directory(event, q="nobody") == []


# ---- who is going ---------------------------------------------------------------------------


def test_going_names_the_opted_in_once_and_counts_the_others_once(
    event: Event, django_assert_num_queries
) -> None:  # noqa: ANN001
    talk = _session(event, "talk", seats=10)
    elsewhere = _session(event, "elsewhere", hour=2)
    ada, grace, alan, bob, carol, dan = (
        _user(n) for n in ("ada", "grace", "alan", "bob", "carol", "dan")
    )
    _public(ada, event, "Ada Lovelace")
    _public(grace, event, "Grace Hopper")
    _public(alan, event, "Alan Turing")
    _public(dan, event, "Dan Elsewhere")
    people.save_profile(carol, event, is_public=False, display_name="Carol", company="",
                        role="", links="")  # fmt: skip
    star_session(ada, talk)  # starred
    reservations.reserve(grace, talk)  # reserved
    star_session(alan, talk)  # both: once
    reservations.reserve(alan, talk)
    star_session(bob, talk)  # no profile
    star_session(carol, talk)  # a private profile, and both: once
    reservations.reserve(carol, talk)
    star_session(dan, elsewhere)  # another session
    with django_assert_num_queries(2):
        shown, others = people.going(talk)
    assert ([p.display_name for p in shown], others) == (
        ["Ada Lovelace", "Alan Turing", "Grace Hopper"],
        2,
    )
    assert people.going(elsewhere) == ([people.directory(event, q="Dan")[0]], 0)


def test_going_counts_the_waitlist_and_leaves_out_walk_ins(event: Event) -> None:
    talk = _session(event, "talk", seats=1)
    ada, bob = _user("ada"), _user("bob")
    _public(bob, event, "Bob")
    reservations.reserve(ada, talk)
    reservations.reserve(bob, talk)  # waitlisted
    Reservation.objects.create(session=talk, user=None, status="confirmed", is_walk_in=True)
    shown, others = people.going(talk)
    assert ([p.display_name for p in shown], others) == (["Bob"], 1)


# ---- a person's data ------------------------------------------------------------------------


def _person_with_everything(event: Event) -> tuple[User, Session, Session]:
    """ada: a star, a confirmed seat (the only one), the first place on another waitlist,
    feedback, alerts on, reminders, a public profile and a shared agenda."""
    ada = _user("ada")
    User.objects.filter(pk=ada.pk).update(date_joined=JOINED, first_name="Ada")
    ada.refresh_from_db()
    small = _session(event, "small", seats=1, hour=0)
    full = _session(event, "full", seats=1, hour=2)
    reservations.reserve(_user("zoe"), full)
    star_session(ada, small)
    reservations.reserve(ada, small)
    reservations.reserve(ada, full)
    Feedback.objects.create(user=ada, session=small, rating=4, comment="Clear, but fast.")
    alerts.set_alerts(ada, event, is_on=True)
    ReminderSetting.objects.create(user=ada, event=event, minutes=10, by_mail=True)
    _public(ada, event, "Ada L.", company="Engines", role="Programmer",
            links="https://ada.example.org")  # fmt: skip
    set_sharing(ada, event, is_on=True)
    return ada, small, full


def test_export_data_holds_everything_about_the_person_and_no_password(event: Event) -> None:
    ada, small, full = _person_with_everything(event)
    confirmed = Reservation.objects.get(user=ada, session=small)
    waiting = Reservation.objects.get(user=ada, session=full)
    links = AgendaLinks.objects.get(user=ada)
    now = "2027-02-28T09:00:00Z"
    data = people.export_data(ada)
    assert data == {
        "format": "confsched personal data",
        "version": 1,
        "account": {
            "username": "ada", "email": "ada@example.org", "first_name": "Ada", "last_name": "",
            "date_joined": "2027-01-15T08:30:00Z", "last_login": None,
        },
        "profiles": [
            {"event": "workshops", "is_public": True, "display_name": "Ada L.",
             "company": "Engines", "role": "Programmer", "links": ["https://ada.example.org"],
             "updated_at": now},
        ],
        "stars": [{"event": "workshops", "session": "small", "title": "Small", "starred_at": now}],
        "reservations": [
            {"event": "workshops", "session": "small", "title": "Small", "status": "confirmed",
             "waitlist_position": 0, "code": confirmed.code, "created_at": now,
             "confirmed_at": now, "checked_in_at": None},
            {"event": "workshops", "session": "full", "title": "Full", "status": "waitlisted",
             "waitlist_position": 1, "code": waiting.code, "created_at": now,
             "confirmed_at": None, "checked_in_at": None},
        ],
        "feedback": [
            {"event": "workshops", "session": "small", "title": "Small", "rating": 4,
             "comment": "Clear, but fast.", "created_at": now, "updated_at": now},
        ],
        "alerts": [{"event": "workshops", "is_on": True, "after_version": 0, "updated_at": now}],
        "alert_mails": [],
        "reminders": [{"event": "workshops", "minutes": 10, "by_mail": True}],
        "reminder_mails": [],
        "agenda_links": [
            {"event": "workshops", "feed_token": links.feed_token,
             "share_token": links.share_token},
        ],
        "team_roles": [],
    }  # fmt: skip
    assert len(confirmed.code) == 10 and links.share_token
    assert "password" not in repr(data) and ada.password not in repr(data)


def test_export_data_of_a_new_account_is_empty_lists(event: Event) -> None:
    data = people.export_data(_user("bob"))
    assert {key: value for key, value in data.items() if value != []} == {
        "format": "confsched personal data",
        "version": 1,
        "account": {
            "username": "bob", "email": "bob@example.org", "first_name": "", "last_name": "",
            "date_joined": data["account"]["date_joined"], "last_login": None,
        },
    }  # fmt: skip


def test_export_data_names_the_persons_roles_on_teams(event: Event) -> None:
    ada = _user("ada")
    other = create_event(slug="meetup", name="Meetup", timezone="Europe/Paris")
    add_member(other, ada, Role.VIEWER, by="command line")
    add_member(event, ada, Role.OWNER, by="command line")
    assert people.export_data(ada)["team_roles"] == [
        {"event": "meetup", "role": "viewer", "since": "2027-02-28T09:00:00Z"},
        {"event": "workshops", "role": "owner", "since": "2027-02-28T09:00:00Z"},
    ]


def test_the_last_owner_of_an_event_cannot_delete_the_account(event: Event) -> None:
    ada, bob = _user("ada"), _user("bob")
    other = create_event(slug="meetup", name="Meetup", timezone="Europe/Paris")
    add_member(event, ada, Role.OWNER, by="command line")
    add_member(other, ada, Role.OWNER, by="command line")
    add_member(other, bob, Role.OWNER, by="command line")
    with pytest.raises(TeamError) as refused:
        people.delete_account(ada)
    assert str(refused.value) == (
        "You are the only owner of “Workshops 2027”: make someone else owner there first (on "
        "the team page). Nothing was deleted."
    )
    assert User.objects.filter(username="ada").exists()
    add_member(event, bob, Role.OWNER, by="command line")
    people.delete_account(ada)
    assert not User.objects.filter(username="ada").exists()


# ---- deleting an account --------------------------------------------------------------------


def _counts(user_pk: int) -> dict[str, int]:
    return {
        model.__name__: model.objects.filter(user_id=user_pk).count()
        for model in (AgendaItem, AgendaLinks, AlertSubscription, AttendeeProfile, Feedback,
                      ReminderSetting, Reservation)
    } | {"User": User.objects.filter(pk=user_pk).count()}  # fmt: skip


def test_deleting_an_account_passes_the_seat_on_and_removes_every_row(
    event: Event, django_capture_on_commit_callbacks
) -> None:  # noqa: ANN001
    ada, small, full = _person_with_everything(event)
    first, second = _user("first"), _user("second")
    reservations.reserve(first, small)  # waitlisted 1st for ada's seat
    reservations.reserve(second, small)  # 2nd
    zoe = User.objects.get(username="zoe")
    before = {name: _counts(u.pk) for name, u in (("zoe", zoe), ("first", first))}
    with django_capture_on_commit_callbacks(execute=True):
        assert people.delete_account(ada) == 2
    assert _counts(ada.pk) == dict.fromkeys(
        ["AgendaItem", "AgendaLinks", "AlertSubscription", "AttendeeProfile", "Feedback",
         "ReminderSetting", "Reservation", "User"], 0,
    )  # fmt: skip
    assert [
        (row.user.username, row.status)
        for row in Reservation.objects.filter(session=small).select_related("user")
    ] == [("first", "confirmed"), ("second", "waitlisted")]
    assert [(r.user.username, r.status) for r in Reservation.objects.filter(session=full)] == [
        ("zoe", "confirmed")
    ]
    assert [(m.to, m.subject) for m in mail.outbox] == [
        (["first@example.org"], "Workshops 2027: you have a seat for “Small”")
    ]
    assert {"zoe": _counts(zoe.pk), "first": _counts(first.pk)} == before  # untouched


def test_a_failed_deletion_leaves_everything_and_mails_no_one(
    event: Event, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks
) -> None:  # noqa: ANN001
    ada, small, _ = _person_with_everything(event)
    first = _user("first")
    reservations.reserve(first, small)

    def refuse(self: User, *args: object, **kwargs: object) -> None:
        raise RuntimeError("the database went away")

    before = _counts(ada.pk)
    monkeypatch.setattr(User, "delete", refuse)
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(RuntimeError):
        people.delete_account(ada)
    assert _counts(ada.pk) == before
    assert [
        (row.user.username, row.status) for row in Reservation.objects.filter(session=small)
    ] == [("ada", "confirmed"), ("first", "waitlisted")]
    assert mail.outbox == []


def test_agenda_links_made_for_the_export_are_the_persons_own(event: Event) -> None:
    ada = _user("ada")
    links = agenda_links(ada, event)
    assert people.export_data(ada)["agenda_links"] == [
        {"event": "workshops", "feed_token": links.feed_token, "share_token": None}
    ]
