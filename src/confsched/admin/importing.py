"""The admin's import page: upload files or give a URL, see what the import would do, confirm.

The preview is a dry run (programme/services/importing.py). Between preview and confirm the
files wait under DATA_DIR/imports/<token>/, where the token is random and remembered only in the
organizer's own session together with the files' digest and the event's `updated_at`; confirm
refuses when either changed, so it applies exactly what the preview showed. Files wait a day
at most: each preview clears older ones.
"""

from __future__ import annotations

import re
import secrets
import shutil
import time
from pathlib import Path
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.template.defaultfilters import filesizeformat
from django.template.response import TemplateResponse
from django.utils.translation import gettext, gettext_lazy

from confsched.core.errors import ConfschedError
from confsched.interchange.fetch import read_source
from confsched.interchange.formats import FORMATS
from confsched.programme.actors import actor_name
from confsched.programme.history import summary_in_language
from confsched.programme.models import Event
from confsched.programme.services import (
    ImportOptions,
    LoadReport,
    files_digest,
    import_files,
)
from confsched.search.semantic import has_extra
from confsched.search.worker import (
    embedding_progress,
    progress_text,
    queue_embeddings,
)
from confsched.teams.access import can
from confsched.teams.rights import Right

SESSION_KEY = "confsched_imports"
TOKEN = re.compile(r"[A-Za-z0-9_-]{22}")
KEEP_SECONDS = 24 * 60 * 60


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """Several files from one input; Django's FileField takes one."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(widget=MultipleFileInput(), **kwargs)

    def clean(self, data: Any, initial: Any = None) -> list[Any]:
        files = data if isinstance(data, list | tuple) else [data] if data else []
        return [super(MultipleFileField, self).clean(one, initial) for one in files]


class ImportForm(forms.Form):
    files = MultipleFileField(
        required=False,
        label=gettext_lazy("Files"),
    )
    url = forms.URLField(
        required=False, label=gettext_lazy("Or a URL"), assume_scheme="https",
        help_text=gettext_lazy(
            "An http(s) address of the programme, fetched once for the preview."
        ),
    )  # fmt: skip
    format = forms.ChoiceField(
        required=False,
        label=gettext_lazy("Format"),
        choices=[
            ("", gettext_lazy("Detect from the content")),
            *((f.name, f.name) for f in FORMATS),
        ],
    )
    partial = forms.BooleanField(
        required=False,
        label=gettext_lazy(
            "The files hold part of the programme: do not cancel sessions they lack"
        ),
    )
    new_keys = forms.BooleanField(
        required=False,
        label=gettext_lazy(
            "Accept new keys for sessions the event has (their stars stay on the old ones)"
        ),
    )
    to_draft = forms.BooleanField(
        required=False,
        label=gettext_lazy(
            "Into the draft: attendees see it when the draft is released (docs/drafts.md)"
        ),
    )
    over_seats = forms.BooleanField(
        required=False,
        label=gettext_lazy(
            "Keep reservations over fewer seats: where the files give a session fewer seats "
            "than people hold, everyone keeps their seat"
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The limit in words an organizer reads ("50 MB"), not the setting's name.
        self.fields["files"].help_text = gettext(
            "One or more files of one programme (Sched pages may be several), up to %(size)s "
            "in all."
        ) % {"size": filesizeformat(settings.CONFSCHED_MAX_IMPORT_BYTES)}

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if bool(data.get("files")) == bool(data.get("url")):
            raise forms.ValidationError(gettext("Upload files or give a URL (one of the two)."))
        return data


def import_view(request: HttpRequest, object_id: str, *, model_admin: Any) -> HttpResponse:
    """The import page: the form, the preview of a dry run, or the confirmed import's report."""
    event = _event(request, object_id, model_admin=model_admin)
    if request.method == "POST" and request.POST.get("action") == "confirm":
        return _confirm(request, event, model_admin=model_admin)
    if request.method == "POST" and request.POST.get("action") == "cancel":
        _forget(request, request.POST.get("token", ""))
        return _page(request, event, model_admin=model_admin, form=ImportForm())
    if request.method != "POST":
        return _page(request, event, model_admin=model_admin, form=ImportForm())
    form = ImportForm(request.POST, request.FILES)
    if not form.is_valid():
        return _page(request, event, model_admin=model_admin, form=form, status=400)
    options = ImportOptions(
        format_name=form.cleaned_data["format"], is_partial=form.cleaned_data["partial"],
        accept_new_keys=form.cleaned_data["new_keys"], to_draft=form.cleaned_data["to_draft"],
        keep_reservations_over_seats=form.cleaned_data["over_seats"],
    )  # fmt: skip
    try:
        files = _files(form)
        report = import_files(event, files, options=options, is_dry_run=True)
    except ConfschedError as exc:
        return _page(request, event, model_admin=model_admin, form=form, error=str(exc), status=400)
    token = _keep(request, event, files, options=options)
    return _page(
        request, event, model_admin=model_admin, report=report, token=token,
        names=[name for name, _ in files], is_preview=True,
    )  # fmt: skip


def _event(request: HttpRequest, object_id: str, *, model_admin: Any) -> Event:
    """The event, when the person may import into it (Right.PROGRAMME); else a 404, whether
    the event exists or not."""
    event = model_admin.get_object(request, object_id)
    if event is None or not can(request.user, event, Right.PROGRAMME):
        raise Http404(f"No event with the id {object_id!r} to import into.")
    return event


