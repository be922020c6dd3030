"""Faster embedding keeps its results: on fixed queries against the demo and 38C3's 1,007
events, the top-5 sessions agree with those of the fp32 model as first shipped on >= 95% of
results (semantic_reference.py made semantic_top5.json with that code)."""

from __future__ import annotations

import json

import pytest
from django.db import connection

from tests.search.semantic_reference import CCC, QUERIES, REFERENCE, programmes, top_five
from tests.search.test_semantic import _require_model

AGREEMENT = 0.95


def _agreement(name: str) -> float:
    reference = json.loads(REFERENCE.read_text())[name]
    texts = programmes()[name]
    found = dict(zip(QUERIES[name], top_five(texts, QUERIES[name]), strict=True))
    shared = sum(len(set(found[q]) & set(reference[q])) for q in QUERIES[name])
    return shared / sum(len(reference[q]) for q in QUERIES[name])


def test_the_demo_top_five_agree_with_the_fp32_reference() -> None:
    _require_model()
    assert _agreement("demo") >= AGREEMENT


@pytest.mark.shared
@pytest.mark.skipif(
    connection.vendor == "postgresql",
    reason="embeds 1,007 texts (2 min) and reads no database: checked in the SQLite pass",
)
def test_a_thousand_session_programme_top_five_agree_with_the_fp32_reference(shared_dir) -> None:  # noqa: ANN001
    _require_model()
    assert CCC.is_relative_to(shared_dir.resolve())
    assert _agreement("38c3") >= AGREEMENT
