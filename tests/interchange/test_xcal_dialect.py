"""The frab/pentabarf xCal dialect (schedule.xcal as frab and pretalx serve it), read the way
Giggity's xCal reader reads it, and read back by our own reader; the RFC 6321 form beside it."""

from __future__ import annotations

import dataclasses
import xml.sax  # noqa: S406 - only for the ContentHandler base class; parsing is defused
from datetime import UTC, datetime, timedelta, timezone

import defusedxml.sax
import pytest

from confsched.core.errors import ParseError
from confsched.interchange.formats import WRITERS, detect_format
from confsched.interchange.ical import xcal_read as xcal
from confsched.interchange.ical import xcal_write as xcal_write
from confsched.interchange.programme import Programme, Session, SessionSpeaker, Speaker
from confsched.interchange.sched.read import parse_sched_pages
from tests.conftest import demo_files

TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"
CEST = timezone(timedelta(hours=2), "CEST")


class GiggityXcal(xml.sax.ContentHandler):
    """Giggity's xCal reader in miniature: SAX with namespaces, every element by its local
    name; an element's text is what came since the last start tag; a <vevent> needs uid,
    summary, location, dtstart and dtend, its times read as yyyyMMdd'T'HHmmss from the start
    of the text (Java's SimpleDateFormat ignores what follows), else it is dropped. Rooms are
    the locations; x-wr-calname is the schedule's id, x-wr-caldesc its title."""

    def __init__(self) -> None:
        super().__init__()
        self.event: dict[str, str] | None = None
        self.text = ""
        self.items: list[dict[str, object]] = []
        self.rooms: list[str] = []
        self.id = self.title = ""

    def startElementNS(self, name, qname, attrs) -> None:  # noqa: ANN001, N802 - SAX's API
        self.text = ""
        if name[1] == "vevent":
            self.event = {}

    def characters(self, content: str) -> None:
        self.text += content

    def endElementNS(self, name, qname) -> None:  # noqa: ANN001, N802 - SAX's API
        local = name[1]
        if local == "vevent":
            event, self.event = self.event or {}, None
            needed = ("uid", "summary", "location", "dtstart", "dtend")
            if any(key not in event for key in needed):
                return
            try:
                # Floating, as Giggity reads them: kept as "YYYY-MM-DD HH:MM" wall-clock text.
                start, end = (
                    f"{datetime.strptime(event[key][:15], '%Y%m%dT%H%M%S'):%Y-%m-%d %H:%M}"  # noqa: DTZ007 - floating
                    for key in ("dtstart", "dtend")
                )
            except ValueError:
                return
            if event["location"] not in self.rooms:
                self.rooms.append(event["location"])
            self.items.append(
                {"id": event["uid"], "title": event["summary"], "start": start, "end": end,
                 "room": event["location"], "description": event.get("description"),
                 "url": event.get("url")}
            )  # fmt: skip
        elif local == "x-wr-calname":
            self.id = self.text
        elif local == "x-wr-caldesc":
            self.title = self.text
        elif self.event is not None:
            self.event[local] = self.text


def giggity(data: bytes) -> GiggityXcal:
    head = data[:1024].decode("utf-8", errors="replace").lower()
    assert "<icalendar" in head and "<vcalendar" in head  # how Giggity tells xCal apart
    reader = GiggityXcal()
    parser = defusedxml.sax.make_parser()
    parser.setFeature(xml.sax.handler.feature_namespaces, True)
    parser.setContentHandler(reader)
    parser.feed(data)
    parser.close()
    return reader


@pytest.fixture(scope="module")
def demo() -> Programme:
    return dataclasses.replace(
        parse_sched_pages(demo_files()), timezone="Europe/Paris", location="Paris, France"
    )


