"""Speakers' personal links: made, found, revoked, and the account each one signs in to.

A link is `/speaker/<nonce>.<mac>/`: `nonce` is 128 random bits kept on the SpeakerPass,
`mac` its HMAC-SHA-256 under the site's secret key (128 bits of it). The database alone cannot
make a working link, the team can print a speaker's link again (`confsched speakers link`), and
a revoked pass answers like one that never was.

The first time a link is used, it signs in to an account: the one already signed in, else one
made for the pass's e-mail address (the speaker may later set a password and log in normally).
An address that belongs to an account already is never signed in to through a link: its owner
logs in first, then the link joins their account (a team could otherwise give itself a link to
anyone's account by typing their address).
"""

from __future__ import annotations

import csv
import io
import re
import secrets
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext

from confsched.core import clock
from confsched.core.errors import ConfschedError
from confsched.programme.models import Event, Speaker
from confsched.speakers.models import SpeakerPass

_SALT = "confsched.speakers.pass"
TOKEN = re.compile(r"(?P<nonce>[0-9a-f]{32})\.(?P<mac>[0-9a-f]{32})")


class SpeakerPassError(ConfschedError):
    """A speaker's link cannot be made or used as asked (no such speaker, no address)."""


def _mac(nonce: str) -> str:
    return salted_hmac(_SALT, nonce, algorithm="sha256").hexdigest()[:32]


def token_for(speaker_pass: SpeakerPass) -> str:
    return f"{speaker_pass.nonce}.{_mac(speaker_pass.nonce)}"


def pass_from_token(token: str) -> SpeakerPass | None:
    """The live pass this token names, else None (malformed, forged, revoked or unknown)."""
    found = TOKEN.fullmatch(token or "")
    if found is None or not constant_time_compare(found["mac"], _mac(found["nonce"])):
        return None
    return (
        SpeakerPass.objects.select_related("speaker__event", "user")
        .filter(nonce=found["nonce"], revoked_at__isnull=True)
        .first()
    )


def live_pass(speaker: Speaker) -> SpeakerPass | None:
    return SpeakerPass.objects.filter(speaker=speaker, revoked_at__isnull=True).first()


@transaction.atomic
def issue_pass(speaker: Speaker, *, by: str, email: str = "") -> SpeakerPass:
    """The speaker's live pass, made now when there is none (to the address and account of
    the last one, unless another `email` is given); `email` becomes the address it is mailed
    to."""
    email = _address(email) if email else ""
    Speaker.objects.select_for_update().filter(pk=speaker.pk).first()  # one maker at a time
    current = live_pass(speaker)
    if current is None:
        # A new link for the same speaker keeps to the last one's address and account (the
        # speaker's own, made or joined through it), unless another address is given.
        last = SpeakerPass.objects.filter(speaker=speaker).order_by("-created_at", "-pk").first()
        same = last is not None and (not email or email == last.email)
        current = SpeakerPass.objects.create(
            speaker=speaker, nonce=secrets.token_hex(16), created_by=by,
            email=email or (last.email if last else ""), user=last.user if same else None,
        )  # fmt: skip
    elif email and email != current.email:
        current.email = email
        current.save(update_fields=["email"])
    return current


@transaction.atomic
def revoke_pass(speaker: Speaker, *, renew: bool = False, by: str = "") -> SpeakerPass | None:
    """End the speaker's live link (it answers 404 from now on, and its account no longer
    opens the speaker's page); with `renew`, a new one in its place, to the same address."""
    current = live_pass(speaker)
    if current is not None:
        current.revoked_at = clock.now()
        current.save(update_fields=["revoked_at"])
    if not renew:
        return None
    return issue_pass(speaker, by=by)


@dataclass(frozen=True)
class Entry:
    """What using a link comes to: the account to sign in as, or what is missing first."""

    user: Any = None
    log_in_as: str = ""  # an account holds this address: its owner logs in first
    needs_email: bool = False


