"""Organizer screens: a save a browser makes without edits changes nothing; times in the event's
zone."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from urllib.parse import quote

import pytest
from django.contrib.auth.models import User
from django.test import Client

from confsched.programme.models import Event, OutlineStep, ScheduleVersion, Session, Speaker
from confsched.programme.services import create_event, load_programme, set_speaker_fields

pytestmark = pytest.mark.django_db

TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"
MULTILINE = "First paragraph.\n\nSecond paragraph,\nwith a line break."


class _BrowserForm(HTMLParser):
    """The fields a browser submits from a page's form, as it submits them.

    Browsers send every textarea with CR LF line ends (the HTML form-submission algorithm),
    whatever the page held; that is what makes an untouched save look like an edit.
    """

    def __init__(self, form_id: str) -> None:
        super().__init__(convert_charrefs=True)
        self.form_id = form_id
        self.inside = False
        self.fields: list[tuple[str, str]] = []
        self._textarea: str | None = None
        self._text: list[str] = []
        self._select: str | None = None
        self._options: list[tuple[str, bool]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {key: value or "" for key, value in attrs}
        if tag == "form":
            self.inside = a.get("id") == self.form_id
        if not self.inside or "disabled" in a:
            return
        name = a.get("name", "")
        if tag == "input" and name:
            kind = a.get("type", "text")
            if kind in {"checkbox", "radio"}:
                if "checked" in a:
                    self.fields.append((name, a.get("value", "on")))
            elif kind not in {"submit", "button", "image", "reset", "file"}:
                self.fields.append((name, a.get("value", "")))
        elif tag == "textarea" and name:
            self._textarea, self._text = name, []
        elif tag == "select" and name:
            self._select, self._options = name, []
        elif tag == "option" and self._select is not None:
            self._options.append((a.get("value", ""), "selected" in a))

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False
        elif tag == "textarea" and self._textarea is not None:
            text = "".join(self._text)
            text = text.removeprefix("\n")  # the parser drops one newline after <textarea>
            self.fields.append((self._textarea, text.replace("\n", "\r\n")))
            self._textarea = None
        elif tag == "select" and self._select is not None:
            chosen = [value for value, selected in self._options if selected]
            if not chosen and self._options:
                chosen = [self._options[0][0]]
            self.fields.extend((self._select, value) for value in chosen)
            self._select = None


def _submit_untouched(client: Client, url: str, form_id: str) -> int:
    page = client.get(url)
    assert page.status_code == 200
    form = _BrowserForm(form_id)
    form.feed(page.content.decode())
    data: dict[str, list[str]] = {}
    for name, value in form.fields:
        data.setdefault(name, []).append(value)
    return client.post(url, {**data, "_save": "Save"}).status_code


@pytest.fixture
def organizer(client: Client) -> Client:
    client.force_login(User.objects.create_superuser("organizer", "o@example.org", "pw-123456789"))
    return client


def test_an_untouched_session_save_changes_nothing(organizer: Client, demo_event) -> None:
    Session.objects.filter(key=TORCHJD).update(abstract=MULTILINE, review_note="a\nb")
    session = Session.objects.get(key=TORCHJD)
    versions = ScheduleVersion.objects.count()
    steps = OutlineStep.objects.filter(event=demo_event).count()
    url = f"/admin/programme/session/{session.pk}/change/"
    assert _submit_untouched(organizer, url, "session_form") == 302
    after = Session.objects.get(pk=session.pk)
    assert (after.abstract, after.review_note, after.sequence) == (MULTILINE, "a\nb", 0)
    assert ScheduleVersion.objects.count() == versions
    # No version to record, yet the version moves, once, as after any save in the admin.
    assert OutlineStep.objects.filter(event=demo_event).count() == steps + 1


def test_an_edited_abstract_is_stored_with_plain_line_ends(organizer: Client, demo_event) -> None:
    session = Session.objects.get(key=TORCHJD)
    url = f"/admin/programme/session/{session.pk}/change/"
    form = _BrowserForm("session_form")
    form.feed(organizer.get(url).content.decode())
    data: dict[str, list[str]] = {}
    for name, value in form.fields:
        data.setdefault(name, []).append(value)
    data["abstract"] = ["One.\r\n\r\nTwo.\rThree."]
    steps = OutlineStep.objects.filter(event=demo_event).count()
    assert organizer.post(url, {**data, "_save": "Save"}).status_code == 302
    after = Session.objects.get(pk=session.pk)
    assert (after.abstract, after.sequence) == ("One.\n\nTwo.\nThree.", 1)
    version = ScheduleVersion.objects.get(event=demo_event, number=2)
    assert [c.description for c in version.changes.all()] == ["description changed"]
    # The version moved once, with one step of the outline journal naming the session.
    step = OutlineStep.objects.filter(event=demo_event).order_by("pk").last()
    assert OutlineStep.objects.filter(event=demo_event).count() == steps + 1
    assert (step.sessions, step.until) == (
        [session.pk],
        Event.objects.get(pk=demo_event.pk).updated_at,
    )


def test_an_untouched_speaker_save_keeps_the_bio(organizer: Client, demo_event) -> None:
    speaker = Speaker.objects.get(key="valerian-rey")
    Speaker.objects.filter(pk=speaker.pk).update(bio="Line one.\nLine two.")
    url = f"/admin/programme/speaker/{speaker.pk}/change/"
    assert _submit_untouched(organizer, url, "speaker_form") == 302
    assert Speaker.objects.get(pk=speaker.pk).bio == "Line one.\nLine two."


def test_the_organizer_gives_a_held_field_back_to_the_file(organizer: Client, demo_event) -> None:
    speaker = Speaker.objects.get(key="valerian-rey")
    set_speaker_fields(speaker, {"bio": "Mine.", "company": "Mine Ltd"}, by="valerian")
    url = f"/admin/programme/speaker/{speaker.pk}/change/"
    page = organizer.get(url).content.decode()
    assert "company by valerian; bio by valerian" in page
    form = _BrowserForm("speaker_form")
    form.feed(page)
    data: dict[str, list[str]] = {}
    for name, value in form.fields:
        if name != "release":  # unticked: checkboxes the browser would not send
            data.setdefault(name, []).append(value)
    assert organizer.post(url, {**data, "release": ["bio"], "_save": "Save"}).status_code == 302
    after = Speaker.objects.get(pk=speaker.pk)
    assert (sorted(after.held), after.bio, after.company) == (["company"], "Mine.", "Mine Ltd")


def test_the_session_list_shows_times_in_the_event_zone(organizer: Client, demo_event) -> None:
    page = organizer.get("/admin/programme/session/", {"q": "TorchJD"}).content.decode()
    assert "Starts (event&#x27;s zone)" in page
    assert '<td class="field-starts">Tue 7 Apr 2026 11:45 Europe/Paris</td>' in page


def test_each_event_in_the_list_shows_its_own_zone(
    organizer: Client, demo_event, demo_programme
) -> None:
    tokyo = create_event(slug="tokyo", name="Tokyo", timezone="Asia/Tokyo")
    load_programme(tokyo, demo_programme)
    page = organizer.get("/admin/programme/session/", {"q": "TorchJD"}).content.decode()
    assert page.count('<td class="field-starts">') == 2
    assert '<td class="field-starts">Tue 7 Apr 2026 11:45 Europe/Paris</td>' in page
    assert '<td class="field-starts">Tue 7 Apr 2026 18:45 Asia/Tokyo</td>' in page


def test_the_date_drill_down_uses_the_event_days(organizer: Client, demo_programme) -> None:
    # In Auckland (UTC+12) the Paris afternoon of 7 April is already 8 April.
    auckland = create_event(slug="auckland", name="Auckland", timezone="Pacific/Auckland")
    load_programme(auckland, demo_programme)
    page = organizer.get(
        "/admin/programme/session/", {"starts_at__year": "2026", "starts_at__month": "4"}
    ).content.decode()
    days = re.findall(
        r'starts_at__day=(\d+)&amp;starts_at__month=4&amp;starts_at__year=2026"', page
    )
    assert days == ["7", "8"]


@pytest.mark.parametrize("number", ["²", "9" * 5000, "-1"])
def test_an_address_naming_no_row_is_told_not_a_crash(
    organizer: Client, demo_event, number: str
) -> None:
    quoted = quote(number)
    lookups = [
        organizer.get(f"/admin/programme/event/{quoted}/change/"),
        organizer.get(f"/admin/programme/session/{quoted}/change/"),
        organizer.get(f"/admin/programme/session/?event__id__exact={quoted}"),
    ]
    assert [(r.status_code, r.get("Location")) for r in lookups] == [
        (302, "/admin/"),
        (302, "/admin/"),
        (200, None),  # the filter names no event: the list of every session one may see
    ]


def test_a_100_kb_search_is_read_to_its_first_500_characters(organizer: Client, demo_event) -> None:
    # Whole, it was a LIKE pattern SQLite refuses ("too complex"): a 500.
    found = [
        organizer.get(f"/admin/programme/{model}/", {"q": "x" * 100_000})
        for model in ("event", "session", "speaker")
    ]
    assert [page.status_code for page in found] == [200, 200, 200]
    assert "0 sessions" in found[1].content.decode()
