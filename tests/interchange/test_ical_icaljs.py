"""The calendars as ical.js reads them (Thunderbird's and many web apps' parser, the npm
registry's `ical.js`, installed with `npm install --no-save --prefix var/npm ical.js`): every
calendar read in one process, each calendar's zones registered unless one of the TZID is known
already, as vobject does (issue 29 item 8), gives every session's start and end.

Skipped where node or the package is missing.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from confsched.interchange.ical.write import render_ical
from tests.conftest import unavailable
from tests.interchange.test_giggity import programme
from tests.interchange.test_ical_vtimezone import MADE

ROOT = Path(__file__).resolve().parents[2]
ICALJS = ROOT / "var" / "npm" / "node_modules" / "ical.js" / "dist" / "ical.es5.cjs"
READER = Path(__file__).parent / "js" / "icaljs_read.cjs"


def test_icaljs_reads_every_calendar_in_one_process_at_its_sessions_times(
    tmp_path: Path,
) -> None:
    node = shutil.which("node")
    if node is None or not ICALJS.exists():
        unavailable(f"node or ical.js ({ICALJS}) is missing", "CONFSCHED_REQUIRE_ICALJS")
    made = [*MADE, programme()]
    paths = []
    for number, each in enumerate(made):
        path = tmp_path / f"{number}.ics"
        path.write_bytes(render_ical(each, uid_domain="x", calendar_name=each.name))
        paths.append(str(path))
    # Once as listed, once reversed: the first calendar of a zone defines it for the others.
    for order in (paths, paths[::-1]):
        run = subprocess.run(  # noqa: S603 - our own script on our own files
            [node, str(READER), str(ICALJS), *order],
            capture_output=True,
            check=True,
            text=True,
            timeout=120,
        )
        read = json.loads(run.stdout)
        wrong, count = [], 0
        for path, each in zip(paths, made, strict=True):
            sessions = {f"{session.key}@x": session for session in each.sessions}
            for uid, start, end, summary, _ in read[path]:
                session = sessions[uid]
                assert session.starts_at is not None
                count += 1
                ends_at = session.ends_at or session.starts_at
                if (start, end) != (session.starts_at.timestamp(), ends_at.timestamp()):
                    wrong.append(f"{each.name}: {summary} at {start}")
        assert (count, wrong) == (len(MADE) + 3, [])
