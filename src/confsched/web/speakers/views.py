"""The speakers' own pages.

- `/speaker/<token>/`: the door of a personal link. Opening it shows whose it is and a button;
  the button signs in (a link scanner that only fetches the page signs in no one and does not
  count as the speaker having opened it). A revoked or forged link is a 404.
- `/speaker/`: every speaker page the account keeps, at every event, with their sessions.
- `/speaker/<event>/<key>/`: the profile (name as shown, position, company, bio, homepage,
  links) and the photo, with where its square sits. A new photo is prepared by the worker
  (speakers/photo_uploads.py): the page shows the photo before with "being prepared", or why
  the new one failed; a plain reload shows what became of it, and with htmx the photo's part
  asks again every 2 s while it is being prepared (204 while nothing changed).
- `/speaker/<event>/<key>/sessions/<session>/`: slides, links and a note to the organizers.

A speaker reaches only their own pages: anything else is a 404, never a 403 that would say it
exists. Every page is private (`no-store`); the link's page sends no Referer.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from confsched.core import files
from confsched.core.errors import ConfschedError, UploadError
from confsched.programme.actors import actor_name
from confsched.programme.models import Session, Speaker
from confsched.speakers import keeping, passes, photo_uploads, review
from confsched.speakers.differences import slides_shown
from confsched.speakers.models import (
    PhotoUpload,
    ProposedChange,
    SessionNote,
    SlideFile,
    SpeakerPhoto,
)
from confsched.speakers.photos import MAX_BYTES as PHOTO_BYTES
from confsched.speakers.slides import MAX_SLIDE_BYTES
from confsched.speakers.uploads import received_slides, upload_handler
from confsched.speakers.writing import PROFILE_FIELDS, REMOVE, SLIDE_FIELDS
from confsched.web.site.languages import use_event_language
from confsched.web.site.pages import event_or_404, event_page, site_address
from confsched.web.site.private import keep_private
from confsched.web.site.uploads import accepts_upload
from confsched.web.speakers.forms import EmailForm, PhotoForm, ProfileForm, SessionForm

BACKEND = "confsched.web.accounts.backends.AccountsBackend"
Kind = ProposedChange.Kind


@require_http_methods(["GET", "HEAD", "POST"])
def speaker_pass(request: HttpRequest, token: str) -> HttpResponse:
    found = passes.pass_from_token(token)
    if found is None:
        page = render(request, "confsched/speaker_pass_dead.html", status=404)
        return keep_private(page, is_secret_address=True)
    speaker = found.speaker
    use_event_language(speaker.event)
    needs_email = found.user is None and not found.email and not request.user.is_authenticated
    form = EmailForm(request.POST if request.method == "POST" and needs_email else None)
    error = ""
    if request.method == "POST" and (not needs_email or form.is_valid()):
        email = form.cleaned_data["email"] if needs_email else ""
        try:
            entry = passes.use_pass(found, signed_in=request.user, email=email)
        except ConfschedError as refused:
            error = str(refused)
        else:
            if entry.user is not None:
                if request.user != entry.user:
                    login(request, entry.user, backend=BACKEND)
                return redirect("web:speaker_home")
            if entry.log_in_as:
                query = urlencode({"next": request.path})
                return redirect(f"{reverse('login')}?{query}&speaker=1")
    page = render(
        request, "confsched/speaker_pass.html",
        {"speaker": speaker, "event": speaker.event, "form": form, "needs_email": needs_email,
         "error": error},
        status=400 if request.method == "POST" else 200,
    )  # fmt: skip
    return keep_private(page, is_secret_address=True)


@login_required
@require_http_methods(["GET", "HEAD"])
def speaker_home(request: HttpRequest) -> HttpResponse:
    kept = passes.speakers_of(request.user)
    preparing = photo_uploads.latest_of(kept)
    rows = []
    for speaker in kept:
        sessions = list(
            Session.objects.filter(speaker_links__speaker=speaker)
            .select_related("room")
            .order_by("starts_at", "title")
        )
        rows.append((speaker, sessions, preparing.get(speaker.pk)))
    page = render(request, "confsched/speaker_home.html", {"rows": rows})
    return keep_private(page)


def _speaker(request: HttpRequest, event: str, key: str) -> Speaker:
    event_or_404(event)  # the page in the event's language
    speaker = passes.speaker_for(request.user, event, key)
    if speaker is None:
        raise Http404(f"No speaker page {key!r} for this account")
    return speaker


@login_required
@accepts_upload(PHOTO_BYTES, field="photo")
@require_http_methods(["GET", "HEAD", "POST"])
def speaker_profile(request: HttpRequest, event: str, key: str) -> HttpResponse:
    speaker = _speaker(request, event, key)
    photo = SpeakerPhoto.objects.filter(speaker=speaker).first()
    waiting = review.waiting_for(speaker)
    preparing = photo_uploads.latest(speaker)
    if request.htmx and request.method == "GET" and PREPARING in request.GET:
        return _photo_state(request, speaker, photo, waiting, preparing)
    by = actor_name(request.user)
    status = 200
    profile_form = ProfileForm(initial=_profile_initial(speaker, waiting.get(Kind.PROFILE)))
    photo_form = PhotoForm(initial=_focus_initial(photo, waiting.get(Kind.PHOTO), preparing))
    if request.method == "POST" and request.POST.get("form") == "photo":
        photo_form, status, outcome = _post_photo(request, speaker, photo, by=by)
        if status == 302:
            return _back(request, "photo", outcome)
    elif request.method == "POST":
        profile_form = ProfileForm(request.POST)
        if profile_form.is_valid():
            try:
                outcome = keeping.save_profile(speaker, profile_form.cleaned_data, by=by)
            except ConfschedError as refused:
                profile_form.add_error(None, str(refused))
                status = _refusal_status(refused)
            else:
                return _back(request, "profile", outcome)
        else:
            status = 400
    page = event_page(
        request, "confsched/speaker_profile.html", event=speaker.event, speaker=speaker,
        profile_form=profile_form, photo_form=photo_form, waiting=waiting,
        **_photo_shown(photo, waiting, preparing), **_editing_state(request, speaker),
        status=status,
    )  # fmt: skip
    return keep_private(page)


# The query the photo's part is asked again with while a photo is being prepared (htmx).
PREPARING = "preparing"


def preparing_mark(preparing: PhotoUpload) -> str:
    """What the photo's part being prepared says it shows, in the query it asks again with: the
    row, and whether it said it was late ("" once it is no longer pending)."""
    if preparing.state != PhotoUpload.State.PENDING:
        return ""
    return f"{preparing.pk}-late" if preparing.is_late else str(preparing.pk)


def _photo_shown(
    photo: SpeakerPhoto | None, waiting: dict[str, ProposedChange], preparing: PhotoUpload | None
) -> dict[str, Any]:
    """What the photo's part of the page shows: the photo, the one waiting for review, and the
    newest one being prepared or failed."""
    waiting_photo = waiting.get(Kind.PHOTO)
    return {
        "photo": photo, "photo_url": _square_url(photo.squares if photo else None),
        "waiting_photo": waiting_photo, "waiting_photo_url": _square_url(
            waiting_photo.values.get("squares") if waiting_photo else None
        ),
        "preparing": preparing, "preparing_mark": preparing_mark(preparing) if preparing else "",
    }  # fmt: skip


def _photo_state(
    request: HttpRequest, speaker: Speaker, photo: SpeakerPhoto | None,
    waiting: dict[str, ProposedChange], preparing: PhotoUpload | None,
) -> HttpResponse:  # fmt: skip
    """The photo's part alone, for htmx asking again: 204 (nothing to swap) while the photo it
    showed as being prepared still is, and still on time or late as it said (a status swapped
    in every 2 s would be read out every 2 s)."""
    if preparing is not None and request.GET[PREPARING] == preparing_mark(preparing):
        return keep_private(HttpResponse(status=204))
    page = render(
        request, "confsched/_speaker_photo.html",
        {"speaker": speaker, **_photo_shown(photo, waiting, preparing)},
    )  # fmt: skip
    return keep_private(page)


def _editing_state(
    request: HttpRequest, speaker: Speaker, session: Session | None = None
) -> dict[str, Any]:
    """What every speaker page says of the event's rules: whether editing is closed (and
    since when), whether edits wait for review, what the last save did, and the team's refusals
    the speaker has not answered yet."""
    rules = review.rules_for(speaker.event)
    closed = review.closed_since(speaker.event, rules)
    return {
        "closed": review.closed_message(speaker.event, closed) if closed else "",
        "under_review": rules.review,
        "saved": request.GET.get("saved", ""),
        "outcome": request.GET.get("outcome", ""),
        "refusals": review.last_refusals(speaker, session),
    }


def _refusal_status(refused: ConfschedError) -> int:
    return 403 if isinstance(refused, review.EditingClosed) else 400


def _post_photo(
    request: HttpRequest, speaker: Speaker, photo: SpeakerPhoto | None, *, by: str
) -> tuple[PhotoForm, int, str]:
    form = PhotoForm(request.POST)
    if not form.is_valid():
        return form, 400, ""
    base = site_address(request)
    try:
        if request.POST.get("remove"):
            outcome = keeping.remove_photo(speaker, by=by)
        elif request.FILES.get("photo") is not None or _upload_refused(request):
            upload = received_slides(request, field="photo")
            outcome = keeping.keep_photo(
                speaker, upload, filename=upload.name or "", focus=form.focus(), by=by, base=base
            )
        elif photo is not None or Kind.PHOTO in review.waiting_for(speaker):
            outcome = keeping.move_crop(speaker, focus=form.focus(), by=by, base=base)
        else:
            form.add_error("photo", gettext("Choose a photo to upload."))
            return form, 400, ""
    except UploadError as refused:
        form.add_error("photo", str(refused))
        return form, 400, ""
    except ConfschedError as refused:
        form.add_error(None, str(refused))
        return form, _refusal_status(refused), ""
    return form, 302, outcome


def _upload_refused(request: HttpRequest) -> bool:
    handler = upload_handler(request)
    return handler is not None and handler.refusal is not None


def _back(request: HttpRequest, what: str, outcome: str) -> HttpResponse:
    return redirect(f"{request.path}?{urlencode({'saved': what, 'outcome': outcome})}")


def _square_url(squares: dict[str, str] | None) -> str:
    """The photo's square the profile page shows (192 px, else the largest made)."""
    if not squares:
        return ""
    sizes = sorted(int(size) for size in squares)
    size = max([s for s in sizes if s <= 192] or sizes[:1])
    return files.url(squares[str(size)])


