"""The schedule editor: the draft's programme as a grid of rooms × time per day, the sessions
waiting for a slot, and per session a plain form (day, start, end or length, room) that checks
before it saves: "Check" shows the problems, nothing saved; "Save" shows them first and asks
"Save anyway"; "Unschedule" takes the session off the grid. A form adds a session.

Without JavaScript it is all plain forms answered by a redirect (PRG); bad input answers 400
with the page and what was wrong, where. With JavaScript (staff/static/confsched/editor.js) a
card dragged onto another room or time asks for the check as a fragment (HX-Request), shown in
place with the buttons to save; saving is the same form.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import date, datetime, time, timedelta
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.http import urlencode
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from confsched.core.errors import DraftError
from confsched.core.numbers import parse_count
from confsched.core.text import shortened
from confsched.programme.clashes import Problem
from confsched.programme.layout import NO_ROOM, grid_days
from confsched.programme.models import Event, Room, Session
from confsched.programme.services import draft_for
from confsched.programme.services.editing import (
    add_session,
    move_session,
    placement_problems,
    session_problems,
    unschedule,
)
from confsched.teams.rights import Right
from confsched.web.site.doors import event_for
from confsched.web.site.pages import event_page

LONGEST_MINUTES = 24 * 60
_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
_TIME = re.compile(r"\d{1,2}:\d{2}")


class EditError(Exception):
    """Bad input in the editor's forms: said on the page, answered with a 400."""


