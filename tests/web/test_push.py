"""Web Push's pages: turning a device on (the JSON the browser posts), every way a subscription
is refused, the devices page and its off buttons, log-out and account deletion."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings

from confsched.interchange import fetch
from confsched.push import services
from confsched.push.models import PushSubscription, VapidKey
from tests.conftest import DEMO_SLUG
from tests.push.receiver import Browser, b64url

pytestmark = pytest.mark.django_db

SUBSCRIBE = f"/{DEMO_SLUG}/agenda/devices/subscribe"
DEVICES = f"/{DEMO_SLUG}/agenda/devices/"
PUBLIC = "https://push.example.net/send/abc"
FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"


@pytest.fixture(autouse=True)
def _dns(monkeypatch: pytest.MonkeyPatch) -> None:
    """Names stand for addresses as a resolver would answer; literal addresses are themselves."""
    names = {"push.example.net": ["93.184.215.14"], "intranet.example.org": ["10.1.2.3"]}
    monkeypatch.setattr(
        fetch, "resolve_addresses", lambda host, port: names.get(host, [host.strip("[]")])
    )


def _person(name: str = "ada") -> tuple[User, Client]:
    user = User.objects.create_user(name, f"{name}@example.org")
    client = Client(HTTP_USER_AGENT=FIREFOX)
    client.force_login(user)
    return user, client


def _post(client: Client, data: object) -> tuple[int, str]:
    body = data if isinstance(data, str) else json.dumps(data)
    answer = client.post(SUBSCRIBE, body, content_type="application/json")
    return answer.status_code, answer.content.decode()


def test_a_browser_subscription_is_kept_for_its_person_and_device(demo_event) -> None:  # noqa: ANN001
    ada, client = _person()
    browser = Browser()
    status, text = _post(client, browser.subscription(PUBLIC))
    device = PushSubscription.objects.get()
    assert (status, json.loads(text)) == (201, {"id": device.pk, "label": "Firefox on Linux"})
    assert (device.user, device.event, device.endpoint, device.language) == (
        ada,
        demo_event,
        PUBLIC,
        "en",
    )
    assert (device.p256dh, device.auth) == (browser.keys()["p256dh"], browser.keys()["auth"])
    assert device.session_key == client.session.session_key
    # The same endpoint again (new keys) is the same device, not a second one.
    again = Browser()
    assert _post(client, again.subscription(PUBLIC))[0] == 201
    assert list(PushSubscription.objects.values_list("pk", "auth")) == [
        (device.pk, again.keys()["auth"])
    ]


def test_the_devices_page_offers_the_sites_key_and_lists_each_device(demo_event) -> None:  # noqa: ANN001
    _, client = _person()
    _post(client, Browser().subscription(PUBLIC))
    page = client.get(DEVICES)
    html = page.content.decode()
    key = VapidKey.objects.get().public_key
    assert page.status_code == 200
    assert page["Cache-Control"] == "private, no-store"
    assert f'data-key="{key}"' in html
    assert len(key) == 87  # 65 bytes, base64url without padding
    assert html.count("<strong>Firefox on Linux</strong>") == 1
    device = PushSubscription.objects.get()
    assert f'action="/{DEMO_SLUG}/agenda/devices/{device.pk}/off"' in html


def test_a_device_is_named_in_the_page_s_language(demo_event) -> None:  # noqa: ANN001
    type(demo_event).objects.filter(pk=demo_event.pk).update(languages="en, fr")
    _, client = _person()
    _post(client, Browser().subscription(PUBLIC))
    html = client.get(DEVICES, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert html.count("<strong>Firefox sur Linux</strong>") == 1
    assert PushSubscription.objects.get().label == "Firefox on Linux"  # stored as it was


def test_the_agenda_links_the_devices_page(demo_event) -> None:  # noqa: ANN001
    _, client = _person()
    html = client.get(f"/{DEMO_SLUG}/agenda/").content.decode()
    assert f'<a class="button-link" href="{DEVICES}">' in html


def test_turning_a_device_off_without_script(demo_event) -> None:  # noqa: ANN001
    _, client = _person()
    _post(client, Browser().subscription(PUBLIC))
    device = PushSubscription.objects.get()
    answer = client.post(f"/{DEMO_SLUG}/agenda/devices/{device.pk}/off")
    assert (answer.status_code, answer["Location"]) == (302, f"{DEVICES}?off=1")
    assert PushSubscription.objects.count() == 0
    assert (
        "Turned off: that device gets no more notifications."
        in client.get(answer["Location"]).content.decode()
    )


def test_nobody_turns_off_someone_elses_device(demo_event) -> None:  # noqa: ANN001
    _, ada = _person("ada")
    _post(ada, Browser().subscription(PUBLIC))
    _, bob = _person("bob")
    answer = bob.post(f"/{DEMO_SLUG}/agenda/devices/{PushSubscription.objects.get().pk}/off")
    assert (answer.status_code, answer.content.decode()) == (
        404,
        "That device is not among yours: notifications are off there already.",
    )
    assert PushSubscription.objects.count() == 1


def test_only_signed_in_people_turn_notifications_on(demo_event) -> None:  # noqa: ANN001
    answer = Client().post(SUBSCRIBE, json.dumps(Browser().subscription(PUBLIC)),
                           content_type="application/json")  # fmt: skip
    assert (answer.status_code, answer["Location"]) == (
        302,
        f"/accounts/login/?next=/{DEMO_SLUG}/agenda/devices/subscribe",
    )
    assert PushSubscription.objects.count() == 0


def test_the_subscription_needs_the_csrf_token(demo_event) -> None:  # noqa: ANN001
    user = User.objects.create_user("ada")
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    assert _post(client, Browser().subscription(PUBLIC))[0] == 403
    assert PushSubscription.objects.count() == 0


_KEYS = Browser().keys()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            "{not json",
            "The subscription is not JSON (Expecting property name enclosed in double quotes: line 1 column 2 (char 1)).",
        ),
        ([], "The subscription must be a JSON object with endpoint and keys.p256dh, keys.auth."),
        ({"keys": _KEYS}, "The subscription has no endpoint (a string)."),
        ({"endpoint": PUBLIC}, "The subscription has no keys (p256dh and auth)."),
        (
            {"endpoint": "http://push.example.net/x", "keys": _KEYS},
            "The endpoint must be an https:// URL, not http: one.",
        ),
        (
            {"endpoint": "https://10.0.0.1/x", "keys": _KEYS},
            "The endpoint's host is refused: 10.0.0.1 is a private address; notifications only go to public push services.",
        ),
        (
            {"endpoint": "https://169.254.169.254/x", "keys": _KEYS},
            "The endpoint's host is refused: 169.254.169.254 is a link-local address; notifications only go to public push services.",
        ),
        (
            {"endpoint": "https://[::1]:8443/x", "keys": _KEYS},
            "The endpoint's host is refused: ::1 is a loopback address; notifications only go to public push services.",
        ),
        (
            {"endpoint": "https://127.0.0.1/x", "keys": _KEYS},
            "The endpoint's host is refused: 127.0.0.1 is a loopback address; notifications only go to public push services.",
        ),
        (
            {"endpoint": "https://intranet.example.org/x", "keys": _KEYS},
            "The endpoint's host is refused: intranet.example.org resolves to 10.1.2.3, a private address; notifications only go to public push services.",
        ),
        (
            {"endpoint": "https://" + "a" * 1000, "keys": _KEYS},
            "The endpoint is 1008 characters long, over the limit of 1000.",
        ),
        (
            {"endpoint": PUBLIC, "keys": {"auth": _KEYS["auth"]}},
            "The subscription has no keys.p256dh (a string).",
        ),
        (
            {"endpoint": PUBLIC, "keys": {**_KEYS, "p256dh": b64url(b"\x04" + b"\x01" * 32)}},
            "keys.p256dh must decode to 65 bytes (an uncompressed P-256 point), not 33.",
        ),
        (
            {"endpoint": PUBLIC, "keys": {**_KEYS, "p256dh": b64url(b"\x04" + b"\x01" * 64)}},
            "keys.p256dh is not a point on the P-256 curve.",
        ),
        (
            {"endpoint": PUBLIC, "keys": {**_KEYS, "auth": b64url(b"\x00" * 8)}},
            "keys.auth must decode to 16 bytes (the authentication secret), not 8.",
        ),
        ({"endpoint": PUBLIC, "keys": {**_KEYS, "auth": "a"}}, "keys.auth is not base64url."),
    ],
)
def test_a_bad_subscription_is_refused_saying_why_and_nothing_is_kept(
    demo_event, data: object, message: str
) -> None:  # noqa: ANN001
    _, client = _person()
    assert _post(client, data) == (400, message)
    assert PushSubscription.objects.count() == 0


def test_the_test_setting_admits_loopback_endpoints_only(demo_event) -> None:  # noqa: ANN001
    _, client = _person()
    with override_settings(CONFSCHED_PUSH_ALLOW_PRIVATE=True):
        assert _post(client, Browser().subscription("https://127.0.0.1:8443/a"))[0] == 201
        assert _post(client, Browser().subscription("https://[::1]:8443/b"))[0] == 201
        assert _post(client, Browser().subscription("https://10.0.0.1/c")) == (
            400, "The endpoint's host is refused: 10.0.0.1 is a private address; notifications "
            "only go to public push services.",
        )  # fmt: skip
    assert PushSubscription.objects.count() == 2


def test_a_body_too_large_is_no_subscription(demo_event) -> None:  # noqa: ANN001
    _, client = _person()
    assert _post(client, {"endpoint": PUBLIC, "pad": "x" * 5000}) == (
        400,
        "The subscription is over 4096 bytes: it cannot be one.",
    )


def test_logging_out_turns_off_that_browsers_devices_only(demo_event) -> None:  # noqa: ANN001
    ada, phone = _person()
    _post(phone, Browser().subscription(PUBLIC))
    laptop = Client()
    laptop.force_login(ada)
    _post(laptop, Browser().subscription(PUBLIC + "-laptop"))
    phone.post("/accounts/logout/")
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [PUBLIC + "-laptop"]


def test_deleting_the_account_deletes_its_devices(demo_event) -> None:  # noqa: ANN001
    ada, client = _person()
    _post(client, Browser().subscription(PUBLIC))
    ada.delete()
    assert PushSubscription.objects.count() == 0


def test_an_announcement_needs_a_text_and_a_path_of_the_site(demo_event) -> None:  # noqa: ANN001
    with pytest.raises(Exception, match="needs a text in at least one language"):
        services.notify_announcement(demo_event, {}, "/x/")
    with pytest.raises(
        Exception, match="opens a page of the site, a path: not 'https://evil.example/'"
    ):
        services.notify_announcement(demo_event, {"en": "Hi."}, "https://evil.example/")
