"""The language of the pages, and a session's own language.

A page is in the person's choice (the language picker: a cookie and the session), else the
first of their browser's `Accept-Language` that the event offers, else the event's default.
Pages outside an event (home, accounts, the admin) choose among every language the site has a
translation for. `LanguageMiddleware` activates the site's choice for each request;
`use_event_language` narrows it to the event's languages once a view has found the event
(`pages.event_or_404` and `pages.event_page` call it), so no view has to.

A session's language, as imported ("English", "German", "de, en", "pt-BR"), becomes a BCP 47
tag; a session in another language than the page's marks its own title and abstract, so screen
readers and hyphenation switch language there and only there.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from contextvars import ContextVar

from django.conf import settings
from django.conf.locale import LANG_INFO
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_http_methods

from confsched.programme.models import Event
from confsched.web.site.local_paths import local_path
from confsched.web.site.media import MEDIA_PREFIX

SESSION_KEY = "confsched_language"
API_PREFIX = "/api/"
# The request being answered, for `use_event_language` (the views find the event, not this).
_current: ContextVar[HttpRequest | None] = ContextVar("confsched_request", default=None)


def site_languages() -> list[str]:
    """Every language the site has a translation for, English first."""
    return [code for code, _ in settings.LANGUAGES]


def language_name(code: str) -> str:
    """The language's name in itself ("Français", "Deutsch"), for the picker."""
    name = LANG_INFO.get(code, {}).get("name_local", code)
    return name[:1].upper() + name[1:]


def chosen_language(request: HttpRequest) -> str:
    """The language the person chose with the picker, or ""."""
    chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
    if not chosen and settings.SESSION_COOKIE_NAME in request.COOKIES:
        chosen = getattr(request, "session", {}).get(SESSION_KEY, "")
    return chosen if chosen in site_languages() else ""


def browser_languages(request: HttpRequest) -> list[str]:
    """The primary language codes of `Accept-Language`, most wanted first ("fr-CH" is fr)."""
    header = request.META.get("HTTP_ACCEPT_LANGUAGE", "")
    wanted = translation.trans_real.parse_accept_lang_header(header[:500]) if header else ()
    return list(dict.fromkeys(tag.split("-")[0].lower() for tag, _ in wanted if tag != "*"))


def pick_language(*, chosen: str, browser: list[str], offered: list[str], default: str) -> str:
    """The person's choice if offered, else their browser's first offered, else `default`."""
    if chosen in offered:
        return chosen
    return next((code for code in browser if code in offered), default)


def _activate(request: HttpRequest, offered: list[str], default: str) -> None:
    language = pick_language(
        chosen=chosen_language(request), browser=browser_languages(request),
        offered=offered, default=default,
    )  # fmt: skip
    translation.activate(language)
    request.LANGUAGE_CODE = language
    request.page_languages = offered  # type: ignore[attr-defined]


def use_event_language(event: Event) -> None:
    """Read the page being answered in the event's language (see the module's docstring)."""
    request = _current.get()
    if request is not None and getattr(request, "page_event", None) != event.pk:
        request.page_event = event.pk  # type: ignore[attr-defined]
        # Only languages the site has a catalogue for (a code saved before its .mo was removed
        # would name a page "xx" written in English).
        offered = [code for code in event.offered_languages if code in site_languages()]
        default = event.default_language if event.default_language in offered else "en"
        _activate(request, offered or [default], default)


class LanguageMiddleware:
    """The site's language for this request; `Vary: Accept-Language` where it could decide."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        # The API speaks English, as its schema; an uploaded file has no language, and its
        # response may vary with nothing (no Vary: Cookie, no session read).
        if request.path_info.startswith((API_PREFIX, MEDIA_PREFIX)):
            return self.get_response(request)
        _activate(request, site_languages(), settings.LANGUAGE_CODE)
        token = _current.set(request)
        try:
            response = self.get_response(request)
        finally:
            _current.reset(token)
        # English-only events answer as they always did: nothing varies with the browser. Else
        # a shared cache must keep one copy per language asked for and per chosen (a cookie).
        if len(getattr(request, "page_languages", ())) > 1:
            patch_vary_headers(response, ("Accept-Language", "Cookie"))
            response.headers.setdefault("Content-Language", request.LANGUAGE_CODE)
        translation.deactivate()
        return response


@require_http_methods(["GET", "HEAD", "POST"])
def choose_language(request: HttpRequest) -> HttpResponse:
    """The picker's form (GET or POST, no JavaScript needed): keep the choice, go back."""
    target = local_path(request.POST.get("next") or request.GET.get("next"))
    response = HttpResponseRedirect(target)
    language = request.POST.get("language") or request.GET.get("language") or ""
    if language in site_languages():
        request.session[SESSION_KEY] = language
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME, language, max_age=settings.LANGUAGE_COOKIE_AGE,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE, httponly=True,
            secure=settings.LANGUAGE_COOKIE_SECURE,
        )  # fmt: skip
    return response


def page_language() -> str:
    """The language the page being built is in (a part of every kept page's key)."""
    return translation.get_language() or settings.LANGUAGE_CODE


# Names programmes use for a language, in English and in the language itself.
_NAMES = {
    "english": "en", "german": "de", "deutsch": "de", "french": "fr", "français": "fr",
    "francais": "fr", "spanish": "es", "español": "es", "espanol": "es", "italian": "it",
    "italiano": "it", "dutch": "nl", "nederlands": "nl", "portuguese": "pt", "português": "pt",
    "polish": "pl", "polski": "pl", "czech": "cs", "russian": "ru", "ukrainian": "uk",
    "swedish": "sv", "norwegian": "no", "danish": "da", "finnish": "fi", "greek": "el",
    "turkish": "tr", "japanese": "ja", "chinese": "zh", "korean": "ko", "hindi": "hi",
    "arabic": "ar", "hebrew": "he", "hungarian": "hu", "romanian": "ro", "catalan": "ca",
}  # fmt: skip
_TAG = re.compile(r"[a-z]{2,3}(?:-[a-z0-9]{2,8})*")


def language_tag(name: str) -> str:
    """The BCP 47 tag of a language name or tag; the first one when several are given
    ("de, en" is German); "" when it is not recognised."""
    first = re.split(r"[,;/]|\s+(?:and|und|&)\s+", name.strip(), maxsplit=1)[0].strip()
    lowered = first.lower().replace("_", "-")
    if lowered in _NAMES:
        return _NAMES[lowered]
    if _TAG.fullmatch(lowered):
        primary, _, rest = lowered.partition("-")
        return primary + (f"-{rest.upper()}" if len(rest) == 2 else f"-{rest}" if rest else "")
    return ""


def other_language(name: str) -> str:
    """The tag to mark content in `name`'s language with, or "" when it is the page's language
    or unknown."""
    tag = language_tag(name)
    return "" if tag.split("-")[0] in ("", page_language().split("-")[0]) else tag
