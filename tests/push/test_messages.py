"""What a notification says on the wire, and a device's name: pure functions."""

from __future__ import annotations

import json

import pytest
from django.utils import translation

from confsched.push.messages import (
    MAX_PAYLOAD,
    Notice,
    Urgency,
    device_label,
    payload,
    shown_device_label,
)


def _notice(body: str, title: str = "Keynote") -> Notice:
    return Notice(title=title, body=body, url="/e/", tag="t", ttl=60, urgency=Urgency.NORMAL)


def test_a_short_payload_is_the_notice_as_compact_json() -> None:
    assert payload(_notice("Hall A.")) == (
        b'{"title":"Keynote","body":"Hall A.","url":"/e/","tag":"t"}'
    )


def test_the_encrypted_record_fits_4096_bytes() -> None:
    assert MAX_PAYLOAD == 4096 - 103


@pytest.mark.parametrize("letter", ["a", "é", "😀", '"'])
def test_a_long_body_is_cut_to_fit_with_an_ellipsis(letter: str) -> None:
    data = payload(_notice(letter * 5000))
    body = json.loads(data)["body"]
    assert len(data) <= MAX_PAYLOAD
    assert body.endswith("…") and set(body[:-1]) == {letter}
    # One character more would not fit.
    longer = json.dumps(
        {"title": "Keynote", "body": letter * len(body) + "…", "url": "/e/", "tag": "t"},
        ensure_ascii=False, separators=(",", ":"),
    ).encode()  # fmt: skip
    assert len(longer) > MAX_PAYLOAD


def test_a_long_title_is_cut_at_200_characters() -> None:
    title = json.loads(payload(_notice("b", title="x" * 300)))["title"]
    assert title == "x" * 199 + "…"


@pytest.mark.parametrize(
    ("agent", "label"),
    [
        (
            "Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0",
            "Firefox on Android",
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
            "Safari on iOS",
        ),
        (
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0",
            "Edge on Windows",
        ),
        (
            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
            "Chrome on Linux",
        ),
        ("", "A browser"),
    ],
)
def test_a_device_is_named_by_its_browser_and_system(agent: str, label: str) -> None:
    assert device_label(agent) == label


@pytest.mark.parametrize(
    ("language", "label", "shown"),
    [
        ("fr", "Firefox on Android", "Firefox sur Android"),
        ("de", "Safari on iOS", "Safari auf iOS"),
        ("fr", "A browser", "Un navigateur"),
        ("de", "A browser", "Ein Browser"),
        ("en", "Chrome on Linux", "Chrome on Linux"),
        ("fr", "Android", "Android"),  # a system alone: a name, as it is
        ("fr", "Lynx on a toaster", "Lynx on a toaster"),  # not one of ours: left as stored
    ],
)
def test_a_device_s_stored_label_is_shown_in_the_page_s_language(
    language: str, label: str, shown: str
) -> None:
    with translation.override(language):
        assert shown_device_label(label) == shown
