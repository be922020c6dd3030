"""The registry's last line of defence: a reader's unforeseen failure is a refusal, not a crash."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from confsched.core.errors import ParseError, ReaderFault
from confsched.interchange import formats
from confsched.interchange.programme import Programme


def _broken(data: bytes, *, source: str) -> Programme:
    return {}["no such key"]  # a reader bug, as a fuzzer would find one


def test_an_unforeseen_reader_failure_is_a_reader_fault_naming_the_file(monkeypatch) -> None:  # noqa: ANN001
    broken = replace(formats.get_format("frab-xml"), parse=_broken)
    monkeypatch.setattr(formats, "FORMATS", (broken,))
    with pytest.raises(ReaderFault) as refused:
        formats.parse_files([("talks.xml", b"<schedule/>")], format_name="frab-xml")
    assert str(refused.value) == (
        "talks.xml: the frab-xml reader could not read this file (KeyError: 'no such key'); "
        "nothing was imported. This is a defect in confsched: please report it with the file"
    )
    assert isinstance(refused.value, ParseError)


def test_an_unforeseen_sniffer_failure_is_a_reader_fault(monkeypatch) -> None:  # noqa: ANN001
    def sniff(head: str) -> bool:
        raise RecursionError("maximum recursion depth exceeded")

    broken = replace(formats.get_format("csv"), sniff=sniff)
    monkeypatch.setattr(formats, "FORMATS", (broken,))
    with pytest.raises(ReaderFault) as refused:
        formats.parse_files([("talks.csv", b"title,starts_at\n")])
    assert str(refused.value).startswith(
        "talks.csv: the csv reader could not read this file (RecursionError: maximum recursion "
    )


def test_the_readers_own_refusals_pass_through_unchanged() -> None:
    with pytest.raises(ParseError) as refused:
        formats.parse_files([("talks.csv", b"no,header\n")], format_name="csv")
    assert not isinstance(refused.value, ReaderFault)


def test_a_schedule2_document_is_detected_as_such() -> None:
    from tests.interchange.test_c3voc_schedule2 import realistic

    data = json.dumps(realistic()).encode()
    assert formats.detect_format("schedule2.json", data).name == "c3voc-schedule2"
    programme = formats.parse_files([("schedule2.json", data)])
    assert programme.carries == formats.SCHEDULE2_FIELDS
