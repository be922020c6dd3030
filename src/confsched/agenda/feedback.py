"""Session feedback: an attendee's rating (1-5) and comment, its window, the throttle against
abuse, the figures organizers and speakers read, and the speakers' private links.

The window opens at the session's start and closes at the end of the day `feedback_days`
after the event's last day, in the event's zone (the session's own local day when the event
has no end date). Writes are throttled per account and per client address, a fixed window
each, counted where every app process sees them (agenda/throttles.py): strict per account,
looser per address, since a venue's attendees share a few NAT addresses (as the log-in
throttle, web/accounts/login_throttle.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, time, timedelta
from decimal import ROUND_HALF_UP, Decimal

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.db.models import Count
from django.utils.formats import date_format
from django.utils.translation import gettext

from confsched.agenda.models import Feedback, SpeakerFeedbackLink, new_token
from confsched.agenda.throttles import exceeds
from confsched.core import clock
from confsched.core.errors import ConfschedError
from confsched.core.numbers import parse_count
from confsched.core.text import shortened
from confsched.core.throttle import Limit
from confsched.programme.models import Event, Session, Speaker

MAX_COMMENT = 4000
RATINGS = (1, 2, 3, 4, 5)
# Writes allowed per THROTTLE_SECONDS; settings may say otherwise.
ACCOUNT_LIMIT = 20
ADDRESS_LIMIT = 60
THROTTLE_SECONDS = 600


class FeedbackError(ConfschedError):
    """Feedback that cannot be given; the message says why, to the person."""


class FeedbackThrottledError(FeedbackError):
    """Too many feedback writes from one account or one address in a short time."""


@dataclass(frozen=True)
class Summary:
    """A session's ratings: how many, their mean (2 places, None without any), and how many of
    each rating, `distribution[0]` being the 1s."""

    count: int = 0
    average: Decimal | None = None
    distribution: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)

    @property
    def by_rating(self) -> list[tuple[int, int]]:
        """(rating, count) from 5 down to 1, the order the charts and tables show."""
        return [(rating, self.distribution[rating - 1]) for rating in reversed(RATINGS)]


@dataclass
class SessionFeedback:
    """A session with its summary and its comments (newest first, no names)."""

    session: Session
    summary: Summary
    comments: list[Feedback] = field(default_factory=list)
    chart: str = ""  # the distribution as SVG, drawn by the page that shows it


# ---- the window ----------------------------------------------------------------------------


def feedback_window(session: Session) -> tuple[datetime, datetime]:
    """When feedback opens (the start) and closes (exclusive: the next day's local midnight)."""
    if session.starts_at is None:
        raise FeedbackError(
            gettext("%(title)s has no time yet, so it cannot be rated.")
            % {"title": repr(session.title)}
        )
    event = session.event
    zone = event.zone
    last_day = event.end_date or session.starts_at.astimezone(zone).date()
    closing_day = last_day + timedelta(days=event.feedback_days + 1)
    return session.starts_at, datetime.combine(closing_day, time(0), tzinfo=zone)


def is_open(session: Session, *, now: datetime | None = None) -> bool:
    """Whether feedback on the session can be given now (published, not cancelled, in time)."""
    if not session.is_published or session.is_cancelled:
        return False
    opens, closes = feedback_window(session)
    moment = now or clock.now()
    return opens <= moment < closes


def _check_open(session: Session) -> None:
    if session.is_cancelled:
        raise FeedbackError(
            gettext("%(title)s was cancelled: there is nothing to rate.")
            % {"title": repr(session.title)}
        )
    if not session.is_published:
        raise FeedbackError(
            gettext("%(title)s is not published, so it cannot be rated.")
            % {"title": repr(session.title)}
        )
    opens, closes = feedback_window(session)
    moment = clock.now()
    zone = session.event.zone
    day_format = gettext("l j F Y")
    words = {"title": repr(session.title), "zone": zone.key}
    if moment < opens:
        local = opens.astimezone(zone)
        raise FeedbackError(
            gettext(
                "Feedback on %(title)s opens when it starts, at %(time)s on %(day)s (%(zone)s)."
            )
            % {**words, "time": f"{local:%H:%M}", "day": date_format(local, day_format)}
        )
    if moment >= closes:
        last = (closes - timedelta(seconds=1)).astimezone(zone)
        raise FeedbackError(
            gettext("Feedback on %(title)s closed at the end of %(day)s (%(zone)s).")
            % {**words, "day": date_format(last, day_format)}
        )


# ---- giving feedback -----------------------------------------------------------------------


def clean_rating(value: object) -> int:
    """A rating from a form or a caller: a whole number from 1 to 5, else FeedbackError."""
    if isinstance(value, bool):
        number = None
    elif isinstance(value, int):
        number = value
    elif isinstance(value, str):
        number = parse_count(value, most=max(RATINGS))
    else:
        number = None
    if number is None or number not in RATINGS:
        typed = shortened(value) if isinstance(value, str) else value
        shown = gettext("nothing") if value in (None, "") else repr(typed)
        raise FeedbackError(gettext("Choose a rating from 1 to 5 (got %s).") % shown)
    return number


def clean_comment(value: str) -> str:
    comment = value.strip().replace("\r\n", "\n")
    if len(comment) > MAX_COMMENT:
        raise FeedbackError(
            f"Your comment is {len(comment):,} characters long; at most {MAX_COMMENT:,} fit. "
            "Shorten it and send it again."
        )
    return comment


def give_feedback(
    user: User,
    session: Session,
    *,
    rating: object,
    comment: str = "",
    address: str = "",
) -> Feedback:
    """Rate a session and comment on it, or change one's earlier feedback (one row per
    attendee and session). Throttled per account and, given the client's `address`, per
    address; every attempt counts."""
    throttle(user_id=user.pk, address=address)
    number = clean_rating(rating)
    text = clean_comment(comment)
    _check_open(session)
    with transaction.atomic():
        feedback, _ = Feedback.objects.update_or_create(
            user=user, session=session, defaults={"rating": number, "comment": text}
        )
    return feedback


def feedback_of(user: User | AnonymousUser, session: Session) -> Feedback | None:
    """The attendee's own feedback on the session, if any."""
    if not isinstance(user, User):
        return None
    return Feedback.objects.filter(user=user, session=session).first()


# ---- the throttle --------------------------------------------------------------------------


def throttle(*, user_id: int, address: str = "") -> None:
    """Count a feedback write; FeedbackThrottledError once the account or the address is over
    its limit for the current window (counted where every app process sees it:
    agenda/throttles.py)."""
    account = Limit(
        getattr(settings, "CONFSCHED_FEEDBACK_ACCOUNT_LIMIT", ACCOUNT_LIMIT), THROTTLE_SECONDS
    )
    network = Limit(
        getattr(settings, "CONFSCHED_FEEDBACK_ADDRESS_LIMIT", ADDRESS_LIMIT), THROTTLE_SECONDS
    )
    minutes = THROTTLE_SECONDS // 60
    if exceeds(account, "feedback", "user", user_id):
        raise FeedbackThrottledError(
            f"You sent feedback more than {account.count} times in {minutes} minutes. "
            f"Wait a few minutes, then send it again."
        )
    if address and exceeds(network, "feedback", "address", address):
        raise FeedbackThrottledError(
            f"More than {network.count} feedback writes came from your network in {minutes} "
            "minutes. Wait a few minutes, then send it again."
        )


# ---- what organizers and speakers read -----------------------------------------------------


def _summary(counts: dict[int, int]) -> Summary:
    one, two, three, four, five = (counts.get(rating, 0) for rating in RATINGS)
    distribution = (one, two, three, four, five)
    total = sum(distribution)
    if not total:
        return Summary()
    mean = Decimal(sum(r * n for r, n in zip(RATINGS, distribution, strict=True))) / total
    return Summary(
        count=total,
        average=mean.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP),
        distribution=distribution,
    )


