"""Sessions found by their words: the ranking, the kept index, and what search finds by words."""

from __future__ import annotations

from array import array

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from hypothesis import given, settings
from hypothesis import strategies as st

from confsched.programme.models import Event, Session
from confsched.search import semantic
from confsched.search.words import WordIndex, counted_keywords, keyword_scores, keywords
from tests.search.test_semantic import EDGE, MCU, _titles, without_model  # noqa: F401

TEXTS = {1: "phones", 2: "phones and models, models", 3: "Models on phones", 4: "GPUs"}


def test_keyword_scores_rank_by_words_matched_then_hits() -> None:
    assert keyword_scores("models on phones", TEXTS) == [2, 3, 1]
    # A rare word outweighs a common one: "gpus" (1 text) beats "phones" (3 texts).
    assert keyword_scores("phones gpus", TEXTS) == [4, 1, 2, 3]
    assert keyword_scores("", TEXTS) == []
    assert keyword_scores("the on and", TEXTS) == []


def test_an_index_made_again_after_a_change_counts_only_the_new_texts() -> None:
    counted_keywords.cache_clear()
    first = WordIndex.of(TEXTS)
    again = WordIndex.of({**TEXTS, 3: "Models on watches"})
    info = counted_keywords.cache_info()
    assert (info.misses, info.hits) == (5, 3)
    assert counted_keywords("Models on phones, models") == (("models", 2), ("phones", 1))
    assert first.scores("watches", among=TEXTS) == []
    assert again.scores("watches phones", among=TEXTS) == [3, 1, 2]


def test_a_word_weighs_by_the_texts_holding_it_among_those_asked() -> None:
    index = WordIndex.of(TEXTS)
    # Among 1 and 4 only, "phones" is as rare as "gpus": the smaller id first.
    assert index.scores("phones gpus", among={1, 4}) == [1, 4]
    assert index.scores("phones gpus", among={2, 3, 4}) == [4, 2, 3]
    assert index.scores("phones", among=set()) == []
    assert index.scores("tensors", among=TEXTS) == []


def _one_pass(query: str, texts: dict[int, str]) -> list[int]:
    """The ranking as first written: every text's words read for every query."""
    words = sorted(set(keywords(query)))
    found = {key: keywords(text) for key, text in texts.items()}
    holders = {word: sum(1 for text in found.values() if word in text) for word in words}
    scored = []
    for key, text in found.items():
        matched = [word for word in words if word in text]
        if matched:
            weight = 0.0
            for word in matched:
                weight += 1 / holders[word]
            scored.append((-weight, -sum(1 for word in text if word in words), key))
    return [key for _, _, key in sorted(scored)]


VOCABULARY = ["gpu", "phones", "Phônes", "models", "the", "kernels", "ExecuTorch", "a", "x"]


@settings(max_examples=300, deadline=None)  # no timing: a loaded machine is no failure
@given(
    texts=st.dictionaries(
        st.integers(1, 60),
        st.lists(st.sampled_from(VOCABULARY), max_size=8).map(" ".join),
        max_size=25,
    ),
    query=st.lists(st.sampled_from(VOCABULARY), max_size=4).map(" ".join),
    keep=st.sets(st.integers(1, 60)),
)
def test_the_index_ranks_a_subset_as_one_pass_over_that_subset(texts, query, keep) -> None:  # noqa: ANN001
    among = {key: text for key, text in texts.items() if key in keep}
    assert WordIndex.of(texts).scores(query, among=keep) == _one_pass(query, among)


def test_an_index_replaced_after_a_change_shares_the_unchanged_words() -> None:
    # Twenty more texts: a quarter or more changed would make the index whole.
    others = {key: "kernels" for key in range(10, 30)}
    before = {**TEXTS, **others}
    first = WordIndex.of(before)
    after = {1: "phones", 2: "phones and models, models", 3: "Models on watches", 5: "GPUs, GPUs"}
    after |= others
    replaced = first.replaced(before, after)
    # 3 edited, 4 gone, 5 new: their words made again, "kernels" shared.
    assert replaced.scores("watches", among=after) == [3]
    assert replaced.scores("gpus phones", among=after) == [5, 1, 2]
    assert replaced.scores("models", among=after) == [2, 3]
    assert replaced.postings["kernels"] is first.postings["kernels"]
    assert replaced.postings["phones"] == (array("q", [1, 2]), array("I", [1, 1]))
    assert replaced.postings["watches"] == (array("q", [3]), array("I", [1]))
    assert replaced.postings["gpus"] == (array("q", [5]), array("I", [2]))
    # The index replaced is left as it was: another request may be reading it.
    assert first.scores("gpus phones", among=before) == [4, 1, 2, 3]
    assert "watches" not in first.postings
    # More than a quarter changed: made whole.
    half = {key: "tensors" for key in range(10, 20)} | {key: "kernels" for key in range(20, 30)}
    whole = first.replaced(before, half)
    assert whole.postings["kernels"] is not first.postings["kernels"]
    assert whole.postings == WordIndex.of(half).postings


@settings(max_examples=200, deadline=None)
@given(
    # At least 30 texts and at most 3 edits: replaced, not made whole.
    before=st.dictionaries(
        st.integers(1, 60),
        st.lists(st.sampled_from(VOCABULARY), max_size=6).map(" ".join),
        min_size=30,
    ),
    edits=st.dictionaries(
        st.integers(1, 60),
        st.none() | st.lists(st.sampled_from(VOCABULARY), max_size=6).map(" ".join),
        max_size=3,
    ),
    query=st.lists(st.sampled_from(VOCABULARY), max_size=4).map(" ".join),
)
def test_a_replaced_index_ranks_as_one_made_whole(before, edits, query) -> None:  # noqa: ANN001
    after = {**before, **{key: text for key, text in edits.items() if text is not None}}
    for key in [key for key, text in edits.items() if text is None]:
        after.pop(key, None)
    replaced = WordIndex.of(before).replaced(before, after)
    whole = WordIndex.of(after)
    assert replaced.scores(query, among=after) == whole.scores(query, among=after)
    assert {w: sorted(zip(*p, strict=True)) for w, p in replaced.postings.items()} == {
        w: sorted(zip(*p, strict=True)) for w, p in whole.postings.items()
    }


def test_search_reads_the_texts_once_per_event_version(demo_event, without_model) -> None:  # noqa: ANN001, F811
    def searched(query: str) -> tuple[list[str], int]:
        with CaptureQueriesContext(connection) as queries:
            titles = _titles(semantic.search_sessions(demo_event, query, limit=5).sessions)
        return titles, len(queries.captured_queries)

    # The listed ids, the vectors (none), the texts, the results and their speakers.
    assert searched("ExecuTorch edge") == ([EDGE, MCU], 5)
    assert searched("ExecuTorch edge") == ([EDGE, MCU], 2)
    # A new title, and the event's version moves as every edit moves it: read anew.
    Session.objects.filter(event=demo_event, title=EDGE).update(title="Quokka inference")
    Event.objects.filter(pk=demo_event.pk).update(updated_at=timezone.now())
    demo_event.refresh_from_db()
    assert searched("quokka") == (["Quokka inference"], 5)
