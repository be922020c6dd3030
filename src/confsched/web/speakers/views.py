"""The speakers' own pages.

- `/speaker/<token>/`: the door of a personal link. Opening it shows whose it is and a button;
  the button signs in (a link scanner that only fetches the page signs in no one and does not
  count as the speaker having opened it). A revoked or forged link is a 404.
- `/speaker/`: every speaker page the account keeps, at every event, with their sessions.
- `/speaker/<event>/<key>/`: the profile (name as shown, position, company, bio, homepage,
  links) and the photo, with where its square sits.
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
from confsched.speakers import keeping, passes
from confsched.speakers.models import SessionNote, SlideFile, SpeakerPhoto
from confsched.speakers.photos import MAX_BYTES as PHOTO_BYTES
from confsched.speakers.slides import MAX_SLIDE_BYTES
from confsched.speakers.uploads import received_slides, upload_handler
from confsched.web.site.languages import use_event_language
from confsched.web.site.pages import event_or_404, event_page, site_address
from confsched.web.site.private import keep_private
from confsched.web.site.uploads import accepts_upload
from confsched.web.speakers.forms import EmailForm, PhotoForm, ProfileForm, SessionForm

BACKEND = "confsched.web.accounts.backends.AccountsBackend"


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
    rows = []
    for speaker in kept:
        sessions = list(
            Session.objects.filter(speaker_links__speaker=speaker)
            .select_related("room")
            .order_by("starts_at", "title")
        )
        rows.append((speaker, sessions))
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
    by = actor_name(request.user)
    status, saved = 200, request.GET.get("saved", "")
    profile_form = ProfileForm(initial=_profile_initial(speaker))
    photo_form = PhotoForm(initial=_focus_initial(photo))
    if request.method == "POST" and request.POST.get("form") == "photo":
        photo_form, status = _post_photo(request, speaker, photo, by=by)
        if status == 302:
            return _back(request, "photo")
    elif request.method == "POST":
        profile_form = ProfileForm(request.POST)
        if profile_form.is_valid():
            try:
                keeping.save_profile(speaker, profile_form.cleaned_data, by=by)
            except ConfschedError as refused:
                profile_form.add_error(None, str(refused))
            else:
                return _back(request, "profile")
        status = 400
    page = event_page(
        request, "confsched/speaker_profile.html", event=speaker.event, speaker=speaker,
        profile_form=profile_form, photo_form=photo_form, photo=photo, saved=saved,
        photo_url=_square_url(photo), status=status,
    )  # fmt: skip
    return keep_private(page)


def _post_photo(
    request: HttpRequest, speaker: Speaker, photo: SpeakerPhoto | None, *, by: str
) -> tuple[PhotoForm, int]:
    form = PhotoForm(request.POST)
    if not form.is_valid():
        return form, 400
    try:
        if request.POST.get("remove"):
            keeping.remove_photo(speaker, by=by)
        elif request.FILES.get("photo") is not None or _upload_refused(request):
            upload = received_slides(request, field="photo")
            keeping.keep_photo(
                speaker, upload, filename=upload.name or "", focus=form.focus(), by=by,
                base=site_address(request),
            )  # fmt: skip
        elif photo is not None:
            keeping.move_crop(speaker, focus=form.focus(), by=by, base=site_address(request))
        else:
            form.add_error("photo", gettext("Choose a photo to upload."))
            return form, 400
    except UploadError as refused:
        form.add_error("photo", str(refused))
        return form, 400
    except ConfschedError as refused:
        form.add_error(None, str(refused))
        return form, 400
    return form, 302


def _upload_refused(request: HttpRequest) -> bool:
    handler = upload_handler(request)
    return handler is not None and handler.refusal is not None


def _back(request: HttpRequest, what: str) -> HttpResponse:
    return redirect(f"{request.path}?saved={what}")


def _square_url(photo: SpeakerPhoto | None) -> str:
    """The kept photo's square the profile page shows (192 px, else the largest made)."""
    if photo is None or not photo.squares:
        return ""
    sizes = sorted(int(size) for size in photo.squares)
    size = max([s for s in sizes if s <= 192] or sizes[:1])
    return files.url(photo.squares[str(size)])


def _profile_initial(speaker: Speaker) -> dict[str, Any]:
    links = "\n".join(link.get("url", "") for link in (speaker.links or []))
    return {
        "name": speaker.name, "position": speaker.position, "company": speaker.company,
        "bio": speaker.bio, "homepage": speaker.homepage, "links": links,
    }  # fmt: skip


def _focus_initial(photo: SpeakerPhoto | None) -> dict[str, int]:
    if photo is None:
        return {"focus_x": 50, "focus_y": 50}
    return {"focus_x": round(photo.focus_x * 100), "focus_y": round(photo.focus_y * 100)}


@login_required
@accepts_upload(MAX_SLIDE_BYTES, field="slides")
@require_http_methods(["GET", "HEAD", "POST"])
def speaker_session(request: HttpRequest, event: str, key: str, session: str) -> HttpResponse:
    speaker = _speaker(request, event, key)
    row = Session.objects.filter(event=speaker.event, key=session, speaker_links__speaker=speaker)
    found = row.select_related("room").first()
    if found is None:
        raise Http404(f"No session {session!r} of this speaker")
    by = actor_name(request.user)
    note = SessionNote.objects.filter(session=found, speaker=speaker).first()
    form = SessionForm(
        initial=SessionForm.initial_from(keeping.typed_links(found), note.text if note else "")
    )
    upload_error, status = "", 200
    if request.method == "POST" and request.POST.get("form") == "slides":
        try:
            if request.POST.get("remove"):
                keeping.remove_slides(found, speaker, by=by, base=site_address(request))
            else:
                upload = received_slides(request)
                keeping.keep_slides(found, speaker, upload, by=by, base=site_address(request))
        except UploadError as refused:
            upload_error, status = str(refused), 400
        else:
            return _back(request, "slides")
    elif request.method == "POST":
        form = SessionForm(request.POST)
        if form.is_valid():
            try:
                keeping.save_links(found, speaker, form.links(), by=by, base=site_address(request))
                keeping.save_note(found, speaker, form.cleaned_data["note"])
            except ConfschedError as refused:
                form.add_error(None, str(refused))
            else:
                return _back(request, "links")
        status = 400
    slides = SlideFile.objects.filter(session=found).first()
    page = event_page(
        request, "confsched/speaker_session.html", event=speaker.event, speaker=speaker,
        session=found, form=form, slides=slides, upload_error=upload_error,
        slides_url=files.url(slides.name) if slides else "",
        thumbnail_url=files.url(slides.thumbnail) if slides and slides.thumbnail else "",
        saved=request.GET.get("saved", ""), status=status,
    )  # fmt: skip
    return keep_private(page)
