"""Compression on the wire: gzip when the client takes it, the same bytes once decoded."""

from __future__ import annotations

import gzip

import pytest
from django.http import HttpResponse
from django.test import Client, RequestFactory

from confsched.web.site.compression import CompressionMiddleware, accepted_encodings, gzip_bytes
from tests.conftest import DEMO_SLUG

BASE = f"/{DEMO_SLUG}/"
TEXT = ("<p>Session about tensors and kernels</p>\n" * 400).encode()


def _through(response: HttpResponse, accept: str) -> HttpResponse:
    request = RequestFactory().get("/", headers={"Accept-Encoding": accept})
    return CompressionMiddleware(lambda _request: response)(request)


def _html(body: bytes = TEXT, **headers: str) -> HttpResponse:
    response = HttpResponse(body, content_type="text/html; charset=utf-8")
    for name, value in headers.items():
        response[name] = value
    return response


def test_gzip_when_asked_and_the_same_bytes_once_decoded() -> None:
    response = _through(_html(ETag='"abc"'), "gzip, deflate, br")
    assert (response["Content-Encoding"], response["Vary"], response["ETag"]) == (
        "gzip", "Accept-Encoding", 'W/"abc"',
    )  # fmt: skip
    assert gzip.decompress(response.content) == TEXT
    assert int(response["Content-Length"]) == len(response.content) < len(TEXT) // 10


def test_each_gzip_body_is_padded_to_a_different_length() -> None:
    lengths = {len(gzip_bytes(TEXT)) for _ in range(20)}
    assert len(lengths) > 1
    assert {gzip.decompress(gzip_bytes(TEXT)) for _ in range(3)} == {TEXT}


def test_a_body_compressed_ahead_is_sent_as_it_is() -> None:
    response = _html()
    response.gzipped = b"made-once"
    sent = _through(response, "gzip, br")
    assert (sent["Content-Encoding"], sent.content) == ("gzip", b"made-once")
    # Brotli is not made: a client taking brotli alone gets the page plain.
    assert _through(_html(), "br").get("Content-Encoding") is None


@pytest.mark.parametrize(
    ("accept", "expected"),
    [("", None), ("identity", None), ("gzip;q=0, br", None), ("*", "gzip"), ("GZIP", "gzip")],
)
def test_what_the_client_accepts_decides(accept: str, expected: str | None) -> None:
    response = _through(_html(), accept)
    assert response.get("Content-Encoding") == expected
    if expected is None:
        assert response.content == TEXT


def test_small_streaming_binary_and_encoded_responses_are_left_alone() -> None:
    small = _through(_html(b"<p>hi</p>"), "gzip")
    image = _through(HttpResponse(TEXT, content_type="image/png"), "gzip")
    encoded = _through(_html(**{"Content-Encoding": "br"}), "gzip")
    assert [r.get("Content-Encoding") for r in (small, image, encoded)] == [None, None, "br"]
    assert (small.content, image.content) == (b"<p>hi</p>", TEXT)


def test_accepted_encodings_reads_qualities() -> None:
    assert accepted_encodings("gzip, deflate, br;q=0.5, zstd;q=0") == {"gzip", "deflate", "br"}
    assert accepted_encodings("br;q=0.0, GZip;q=1") == {"gzip"}


@pytest.mark.django_db
def test_the_schedule_page_is_sent_gzipped(client: Client, demo_event) -> None:
    plain = client.get(BASE).content
    response = client.get(BASE, headers={"Accept-Encoding": "gzip"})
    assert response["Content-Encoding"] == "gzip"
    assert gzip.decompress(response.content).count(b"<article") == plain.count(b"<article") == 28


@pytest.mark.django_db
@pytest.mark.parametrize("extension", ["xml", "json", "xcal", "csv"])
def test_an_export_is_rendered_once_per_version_and_sent_gzipped(
    client: Client, demo_event, monkeypatch, extension: str
) -> None:  # noqa: ANN001
    from confsched.web.schedule import exports as views_exports

    calls = []
    real = views_exports.render_export
    monkeypatch.setattr(
        views_exports, "render_export", lambda *a, **k: calls.append(a) or real(*a, **k)
    )
    plain = client.get(f"{BASE}schedule.{extension}").content
    zipped = client.get(f"{BASE}schedule.{extension}", headers={"Accept-Encoding": "br, gzip"})
    assert zipped["Content-Encoding"] == "gzip"
    assert gzip.decompress(zipped.content) == plain
    assert len(calls) == 1
    demo_event.save()  # a new version: rendered anew
    client.get(f"{BASE}schedule.{extension}")
    assert len(calls) == 2


@pytest.mark.django_db
def test_the_event_calendar_is_rendered_once_per_version(
    client: Client, demo_event, monkeypatch
) -> None:  # noqa: ANN001
    from confsched.web.site import calendars

    calls = []
    real = calendars.render_ical
    monkeypatch.setattr(calendars, "render_ical", lambda *a, **k: calls.append(a) or real(*a, **k))
    first = client.get(f"{BASE}schedule.ics")
    second = client.get(f"{BASE}schedule.ics", headers={"Accept-Encoding": "gzip"})
    assert gzip.decompress(second.content) == first.content
    assert first.content.count(b"BEGIN:VEVENT") == 28
    assert len(calls) == 1