def small_programme() -> Programme:
    return Programme(
        name="Small Conf, Lyon",
        timezone="Europe/Paris",
        location="Lyon, France",
        speakers=[
            Speaker(key="ada", name="Ada Lovelace", company="Analytical Engines"),
            Speaker(key="alan", name="Alan Turing"),
        ],
        sessions=[
            Session(
                key="talk-b",
                title="Größe & <Emoji 🚀>",
                kind="Keynote",
                abstract="Line one.\n\nLine two.",
                starts_at=datetime(2026, 6, 2, 10, 0, tzinfo=CEST),
                ends_at=datetime(2026, 6, 2, 10, 30, tzinfo=CEST),
                room="Room 1",
                track="Compilers",
                language="de",
                speakers=(SessionSpeaker("ada", "Royal Society"), SessionSpeaker("alan")),
            ),
            Session(
                key="talk-a",
                title="Cancelled one",
                starts_at=datetime(2026, 6, 2, 8, 0, tzinfo=UTC),
                ends_at=datetime(2026, 6, 2, 8, 20, tzinfo=UTC),
                is_cancelled=True,
            ),
            Session(key="unscheduled", title="Nobody knows when"),
        ],
    )


def test_schedule_xcal_is_the_dialect_and_the_rfc_form_has_its_own_name() -> None:
    assert (WRITERS["xcal"].render, WRITERS["xcal"].content_type) == (
        xcal_write.render_pentabarf,
        "application/xml; charset=utf-8",
    )
    assert (WRITERS["rfc6321.xcal"].render, WRITERS["rfc6321.xcal"].content_type) == (
        xcal_write.render,
        "application/calendar+xml; charset=utf-8",
    )


def test_giggity_reads_no_event_of_the_rfc_form(demo: Programme) -> None:
    # Its values are nested in <properties> and <date-time>: no vevent has the five it needs.
    reader = giggity(xcal_write.render(demo, slug="pytorch", uid_domain="x.confsched"))
    assert reader.items == []


def test_giggity_reads_every_session_of_the_dialect(demo: Programme) -> None:
    data = xcal_write.render_pentabarf(
        demo, slug="pytorch-eu-2026", base_url="https://confsched.example", uid_domain="x.confsched"
    )
    reader = giggity(data)
    scheduled = sorted(
        (s for s in demo.sessions if s.starts_at and not s.needs_review),
        key=lambda s: (s.starts_at, s.key),
    )
    assert len(reader.items) == len(scheduled) == 28
    assert [item["id"] for item in reader.items] == [f"{s.key}@x.confsched" for s in scheduled]
    assert (reader.id, reader.title) == ("PyTorch Conference Europe 2026",) * 2
    torchjd = next(item for item in reader.items if str(item["id"]).startswith(TORCHJD))
    assert torchjd == {
        "id": f"{TORCHJD}@x.confsched",
        "title": "Lightning Talk: TorchJD: Jacobian Descent in PyTorch",
        "start": "2026-04-07 11:45",  # Paris wall-clock time, as frab writes it
        "end": "2026-04-07 11:55",
        "room": "Founders Cafe",
        "description": "Speakers: Pierre Quinton (EPFL), Valérian Rey (Simplex Lab)\n\n"
        + demo.session(TORCHJD).abstract,
        "url": f"https://confsched.example/pytorch-eu-2026/sessions/{TORCHJD}/",
    }
    assert sorted(reader.rooms) == sorted({s.room for s in scheduled})


