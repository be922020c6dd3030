"""What speakers keep as stored: their personal sign-in links, their photos, their slides and
their notes to the organizers. What shows publicly (name, bio, photo address, links) is written
into the programme's own rows through its services (programme/services/held.py), so that every
page and export carries it and no import overwrites it."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from confsched.programme.models import Event, Session, Speaker


class SpeakerPass(models.Model):
    """A speaker's personal link: it signs them in to their own speaker page, and nothing else.

    The link carries `nonce` (128 random bits) and its HMAC under the site's secret key
    (speakers/passes.py): the database alone cannot make a working link. One live pass per
    speaker; the team revokes it (`revoked_at`) and may issue a new one. `user` is the account
    the pass signed in to first (made or matched by e-mail): the speaker page belongs to it
    while the pass lives.
    """

    speaker = models.ForeignKey(
        Speaker, on_delete=models.CASCADE, related_name="passes", verbose_name=_("speaker")
    )
    nonce = models.CharField(max_length=32, unique=True, verbose_name=_("nonce"))
    # Where the team mails the link; never shown on a public page.
    email = models.EmailField(blank=True, verbose_name=_("e-mail"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="speaker_passes",
        verbose_name=_("account"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    created_by = models.CharField(max_length=150, verbose_name=_("created by"))
    mailed_at = models.DateTimeField(null=True, blank=True, verbose_name=_("mailed at"))
    opened_at = models.DateTimeField(null=True, blank=True, verbose_name=_("first opened at"))
    revoked_at = models.DateTimeField(null=True, blank=True, verbose_name=_("revoked at"))
    reminded_at = models.DateTimeField(null=True, blank=True, verbose_name=_("last reminded at"))

    class Meta:
        verbose_name = _("speaker's link")
        verbose_name_plural = _("speakers' links")
        constraints = [
            models.UniqueConstraint(
                fields=["speaker"],
                condition=Q(revoked_at__isnull=True),
                name="speaker_one_live_pass",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.speaker} ({'revoked' if self.revoked_at else 'live'})"


class SpeakerPhoto(models.Model):
    """The speaker's own photo: the stored files (core/files.py names) of its normalized
    original, its squares per size and the largest square as JPEG, with the crop's focus."""

    speaker = models.OneToOneField(
        Speaker, on_delete=models.CASCADE, related_name="photo", verbose_name=_("speaker")
    )
    original = models.CharField(max_length=200, verbose_name=_("original"))
    squares = models.JSONField(default=dict, verbose_name=_("squares"))  # {"48": name, ...}
    jpeg = models.CharField(max_length=200, verbose_name=_("JPEG"))
    width = models.PositiveIntegerField(verbose_name=_("width"))
    height = models.PositiveIntegerField(verbose_name=_("height"))
    focus_x = models.FloatField(default=0.5, verbose_name=_("focus across"))
    focus_y = models.FloatField(default=0.5, verbose_name=_("focus down"))
    uploaded_at = models.DateTimeField(auto_now=True, verbose_name=_("uploaded at"))
    uploaded_by = models.CharField(max_length=150, verbose_name=_("uploaded by"))

    class Meta:
        verbose_name = _("speaker's photo")
        verbose_name_plural = _("speakers' photos")

    def __str__(self) -> str:
        return f"{self.speaker} ({self.original})"


# A photo takes the worker a second or two; after this, one still pending is late.
LATE_AFTER = timedelta(minutes=2)


