"""HSTS preloading is the operator's explicit choice; the deploy check stays clean either way."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SECRET = "k" * 20 + "-a-long-random-production-secret-0123456789"


def _settings(*names: str, tmp_path: Path, **env: str) -> list[str]:
    base = {
        k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG", "CONFSCHED_TESTING"}
    }
    code = (
        "import django; django.setup(); from django.conf import settings; "
        f"print(*[repr(getattr(settings, n, None)) for n in {list(names)!r}], sep='|')"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        env={
            **base, "CONFSCHED_DATA_DIR": str(tmp_path), "SECRET_KEY": SECRET,
            "DJANGO_SETTINGS_MODULE": "confsched.settings", **env,
        },
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return result.stdout.strip().split("|")


def test_https_sends_hsts_without_preload_unless_asked(tmp_path: Path) -> None:
    assert _settings(
        "SECURE_HSTS_SECONDS", "SECURE_HSTS_PRELOAD", tmp_path=tmp_path, CONFSCHED_HTTPS="1"
    ) == ["31536000", "False"]


@pytest.mark.parametrize("value", ["1", "true"])
def test_preload_is_an_explicit_choice(tmp_path: Path, value: str) -> None:
    assert _settings(
        "SECURE_HSTS_PRELOAD", "SILENCED_SYSTEM_CHECKS", tmp_path=tmp_path,
        CONFSCHED_HTTPS="1", CONFSCHED_HSTS_PRELOAD=value,
    ) == ["True", "[]"]  # fmt: skip


def test_the_deploy_check_has_no_issue_with_preload_off(tmp_path: Path) -> None:
    base = {
        k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG", "CONFSCHED_TESTING"}
    }
    result = subprocess.run(
        [sys.executable, "-m", "confsched.cli", "check", "--deploy"],
        env={
            **base, "CONFSCHED_DATA_DIR": str(tmp_path), "SECRET_KEY": SECRET,
            "CONFSCHED_HTTPS": "1",
        },
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert (result.returncode, result.stdout.strip()) == (
        0,
        "System check identified no issues (1 silenced).",
    )
