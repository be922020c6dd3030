"""The programme's services: the one door into the database and the one door out.

Everything outside `programme/` that writes an event, or reads one whole for a writer, goes
through the names below (pages read through programme/queries.py); the modules of this package
are where each piece lives: events, loading (with validation, identity, related rows, links
and versions), importing files and their dry run, sync, export, and what speakers set
themselves (held).
"""

from confsched.programme.services.drafts import (
    discard_draft,
    draft_for,
    load_import,
    release_draft,
    release_preview,
    start_draft,
)
from confsched.programme.services.events import create_event
from confsched.programme.services.export import render_export, snapshot
from confsched.programme.services.held import (
    clean_links,
    clean_speaker_values,
    release_held,
    set_session_links,
    set_speaker_fields,
)
from confsched.programme.services.importing import ImportOptions, files_digest, import_files
from confsched.programme.services.journal import move_version
from confsched.programme.services.loading import load_programme, lock_imports
from confsched.programme.services.report import LoadReport
from confsched.programme.services.sync import sync_event
from confsched.programme.services.validation import validate_programme
from confsched.programme.services.versions import record_edit, session_facts

__all__ = [
    "ImportOptions",
    "LoadReport",
    "clean_links",
    "clean_speaker_values",
    "create_event",
    "discard_draft",
    "draft_for",
    "load_import",
    "files_digest",
    "import_files",
    "load_programme",
    "move_version",
    "lock_imports",
    "record_edit",
    "release_draft",
    "release_held",
    "release_preview",
    "render_export",
    "session_facts",
    "set_session_links",
    "set_speaker_fields",
    "snapshot",
    "start_draft",
    "sync_event",
    "validate_programme",
]
