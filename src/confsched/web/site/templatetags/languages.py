from urllib.parse import urlencode

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from confsched.web.site.languages import language_name, other_language
from confsched.web.site.script_strings import script_strings_json

register = template.Library()


@register.filter
def lang_attribute(name: str) -> SafeString:
    """` lang="de"` for content in a language other than the page's, "" otherwise."""
    tag = other_language(name or "")
    return mark_safe(f' lang="{tag}"' if tag else "")  # noqa: S308 - a tag is [a-zA-Z0-9-] only


@register.inclusion_tag("confsched/_language_picker.html", takes_context=True)
def language_picker(context: template.Context) -> dict[str, object]:
    """The page's languages as links (nothing when it has one): one tap, no form, no script,
    each back to this page in its language."""
    request = context.get("request")
    offered = getattr(request, "page_languages", []) if request is not None else []
    current = getattr(request, "LANGUAGE_CODE", "")
    here = request.get_full_path() if request is not None else "/"
    choose = reverse("web:language")
    return {
        "current": current,
        "options": [
            (code, language_name(code), f"{choose}?{urlencode({'language': code, 'next': here})}")
            for code in offered
        ]
        if len(offered) > 1
        else [],
    }


@register.simple_tag
def script_strings_attribute() -> SafeString:
    """` data-strings="{…}"` with the scripts' words in the page's language; "" in English."""
    strings = script_strings_json()
    return format_html(' data-strings="{}"', strings) if strings else mark_safe("")
