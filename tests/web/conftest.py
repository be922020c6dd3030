"""Fixtures the web tests share."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest
from django.test.signals import template_rendered


@pytest.fixture
def renders() -> Iterator[Counter[str]]:
    """How many times each template was rendered while the test ran."""
    counted: Counter[str] = Counter()

    def count(sender, template, context, **kwargs) -> None:  # noqa: ANN001, ARG001
        counted[template.name] += 1

    template_rendered.connect(count)
    yield counted
    template_rendered.disconnect(count)
