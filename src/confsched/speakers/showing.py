"""What pages show of what speakers uploaded, beyond the programme's rows: the preview of a
session's slides (its first page), by the address the session lists them at, and a speaker's
photo as the squares made of it (sized for the place and the screen) rather than the JPEG that
`avatar_url` names for exports."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import prefetch_related_objects

from confsched.core import files
from confsched.programme.models import Session, Speaker
from confsched.speakers.models import SlideFile, SpeakerPhoto


def slide_previews(session: Session) -> dict[str, str]:
    """{stored name of the session's uploaded slides: its preview's address}; a link shows the
    preview of the name its address ends in (`preview_for`)."""
    return {
        slide.name: files.url(slide.thumbnail)
        for slide in SlideFile.objects.filter(session=session).exclude(thumbnail="")
    }


def preview_for(url: str, previews: dict[str, str]) -> str:
    return next((shown for name, shown in previews.items() if url.endswith("/" + name)), "")


# The squares every kept photo has (speakers/photos.py), in pixels, smallest first.
SQUARE_SIZES = (48, 96, 192, 400)


@dataclass(frozen=True)
class Picture:
    """How a page shows a speaker's picture at `size` CSS pixels: `src` for 1x screens and,
    when another file serves 2x screens better, `srcset`. `is_ours` when the files are the
    site's own squares (an imported picture is another site's, asked without a referrer)."""

    src: str
    srcset: str = ""
    is_ours: bool = False


def attach_photos(sessions: Iterable[Session]) -> None:
    """The photos of the sessions' speakers, in one query, for sessions read without them
    (programme/queries.py reads them with the speakers: then none)."""
    unread = [
        link.speaker
        for session in sessions
        for link in session.speaker_links.all()
        if not Speaker.photo.is_cached(link.speaker)  # type: ignore[attr-defined]  # reverse one-to-one
    ]
    prefetch_related_objects(unread, "photo")


def shown_photo(speaker: Speaker) -> SpeakerPhoto | None:
    """The speaker's uploaded photo when it is the picture pages show: the public `avatar_url`
    still names its JPEG (an organizer's file may have replaced it with theirs). Read with the
    speaker when the query selected it (select_related("photo")), else looked up."""
    try:
        photo = speaker.photo  # type: ignore[attr-defined]  # SpeakerPhoto's reverse one-to-one
    except SpeakerPhoto.DoesNotExist:
        return None
    return photo if _names_jpeg(speaker.avatar_url, photo.jpeg) else None


def _names_jpeg(avatar_url: str, jpeg: str | None) -> bool:
    return bool(avatar_url and jpeg and avatar_url.endswith(files.url(jpeg)))


def square_for(squares: dict[str, str], pixels: int) -> str:
    """The stored name of the smallest square at least `pixels` wide, else the largest."""
    sizes = sorted((int(size), name) for size, name in squares.items())
    return next((name for size, name in sizes if size >= pixels), sizes[-1][1] if sizes else "")


def picture(speaker: Speaker, size: int) -> Picture | None:
    """The speaker's picture at `size` CSS pixels: their uploaded photo's squares (the one for
    1x screens and, when it differs, the one for 2x), else the imported address, else None."""
    photo = shown_photo(speaker)
    if photo is not None and photo.squares:
        return squares_picture(photo.squares, size)
    return Picture(src=speaker.avatar_url) if speaker.avatar_url else None


def squares_picture(squares: dict[str, str], size: int) -> Picture:
    one, two = square_for(squares, size), square_for(squares, 2 * size)
    srcset = f"{files.url(one)} 1x, {files.url(two)} 2x" if two != one else ""
    return Picture(src=files.url(one), srcset=srcset, is_ours=True)


def picture_shown(
    avatar_url: str, *, small_square: str | None, jpeg: str | None
) -> tuple[str, str]:
    """What a card's small picture shows, from the columns a schedule's outline reads: the
    imported address and, when the uploaded photo is the one shown, its smallest square."""
    return (avatar_url, (small_square or "") if _names_jpeg(avatar_url, jpeg) else "")
