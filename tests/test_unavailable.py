"""What a test does when something it needs is missing: skip, or fail where CI requires it."""

from __future__ import annotations

import pytest

from tests.conftest import unavailable


def test_missing_skips_when_nothing_requires_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CONFSCHED_REQUIRE_X", raising=False)
    monkeypatch.delenv("CONFSCHED_REQUIRE_Y", raising=False)
    with pytest.raises(pytest.skip.Exception, match="^x is absent$"):
        unavailable("x is absent", "CONFSCHED_REQUIRE_X", "CONFSCHED_REQUIRE_Y")


def test_missing_fails_naming_what_requires_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CONFSCHED_REQUIRE_X", raising=False)
    monkeypatch.setenv("CONFSCHED_REQUIRE_Y", "1")
    with pytest.raises(pytest.fail.Exception) as failed:
        unavailable("x is absent", "CONFSCHED_REQUIRE_X", "CONFSCHED_REQUIRE_Y")
    assert str(failed.value) == "x is absent and CONFSCHED_REQUIRE_X or CONFSCHED_REQUIRE_Y is set"
