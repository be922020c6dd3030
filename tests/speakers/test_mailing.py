"""The speakers' mails through the task queue (speakers/mailing.py queues, speakers/tasks.py
sends): what a profile misses, what each mail says and to whom, at most one waiting per
speaker and kind, nothing sent twice, nothing to a revoked link, failures kept with their
reason; and `confsched worker` running the general queue without the semantic extra."""

from __future__ import annotations

import smtplib
from datetime import UTC, datetime
from typing import Any

import pytest
from django.core.mail.backends.base import BaseEmailBackend

from confsched.programme.models import Event, Speaker
from confsched.programme.services import create_event
from confsched.search import worker as search_worker
from confsched.speakers import mailing, passes, tasks
from confsched.speakers.completeness import missing_items, missing_words
from confsched.speakers.mail import LinkNotMailed
from confsched.speakers.models import SpeakerPass
from tests.task_queue import queued, run_worker

pytestmark = pytest.mark.django_db
SITE = "https://schedule.example.org"
LINK_TASK = "confsched.speakers.tasks.send_link"
REMINDER_TASK = "confsched.speakers.tasks.send_reminder"


class RefusingBackend(BaseEmailBackend):
    """A mail server that refuses every message."""

    def send_messages(self, email_messages: Any) -> int:
        raise smtplib.SMTPException("the server said no")


@pytest.fixture
def event() -> Event:
    return create_event(slug="one", name="One Conf", timezone="Europe/Paris")


def _speaker(event: Event, key: str, **fields: str) -> Speaker:
    return Speaker.objects.create(event=event, key=key, name=key.title(), **fields)


def _complete(event: Event, key: str) -> Speaker:
    return _speaker(
        event, key, bio="Builds things.", company="Acme", avatar_url="https://img.example/a.png"
    )


def _link(speaker_pass: SpeakerPass) -> str:
    return f"{SITE}/speaker/{passes.token_for(speaker_pass)}/"


def test_a_profile_misses_a_photo_a_bio_and_a_position_or_company(event: Event) -> None:
    empty = _speaker(event, "empty", bio="  \n ")
    company_only = _speaker(event, "co", company="Acme", avatar_url="https://img.example/c.png")
    position_only = _speaker(event, "pos", position="Student", bio="Hi.")
    assert missing_items(empty) == ("photo", "bio", "role")
    assert missing_items(company_only) == ("bio",)
    assert missing_items(position_only) == ("photo",)
    assert missing_items(_complete(event, "done")) == ()
    assert missing_words(missing_items(empty)) == "photo, bio, position or company"


def test_the_link_mail_is_queued_then_sent_by_the_worker(event: Event, mailoutbox) -> None:  # noqa: ANN001
    ada = _speaker(event, "ada")
    made = passes.issue_pass(ada, by="olga", email="ada@example.org")
    assert mailing.queue_link(made, site=SITE) is True
    assert mailing.queue_link(made, site=SITE) is False  # one waits already
    assert queued() == [
        (LINK_TASK, "default", 10, "READY", {"args": [event.pk, made.pk, SITE], "kwargs": {}})
    ]
    assert mailoutbox == []  # nothing sent before the worker runs
    run_worker()
    assert [(m.to, m.subject) for m in mailoutbox] == [
        (["ada@example.org"], "Your speaker page at One Conf")
    ]
    assert "Hello Ada,\n\nThe organizers of One Conf invite you" in mailoutbox[0].body
    assert f"\n{_link(made)}\n" in mailoutbox[0].body
    made.refresh_from_db()
    assert made.mailed_at is not None
    assert [(s, r) for s, r in _results()] == [("SUCCESSFUL", "sent")]
    # Sent: the next click queues again.
    assert mailing.queue_link(made, site=SITE) is True


def test_the_link_mail_is_in_the_events_language(event: Event, mailoutbox) -> None:  # noqa: ANN001
    event.default_language, event.languages = "fr", "fr, en"
    event.save()
    made = passes.issue_pass(_speaker(event, "ada"), by="olga", email="ada@example.org")
    mailing.queue_link(made, site=SITE)
    run_worker()
    assert [m.subject for m in mailoutbox] == ["Votre page d’intervenant à One Conf"]


