"""Which reader a file needs, told from its content, and the parse of a set of files."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from confsched.core.errors import ParseError, UnknownFormatError
from confsched.interchange import sched_pages
from confsched.interchange.programme import Programme


@dataclass(frozen=True)
class Format:
    name: str
    description: str
    sniff: Callable[[str], bool]
    # Takes every file of one import: some sources (Sched pages) spread an event over several.
    parse: Callable[[Sequence[tuple[str, bytes]]], Programme]


FORMATS: tuple[Format, ...] = (
    Format(
        name=sched_pages.FORMAT_NAME,
        description="Sched schedule pages saved as text (listings and session pages)",
        sniff=sched_pages.looks_like_sched_page,
        parse=sched_pages.parse_sched_pages,
    ),
)


def format_names() -> str:
    return ", ".join(f"{fmt.name} ({fmt.description})" for fmt in FORMATS)


def get_format(name: str) -> Format:
    for fmt in FORMATS:
        if fmt.name == name:
            return fmt
    raise UnknownFormatError(f"unknown format {name!r}; confsched reads: {format_names()}")


def detect_format(source: str, data: bytes) -> Format:
    """The format whose sniffer recognises the start of `data`, or an error naming the file."""
    head = data[:200_000].decode("utf-8", errors="replace").lstrip("\ufeff")
    for fmt in FORMATS:
        if fmt.sniff(head):
            return fmt
    raise UnknownFormatError(
        f"not a programme confsched can read; it reads: {format_names()}", source=source
    )


def parse_files(files: Sequence[tuple[str, bytes]], *, format_name: str = "") -> Programme:
    """Parse the files of one import, all of one format (detected unless named)."""
    if not files:
        raise ParseError("no files to import")
    if format_name:
        fmt = get_format(format_name)
    else:
        detected = [(source, detect_format(source, data)) for source, data in files]
        fmt = detected[0][1]
        for source, other in detected[1:]:
            if other is not fmt:
                raise ParseError(
                    f"is {other.name} but {detected[0][0]} is {fmt.name}; "
                    "import one format at a time",
                    source=source,
                )
    return fmt.parse(files)
