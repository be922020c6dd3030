"""`{{ session.abstract|rich_text }}` (sanitized HTML) and `|plain_text` (one line of text)."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString, mark_safe

from confsched.web.site import rich_text as renderer

register = template.Library()


@register.filter(is_safe=True)
def rich_text(text: str) -> SafeString:
    """Markdown and plain text as HTML that nh3's allow-list has cleaned."""
    return mark_safe(renderer.render_rich_text(str(text or "")))  # noqa: S308 - sanitized by nh3


@register.filter
def plain_text(text: str) -> str:
    """What the rendered text reads as, on one line; escaped by the template as any text."""
    return renderer.plain_text(str(text or ""))
