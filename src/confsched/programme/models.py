"""The programme as stored: events, their rooms, tracks, levels, sessions and speakers.

Times are stored aware, in UTC; each event names the IANA zone it happens in. Sessions and
speakers carry a `key`, their stable identity in the source, so that re-imports update rows
instead of adding new ones.
"""

from __future__ import annotations

import re
import zoneinfo
from datetime import date, datetime
from decimal import Decimal
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from confsched.core.errors import InvalidEventError
from confsched.core.timezones import get_zone
from confsched.programme.link_models import (  # noqa: F401 - the app's models, kept apart
    LinkKind,
    SessionLink,
    SessionSpeaker,
)
from confsched.programme.speaker_models import HOLDABLE, Speaker  # noqa: F401 - kept apart
from confsched.programme.version_models import (  # noqa: F401 - the app's models, kept apart
    Change,
    ChangeKind,
    OutlineStep,
    ScheduleVersion,
    VersionSnapshot,
)


def uid_domain_for(slug: str) -> str:
    """The right-hand side of the event's iCalendar UIDs: stable whatever host serves them."""
    return f"{slug}.confsched"


def validate_zone(value: str) -> None:
    try:
        get_zone(value)
    except InvalidEventError as exc:
        raise ValidationError(str(exc)) from exc


def language_code_list(text: str) -> list[str]:
    """The language codes of `languages` text ("en, fr de"), in order, each once."""
    codes = [code.strip().lower() for code in re.split(r"[,\s]+", text) if code.strip()]
    return list(dict.fromkeys(codes))


def validate_language_codes(value: str) -> None:
    """Each code one the site has a translation for (settings.LANGUAGES)."""
    known = [code for code, _ in settings.LANGUAGES]
    unknown = [code for code in language_code_list(value) if code not in known]
    if unknown:
        raise ValidationError(
            f"No translation for {', '.join(unknown)}: the site has {', '.join(known)}"
        )


def embed_origin_list(text: str) -> list[str]:
    """The origins of `embed_origins` text, one a line; blank lines are skipped."""
    return [line.strip() for line in text.splitlines() if line.strip()]


def validate_embed_origins(value: str) -> None:
    """Each line an http(s) origin: scheme and host, maybe a port; no path, no wildcard."""
    problems = []
    for number, line in enumerate(value.splitlines(), start=1):
        origin = line.strip()
        if not origin:
            continue
        problem = _origin_problem(origin)
        if problem:
            problems.append(f"line {number} ({origin!r}): {problem}")
    if problems:
        raise ValidationError("; ".join(problems))


_HOST = re.compile(
    r"(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*"
)


def _origin_problem(origin: str) -> str:
    if "*" in origin:
        return "wildcards are not allowed, list each site"
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https") or not origin.lower().startswith(f"{parts.scheme}://"):
        return "an origin starts with http:// or https://"
    if parts.path or parts.query or parts.fragment or origin.endswith("?") or origin.endswith("#"):
        return "an origin has no path, query or fragment (write https://example.org)"
    if "@" in parts.netloc:
        return "an origin has no user name"
    try:
        port = parts.port
    except ValueError:
        return "the port is not a number from 0 to 65535"
    host = parts.hostname or ""
    if port is None and parts.netloc.endswith(":"):
        return "the port is empty"
    if not _HOST.fullmatch(host):
        return "the host is not a host name"
    return ""


class PublicEventManager(models.Manager["Event"]):
    """Events attendees may reach: never a draft. The default manager, so that every lookup by
    slug, every list of events and every sweep across events leaves drafts out."""

    def get_queryset(self) -> models.QuerySet[Event]:
        return super().get_queryset().filter(draft_of__isnull=True)


class EveryEventManager(models.Manager["Event"]):
    """Drafts included: for the services that start, edit and release them."""


