"""A speaker's picture as a page shows it (speakers/showing.py): their uploaded photo's squares,
sized for the place and the screen, else the address an import gave, else nothing."""

from __future__ import annotations

from django import template

from confsched.programme.models import Speaker
from confsched.speakers.showing import Picture, picture

register = template.Library()


@register.filter
def speaker_picture(person: Speaker, size: int) -> Picture | None:
    """`{% with shown=person|speaker_picture:40 %}`: the picture for `size` CSS pixels, or None."""
    return picture(person, int(size))
