from django import template
from django.utils.safestring import SafeString, mark_safe

from confsched.web.site.languages import other_language

register = template.Library()


@register.filter
def lang_attribute(name: str) -> SafeString:
    """` lang="de"` for content in a language other than the page's, "" otherwise."""
    tag = other_language(name or "")
    return mark_safe(f' lang="{tag}"' if tag else "")  # noqa: S308 - a tag is [a-zA-Z0-9-] only
