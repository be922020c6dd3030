"""What attendees make: starred sessions, and the private and shared links to their agenda."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy

from confsched.programme.models import Event, Session


def new_token() -> str:
    """256 random bits, URL-safe: unguessable, so a feed URL can be its own credential."""
    return secrets.token_urlsafe(32)


class AgendaItem(models.Model):
    """A session an attendee starred, with what it looked like when they did."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="agenda_items"
    )
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="agenda_items")
    created_at = models.DateTimeField(auto_now_add=True)
    # The session's time, room and title when starred, to tell the attendee what moved since.
    seen = models.JSONField(default=dict, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "session"], name="agenda_item_unique"),
        ]
        indexes = [models.Index(fields=["session"])]

    def __str__(self) -> str:
        return f"{self.user} ★ {self.session}"


class AgendaLinks(models.Model):
    """Per attendee and event: the secret feed URL, and the public read-only link when on."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="agenda_links"
    )
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    feed_token = models.CharField(max_length=64, unique=True, default=new_token)
    share_token = models.CharField(max_length=64, unique=True, null=True, blank=True)

    class Meta:
        verbose_name_plural = "agenda links"
        constraints = [
            models.UniqueConstraint(fields=["user", "event"], name="agenda_links_unique"),
        ]

    def __str__(self) -> str:
        return f"agenda links of {self.user} for {self.event}"


class VisitorStar(models.Model):
    """A session starred by a visitor without an account, under the random id their browser
    session holds. A row per star, not a list in the session: two stars sent at once (two taps
    before the first answer, two tabs) are two inserts, where two saves of one session would
    keep only the last. Moved to the account at log-in or sign-up."""

    visitor = models.CharField(max_length=64, db_index=True)
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["visitor", "session"], name="visitor_star_unique"),
        ]

    def __str__(self) -> str:
        return f"visitor ★ {self.session}"


class AlertSubscription(models.Model):
    """Per attendee and event: whether they want an email when sessions they starred change.

    Only versions numbered above `after_version` are alerted: turning alerts on does not mail
    the programme's history.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="alert_subscriptions"
    )
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    is_on = models.BooleanField(default=False)
    # The one-click unsubscribe link's only credential: mail clients POST it without a cookie.
    unsubscribe_token = models.CharField(max_length=64, unique=True, default=new_token)
    after_version = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "event"], name="alert_subscription_unique"),
        ]

    def __str__(self) -> str:
        return f"alerts of {self.user} for {self.event}: {'on' if self.is_on else 'off'}"


class ClaimedDelivery(models.Model):
    """A mail that goes out once: claimed by a sender before it is sent (agenda/claims.py)."""

    created_at = models.DateTimeField(auto_now_add=True)
    # Who holds it (a random id per claim) and since when; a claim older than the lease is
    # taken over, so a sender that died mid-run does not lose the mail.
    claim = models.CharField(max_length=32, blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True)

    class Meta:
        abstract = True


class AlertDelivery(ClaimedDelivery):
    """One digest, one attendee, one schedule version: claimed before it is sent, marked once
    sent. The unique pair is what keeps two senders from mailing the same change twice."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    version = models.ForeignKey(
        "programme.ScheduleVersion", on_delete=models.CASCADE, related_name="+"
    )

    class Meta:
        verbose_name_plural = "alert deliveries"
        constraints = [
            models.UniqueConstraint(fields=["user", "version"], name="alert_delivery_unique"),
        ]
        indexes = [models.Index(fields=["sent_at"])]

    def __str__(self) -> str:
        return f"alert for {self.user} about {self.version}"


# ---- seats and the waitlist -----------------------------------------------------------------


def new_code() -> str:
    """A check-in code: 10 characters of Crockford-like base32 (no I, L, O, U), 50 bits: short
    enough to type at a door, too many to guess; shown as a QR code too."""
    alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
    return "".join(secrets.choice(alphabet) for _ in range(10))


class ReservationStatus(models.TextChoices):
    CONFIRMED = "confirmed", "Confirmed"
    WAITLISTED = "waitlisted", "On the waitlist"


class Reservation(models.Model):
    """A promise of a seat (confirmed) or a place in the queue for one (waitlisted).

    Rows are written only by agenda/reservations.py, each under the session's lock, so the
    primary key's order is the order in which requests were accepted: the waitlist is served
    in that order. A walk-in (counted at the door, no account) has no user.
    """

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="reservations")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="reservations",
        null=True,
        blank=True,
    )
    status = models.CharField(max_length=10, choices=ReservationStatus.choices)
    # Added by the organizer over the number of seats.
    is_forced = models.BooleanField(default=False)
    is_walk_in = models.BooleanField(default=False)
    code = models.CharField(max_length=16, unique=True, default=new_code)
    created_at = models.DateTimeField(auto_now_add=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    checked_in_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(fields=["user", "session"], name="reservation_unique"),
        ]
        indexes = [models.Index(fields=["session", "status"])]

    def __str__(self) -> str:
        return f"{self.user or 'walk-in'} {self.status} for {self.session}"

    @property
    def is_confirmed(self) -> bool:
        return self.status == ReservationStatus.CONFIRMED


class SeatsChange(models.Model):
    """A session's number of seats changed, from a file or the seats page: a line of the
    change log for the event's team only (attendees' history is of the programme), with how
    many held a seat then. Written by agenda/reservations.py."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="seats_changes")
    before = models.PositiveIntegerField(null=True, blank=True)  # None: open entry
    after = models.PositiveIntegerField(null=True, blank=True)
    confirmed = models.PositiveIntegerField(default=0)  # seats held when it changed
    by = models.CharField(max_length=150, blank=True)  # an account's username, "command line"
    source = models.CharField(max_length=300, blank=True)  # "import: file.csv", "seats page"
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["session", "created_at"])]

    def __str__(self) -> str:
        return f"{self.session}: seats {self.before} -> {self.after}"

    @property
    def is_over(self) -> bool:
        """Whether more people held seats than the new number (they kept them)."""
        return self.after is not None and self.confirmed > self.after