def use_pass(speaker_pass: SpeakerPass, *, signed_in: Any = None, email: str = "") -> Entry:
    """Sign in through the pass: the account it joined before; else the one signed in now;
    else a new account for its address (or the one typed, when the team gave none)."""
    with transaction.atomic():
        locked = SpeakerPass.objects.select_for_update().get(pk=speaker_pass.pk)
        if locked.revoked_at is not None:
            raise SpeakerPassError(gettext("This speaker's link has been revoked."))
        user = locked.user if locked.user is not None and locked.user.is_active else None
        if user is None and signed_in is not None and signed_in.is_authenticated:
            user = signed_in
        if user is None:
            address = locked.email or (_address(email) if email else "")
            if not address:
                return Entry(needs_email=True)
            users = get_user_model().objects
            if users.filter(email__iexact=address).exists():
                return Entry(log_in_as=address)
            user = _new_account(address)
        fields = []
        if locked.user_id != user.pk:
            locked.user = user
            fields.append("user")
        if locked.opened_at is None:
            locked.opened_at = clock.now()
            fields.append("opened_at")
        if fields:
            locked.save(update_fields=fields)
        speaker_pass.user, speaker_pass.opened_at = locked.user, locked.opened_at
    return Entry(user=user)


def _address(text: str) -> str:
    address = text.strip()
    if (
        address.count("@") != 1
        or any(c.isspace() for c in address)
        or len(address) > 254
        or not all(address.split("@"))
    ):
        raise SpeakerPassError(gettext("'%s' is not an e-mail address.") % address[:80])
    return address


def _new_account(address: str) -> Any:
    """An account for the address, with no password yet (a password reset sets one)."""
    users = get_user_model().objects
    base = re.sub(r"[^\w.@+-]", "", address.split("@")[0])[:140] or "speaker"
    for attempt in range(1, 1000):
        username = base if attempt == 1 else f"{base}-{attempt}"
        if users.filter(username__iexact=username).exists():
            continue
        try:
            with transaction.atomic():
                user = users.create_user(username=username, email=address)
        except IntegrityError:  # taken a moment ago (the name, or the address)
            if users.filter(email__iexact=address).exists():
                raise SpeakerPassError(
                    gettext("An account with %(email)s exists already: log in first.")
                    % {"email": address}
                ) from None
            continue
        user.set_unusable_password()
        user.save(update_fields=["password"])
        return user
    raise SpeakerPassError(gettext("No free account name for %(email)s.") % {"email": address})


def speakers_of(user: Any) -> list[Speaker]:
    """Every speaker (at every event) whose live link this account signed in with."""
    if user is None or not user.is_authenticated:
        return []
    return list(
        Speaker.objects.filter(
            passes__user=user, passes__revoked_at__isnull=True, event__draft_of__isnull=True
        )
        .select_related("event")
        .order_by("event__name", "name", "pk")
    )


def speaker_for(user: Any, event_slug: str, key: str) -> Speaker | None:
    """The speaker this account keeps at that event under that key, else None (a 404: a
    speaker never reaches another's page)."""
    if user is None or not user.is_authenticated:
        return None
    return (
        Speaker.objects.filter(
            event__slug=event_slug,
            key=key,
            passes__user=user,
            passes__revoked_at__isnull=True,
            event__draft_of__isnull=True,
        )
        .select_related("event")
        .first()
    )


def links_csv(event: Event, *, link_for: Any, by: str) -> str:
    """Every speaker of the event with their link (made where missing): key, name, e-mail,
    link, first opened. `link_for(token)` makes the absolute address."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["key", "name", "email", "link", "opened_at"])
    for speaker in Speaker.objects.filter(event=event).order_by("key"):
        speaker_pass = issue_pass(speaker, by=by)
        opened = speaker_pass.opened_at.isoformat() if speaker_pass.opened_at else ""
        writer.writerow([
            speaker.key, speaker.name, speaker_pass.email, link_for(token_for(speaker_pass)),
            opened,
        ])  # fmt: skip
    return out.getvalue()
