"""A speaker's proposed change as the team's review queue shows it: what is public now beside
what the speaker asks for, field by field; text compared word by word (difflib), links as
those taken away and those added, photos and slides as the files on each side."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from confsched.core import files
from confsched.speakers import writing
from confsched.speakers.models import ProposedChange

Kind = ProposedChange.Kind

LABELS: dict[str, Promise] = {
    "name": _("Name"), "position": _("Position"), "company": _("Company"), "bio": _("Bio"),
    "homepage": _("Homepage"), "links": _("Links"),
}  # fmt: skip
_WORDS = re.compile(r"\S+\s*|\s+")


@dataclass(frozen=True)
class Piece:
    """A run of text: "same", "del" (taken away) or "ins" (added)."""

    op: str
    text: str


@dataclass(frozen=True)
class Difference:
    label: str
    pieces: tuple[Piece, ...] = ()  # a text field, word by word
    removed: tuple[str, ...] = ()  # links: the addresses taken away
    added: tuple[str, ...] = ()  # and those added
    files: dict[str, Any] = field(default_factory=dict)  # photos, slides: "before", "after"


def words(before: str, after: str) -> tuple[Piece, ...]:
    """`before` turned into `after`, word by word (each word with the spaces after it)."""
    old, new = _WORDS.findall(before or ""), _WORDS.findall(after or "")
    pieces: list[Piece] = []
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    for op, a1, a2, b1, b2 in matcher.get_opcodes():
        if op == "equal":
            pieces.append(Piece("same", "".join(old[a1:a2])))
            continue
        if a2 > a1:
            pieces.append(Piece("del", "".join(old[a1:a2])))
        if b2 > b1:
            pieces.append(Piece("ins", "".join(new[b1:b2])))
    return tuple(pieces)


def _addresses(links: Any) -> list[str]:  # noqa: ANN401 - JSON from the rows
    return [link.get("url", "") for link in links or []]


def _link_difference(label: str, before: Any, after: Any) -> Difference:  # noqa: ANN401
    old, new = _addresses(before), _addresses(after)
    return Difference(
        label=label,
        removed=tuple(url for url in old if url not in new),
        added=tuple(url for url in new if url not in old),
    )


def differences(change: ProposedChange, public: dict[str, Any]) -> list[Difference]:
    """What approving `change` would change, against `public` (writing.public_values now)."""
    values = change.values
    if change.kind == Kind.PROFILE:
        found = []
        for name, value in values.items():
            label = str(LABELS.get(name, name))
            if name == "links":
                found.append(_link_difference(label, public.get(name), value))
            elif public.get(name) != value:
                found.append(Difference(label=label, pieces=words(public.get(name, ""), value)))
        return found
    if change.kind == Kind.LINKS:
        return [_link_difference(str(LABELS["links"]), public.get("links"), values["links"])]
    if change.kind == Kind.PHOTO:
        return [Difference(label=str(_("Photo")), files={
            "before": _square(public.get("squares")),
            "after": None if values.get(writing.REMOVE) else _square(values.get("squares")),
        })]  # fmt: skip
    return [Difference(label=str(_("Slides")), files={
        "before": slides_shown(public),
        "after": None if values.get(writing.REMOVE) else slides_shown(values),
    })]  # fmt: skip


def _square(squares: dict[str, str] | None) -> str | None:
    """The 96 px square's address (the queue shows photos at that size), or the nearest."""
    if not squares:
        return None
    size = min((int(size) for size in squares), key=lambda size: abs(size - 96))
    return files.url(squares[str(size)])


def slides_shown(values: dict[str, Any]) -> dict[str, Any] | None:
    """Slides as pages show them, from a SlideFile's values (writing.SLIDE_FIELDS): None for
    none or a removal."""
    if not values.get("name") or values.get(writing.REMOVE):
        return None
    return {
        "filename": values["filename"], "size": values["size"], "pages": values.get("pages"),
        "url": files.url(values["name"]),
        "thumbnail_url": files.url(values["thumbnail"]) if values.get("thumbnail") else "",
    }  # fmt: skip
