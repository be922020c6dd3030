"""Kept pages are keyed by the parameters that change them: unknown parameters, another order or
a trailing `&` never cost a build of their own, nor push real pages out of the process's budget."""

from __future__ import annotations

import pytest
from django.test import Client

from confsched.web.schedule import views
from tests.conftest import DEMO_SLUG

pytestmark = pytest.mark.django_db

BASE = f"/{DEMO_SLUG}/"
TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"


@pytest.fixture
def builds(monkeypatch) -> list[str]:  # noqa: ANN001 - pytest fixture
    """The schedule pages built (the addresses they were built for), as the stencils see them."""
    seen: list[str] = []
    original = views._schedule_page

    def counted(request, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        seen.append(request.get_full_path())
        return original(request, *args, **kwargs)

    monkeypatch.setattr(views, "_schedule_page", counted)
    return seen


@pytest.mark.parametrize(
    ("asked", "sent_to"),
    [
        ("?x=1", BASE),
        ("?utm_source=mail&room=founders-cafe", f"{BASE}?room=founders-cafe"),
        ("grid/?fbclid=abc&tz=Asia/Tokyo", f"{BASE}grid/?tz=Asia%2FTokyo"),
        (f"sessions/{TORCHJD}/?ref=x", f"{BASE}sessions/{TORCHJD}/"),
        ("speakers/?q=chen&page=2", f"{BASE}speakers/?q=chen"),
        ("embed/?x=2&track=training-systems", f"{BASE}embed/?track=training-systems"),
    ],
)
def test_a_parameter_a_page_does_not_read_is_redirected_away(
    demo_event, asked: str, sent_to: str
) -> None:  # noqa: ANN001
    response = Client().get(BASE + asked)
    assert (response.status_code, response["Location"]) == (302, sent_to)


def test_the_same_filters_in_any_order_are_one_build(demo_event, builds) -> None:  # noqa: ANN001
    client = Client()
    pages = [
        client.get(BASE + query)
        for query in (
            "?room=founders-cafe&track=training-systems",
            "?track=training-systems&room=founders-cafe",
            "?track=training-systems&room=founders-cafe&",
            "?q=&track=training-systems&room=founders-cafe&date=",
            "?track=training-systems&track=training-systems&room=founders-cafe",
        )
    ]
    assert [page.status_code for page in pages] == [200] * 5
    assert builds == ["/pytorch-conference-europe-2026/?room=founders-cafe&track=training-systems"]


def test_unknown_parameters_build_nothing(demo_event, builds) -> None:  # noqa: ANN001
    client = Client()
    client.get(BASE)
    for number in range(8):
        assert client.get(f"{BASE}?x={number}").status_code == 302
    assert builds == [BASE]
