"""Feedback pages: an attendee rates a session (a plain form), and a speaker reads the feedback
on their own sessions through the private link the organizers send (no account needed)."""

from __future__ import annotations

from datetime import timedelta

from axes.helpers import get_client_ip_address
from django.contrib.auth.models import User
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_safe

from confsched.agenda import feedback as feedback_service
from confsched.agenda.feedback_chart import distribution_svg
from confsched.core import clock
from confsched.programme import queries
from confsched.programme.models import Session
from confsched.web.site.pages import event_or_404, event_page
from confsched.web.site.private import keep_private


def _state(session: Session) -> str:
    """What the page can offer now: the form, or why not."""
    if session.is_cancelled:
        return "cancelled"
    opens, closes = feedback_service.feedback_window(session)
    moment = clock.now()
    if moment < opens:
        return "not-yet"
    if moment >= closes:
        return "closed"
    return "open"


@require_http_methods(["GET", "HEAD", "POST"])
def session_feedback(request: HttpRequest, event: str, key: str) -> HttpResponse:
    """GET: the form (or why there is none); POST: save the rating and go back to the page."""
    event_row = event_or_404(event)
    session = queries.session_for_key(event_row, key)
    if session is None:
        raise Http404(f"No session {key!r}")
    user = request.user
    if request.method == "POST" and not isinstance(user, User):
        return redirect_to_login(request.path)
    own = feedback_service.feedback_of(user, session)
    status, error = 200, ""
    rating, comment = (str(own.rating), own.comment) if own else ("", "")
    if request.method == "POST" and isinstance(user, User):
        rating = request.POST.get("rating", "")
        comment = request.POST.get("comment", "")
        try:
            feedback_service.give_feedback(
                user, session, rating=rating, comment=comment,
                address=get_client_ip_address(request) or "",
            )  # fmt: skip
        except feedback_service.FeedbackThrottledError as exc:
            status, error = 429, str(exc)
        except feedback_service.FeedbackError as exc:
            status, error = 400, str(exc)
        else:
            target = reverse("web:feedback", kwargs={"event": event_row.slug, "key": key})
            return redirect(f"{target}#feedback-saved")
    _, closes = feedback_service.feedback_window(session)
    response = event_page(
        request, "confsched/feedback.html", event=event_row, moment=session.starts_at,
        session=session, state=_state(session), own=own, error=error, rating=rating,
        comment=comment, ratings=feedback_service.RATINGS,
        max_comment=feedback_service.MAX_COMMENT, last_day=closes - timedelta(seconds=1),
        status=status,
    )  # fmt: skip
    if status == 429:
        response["Retry-After"] = str(feedback_service.THROTTLE_SECONDS)
    # Whose feedback this is comes from the session cookie: no cache keeps the page.
    return keep_private(response)


@require_safe
def speaker_feedback(request: HttpRequest, event: str, token: str) -> HttpResponse:
    """A speaker's own sessions with their ratings and comments; the address is the key."""
    event_row = event_or_404(event)
    found = feedback_service.sessions_for_speaker_token(event_row, token)
    if found is None:
        raise Http404("No such feedback link")
    speaker, sessions = found
    for item in sessions:
        item.chart = distribution_svg(
            item.summary, title=f"Ratings of {item.session.title}, 5 stars to 1"
        )
    response = event_page(
        request, "confsched/feedback_speaker.html", event=event_row, speaker=speaker,
        sessions=sessions, total=sum(item.summary.count for item in sessions),
    )  # fmt: skip
    # Its address is the credential: no cache keeps the page, no link passes the address on.
    return keep_private(response, is_secret_address=True)
