"""The team's say over speakers' edits (speakers/review.py, web/staff/speakers_review.py): under
review an edit waits, shown to the team as a difference, until approved (then public, named in
the change log) or rejected (the speaker reads why); editing closes at the team's date with
nothing written after it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from html import unescape
from pathlib import Path

import pytest
from django.http import HttpResponse
from django.test import Client

from confsched.core import clock
from confsched.programme.models import Event, ScheduleVersion, Session, SessionLink, Speaker
from confsched.speakers import review
from confsched.speakers.completeness import missing_items, with_waiting_edits
from confsched.speakers.differences import Piece, words
from confsched.speakers.models import EditingRules, ProposedChange, SlideFile, SpeakerPhoto
from tests.task_queue import committed, run_worker_committed
from tests.web.conftest import BASE
from tests.web.test_speaker_pages import _jpeg, _pdf, _signed_in, _team_client, _upload

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("speaker_media")]
Status = ProposedChange.Status


def _under_review(event: Event, **rules: object) -> None:
    EditingRules.objects.create(event=event, review=True, **rules)


def _profile_url(speaker: Speaker) -> str:
    return f"/speaker/{speaker.event.slug}/{speaker.key}/"


def _profile(speaker: Speaker, **values: str) -> dict[str, str]:
    return {
        "form": "profile", "name": speaker.name, "position": speaker.position,
        "company": speaker.company, "bio": speaker.bio, "homepage": speaker.homepage,
        "links": "", **values,
    }  # fmt: skip


def _send_photo(client: Client, speaker: Speaker) -> HttpResponse:
    """The photo form as the speaker sends it, then the worker that prepares the photo."""
    with committed():
        response = client.post(_profile_url(speaker), {
            "form": "photo", "focus_x": "50", "focus_y": "50",
            "photo": _upload("me.jpg", _jpeg(), "image/jpeg"),
        })  # fmt: skip
    run_worker_committed()
    return response


def _queue(event: Event) -> str:
    return f"/{event.slug}/team/speakers/review/"


def test_words_are_compared_word_by_word() -> None:
    assert words("Builds fast models in Paris.", "Builds small fast models in Lyon.") == (
        Piece("same", "Builds "),
        Piece("ins", "small "),
        Piece("same", "fast models in "),
        Piece("del", "Paris."),
        Piece("ins", "Lyon."),
    )
    assert words("", "New.") == (Piece("ins", "New."),)


def test_a_bio_under_review_waits_then_goes_live_when_approved(speaker: Speaker) -> None:
    _under_review(speaker.event)
    client, user = _signed_in(speaker)
    old_bio = speaker.bio
    response = client.post(_profile_url(speaker), _profile(speaker, bio="Builds *fast* models."))
    assert response["Location"] == f"{_profile_url(speaker)}?saved=profile&outcome=waiting"
    speaker.refresh_from_db()
    assert speaker.bio == old_bio  # attendees see the page as it was
    change = ProposedChange.objects.get(speaker=speaker)
    assert (change.kind, change.status, change.values) == (
        "profile", "pending", {"bio": "Builds *fast* models."},
    )  # fmt: skip
    # The speaker finds their words in the form and is told they wait.
    page = unescape(client.get(response["Location"]).content.decode())
    assert "Sent to the organizers: attendees see it once they approve it." in page
    assert "Builds *fast* models.</textarea>" in page
    assert "Your changes below wait for the organizers' review" in page
    # The team sees the difference.
    team = _team_client("editor")
    queue = unescape(team.get(_queue(speaker.event)).content.decode())
    assert "1 change waits for review" in queue
    assert "<ins>Builds *fast* models.</ins>" in queue
    versions = ScheduleVersion.objects.filter(event=speaker.event).count()
    approved = team.post(_queue(speaker.event), {"action": "approve", "change": change.pk})
    assert approved.status_code == 302
    speaker.refresh_from_db()
    assert speaker.bio == "Builds *fast* models."
    assert speaker.held["bio"]["by"] == f"{user.get_username()} (approved by team-editor)"
    version = ScheduleVersion.objects.filter(event=speaker.event).latest("number")
    assert ScheduleVersion.objects.filter(event=speaker.event).count() == versions + 1
    assert version.by == f"{user.get_username()} (approved by team-editor)"
    assert [c.description for c in version.changes.all()][:1] == [
        f"{speaker.name}'s profile changed: bio"
    ]
    change.refresh_from_db()
    assert (change.status, change.decided_by) == ("approved", "team-editor")
    after = unescape(team.get(_queue(speaker.event)).content.decode())
    assert f"Approved: attendees see the change of {speaker.name} now." in after
    assert "0 changes wait for review" in after


def test_a_rejected_change_stays_private_and_the_speaker_reads_why(speaker: Speaker) -> None:
    _under_review(speaker.event)
    client, _user = _signed_in(speaker)
    before = Speaker.objects.values().get(pk=speaker.pk)
    client.post(_profile_url(speaker), _profile(speaker, company="Acme (hiring!)"))
    change = ProposedChange.objects.get(speaker=speaker)
    team = _team_client("editor")
    team.post(_queue(speaker.event), {
        "action": "reject", "change": change.pk, "reason": "No adverts, please.",
    })  # fmt: skip
    assert Speaker.objects.values().get(pk=speaker.pk) == before
    page = unescape(client.get(_profile_url(speaker)).content.decode())
    assert "The organizers did not take your change of the profile" in page
    assert "Their reason: No adverts, please." in page
    # Deciding it again is refused, and so is a change of another event or none at all.
    for posted, message in (
        ({"action": "approve", "change": change.pk}, "This change was already decided: rejected."),
        ({"action": "approve", "change": 999999}, "No such change to review."),
        ({"action": "approve", "change": "x"}, "Choose a change and approve or reject it."),
        ({"action": "publish", "change": change.pk}, "Choose a change and approve or reject it."),
    ):
        response = team.post(_queue(speaker.event), posted)
        assert response.status_code == 400
        assert message in unescape(response.content.decode())
    assert Speaker.objects.values().get(pk=speaker.pk) == before


def test_a_newer_proposal_replaces_the_waiting_one_and_the_old_values_withdraw_it(
    speaker: Speaker,
) -> None:
    _under_review(speaker.event)
    client, _user = _signed_in(speaker)
    client.post(_profile_url(speaker), _profile(speaker, position="Engineer"))
    client.post(_profile_url(speaker), _profile(speaker, position="Lead engineer"))
    statuses = list(ProposedChange.objects.values_list("values", "status"))
    assert statuses == [
        ({"position": "Engineer"}, "replaced"),
        ({"position": "Lead engineer"}, "pending"),
    ]
    response = client.post(_profile_url(speaker), _profile(speaker))  # as it is public
    assert response["Location"].endswith("outcome=unchanged")
    assert not ProposedChange.objects.filter(status=Status.PENDING).exists()


def test_a_photo_under_review_is_stored_but_shown_only_once_approved(speaker: Speaker) -> None:
    _under_review(speaker.event)
    client, _user = _signed_in(speaker)
    _send_photo(client, speaker)
    speaker.refresh_from_db()
    assert (SpeakerPhoto.objects.count(), speaker.avatar_url) == (0, "")
    change = ProposedChange.objects.get(speaker=speaker, kind="photo")
    square = change.values["squares"]["192"]
    page = client.get(_profile_url(speaker)).content.decode()
    assert f'src="/media/{square}" alt="Your new photo, waiting for review"' in page
    # The crop of the waiting photo moves without a new upload: still one proposal, re-made.
    with committed():
        client.post(_profile_url(speaker), {"form": "photo", "focus_x": "0", "focus_y": "50"})
    run_worker_committed()
    change = ProposedChange.objects.get(speaker=speaker, kind="photo", status=Status.PENDING)
    assert (change.values["focus_x"], change.values["squares"]["192"] != square) == (0.0, True)
    team = _team_client("editor")
    queue = team.get(_queue(speaker.event)).content.decode()
    assert (
        f'src="/media/{change.values["squares"]["96"]}" alt="The photo the speaker asks for"'
        in queue
    )
    team.post(_queue(speaker.event), {"action": "approve", "change": change.pk})
    photo = SpeakerPhoto.objects.get(speaker=speaker)
    speaker.refresh_from_db()
    assert (photo.jpeg, photo.focus_x) == (change.values["jpeg"], 0.0)
    assert speaker.avatar_url == f"{BASE}/media/{photo.jpeg}"


def test_slides_and_links_under_review_reach_the_session_when_approved(speaker: Speaker) -> None:
    _under_review(speaker.event)
    client, _user = _signed_in(speaker)
    session = Session.objects.filter(speaker_links__speaker=speaker).order_by("key").first()
    url = f"{_profile_url(speaker)}sessions/{session.key}/"
    client.post(url, {"form": "slides", "slides": _upload("talk.pdf", _pdf(), "application/pdf")})
    client.post(
        url, {"form": "links", "code": "https://code.example/talk", "note": "A mic, please"}
    )
    assert not SlideFile.objects.exists()
    assert not SessionLink.objects.filter(session=session).exclude(held_by="").exists()
    page = unescape(client.get(url).content.decode())
    assert "These slides wait for the organizers' review:" in page
    assert 'value="https://code.example/talk"' in page  # the speaker's links, as they wait
    team = _team_client("editor")
    queue = unescape(team.get(_queue(speaker.event)).content.decode())
    assert "2 changes wait for review" in queue
    assert "talk.pdf" in queue
    assert (
        '<ins><span class="visually-hidden">added: </span>https://code.example/talk</ins>' in queue
    )
    for change in ProposedChange.objects.order_by("pk"):
        team.post(_queue(speaker.event), {"action": "approve", "change": change.pk})
    slides = SlideFile.objects.get(session=session)
    held = SessionLink.objects.filter(session=session).exclude(held_by="").order_by("position")
    assert [(link.kind, link.url) for link in held] == [
        ("slides", f"{BASE}/media/{slides.name}"),
        ("link", "https://code.example/talk"),
    ]
    session.refresh_from_db()
    assert session.has_slides is True


def test_editing_closes_at_the_teams_date_and_nothing_is_written_after(
    speaker: Speaker, tmp_path: Path
) -> None:
    EditingRules.objects.create(event=speaker.event, closes_at=clock.now() - timedelta(minutes=1))
    client, _user = _signed_in(speaker)
    before = Speaker.objects.values().get(pk=speaker.pk)
    page = unescape(client.get(_profile_url(speaker)).content.decode())
    assert "Editing closed on" in page
    assert '<fieldset disabled class="plain">' in page
    refused = client.post(_profile_url(speaker), _profile(speaker, bio="Too late."))
    assert refused.status_code == 403
    assert "write to the organizers for a change." in unescape(refused.content.decode())
    photo = _send_photo(client, speaker)
    assert photo.status_code == 403
    session = Session.objects.filter(speaker_links__speaker=speaker).order_by("key").first()
    url = f"{_profile_url(speaker)}sessions/{session.key}/"
    slides = client.post(
        url, {"form": "slides", "slides": _upload("t.pdf", _pdf(), "application/pdf")}
    )
    links = client.post(url, {"form": "links", "code": "https://code.example/x", "note": "hi"})
    assert (slides.status_code, links.status_code) == (403, 403)
    assert Speaker.objects.values().get(pk=speaker.pk) == before
    assert (SpeakerPhoto.objects.count(), SlideFile.objects.count()) == (0, 0)
    assert ProposedChange.objects.count() == 0
    assert not any((tmp_path / "media").rglob("*.*"))  # no file was stored


def test_the_team_sets_the_rules_in_the_events_time(speaker: Speaker) -> None:
    event = speaker.event
    team = _team_client("editor")
    response = team.post(_queue(event), {
        "action": "rules", "review": "review", "closes_at": "2026-06-01T18:00",
    })  # fmt: skip
    assert response.status_code == 302
    rules = EditingRules.objects.get(event=event)
    local = datetime(2026, 6, 1, 18, 0, tzinfo=event.zone)
    assert (rules.review, rules.closes_at, rules.updated_by) == (True, local, "team-editor")
    assert rules.closes_at.astimezone(UTC).hour == local.astimezone(UTC).hour
    page = unescape(team.get(_queue(event)).content.decode())
    assert "Speakers' changes now wait for review." in page
    assert 'value="2026-06-01T18:00"' in page
    bad = team.post(_queue(event), {"action": "rules", "review": "review", "closes_at": "soon"})
    assert bad.status_code == 400
    assert "Enter a valid date/time." in unescape(bad.content.decode())
    assert EditingRules.objects.get(event=event).closes_at == local
    # Back to live: the next edit is public at once.
    team.post(_queue(event), {"action": "rules", "review": "live", "closes_at": ""})
    assert review.rules_for(event).review is False


def test_a_speaker_s_data_holds_what_waits_for_review(speaker: Speaker) -> None:
    _under_review(speaker.event)
    client, _user = _signed_in(speaker)
    _send_photo(client, speaker)
    change = ProposedChange.objects.get()
    data = client.get("/accounts/data.json").json()
    pages = [page for page in data["speaker_pages"] if page["key"] == speaker.key]
    proposed = pages[0]["proposed_changes"]
    assert [(item["kind"], item["status"]) for item in proposed] == [("photo", "pending")]
    assert proposed[0]["values"]["jpeg"] == f"{BASE}/media/{change.values['jpeg']}"


def test_what_waits_for_review_is_not_missing_from_a_profile(speaker: Speaker) -> None:
    Speaker.objects.filter(pk=speaker.pk).update(avatar_url="", bio="", position="", company="")
    speaker.refresh_from_db()
    _under_review(speaker.event)
    client, _user = _signed_in(speaker)
    assert missing_items(speaker) == ("photo", "bio", "role")
    client.post(_profile_url(speaker), _profile(speaker, bio="Builds models."))
    assert missing_items(speaker) == ("photo", "role")
    _send_photo(client, speaker)
    listed = with_waiting_edits(Speaker.objects.filter(pk=speaker.pk)).get()
    assert missing_items(listed) == ("role",)
    # Rejected, the bio is missing again.
    change = ProposedChange.objects.get(kind="profile")
    review.reject(speaker.event, change.pk, by="olga", reason="")
    assert missing_items(speaker) == ("bio", "role")
