"""Django's own accounts backend, with the signed-in person read by one plain statement.

Every signed-in request loads its user after its session. Django's ModelBackend asks the ORM,
which compiles the same query each time; this one sends the statement compiled once
(core/prepared.py). Passwords, permissions and who may sign in are ModelBackend's own.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend

from confsched.core.prepared import Prepared

PATH = "confsched.web.accounts.backends.AccountsBackend"
# Sessions signed in before this backend name Django's; core/sessions.py reads them as this one.
DJANGO_PATH = "django.contrib.auth.backends.ModelBackend"  # core/sessions.py names both too

_users: Prepared[Any] | None = None


def _by_pk() -> Prepared[Any]:
    global _users  # noqa: PLW0603 - made on first use, once the user model can be named
    if _users is None:
        model = get_user_model()
        _users = Prepared(model, lambda pk: model._default_manager.filter(pk=pk).order_by(), pk=int)
    return _users


class AccountsBackend(ModelBackend):
    def get_user(self, user_id: Any) -> Any:
        try:
            pk = int(user_id)
        except (TypeError, ValueError):
            return None
        found = _by_pk().instances(pk=pk)
        return found[0] if found and self.user_can_authenticate(found[0]) else None
