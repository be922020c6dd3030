"""{% in_account_frame %}: a page someone else renders, shown in the account pages' frame."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe

from confsched.web.accounts.views import account_page

register = template.Library()


@register.simple_tag(takes_context=True)
def in_account_frame(context: template.Context, template_name: str) -> SafeString:
    """`template_name` rendered as an account page (accounts/views.account_page), for pages
    that others render with a context of their own: django-axes's locked-out page."""
    # What the other view gave, without what the template engine and our frame add again.
    page: dict[str, Any] = {
        str(name): value
        for name, value in context.flatten().items()
        if name not in {"request", "True", "False", "None"}
    }
    response = account_page(context["request"], template_name, page)
    return mark_safe(response.content.decode())  # noqa: S308 - a template's rendering
