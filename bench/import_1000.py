"""Time the import of a 1,000-session programme: parse, first load, unchanged re-load, a load
with 50 changes. Uses 38C3's schedule.xml (1,007 events) when ../shared is there, and always a
synthetic 1,000-session frab XML made by confsched's own writer.

Usage: python bench/import_1000.py
"""

from __future__ import annotations

import os
import tempfile
import time
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT.parent / "shared/formats/samples/frab-xml/eventfahrplan_schedule-38c3-20251206.xml"


def main() -> None:
    os.environ.setdefault("CONFSCHED_DATA_DIR", tempfile.mkdtemp(prefix="confsched-bench-"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "confsched.settings")
    os.environ.setdefault("SECRET_KEY", "bench-only-secret")
    os.environ.setdefault("CONFSCHED_TESTING", "1")
    import django

    django.setup()
    from django.core.management import call_command

    from confsched.interchange.frab import read as frab_xml
    from confsched.interchange.frab import write as frab_xml_write
    from confsched.interchange.synthetic import synthetic_programme
    from confsched.programme.services import create_event, load_programme

    call_command("migrate", verbosity=0)
    inputs = []
    synthetic = replace(synthetic_programme(1000, rooms=20, days=3), timezone="Europe/Paris")
    inputs.append(
        ("synthetic frab XML, 1,000 sessions", frab_xml_write.render(synthetic, slug="bench"))
    )
    if SAMPLE.exists():
        inputs.append(("38C3 schedule.xml, 1,007 events", SAMPLE.read_bytes()))
    for number, (label, data) in enumerate(inputs):
        started = time.perf_counter()
        programme = frab_xml.parse(data, source=label)
        parsed = time.perf_counter()
        event = create_event(
            slug=f"bench-{number}", name=label, timezone=programme.timezone or "UTC"
        )
        report = load_programme(event, programme)
        loaded = time.perf_counter()
        again = load_programme(event, programme)
        reloaded = time.perf_counter()
        changed = replace(
            programme,
            sessions=[
                replace(s, starts_at=s.starts_at + timedelta(minutes=15), ends_at=(s.ends_at or s.starts_at) + timedelta(minutes=15))
                if index % 20 == 0 else s
                for index, s in enumerate(programme.sessions)
            ],
        )  # fmt: skip
        third = load_programme(event, changed)
        changed_at = time.perf_counter()
        print(
            f"{label}: {len(data) / 1024:.0f} KiB, parse {parsed - started:.2f} s, "
            f"first load {loaded - parsed:.2f} s ({len(report.created)} created), "
            f"unchanged re-load {reloaded - loaded:.2f} s ({again.unchanged} unchanged), "
            f"re-load with {len(third.updated)} retimed {changed_at - reloaded:.2f} s"
        )


if __name__ == "__main__":
    main()
