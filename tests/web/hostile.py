"""What the hostile-input test sends, found rather than listed: every URL pattern with its
parameters filled, every form a page shows (parsed from its HTML), every query or form
parameter a view reads itself (`request.GET.get("q")`, `request.POST.getlist(...)`), and every
query parameter the API's schema declares.

A request is a `Probe`: method, path, query string and body, each already percent-encoded, so
that a value can be bytes no text could hold (%ff). tests/web/test_hostile_input.py sends them.
"""

from __future__ import annotations

import inspect
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import quote, urlsplit

from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.converters import IntConverter, SlugConverter
from django.urls.resolvers import RegexPattern

# name -> the value as a URL or a form body carries it (percent-encoded).
HOSTILE = {
    "NUL": "a%00b",
    "²": "%C2%B2",  # str.isdigit() says yes, int() says no
    "5,000 digits": "9" * 5000,  # past every column; int() refuses over 4,300 digits
    "-1": "-1",
    "100 KB": "x" * 100_000,
    "header injection": quote("\r\nBcc: x@example.org"),
    "over-long e-mail": "a" * 300 + "%40example.org",
    "invalid UTF-8": "%ff",
}
# A form field that is not input: Django's own CSRF token (the test client does not check it).
NOT_FUZZED = frozenset({"csrfmiddlewaretoken"})
_READS = re.compile(r"""request\.(GET|POST)\.get(?:list)?\(\s*["']([\w-]+)["']""")


@dataclass(frozen=True)
class Route:
    """A URL pattern: its path with {name} where each parameter goes, the parameters the
    resolver would let any text through (not slugs, not numbers), and the view."""

    template: str
    params: tuple[str, ...]
    open_params: tuple[str, ...]
    name: str
    view: Callable[..., object]


@dataclass(frozen=True)
class Probe:
    method: str
    path: str  # percent-encoded
    query: str = ""
    body: str = ""  # application/x-www-form-urlencoded, percent-encoded
    files: tuple[tuple[str, bytes], ...] = ()  # multipart: (field, content)
    view: str = ""  # the URL name the request is for
    field: str = ""  # the parameter or field the hostile value is in
    value: str = ""  # which of HOSTILE

    def __str__(self) -> str:
        return f"{self.method} {self.view} {self.field}={self.value}"


@dataclass
class Form:
    method: str
    action: str
    enctype: str = ""
    fields: dict[str, str] = field(default_factory=dict)  # name -> default value
    buttons: list[tuple[str, str]] = field(default_factory=list)
    files: list[str] = field(default_factory=list)


def routes() -> list[Route]:
    """Every URL pattern of the site, admin and API included."""
    return [
        Route(template=template, params=params, open_params=open_params,
              name=pattern.name or "", view=pattern.callback)
        for (template, params, open_params), pattern in _walk(get_resolver(), "")
    ]  # fmt: skip


def _walk(
    resolver: URLResolver, prefix: str
) -> Iterator[tuple[tuple[str, tuple[str, ...], tuple[str, ...]], URLPattern]]:
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            yield from _walk(entry, prefix + str(entry.pattern))
            continue
        if isinstance(entry.pattern, RegexPattern):
            # The admin's app index and catch-all: their groups named, anything else as written.
            text = re.sub(r"\(\?P<(\w+)>[^)]*\)", r"{\1}", str(entry.pattern))
            text = text.replace("^", "").replace("$", "")
            names = tuple(entry.pattern.regex.groupindex)
            yield (prefix + text, names, ()), entry
            continue
        converters = entry.pattern.converters
        text = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", str(entry.pattern))
        names = tuple(converters)
        closed = (SlugConverter, IntConverter)
        open_names = tuple(n for n, c in converters.items() if not isinstance(c, closed))
        yield (prefix + text, names, open_names), entry


def is_ours(route: Route) -> bool:
    """Whether the route's view is the site's own code (not Django's admin or auth as they
    come): our views, and the API's operations (django-ninja dispatches to them)."""
    view = getattr(route.view, "view_class", None) or inspect.unwrap(route.view)
    module = getattr(view, "__module__", "") or ""
    return module.startswith("confsched") or module == "ninja.operation"


