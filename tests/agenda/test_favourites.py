"""The favourites format, the QR import address and Giggity links: written and read back."""

from __future__ import annotations

import base64
import json
import zlib

import pytest

from confsched.agenda.favourites import (
    compact,
    giggity_link,
    parse_compact,
    parse_favourites,
    parse_giggity_link,
    read_import,
    render_favourites,
)
from confsched.core.errors import ParseError

A = "0bc49473-9235-5259-adb4-b65add83c406"
B = "40fffda1-d533-5d42-bd33-a4bd3283c09d"
URL = "https://c.example/conf/schedule.json"


def refusal(data: bytes, slug: str = "conf") -> str:
    with pytest.raises(ParseError) as caught:
        parse_favourites(data, slug=slug, source="mine.json")
    return str(caught.value)


def test_document_is_sorted_and_deterministic() -> None:
    data = render_favourites(schedule_url=URL, slug="conf", guids=[B, A, B])
    assert json.loads(data) == {
        "format": "confsched-favourites",
        "version": 1,
        "schedule": URL,
        "event": "conf",
        "favourites": [A, B],
    }
    assert render_favourites(schedule_url=URL, slug="conf", guids=[A, B]) == data


def test_round_trip() -> None:
    data = render_favourites(schedule_url=URL, slug="conf", guids=[B, A])
    assert parse_favourites(data, slug="conf") == [A, B]
    assert read_import(data.decode(), slug="conf") == [A, B]


def test_refusals_name_what_and_where() -> None:
    good = json.loads(render_favourites(schedule_url=URL, slug="conf", guids=[A]))
    assert refusal(b"{nope") == (
        "mine.json, line 1: not valid JSON: Expecting property name enclosed in double quotes "
        "(column 2)"
    )
    assert refusal(b"\xff") == (
        "mine.json, line 1: not UTF-8 text (byte 0 cannot be decoded); a favourites document "
        "must be UTF-8"
    )
    assert (
        refusal(b"[]") == "mine.json: is not a favourites document: the top level is not an object"
    )
    assert refusal(json.dumps({**good, "format": "x"}).encode()) == (
        'mine.json: has "format" "x"; expected "confsched-favourites"'
    )
    assert refusal(json.dumps({**good, "version": 2}).encode()) == (
        'mine.json: has "version" 2; this site reads version 1'
    )
    assert refusal(json.dumps(good).encode(), slug="other") == (
        'mine.json: is for the event "conf", not "other": import it on that event\'s pages'
    )
    assert refusal(json.dumps({**good, "favourites": "x"}).encode()) == (
        'mine.json: has no "favourites" array of event guids'
    )
    assert refusal(json.dumps({**good, "favourites": [A, 7]}).encode()) == (
        "mine.json: favourites[1] is 7; expected an event guid such as "
        '"0bc49473-9235-5259-adb4-b65add83c406"'
    )
    assert (
        refusal(b" " * 70_000)
        == "mine.json: is 70,000 bytes; a favourites document is at most 65,536"
    )
    many = json.dumps({**good, "favourites": [A] * 1001}).encode()
    assert refusal(many) == 'mine.json: "favourites" holds 1,001 items; at most 1,000'


def test_compact_address_round_trip_and_limits() -> None:
    assert compact([B, A]) == "0bc49473-40fffda1"
    assert parse_compact("0bc49473-40fffda1") == ["0bc49473", "40fffda1"]
    with pytest.raises(ParseError, match='^f: item 2 is "zz"; expected 8 hexadecimal digits$'):
        parse_compact("0bc49473-zz")
    with pytest.raises(ParseError, match="^f: the address lists no favourites$"):
        parse_compact("")
    too_many = [f"{n:08x}-0000-0000-0000-000000000000" for n in range(201)]
    with pytest.raises(ParseError, match="201 favourites are too many for a QR code"):
        compact(too_many)
    with pytest.raises(ParseError, match="^f: lists 201 favourites; at most 200$"):
        parse_compact("-".join(g[:8] for g in too_many))


def test_giggity_link_is_what_giggity_reads() -> None:
    link = giggity_link(schedule_url="https://c.example/conf/schedule.xml", guids=[B, A])
    prefix = "https://ggt.gaa.st/#url=https%3A%2F%2Fc.example%2Fconf%2Fschedule.xml&see="
    assert link.startswith(prefix)
    see = link[len(prefix) :]
    packed = base64.urlsafe_b64decode(see + "=" * (-len(see) % 4))
    assert json.loads(zlib.decompress(packed)) == [A, B]
    assert parse_giggity_link(link) == [A, B]
    assert read_import(link, slug="conf") == [A, B]


def test_reads_a_link_giggity_made() -> None:
    # From Giggity's own deep-link test (three FOSDEM 2026 guids selected, one hidden).
    link = (
        "https://ggt.gaa.st/#url=https%3A%2F%2Ffosdem.org%2F2026%2Fschedule%2Fxml&see=eJwVjMEN"
        "QyEMxXbh3CdBXlLILFUP-YTsP0LpyQdb_jRaz_lkIYQHJk6stxbmqHiSOTy8vZqWbU8O0CmwUwbfx6FTyq9bdf"
        "o_61WVMZBGwlIFd0KEXsji7p7t-wMj1h7f&del=eJyLVkoySzazMDOz0DU3TzbVNU00TdS1NDUx1LU0SU1JTTE"
        "yNbJMslCKBQDOEAou"
    )
    assert parse_giggity_link(link) == [
        "350d7bdf-a23e-5293-864f-71fabd3d19a9",
        "4f5c9d31-3932-5ef5-9ce9-472f9f5c8fe0",
        "40fffda1-d533-5d42-bd33-a4bd3283c09d",
    ]


def test_giggity_refusals() -> None:
    where = "the Giggity link"
    with pytest.raises(ParseError, match=f"^{where}: is not a https://ggt.gaa.st/#… share link$"):
        parse_giggity_link("https://example.com/#see=x")
    with pytest.raises(ParseError, match='has no "see=" part'):
        parse_giggity_link("https://ggt.gaa.st/#url=https%3A%2F%2Fx")
    with pytest.raises(ParseError, match='"see=" is not base64 of zlib-packed JSON'):
        parse_giggity_link("https://ggt.gaa.st/#see=notzlib")
    bad = base64.urlsafe_b64encode(zlib.compress(b'{"a": 1}')).decode()
    with pytest.raises(ParseError, match='"see=" is not a list of event ids'):
        parse_giggity_link(f"https://ggt.gaa.st/#see={bad}")


def _giggity(payload: bytes) -> str:
    see = base64.urlsafe_b64encode(zlib.compress(payload)).decode().rstrip("=")
    return f"https://ggt.gaa.st/#url=x&see={see}"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 60_000, "favourites: not a favourites document: its JSON is nested too deeply"),
        (
            "9" * 5_000,
            "favourites: not a favourites document: a number in it is too long (Exceeds the "
            "limit (4300 digits) for integer string conversion: value has 5000 digits",
        ),
        (
            _giggity(b"[" * 60_000),
            'the Giggity link\'s "see=": not a list of event ids: its JSON is nested too deeply',
        ),
        (
            _giggity(b"[1" + b"0" * 5_000 + b"]"),
            'the Giggity link\'s "see=": not a list of event ids: a number in it is too long',
        ),
        ("https://[host/#see=x", "the Giggity link: is not a https://ggt.gaa.st/#… share link"),
    ],
)
def test_hostile_input_is_refused_in_words(text: str, message: str) -> None:
    with pytest.raises(ParseError) as caught:
        read_import(text, slug="conf")
    assert str(caught.value)[: len(message)] == message
