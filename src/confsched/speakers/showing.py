"""What pages show of what speakers uploaded, beyond the programme's rows: the preview of a
session's slides (its first page), by the address the session lists them at."""

from __future__ import annotations

from confsched.core import files
from confsched.programme.models import Session
from confsched.speakers.keeping import absolute
from confsched.speakers.models import SlideFile


def slide_previews(session: Session) -> dict[str, str]:
    """{slides' address as listed: its preview's address} for the session's uploaded slides."""
    return {
        absolute(files.url(slide.name)): files.url(slide.thumbnail)
        for slide in SlideFile.objects.filter(session=session).exclude(thumbnail="")
    }
