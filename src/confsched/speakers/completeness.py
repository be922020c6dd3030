"""What a speaker's profile is missing, as attendees would see it.

A profile is complete when its public page has a photo, a bio, and a position or a company.
Each is read from the speaker's row, where pages and exports read it (whatever set it: the
organizers' import or the speaker): the photo is the row's picture address (`avatar_url`, an
upload writes its own there), the bio counts when it holds more than blanks, and a position
or a company is one item, because many speakers have only one of the two (a freelancer has no
company, a student no position). Name, homepage and links are never asked for: the name is
always there, and many speakers have no homepage or links to give.

What a speaker gave in an edit waiting for the team's review (speakers/review.py) is not
missing: the speaker did their part, and a reminder would ask them for it again.
"""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet
from django.utils.translation import gettext_lazy

from confsched.programme.models import Speaker
from confsched.speakers.models import ProposedChange

PHOTO, BIO, ROLE = "photo", "bio", "role"
# In the order pages and mails name them.
ITEMS = (PHOTO, BIO, ROLE)
_WORDS = {
    PHOTO: gettext_lazy("photo"),
    BIO: gettext_lazy("bio"),
    ROLE: gettext_lazy("position or company"),
}


_WAITING = "waiting_profile_edits"


def with_waiting_edits(speakers: QuerySet[Speaker]) -> QuerySet[Speaker]:
    """`speakers` with their edits of profile and photo waiting for review, for missing_items
    (one query for them all)."""
    waiting = ProposedChange.objects.filter(
        status=ProposedChange.Status.PENDING, session__isnull=True
    ).order_by("pk")
    return speakers.prefetch_related(Prefetch("proposals", queryset=waiting, to_attr=_WAITING))


def missing_items(speaker: Speaker) -> tuple[str, ...]:
    """The items (of ITEMS, in their order) the speaker's profile lacks; () when complete."""
    has = {
        PHOTO: bool(speaker.avatar_url.strip()),
        BIO: bool(speaker.bio.strip()),
        ROLE: bool(speaker.position.strip() or speaker.company.strip()),
    }
    missing = tuple(item for item in ITEMS if not has[item])
    if not missing:
        return ()
    given = _given_for_review(speaker)
    return tuple(item for item in missing if item not in given)


def _given_for_review(speaker: Speaker) -> set[str]:
    waiting = getattr(speaker, _WAITING, None)
    if waiting is None:
        waiting = ProposedChange.objects.filter(
            speaker=speaker, status=ProposedChange.Status.PENDING, session__isnull=True
        )
    given: set[str] = set()
    for change in waiting:
        values = change.values
        if change.kind == ProposedChange.Kind.PHOTO and values.get("jpeg"):
            given.add(PHOTO)
        elif change.kind == ProposedChange.Kind.PROFILE:
            if str(values.get("bio", "")).strip():
                given.add(BIO)
            if str(values.get("position", "")).strip() or str(values.get("company", "")).strip():
                given.add(ROLE)
    return given


def missing_words(items: tuple[str, ...] | list[str]) -> str:
    """The items named in the active language, as a list: "photo, bio"."""
    return ", ".join(str(_WORDS[item]) for item in items)
