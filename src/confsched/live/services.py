"""Writes of the live state: announcements made and ended (at the end), and the rooms' live
state: a room marked full or open by hand, and full by check-ins.

Nothing here touches the programme: the event's version (Event.updated_at) stays, so the
schedule's cached pages stay the same for everyone; only the stamp of the room states moves
(queries.states_stamp), once the write is committed.

Full by check-ins: when an admission at the door makes the checked-in count of a session that
has not ended reach its room's capacity (a capacity of None is unknown: never full by itself),
the room turns full until that session ends. It happens at the count's reaching, once per
session: a room opened by hand after that stays open for the rest of that session's check-ins,
until someone marks it again or the next session's check-ins reach the capacity.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext

from confsched.core import clock
from confsched.live.announcing import AnnouncementError, check_end, check_link, clean_texts
from confsched.live.models import Announcement, How, RoomStatus
from confsched.live.queries import news_key, stamp_key
from confsched.programme.models import Event, Room, Session
from confsched.push.services import notify_announcement


def _moved(event_id: int) -> None:
    transaction.on_commit(lambda: cache.set(stamp_key(event_id), uuid.uuid4().hex, None))


@transaction.atomic
def mark_room(room: Room, *, is_full: bool, by: Any = None) -> RoomStatus:
    """Say by hand that `room` is full, or open again (by `by`, a user or None)."""
    now = clock.now()
    row = RoomStatus.objects.select_for_update().filter(room=room).first()
    # Opened while full by a session's check-ins: that session's check-ins do not fill it again.
    overruled = (
        row.session_id
        if row is not None and not is_full and row.how == How.CHECKINS and row.is_full_at(now)
        else None
    )
    status, _ = RoomStatus.objects.update_or_create(
        room=room,
        defaults={
            "is_full": is_full, "how": How.HAND, "session_id": overruled, "until": None,
            "changed_at": now, "changed_by": by,
        },
    )  # fmt: skip
    _moved(room.event_id)
    return status


def note_check_in(session: Session, *, checked_in: int, now: datetime) -> bool:
    """After an admission to `session` (inside its transaction): fill its room when the count
    has just reached the room's capacity; whether it did."""
    if session.room_id is None or session.ends_at is None or now >= session.ends_at:
        return False
    capacity = Room.objects.filter(pk=session.room_id).values_list("capacity", flat=True).first()
    if capacity is None or checked_in != capacity:
        return False
    row = RoomStatus.objects.select_for_update().filter(room_id=session.room_id).first()
    if row is not None and row.how == How.HAND:
        if row.is_full or row.session_id == session.pk:
            return False  # full by hand already, or opened by hand against this session's count
    RoomStatus.objects.update_or_create(
        room_id=session.room_id,
        defaults={
            "is_full": True, "how": How.CHECKINS, "session": session, "until": session.ends_at,
            "changed_at": now, "changed_by": None,
        },
    )  # fmt: skip
    _moved(session.event_id)
    return True


def _news_moved(event_id: int) -> None:
    transaction.on_commit(lambda: cache.set(news_key(event_id), uuid.uuid4().hex, None))


@transaction.atomic
def announce(
    event: Event, *, texts: dict[str, str], link: str = "", ends_at: datetime | None = None,
    by: Any = None,
) -> Announcement:  # fmt: skip
    """Announce `texts` ({language: text}, the event's default language required) at `event`
    until `ends_at` (None: until ended): shown on its pages, its feed, and pushed once
    committed to every device turned on. Nothing is written when any part is refused."""
    now = clock.now()
    cleaned = clean_texts(texts, offered=event.offered_languages, default=event.default_language)
    link = check_link(link)
    check_end(ends_at, now=now)
    row = Announcement.objects.create(
        event=event, texts=cleaned, link=link, created_at=now, ends_at=ends_at, created_by=by
    )
    _news_moved(event.pk)
    # A push opens a page of the site: the link when it is one, else the now page (it shows
    # the announcement under every language).
    opens = link if link.startswith("/") else reverse("web:now", kwargs={"event": event.slug})
    transaction.on_commit(lambda: notify_announcement(event, cleaned, opens))
    return row


@transaction.atomic
def end_announcement(announcement: Announcement, *, by: Any = None) -> Announcement:
    """End `announcement` now (its banner goes); one that has ended already is refused."""
    now = clock.now()
    row = Announcement.objects.select_for_update().get(pk=announcement.pk)
    if row.ends_at is not None and row.ends_at <= now:
        raise AnnouncementError(gettext("This announcement has ended already."))
    row.ends_at, row.ended_by = now, by
    row.save(update_fields=["ends_at", "ended_by"])
    _news_moved(row.event_id)
    return row
