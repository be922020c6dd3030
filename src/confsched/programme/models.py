"""The programme as stored: events, their rooms, tracks, levels, sessions and speakers.

Times are stored aware, in UTC; each event names the IANA zone it happens in. Sessions and
speakers carry a `key`, their stable identity in the source, so that re-imports update rows
instead of adding new ones.
"""

from __future__ import annotations

import zoneinfo
from datetime import date, datetime

from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse

from confsched.core.errors import InvalidEventError
from confsched.core.timezones import get_zone


def uid_domain_for(slug: str) -> str:
    """The right-hand side of the event's iCalendar UIDs: stable whatever host serves them."""
    return f"{slug}.confsched"


def validate_zone(value: str) -> None:
    try:
        get_zone(value)
    except InvalidEventError as exc:
        raise ValidationError(str(exc)) from exc


class Event(models.Model):
    slug = models.SlugField(max_length=100, unique=True)
    name = models.CharField(max_length=200)
    timezone = models.CharField(
        max_length=64, validators=[validate_zone], help_text="IANA name, e.g. Europe/Paris"
    )
    start_date = models.DateField(null=True, blank=True)
    end_date = models.DateField(null=True, blank=True)
    location = models.CharField(max_length=200, blank=True)
    updated_at = models.DateTimeField(auto_now=True)
    # sha256 of the files the last import read: `import --skip-unchanged` leaves the event (and
    # the organizer's edits since) alone when they are the same files again.
    import_digest = models.CharField(max_length=64, blank=True, editable=False)

    class Meta:
        ordering = ["slug"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("web:schedule", kwargs={"event": self.slug})

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        return get_zone(self.timezone)

    @property
    def uid_domain(self) -> str:
        return uid_domain_for(self.slug)


class Facet(models.Model):
    """What rooms, tracks and levels share: a named, ordered value within one event."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=100)
    position = models.PositiveIntegerField(default=0)

    class Meta:
        abstract = True
        ordering = ["position", "name"]

    def __str__(self) -> str:
        return self.name


class Room(Facet):
    class Meta(Facet.Meta):
        constraints = [
            models.UniqueConstraint(fields=["event", "name"], name="room_unique_name"),
            models.UniqueConstraint(fields=["event", "slug"], name="room_unique_slug"),
        ]


class Track(Facet):
    """What Sched calls the session "type": Training Systems, GenAI & Multimodal, ..."""

    class Meta(Facet.Meta):
        constraints = [
            models.UniqueConstraint(fields=["event", "name"], name="track_unique_name"),
            models.UniqueConstraint(fields=["event", "slug"], name="track_unique_slug"),
        ]


class Level(Facet):
    """Audience level: Any, Beginner, Intermediate, Advanced, ..."""

    class Meta(Facet.Meta):
        constraints = [
            models.UniqueConstraint(fields=["event", "name"], name="level_unique_name"),
            models.UniqueConstraint(fields=["event", "slug"], name="level_unique_slug"),
        ]


class Speaker(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="speakers")
    key = models.CharField(max_length=200, help_text="Stable identity in the source")
    name = models.CharField(max_length=200)
    company = models.CharField(max_length=200, blank=True)
    position = models.CharField(max_length=200, blank=True)
    bio = models.TextField(blank=True)
    avatar_url = models.URLField(max_length=500, blank=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["event", "key"], name="speaker_unique_key"),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("web:speaker", kwargs={"event": self.event.slug, "key": self.key})


class SessionQuerySet(models.QuerySet["Session"]):
    def published(self) -> SessionQuerySet:
        """What attendees see: scheduled sessions that no one has to review first."""
        return self.filter(needs_review=False, starts_at__isnull=False)


class Session(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="sessions")
    key = models.CharField(max_length=200, help_text="Stable identity in the source")
    kind = models.CharField(max_length=100, blank=True, help_text='e.g. "Lightning Talk"')
    title = models.CharField(max_length=500)
    abstract = models.TextField(blank=True)
    starts_at = models.DateTimeField(null=True, blank=True)
    ends_at = models.DateTimeField(null=True, blank=True)
    room = models.ForeignKey(Room, null=True, blank=True, on_delete=models.SET_NULL)
    track = models.ForeignKey(Track, null=True, blank=True, on_delete=models.SET_NULL)
    level = models.ForeignKey(Level, null=True, blank=True, on_delete=models.SET_NULL)
    has_slides = models.BooleanField(default=False)
    language = models.CharField(max_length=50, blank=True)
    # Gone from the source: kept (attendees' stars point at it) and shown as cancelled.
    is_cancelled = models.BooleanField(default=False)
    needs_review = models.BooleanField(default=False)
    review_note = models.TextField(blank=True)
    speakers = models.ManyToManyField(Speaker, through="SessionSpeaker", related_name="sessions")
    # iCalendar SEQUENCE: moves whenever what a calendar shows of the session changes.
    sequence = models.PositiveIntegerField(default=0, editable=False)
    updated_at = models.DateTimeField(auto_now=True)

    objects = SessionQuerySet.as_manager()

    class Meta:
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

    @property
    def full_title(self) -> str:
        return f"{self.kind}: {self.title}" if self.kind else self.title

    def local_start(self, zone: zoneinfo.ZoneInfo) -> datetime | None:
        return self.starts_at.astimezone(zone) if self.starts_at else None

    def local_day(self, zone: zoneinfo.ZoneInfo) -> date | None:
        return self.starts_at.astimezone(zone).date() if self.starts_at else None


class SessionSpeaker(models.Model):
    """A speaker on a session, in billing order, with the affiliation the session names."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="speaker_links")
    speaker = models.ForeignKey(Speaker, on_delete=models.CASCADE, related_name="session_links")
    position = models.PositiveIntegerField(default=0)
    affiliation = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["session", "speaker"], name="session_speaker_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.speaker} on {self.session}"

    @property
    def company(self) -> str:
        return self.affiliation or self.speaker.company


class ScheduleVersion(models.Model):
    """One published state of the programme: what an import or an edit changed."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)
    source = models.CharField(max_length=300, help_text="What made it: a file, a URL, an editor")
    summary = models.CharField(max_length=300)

    class Meta:
        ordering = ["-number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="version_unique_number"),
        ]

    def __str__(self) -> str:
        return f"{self.event.slug} v{self.number}"


class ChangeKind(models.TextChoices):
    ADDED = "added", "Added"
    CANCELLED = "cancelled", "Cancelled"
    RESTORED = "restored", "Back in the programme"
    RETIMED = "retimed", "New time"
    MOVED = "moved", "New room"
    RETITLED = "retitled", "New title"
    REDESCRIBED = "redescribed", "New description"
    SPEAKERS = "speakers", "Speakers changed"
    DETAILS = "details", "Details changed"


class Change(models.Model):
    """One thing that happened to one session in one version, said in words."""

    version = models.ForeignKey(ScheduleVersion, on_delete=models.CASCADE, related_name="changes")
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="changes")
    kind = models.CharField(max_length=20, choices=ChangeKind.choices)
    description = models.TextField()

    class Meta:
        ordering = ["version", "pk"]
        indexes = [models.Index(fields=["session", "version"])]

    def __str__(self) -> str:
        return self.description
