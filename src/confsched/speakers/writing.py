"""Where a speaker's edit becomes public: each kind of edit (ProposedChange.Kind) written into
the rows pages and exports read, from values that name only stored files and checked text.

Both paths end here: an edit that goes live at once (speakers/keeping.py) and one the team
approves (speakers/review.py). Public values go through the programme's door for speakers'
writes (programme/services/held.py): a version in the change log names each change and no later
import overwrites it.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import transaction

from confsched.core import files
from confsched.interchange import programme as pm
from confsched.programme.models import Session, SessionLink, Speaker
from confsched.programme.services import set_session_links, set_speaker_fields
from confsched.speakers.models import ProposedChange, SlideFile, SpeakerPhoto

Kind = ProposedChange.Kind

PROFILE_FIELDS = ("name", "position", "company", "bio", "homepage", "links")
PHOTO_FIELDS = ("original", "squares", "jpeg", "width", "height", "focus_x", "focus_y")
SLIDE_FIELDS = ("name", "kind", "content_type", "filename", "size", "pages", "thumbnail")
REMOVE = "remove"


def absolute(url: str, base: str) -> str:
    """A stored file's address as exports need it: absolute (`base`, the site's address, before
    a path on this site), or as it is when the store gives one (a bucket's, a CDN's)."""
    if url.startswith("/"):
        return (settings.CONFSCHED_BASE_URL or base) + url
    return url


def write(
    kind: str, speaker: Speaker, session: Session | None, values: dict[str, Any], *, by: str,
    base: str,
) -> bool:  # fmt: skip
    """Make the edit public; True when anything public changed."""
    if kind == Kind.PROFILE:
        wanted = {field: values[field] for field in PROFILE_FIELDS if field in values}
        return set_speaker_fields(speaker, wanted, by=by) is not None
    if kind == Kind.PHOTO:
        return _write_photo(speaker, values, by=by, base=base)
    assert session is not None, f"a {kind} edit is of a session"
    if kind == Kind.SLIDES:
        return _write_slides(session, speaker, values, by=by, base=base)
    typed = [pm.SessionLink(**link) for link in values["links"]]
    return set_links(session, kept_links(session, typed, base=base), by=by)


@transaction.atomic
def _write_photo(speaker: Speaker, values: dict[str, Any], *, by: str, base: str) -> bool:
    if values.get(REMOVE):
        deleted, _ = SpeakerPhoto.objects.filter(speaker=speaker).delete()
        if deleted:
            set_speaker_fields(speaker, {"avatar_url": ""}, by=by)
        return bool(deleted)
    fields = {field: values[field] for field in PHOTO_FIELDS}
    SpeakerPhoto.objects.update_or_create(speaker=speaker, defaults={**fields, "uploaded_by": by})
    set_speaker_fields(speaker, {"avatar_url": absolute(files.url(values["jpeg"]), base)}, by=by)
    return True


@transaction.atomic
def _write_slides(
    session: Session, speaker: Speaker, values: dict[str, Any], *, by: str, base: str
) -> bool:
    if values.get(REMOVE):
        deleted, _ = SlideFile.objects.filter(session=session).delete()
        if deleted:
            set_links(session, kept_links(session, base=base), by=by)
        return bool(deleted)
    fields = {field: values[field] for field in SLIDE_FIELDS if field != "name"}
    slide, _ = SlideFile.objects.update_or_create(
        session=session, name=values["name"],
        defaults={**fields, "speaker": speaker, "uploaded_by": by},
    )  # fmt: skip
    SlideFile.objects.filter(session=session).exclude(pk=slide.pk).delete()
    set_links(session, kept_links(session, base=base), by=by)
    return True


def typed_links(session: Session) -> list[pm.SessionLink]:
    """The links speakers typed for the session (not the uploaded slides')."""
    return [
        pm.SessionLink(url=link.url, title=link.title, kind=link.kind)
        for link in SessionLink.objects.filter(session=session).exclude(held_by="")
        if not files.is_uploaded_slides(link.url)
    ]


def kept_links(
    session: Session, typed: list[pm.SessionLink] | None = None, *, base: str
) -> list[pm.SessionLink]:
    """The speakers' links of the session: the uploaded slides' first, then the typed ones."""
    slides = SlideFile.objects.filter(session=session).first()
    links = typed_links(session) if typed is None else list(typed)
    if slides is not None:
        uploaded = absolute(files.url(slides.name), base)
        links.insert(0, pm.SessionLink(url=uploaded, title=slides.filename, kind=pm.SLIDES))
    return links


def set_links(session: Session, links: list[pm.SessionLink], *, by: str) -> bool:
    return set_session_links(session, links, by=by) is not None


def public_values(kind: str, speaker: Speaker, session: Session | None) -> dict[str, Any]:
    """What is public now of what an edit of `kind` changes: the other side of a difference."""
    if kind == Kind.PROFILE:
        return {field: getattr(speaker, field) for field in PROFILE_FIELDS}
    if kind == Kind.PHOTO:
        photo = SpeakerPhoto.objects.filter(speaker=speaker).first()
        return {field: getattr(photo, field) for field in PHOTO_FIELDS} if photo else {}
    assert session is not None, f"a {kind} edit is of a session"
    if kind == Kind.SLIDES:
        slide = SlideFile.objects.filter(session=session).first()
        return {field: getattr(slide, field) for field in SLIDE_FIELDS} if slide else {}
    return {"links": [link_dict(link) for link in typed_links(session)]}


def link_dict(link: pm.SessionLink) -> dict[str, str]:
    return {"url": link.url, "title": link.title, "kind": link.kind}
