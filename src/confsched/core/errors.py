"""Domain errors. Services and parsers raise these; views and the CLI turn them into messages."""

from __future__ import annotations

from django.utils.translation import gettext


class ConfschedError(Exception):
    """Base class for errors that carry a message meant for a person."""


class ParseError(ConfschedError):
    """A file could not be read as a programme; names the file and, where known, the line."""

    def __init__(self, message: str, *, source: str = "", line: int | None = None) -> None:
        self.message = message
        self.source = source
        self.line = line
        super().__init__(str(self))

    def __str__(self) -> str:
        """The place, then what is wrong, in the active language (English on the command line)."""
        where = self.source or gettext("input")
        if self.line is not None:
            where = gettext("%(where)s, line %(line)s") % {"where": where, "line": self.line}
        return gettext("%(where)s: %(message)s") % {"where": where, "message": self.message}


class UnknownFormatError(ParseError):
    """No reader recognised the content."""


class InvalidEventError(ConfschedError):
    """An event's settings are not usable (unknown slug, invalid time zone)."""


class InvalidProgrammeError(ConfschedError):
    """A parsed programme breaks a rule the database relies on (such as unique keys)."""


class ReaderFault(ParseError):
    """A reader failed in a way its author did not foresee (a bug, reported as a refusal).

    parse_files turns any unexpected exception into this, so that an import never ends in a
    traceback; the fuzz harness counts these as defects to fix at their root.
    """


class TeamError(ConfschedError):
    """A team change that cannot be made (the last owner removed, an unknown person, a bad or
    expired invitation link)."""


class DraftError(ConfschedError):
    """A draft cannot be started, released or discarded as asked (none, one already, no name)."""


class UploadError(ConfschedError):
    """A file a person uploaded is refused: not what it claims to be, too large, cut off, or
    unsafe to serve. Says what is wrong with which file; nothing of it has been kept."""

    def __init__(self, message: str, *, filename: str = "") -> None:
        self.message = message
        self.filename = filename
        super().__init__(str(self))

    def __str__(self) -> str:
        if not self.filename:
            return self.message
        return gettext("%(file)s: %(message)s") % {"file": self.filename, "message": self.message}