def test_a_mail_queued_twice_is_sent_once(event: Event, mailoutbox) -> None:  # noqa: ANN001
    made = passes.issue_pass(_speaker(event, "ada"), by="olga", email="ada@example.org")
    # Two of the team at once: both tasks were queued before either ran.
    tasks.send_link.enqueue(event.pk, made.pk, SITE)
    tasks.send_link.enqueue(event.pk, made.pk, SITE)
    run_worker()
    assert len(mailoutbox) == 1
    assert sorted(r for _, r in _results()) == ["sent", "sent since it was queued"]


def test_a_link_revoked_after_queueing_is_not_mailed(event: Event, mailoutbox) -> None:  # noqa: ANN001
    ada = _speaker(event, "ada")
    made = passes.issue_pass(ada, by="olga", email="ada@example.org")
    mailing.queue_link(made, site=SITE)
    passes.revoke_pass(ada, by="olga")
    run_worker()
    assert (mailoutbox, _results()) == ([], [("SUCCESSFUL", "revoked")])


def test_a_speaker_without_an_address_is_refused_and_nothing_queued(event: Event) -> None:
    made = passes.issue_pass(_speaker(event, "ada"), by="olga")
    with pytest.raises(LinkNotMailed, match="^Ada has no e-mail address: add one, or pass"):
        mailing.queue_link(made, site=SITE)
    with pytest.raises(LinkNotMailed, match="^Ada has no e-mail address"):
        mailing.queue_reminder(made, site=SITE)
    assert queued() == []


def test_a_speaker_the_team_gave_no_address_gets_mail_at_their_accounts(
    event: Event, mailoutbox
) -> None:  # noqa: ANN001
    ada = _speaker(event, "ada")
    made = passes.issue_pass(ada, by="olga")
    passes.use_pass(made, email="ada@example.org")  # the speaker typed theirs
    assert mailing.queue_all_reminders(event, site=SITE) == mailing.Batch(
        queued=1, without_address=0
    )
    run_worker()
    assert [m.to for m in mailoutbox] == [["ada@example.org"]]


def test_mail_all_skips_those_without_an_address_and_those_who_opened(
    event: Event, mailoutbox
) -> None:  # noqa: ANN001
    ada, bob, cyd = _speaker(event, "ada"), _speaker(event, "bob"), _speaker(event, "cyd")
    _speaker(event, "dan")  # no link at all
    passes.issue_pass(ada, by="olga", email="ada@example.org")
    passes.issue_pass(bob, by="olga")  # no address
    opened = passes.issue_pass(cyd, by="olga", email="cyd@example.org")
    opened.opened_at = datetime(2026, 4, 1, tzinfo=UTC)
    opened.save()
    assert mailing.queue_all_links(event, site=SITE) == mailing.Batch(
        queued=1, without_address=2, opened=1
    )
    run_worker()
    assert [m.to for m in mailoutbox] == [["ada@example.org"]]


def test_reminders_go_only_to_incomplete_profiles(event: Event, mailoutbox) -> None:  # noqa: ANN001
    ada = _speaker(event, "ada", company="Acme")
    done = _complete(event, "done")
    bob = _speaker(event, "bob", bio="Hi.")
    made = passes.issue_pass(ada, by="olga", email="ada@example.org")
    passes.issue_pass(done, by="olga", email="done@example.org")
    passes.issue_pass(bob, by="olga")  # incomplete, but no address
    assert mailing.queue_all_reminders(event, site=SITE) == mailing.Batch(
        queued=1, without_address=1
    )
    with pytest.raises(LinkNotMailed, match="^The profile of Done is complete"):
        mailing.queue_reminder(passes.live_pass(done), site=SITE)
    run_worker()
    assert [(m.to, m.subject) for m in mailoutbox] == [
        (["ada@example.org"], "Your speaker page at One Conf is missing: photo, bio")
    ]
    assert mailoutbox[0].body == (
        "Hello Ada,\n\nYour speaker page at One Conf is still missing: photo, bio. Attendees "
        "read it when they choose their sessions.\n\nYour personal link (keep it to yourself: "
        f"it signs in whoever opens it):\n{_link(made)}\n"
    )
    made.refresh_from_db()
    assert (made.reminded_at is not None, made.mailed_at) == (True, None)


