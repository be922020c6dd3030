"""What the programme tells the layers above it, without knowing them.

`seats_changing` is sent inside an import's transaction, before it writes sessions' new numbers
of seats, with `changes` ({session pk: (seats before, seats after)}), `keep_over` (whether the
import may give a session fewer seats than people hold, who then keep theirs), `by` and
`source`: the agenda refuses fewer seats than are held, by raising InvalidProgrammeError (the
import is then undone whole), and writes each change to the team's log. `seats_changed` is sent
once such an import has committed, with `session_pks`: the agenda moves people up from those
sessions' waitlists. (A programme cannot reach the reservations itself: they live a layer
above.)

`version_recorded` is sent once a new schedule version has committed, with `version`: the
agenda tells the devices of the people who starred its sessions at once (Web Push), rather than
at the next run of send-alerts.
"""

from __future__ import annotations

from django.dispatch import Signal

seats_changing = Signal()
seats_changed = Signal()
version_recorded = Signal()
