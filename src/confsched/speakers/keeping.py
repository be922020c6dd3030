"""What a speaker keeps: their profile, photo, slides, links and notes.

Each edit is checked first (text through the programme's rules, files through
speakers/photos.py and speakers/slides.py) and refused with nothing written once the event's
editing has closed. Files go to the store (core/files.py) under names made of their content
before anything points at them: a refused or cut-off upload leaves the previous photo or slides
in place, and a file is never pointed at before it is whole. Then the event's rules decide
(speakers/review.py): the edit goes live at once (speakers/writing.py) or waits for the team's
review. Each function answers review.LIVE, review.WAITING or review.UNCHANGED, except a new
photo and a moved square, which answer review.PREPARING: the request checks only what needs no
decoding and stores the upload as sent, privately; the worker re-encodes it and then takes it
the same way (speakers/photo_uploads.py), so the photo before stays until then.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction

from confsched.core import files
from confsched.interchange import programme as pm
from confsched.programme.models import Session, Speaker
from confsched.programme.services import clean_links, clean_speaker_values
from confsched.speakers import photo_uploads, photos, review, writing
from confsched.speakers.models import ProposedChange, SessionNote, SlideFile
from confsched.speakers.previews import queue_preview
from confsched.speakers.slides import check_slides

Kind = ProposedChange.Kind


def save_profile(speaker: Speaker, values: dict[str, Any], *, by: str) -> str:
    """The speaker's own name, position, company, bio, homepage and links."""
    review.check_open(speaker.event)
    wanted = {field: values[field] for field in writing.PROFILE_FIELDS if field in values}
    return review.take(Kind.PROFILE, speaker, clean_speaker_values(wanted), by=by, base="")


def keep_photo(
    speaker: Speaker, upload: Any, *, filename: str, focus: tuple[float, float], by: str,
    base: str,
) -> str:  # fmt: skip
    """Check what needs no decoding (photos.check_upload: UploadError at once, with nothing
    stored, when the file is refused), keep the upload as sent and queue its re-encoding."""
    review.check_open(speaker.event)
    focus = photos.checked_focus(focus)
    checked = photos.check_upload(upload, filename=filename)
    return photo_uploads.receive(speaker, checked, filename=filename, focus=focus, by=by, base=base)


def move_crop(speaker: Speaker, *, focus: tuple[float, float], by: str, base: str) -> str:
    """The photo's square moved to `focus`, cut again by the worker from its stored original
    (the one waiting for review, if any, else the public one; or the photo still being
    prepared, prepared again around `focus`)."""
    review.check_open(speaker.event)
    focus = photos.checked_focus(focus)
    return photo_uploads.move_square(speaker, focus=focus, by=by, base=base)


def remove_photo(speaker: Speaker, *, by: str) -> str:
    """No photo (under review, once approved); a new photo still being prepared is dropped."""
    review.check_open(speaker.event)
    with transaction.atomic():
        photo_uploads.drop(speaker)
        return review.take(Kind.PHOTO, speaker, {writing.REMOVE: True}, by=by, base="")


def keep_slides(session: Session, speaker: Speaker, upload: Any, *, by: str, base: str) -> str:
    """Check the file's bytes (speakers/slides.py), store it, list it on the session as its
    slides and ask the worker for a PDF's first-page preview. UploadError before anything is
    stored."""
    review.check_open(speaker.event)
    checked = check_slides(upload, filename=getattr(upload, "name", ""), size=upload.size)
    upload.seek(0)
    name = files.save(files.SLIDES, upload, checked.content_type, filename=checked.filename)
    values = {
        "name": name, "kind": checked.kind, "content_type": checked.content_type,
        "filename": checked.filename, "size": checked.size, "pages": checked.pages,
        "thumbnail": _known_preview(name),
    }  # fmt: skip
    outcome = review.take(Kind.SLIDES, speaker, values, session=session, by=by, base=base)
    if checked.kind == "pdf" and not values["thumbnail"] and outcome != review.UNCHANGED:
        queue_preview(name)  # made by the worker (speakers/previews.py), once this commits
    return outcome


def _known_preview(name: str) -> str:
    """The preview made already for the same file (the same bytes uploaded again)."""
    return (
        SlideFile.objects.filter(name=name).exclude(thumbnail="")
        .values_list("thumbnail", flat=True).first() or ""
    )  # fmt: skip


def remove_slides(session: Session, speaker: Speaker, *, by: str, base: str) -> str:
    values = {writing.REMOVE: True}
    return review.take(Kind.SLIDES, speaker, values, session=session, by=by, base=base)


def typed_links(session: Session, speaker: Speaker | None = None) -> list[pm.SessionLink]:
    """The links typed for the session: those waiting for review from `speaker`, if any, else
    the public ones (not the uploaded slides')."""
    waiting = review.waiting_for(speaker, session).get(Kind.LINKS) if speaker else None
    if waiting is not None:
        return [pm.SessionLink(**link) for link in waiting.values["links"]]
    return writing.typed_links(session)


def save_links(
    session: Session, speaker: Speaker, typed: Iterable[pm.SessionLink], *, by: str, base: str
) -> str:
    """The speaker's typed links of the session (recording, live stream, code, slides hosted
    elsewhere), beside the slides they uploaded."""
    review.check_open(speaker.event)
    links = [writing.link_dict(link) for link in clean_links(list(typed))]
    return review.take(Kind.LINKS, speaker, {"links": links}, session=session, by=by, base=base)


def save_note(session: Session, speaker: Speaker, text: str) -> None:
    """The speaker's note to the organizers about the session ("" removes it); for the team
    only, so it needs no review."""
    review.check_open(speaker.event)
    text = text.strip()
    if not text:
        SessionNote.objects.filter(session=session, speaker=speaker).delete()
        return
    SessionNote.objects.update_or_create(session=session, speaker=speaker, defaults={"text": text})
