"""Views that take a file: how large it may be, and the handler that holds it to that.

`@accepts_upload(limit, field=...)` marks a view. For a signed-in person posting to it,
RequestBodyLimitMiddleware (middleware.py) lets the body be as large as the file may be, plus
the form around it, and installs a handler (speakers/uploads.py) before anything reads the
body: the file streams to a temporary file, and is refused the moment it passes `limit`, not
after it has all arrived. Everyone else, and every other view, keeps the site's 1 MB limit.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest

from confsched.speakers.uploads import FORM_ALLOWANCE, install_upload_limit

ATTRIBUTE = "confsched_upload_limit"


def accepts_upload(limit: int, *, field: str) -> Callable[[Any], Any]:
    def mark(view: Any) -> Any:
        setattr(view, ATTRIBUTE, (limit, field))
        return view

    return mark


def upload_limit(view: Any, request: HttpRequest) -> int | None:
    """The body a signed-in person may send this view (the file's limit and its form), else
    None."""
    marked = getattr(view, ATTRIBUTE, None)
    user = getattr(request, "user", None)
    if marked is None or request.method != "POST" or user is None or not user.is_authenticated:
        return None
    return int(marked[0]) + FORM_ALLOWANCE


def prepare_upload(view: Any, request: HttpRequest) -> None:
    """The handler that stops the file past its limit, before anything reads the body."""
    limit, _field = getattr(view, ATTRIBUTE)
    install_upload_limit(request, limit=limit)