def reads(view: Callable[..., object]) -> tuple[set[str], set[str]]:
    """The query and form parameters a view reads itself, or through the functions of its own
    module it calls (`_change(request, ...)`): ({GET names}, {POST names})."""
    view = getattr(view, "view_class", None) or inspect.unwrap(view)
    module = sys.modules.get(getattr(view, "__module__", ""))
    if module is None or not module.__name__.startswith("confsched"):
        return set(), set()
    found: dict[str, set[str]] = {"GET": set(), "POST": set()}
    pending, done = [view], set()
    while pending:
        function = pending.pop()
        if function in done:
            continue
        done.add(function)
        source = inspect.getsource(function)
        for kind, name in _READS.findall(source):
            found[kind].add(name)
        for called in set(re.findall(r"\b(\w+)\(", source)):
            helper = getattr(module, called, None)
            if inspect.isfunction(helper) and helper.__module__ == module.__name__:
                pending.append(helper)
    return found["GET"], found["POST"]


def api_query_names() -> dict[str, set[str]]:
    """The query parameters each API operation declares (its OpenAPI schema), by its path as
    `Route.template` writes it."""
    from confsched.api.api import api

    return {
        path.lstrip("/"): {
            parameter["name"]
            for operation in operations.values()
            for parameter in operation.get("parameters", [])
            if parameter["in"] == "query"
        }
        for path, operations in api.get_openapi_schema()["paths"].items()
    }


class _FormParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.forms: list[Form] = []
        self._select: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.forms.append(
                Form(method=a.get("method", "get").upper(), action=a.get("action", ""),
                     enctype=a.get("enctype", ""))
            )  # fmt: skip
            return
        if not self.forms or not a.get("name") and tag != "option":
            return
        form, name = self.forms[-1], a.get("name", "")
        kind = a.get("type", "text").lower()
        if tag == "input" and kind == "file":
            form.files.append(name)
        elif tag == "input" and kind in {"submit", "image"} or tag == "button":
            form.buttons.append((name, a.get("value", "")))
        elif tag == "input" and kind in {"checkbox", "radio"}:
            if "checked" in a or name not in form.fields:
                form.fields[name] = a.get("value", "on")
        elif tag == "input":
            form.fields[name] = a.get("value", "")
        elif tag == "select":
            self._select = name
            form.fields.setdefault(name, "")
        elif tag == "option" and self._select is not None:
            if "selected" in a or not form.fields[self._select]:
                form.fields[self._select] = a.get("value", "")
        elif tag == "textarea":
            self._textarea = name
            form.fields[name] = ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None

    def handle_data(self, data: str) -> None:
        if self._textarea is not None and self.forms:
            self.forms[-1].fields[self._textarea] += data


def forms_of(html: str) -> list[Form]:
    parser = _FormParser()
    parser.feed(html)
    return parser.forms


# The admin's inline formsets count their forms in these: kept as the page wrote them, so that
# the forms they count are read (and their fields judged) at all.
MANAGEMENT = re.compile(r"-(TOTAL|INITIAL|MIN_NUM|MAX_NUM)_FORMS$")


def submissions(form: Form, page: str) -> Iterator[tuple[str, dict[str, str], list[str]]]:
    """(path?query, defaults, files) for each way the form can be sent: one per named button."""
    action = form.action or page
    defaults = {k: v for k, v in form.fields.items() if k not in NOT_FUZZED}
    named = [(name, value) for name, value in form.buttons if name]
    for button in named or [None]:
        sent = dict(defaults)
        if button is not None:
            sent[button[0]] = button[1]
        yield action, sent, form.files


def encoded(pairs: dict[str, str]) -> str:
    """Form data as a body or query string; values already encoded stay as they are."""
    return "&".join(f"{quote(k, safe='')}={v}" for k, v in pairs.items())


def plain(pairs: dict[str, str]) -> dict[str, str]:
    """Default values (as the page wrote them) percent-encoded, for `encoded`."""
    return {k: quote(v, safe="") for k, v in pairs.items()}


def path_of(action: str) -> tuple[str, str]:
    parts = urlsplit(action)
    return parts.path, parts.query
