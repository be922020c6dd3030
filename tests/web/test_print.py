"""Printable timetables: sheets of rooms × times, the pages and PDFs, and the print stylesheet."""

from __future__ import annotations

import re
import urllib.request
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth.models import User
from django.test import Client

from confsched.agenda.services import star_session
from confsched.programme import queries
from confsched.programme.models import Event, Session
from confsched.web.venue import print_pages as views_print
from confsched.web.venue import printing
from confsched.web.venue.printing import render_pdf, split_evenly, timetable_for_day
from tests.conftest import DEMO_SLUG

BASE = f"/{DEMO_SLUG}/"
DAY = "2026-04-07"
PARIS = ZoneInfo("Europe/Paris")
ROOMS = ["Central Room", "Founders Cafe", "Junior Stage", "Master Stage"]
HELION = "helion-1-0-a-high-level-dsl-for-performance-portable-kernels"  # 11:00-11:25 Master
TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"  # 11:45-11:55 Founders Cafe
TOUR = "tour-de-force-llm-inference-optimization-from-simple-to-sophisticated"  # 11:30-11:55
JIGSAW = "lightning-talk-jigsaw-domain-and-tensor-parallelism-for-high-resolution-input-training"
MORNING = ["11:00", "11:15", "11:30", "11:45", "12:00", "12:15"]
AFTERNOON = ["13:45", "14:15", "14:45", "15:00", "15:40", "15:55", "16:10", "16:40"]
CSS = Path(__file__).resolve().parents[2] / "src/confsched/web/venue/static/confsched"
SITE_CSS = Path(__file__).resolve().parents[2] / "src/confsched/web/site/static/confsched"


# -- reading the printed tables ---------------------------------------------------------------


@dataclass
class Table:
    columns: list[str] = field(default_factory=list)
    rows: list[str] = field(default_factory=list)  # the time heading each row
    # (row time, column, rowspan, [titles]) for each cell where sessions start or continue
    cells: list[tuple[str, str, int, list[str]]] = field(default_factory=list)


