"""People: attendees' public profiles, the directory, who is going, and a person's own data
(the download of everything, and deleting the account).

A profile is private unless its person opts in (`is_public`); only opted-in profiles are ever
shown to others, and only what they typed into them: never a username or an e-mail address.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.db import transaction
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils.translation import gettext

from confsched.agenda import reservations
from confsched.agenda.models import (
    AgendaItem,
    AgendaLinks,
    AlertDelivery,
    AlertSubscription,
    AttendeeProfile,
    Feedback,
    ReminderDelivery,
    ReminderSetting,
    Reservation,
)
from confsched.core.errors import ConfschedError, TeamError
from confsched.programme.models import Event, Session
from confsched.teams.models import TeamMember
from confsched.teams.rights import Role

MAX_NAME = 150
MAX_TEXT = 200
MAX_LINKS = 5
MAX_LINK = 300
MAX_QUERY = 200
EXPORT_FORMAT = "confsched personal data"
EXPORT_VERSION = 1


class ProfileError(ConfschedError):
    """A profile that cannot be saved: `errors` maps each field to what is wrong with it."""

    def __init__(self, errors: dict[str, list[str]]) -> None:
        self.errors = errors
        super().__init__(" ".join(message for messages in errors.values() for message in messages))


@dataclass(frozen=True)
class PublicProfile:
    """What others see of an opted-in attendee; `pk` names their place in the directory."""

    pk: int
    display_name: str
    company: str
    role: str
    links: tuple[str, ...]

    @property
    def anchor(self) -> str:
        return f"person-{self.pk}"


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _public(profile: AttendeeProfile) -> PublicProfile:
    return PublicProfile(
        pk=profile.pk, display_name=profile.display_name, company=profile.company,
        role=profile.role, links=tuple(link_lines(profile.links)),
    )  # fmt: skip


def link_lines(text: str) -> list[str]:
    """The profile's web addresses, one a line, blank lines left out."""
    return [line.strip() for line in text.splitlines() if line.strip()]


def _clean_links(text: str) -> tuple[str, list[str]]:
    """The links one a line, and what is wrong with them (each naming its line as typed)."""
    problems: list[str] = []
    links: list[str] = []
    check = URLValidator(schemes=["http", "https"])
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        links.append(line)
        shown = line if len(line) <= 60 else line[:59] + "…"
        if len(line) > MAX_LINK:
            problems.append(
                f"Links, line {number}: at most {MAX_LINK} characters (this one has {len(line)})."
            )
            continue
        try:
            check(line)
        except ValidationError:
            problems.append(
                f"Links, line {number}: “{shown}” is not a web address starting with "
                "http:// or https://."
            )
    if len(links) > MAX_LINKS:
        problems.insert(0, f"Links: at most {MAX_LINKS}, one a line (you gave {len(links)}).")
    return "\n".join(links), problems


def profile_for(user: User, event: Event) -> AttendeeProfile | None:
    """The person's profile at the event, if they made one."""
    return AttendeeProfile.objects.filter(user=user, event=event).first()


def save_profile(
    user: User, event: Event, *, is_public: bool, display_name: str, company: str, role: str,
    links: str,
) -> AttendeeProfile:  # fmt: skip
    """Create or change the person's profile at the event; ProfileError (nothing saved) names
    every field that is wrong. Spaces are collapsed; a public profile needs a display name."""
    errors: dict[str, list[str]] = {}
    name = _one_line(display_name)
    if is_public and not name:
        errors["display_name"] = [
            "Display name: needed to show you in the attendee directory (or leave the box "
            "unticked)."
        ]
    elif len(name) > MAX_NAME:
        errors["display_name"] = [
            f"Display name: at most {MAX_NAME} characters (this one has {len(name)})."
        ]
    cleaned = {"company": _one_line(company), "role": _one_line(role)}
    for field, label in (("company", "Company"), ("role", "Role")):
        if len(cleaned[field]) > MAX_TEXT:
            errors[field] = [
                f"{label}: at most {MAX_TEXT} characters (this one has {len(cleaned[field])})."
            ]
    link_text, link_problems = _clean_links(links)
    if link_problems:
        errors["links"] = link_problems
    if errors:
        raise ProfileError(errors)
    profile, _ = AttendeeProfile.objects.update_or_create(
        user=user, event=event,
        defaults={"is_public": is_public, "display_name": name, "links": link_text, **cleaned},
    )  # fmt: skip
    return profile


def directory(event: Event, q: str = "") -> list[PublicProfile]:
    """The event's opted-in attendees by name (one query); `q`'s words must each be found in
    the name, role or company."""
    rows = AttendeeProfile.objects.filter(event=event, is_public=True)
    for word in _one_line(q)[:MAX_QUERY].split():
        rows = rows.filter(
            Q(display_name__icontains=word) | Q(company__icontains=word) | Q(role__icontains=word)
        )
    return [_public(row) for row in rows.order_by(Lower("display_name"), "pk")]


def _going_user_ids(session: Session) -> Q:
    """Accounts that starred the session or hold a reservation for it (confirmed or on the
    waitlist). Visitors' stars and walk-ins have no account and are not counted."""
    return Q(pk__in=AgendaItem.objects.filter(session=session).values("user_id")) | Q(
        pk__in=Reservation.objects.filter(session=session, user__isnull=False).values("user_id")
    )


def going(session: Session) -> tuple[list[PublicProfile], int]:
    """Who is going to the session: the opted-in by name, and how many others (each person
    once, whether they starred, reserved or both). Two queries."""
    people = User.objects.filter(_going_user_ids(session))
    shown = [
        _public(row)
        for row in AttendeeProfile.objects.filter(
            event_id=session.event_id, is_public=True, user__in=people
        ).order_by(Lower("display_name"), "pk")
    ]
    return shown, people.count() - len(shown)