def test_small_programme_exact_dialect_document() -> None:
    data = xcal_write.render_pentabarf(small_programme(), slug="small", uid_domain="d.example")
    assert data.decode() == (
        "<?xml version='1.0' encoding='utf-8'?>\n"
        '<iCalendar xmlns:pentabarf="http://pentabarf.org" '
        'xmlns:xCal="urn:ietf:params:xml:ns:xcal">\n'
        "  <vcalendar>\n"
        "    <version>2.0</version>\n"
        "    <prodid>-//confsched//confsched//EN</prodid>\n"
        "    <x-wr-caldesc>Small Conf, Lyon</x-wr-caldesc>\n"
        "    <x-wr-calname>Small Conf, Lyon</x-wr-calname>\n"
        "    <x-wr-timezone>Europe/Paris</x-wr-timezone>\n"
        "    <vevent>\n"
        "      <method>PUBLISH</method>\n"
        "      <uid>talk-a@d.example</uid>\n"
        "      <pentabarf:event-slug>small-157552320-cancelled-one</pentabarf:event-slug>\n"
        "      <pentabarf:title>Cancelled one</pentabarf:title>\n"
        '      <dtstart tzid="Europe/Paris">20260602T100000</dtstart>\n'
        '      <dtend tzid="Europe/Paris">20260602T102000</dtend>\n'
        "      <summary>Cancelled: Cancelled one</summary>\n"
        "      <description />\n"
        "      <class>PUBLIC</class>\n"
        "      <status>CANCELLED</status>\n"
        "      <location />\n"
        "    </vevent>\n"
        "    <vevent>\n"
        "      <method>PUBLISH</method>\n"
        "      <uid>talk-b@d.example</uid>\n"
        "      <pentabarf:event-slug>small-136429879-grosse-emoji</pentabarf:event-slug>\n"
        "      <pentabarf:title>Größe &amp; &lt;Emoji 🚀&gt;</pentabarf:title>\n"
        "      <pentabarf:language-code>de</pentabarf:language-code>\n"
        '      <dtstart tzid="Europe/Paris">20260602T100000</dtstart>\n'
        '      <dtend tzid="Europe/Paris">20260602T103000</dtend>\n'
        "      <summary>Keynote: Größe &amp; &lt;Emoji 🚀&gt;</summary>\n"
        "      <description>Speakers: Ada Lovelace (Royal Society), Alan Turing\n\n"
        "Line one.\n\nLine two.</description>\n"
        "      <class>PUBLIC</class>\n"
        "      <status>CONFIRMED</status>\n"
        "      <category>Compilers</category>\n"
        "      <location>Room 1</location>\n"
        "      <attendee>Ada Lovelace</attendee>\n"
        "      <attendee>Alan Turing</attendee>\n"
        "    </vevent>\n"
        "  </vcalendar>\n"
        "</iCalendar>\n"
    )
    # Giggity keeps the cancelled one too (it has all five); the empty location is a room.
    assert [item["room"] for item in giggity(data).items] == ["", "Room 1"]


def test_a_programme_without_a_zone_is_written_in_utc() -> None:
    programme = dataclasses.replace(small_programme(), timezone="")
    data = xcal_write.render_pentabarf(programme, slug="small")
    assert b"<dtstart>20260602T080000Z</dtstart>" in data
    assert giggity(data).items[0]["start"] == "2026-06-02 08:00"
    back = xcal.parse(data, source="small.xcal")
    assert back.session("talk-b").starts_at == datetime(2026, 6, 2, 8, 0, tzinfo=UTC)


def test_our_reader_reads_the_dialect_back() -> None:
    programme = small_programme()
    data = xcal_write.render_pentabarf(programme, slug="small", uid_domain="d.example")
    back = xcal.parse(data, source="small.xcal", uid_domain="d.example")
    assert back.name == "Small Conf, Lyon"
    assert back.timezone == "Europe/Paris"
    talk = back.session("talk-b")
    assert (talk.kind, talk.title, talk.room, talk.track, talk.abstract) == (
        "Keynote", "Größe & <Emoji 🚀>", "Room 1", "Compilers", "Line one.\n\nLine two.",
    )  # fmt: skip
    assert (talk.starts_at, talk.ends_at) == (
        datetime(2026, 6, 2, 10, 0, tzinfo=CEST),
        datetime(2026, 6, 2, 10, 30, tzinfo=CEST),
    )
    assert [(b.speaker_key, b.affiliation) for b in talk.speakers] == [
        ("ada-lovelace", "Royal Society"),
        ("alan-turing", ""),
    ]
    assert back.session("talk-a").is_cancelled is True
    assert back.session("talk-a").unknown >= {"track"}
    assert [s.key for s in back.sessions] == ["talk-a", "talk-b"]