class _Tables(HTMLParser):
    """The timetables of a page, with rowspans resolved to the columns they sit in."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[Table] = []
        self._text: list[str] | None = None
        self._row: list[tuple[int, list[str], str]] = []  # rowspan, titles, text
        self._covered: dict[int, int] = {}  # column index: rows still covered
        self._titles: list[str] = []
        self._in_title = False
        self._span = 1

    def handle_starttag(self, tag: str, attrs: list) -> None:
        attributes = dict(attrs)
        if tag == "table" and "timetable" in (attributes.get("class") or ""):
            self.tables.append(Table())
            self._covered = {}
        elif self.tables and tag in {"th", "td"}:
            self._text, self._titles, self._span = [], [], int(attributes.get("rowspan", 1))
        elif tag == "p" and attributes.get("class") == "entry-title":
            self._in_title = True
            self._titles.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "p":
            self._in_title = False
        elif tag in {"th", "td"} and self._text is not None:
            text = " ".join("".join(self._text).split())
            self._row.append((self._span, self._titles, text))
            self._text = None
        elif tag == "tr" and self.tables:
            self._end_row()

    def _end_row(self) -> None:
        table = self.tables[-1]
        cells, self._row = self._row, []
        if not table.columns:
            table.columns = [text for _, _, text in cells[1:]]
            return
        time = cells[0][2]
        table.rows.append(time)
        column = 0
        for span, titles, _ in cells[1:]:
            while self._covered.get(column, 0) > 0:
                self._covered[column] -= 1
                column += 1
            if titles:
                table.cells.append((time, table.columns[column], span, titles))
            self._covered[column] = span - 1
            column += 1
        for later in range(column, len(table.columns)):
            self._covered[later] = max(self._covered.get(later, 0) - 1, 0)

    def handle_data(self, data: str) -> None:
        if self._text is not None:
            self._text.append(data)
        if self._in_title:
            self._titles[-1] += data


def _tables(html: str) -> list[Table]:
    parser = _Tables()
    parser.feed(html)
    return parser.tables


def _text(html: str) -> str:
    """The words of `html`; inline elements join their neighbours, blocks are apart."""
    inline = re.sub(r"</?(?:time|a|strong|span)\b[^>]*>", "", html)
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", inline)).split())


def _problem(html: str) -> str:
    return _text(re.search(r'<p class="notice" role="alert">(.*?)</p>', html, re.S).group(1))


# -- sheets: pure arrangement ------------------------------------------------------------------


def _session(key: str, room: str | None, start: str, minutes: int, *, position: int = 0):  # noqa: ANN202
    starts = datetime.fromisoformat(f"2026-04-07T{start}").replace(tzinfo=PARIS)
    return SimpleNamespace(
        key=key, title=key, room=SimpleNamespace(name=room, position=position) if room else None,
        starts_at=starts.astimezone(UTC), ends_at=(starts + timedelta(minutes=minutes)).astimezone(UTC),
    )  # fmt: skip


def _layout(sheet: printing.Sheet) -> list[tuple[str, str, int, list[str], bool]]:
    """(row time, room, rowspan, keys, continued) for each cell that starts in the sheet."""
    return [
        (row.starts_at.strftime("%H:%M"), sheet.columns[index], cell.row_span,
         [s.key for s in cell.sessions], cell.is_continued)
        for row in sheet.rows
        for index, cell in enumerate(row.cells)
        if cell is not None and cell.row_span
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("count", "most", "sizes"),
    [(60, 8, [8, 8, 8, 8, 7, 7, 7, 7]), (8, 8, [8]), (9, 8, [5, 4]), (1, 8, [1]), (0, 8, [])],
)
def test_split_evenly_makes_the_fewest_groups_of_nearly_equal_size(
    count: int, most: int, sizes: list[int]
) -> None:
    assert split_evenly(count, most=most) == sizes


def test_rows_are_start_times_and_sessions_span_until_the_next_start_after_their_end() -> None:
    sessions = [
        _session("a", "Hall", "09:00", 50, position=1),
        _session("b", "Side", "09:00", 20, position=2),
        _session("c", "Side", "09:30", 30, position=2),
        _session("d", "Hall", "10:00", 30, position=1),
        _session("e", None, "10:00", 10),
    ]
    timetable = timetable_for_day(sessions, zone=PARIS)
    (sheet,) = timetable.sheets
    assert (timetable.day, timetable.room_count, timetable.paper) == (date(2026, 4, 7), 3, "a4")
    assert sheet.columns == ["Hall", "Side", "No room"]
    assert [row.starts_at.strftime("%H:%M") for row in sheet.rows] == ["09:00", "09:30", "10:00"]
    assert _layout(sheet) == [
        ("09:00", "Hall", 2, ["a"], False),
        ("09:00", "Side", 1, ["b"], False),
        ("09:30", "Side", 1, ["c"], False),
        ("10:00", "Hall", 1, ["d"], False),
        ("10:00", "No room", 1, ["e"], False),
    ]
    assert [cell is None for cell in sheet.rows[2].cells] == [False, True, False]
    assert (sheet.starts_at.strftime("%H:%M"), sheet.ends_at.strftime("%H:%M")) == (
        "09:00",
        "10:30",
    )


def test_a_session_overlapping_another_in_its_room_joins_its_cell() -> None:
    sessions = [_session("long", "Hall", "09:00", 60), _session("clash", "Hall", "09:30", 15)]
    (sheet,) = timetable_for_day(sessions, zone=PARIS).sheets
    assert _layout(sheet) == [("09:00", "Hall", 2, ["long", "clash"], False)]


def test_sixty_rooms_are_dealt_into_eight_a3_sheets_in_room_order() -> None:
    sessions = [
        _session(f"s{room}", f"Room {room:02}", "09:00", 30, position=room) for room in range(60)
    ]
    timetable = timetable_for_day(sessions, zone=PARIS)
    assert timetable.paper == "a3"
    assert [(s.first_room, s.last_room, len(s.columns)) for s in timetable.sheets] == [
        (1, 8, 8), (9, 16, 8), (17, 24, 8), (25, 32, 8),
        (33, 39, 7), (40, 46, 7), (47, 53, 7), (54, 60, 7),
    ]  # fmt: skip
    assert timetable.sheets[4].columns == [f"Room {n}" for n in range(32, 39)]
    assert [c for sheet in timetable.sheets for c in sheet.columns] == [
        f"Room {n:02}" for n in range(60)
    ]


def test_nine_rooms_fit_two_a4_sheets() -> None:
    sessions = [_session(f"s{r}", f"R{r}", "09:00", 30, position=r) for r in range(9)]
    timetable = timetable_for_day(sessions, zone=PARIS)
    assert (timetable.paper, [len(s.columns) for s in timetable.sheets]) == ("a4", [5, 4])


def test_a_long_day_is_cut_at_the_longest_pause_near_the_middle() -> None:
    # Ten 30-minute slots with a break of 90 minutes after the fourth: cut there, not at five.
    times = [
        "09:00",
        "09:30",
        "10:00",
        "10:30",
        "12:30",
        "13:00",
        "13:30",
        "14:00",
        "14:30",
        "15:00",
    ]
    sessions = [_session(f"s{i}", "Hall", t, 25) for i, t in enumerate(times)]
    timetable = timetable_for_day(sessions, zone=PARIS, rows_per_sheet=8)
    assert [
        (s.starts_at.strftime("%H:%M"), s.ends_at.strftime("%H:%M"), len(s.rows))
        for s in timetable.sheets
    ] == [("09:00", "10:55", 4), ("12:30", "15:25", 6)]


def test_a_cut_through_a_running_session_shows_it_continued_on_the_next_sheet() -> None:
    sessions = [_session("all-day", "Hall", "09:00", 600)] + [
        _session(f"t{i}", "Side", f"{9 + i:02}:00", 45) for i in range(6)
    ]
    first, second = timetable_for_day(sessions, zone=PARIS, rows_per_sheet=3).sheets
    assert _layout(first)[0] == ("09:00", "Hall", 3, ["all-day"], False)
    assert _layout(second)[0] == ("12:00", "Hall", 3, ["all-day"], True)
    assert (first.ends_at.strftime("%H:%M"), second.ends_at.strftime("%H:%M")) == ("12:00", "19:00")


def test_a_timetable_refuses_no_sessions_and_sessions_of_two_days() -> None:
    with pytest.raises(ValueError, match="at least one session"):
        timetable_for_day([], zone=PARIS)
    late = _session("late", "Hall", "23:30", 30)
    late.starts_at += timedelta(hours=1)
    with pytest.raises(ValueError, match="one day; these sessions start on 2"):
        timetable_for_day([_session("a", "Hall", "09:00", 30), late], zone=PARIS)


# -- PDF rendering -----------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_demo_day_prints_as_a_pdf_of_one_page_per_sheet(demo_event: Event) -> None:
    html = views_print._timetable_html(demo_event, date(2026, 4, 7), PARIS)
    pdf = render_pdf(html, base_url="http://testserver/")
    assert (pdf.body[:5], pdf.pages, pdf.size) == (b"%PDF-", 2, len(pdf.body))


def test_sixteen_rooms_print_as_two_a3_pages() -> None:
    sessions = [_session(f"s{r}", f"Room {r}", "09:00", 30, position=r) for r in range(16)]
    timetable = timetable_for_day(sessions, zone=PARIS)
    for session in sessions:
        session.get_absolute_url = lambda key=session.key: f"/{DEMO_SLUG}/sessions/{key}/"
        session.speaker_links = SimpleNamespace(all=list)
        session.is_cancelled, session.kind, session.track = False, "Talk", None
    html = views_print._document(
        "confsched/print/timetable.html", event=Event(slug="big", name="Big", timezone="Europe/Paris"),
        day=date(2026, 4, 7), zone=PARIS, timetable=timetable,
    )  # fmt: skip
    pdf = render_pdf(html, base_url="http://testserver/")
    assert (timetable.paper, len(timetable.sheets), pdf.pages) == ("a3", 2, 2)


def test_the_pdf_fetcher_serves_only_our_print_stylesheet() -> None:
    fetcher = printing.url_fetcher()
    own = fetcher.fetch("http://testserver/static/confsched/print.css")
    assert own.read() == (CSS / "print.css").read_bytes()
    for url in (
        "http://example.org/tracker.png",
        "file:///etc/passwd",
        "http://testserver/static/confsched/app.css",
        "data:text/css,body{}",
    ):
        with pytest.raises(ValueError, match="printing fetches nothing from the network; refused"):
            fetcher.fetch(url)


def test_rendering_a_pdf_touches_no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[str] = []
    monkeypatch.setattr(
        urllib.request.OpenerDirector, "open", lambda self, url, *a, **k: opened.append(url)
    )
    html = (
        '<link rel="stylesheet" href="/static/confsched/print.css">'
        '<link rel="stylesheet" href="http://example.org/evil.css">'
        '<p>Hi<img src="http://example.org/pixel.png"><img src="file:///etc/hostname"></p>'
    )
    pdf = render_pdf(html, base_url="http://testserver/")
    assert (pdf.body[:5], pdf.pages, opened) == (b"%PDF-", 1, [])


# -- pages ------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_print_index_lists_each_day_with_its_pages_and_pdfs(
    client: Client, demo_event: Event
) -> None:
    html = client.get(f"{BASE}print/").content.decode()
    rows = re.findall(r'<tr><th scope="row">(.*?)</tr>', html, re.S)
    assert [_text(row) for row in rows] == [
        "Tuesday 7 April 2026 28 Page for Tuesday 7 April · PDF for Tuesday 7 April "
        "Page of my agenda for Tuesday 7 April · PDF of my agenda for Tuesday 7 April"
    ]
    assert re.findall(r'href="([^"]*print/[^"]*)"', rows[0]) == [
        f"{BASE}print/{DAY}/", f"{BASE}print/{DAY}.pdf",
        f"{BASE}agenda/print/{DAY}/", f"{BASE}agenda/print/{DAY}.pdf",
    ]  # fmt: skip


@pytest.mark.django_db
def test_the_print_index_in_another_zone_links_with_that_zone(
    client: Client, demo_event: Event
) -> None:
    html = client.get(f"{BASE}print/?tz=Asia/Tokyo").content.decode()
    assert re.findall(rf'href="({BASE}(?:agenda/)?print/[^"]*)"', html) == [
        f"{BASE}print/{DAY}/?tz=Asia%2FTokyo", f"{BASE}print/{DAY}.pdf?tz=Asia%2FTokyo",
        f"{BASE}agenda/print/{DAY}/?tz=Asia%2FTokyo", f"{BASE}agenda/print/{DAY}.pdf?tz=Asia%2FTokyo",
    ]  # fmt: skip


@pytest.mark.django_db
def test_an_event_without_sessions_has_nothing_to_print(client: Client, demo_event: Event) -> None:
    Session.objects.filter(event=demo_event).update(needs_review=True)
    html = client.get(f"{BASE}print/").content.decode()
    assert "No sessions are scheduled yet, so there is nothing to print." in html
    response = client.get(f"{BASE}print/{DAY}/")
    assert (response.status_code, _problem(response.content.decode())) == (
        404, "PyTorch Conference Europe 2026 has no scheduled sessions yet.",
    )  # fmt: skip


@pytest.mark.django_db
def test_the_timetable_has_the_rooms_in_order_and_sessions_at_their_rows(
    client: Client, demo_event: Event
) -> None:
    response = client.get(f"{BASE}print/{DAY}/")
    html = response.content.decode()
    assert (response.status_code, response["Content-Type"]) == (200, "text/html; charset=utf-8")
    assert "Times in Europe/Paris (CEST, UTC+02:00), the event's time zone." in _text(html)
    assert [_text(h) for h in re.findall(r'class="sheet-heading">(.*?)</h2>', html, re.S)] == [
        "Tuesday 7 April, 11:00–12:25 (sheet 1 of 2)",
        "Tuesday 7 April, 13:45–17:05 (sheet 2 of 2)",
    ]
    morning, afternoon = _tables(html)
    assert (morning.columns, afternoon.columns) == (ROOMS, ROOMS)
    assert (morning.rows, afternoon.rows) == (MORNING, AFTERNOON)
    assert morning.cells[:5] == [
        ("11:00", "Central Room", 1,
         ["Why Your Forecasting Transformer Isn’t Working (And How To Fix It in Python)"]),
        ("11:00", "Junior Stage", 1,
         ["Training Embedding Model Resiliently for Multimodal Model Inference Routing"]),
        ("11:00", "Master Stage", 2, ["Helion 1.0: A High-Level DSL for Performance Portable Kernels"]),
        ("11:15", "Junior Stage", 1,
         ["Flexible Deployment of PyTorch Models on MCU-Class Devices Using ExecuTorch"]),
        ("11:30", "Founders Cafe", 1,
         ["Coding Agents for Compiler Construction: Beyond the AI Assistant Paradigm"]),
    ]  # fmt: skip
    assert ("11:45", "Founders Cafe", 1, ["TorchJD: Jacobian Descent in PyTorch"]) in morning.cells
    assert ("15:00", "Founders Cafe", 1, [
        "Jigsaw: Domain and Tensor Parallelism for High-Resolution Input Training"
    ]) in afternoon.cells  # fmt: skip
    titles = [t for table in (morning, afternoon) for *_, ts in table.cells for t in ts]
    assert len(titles) == len(set(titles)) == 28


@pytest.mark.django_db
def test_the_timetable_in_the_viewers_zone_moves_rows_and_days(
    client: Client, demo_event: Event
) -> None:
    html = client.get(f"{BASE}print/{DAY}/?tz=America/New_York").content.decode()
    morning, afternoon = _tables(html)
    assert morning.rows == ["05:00", "05:15", "05:30", "05:45", "06:00", "06:15"]
    assert afternoon.rows[0] == "07:45"
    assert "Times in America/New_York (EDT, UTC-04:00); the event is in Europe/Paris." in _text(
        html
    )
    assert f'href="{BASE}print/{DAY}.pdf?tz=America%2FNew_York"' in html
    # In Auckland the afternoon is the next day already.
    response = client.get(f"{BASE}print/2026-04-08/?tz=Pacific/Auckland")
    assert (response.status_code, _tables(response.content.decode())[0].rows[0]) == (200, "00:15")


@pytest.mark.django_db
def test_a_saved_zone_cookie_does_not_change_the_printed_timetable(
    client: Client, demo_event: Event
) -> None:
    client.cookies["confsched_tz"] = "Asia/Tokyo"
    html = client.get(f"{BASE}print/{DAY}/").content.decode()
    assert _tables(html)[0].rows == MORNING


@pytest.mark.django_db
def test_cancelled_sessions_say_so_in_words(client: Client, demo_event: Event) -> None:
    Session.objects.filter(event=demo_event, key=HELION).update(is_cancelled=True)
    demo_event.save()  # a new schedule version
    html = client.get(f"{BASE}print/{DAY}/").content.decode()
    entry = re.search(r'<div class="entry is-cancelled">(.*?)</div>', html, re.S).group(1)
    assert _text(entry) == (
        "11:00–11:25 · Cancelled Helion 1.0: A High-Level DSL for Performance Portable Kernels "
        "Oguz Ulgen"
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("day", "problem"),
    [
        ("2026-04-08", "No sessions on Wednesday 8 April 2026 in Europe/Paris."),
        (
            "2026-05-01",
            "Friday 1 May 2026 is outside the event, which runs from Tuesday 7 April "
            "2026 to Wednesday 8 April 2026 in Europe/Paris.",
        ),
        ("2026-13-01", "“2026-13-01” is not a day: write it as YYYY-MM-DD, such as 2026-04-07."),
        ("20260407", "“20260407” is not a day: write it as YYYY-MM-DD, such as 2026-04-07."),
        ("2026-W15-2", "“2026-W15-2” is not a day: write it as YYYY-MM-DD, such as 2026-04-07."),
        ("tomorrow", "“tomorrow” is not a day: write it as YYYY-MM-DD, such as 2026-04-07."),
        ("9" * 60, f"“{'9' * 40}…” is not a day: write it as YYYY-MM-DD, such as 2026-04-07."),
    ],
)
@pytest.mark.parametrize("suffix", ["/", ".pdf", "/agenda"])
def test_a_day_without_sessions_or_not_a_day_is_404_saying_why(
    client: Client, demo_event: Event, day: str, problem: str, suffix: str
) -> None:
    url = f"{BASE}agenda/print/{day}/" if suffix == "/agenda" else f"{BASE}print/{day}{suffix}"
    response = client.get(url)
    html = response.content.decode()
    assert (response.status_code, _problem(html)) == (404, problem)
    assert "Cache-Control" not in response or "public" not in response["Cache-Control"]
    assert f'<a href="{BASE}print/{DAY}/">Tuesday 7 April 2026</a> (28 sessions)' in html


@pytest.mark.django_db
def test_an_unknown_event_is_404(client: Client, demo_event: Event) -> None:
    assert client.get(f"/no-such-event/print/{DAY}.pdf").status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url", [f"{BASE}print/{DAY}/", f"{BASE}print/{DAY}.pdf", f"{BASE}agenda/print/{DAY}.pdf"]
)
def test_a_bad_zone_is_the_400_page(client: Client, demo_event: Event, url: str) -> None:
    response = client.get(url + "?tz=Mars/Olympus")
    assert response.status_code == 400
    assert "Unknown time zone 'Mars/Olympus': give an IANA name such as Europe/Paris." in _text(
        response.content.decode()
    )


@pytest.mark.django_db
def test_the_pdf_is_built_once_per_schedule_version_and_served_inline(
    client: Client, demo_event: Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    built: list[int] = []

    def counting(html: str, *, base_url: str) -> printing.Pdf:
        built.append(len(html))
        assert base_url == "http://testserver/"
        return render_pdf(html, base_url=base_url)

    monkeypatch.setattr(views_print, "render_pdf", counting)
    first = client.get(f"{BASE}print/{DAY}.pdf")
    again = client.get(f"{BASE}print/{DAY}.pdf")
    assert (first.status_code, first["Content-Type"], first.content[:5]) == (
        200, "application/pdf", b"%PDF-",
    )  # fmt: skip
    assert first["Content-Disposition"] == f'inline; filename="{DEMO_SLUG}-{DAY}.pdf"'
    assert first["Cache-Control"] == "public, max-age=300"
    assert (again.content, len(built)) == (first.content, 1)
    cached = client.get(f"{BASE}print/{DAY}.pdf", headers={"if-none-match": first["ETag"]})
    assert (cached.status_code, cached.content, len(built)) == (304, b"", 1)
    client.get(f"{BASE}print/{DAY}.pdf?tz=Europe/London")  # another zone: another PDF
    assert len(built) == 2
    demo_event.save()  # a new schedule version
    renewed = client.get(f"{BASE}print/{DAY}.pdf")
    assert (renewed.status_code, len(built), renewed["ETag"] != first["ETag"]) == (200, 3, True)


# -- the agenda's day -------------------------------------------------------------------------


def _star(client: Client, key: str) -> None:
    assert client.post(f"{BASE}sessions/{key}/star", {"starred": "1"}).status_code == 302


def _agenda_rows(html: str) -> list[str]:
    return [_text(row) for row in re.findall(r"<tr class=\"at-.*?</tr>", html, re.S)]


@pytest.mark.django_db
def test_a_visitors_agenda_day_lists_their_stars_with_overlaps_and_free_time(
    client: Client, demo_event: Event
) -> None:
    for key in (HELION, TOUR, TORCHJD, JIGSAW):
        _star(client, key)
    response = client.get(f"{BASE}agenda/print/{DAY}/")
    html = response.content.decode()
    assert response.status_code == 200
    assert "My agenda: Tuesday 7 April 2026" in _text(html)
    assert "4 sessions starred on this day." in _text(html)
    assert _agenda_rows(html) == [
        "11:00–11:25 Helion 1.0: A High-Level DSL for Performance Portable Kernels Oguz Ulgen, "
        "Meta Master Stage",
        "11:30–11:55 Tour De Force: LLM Inference Optimization From Simple To Sophisticated "
        "Christin Pohl, Microsoft Overlaps with TorchJD: Jacobian Descent in PyTorch. Master Stage",
        "11:45–11:55 TorchJD: Jacobian Descent in PyTorch Pierre Quinton, EPFL; Valérian Rey, "
        "Simplex Lab Lightning Talk · Training Systems Overlaps with Tour De Force: LLM Inference "
        "Optimization From Simple To Sophisticated. Founders Cafe",
        "11:55–15:00 Free (185 min)",
        "15:00–15:10 Jigsaw: Domain and Tensor Parallelism for High-Resolution Input Training "
        "Deifilia Kieckhefen, Karlsruhe Institute of Technology Lightning Talk · Training Systems "
        "Founders Cafe",
    ]
    assert response["Cache-Control"] == "private, no-store"  # a visitor's stars: theirs
    assert (response["Vary"], response["X-Robots-Tag"]) == ("Cookie, Accept-Encoding", "noindex")


@pytest.mark.django_db
def test_an_accounts_agenda_day_and_its_pdf(client: Client, demo_event: Event) -> None:
    user = User.objects.create_user("ada", "ada@example.org", "correct horse battery 42")
    star_session(user, queries.session_for_key(demo_event, TORCHJD))
    client.force_login(user)
    html = client.get(f"{BASE}agenda/print/{DAY}/").content.decode()
    assert "ada's agenda: Tuesday 7 April 2026" in _text(html)
    assert [row.split(" Pierre")[0] for row in _agenda_rows(html)] == [
        "11:45–11:55 TorchJD: Jacobian Descent in PyTorch"
    ]
    pdf = client.get(f"{BASE}agenda/print/{DAY}.pdf")
    assert (pdf.status_code, pdf["Content-Type"], pdf.content[:5]) == (
        200, "application/pdf", b"%PDF-",
    )  # fmt: skip
    assert pdf["Content-Disposition"] == f'inline; filename="{DEMO_SLUG}-{DAY}-agenda.pdf"'
    assert "public" not in pdf["Cache-Control"] and "private" in pdf["Cache-Control"]
    client.logout()
    assert "0 sessions starred on this day." in _text(
        client.get(f"{BASE}agenda/print/{DAY}/").content.decode()
    )


@pytest.mark.django_db
def test_a_printed_agenda_day_is_bounded_and_says_so(
    client: Client, demo_event: Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(views_print, "MAX_AGENDA_SESSIONS", 2)
    for key in (HELION, TOUR, TORCHJD, JIGSAW):
        _star(client, key)
    html = client.get(f"{BASE}agenda/print/{DAY}/").content.decode()
    assert [row.split(" Christin")[0].split(" Oguz")[0] for row in _agenda_rows(html)] == [
        "11:00–11:25 Helion 1.0: A High-Level DSL for Performance Portable Kernels",
        "11:30–11:55 Tour De Force: LLM Inference Optimization From Simple To Sophisticated",
    ]
    assert (
        "4 sessions starred on this day. Only the first 2 are printed here (2 later ones are "
        "left out): the day's timetable has every session."
    ) in _text(html)
    assert f'<a href="{BASE}print/{DAY}/">the day\'s timetable</a>' in html


@pytest.mark.django_db
def test_a_printed_entry_names_a_few_overlaps_and_counts_the_rest(
    client: Client, demo_event: Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(views_print, "MAX_CLASHES_NAMED", 0)
    for key in (HELION, TOUR, TORCHJD, JIGSAW):
        _star(client, key)
    rows = _agenda_rows(client.get(f"{BASE}agenda/print/{DAY}/").content.decode())
    assert [row.split(" Overlaps ")[1] for row in rows if " Overlaps " in row] == [
        "with 1 more. Master Stage",
        "with 1 more. Founders Cafe",
    ]


@pytest.mark.django_db
def test_an_agenda_pdf_is_built_once_per_content(
    client: Client, demo_event: Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    built: list[int] = []

    def counting(html: str, *, base_url: str) -> printing.Pdf:
        built.append(len(html))
        return render_pdf(html, base_url=base_url)

    monkeypatch.setattr(views_print, "render_pdf", counting)
    other = Client()
    for visitor in (client, other):
        _star(visitor, TORCHJD)
    first = client.get(f"{BASE}agenda/print/{DAY}.pdf")
    again = client.get(f"{BASE}agenda/print/{DAY}.pdf")
    # Another browser with the same stars asks for the same paper: no second build.
    same = other.get(f"{BASE}agenda/print/{DAY}.pdf")
    assert (first.status_code, first.content[:5], again.content, same.content, len(built)) == (
        200, b"%PDF-", first.content, first.content, 1,
    )  # fmt: skip
    _star(other, HELION)
    assert (other.get(f"{BASE}agenda/print/{DAY}.pdf").status_code, len(built)) == (200, 2)


@pytest.mark.django_db
def test_an_agenda_day_without_stars_says_so(client: Client, demo_event: Event) -> None:
    html = client.get(f"{BASE}agenda/print/{DAY}/").content.decode()
    assert "Nothing starred on this day." in html
    assert "<table" not in html


@pytest.mark.django_db
def test_the_agenda_page_links_each_day_to_its_print(client: Client, demo_event: Event) -> None:
    _star(client, TORCHJD)
    html = client.get(f"{BASE}agenda/").content.decode()
    assert re.findall(r'class="print-link"><a href="([^"]+)"', html) == [
        f"{BASE}agenda/print/{DAY}/"
    ]
    html = client.get(f"{BASE}agenda/?tz=Asia/Tokyo").content.decode()
    assert re.findall(r'class="print-link"><a href="([^"]+)"', html) == [
        f"{BASE}agenda/print/{DAY}/?tz=Asia/Tokyo"
    ]


# -- the print stylesheet ---------------------------------------------------------------------


def test_app_css_prints_without_controls_and_each_day_on_a_new_page() -> None:
    css = (SITE_CSS / "app.css").read_text()
    section = css[css.index("/* == printing:") :]
    media = section[section.index("@media print {") :]
    media = media[: media.index("\n}\n")]
    hidden = re.search(r"\n  ([^{]*)\{ display: none !important; \}", media).group(1)
    assert {name.strip() for name in hidden.split(",")} == {
        ".skip-link", ".site-nav", ".account", "#star-form", ".star-form", ".star",
        ".zone-controls", ".filters-panel", ".share", ".copy-status", ".subscribe",
        ".site-footer", ".crumbs", ".session-actions", ".now-next", ".letters",
        ".speaker-search", ".filter-actions", ".panel", ".more-link", ".print-link",
        ".print-day-list", ".print-days a",
    }  # fmt: skip
    assert ".day + .day { break-before: page; }" in media
    assert "background" not in media.replace("background: none", "")


@pytest.fixture
def pdf_documents(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The HTML documents PDFs are made from, as they are made."""
    made: list[str] = []

    def keeping(html: str, *, base_url: str) -> printing.Pdf:
        made.append(html)
        return render_pdf(html, base_url=base_url)

    monkeypatch.setattr(views_print, "render_pdf", keeping)
    return made


