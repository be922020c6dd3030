"""The fuzz harness (scripts/fuzz_importers.py): a short run over every reader, and the harness
itself counting what it should."""

from __future__ import annotations

import dataclasses
import importlib.util
import inspect
import sys
from pathlib import Path
from types import ModuleType

import pytest

from confsched.core.errors import ParseError
from confsched.interchange import formats
from confsched.interchange.programme import Programme
from tests.conftest import ROOT

SHORT_RUN = 150


def load_harness() -> ModuleType:
    name = "fuzz_importers"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / "fuzz_importers.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # dataclasses look their module up while being made
        spec.loader.exec_module(module)
    return sys.modules[name]


@pytest.fixture(scope="module")
def harness() -> ModuleType:
    return load_harness()


@pytest.mark.shared
def test_short_run_over_every_reader_has_no_crash(shared_dir: Path, harness: ModuleType) -> None:
    report = harness.run(inputs=SHORT_RUN, seed=0, workers=0)
    names = [fmt.name for fmt in formats.FORMATS]
    assert {name: counts.inputs for name, counts in report.counts.items()} == dict.fromkeys(
        names, SHORT_RUN
    )
    for counts in report.counts.values():
        assert counts.parsed + counts.refused + counts.crashed + counts.slow == SHORT_RUN
    assert {name: count > 0 for name, count in report.seeds.items()} == dict.fromkeys(names, True)
    assert report.crashes == {}, harness.format_report(report)


def test_inputs_depend_on_the_seed_only(harness: ModuleType) -> None:
    seeds = [("a.json", b'{"startsAt": "2026-06-02T10:00:00+02:00", "id": 12}'), ("b.csv", b"x")]
    first = [harness.make_input(seeds, fmt="csv", index=index, seed=3) for index in range(50)]
    again = [harness.make_input(seeds, fmt="csv", index=index, seed=3) for index in range(50)]
    other = [harness.make_input(seeds, fmt="csv", index=index, seed=4) for index in range(50)]
    assert first == again
    assert first != other
    assert len({data for _, data in first}) > 25  # mutations differ from input to input


def test_extreme_values_replace_dates_offsets_and_zones(harness: ModuleType) -> None:
    data = b"2026-06-02T10:00:00+02:00 Europe/Paris"
    seen = set()
    for index in range(400):
        rng = harness.random.Random(index)
        seen.add(harness.replace_token(rng, data, [data]))
    assert b"0001-01-01T10:00:00+02:00 Europe/Paris" in seen
    assert b"9999-12-31T10:00:00+02:00 Europe/Paris" in seen
    assert b"2026-06-02T10:00:00-23:59 Europe/Paris" in seen
    assert b"2026-06-02T10:00:00+02:00 Europe" in seen
    assert b"2026-06-02T10:00:00+02:00 " + b"A" * 300 in seen


def _explode(data: bytes, *, source: str) -> Programme:
    if b"!" in data:
        return {}["no such key"]  # type: ignore[no-any-return]  # the defect under test
    if b"?" in data:
        raise ParseError("a question mark is not a programme", source=source)
    return Programme()


def _spin(data: bytes, *, source: str) -> Programme:
    while True:  # stopped by the harness's CPU timer
        pass


def made_up_reader(name: str, parse: object, monkeypatch: pytest.MonkeyPatch) -> None:
    reader = dataclasses.replace(formats.FORMATS[0], name=name, parse=parse)
    monkeypatch.setattr(formats, "FORMATS", (*formats.FORMATS, reader))


def test_crashes_refusals_and_examples_are_counted(
    harness: ModuleType, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    made_up_reader("explode", _explode, monkeypatch)
    seeds = {"explode": [("seed.txt", b"abc ? def ! ghi")]}
    report = harness.run(
        inputs=60, seed=1, formats=["explode"], workers=0, examples=tmp_path, seeds=seeds
    )
    counts = report.counts["explode"]
    assert counts.inputs == 60
    assert counts.slow == 0
    assert counts.crashed > 0 and counts.refused > 0 and counts.parsed > 0
    raise_line = inspect.getsourcelines(_explode)[1] + 2
    (crash,) = report.crashes.values()
    assert crash.signature.startswith("KeyError at interchange/formats.py:")
    assert crash.signature.endswith(f"(in test_fuzz.py:{raise_line})")
    assert crash.count == counts.crashed
    assert dict(crash.formats) == {"explode": counts.crashed}
    # Shrunk to what still crashes the same way: the one byte that does it.
    assert crash.written is not None
    assert crash.written.parent == tmp_path / "explode"
    assert crash.written.name.startswith("min_KeyError_interchange_formats.py_L")
    assert crash.written.name.endswith(f"_test_fuzz.py_L{raise_line}.txt")
    assert crash.written.read_bytes() == b"!"


def test_a_reader_that_spins_is_slow_not_stuck(
    harness: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    made_up_reader("spin", _spin, monkeypatch)
    report = harness.run(
        inputs=2, formats=["spin"], workers=0, time_limit=0.05, seeds={"spin": [("s", b"x")]}
    )
    assert dataclasses.asdict(report.counts["spin"]) | {"cpu": 0} == {
        "inputs": 2,
        "parsed": 0,
        "refused": 0,
        "crashed": 0,
        "slow": 2,
        "cpu": 0,
    }
    assert report.crashes == {}
