"""Sessions read with one plain statement (core/sessions.py): the same answers as Django's own
database store, for a live, an expired and an unknown session. SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.sessions.backends.db import SessionStore as DjangoStore
from django.contrib.sessions.models import Session
from django.utils import timezone

from confsched.core.sessions import SessionStore

pytestmark = pytest.mark.django_db


def _saved(data: dict[str, object]) -> str:
    store = SessionStore()
    store.update(data)
    store.create()
    assert store.session_key is not None
    return store.session_key


def test_a_live_session_is_read_as_django_reads_it() -> None:
    key = _saved({"_auth_user_id": "7", "stars": ["triton", "helion"]})
    assert SessionStore(key).load() == DjangoStore(key).load() == {
        "_auth_user_id": "7", "stars": ["triton", "helion"],
    }  # fmt: skip


def test_an_expired_session_is_empty_and_gets_a_new_key_when_saved() -> None:
    key = _saved({"_auth_user_id": "7"})
    Session.objects.filter(session_key=key).update(
        expire_date=timezone.now() - timedelta(seconds=1)
    )
    store = SessionStore(key)
    assert (store.load(), store.session_key) == ({}, None)
    assert DjangoStore(key).load() == {}


def test_an_unknown_key_reads_nothing() -> None:
    store = SessionStore("x" * 32)
    assert (store.load(), store.session_key) == ({}, None)


def test_a_person_signed_in_under_djangos_backend_stays_signed_in(client) -> None:
    """Sessions written before the accounts backend took ModelBackend's place name Django's
    backend; they are read as naming ours, so nobody is signed out by the upgrade."""
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user("ada", password="unused-here")
    key = _saved({
        "_auth_user_id": str(user.pk),
        "_auth_user_backend": "django.contrib.auth.backends.ModelBackend",
        "_auth_user_hash": user.get_session_auth_hash(),
    })  # fmt: skip
    assert SessionStore(key).load()["_auth_user_backend"] == (
        "confsched.web.accounts.backends.AccountsBackend"
    )
    client.cookies["sessionid"] = key
    response = client.get("/accounts/password/change/")
    assert (response.status_code, response.wsgi_request.user.get_username()) == (200, "ada")