class PhotoUpload(models.Model):
    """A speaker's new photo, or a new place for its square, between the request that took it
    and the worker that makes its files (speakers/photo_uploads.py).

    Pending until the worker has made them and handed them to the event's rules (live, or
    waiting for review): the row is then deleted, as it is when a newer one of the speaker
    replaces it. Failed, with the reason the speaker reads, when the file cannot be used. Pages
    and exports read the speaker's photo, never this row, so attendees see nothing of it.
    `source` is the upload as sent (a private name, core/files.py INCOMING) or, for a moved
    square, the stored original the squares are cut from again.
    """

    class Kind(models.TextChoices):
        UPLOAD = "upload", _("new photo")
        CROP = "crop", _("square moved")

    class State(models.TextChoices):
        PENDING = "pending", _("being prepared")
        FAILED = "failed", _("could not be used")

    speaker = models.ForeignKey(
        Speaker, on_delete=models.CASCADE, related_name="photo_uploads", verbose_name=_("speaker")
    )
    kind = models.CharField(max_length=10, choices=Kind.choices, verbose_name=_("what was sent"))
    source = models.CharField(max_length=200, verbose_name=_("stored file"))
    filename = models.CharField(max_length=200, blank=True, verbose_name=_("file name"))
    focus_x = models.FloatField(default=0.5, verbose_name=_("focus across"))
    focus_y = models.FloatField(default=0.5, verbose_name=_("focus down"))
    # The language the speaker was answered in: the worker says why a file failed in it.
    language = models.CharField(max_length=12, blank=True, verbose_name=_("language"))
    by = models.CharField(max_length=150, verbose_name=_("uploaded by"))
    base = models.CharField(max_length=500, blank=True, verbose_name=_("site address"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("uploaded at"))
    state = models.CharField(
        max_length=10, choices=State.choices, default=State.PENDING, verbose_name=_("status")
    )
    error = models.TextField(max_length=2000, blank=True, verbose_name=_("reason"))

    class Meta:
        verbose_name = _("speaker's photo being prepared")
        verbose_name_plural = _("speakers' photos being prepared")
        ordering = ["pk"]  # newest last: only the newest of a speaker is ever applied

    def __str__(self) -> str:
        return f"{self.speaker} {self.kind} ({self.state})"

    @property
    def is_late(self) -> bool:
        """Pending for longer than a photo takes even behind a queue of others: the worker may
        be stopped, and the speaker's page says so rather than "a few seconds" for ever."""
        return self.state == self.State.PENDING and timezone.now() - self.created_at > LATE_AFTER


class SlideFile(models.Model):
    """Slides a speaker uploaded for a session: the stored file, what its bytes are, and a
    preview of its first page (PDFs)."""

    session = models.ForeignKey(
        Session, on_delete=models.CASCADE, related_name="slide_files", verbose_name=_("session")
    )
    speaker = models.ForeignKey(
        Speaker, on_delete=models.CASCADE, related_name="slide_files", verbose_name=_("speaker")
    )
    name = models.CharField(max_length=200, verbose_name=_("stored name"))
    kind = models.CharField(max_length=20, verbose_name=_("kind"))
    content_type = models.CharField(max_length=120, verbose_name=_("content type"))
    filename = models.CharField(max_length=200, verbose_name=_("file name"))
    size = models.PositiveBigIntegerField(verbose_name=_("size"))
    pages = models.PositiveIntegerField(null=True, blank=True, verbose_name=_("pages"))
    thumbnail = models.CharField(max_length=200, blank=True, verbose_name=_("thumbnail"))
    uploaded_at = models.DateTimeField(auto_now_add=True, verbose_name=_("uploaded at"))
    uploaded_by = models.CharField(max_length=150, verbose_name=_("uploaded by"))

    class Meta:
        verbose_name = _("slides")
        verbose_name_plural = _("slides")
        ordering = ["session", "-uploaded_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["session", "name"], name="slides_once_per_session"),
        ]

    def __str__(self) -> str:
        return f"{self.filename} ({self.session_id})"


class SessionNote(models.Model):
    """What a speaker tells the organizers about a session (equipment, a co-speaker's name);
    seen by the team only."""

    session = models.ForeignKey(
        Session, on_delete=models.CASCADE, related_name="speaker_notes", verbose_name=_("session")
    )
    speaker = models.ForeignKey(
        Speaker, on_delete=models.CASCADE, related_name="session_notes", verbose_name=_("speaker")
    )
    text = models.TextField(max_length=4000, verbose_name=_("text"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))

    class Meta:
        verbose_name = _("note to the organizers")
        verbose_name_plural = _("notes to the organizers")
        constraints = [
            models.UniqueConstraint(fields=["session", "speaker"], name="one_note_per_speaker"),
        ]

    def __str__(self) -> str:
        return f"{self.speaker} on {self.session_id}"


class EditingRules(models.Model):
    """How an event takes its speakers' edits: live at once (the default) or after the team's
    review, and until when speakers may edit at all (none: always)."""

    event = models.OneToOneField(
        Event, on_delete=models.CASCADE, related_name="speaker_rules", verbose_name=_("event")
    )
    review = models.BooleanField(default=False, verbose_name=_("edits wait for review"))
    closes_at = models.DateTimeField(null=True, blank=True, verbose_name=_("editing closes at"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))
    updated_by = models.CharField(max_length=150, blank=True, verbose_name=_("updated by"))

    class Meta:
        verbose_name = _("speakers' editing rules")
        verbose_name_plural = _("speakers' editing rules")

    def __str__(self) -> str:
        return f"{self.event_id}: {'review' if self.review else 'live'}"


class ProposedChange(models.Model):
    """A speaker's edit waiting for the team's review (speakers/review.py): what they asked
    for (`values`) beside what was public when they asked (`before`), for the difference the
    team sees. Files it names are already stored; approving it writes it where pages read it.
    A newer proposal of the same thing replaces a pending one."""

    class Kind(models.TextChoices):
        PROFILE = "profile", _("profile")
        PHOTO = "photo", _("photo")
        SLIDES = "slides", _("slides")
        LINKS = "links", _("links")

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for review")
        APPROVED = "approved", _("approved")
        REJECTED = "rejected", _("rejected")
        REPLACED = "replaced", _("replaced by a newer one")

    speaker = models.ForeignKey(
        Speaker, on_delete=models.CASCADE, related_name="proposals", verbose_name=_("speaker")
    )
    session = models.ForeignKey(
        Session,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="proposals",
        verbose_name=_("session"),
    )
    kind = models.CharField(max_length=20, choices=Kind.choices, verbose_name=_("kind"))
    values = models.JSONField(default=dict, verbose_name=_("proposed values"))
    before = models.JSONField(default=dict, verbose_name=_("values when proposed"))
    status = models.CharField(
        max_length=20, choices=Status.choices, default=Status.PENDING, verbose_name=_("status")
    )
    proposed_at = models.DateTimeField(auto_now_add=True, verbose_name=_("proposed at"))
    proposed_by = models.CharField(max_length=150, verbose_name=_("proposed by"))
    decided_at = models.DateTimeField(null=True, blank=True, verbose_name=_("decided at"))
    decided_by = models.CharField(max_length=150, blank=True, verbose_name=_("decided by"))
    reason = models.TextField(max_length=2000, blank=True, verbose_name=_("reason"))

    class Meta:
        verbose_name = _("speaker's proposed change")
        verbose_name_plural = _("speakers' proposed changes")
        ordering = ["proposed_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["speaker", "kind"],
                condition=Q(status="pending", session__isnull=True),
                name="one_pending_speaker_change",
            ),
            models.UniqueConstraint(
                fields=["speaker", "session", "kind"],
                condition=Q(status="pending", session__isnull=False),
                name="one_pending_session_change",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.speaker} {self.kind} ({self.status})"
