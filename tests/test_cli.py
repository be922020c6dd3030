"""The `confsched` command without SECRET_KEY: help lists every command, the rest say what to set."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

CONFSCHED = Path(sys.executable).with_name("confsched")
WHAT_TO_SET = (
    "confsched: SECRET_KEY is not set. Set it in the environment (make run does this for you), "
    "or set DEBUG=1 for a development server.\n"
)


def _confsched(*args: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    # A clean environment: no SECRET_KEY, no DEBUG, and (in a fresh process) no pytest in
    # sys.modules, which the settings would take for a test run.
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "CONFSCHED_DATA_DIR": str(tmp_path)}
    return subprocess.run(
        [str(CONFSCHED), *args], env=env, capture_output=True, text=True, check=False
    )


@pytest.mark.parametrize("args", [(), ("help",), ("--help",)])
def test_help_lists_our_commands_without_a_secret_key(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    result = _confsched(*args, tmp_path=tmp_path)
    listed = result.stdout.split("Available subcommands:", 1)[1]
    assert (result.returncode, result.stderr) == (0, "")
    assert "[programme]\n    export\n    import\n    sync\n" in listed
    assert "[search]\n    embed\n" in listed
    assert "[speakers]\n    speakers\n" in listed
    assert "[teams]\n    team\n" in listed
    assert "[web]\n    serve\n    worker\n" in listed
    assert "only Django core commands are listed" not in result.stdout


def test_help_on_one_command_works_without_a_secret_key(tmp_path: Path) -> None:
    result = _confsched("help", "serve", tmp_path=tmp_path)
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.startswith("usage: confsched serve [-h] [--host HOST] [--port PORT]")


@pytest.mark.parametrize("args", [("check",), ("serve",), ("migrate", "--noinput"), ("import",)])
def test_other_commands_say_in_one_line_what_to_set(tmp_path: Path, args: tuple[str, ...]) -> None:
    result = _confsched(*args, tmp_path=tmp_path)
    assert (result.returncode, result.stdout, result.stderr) == (2, "", WHAT_TO_SET)
    assert list(tmp_path.iterdir()) == []  # nothing started: no database, no static files


def test_every_command_the_readmes_tell_an_operator_to_run_exists() -> None:
    """`confsched X` in a code span or after bin/ in the READMEs: a command confsched knows
    (its own, Django's, or an installed app's such as django-tasks' prune_db_task_results)."""
    import re

    from django.core.management import get_commands

    root = Path(__file__).resolve().parent.parent
    named = {
        name
        for path in (root / "README.md", root / "deploy" / "README.md")
        for name in re.findall(r"(?:bin/|`)confsched ([a-z_][a-z_-]+)", path.read_text())
    }
    assert {"serve", "worker", "send-reminders", "prune_db_task_results"} <= named
    assert sorted(named - set(get_commands()) - {"help"}) == []
