"""What the programme tells the layers above it, without knowing them.

`seats_changed` is sent once an import that changed sessions' numbers of seats has committed,
with `session_pks`: the agenda moves people up from those sessions' waitlists (a programme
cannot reach the reservations itself: they live a layer above).
"""

from __future__ import annotations

from django.dispatch import Signal

seats_changed = Signal()
