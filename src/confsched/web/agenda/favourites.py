"""Favourites that travel: take my stars to another phone (JSON, QR code, Giggity) and back.

These pages are personal (they list the visitor's or account's stars), so they are rendered per
request and never stenciled; the pages that are stay untouched.
"""

from __future__ import annotations

import segno
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from confsched.agenda import favourites
from confsched.core.errors import ParseError
from confsched.interchange.c3voc.schedule2_write import session_guid
from confsched.programme.models import Event, Session
from confsched.web.agenda import stars
from confsched.web.site.pages import event_or_404, event_page
from confsched.web.site.private import keep_private

MAX_UPLOAD = favourites.MAX_BYTES


def _guids(event: Event) -> dict[str, Session]:
    """Every published session of the event by its c3voc guid (one query)."""
    sessions = Session.objects.filter(event=event).published().order_by("starts_at", "key")
    return {session_guid(slug=event.slug, key=s.key): s for s in sessions}


def _starred_guids(request: HttpRequest, event: Event) -> list[str]:
    ids = stars.starred_ids(request, event)
    return sorted(guid for guid, session in _guids(event).items() if session.pk in ids)


def _schedule_url(request: HttpRequest, event: Event) -> str:
    return request.build_absolute_uri(reverse("web:export", args=[event.slug, "json"]))


@require_safe
def favourites_page(request: HttpRequest, event: str) -> HttpResponse:
    """The page to take my stars elsewhere: the file, a QR code to scan, a Giggity link."""
    event_row = event_or_404(event)
    guids = _starred_guids(request, event_row)
    qr_svg = import_url = qr_error = ""
    if guids:
        try:
            query = favourites.compact(guids)
        except ParseError as error:
            qr_error = str(error)
        else:
            path = reverse("web:favourites_import", args=[event_row.slug])
            import_url = request.build_absolute_uri(f"{path}?f={query}")
            code = segno.make(import_url, error="m")
            # segno's SVG is markup, not script or style: fine under the strict CSP.
            qr_svg = mark_safe(code.svg_inline(scale=4, omitsize=True, title=gettext("QR code")))  # noqa: S308 - segno's own output
    schedule_url = request.build_absolute_uri(reverse("web:export", args=[event_row.slug, "xml"]))
    response = event_page(
        request,
        "confsched/favourites.html",
        event=event_row,
        count=len(guids),
        qr_svg=qr_svg,
        qr_error=qr_error,
        import_url=import_url,
        giggity_url=favourites.giggity_link(schedule_url=schedule_url, guids=guids)
        if guids
        else "",
    )
    return keep_private(response)


@require_safe
def favourites_download(request: HttpRequest, event: str) -> HttpResponse:
    event_row = event_or_404(event)
    body = favourites.render_favourites(
        schedule_url=_schedule_url(request, event_row),
        slug=event_row.slug,
        guids=_starred_guids(request, event_row),
    )
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event_row.slug}-favourites.json"'
    response["Cache-Control"] = "private, no-store"
    return response


@require_http_methods(["GET", "HEAD", "POST"])
def favourites_import(request: HttpRequest, event: str) -> HttpResponse:
    """GET ?f= (the QR address) or POST a file or pasted text: the confirmation page."""
    event_row = event_or_404(event)
    try:
        if request.method == "GET":
            wanted = favourites.parse_compact(request.GET.get("f", ""))
        else:
            wanted = favourites.read_import(_posted_text(request), slug=event_row.slug)
    except ParseError as error:
        return event_page(
            request, "confsched/favourites_error.html", event=event_row, error=str(error),
            status=400,
        )  # fmt: skip
    by_guid = _guids(event_row)
    found: dict[int, Session] = {}
    missing: list[str] = []
    for item in wanted:
        matches = [s for guid, s in by_guid.items() if guid.startswith(item)]
        if len(matches) == 1:
            found.setdefault(matches[0].pk, matches[0])
        else:
            missing.append(item)
    return event_page(
        request,
        "confsched/favourites_import.html",
        event=event_row,
        found=sorted(found.values(), key=lambda s: (s.starts_at, s.key)),
        missing=missing,
    )


def _posted_text(request: HttpRequest) -> str:
    upload = request.FILES.get("file")
    if upload is not None:
        if upload.size is not None and upload.size > MAX_UPLOAD:
            raise ParseError(
                gettext("is %(size)s bytes; a favourites file is at most %(most)s")
                % {
                    "size": number_format(upload.size, force_grouping=True),
                    "most": number_format(MAX_UPLOAD, force_grouping=True),
                },
                source=upload.name or gettext("the file"),
            )
        data = upload.read(MAX_UPLOAD + 1)
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise ParseError(
                gettext("is not UTF-8 text"), source=upload.name or gettext("the file")
            ) from exc
    text = request.POST.get("text", "")
    if not text.strip():
        raise ParseError(
            gettext("is empty: paste a favourites document or a Giggity link, or choose a file"),
            source=gettext("the form"),
        )
    return text


@require_POST
def favourites_star(request: HttpRequest, event: str) -> HttpResponse:
    """Star the sessions the confirmation page listed ("Star these")."""
    event_row = event_or_404(event)
    keys = request.POST.getlist("key")[: favourites.MAX_FAVOURITES]
    sessions = Session.objects.filter(event=event_row, key__in=keys).published()
    for session in sessions:
        stars.set_star(request, session, is_starred=True)
    return redirect(reverse("web:agenda", args=[event_row.slug]))
