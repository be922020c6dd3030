"""The house keeps its rules (docs/architecture.md), read by scripts/architecture.py: no module
over 500 lines, no import cycle, layers that import only downwards, one name per command."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "architecture.py"


@pytest.fixture(scope="module")
def architecture() -> ModuleType:
    spec = importlib.util.spec_from_file_location("architecture", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["architecture"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_the_source_keeps_every_rule(architecture: ModuleType) -> None:
    assert architecture.problems(architecture.read_house()) == []


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / "confsched" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def test_each_broken_rule_is_named(architecture: ModuleType, tmp_path: Path) -> None:
    root = _write(
        tmp_path,
        {
            "__init__.py": "",
            "core/__init__.py": "",
            # core (the lowest layer) reaching up into web, inside a function: still an import.
            "core/text.py": "def f():\n    from confsched.web.site import pages\n",
            "web/__init__.py": "",
            # Two modules of one room importing each other, one of them too long.
            "web/site/__init__.py": "",
            "web/site/pages.py": "from confsched.web.site.chrome import frame\n",
            "web/site/chrome.py": "from . import pages\n" + "x = 1\n" * 500,
            # Two rooms importing each other through different modules: no module cycle.
            "web/site/feeds.py": "from confsched.web.schedule import views\n",
            "web/schedule/__init__.py": "",
            "web/schedule/views.py": "from confsched.web.site import pages\n",
            # One page asking another's views (the schedule's likely-full marks, once).
            "web/schedule/cards.py": "from confsched.web.staff.views import likely_full\n",
            "web/staff/__init__.py": "",
            "web/staff/views.py": "likely_full = set()\n",
            "web/staff/insight.py": "from confsched.web.staff import views\n",
            # Two sibling domains: search asking the teams, and the programme asking search.
            "programme/__init__.py": "",
            "programme/queries.py": "from confsched.search.words import fold\n",
            "search/__init__.py": "",
            "search/words.py": "from confsched.teams.access import can\n",
            "teams/__init__.py": "",
            "teams/access.py": "can = None\n",
            "web/management/__init__.py": "",
            "web/management/commands/__init__.py": "",
            "web/management/commands/send_news.py": "from confsched import wsgi\n",
            "web/management/commands/send-news.py": "",
            "wsgi.py": "",
            "web/migrations/0001_initial.py": "x = 1\n" * 600,
        },
    )
    assert architecture.problems(architecture.read_house(root)) == [
        "confsched.web.site.chrome: 501 lines (at most 500)",
        "import cycle: confsched.web.site.chrome -> confsched.web.site.pages",
        "rooms import each other: confsched.web.schedule <-> confsched.web.site",
        "confsched.core.text imports confsched.web.site.pages: a lower layer imports a higher one",
        "confsched.programme.queries imports confsched.search.words: a lower layer imports a "
        "higher one",
        "confsched.search.words imports confsched.teams.access: one domain imports its sibling",
        "confsched.web.schedule.cards imports confsched.web.staff.views: a page asks another "
        "page's views (what two features share belongs in a domain module)",
        "confsched.web.site.feeds imports confsched.web.schedule.views: a page asks another "
        "page's views (what two features share belongs in a domain module)",
        "command 'send_news' has 2 names: confsched.web.management.commands.send-news, "
        "confsched.web.management.commands.send_news",
    ]


def test_the_report_lists_the_largest_modules_and_the_rooms(
    architecture: ModuleType, tmp_path: Path
) -> None:
    root = _write(
        tmp_path,
        {
            "__init__.py": "",
            "core/__init__.py": "",
            "core/text.py": "x = 1\n" * 3,
            "interchange/__init__.py": "",
            "interchange/frab/__init__.py": "",
            "interchange/frab/read.py": "from confsched.core.text import x\n" + "y = 2\n" * 9,
        },
    )
    text = architecture.report(architecture.read_house(root), largest=2)
    assert text.splitlines() == [
        "6 modules, 13 lines in src/confsched",
        "",
        "The 2 largest modules:",
        "     10  confsched.interchange.frab.read",
        "      3  confsched.core.text",
        "",
        "Imports between rooms (each room: the rooms it uses):",
        "  interchange.frab             -> core.text",
        "  core.text                    -> (nothing of ours)",
        "",
        "Rules: all kept.",
    ]


def test_a_command_answers_to_one_name_only() -> None:
    from django.core.management import call_command
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="Unknown command: 'send_alerts'"):
        call_command("send_alerts")