def _profile_initial(speaker: Speaker, waiting: ProposedChange | None) -> dict[str, Any]:
    """The public profile, with what waits for review in place of what it changes."""
    values = {field: getattr(speaker, field) for field in PROFILE_FIELDS}
    if waiting is not None:
        values.update(waiting.values)
    values["links"] = "\n".join(link.get("url", "") for link in (values["links"] or []))
    return values


def _focus_initial(
    photo: SpeakerPhoto | None, waiting: ProposedChange | None, preparing: PhotoUpload | None
) -> dict[str, int]:
    """Where the square sits in the newest photo: being prepared, waiting or public."""
    if preparing is not None and preparing.state == PhotoUpload.State.PENDING:
        focus = (preparing.focus_x, preparing.focus_y)
    elif waiting is not None and "focus_x" in waiting.values:
        focus = (waiting.values["focus_x"], waiting.values["focus_y"])
    elif photo is not None:
        focus = (photo.focus_x, photo.focus_y)
    else:
        focus = (0.5, 0.5)
    return {"focus_x": round(focus[0] * 100), "focus_y": round(focus[1] * 100)}


@login_required
@accepts_upload(MAX_SLIDE_BYTES, field="slides")
@require_http_methods(["GET", "HEAD", "POST"])
def speaker_session(request: HttpRequest, event: str, key: str, session: str) -> HttpResponse:
    speaker = _speaker(request, event, key)
    row = Session.objects.filter(event=speaker.event, key=session, speaker_links__speaker=speaker)
    found = row.select_related("room", "event").first()
    if found is None:
        raise Http404(f"No session {session!r} of this speaker")
    by = actor_name(request.user)
    base = site_address(request)
    note = SessionNote.objects.filter(session=found, speaker=speaker).first()
    form = SessionForm(
        initial=SessionForm.initial_from(
            keeping.typed_links(found, speaker), note.text if note else ""
        )
    )
    upload_error, status = "", 200
    if request.method == "POST" and request.POST.get("form") == "slides":
        try:
            if request.POST.get("remove"):
                outcome = keeping.remove_slides(found, speaker, by=by, base=base)
            else:
                upload = received_slides(request)
                outcome = keeping.keep_slides(found, speaker, upload, by=by, base=base)
        except ConfschedError as refused:
            upload_error, status = str(refused), _refusal_status(refused)
        else:
            return _back(request, "slides", outcome)
    elif request.method == "POST":
        form = SessionForm(request.POST)
        if form.is_valid():
            try:
                outcome = keeping.save_links(found, speaker, form.links(), by=by, base=base)
                keeping.save_note(found, speaker, form.cleaned_data["note"])
            except ConfschedError as refused:
                form.add_error(None, str(refused))
                status = _refusal_status(refused)
            else:
                return _back(request, "links", outcome)
        else:
            status = 400
    slides = SlideFile.objects.filter(session=found).first()
    waiting_slides = review.waiting_for(speaker, found).get(Kind.SLIDES)
    page = event_page(
        request, "confsched/speaker_session.html", event=speaker.event, speaker=speaker,
        session=found, form=form, slides=_slides_shown(slides), upload_error=upload_error,
        waiting_slides=_slides_shown(waiting_slides.values if waiting_slides else None),
        waiting_removal=bool(waiting_slides and waiting_slides.values.get(REMOVE)),
        waiting_links=Kind.LINKS in review.waiting_for(speaker, found),
        **_editing_state(request, speaker, found), status=status,
    )  # fmt: skip
    return keep_private(page)


def _slides_shown(slides: SlideFile | dict[str, Any] | None) -> dict[str, Any] | None:
    """Slides as the speaker's page shows them: kept ones or those waiting for review."""
    if isinstance(slides, SlideFile):
        slides = {field: getattr(slides, field) for field in SLIDE_FIELDS}
    return slides_shown(slides) if slides else None