def test_a_profile_completed_before_the_reminder_runs_gets_none(event: Event, mailoutbox) -> None:  # noqa: ANN001
    ada = _speaker(event, "ada")
    mailing.queue_reminder(passes.issue_pass(ada, by="olga", email="ada@example.org"), site=SITE)
    Speaker.objects.filter(pk=ada.pk).update(
        bio="Hi.", position="Dev", avatar_url="https://img.example/a.png"
    )
    run_worker()
    assert (mailoutbox, _results()) == ([], [("SUCCESSFUL", "complete")])


def test_a_mail_that_cannot_be_sent_fails_with_its_reason_until_one_goes(
    event: Event, settings, mailoutbox
) -> None:  # noqa: ANN001
    made = passes.issue_pass(_speaker(event, "ada"), by="olga", email="ada@example.org")
    settings.EMAIL_BACKEND = f"{__name__}.RefusingBackend"
    mailing.queue_link(made, site=SITE)
    run_worker()
    made.refresh_from_db()
    assert (_results(), made.mailed_at) == ([("FAILED", None)], None)
    failed = "The mail to ada@example.org could not be sent (the server said no)."
    assert mailing.mail_states(event, [made])[made.pk, mailing.LINK] == mailing.MailState(
        failed=failed
    )
    # Queued again: it waits, the failure still said; once sent, the failure is past.
    mailing.queue_link(made, site=SITE)
    state = mailing.mail_states(event, [made])[made.pk, mailing.LINK]
    assert (state.queued_at is not None, state.failed) == (True, failed)
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    run_worker()
    made.refresh_from_db()
    assert mailing.mail_states(event, [made])[made.pk, mailing.LINK] == mailing.MailState(
        sent_at=made.mailed_at
    )
    assert len(mailoutbox) == 1


def test_an_unexpected_error_names_only_its_kind() -> None:
    traceback = 'Traceback...\nKeyError: "secret detail"\n'
    assert (
        mailing.failure_reason("builtins.KeyError", traceback) == "an unexpected error (KeyError)"
    )


def test_the_worker_runs_the_general_queue_without_the_semantic_extra(
    event: Event, mailoutbox, monkeypatch
) -> None:  # noqa: ANN001
    from django.core import checks

    made = passes.issue_pass(_speaker(event, "ada"), by="olga", email="ada@example.org")
    mailing.queue_link(made, site=SITE)
    search_worker.embed_event.enqueue(event.pk)  # as an import queues it with the extra

    def failing(**kwargs: object) -> list[checks.CheckMessage]:
        return [checks.Error("a check that always fails", id="test.E001")]

    checks.register(failing)  # the worker runs no system checks
    try:
        said = run_worker(with_extra=False)
    finally:
        checks.registry.registry.registered_checks.discard(failing)
    assert said.splitlines()[0] == (
        "Search by meaning is off (no semantic extra): running the general queue (mail) only."
    )
    assert [m.to for m in mailoutbox] == [["ada@example.org"]]
    # The embedding waits for a worker with the extra.
    assert [(path, status) for path, _, _, status, _ in queued()] == [
        (LINK_TASK, "SUCCESSFUL"), ("confsched.search.worker.embed_event", "READY"),
    ]  # fmt: skip


def test_mails_go_before_waiting_embeddings(event: Event) -> None:
    search_worker.embed_event.enqueue(event.pk)
    made = passes.issue_pass(_speaker(event, "ada"), by="olga", email="ada@example.org")
    mailing.queue_link(made, site=SITE)
    from django_tasks_db.models import DBTaskResult

    assert DBTaskResult.objects.ready().first().task_path == LINK_TASK


def test_serve_starts_the_worker_without_the_extra(monkeypatch) -> None:  # noqa: ANN001
    from io import StringIO

    from confsched.web.management.commands import serve

    started: list[list[str]] = []
    monkeypatch.setattr(serve, "has_extra", lambda: False)
    monkeypatch.setattr(serve.subprocess, "Popen", lambda argv, **kw: started.append(argv[2:]))
    out = StringIO()
    serve.start_worker(out=out)
    assert started == [["confsched.cli", "worker", "--verbosity", "0"]]
    assert out.getvalue() == (
        "Search by meaning is off (no semantic extra): search finds words.\n"
        "Starting the background worker (confsched worker): mail\n"
    )


def _results() -> list[tuple[str, Any]]:
    from django_tasks_db.models import DBTaskResult

    return list(
        DBTaskResult.objects.filter(task_path__startswith="confsched.speakers.")
        .order_by("enqueued_at", "pk")
        .values_list("status", "return_value")
    )
