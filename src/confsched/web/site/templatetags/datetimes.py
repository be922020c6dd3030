from datetime import datetime

from django import template
from django.utils import timezone

register = template.Library()


@register.filter
def iso_second(value: datetime | None) -> str:
    """An aware time in the active zone as ISO 8601 to the second: what `<time datetime>`
    accepts (the `c` format keeps microseconds, which HTML allows only to three digits)."""
    if value is None:
        return ""
    return timezone.localtime(value).replace(microsecond=0).isoformat()
