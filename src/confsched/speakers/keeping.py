"""What a speaker keeps: their profile, photo, slides, links and notes, written where pages and
exports read them.

Public values go into the programme's own rows through its door for speakers' writes
(programme/services/held.py): each change is a version in the change log and no later import
overwrites it. The files go to the store (core/files.py) under names made of their content,
before anything points at them: a refused or cut-off upload leaves the previous photo or slides
in place, and a file is never pointed at before it is whole.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db import transaction

from confsched.core import files
from confsched.interchange import programme as pm
from confsched.programme.models import Session, SessionLink, Speaker
from confsched.programme.services import set_session_links, set_speaker_fields
from confsched.speakers import photos
from confsched.speakers.models import SessionNote, SlideFile, SpeakerPhoto
from confsched.speakers.slides import check_slides
from confsched.speakers.thumbnails import ThumbnailError, pdf_thumbnail

PROFILE_FIELDS = ("name", "position", "company", "bio", "homepage", "links")


def absolute(url: str, base: str) -> str:
    """A stored file's address as exports need it: absolute (`base`, the site's address, before
    a path on this site), or as it is when the store gives one (a bucket's, a CDN's)."""
    if url.startswith("/"):
        return (settings.CONFSCHED_BASE_URL or base) + url
    return url


# An uploaded file's address ends in its stored name (core/files.py): how a session's link to
# uploaded slides is told from the links a speaker typed.
UPLOADED = re.compile(rf"/{files.SLIDES}/[0-9a-f]{{{files.DIGEST_LENGTH}}}\.[a-z]+$")


def save_profile(speaker: Speaker, values: dict[str, Any], *, by: str) -> bool:
    """The speaker's own name, position, company, bio, homepage and links; True when anything
    changed (a version names it)."""
    wanted = {field: values[field] for field in PROFILE_FIELDS if field in values}
    return set_speaker_fields(speaker, wanted, by=by) is not None


def keep_photo(
    speaker: Speaker, upload: Any, *, filename: str, focus: tuple[float, float], by: str,
    base: str,
) -> SpeakerPhoto:  # fmt: skip
    """Check and re-encode the upload (speakers/photos.py), store every size, then point the
    speaker at it. UploadError before anything is stored when the file is refused."""
    processed = photos.process_photo(upload, filename=filename, focus=focus)
    return _store_photo(speaker, processed, by=by, base=base)


def move_crop(
    speaker: Speaker, *, focus: tuple[float, float], by: str, base: str
) -> SpeakerPhoto | None:
    """The kept photo's square crop moved to `focus`, re-made from its stored original."""
    current = SpeakerPhoto.objects.filter(speaker=speaker).first()
    if current is None:
        return None
    if (current.focus_x, current.focus_y) == focus:
        return current
    with files.open_file(current.original).stream as stream:
        original = stream.read()
    return _store_photo(speaker, photos.recrop(original, focus=focus), by=by, base=base)


def _store_photo(
    speaker: Speaker, processed: photos.ProcessedPhoto, *, by: str, base: str
) -> SpeakerPhoto:
    def keep(rendition: photos.Rendition) -> str:
        return files.save(
            files.PHOTOS, rendition.data, rendition.content_type, filename=rendition.filename
        )

    original = keep(processed.original)
    squares = {str(size): keep(processed.squares[size]) for size in processed.sizes}
    jpeg = keep(processed.jpeg)
    with transaction.atomic():
        photo, _ = SpeakerPhoto.objects.update_or_create(
            speaker=speaker,
            defaults={
                "original": original, "squares": squares, "jpeg": jpeg,
                "width": processed.width, "height": processed.height,
                "focus_x": processed.focus[0], "focus_y": processed.focus[1], "uploaded_by": by,
            },
        )  # fmt: skip
        set_speaker_fields(speaker, {"avatar_url": absolute(files.url(jpeg), base)}, by=by)
    return photo


def remove_photo(speaker: Speaker, *, by: str) -> bool:
    with transaction.atomic():
        deleted, _ = SpeakerPhoto.objects.filter(speaker=speaker).delete()
        if deleted:
            set_speaker_fields(speaker, {"avatar_url": ""}, by=by)
    return bool(deleted)


def keep_slides(
    session: Session, speaker: Speaker, upload: Any, *, by: str, base: str
) -> SlideFile:
    """Check the file's bytes (speakers/slides.py), store it and its first page's preview,
    and list it on the session as its slides. UploadError before anything is stored."""
    checked = check_slides(upload, filename=getattr(upload, "name", ""), size=upload.size)
    upload.seek(0)
    name = files.save(files.SLIDES, upload, checked.content_type, filename=checked.filename)
    thumbnail = ""
    if checked.kind == "pdf":
        upload.seek(0)
        try:
            preview = pdf_thumbnail(upload)
        except ThumbnailError:  # the slides are fine; the page shows them without a preview
            preview = b""
        if preview:
            thumbnail = files.save(files.SLIDES, preview, "image/webp", filename="preview.webp")
    with transaction.atomic():
        slide, _ = SlideFile.objects.update_or_create(
            session=session, name=name,
            defaults={
                "speaker": speaker, "kind": checked.kind, "content_type": checked.content_type,
                "filename": checked.filename, "size": checked.size, "pages": checked.pages,
                "thumbnail": thumbnail, "uploaded_by": by,
            },
        )  # fmt: skip
        SlideFile.objects.filter(session=session).exclude(pk=slide.pk).delete()
        set_links(session, speaker, _kept_links(session, base=base), by=by)
    return slide


def remove_slides(session: Session, speaker: Speaker, *, by: str, base: str) -> bool:
    with transaction.atomic():
        deleted, _ = SlideFile.objects.filter(session=session).delete()
        if deleted:
            set_links(session, speaker, _kept_links(session, base=base), by=by)
    return bool(deleted)


def typed_links(session: Session) -> list[pm.SessionLink]:
    """The links the speaker typed for the session (not the uploaded slides')."""
    return [
        pm.SessionLink(url=link.url, title=link.title, kind=link.kind)
        for link in SessionLink.objects.filter(session=session).exclude(held_by="")
        if not UPLOADED.search(link.url)
    ]


def _kept_links(
    session: Session, typed: list[pm.SessionLink] | None = None, *, base: str
) -> list[pm.SessionLink]:
    """The speaker's links of the session: the uploaded slides' first, then the typed ones."""
    slides = SlideFile.objects.filter(session=session).first()
    links = typed_links(session) if typed is None else list(typed)
    if slides is not None:
        uploaded = absolute(files.url(slides.name), base)
        links.insert(0, pm.SessionLink(url=uploaded, title=slides.filename, kind=pm.SLIDES))
    return links


def set_links(session: Session, speaker: Speaker, links: list[pm.SessionLink], *, by: str) -> bool:
    return set_session_links(session, links, by=by) is not None


def save_links(
    session: Session, speaker: Speaker, typed: Iterable[pm.SessionLink], *, by: str, base: str
) -> bool:
    """The speaker's typed links of the session (recording, live stream, code, slides hosted
    elsewhere), beside the slides they uploaded; True when anything changed."""
    return set_links(session, speaker, _kept_links(session, list(typed), base=base), by=by)


def save_note(session: Session, speaker: Speaker, text: str) -> None:
    """The speaker's note to the organizers about the session ("" removes it)."""
    text = text.strip()
    if not text:
        SessionNote.objects.filter(session=session, speaker=speaker).delete()
        return
    SessionNote.objects.update_or_create(session=session, speaker=speaker, defaults={"text": text})