def _files(form: ImportForm) -> list[tuple[str, bytes]]:
    if form.cleaned_data["url"]:
        allow = getattr(settings, "CONFSCHED_IMPORT_PRIVATE_HOSTS", False)
        return [read_source(form.cleaned_data["url"], allow_private=allow)]
    return [(upload.name, upload.read()) for upload in form.cleaned_data["files"]]


def _store() -> Path:
    return Path(settings.DATA_DIR) / "imports"


def _keep(
    request: HttpRequest, event: Event, files: list[tuple[str, bytes]], *, options: ImportOptions
) -> str:
    """Put the previewed files aside until confirmed; the token goes into the session only."""
    _clear_stale()
    token = secrets.token_urlsafe(16)
    folder = _store() / token
    folder.mkdir(parents=True)
    for index, (_, data) in enumerate(files):
        (folder / str(index)).write_bytes(data)
    kept = request.session.get(SESSION_KEY, {})
    kept[token] = {
        "event": event.pk,
        "names": [name for name, _ in files],
        "digest": files_digest(files),
        "event_updated_at": event.updated_at.isoformat(),
        "format": options.format_name,
        "partial": options.is_partial,
        "new_keys": options.accept_new_keys,
        "to_draft": options.to_draft,
        "over_seats": options.keep_reservations_over_seats,
    }
    request.session[SESSION_KEY] = kept
    return token


def _confirm(request: HttpRequest, event: Event, *, model_admin: Any) -> HttpResponse:
    token = request.POST.get("token", "")
    kept = request.session.get(SESSION_KEY, {}).get(token) if TOKEN.fullmatch(token) else None
    if kept is None or kept["event"] != event.pk:
        return _refuse(
            request, event, token, model_admin=model_admin,
            error=gettext(
                "This preview is not known (expired, already confirmed, or from another "
                "session): upload the files again."
            ),
        )  # fmt: skip
    folder = _store() / token
    try:
        files = [
            (name, (folder / str(index)).read_bytes()) for index, name in enumerate(kept["names"])
        ]
    except OSError:
        files = []
    if not files or files_digest(files) != kept["digest"]:
        return _refuse(
            request, event, token, model_admin=model_admin,
            error=gettext(
                "The previewed files changed or are gone since the preview: nothing was "
                "imported; upload them again."
            ),
        )  # fmt: skip
    if event.updated_at.isoformat() != kept["event_updated_at"]:
        return _refuse(
            request, event, token, model_admin=model_admin,
            error=gettext(
                "%(event)s changed since the preview (an edit or another import), so the import "
                "would not do what the preview showed: nothing was imported; preview again."
            )
            % {"event": event.name},
        )  # fmt: skip
    options = ImportOptions(
        format_name=kept["format"], is_partial=kept["partial"],
        accept_new_keys=kept.get("new_keys", False), to_draft=kept.get("to_draft", False),
        keep_reservations_over_seats=kept.get("over_seats", False),
    )  # fmt: skip
    try:
        report = import_files(event, files, options=options, by=actor_name(request.user))
    except ConfschedError as exc:
        return _refuse(request, event, token, model_admin=model_admin, error=str(exc))
    _forget(request, token)
    embed_after_edit(request, event)
    event.refresh_from_db()
    return _page(
        request, event, model_admin=model_admin, report=report, names=kept["names"],
        is_preview=False,
    )  # fmt: skip


def embed_after_edit(request: HttpRequest, event: Event) -> None:
    """Queue the sessions whose text an admin edit or import changed for the embedding worker
    (search by meaning, similar sessions) and say how far it is."""
    if not has_extra():  # search finds words, as it always will here
        return
    queue_embeddings(event)
    progress = embedding_progress(event)
    if progress.embedded < progress.total:
        messages.info(request, progress_text(progress))


def _refuse(
    request: HttpRequest, event: Event, token: str, *, model_admin: Any, error: str
) -> HttpResponse:
    _forget(request, token)
    return _page(
        request, event, model_admin=model_admin, form=ImportForm(), error=error, status=409
    )


def _forget(request: HttpRequest, token: str) -> None:
    kept = request.session.get(SESSION_KEY, {})
    if token in kept:
        del kept[token]
        request.session[SESSION_KEY] = kept
    if TOKEN.fullmatch(token):
        shutil.rmtree(_store() / token, ignore_errors=True)


def _clear_stale() -> None:
    """Remove previews nobody confirmed within a day (a closed tab leaves its files behind)."""
    store = _store()
    if not store.is_dir():
        return
    cutoff = time.time() - KEEP_SECONDS
    for folder in store.iterdir():
        if folder.stat().st_mtime < cutoff:
            shutil.rmtree(folder, ignore_errors=True)


def _page(
    request: HttpRequest, event: Event, *, model_admin: Any, form: ImportForm | None = None,
    report: LoadReport | None = None, error: str = "", token: str = "",
    names: list[str] | None = None, is_preview: bool = False, status: int = 200,
) -> HttpResponse:  # fmt: skip
    opts = model_admin.model._meta
    context = {
        **model_admin.admin_site.each_context(request),
        "title": gettext("Import into %(event)s") % {"event": event.name},
        "opts": opts,
        "original": event,
        "form": form,
        "report": report,
        "summary": summary_in_language(report.version.summary) if report and report.version else "",
        "error": error,
        "token": token,
        "names": names or [],
        "is_preview": is_preview,
    }
    return TemplateResponse(request, "admin/programme/event/import.html", context, status=status)
