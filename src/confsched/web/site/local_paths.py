"""Where a form's `next` (or any address a request names) may send the person: a path on this
site, or a default.

Only a path is followed: it starts with one "/" (never "//" or "/\\", which browsers read as
another host), holds no space or control character (browsers drop tabs and line breaks from an
address, so "/\\t/evil.example" would become "//evil.example"), and is of a sane length. Anything
else, "agenda" as much as "https://elsewhere", is replaced by the default. Redirect to it with
HttpResponseRedirect, never with Django's `redirect()`, which reads a bare word as the name of
a view and fails with a 500 when there is none.
"""

from __future__ import annotations

from django.utils.http import url_has_allowed_host_and_scheme

MAX_PATH = 2000  # longer is no address of ours, and would not fit some proxies' headers


def local_path(target: str | None, *, default: str = "/") -> str:
    """`target` when it is a path on this site, else `default`."""
    if not target or len(target) > MAX_PATH or not target.startswith("/"):
        return default
    if target[1:2] in ("/", "\\") or any(c.isspace() or not c.isprintable() for c in target):
        return default
    # Django's own test too, so that whatever it learns to refuse is refused here as well.
    if not url_has_allowed_host_and_scheme(target, allowed_hosts=None):
        return default
    return target
