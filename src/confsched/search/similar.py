"""A session page's similar sessions: by meaning from the stored vectors, else by the words of
the titles; and whether an earlier page's are still right after a change (sessions/frames.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from confsched.programme.models import Event, Session
from confsched.search import semantic
from confsched.search.words import keywords


def similar_sessions(session: Session, *, limit: int = 5) -> list[Session]:
    """Up to `limit` sessions nearest in meaning to `session`, from stored vectors; without
    vectors (no extra), those sharing most words with its title."""
    return semantic.sessions_in_order(session.event, similar_ids(session, limit=limit)[0])


def similar_ids(session: Session, *, limit: int = 5) -> tuple[list[int], bool]:
    """The ids of `similar_sessions`, and whether they were found by meaning (else by words)."""
    event = session.event
    candidates = semantic.listed_ids(event)
    ids = semantic.similar_session_ids(session, candidates=candidates, limit=limit)
    if ids:
        return ids, True
    others = set(candidates) - {session.pk}
    return semantic.title_index(event).scores(session.title, among=others)[:limit], False


def prepare(event: Event) -> bool:
    """Read now what `similar_ids` reads for the event's first session page in this process:
    the listed ids, the vectors, and the title index when a listed session has no vector.
    `confsched serve` calls it in each worker it starts (web/schedule/prepared.py):
    a worker handed every session page it served from Redis had read none of them, so after a
    change its first page of the renamed session read them all (25 ms for the title index at
    5,000 titles, more for 5,000 vectors). Returns whether the vectors were there."""
    listed = semantic.listed_ids(event)
    found = semantic.event_vectors(event)
    with_vectors = set(found[0]) if found else set()
    if not set(listed) <= with_vectors:
        semantic.title_index(event)
    return bool(with_vectors)


def similar_unchanged(
    event: Event, session: int, title: str, *, shown: Sequence[int], by_meaning: bool,
    limit: int, touched: Mapping[int, tuple[str, str]],
) -> bool:  # fmt: skip
    """Whether `shown`, a session's similar sessions at an earlier version (`by_meaning` or by
    words; the vectors the same), are still what similar_ids finds after the sessions of
    `touched` (none of them shown) changed: id, its title then and now ("" when it was or is
    not listed). False whenever it cannot tell cheaply.

    By meaning, only a touched session listed now can enter, when its score reaches the lowest
    shown (ties break by id: not below it). By words, a touched title that shares none of the
    session's words, then or now, changes neither the scores nor the weights of those words."""
    if by_meaning:
        found = semantic.event_vectors(event)
        if found is None:
            return False
        ids, matrix = found
        rows = {pk: index for index, pk in enumerate(ids)}
        if session not in rows:
            return False
        listed_now = [pk for pk, (_, now) in touched.items() if now and pk in rows]
        if not listed_now:
            return True
        if len(shown) < limit:
            return False
        vector = matrix[rows[session]]
        floor = min(float(matrix[rows[pk]] @ vector) for pk in shown)
        return all(float(matrix[rows[pk]] @ vector) < floor for pk in listed_now)
    words = set(keywords(title))
    return not any(words & {*keywords(before), *keywords(now)} for before, now in touched.values())
