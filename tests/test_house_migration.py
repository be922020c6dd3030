"""Teams and search moved out of programme/ into apps of their own (issue 30). A database made
before the move (the migrations as they stood: programme 0020, the models still programme's)
migrates forward and keeps every row: team members, invitations, the team's history, session
vectors, the content types the admin's log names them by, and a queued embedding task."""

from __future__ import annotations

import pytest
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.auth.models import User
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils.module_loading import import_string
from django_tasks_db.models import DBTaskResult

from confsched.programme.models import Session
from confsched.search import worker
from confsched.search.models import SessionEmbedding
from confsched.teams.access import can
from confsched.teams.models import Invitation, TeamChange, TeamMember
from confsched.teams.rights import Right

BEFORE = [("programme", "0020_session_title_2000")]  # main before the move
OLD_TASK = "confsched.programme.semantic_worker.embed_event"
MOVED = {"teammember": "teams", "invitation": "teams", "teamchange": "teams"}
MOVED_SEARCH = {"sessionembedding": "search"}


def _migrate(targets: list[tuple[str, str]]) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return MigrationExecutor(connection)  # a fresh loader: it reads what is applied now


def _to_the_end() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_a_database_from_before_the_move_keeps_every_row(demo_event) -> None:  # noqa: ANN001
    owner = User.objects.create_user("olga", "olga@example.org")
    viewer = User.objects.create_user("vic", "vic@example.org")
    session = Session.objects.filter(event=demo_event).order_by("key").first()
    assert session is not None
    worker.embed_event.enqueue(demo_event.pk)  # queued, as the old code queued it
    try:
        executor = _migrate(BEFORE)
        assert not executor.loader.applied_migrations.keys() & {
            ("teams", "0001_initial"),
            ("search", "0001_initial"),
        }
        # The queued task names the module as it was.
        assert list(DBTaskResult.objects.values_list("task_path", flat=True)) == [OLD_TASK]

        # Rows written through the models as they were: programme's.
        old = executor.loader.project_state(BEFORE).apps
        old_member = old.get_model("programme", "TeamMember")
        old_invitation = old.get_model("programme", "Invitation")
        old_change = old.get_model("programme", "TeamChange")
        old_embedding = old.get_model("programme", "SessionEmbedding")
        members = [
            old_member.objects.create(event_id=demo_event.pk, user_id=owner.pk, role="owner"),
            old_member.objects.create(event_id=demo_event.pk, user_id=viewer.pk, role="viewer"),
        ]
        invitation = old_invitation.objects.create(
            event_id=demo_event.pk, email="new@example.org", role="editor", invited_by="olga"
        )
        change = old_change.objects.create(
            event_id=demo_event.pk,
            by="command line",
            facts={"what": "joined", "name": "olga", "role": "owner"},
            description="olga joined as owner",
        )
        embedding = old_embedding.objects.create(
            session_id=session.pk, model_name="all-MiniLM-L6-v2", text_digest="ab" * 32,
            vector=bytes(range(16)),
        )  # fmt: skip
        # The content types are programme's again (as the old code made them), and an admin
        # log line names one of them.
        assert not ContentType.objects.filter(app_label__in=["teams", "search"]).exists()
        old_types = {
            model: ContentType.objects.get(app_label="programme", model=model)
            for model in {**MOVED, **MOVED_SEARCH}
        }
        log = LogEntry.objects.create(
            user=owner, content_type=old_types["teamchange"], object_id=str(change.pk),
            object_repr="olga joined as owner", action_flag=CHANGE,
        )  # fmt: skip

        _to_the_end()

        # Every row, read through the models as they are now.
        assert list(
            TeamMember.objects.order_by("pk").values_list("pk", "user__username", "role")
        ) == [
            (members[0].pk, "olga", "owner"),
            (members[1].pk, "vic", "viewer"),
        ]
        assert list(Invitation.objects.values_list("pk", "email", "role", "invited_by")) == [
            (invitation.pk, "new@example.org", "editor", "olga"),
        ]
        assert list(TeamChange.objects.values_list("pk", "by", "facts", "description")) == [
            (
                change.pk,
                "command line",
                {"what": "joined", "name": "olga", "role": "owner"},
                "olga joined as owner",
            ),
        ]
        kept = SessionEmbedding.objects.get()
        assert (kept.pk, kept.session_id, kept.text_digest, bytes(kept.vector)) == (
            embedding.pk, session.pk, "ab" * 32, bytes(range(16)),
        )  # fmt: skip
        # The rights the rows give still hold.
        assert (can(owner, demo_event, Right.TEAM), can(viewer, demo_event, Right.READ)) == (
            True,
            True,
        )
        assert can(viewer, demo_event, Right.PROGRAMME) is False
        # The content types moved, keeping their ids: the admin's log line finds its model.
        moved = {
            ct.model: (ct.pk, ct.app_label)
            for ct in ContentType.objects.filter(model__in=[*MOVED, *MOVED_SEARCH])
        }
        assert moved == {
            model: (old_types[model].pk, app) for model, app in {**MOVED, **MOVED_SEARCH}.items()
        }
        log.refresh_from_db()
        assert log.content_type.model_class() is TeamChange
        # The queued task names the module it lives in now, and that module has it.
        paths = list(DBTaskResult.objects.values_list("task_path", flat=True))
        assert paths == ["confsched.search.worker.embed_event"]
        assert import_string(paths[0]).func is worker.embed_event.func
    finally:
        _to_the_end()