@pytest.mark.django_db
def test_a_day_too_big_for_a_timetable_is_listed_by_time_in_its_pdf(
    client: Client, demo_event: Event, monkeypatch: pytest.MonkeyPatch, pdf_documents: list[str]
) -> None:
    """A 1,000-session day as a timetable costs WeasyPrint ~10 s; as plain lines ~1.5 s."""
    monkeypatch.setattr(views_print, "PDF_TIMETABLE_MOST", 5)
    response = client.get(f"{BASE}print/{DAY}.pdf")
    assert (response.status_code, response.content[:5]) == (200, b"%PDF-")
    html = pdf_documents[0]
    assert "too many for a timetable on paper, so they are listed by time" in html
    assert '<table class="timetable' not in html
    slot = re.search(
        r'<time datetime="2026-04-07T11:45:00\+02:00">11:45</time></h2>\n<p>(.*?)</p>', html, re.S
    )
    assert slot[1] == (
        "Founders Cafe · Lightning Talk: TorchJD: Jacobian Descent in PyTorch — Pierre Quinton; "
        "Valérian Rey"
    )


@pytest.mark.django_db
def test_a_day_small_enough_keeps_its_timetable_in_its_pdf(
    client: Client, demo_event: Event, pdf_documents: list[str]
) -> None:
    assert client.get(f"{BASE}print/{DAY}.pdf").status_code == 200
    assert '<table class="timetable' in pdf_documents[0]