# ---- a person's own data --------------------------------------------------------------------


def utc(moment: datetime | None) -> str | None:
    """ISO 8601 in UTC, to the second ("2026-04-07T09:45:00Z"); None stays None."""
    if moment is None:
        return None
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _session(session: Session) -> dict[str, Any]:
    return {"event": session.event.slug, "session": session.key, "title": session.title}


def export_data(user: User) -> dict[str, Any]:
    """Everything confsched holds about the person, across every event, as plain JSON values
    (datetimes as ISO 8601 UTC). The password's hash is not theirs to need, and not given."""
    by_session = ("session__event",)
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "account": {
            "username": user.get_username(),
            "email": user.email,
            "first_name": user.first_name,
            "last_name": user.last_name,
            "date_joined": utc(user.date_joined),
            "last_login": utc(user.last_login),
        },
        "profiles": [
            {
                "event": row.event.slug,
                "is_public": row.is_public,
                "display_name": row.display_name,
                "company": row.company,
                "role": row.role,
                "links": link_lines(row.links),
                "updated_at": utc(row.updated_at),
            }
            for row in AttendeeProfile.objects.filter(user=user)
            .select_related("event")
            .order_by("event__slug")
        ],
        "stars": [
            {**_session(row.session), "starred_at": utc(row.created_at)}
            for row in AgendaItem.objects.filter(user=user)
            .select_related(*by_session)
            .order_by("session__event__slug", "session__starts_at", "session__key")
        ],
        "reservations": [
            {
                **_session(row.session),
                "status": row.status,
                "waitlist_position": reservations.position(row),
                "code": row.code,
                "created_at": utc(row.created_at),
                "confirmed_at": utc(row.confirmed_at),
                "checked_in_at": utc(row.checked_in_at),
            }
            for row in Reservation.objects.filter(user=user)
            .select_related(*by_session)
            .order_by("session__event__slug", "session__starts_at", "session__key")
        ],
        "feedback": [
            {
                **_session(row.session),
                "rating": row.rating,
                "comment": row.comment,
                "created_at": utc(row.created_at),
                "updated_at": utc(row.updated_at),
            }
            for row in Feedback.objects.filter(user=user)
            .select_related(*by_session)
            .order_by("session__event__slug", "session__starts_at", "session__key")
        ],
        "alerts": [
            {
                "event": row.event.slug,
                "is_on": row.is_on,
                "after_version": row.after_version,
                "updated_at": utc(row.updated_at),
            }
            for row in AlertSubscription.objects.filter(user=user)
            .select_related("event")
            .order_by("event__slug")
        ],
        "alert_mails": [
            {
                "event": row.version.event.slug,
                "version": row.version.number,
                "sent_at": utc(row.sent_at),
            }
            for row in AlertDelivery.objects.filter(user=user)
            .select_related("version__event")
            .order_by("version__event__slug", "version__number")
        ],
        "reminders": [
            {"event": row.event.slug, "minutes": row.minutes, "by_mail": row.by_mail}
            for row in ReminderSetting.objects.filter(user=user)
            .select_related("event")
            .order_by("event__slug")
        ],
        "reminder_mails": [
            {"event": row.event.slug, "starts_at": utc(row.starts_at), "sent_at": utc(row.sent_at)}
            for row in ReminderDelivery.objects.filter(user=user)
            .select_related("event")
            .order_by("event__slug", "starts_at")
        ],
        # The secret feed address and the share link are the person's own: they may want to
        # know what still works before deleting.
        "agenda_links": [
            {
                "event": row.event.slug,
                "feed_token": row.feed_token,
                "share_token": row.share_token,
            }
            for row in AgendaLinks.objects.filter(user=user)
            .select_related("event")
            .order_by("event__slug")
        ],
        # The person's roles on events' teams (docs/teams.md), since they joined.
        "team_roles": [
            {"event": row.event.slug, "role": row.role, "since": utc(row.created_at)}
            for row in TeamMember.objects.filter(user=user)
            .select_related("event")
            .order_by("event__slug")
        ],
    }


def events_owned_alone(user: User) -> list[Event]:
    """The events whose only owner is `user`, by name: deleting the account would leave each
    without anyone to run its team."""
    owned = TeamMember.objects.filter(user=user, role=Role.OWNER).values("event")
    others = (
        TeamMember.objects.filter(event__in=owned, role=Role.OWNER)
        .exclude(user=user)
        .values("event")
    )
    return list(Event.objects.filter(pk__in=owned).exclude(pk__in=others).order_by("name"))


def last_owner_message(events: list[Event]) -> str:
    """What refuses the deletion of the account of the last owner of `events`."""
    return gettext(
        "You are the only owner of %(events)s: make someone else owner there first (on the "
        "team page). Nothing was deleted."
    ) % {"events": ", ".join(f"“{event.name}”" for event in events)}


@transaction.atomic
def delete_account(user: User) -> int:
    """The account and everything in it, in one transaction: first every reservation given up
    (each seat to the first on its waitlist, mailed once this commits), then the account, which
    takes its stars, profiles, feedback, alerts, reminders and links with it. Returns how many
    reservations were given up. Refused (TeamError) while the person is the only owner of an
    event: an event keeps at least one owner."""
    alone = events_owned_alone(user)
    if alone:
        raise TeamError(last_owner_message(alone))
    given_up = reservations.cancel_all(user)
    user.delete()
    return given_up