class Event(models.Model):
    # A draft's slug is "draft.<pk of its event>": no URL pattern takes a dot in a slug.
    slug = models.SlugField(max_length=100, unique=True, verbose_name=_("slug"))
    name = models.CharField(max_length=200, verbose_name=_("name"))
    timezone = models.CharField(
        max_length=64,
        validators=[validate_zone],
        help_text=_("IANA name, e.g. Europe/Paris"),
        verbose_name=_("timezone"),
    )
    start_date = models.DateField(null=True, blank=True, verbose_name=_("start date"))
    end_date = models.DateField(null=True, blank=True, verbose_name=_("end date"))
    location = models.CharField(max_length=200, blank=True, verbose_name=_("location"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))
    # When the embedding worker last stored vectors: only what shows similar sessions or
    # searches by meaning is keyed by it, so that embedding a programme, a chunk at a time,
    # leaves every other kept page, export and offline copy of the event as it is.
    embedded_at = models.DateTimeField(
        null=True, blank=True, editable=False, verbose_name=_("vectors stored at")
    )
    # sha256 of the files the last import read: `import --skip-unchanged` leaves the event (and
    # the organizer's edits since) alone when they are the same files again.
    import_digest = models.CharField(
        max_length=64, blank=True, editable=False, verbose_name=_("import digest")
    )
    # Sites allowed to show the embeddable schedule (/<event>/embed/) in a frame; none: no one.
    embed_origins = models.TextField(
        blank=True,
        validators=[validate_embed_origins],
        help_text=_(
            "Sites that may embed the schedule, one origin a line, e.g. https://example.org"
        ),
        verbose_name=_("embed origins"),
    )
    # The clash-free planner leaves this long between sessions in different rooms.
    walking_minutes = models.PositiveSmallIntegerField(
        default=0,
        help_text=_("Minutes to walk between two rooms, for the agenda planner"),
        verbose_name=_("walking minutes"),
    )
    # `confsched sync` re-imports from here; the validators of the last answer make its next
    # request conditional, so an unchanged source costs a 304 and nothing else.
    sync_url = models.URLField(
        max_length=500, blank=True,
        help_text=_(
            "Re-imported by `confsched sync` (cron or a systemd timer); empty: never"
        ), verbose_name=_("sync url"),
    )  # fmt: skip
    sync_etag = models.CharField(
        max_length=200, blank=True, editable=False, verbose_name=_("sync etag")
    )
    sync_last_modified = models.CharField(
        max_length=64, blank=True, editable=False, verbose_name=_("sync last modified")
    )
    # Not everyone stars what they attend: the insight page multiplies stars by this to guess
    # attendance (2.5 when only two attendees in five star their sessions).
    attendees_per_star = models.DecimalField(
        max_digits=4,
        decimal_places=1,
        default=Decimal("1.0"),
        validators=[MinValueValidator(Decimal("0.1"))],
        help_text=_("Attendees expected per star, to guess which rooms overflow"),
        verbose_name=_("attendees per star"),
    )
    # Off by default: stars are a guess at attendance, and the organizer decides to show it.
    show_likely_full = models.BooleanField(
        default=False,
        help_text=_("Say 'likely full' on the pages of sessions whose stars near the seats"),
        verbose_name=_("show likely full"),
    )
    # Sched's "double booking" switch: whether an attendee may hold seats in two sessions that
    # overlap. On, reserving the second is warned about; off, it is refused.
    allow_double_booking = models.BooleanField(
        default=True,
        help_text=_("Let attendees reserve seats in sessions that overlap (they are warned)"),
        verbose_name=_("allow double booking"),
    )
    # Feedback opens at a session's start and closes this many days after the event's end.
    feedback_days = models.PositiveSmallIntegerField(
        default=7,
        help_text=_("Days after the event's last day that attendees may give feedback"),
        verbose_name=_("feedback days"),
    )
    # The pages' language: the person's choice among `languages`, else their browser's, else
    # this. English only by default, as before languages were offered.
    default_language = models.CharField(
        max_length=10, default="en", validators=[validate_language_codes],
        help_text=_(
            "The pages' language for visitors whose browser asks for none offered, e.g. en"
        ), verbose_name=_("default language"),
    )  # fmt: skip
    languages = models.CharField(
        max_length=100, blank=True, default="", validators=[validate_language_codes],
        help_text=_(
            "Languages attendees may choose, e.g. en, fr, de; empty: the default only"
        ), verbose_name=_("languages"),
    )  # fmt: skip

    # Set on a draft (see docs/drafts.md): the hidden twin where the next release is prepared.
    draft_of = models.OneToOneField(
        "self", null=True, blank=True, editable=False, on_delete=models.CASCADE,
        related_name="draft", verbose_name=_("draft of"),
    )  # fmt: skip
    # On a draft: the number of the event's version the draft last equalled (the one it was
    # started from, or its last release; 0 before any). Versions after it changed attendees'
    # programme behind the draft's back (an import released at once, a sync): the draft page
    # says so. None on events, and on drafts started before this was kept.
    draft_base = models.PositiveIntegerField(
        null=True, blank=True, editable=False, verbose_name=_("draft base")
    )

    objects = PublicEventManager()
    with_drafts = EveryEventManager()

    class Meta:
        verbose_name = _("event")
        verbose_name_plural = _("events")
        ordering = ["slug"]
        base_manager_name = "with_drafts"

    def __str__(self) -> str:
        return f"{self.name} (draft)" if self.draft_of_id else self.name

    def get_absolute_url(self) -> str:
        return reverse("web:schedule", kwargs={"event": self.slug})

    @property
    def offered_languages(self) -> list[str]:
        """The languages attendees may read the pages in, the default first."""
        return list(dict.fromkeys([self.default_language, *language_code_list(self.languages)]))

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        return get_zone(self.timezone)

    @property
    def public_slug(self) -> str:
        """The slug attendees know: a draft's is its event's."""
        return self.draft_of.slug if self.draft_of_id and self.draft_of else self.slug

    @property
    def uid_domain(self) -> str:
        return uid_domain_for(self.public_slug)