@dataclass
class Placement:
    """What a session form holds, as typed (to show it again), and what it means."""

    key: str = ""
    day: str = ""
    start: str = ""
    end: str = ""
    minutes: str = ""
    room: str = ""
    starts_at: datetime | None = None
    ends_at: datetime | None = None
    problems: list[Problem] = field(default_factory=list)

    @classmethod
    def posted(cls, data: Any) -> Placement:
        return cls(**{name: data.get(name, "").strip() for name in
                      ("key", "day", "start", "end", "minutes", "room")})  # fmt: skip

    def shown(self) -> Placement:
        """For a form's date and time inputs again: a value they cannot hold (the page says
        what was typed) left empty, so that the page stays valid HTML."""
        return replace(
            self, day=self.day if _is(_DAY, self.day, date) else "",
            start=self.start if _is(_TIME, self.start, time) else "",
            end=self.end if _is(_TIME, self.end, time) else "",
            minutes=self.minutes if _minutes(self.minutes) is not None else "",
        )  # fmt: skip

    @classmethod
    def of(cls, row: Session, zone: Any) -> Placement:
        if row.starts_at is None:
            return cls(key=row.key, room=row.room.name if row.room else "")
        start = row.starts_at.astimezone(zone)
        end = (row.ends_at or row.starts_at).astimezone(zone)
        return cls(
            key=row.key, day=f"{start:%Y-%m-%d}", start=f"{start:%H:%M}", end=f"{end:%H:%M}",
            minutes=str(int((end - start).total_seconds() // 60)),
            room=row.room.name if row.room else "",
        )  # fmt: skip


def _minutes(text: str) -> int | None:
    return parse_count(text, most=LONGEST_MINUTES)


def _is(pattern: re.Pattern[str], text: str, kind: type[date] | type[time]) -> bool:
    try:
        return bool(pattern.fullmatch(text)) and bool(kind.fromisoformat(text.zfill(5)))
    except ValueError:
        return False


def _date(text: str) -> date:
    try:
        if not _DAY.fullmatch(text):
            raise ValueError(text)
        return date.fromisoformat(text)
    except ValueError:
        raise EditError(_("The day “%(text)s” is not a date (year-month-day, such as "
                          "2026-04-07).") % {"text": shortened(text)}) from None  # fmt: skip


def _time(text: str, *, is_end: bool = False) -> time:
    try:
        if not _TIME.fullmatch(text):
            raise ValueError(text)
        return time.fromisoformat(text.zfill(5))
    except ValueError:
        if is_end:
            words = _("The end time “%(text)s” is not a time (hours:minutes, such as 09:30).")
        else:
            words = _("The start time “%(text)s” is not a time (hours:minutes, such as 09:30).")
        raise EditError(words % {"text": shortened(text)}) from None


def _times(form: Placement, zone: Any) -> None:
    """Read the form's day, start and end (or length) in the event's zone into its datetimes."""
    if not form.day or not form.start:
        raise EditError(_("Give a day and a start time."))
    day = _date(form.day)
    starts_at = datetime.combine(day, _time(form.start), tzinfo=zone)
    if form.end:
        end = _time(form.end, is_end=True)
        ends_at = datetime.combine(day, end, tzinfo=zone)
        if ends_at < starts_at:
            raise EditError(_("It would end (%(end)s) before it starts (%(start)s): give an end "
                              "after the start, or a length.")
                            % {"end": form.end, "start": form.start})  # fmt: skip
    elif form.minutes:
        minutes = _minutes(form.minutes)
        if minutes is None:
            words = _("The length “%(text)s” is not a number of minutes from 0 to %(most)s.")
            raise EditError(words % {"text": shortened(form.minutes), "most": LONGEST_MINUTES})
        ends_at = starts_at + timedelta(minutes=minutes)
    else:
        raise EditError(_("Give an end time or a length."))
    form.starts_at, form.ends_at = starts_at, ends_at


def _room(form: Placement, rooms: list[Room]) -> None:
    if form.room and form.room not in {room.name for room in rooms}:
        raise EditError(_("There is no room “%(room)s” in this event: choose one of the "
                          "list.") % {"room": form.room})  # fmt: skip


def _session(draft: Event, key: str) -> Session:
    row = Session.objects.select_related("room").filter(event=draft, key=key).first()
    if row is None:
        raise EditError(_("The draft has no session “%(key)s”: it may have been removed; "
                          "reload the editor.") % {"key": key})  # fmt: skip
    return row


def _new_key(draft: Event, title: str) -> str:
    base = slugify(title)[:80].strip("-") or "session"
    taken = set(
        Session.objects.filter(event=draft, key__startswith=base).values_list("key", flat=True)
    )
    key, number = base, 2
    while key in taken:
        key, number = f"{base}-{number}", number + 1
    return key


@dataclass
class Outcome:
    """What a POST led to: a place to go back to, or a page to show (a check's problems)."""

    go: str = ""
    form: Placement | None = None
    checked: bool = False


def _act(request: HttpRequest, draft: Event, rooms: list[Room]) -> Outcome:
    action = request.POST.get("action", "")
    editor = request.user.get_username()
    zone = draft.zone
    if action == "add":
        title = " ".join(request.POST.get("title", "").split())
        if not title:
            raise EditError(_("A new session needs a title."))
        form = Placement.posted(request.POST)
        if form.day or form.start or form.end or form.minutes:
            _times(form, zone)
        _room(form, rooms)
        key = _new_key(draft, title)
        add_session(draft, key=key, title=title, kind=request.POST.get("kind", "").strip(),
                    room=form.room, starts_at=form.starts_at, ends_at=form.ends_at,
                    editor=editor)  # fmt: skip
        return Outcome(go=urlencode({"done": "added", "session": key}))
    if action not in ("check", "save", "unschedule"):
        raise EditError(_("No action “%(action)s”: check, save, unschedule or add.")
                        % {"action": action})  # fmt: skip
    form = Placement.posted(request.POST)
    row = _session(draft, form.key)
    if action == "unschedule":
        unschedule(draft, row.key, editor=editor)
        return Outcome(go=urlencode({"done": "unscheduled", "session": row.key}))
    _times(form, zone)
    _room(form, rooms)
    assert form.starts_at is not None and form.ends_at is not None  # noqa: S101 - _times set them
    where = {"room": form.room, "starts_at": form.starts_at, "ends_at": form.ends_at}
    if action == "check" or request.POST.get("confirm") != "yes":
        form.problems = placement_problems(draft, row.key, **where)
        if action == "check" or form.problems:
            return Outcome(form=form, checked=True)
    move_session(draft, row.key, editor=editor, **where)
    return Outcome(go=urlencode({"done": "saved", "session": row.key}))


def _done(code: str) -> str:
    return {
        "saved": _("Saved in the draft."),
        "unscheduled": _("Taken off the grid: it waits for a slot."),
        "added": _("Added to the draft."),
    }.get(code, "")


def _grid(draft: Event, rooms: list[Room]) -> tuple[list[Any], list[Session]]:
    rows = list(
        Session.objects.filter(event=draft)
        .select_related("room")
        .prefetch_related("speakers")
        .order_by("starts_at", "room__position", "title", "key")
    )
    placed = [row for row in rows if row.starts_at is not None]
    waiting = [row for row in rows if row.starts_at is None]
    days = grid_days(placed, draft.zone, rooms=rooms)
    for grid_day in days:
        for row in grid_day.rows:
            row.editor_cells = [  # type: ignore[attr-defined]
                (cell, "" if column == NO_ROOM else column)
                for cell, column in zip(row.cells, grid_day.columns, strict=True)
            ]
    for session in rows:
        if session.starts_at is not None:
            end = session.ends_at or session.starts_at
            session.minutes = int((end - session.starts_at).total_seconds() // 60)  # type: ignore[attr-defined]
    return days, waiting


def _added(request: HttpRequest) -> dict[str, str]:
    """The add form's fields as sent, to show again after a refusal."""
    if request.POST.get("action") != "add":
        return {}
    shown = Placement.posted(request.POST).shown()
    return {
        "title": request.POST.get("title", ""), "kind": request.POST.get("kind", ""),
        "day": shown.day, "start": shown.start, "end": shown.end, "room": shown.room,
    }  # fmt: skip


@require_http_methods(["GET", "HEAD", "POST"])
def editor(request: HttpRequest, event: str) -> HttpResponse:
    found = event_for(request, event, need=Right.PROGRAMME)
    if isinstance(found, HttpResponse):
        return found
    draft = draft_for(found)
    here = reverse("web:draft_editor", kwargs={"event": found.slug})
    rooms = list(Room.objects.filter(event=draft).order_by("position", "name")) if draft else []
    problem, status = "", 200
    form: Placement | None = None
    checked = False
    fragment = bool(request.headers.get("HX-Request")) and request.method == "POST"
    try:
        if request.method == "POST":
            if draft is None:
                raise EditError(_("There is no draft to edit: start one first."))
            try:
                outcome = _act(request, draft, rooms)
            except DraftError as exc:
                raise EditError(str(exc)) from exc
            if outcome.go:
                return redirect(f"{here}?{outcome.go}")
            form, checked = outcome.form, outcome.checked
        elif draft is not None and (key := request.GET.get("session", "")):
            row = _session(draft, key)
            form = Placement.of(row, draft.zone)
            form.problems = session_problems(draft, key)
    except EditError as exc:
        problem, status = str(exc), 400
        if request.method == "POST" and request.POST.get("action") != "add":
            form = Placement.posted(request.POST).shown()
    selected = None
    if draft is not None and form is not None and form.key:
        selected = Session.objects.filter(event=draft, key=form.key).first()
    context = {
        "draft": draft, "rooms": rooms, "problem": problem, "form": form, "checked": checked,
        "selected": selected, "done": _done(request.GET.get("done", "")), "editor_url": here,
        "zone": found.zone, "added": _added(request) if problem else {},
    }  # fmt: skip
    if fragment:
        context["event"] = found
        response = render(request, "confsched/_editor_check.html", context, status=status)
    else:
        days, waiting = _grid(draft, rooms) if draft else ([], [])
        response = event_page(request, "confsched/editor.html", event=found, status=status,
                              grid=days, waiting=waiting, **context)  # fmt: skip
    patch_cache_control(response, private=True, no_store=True)
    return response
