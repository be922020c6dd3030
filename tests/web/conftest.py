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


# The speakers' pages' tests: exports and stored files' addresses use this site address.
BASE = "https://schedule.example.org"


@pytest.fixture
def speaker_media(settings, tmp_path) -> None:  # noqa: ANN001 - files under a temporary folder
    from tests.core.test_files import filesystem_settings

    settings.CONFSCHED_BASE_URL = BASE
    settings.STORAGES = {**settings.STORAGES, "default": filesystem_settings(tmp_path / "media")}


@pytest.fixture
def speaker(demo_event):  # noqa: ANN001, ANN201 - a Speaker of the demo event
    """A speaker with a session: the demo's first by key."""
    from confsched.programme.models import Speaker

    return (
        Speaker.objects.filter(event=demo_event, session_links__isnull=False)
        .order_by("key")
        .distinct()
        .first()
    )
