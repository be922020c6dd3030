"""The programme's services: the one door into the database and the one door out.

Everything outside `programme/` reads and writes events through the names below; the modules
of this package are where each piece lives.
"""

from confsched.programme.services.loading import (
    LoadReport,
    create_event,
    load_programme,
    lock_imports,
    record_edit,
    render_export,
    session_facts,
    snapshot,
    validate_programme,
)

__all__ = [
    "LoadReport",
    "create_event",
    "load_programme",
    "lock_imports",
    "record_edit",
    "render_export",
    "session_facts",
    "snapshot",
    "validate_programme",
]