class Facet(models.Model):
    """What rooms, tracks and levels share: a named, ordered value within one event."""

    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="+", verbose_name=_("event")
    )
    name = models.CharField(max_length=200, verbose_name=_("name"))
    slug = models.SlugField(max_length=100, verbose_name=_("slug"))
    position = models.PositiveIntegerField(default=0, verbose_name=_("position"))

    class Meta:
        abstract = True
        ordering = ["position", "name"]

    def __str__(self) -> str:
        return self.name


class Room(Facet):
    # Seats, where the organizer or the source says; the insight page compares stars with it.
    capacity = models.PositiveIntegerField(
        null=True, blank=True, help_text=_("Seats, if known"), verbose_name=_("capacity")
    )

    class Meta(Facet.Meta):
        verbose_name = _("room")
        verbose_name_plural = _("rooms")
        constraints = [
            models.UniqueConstraint(fields=["event", "name"], name="room_unique_name"),
            models.UniqueConstraint(fields=["event", "slug"], name="room_unique_slug"),
        ]


class Track(Facet):
    """What Sched calls the session "type": Training Systems, GenAI & Multimodal, ..."""

    class Meta(Facet.Meta):
        verbose_name = _("track")
        verbose_name_plural = _("tracks")
        constraints = [
            models.UniqueConstraint(fields=["event", "name"], name="track_unique_name"),
            models.UniqueConstraint(fields=["event", "slug"], name="track_unique_slug"),
        ]


class Level(Facet):
    """Audience level: Any, Beginner, Intermediate, Advanced, ..."""

    class Meta(Facet.Meta):
        verbose_name = _("level")
        verbose_name_plural = _("levels")
        constraints = [
            models.UniqueConstraint(fields=["event", "name"], name="level_unique_name"),
            models.UniqueConstraint(fields=["event", "slug"], name="level_unique_slug"),
        ]


class SessionQuerySet(models.QuerySet["Session"]):
    def published(self) -> SessionQuerySet:
        """What attendees see: scheduled sessions that no one has to review first."""
        return self.filter(needs_review=False, starts_at__isnull=False)


