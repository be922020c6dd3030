"""The programme's services: the one door into the database and the one door out.

Everything outside `programme/` reads and writes events through the names below; the modules
of this package are where each piece lives.
"""

from confsched.programme.services.events import create_event
from confsched.programme.services.export import render_export, snapshot
from confsched.programme.services.importing import (
    ImportOptions,
    files_digest,
    import_files,
    sync_event,
)
from confsched.programme.services.loading import load_programme, lock_imports
from confsched.programme.services.report import LoadReport
from confsched.programme.services.validation import validate_programme
from confsched.programme.services.versions import record_edit, session_facts

__all__ = [
    "ImportOptions",
    "files_digest",
    "import_files",
    "sync_event",
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
