"""Sending encrypted notifications to push services (RFC 8030), each signed with a VAPID token
(RFC 8292) and encrypted for its device (RFC 8291, aes128gcm), by pywebpush.

Runs in the task queue's worker only. A batch goes out over a few threads (push services answer
in tens of milliseconds; one at a time, ten thousand devices would take minutes), each with its
own HTTP session kept open. Proxies from the environment are not used (they would hide the
address checked), and each endpoint's host is checked again before sending, once per batch:
DNS may have changed since the subscription was made.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from urllib.parse import urlsplit

import requests
from django.conf import settings
from py_vapid import Vapid02
from pywebpush import WebPusher

from confsched.push.checks import InvalidSubscriptionError, check_endpoint
from confsched.push.messages import Notice, payload

TIMEOUT_SECONDS = 10
# A VAPID token lives 12 hours (RFC 8292 allows up to 24): one per push service and batch.
TOKEN_SECONDS = 12 * 3600


@dataclass(frozen=True)
class Target:
    """Where one notice goes: a subscription's id, endpoint and keys."""

    pk: int
    endpoint: str
    p256dh: str
    auth: str


@dataclass(frozen=True)
class Answer:
    """What the push service said: its status (0: no answer), and Retry-After in seconds."""

    status: int
    retry_after: int | None = None
    error: str = ""

    @property
    def is_delivered(self) -> bool:
        return 200 <= self.status < 300

    @property
    def is_gone(self) -> bool:
        """404 or 410: the subscription expired or was cancelled (RFC 8030 section 7.3)."""
        return self.status in (404, 410)

    @property
    def is_retried(self) -> bool:
        """Too many requests, the service's own trouble, or no answer: try again later."""
        return self.status in (0, 429) or self.status >= 500


def vapid_subject() -> str:
    """The `sub` claim: who runs this sender (CONFSCHED_PUSH_CONTACT, a mailto: or https URL),
    else the site's https address, else its sender's address."""
    contact = getattr(settings, "CONFSCHED_PUSH_CONTACT", "")
    if contact:
        return contact
    base = getattr(settings, "CONFSCHED_BASE_URL", "")
    if base.startswith("https://"):
        return base.rstrip("/")
    return f"mailto:{settings.DEFAULT_FROM_EMAIL}"


class Sender:
    """One batch's sending: its VAPID tokens per origin, a thread pool and HTTP sessions."""

    def __init__(self, vapid: Vapid02, *, threads: int | None = None) -> None:
        self.vapid = vapid
        self.threads = threads or int(getattr(settings, "CONFSCHED_PUSH_THREADS", 8))
        self.subject = vapid_subject()
        self._tokens: dict[str, dict[str, str]] = {}
        self._hosts: dict[str, str] = {}
        self._lock = threading.Lock()
        self._local = threading.local()

    def send_all(self, items: Iterable[tuple[Target, Notice]]) -> Iterator[tuple[Target, Answer]]:
        """Each (target, notice) sent; the answers in the order given."""
        with ThreadPoolExecutor(max_workers=self.threads) as pool:
            yield from pool.map(lambda item: (item[0], self.send(*item)), items)

    def send(self, target: Target, notice: Notice) -> Answer:
        origin = _origin(target.endpoint)
        problem = self._host_problem(target.endpoint, origin)
        if problem:
            return Answer(status=400, error=problem)
        headers = {"Urgency": notice.urgency.value, **self._authorization(origin)}
        pusher = WebPusher(
            {"endpoint": target.endpoint, "keys": {"p256dh": target.p256dh, "auth": target.auth}},
            requests_session=self._session(),
        )
        try:
            response = pusher.send(
                payload(notice), headers, ttl=notice.ttl, content_encoding="aes128gcm",
                timeout=TIMEOUT_SECONDS,
            )  # fmt: skip
        except requests.RequestException as exc:
            return Answer(status=0, error=f"{type(exc).__name__}: {exc}"[:300])
        status = int(response.status_code)
        error = "" if 200 <= status < 300 else f"{status} {response.reason}: {response.text}"
        return Answer(status, _retry_after(response.headers.get("Retry-After")), error[:300])

    def _host_problem(self, endpoint: str, origin: str) -> str:
        with self._lock:
            known = self._hosts.get(origin)
        if known is None:
            try:
                check_endpoint(endpoint)
                known = ""
            except InvalidSubscriptionError as exc:
                known = str(exc)
            with self._lock:
                self._hosts[origin] = known
        return known

    def _authorization(self, origin: str) -> dict[str, str]:
        with self._lock:
            header = self._tokens.get(origin)
            if header is None:
                claims = {"aud": origin, "sub": self.subject,
                          "exp": int(time.time()) + TOKEN_SECONDS}  # fmt: skip
                header = self._tokens[origin] = dict(self.vapid.sign(claims))
            return header

    def _session(self) -> requests.Session:
        session = getattr(self._local, "session", None)
        if session is None:
            session = requests.Session()
            session.trust_env = False  # no proxy from the environment: see the module's note
            bundle = getattr(settings, "CONFSCHED_PUSH_CA_BUNDLE", "")
            session.verify = bundle or True
            self._local.session = session
        return session


def _origin(endpoint: str) -> str:
    parts = urlsplit(endpoint)
    return f"{parts.scheme}://{parts.netloc}"


def _retry_after(value: str | None) -> int | None:
    """Retry-After in seconds, from either of its forms (RFC 9110 section 10.2.3)."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return int(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(int(when.timestamp() - time.time()), 0)