# ---- feedback -------------------------------------------------------------------------------


class Feedback(models.Model):
    """One attendee's rating (1-5) and comment on one session; editable, never doubled."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="feedback"
    )
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="feedback")
    rating = models.PositiveSmallIntegerField()
    comment = models.TextField(blank=True, max_length=4000)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "feedback"
        constraints = [
            models.UniqueConstraint(fields=["user", "session"], name="feedback_unique"),
            models.CheckConstraint(
                condition=models.Q(rating__gte=1, rating__lte=5), name="feedback_rating_1_to_5"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.rating}/5 from {self.user} on {self.session}"


class SpeakerFeedbackLink(models.Model):
    """The private link through which a speaker reads the feedback on their own sessions."""

    speaker = models.OneToOneField(
        "programme.Speaker", on_delete=models.CASCADE, related_name="feedback_link"
    )
    token = models.CharField(max_length=64, unique=True, default=new_token)

    def __str__(self) -> str:
        return f"feedback link of {self.speaker}"


# ---- reminders ------------------------------------------------------------------------------


class ReminderMinutes(models.IntegerChoices):
    NONE = 0, gettext_lazy("No reminder")
    FIVE = 5, gettext_lazy("5 minutes before")
    TEN = 10, gettext_lazy("10 minutes before")
    FIFTEEN = 15, gettext_lazy("15 minutes before")
    THIRTY = 30, gettext_lazy("30 minutes before")


class ReminderSetting(models.Model):
    """Per attendee and event: how long before each session the feed alarms, and whether
    reserved sessions are also reminded by mail."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reminder_settings"
    )
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    minutes = models.PositiveSmallIntegerField(
        choices=ReminderMinutes.choices, default=ReminderMinutes.NONE
    )
    by_mail = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "event"], name="reminder_setting_unique"),
        ]

    def __str__(self) -> str:
        return f"reminders of {self.user} for {self.event}: {self.minutes} min"


class ReminderDelivery(ClaimedDelivery):
    """One reminder mail, one attendee, one time slot: claimed before it is sent, like
    AlertDelivery, so two senders never mail the same slot twice."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    starts_at = models.DateTimeField()

    class Meta:
        verbose_name_plural = "reminder deliveries"
        constraints = [
            models.UniqueConstraint(
                fields=["user", "event", "starts_at"], name="reminder_delivery_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"reminder for {self.user} at {self.starts_at}"


# ---- people ---------------------------------------------------------------------------------


class AttendeeProfile(models.Model):
    """What an attendee chooses to show others at one event; private unless `is_public`."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="attendee_profiles"
    )
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    is_public = models.BooleanField(default=False)
    display_name = models.CharField(max_length=150, blank=True)
    company = models.CharField(max_length=200, blank=True)
    role = models.CharField(max_length=200, blank=True)
    # Web addresses, one a line (at most a few), shown as links on the directory.
    links = models.TextField(blank=True, max_length=2000)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "event"], name="attendee_profile_unique"),
        ]

    def __str__(self) -> str:
        return f"profile of {self.user} at {self.event}"


# ---- throttles ------------------------------------------------------------------------------


class ThrottleCount(models.Model):
    """Hits on one throttle key in its current window, for when no Redis counts them: written
    only by agenda/throttles.py, one statement per hit (core/throttle.py)."""

    key = models.CharField(max_length=200, primary_key=True)
    hits = models.PositiveIntegerField()
    expires_at = models.DateTimeField(db_index=True)  # windows past it are deleted

    def __str__(self) -> str:
        return f"{self.key}: {self.hits} until {self.expires_at}"
