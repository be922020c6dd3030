"""Sessions found by their words: what search finds for the sessions that have no vector yet
(the embedding worker has not reached them, or the semantic extra is not installed), and the
"similar sessions" of a site without the extra.

A word counts more the fewer texts hold it ("executorch" over "pytorch"), then more occurrences
win, then the smaller id. A `WordIndex` holds, for each word, the texts holding it and how many
times, in two flat arrays: searching it costs the query's postings, not a pass over every text
(at 5,000 sessions the pass took longer than a search by meaning).
"""

from __future__ import annotations

import re
from array import array
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from confsched.core.text import fold

if TYPE_CHECKING:
    from collections.abc import Container, Mapping

_WORD = re.compile(r"\w+")
# Words too common in programmes to say what a session is about.
STOP_WORDS = frozenset(
    "a an and are as at be by for from how in into is it of on or our the this to we with "
    "you your about using use".split()
)


def keywords(text: str) -> list[str]:
    """The words of `text` that can tell sessions apart: folded, without stop words."""
    return [w for w in _WORD.findall(fold(text)) if w not in STOP_WORDS and len(w) > 1]


# Texts whose words were counted lately: an index made again after a change (a new version
# of the programme) counts only the texts that changed. Folding and splitting 5,000 titles and
# abstracts took 0.2-0.3 s; the counts of a text are a few words each.
@lru_cache(maxsize=1 << 15)
def counted_keywords(text: str) -> tuple[tuple[str, int], ...]:
    """keywords(text) with how often each occurs, in the order they first occur."""
    return tuple(Counter(keywords(text)).items())


@dataclass(frozen=True)
class WordIndex:
    """For each word, the ids of the texts holding it and how often each holds it."""

    postings: dict[str, tuple[array[int], array[int]]]

    @classmethod
    def of(cls, texts: Mapping[int, str]) -> WordIndex:
        postings: dict[str, tuple[array[int], array[int]]] = {}
        for key, text in texts.items():
            for word, count in counted_keywords(text):
                ids, counts = postings.setdefault(word, (array("q"), array("I")))
                ids.append(key)
                counts.append(count)
        return cls(postings)

    def replaced(self, before: Mapping[int, str], after: Mapping[int, str]) -> WordIndex:
        """The index of `after`, this being the index of `before`: the postings of the words of
        the texts that changed (added, removed or edited) made again, the others shared. A new
        version of the programme usually changes a title or two of thousands; when more than a
        quarter changed, the index is made whole. This index is left as it was (another request
        may be reading it)."""
        gone = {key for key, text in before.items() if after.get(key) != text}
        came = {key: text for key, text in after.items() if before.get(key) != text}
        if 4 * (len(gone) + len(came)) > len(after):
            return WordIndex.of(after)
        postings = dict(self.postings)
        for key in gone:
            for word, _ in counted_keywords(before[key]):
                if word in postings and postings[word] is self.postings.get(word):
                    ids, counts = postings[word]
                    kept = [(i, c) for i, c in zip(ids, counts, strict=True) if i not in gone]
                    postings[word] = (
                        array("q", [i for i, _ in kept]),
                        array("I", [c for _, c in kept]),
                    )
        for key, text in came.items():
            for word, count in counted_keywords(text):
                found = postings.get(word)
                if found is None:
                    found = postings[word] = (array("q"), array("I"))
                elif found is self.postings.get(word):  # this index's: copied before it grows
                    found = postings[word] = (array("q", found[0]), array("I", found[1]))
                found[0].append(key)
                found[1].append(count)
        for key in gone:
            for word, _ in counted_keywords(before[key]):
                if word in postings and not postings[word][0]:
                    del postings[word]
        return WordIndex(postings)

    def scores(self, query: str, *, among: Container[int]) -> list[int]:
        """Ids of the texts `among` the indexed ones that hold at least one of the query's words,
        best first. Each matched word adds 1 / (the texts among them holding it), summed in
        the words' order, so that equal texts weigh exactly the same."""
        weights: dict[int, float] = {}
        hits: Counter[int] = Counter()
        for word in sorted(set(keywords(query))):
            ids, counts = self.postings.get(word, ((), ()))
            holding = [(key, count) for key, count in zip(ids, counts, strict=True) if key in among]
            for key, count in holding:
                weights[key] = weights.get(key, 0.0) + 1 / len(holding)
                hits[key] += count
        return sorted(weights, key=lambda key: (-weights[key], -hits[key], key))


def keyword_scores(query: str, texts: Mapping[int, str]) -> list[int]:
    """Ids of `texts` holding at least one of the query's words, best first (WordIndex.scores)."""
    return WordIndex.of(texts).scores(query, among=texts)
