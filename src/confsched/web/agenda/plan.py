"""The clash-free planner page: what I care about in, a proposed agenda beside my stars out.

Personal (the stars) and so not stenciled, but bounded: one query for the published sessions,
the stars, and the plan computed in memory (agenda/planner.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.urls import reverse
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from confsched.agenda.planner import Interests, is_feasible, propose, slot_of, split_terms
from confsched.programme import queries
from confsched.programme.filtering import facet_rows
from confsched.programme.layout import days_and_slots
from confsched.programme.models import Event, Session
from confsched.web.agenda import stars
from confsched.web.site.fragments import attach_star_urls
from confsched.web.site.local_paths import local_path
from confsched.web.site.pages import event_or_404, event_page
from confsched.web.site.zones import viewer_zone

MAX_TEXT = 200


@dataclass
class PlanRequest:
    """The form's choices, and what in it was ignored and why."""

    tracks: list[str] = field(default_factory=list)
    levels: list[str] = field(default_factory=list)
    keywords: str = ""
    speakers: str = ""
    keep_stars: bool = True
    problems: list[str] = field(default_factory=list)

    @property
    def is_asked(self) -> bool:
        return bool(self.tracks or self.levels or self.keywords or self.speakers)


def read_plan_request(params: QueryDict, *, tracks: set[str], levels: set[str]) -> PlanRequest:
    """The form's fields; unknown track or level slugs are named and left out."""
    asked = PlanRequest(
        keywords=" ".join(params.get("q", "").split())[:MAX_TEXT],
        speakers=" ".join(params.get("speaker", "").split())[:MAX_TEXT],
        # An unticked box sends nothing: the hidden `planned` tells "unticked" from "first visit".
        keep_stars=params.get("keep") == "1" or "planned" not in params,
    )
    for name, known, chosen in (("track", tracks, asked.tracks), ("level", levels, asked.levels)):
        for value in dict.fromkeys(v.strip() for v in params.getlist(name) if v.strip()):
            if value in known:
                chosen.append(value)
            else:
                problem = (
                    gettext("ignored track %(value)s: this event has no such track")
                    if name == "track"
                    else gettext("ignored level %(value)s: this event has no such level")
                )
                asked.problems.append(problem % {"value": repr(value[:64])})
    return asked


def _take(request: HttpRequest, event: Event) -> HttpResponse:
    """Star the proposal's sessions (all, or the ticked ones) and go back to the plan."""
    keys = request.POST.getlist("session")
    for session in Session.objects.filter(event=event, key__in=keys).published():
        stars.set_star(request, session, is_starred=True)
    back = reverse("web:plan", kwargs={"event": event.slug})
    return HttpResponseRedirect(local_path(request.POST.get("next"), default=back))


@require_http_methods(["GET", "HEAD", "POST"])
def plan(request: HttpRequest, event: str) -> HttpResponse:
    event_row = event_or_404(event)
    if request.method == "POST":
        return _take(request, event_row)
    viewer = viewer_zone(request, event_row)
    sessions = queries.published_sessions(event_row)
    track_rows, level_rows = facet_rows(sessions, "track"), facet_rows(sessions, "level")
    asked = read_plan_request(
        request.GET, tracks={t.slug for t in track_rows}, levels={lv.slug for lv in level_rows}
    )
    starred = stars.starred_ids(request, event_row)
    context: dict[str, Any] = {"asked": asked, "tracks": track_rows, "levels": level_rows}
    if asked.is_asked or (asked.keep_stars and starred and "planned" in request.GET):
        context.update(_proposal(event_row, sessions, asked, starred, viewer.zone))
    response = event_page(request, "confsched/plan.html", event=event_row, viewer=viewer, **context)
    # Whose stars these are comes from the session cookie: no shared cache may keep the page.
    patch_cache_control(response, private=True, no_store=True)
    patch_vary_headers(response, ("Cookie",))
    return response


def _proposal(
    event: Event, sessions: list[Session], asked: PlanRequest, starred: set[int], zone: Any
) -> dict[str, Any]:
    mine = [s for s in sessions if s.pk in starred]
    interests = Interests(
        tracks=frozenset(asked.tracks),
        levels=frozenset(asked.levels),
        keywords=split_terms(asked.keywords),
        speakers=split_terms(asked.speakers),
        must_see=frozenset(s.key for s in mine) if asked.keep_stars else frozenset(),
    )
    proposal = propose(sessions, interests, walk=event.walking_minutes)
    attach_star_urls(proposal.sessions, event=event)
    chosen = {s.pk for s in proposal.sessions}
    for session in proposal.sessions:
        session.is_starred = session.pk in starred
        session.weight = proposal.weights[session.key]
    slots = {s.pk: slot_of(s) for s in [*proposal.sessions, *mine]}
    for session in mine:
        session.is_planned = session.pk in chosen
        session.clashes_with = [
            other
            for other in proposal.sessions
            if not session.is_planned
            and not is_feasible([slots[session.pk], slots[other.pk]], walk=event.walking_minutes)
        ]
    return {
        "proposal": proposal,
        "days": days_and_slots(proposal.sessions, zone),
        "mine": mine,
        "new_count": sum(1 for s in proposal.sessions if not s.is_starred),
        "clashing": [s for s in mine if s.clashes_with],
        "must_clash_groups": [
            sorted(group, key=lambda s: (s.starts_at, s.title))
            for group in clash_groups(proposal.must_clashes)
        ],
    }


def clash_groups(pairs: list[tuple[Any, Any]]) -> list[list[Any]]:
    """Must-sees that overlap, each set once: three talks at 10:00 are one group of three, not
    three pairs (the page said "Two must-sees overlap" three times). Groups and their
    sessions in the order the pairs first name them."""
    group_of: dict[Any, list[Any]] = {}
    groups: list[list[Any]] = []
    for first, second in pairs:
        one, other = group_of.get(first), group_of.get(second)
        if one is None and other is None:
            one = [first, second]
            groups.append(one)
        elif one is None or other is None:
            one = one or other
            assert one is not None  # noqa: S101 - one of the two was found just above
            one.append(second if first in one else first)
        elif one is not other:
            one.extend(other)
            groups.remove(other)
        for session in one:
            group_of[session] = one
    return groups