def test_the_demo_round_trips_through_both_forms(demo: Programme) -> None:
    def signature(programme: Programme) -> list[tuple]:
        return sorted(
            (s.key, s.kind, s.title, s.starts_at, s.ends_at, s.room, s.track, s.abstract)
            for s in programme.sessions
            if s.starts_at and not s.needs_review
        )

    for render in (xcal_write.render, xcal_write.render_pentabarf):
        data = render(demo, slug="pytorch", uid_domain="x.confsched")
        back = xcal.parse(
            data, source="demo.xcal", uid_domain="x.confsched", location="Paris, France"
        )
        assert signature(back) == signature(demo), render.__name__


# As frab's and pretalx's schedule.xcal start (their templates, abridged).
FRAB_HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?>\n<iCalendar xmlns:xCal="urn:ietf:params:xml:ns:xcal" '
    'xmlns:pentabarf="http://pentabarf.org">\n  <vcalendar>'
)
PRETALX_HEAD = (
    "<?xml version='1.0' encoding='utf-8' ?>\n<iCalendar xmlns:pentabarf='http://pentabarf.org' "
    "xmlns:xCal='urn:ietf:params:xml:ns:xcal'>\n    <vcalendar>"
)


@pytest.mark.parametrize("head", [FRAB_HEAD, PRETALX_HEAD])
def test_the_dialect_is_detected_as_xcal(head: str) -> None:
    assert xcal.looks_like(head) is True
    assert detect_format("schedule.xcal", head.encode()).name == "xcal"


def test_reads_a_frab_document_in_the_zone_given() -> None:
    data = (
        FRAB_HEAD + "<version>2.0</version><x-wr-calname>38C3 Schedule</x-wr-calname>"
        "<vevent><method>PUBLISH</method><uid>123@38C3@pentabarf.org</uid>"
        "<pentabarf:event-id>123</pentabarf:event-id><dtstart>20241227T113000</dtstart>"
        "<dtend>20241227T121000</dtend><duration>004000</duration><summary>Opening</summary>"
        "<description>Welcome</description><category>Lecture</category>"
        "<location>Saal 1</location><attendee>Ada</attendee><attendee>Bob</attendee></vevent>"
        "</vcalendar></iCalendar>"
    ).encode()
    back = xcal.parse(data, source="38c3.xcal", default_timezone="Europe/Berlin")
    (talk,) = back.sessions
    assert (talk.key, talk.title, talk.room, talk.abstract) == (
        "123@38C3@pentabarf.org", "Opening", "Saal 1", "Welcome",
    )  # fmt: skip
    assert talk.starts_at == datetime(2024, 12, 27, 10, 30, tzinfo=UTC)
    assert talk.ends_at == datetime(2024, 12, 27, 11, 10, tzinfo=UTC)
    assert [b.speaker_key for b in talk.speakers] == ["ada", "bob"]
    assert back.name == "38C3 Schedule"


def test_refuses_an_unreadable_dialect_time() -> None:
    data = (
        FRAB_HEAD + "<vevent><uid>1@x</uid><summary>Talk</summary>"
        "<dtstart>27.12.2024 11:30</dtstart></vevent></vcalendar></iCalendar>"
    ).encode()
    with pytest.raises(ParseError) as caught:
        xcal.parse(data, source="x.xcal", default_timezone="UTC")
    assert str(caught.value) == (
        "x.xcal: event '1@x' ('Talk'): <dtstart>27.12.2024 11:30</dtstart> cannot be read; "
        "expected a time such as <dtstart>20260407T114500</dtstart> (the event's local time) "
        "or <dtstart>20260407T094500Z</dtstart> (UTC)"
    )


def test_what_an_rfc_event_does_not_say_is_unknown() -> None:
    data = xcal_write.render(small_programme(), slug="small", uid_domain="d.example")
    back = xcal.parse(data, source="small.xcal", uid_domain="d.example")
    assert back.session("talk-b").unknown == frozenset()
    # Its LOCATION is the venue alone ("Lyon, France"): the room is known to be none.
    assert back.session("talk-a").unknown == {"track", "abstract", "speakers", "affiliations"}