def _counts(session_ids: list[int] | None, *, event: Event | None = None) -> dict[int, Summary]:
    """Summaries per session id, in one query."""
    rows = Feedback.objects.all()
    if event is not None:
        rows = rows.filter(session__event=event)
    if session_ids is not None:
        rows = rows.filter(session_id__in=session_ids)
    counts: dict[int, dict[int, int]] = {}
    for session_id, rating, total in (
        rows.values("session_id", "rating")
        .annotate(total=Count("id"))
        .values_list("session_id", "rating", "total")
        .order_by()
    ):
        counts.setdefault(session_id, {})[rating] = total
    return {session_id: _summary(found) for session_id, found in counts.items()}


def summary(session: Session) -> Summary:
    """One session's count, average and distribution (one query)."""
    return _counts([session.pk]).get(session.pk, Summary())


def summaries(event: Event) -> dict[int, Summary]:
    """Every rated session of the event: its summary by session id (one query)."""
    return _counts(None, event=event)


def _comments(session_ids: list[int]) -> dict[int, list[Feedback]]:
    """Non-empty comments per session id, newest first (one query; no user joined)."""
    found: dict[int, list[Feedback]] = {}
    rows = (
        Feedback.objects.filter(session_id__in=session_ids)
        .exclude(comment="")
        .only("session_id", "rating", "comment", "updated_at")
        .order_by("-updated_at", "-pk")
    )
    for row in rows:
        found.setdefault(row.session_id, []).append(row)
    return found


