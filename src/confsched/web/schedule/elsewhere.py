"""Use this schedule elsewhere (/<event>/elsewhere/): every address another program needs,
absolute and copyable, each with what reads it: the calendar subscription, the phone apps
(Giggity, EventFahrplan), each export, the JSON API and the versions' permalinks.

The exports are listed once, here (`export_files`): this page and each version's page name
them from the same list.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.safestring import SafeString
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_safe

from confsched.interchange.formats import WRITERS
from confsched.programme import queries
from confsched.programme.models import Session
from confsched.programme.services import draft_for
from confsched.web.schedule.changes import is_team, kept_by_nobody
from confsched.web.site.pages import event_or_404, event_page
from confsched.web.site.qr import qr_svg

# Giggity (Android) opens a schedule from a link of this form, scanned by the phone's camera
# or tapped: the app reads `url=` (percent-decoded) after the #, which never reaches the
# server (Giggity's README, "Deeplinking into Giggity"; ScheduleViewActivity).
GIGGITY_LINK = "https://ggt.gaa.st/#url="

# What each export is for, in the order the page lists them. A writer added to WRITERS without
# a line here makes the page fail (KeyError) in the tests, not silently miss it.
DESCRIPTIONS = {
    "xml": gettext_lazy(
        "frab XML, the schedule.xml of frab, pretalx and pentabarf: what Giggity, EventFahrplan "
        "and most conference tools (recording, streaming, info screens) read."
    ),
    "json": gettext_lazy("The same schedule as frab XML, as JSON (c3voc's schedule.json)."),
    "schedule2": gettext_lazy(
        "c3voc's newer JSON schedule (schedule2), checked against its published schema."
    ),
    "xcal": gettext_lazy("xCal as frab and pentabarf serve it, which Giggity also reads."),
    "rfc6321.xcal": gettext_lazy("xCal as RFC 6321 defines it: the calendar written as XML."),
    "ics": gettext_lazy("iCalendar: every session as a calendar event, to import once."),
    "csv": gettext_lazy("CSV: a row per session, for a spreadsheet."),
}


@dataclass(frozen=True)
class ExportFile:
    extension: str
    name: str  # "schedule.xml", "schedule2.json": the file's name in its address
    path: str  # the address on this site, from its root


def export_files(slug: str, *, number: int | None = None) -> list[ExportFile]:
    """Every export of the event `slug` (of its version `number` when given), in the order of
    the writers' extensions; schedule2 is served as schedule2.json (urls.py)."""
    files = []
    for extension in sorted(WRITERS):
        if extension == "schedule2":
            name = "schedule2.json"
            path = (
                reverse("web:export_schedule2", args=[slug])
                if number is None
                else reverse("web:version_schedule2", args=[slug, number])
            )
        else:
            name = f"schedule.{extension}"
            path = (
                reverse("web:export", args=[slug, extension])
                if number is None
                else reverse("web:version_export", args=[slug, number, extension])
            )
        files.append(ExportFile(extension=extension, name=name, path=path))
    return files


def absolute(request: HttpRequest, path: str) -> str:
    """`path` as the address other programs reach it at: on CONFSCHED_BASE_URL when set (as the
    mails' links are; behind a proxy the request may name an inside host), else on the
    request's own scheme and host."""
    if settings.CONFSCHED_BASE_URL:
        return settings.CONFSCHED_BASE_URL + path
    return request.build_absolute_uri(path)


def webcal(address: str) -> str:
    """The webcal:// form of an http(s) address: calendar apps open it as a subscription."""
    return "webcal://" + address.split("://", 1)[1]


def giggity_link(schedule_xml: str) -> str:
    return GIGGITY_LINK + quote(schedule_xml, safe="")


@dataclass(frozen=True)
class Address:
    """One address on the page: an id for its field, the address, its QR code if it has one."""

    id: str
    url: str
    qr: SafeString | None = None


def _address(id: str, url: str, *, with_qr: bool = False) -> Address:  # noqa: A002
    """The address `url` in the field `id`, with the QR code of exactly `url` when asked; the
    code's title (read out by screen readers) is the address."""
    title = gettext("QR code of %(address)s") % {"address": url}
    return Address(id=id, url=url, qr=qr_svg(url, title=title) if with_qr else None)


def _files(request: HttpRequest, slug: str) -> list[tuple[ExportFile, str, Address]]:
    """Each export with what it is for and its address, in the order of DESCRIPTIONS."""
    by_extension = {file.extension: file for file in export_files(slug)}
    missing = sorted(set(by_extension) - set(DESCRIPTIONS))
    if missing:
        raise KeyError(f"elsewhere.DESCRIPTIONS does not describe the export(s) {missing}")
    files = []
    for extension, description in DESCRIPTIONS.items():
        file = by_extension[extension]
        field = "file-" + extension.replace(".", "-")
        files.append((file, str(description), _address(field, absolute(request, file.path))))
    return files


@require_safe
def elsewhere(request: HttpRequest, event: str) -> HttpResponse:
    """Every address for calendars, apps and programs, absolute, with what reads it; an event
    with nothing published yet says so above them, and so does a draft to the team."""
    event_row = event_or_404(event)
    slug = event_row.slug
    ics = absolute(request, reverse("web:event_calendar", args=[slug]))
    xml = absolute(request, reverse("web:export", args=[slug, "xml"]))
    last = queries.versions_with_changes(event_row, limit=1, with_changes=False)
    version = last[0] if last else None
    version_page = version_files = None
    if version is not None:
        version_page = _address(
            "version-page", absolute(request, reverse("web:version", args=[slug, version.number]))
        )
        if getattr(version, "has_programme", False):  # else its exports cannot be rebuilt
            version_files = export_files(slug, number=version.number)
    api_event = reverse("api-v1:api-root") + f"events/{quote(slug)}"
    # The team is told that a draft stays off these addresses until released; no cache keeps
    # their page.
    for_team = is_team(request, event_row)
    response = event_page(
        request, "confsched/elsewhere.html", event=event_row, nav="elsewhere",
        shared=not for_team, has_draft=for_team and draft_for(event_row) is not None,
        is_published=Session.objects.filter(event=event_row).published().exists(),
        webcal=_address("webcal", webcal(ics), with_qr=True),
        ics=_address("ics", ics),
        schedule_xml=_address("schedule-xml", xml),
        giggity=_address("giggity", giggity_link(xml), with_qr=True),
        files=_files(request, slug),
        api_docs=absolute(request, reverse("api-v1:openapi-view")),
        api_event=_address("api-event", absolute(request, api_event)),
        version=version, version_page=version_page, version_files=version_files,
    )  # fmt: skip
    return kept_by_nobody(response) if for_team else response
