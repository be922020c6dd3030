"""What pages show of what speakers uploaded, beyond the programme's rows: the preview of a
session's slides (its first page), by the address the session lists them at."""

from __future__ import annotations

from confsched.core import files
from confsched.programme.models import Session
from confsched.speakers.models import SlideFile


def slide_previews(session: Session) -> dict[str, str]:
    """{stored name of the session's uploaded slides: its preview's address}; a link shows the
    preview of the name its address ends in (`preview_for`)."""
    return {
        slide.name: files.url(slide.thumbnail)
        for slide in SlideFile.objects.filter(session=session).exclude(thumbnail="")
    }


def preview_for(url: str, previews: dict[str, str]) -> str:
    return next((shown for name, shown in previews.items() if url.endswith("/" + name)), "")