def _with_feedback(sessions: list[Session]) -> list[SessionFeedback]:
    ids = [session.pk for session in sessions]
    figures = _counts(ids)
    comments = _comments(ids)
    return [
        SessionFeedback(
            session=session,
            summary=figures.get(session.pk, Summary()),
            comments=comments.get(session.pk, []),
        )
        for session in sessions
    ]


def event_feedback(event: Event) -> list[SessionFeedback]:
    """Every published session of the event with its figures and comments (three queries)."""
    sessions = list(
        Session.objects.published()
        .filter(event=event)
        .select_related("room")
        .order_by("starts_at", "title", "pk")
    )
    return _with_feedback(sessions)


# ---- speakers' private links ---------------------------------------------------------------


def speaker_link(speaker: Speaker) -> SpeakerFeedbackLink:
    """The speaker's private feedback link, made on first use."""
    link, _ = SpeakerFeedbackLink.objects.get_or_create(speaker=speaker)
    return link


def reset_speaker_link(speaker: Speaker) -> SpeakerFeedbackLink:
    """A new private link for the speaker; the old one stops working."""
    with transaction.atomic():
        link, created = SpeakerFeedbackLink.objects.select_for_update().get_or_create(
            speaker=speaker
        )
        if not created:
            link.token = new_token()
            link.save(update_fields=["token"])
    return link


def speaker_links(event: Event) -> dict[int, str]:
    """Tokens of the event's speakers that have a link, by speaker id (one query)."""
    return dict(
        SpeakerFeedbackLink.objects.filter(speaker__event=event).values_list("speaker_id", "token")
    )


def sessions_for_speaker_token(
    event: Event, token: str
) -> tuple[Speaker, list[SessionFeedback]] | None:
    """The speaker whose private link this is, with their own published sessions' feedback;
    None for a token that is no speaker's at this event."""
    if not token:
        return None
    link = (
        SpeakerFeedbackLink.objects.filter(token=token, speaker__event=event)
        .select_related("speaker")
        .first()
    )
    if link is None:
        return None
    speaker = link.speaker
    sessions = list(
        Session.objects.published()
        .filter(event=event, speaker_links__speaker=speaker)
        .select_related("room")
        .order_by("starts_at", "title", "pk")
        .distinct()
    )
    return speaker, _with_feedback(sessions)