class Session(models.Model):
    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="sessions", verbose_name=_("event")
    )
    key = models.CharField(
        max_length=200,
        help_text=_("Stable identity in the source"),
        verbose_name=_("key"),
    )
    kind = models.CharField(
        max_length=100,
        blank=True,
        help_text=_('e.g. "Lightning Talk"'),
        verbose_name=_("kind"),
    )
    # Whole from imports (an iCalendar SUMMARY of 505); past this the import report says so.
    title = models.CharField(max_length=2000, verbose_name=_("title"))
    abstract = models.TextField(blank=True, verbose_name=_("abstract"))
    starts_at = models.DateTimeField(null=True, blank=True, verbose_name=_("starts at"))
    ends_at = models.DateTimeField(null=True, blank=True, verbose_name=_("ends at"))
    room = models.ForeignKey(
        Room, null=True, blank=True, on_delete=models.SET_NULL, verbose_name=_("room")
    )
    track = models.ForeignKey(
        Track, null=True, blank=True, on_delete=models.SET_NULL, verbose_name=_("track")
    )
    level = models.ForeignKey(
        Level, null=True, blank=True, on_delete=models.SET_NULL, verbose_name=_("level")
    )
    has_slides = models.BooleanField(default=False, verbose_name=_("has slides"))
    language = models.CharField(max_length=50, blank=True, verbose_name=_("language"))
    # Gone from the source: kept (attendees' stars point at it) and shown as cancelled.
    is_cancelled = models.BooleanField(default=False, verbose_name=_("is cancelled"))
    needs_review = models.BooleanField(default=False, verbose_name=_("needs review"))
    review_note = models.TextField(blank=True, verbose_name=_("review note"))
    speakers = models.ManyToManyField(
        Speaker, through="SessionSpeaker", related_name="sessions", verbose_name=_("speakers")
    )
    # Seats to reserve: a number means a reservation is required and that many seats are
    # promised; empty means open entry (nobody reserves, stars only show interest).
    seats = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text=_("Seats to reserve; empty: open entry, no reservation"),
        verbose_name=_("seats"),
    )
    # When reserving and the waitlist close; empty: at the session's start.
    reservations_close_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_("When reservations close; empty: at the start"),
        verbose_name=_("reservations close at"),
    )
    # iCalendar SEQUENCE: moves whenever what a calendar shows of the session changes.
    sequence = models.PositiveIntegerField(default=0, editable=False, verbose_name=_("sequence"))
    # The start it had when attendees first saw it (published): a session moved since is
    # "rescheduled" (schema.org's previousStartDate). Set once, by imports and admin edits.
    first_starts_at = models.DateTimeField(
        null=True, blank=True, editable=False, verbose_name=_("first starts at")
    )
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))

    objects = SessionQuerySet.as_manager()

    class Meta:
        verbose_name = _("session")
        verbose_name_plural = _("sessions")
        ordering = ["starts_at", "room__position", "title"]
        constraints = [
            models.UniqueConstraint(fields=["event", "key"], name="session_unique_key"),
            models.CheckConstraint(
                condition=models.Q(ends_at__isnull=True)
                | models.Q(starts_at__isnull=False, ends_at__gte=models.F("starts_at")),
                name="session_ends_after_start",
            ),
        ]
        indexes = [models.Index(fields=["event", "starts_at"])]

    def __str__(self) -> str:
        return self.title

    def get_absolute_url(self) -> str:
        return reverse("web:session", kwargs={"event": self.event.slug, "key": self.key})

    @property
    def is_published(self) -> bool:
        """What attendees see; the row's own form of SessionQuerySet.published()."""
        return self.starts_at is not None and not self.needs_review

    def note_first_start(self) -> bool:
        """Keep the start it is published with, if it is the first; whether it was."""
        if self.first_starts_at is None and self.is_published:
            self.first_starts_at = self.starts_at
            return True
        return False

    @property
    def requires_reservation(self) -> bool:
        return self.seats is not None

    @property
    def reservations_close(self) -> datetime | None:
        """When reservations close: the organizer's time, else the start."""
        return self.reservations_close_at or self.starts_at

    @property
    def full_title(self) -> str:
        return f"{self.kind}: {self.title}" if self.kind else self.title

    def local_start(self, zone: zoneinfo.ZoneInfo) -> datetime | None:
        return self.starts_at.astimezone(zone) if self.starts_at else None

    def local_day(self, zone: zoneinfo.ZoneInfo) -> date | None:
        return self.starts_at.astimezone(zone).date() if self.starts_at else None

    @property
    def slide_links(self) -> list[SessionLink]:
        """Its slides, from `links` (prefetched by the queries that pages use)."""
        return [link for link in self.links.all() if link.kind == LinkKind.SLIDES]

    @property
    def other_links(self) -> list[SessionLink]:
        """Its recordings and other links, in their order."""
        return [link for link in self.links.all() if link.kind != LinkKind.SLIDES]
