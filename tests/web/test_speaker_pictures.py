"""Issue 31, where speakers' photos show: avatars from the photo's own squares (1x and 2x),
a small picture beside each name on the cards (kept cards drawn again when a photo changes,
no query more per page), the speaker page's link preview and the sessions' JSON-LD."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from confsched.interchange.synthetic import synthetic_programme
from confsched.programme import queries
from confsched.programme.models import Event, Session, Speaker
from confsched.programme.services import create_event, load_programme, set_speaker_fields
from confsched.speakers.models import SpeakerPhoto
from confsched.web.site.fragments import card_digest
from tests.conftest import DEMO_SLUG

pytestmark = pytest.mark.django_db

BASE = "https://schedule.example.org"
HELION = "helion-1-0-a-high-level-dsl-for-performance-portable-kernels"
TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"


def _name(tag: str, size: str, extension: str = "webp") -> str:
    """A stored photo name as core/files.py makes them (20 hex digits), told apart by `tag`."""
    return f"photos/{tag * 4}{int(size):04x}{'0' * 12}.{extension}"


def give_photo(
    speaker: Speaker, tag: str, *, sizes: tuple[str, ...] = ("48", "96", "192", "400")
) -> SpeakerPhoto:
    """The speaker's kept photo, public as keeping makes it: its row, and `avatar_url` the
    absolute address of its JPEG (a version in the change log)."""
    photo, _ = SpeakerPhoto.objects.update_or_create(
        speaker=speaker,
        defaults={
            "original": _name(tag, "1", "jpg"), "squares": {size: _name(tag, size) for size in sizes},
            "jpeg": _name(tag, "0", "jpg"), "width": 640, "height": 480, "uploaded_by": "ada",
        },
    )  # fmt: skip
    set_speaker_fields(speaker, {"avatar_url": f"{BASE}/media/{photo.jpeg}"}, by="ada")
    speaker.refresh_from_db()
    return photo


def _speaker_of(key: str) -> Speaker:
    return Session.objects.get(key=key).speaker_links.order_by("position").first().speaker


def _page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def _images(html: str, css_class: str) -> list[str]:
    return re.findall(rf'<img class="{css_class}[^"]*"[^>]*>', html)


def test_avatars_are_the_photos_squares_for_1x_and_2x_screens(
    client: Client, demo_event: Event
) -> None:
    photo = give_photo(_speaker_of(HELION), "a")
    speaker = _speaker_of(HELION)
    square = {size: f"/media/{name}" for size, name in photo.squares.items()}
    # The directory, 40 px: the 48 square, the 96 for 2x.
    directory = _page(client, f"/{DEMO_SLUG}/speakers/")
    assert (
        f'<img class="avatar avatar-40" src="{square["48"]}" srcset="{square["48"]} 1x, '
        f'{square["96"]} 2x" alt="" width="40" height="40" loading="lazy" decoding="async">'
    ) in directory
    # The speaker's page, 96 px: the 96 square, the 192 for 2x.
    page = _page(client, speaker.get_absolute_url())
    assert _images(page, "avatar") == [
        f'<img class="avatar avatar-96" src="{square["96"]}" srcset="{square["96"]} 1x, '
        f'{square["192"]} 2x" alt="" width="96" height="96" loading="lazy" decoding="async">'
    ]
    # The session page, 56 px: the 96 square (the 48 would be blurred), the 192 for 2x.
    session = _page(client, f"/{DEMO_SLUG}/sessions/{HELION}/")
    assert _images(session, "avatar") == [
        f'<img class="avatar avatar-56" src="{square["96"]}" srcset="{square["96"]} 1x, '
        f'{square["192"]} 2x" alt="" width="56" height="56" loading="lazy" decoding="async">'
    ]


def test_a_small_photo_serves_every_size_from_the_squares_it_has(
    client: Client, demo_event: Event
) -> None:
    # A 150 px upload makes the 48 and 96 squares only: the 96 serves 1x and 2x at 96 px.
    photo = give_photo(_speaker_of(HELION), "b", sizes=("48", "96"))
    page = _page(client, _speaker_of(HELION).get_absolute_url())
    assert _images(page, "avatar") == [
        f'<img class="avatar avatar-96" src="/media/{photo.squares["96"]}" alt="" width="96" '
        'height="96" loading="lazy" decoding="async">'
    ]


def test_imported_pictures_and_initials_are_shown_as_before(
    client: Client, demo_event: Event
) -> None:
    speaker = _speaker_of(HELION)
    assert _images(_page(client, speaker.get_absolute_url()), "avatar") == []
    assert f'aria-hidden="true">{speaker.initials}</span>' in _page(
        client, speaker.get_absolute_url()
    )
    set_speaker_fields(speaker, {"avatar_url": "https://pics.example.org/oguz.png"}, by="olga")
    assert _images(_page(client, speaker.get_absolute_url()), "avatar") == [
        '<img class="avatar avatar-96" src="https://pics.example.org/oguz.png" alt="" width="96" '
        'height="96" loading="lazy" decoding="async" referrerpolicy="no-referrer">'
    ]


def test_an_organizers_picture_that_replaced_the_photo_is_the_one_shown(
    client: Client, demo_event: Event
) -> None:
    speaker = _speaker_of(HELION)
    give_photo(speaker, "c")
    # An import with --prefer-source gave the organizers' picture: the photo's row stays.
    set_speaker_fields(speaker, {"avatar_url": "https://pics.example.org/oguz.png"}, by="olga")
    assert _images(_page(client, speaker.get_absolute_url()), "avatar") == [
        '<img class="avatar avatar-96" src="https://pics.example.org/oguz.png" alt="" width="96" '
        'height="96" loading="lazy" decoding="async" referrerpolicy="no-referrer">'
    ]


def test_cards_show_each_speakers_picture_small_beside_the_name(
    client: Client, demo_event: Event
) -> None:
    pierre, valerian = (
        link.speaker for link in Session.objects.get(key=TORCHJD).speaker_links.order_by("position")
    )
    photo = give_photo(pierre, "d")
    set_speaker_fields(valerian, {"avatar_url": "https://pics.example.org/v.png"}, by="olga")
    small = f'<img class="card-avatar" src="/media/{photo.squares["48"]}" alt="" width="24" height="24" loading="lazy" decoding="async">'
    imported = '<img class="card-avatar" src="https://pics.example.org/v.png" alt="" width="24" height="24" loading="lazy" decoding="async" referrerpolicy="no-referrer">'
    expected = (
        f'<p class="card-speakers"><span class="speaker">{small}Pierre Quinton<span class="company">, '
        f'EPFL</span></span><span class="sep">; </span><span class="speaker">{imported}Valérian Rey'
        '<span class="company">, Simplex Lab</span></span></p>'
    )
    for page in ("", "grid/", f"speakers/{pierre.key}/"):
        html = _page(client, f"/{DEMO_SLUG}/{page}")
        assert unescape(html).count(expected) == 1, page
    # A card whose speakers have no picture shows none.
    helion = _page(client, f"/{DEMO_SLUG}/")
    assert '<span class="speaker">Oguz Ulgen<span class="company">, Meta</span></span>' in helion


def test_a_cards_digest_changes_with_a_speakers_photo_and_is_the_same_read_either_way(
    demo_event: Event,
) -> None:
    base = ("template", "/sessions/", "Europe/Paris", "en", "3")

    def digests() -> tuple[str, str]:
        outline = next(s for s in queries.published_outline(demo_event) if s.key == TORCHJD)
        whole = next(s for s in queries.published_sessions(demo_event) if s.key == TORCHJD)
        return card_digest(outline, base), card_digest(whole, base)

    before = digests()
    assert before[0] == before[1]
    pierre = Session.objects.get(key=TORCHJD).speaker_links.order_by("position").first().speaker
    give_photo(pierre, "e")
    with_photo = digests()
    give_photo(pierre, "f")  # a new photo (or the square moved): new names
    newer = digests()
    assert with_photo[0] == with_photo[1] and newer[0] == newer[1]
    assert len({before[0], with_photo[0], newer[0]}) == 3


# The list and grid: the event, the outline (4), the cards' sessions and speakers (2), and the
# event's announcements, read once a process; the directory: the event, the speakers, those.
@pytest.mark.parametrize(("page", "expected"), [("", 8), ("grid/", 8), ("speakers/", 3)])
def test_photos_cost_the_list_grid_and_directory_no_query(
    client: Client, page: str, expected: int
) -> None:
    event = create_event(slug="large", name="large", timezone="Europe/Paris")
    load_programme(event, synthetic_programme(300))
    speakers = list(Speaker.objects.filter(event=event))
    for index, speaker in enumerate(speakers):
        SpeakerPhoto.objects.create(
            speaker=speaker, original=_name("9", "1", "jpg"), squares={"48": _name("9", str(index + 2))},
            jpeg=_name("8", str(index + 2), "jpg"), width=400, height=400, uploaded_by="ada",
        )  # fmt: skip
    for speaker in speakers:
        Speaker.objects.filter(pk=speaker.pk).update(
            avatar_url=f"{BASE}/media/{speaker.photo.jpeg}"
        )
    with CaptureQueriesContext(connection) as captured:
        html = _page(client, f"/large/{page}")
    assert len(captured.captured_queries) == expected
    # Every name shown has its picture.
    names = html.count(
        '<li class="speaker-item">' if page == "speakers/" else '<span class="speaker">'
    )
    shown = "avatar avatar-40" if page == "speakers/" else "card-avatar"
    assert names > 0
    assert len(re.findall(rf'<img class="{shown}" src="/media/photos/', html)) == names


def test_a_speaker_pages_preview_is_their_photo(client: Client, demo_event: Event) -> None:
    photo = give_photo(_speaker_of(HELION), "a")
    html = _page(client, _speaker_of(HELION).get_absolute_url())
    head = html[: html.index("</head>")]
    tags = dict(
        re.findall(
            r'<meta (?:property|name)="((?:og|twitter):image[a-z:]*|twitter:card)" content="([^"]*)">',
            head,
        )
    )
    assert tags == {
        "og:image": f"http://testserver/media/{photo.jpeg}",
        "og:image:type": "image/jpeg",
        "og:image:width": "400",
        "og:image:height": "400",
        "og:image:alt": "Oguz Ulgen",
        "twitter:card": "summary",
    }


def test_json_ld_performers_carry_their_picture(client: Client, demo_event: Event) -> None:
    pierre, _valerian = (
        link.speaker for link in Session.objects.get(key=TORCHJD).speaker_links.order_by("position")
    )
    photo = give_photo(pierre, "a")
    html = _page(client, f"/{DEMO_SLUG}/sessions/{TORCHJD}/")
    data = json.loads(
        re.search(r'<script type="application/ld\+json">(.*?)</script>', html, re.S)[1]
    )
    assert [(person["name"], person.get("image")) for person in data["performer"]] == [
        ("Pierre Quinton", f"{BASE}/media/{photo.jpeg}"),
        ("Valérian Rey", None),
    ]
