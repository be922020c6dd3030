"""A speaker's own data, for "download my data": every speaker page the account keeps, with
what was set there and where each uploaded file is (its address: the files themselves are
served at it)."""

from __future__ import annotations

from typing import Any

from confsched.core import files
from confsched.programme.models import Session, Speaker
from confsched.speakers.models import (
    PhotoUpload,
    ProposedChange,
    SessionNote,
    SlideFile,
    SpeakerPhoto,
)
from confsched.speakers.passes import speakers_of
from confsched.speakers.writing import absolute, typed_links

# The values of a proposal that name stored files, given as their addresses.
_FILE_VALUES = ("original", "jpeg", "name", "thumbnail")


def speaker_data(user: Any, *, base: str) -> list[dict[str, Any]]:
    return [_page(speaker, base) for speaker in speakers_of(user)]


def _page(speaker: Speaker, base: str) -> dict[str, Any]:
    photo = SpeakerPhoto.objects.filter(speaker=speaker).first()
    sessions = Session.objects.filter(speaker_links__speaker=speaker).order_by("key")
    return {
        "event": speaker.event.slug, "key": speaker.key, "name": speaker.name,
        "position": speaker.position, "company": speaker.company, "bio": speaker.bio,
        "homepage": speaker.homepage, "links": speaker.links,
        "photo": _photo(photo, base) if photo else None,
        "sessions": [_session(session, speaker, base) for session in sessions],
        "proposed_changes": [
            _proposal(change, base)
            for change in ProposedChange.objects.filter(speaker=speaker).select_related("session")
        ],
        "photos_being_prepared": [
            _being_prepared(upload) for upload in PhotoUpload.objects.filter(speaker=speaker)
        ],
    }  # fmt: skip


def _being_prepared(upload: PhotoUpload) -> dict[str, Any]:
    """A photo the worker has not made yet, or that failed: what was sent and what became of
    it. The file as sent has no address (it is never served) and is deleted once prepared."""
    return {
        "kind": upload.kind, "file_name": upload.filename, "state": upload.state,
        "sent_at": upload.created_at.isoformat(), "focus": [upload.focus_x, upload.focus_y],
        "reason": upload.error,
    }  # fmt: skip


def _proposal(change: ProposedChange, base: str) -> dict[str, Any]:
    """An edit the speaker made under review, with what became of it."""
    values = dict(change.values)
    for field in _FILE_VALUES:
        if values.get(field):
            values[field] = absolute(files.url(values[field]), base)
    if isinstance(values.get("squares"), dict):
        values["squares"] = {
            size: absolute(files.url(name), base) for size, name in values["squares"].items()
        }
    return {
        "kind": change.kind, "session": change.session.key if change.session else None,
        "status": change.status, "proposed_at": change.proposed_at.isoformat(),
        "values": values, "reason": change.reason,
    }  # fmt: skip


def _photo(photo: SpeakerPhoto, base: str) -> dict[str, Any]:
    squares = {size: absolute(files.url(name), base) for size, name in photo.squares.items()}
    return {
        "original": absolute(files.url(photo.original), base),
        "squares": squares,
        "focus": [photo.focus_x, photo.focus_y],
    }


def _session(session: Session, speaker: Speaker, base: str) -> dict[str, Any]:
    slides = SlideFile.objects.filter(session=session).first()
    note = SessionNote.objects.filter(session=session, speaker=speaker).first()
    links = [{"url": x.url, "title": x.title, "kind": x.kind} for x in typed_links(session)]
    return {
        "key": session.key,
        "title": session.title,
        "slides": _slides(slides, base) if slides else None,
        "links": links,
        "note_to_organizers": note.text if note else "",
    }


def _slides(slides: SlideFile, base: str) -> dict[str, Any]:
    return {
        "file_name": slides.filename,
        "kind": slides.kind,
        "size": slides.size,
        "url": absolute(files.url(slides.name), base),
    }
