"""The programme in the community's formats, served per event for apps and calendars."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.views.decorators.http import require_safe

from confsched.interchange.formats import WRITERS
from confsched.programme.services import render_export
from confsched.web.site.calendars import conditional_response, event_etag
from confsched.web.site.compression import Rendition
from confsched.web.site.pages import event_or_404
from confsched.web.site.shared_cache import cache_publicly
from confsched.web.site.stencils import kept, kept_pieces


@require_safe
def export(request: HttpRequest, event: str, extension: str) -> HttpResponse:
    """schedule.xml (frab), schedule.json (c3voc), schedule.xcal (the frab/pentabarf dialect
    the phone apps read), schedule.rfc6321.xcal (RFC 6321), schedule.csv, schedule2.json."""
    writer = WRITERS.get(extension)
    if writer is None:
        raise Http404(f"No schedule.{extension}; there are: " + ", ".join(sorted(WRITERS)))
    event_row = event_or_404(event)

    # Writers take the site's address and add "<event>/sessions/<key>/"; reversing the home
    # page keeps a deployment's path prefix (SCRIPT_NAME) in every link.
    site = request.build_absolute_uri(reverse("web:home"))

    etag = event_etag(event_row, "export", extension)

    def render() -> HttpResponse:
        # Rendered and compressed once per schedule version and site address; of a new
        # version, only the pieces of the sessions that changed are rendered (kept_pieces).
        rendition = kept(
            f"export:{etag}:{site}",
            lambda: Rendition(render_export(event_row, extension, base_url=site, keep=kept_pieces)),
        )
        response = rendition.response(request, writer.content_type)
        if extension == "csv":
            response["Content-Disposition"] = f'attachment; filename="{event_row.slug}.csv"'
        return response

    response = conditional_response(request, etag=etag, render=render)
    response["Access-Control-Allow-Origin"] = "*"  # phone apps and other sites read these
    cache_publicly(response)
    return response
