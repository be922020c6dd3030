"""An iCalendar file's bytes to content lines, their structure, and one property read by the
`icalendar` package: steps 1 and 2 of reading, and the library's part of step 3 (see
`ical.read` for the rules)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from icalendar import Parameters, TypesFactory
from icalendar.parser import Contentline, split_on_unescaped_comma

from confsched.core.errors import ParseError

# RFC 5545 3.1: a name of letters, digits and dashes, then parameters or the value.
_CONTENT_LINE = re.compile(r"^[A-Za-z0-9-]+[;:]")
_LINE_END = re.compile(rb"\r\n|\r|\n")
# A line end and the space or tab that starts a continuation line (RFC 5545 3.1).
_FOLD = re.compile(r"\r*\n[ \t]|\r[ \t]")
# In a file with LF line ends: CRs right before one belong to it; a CR elsewhere is content.
_LF_LINE_END = re.compile(rb"\r*\n")
_SNIPPET = 120  # characters of a line quoted in a message
_SHOWN_TZID = 64  # characters of a TZID quoted in a message; IANA names are at most 32

# What the icalendar package raises from inside when a value or a parameter is not what it
# expects ('list' object has no attribute 'upper' for VALUE=, and the like).
_LIBRARY_ERRORS = (AttributeError, IndexError, KeyError, OverflowError, TypeError, ValueError)
_TYPES = TypesFactory.instance()


# --- bytes to content lines ----------------------------------------------------------------


def _content_lines(data: bytes | str, *, source: str, warnings: list[str]) -> list[tuple[int, str]]:
    """Unfolded, decoded, non-blank content lines, each with the number of its first line."""
    # A str goes the same way as bytes, so that folds and line ends follow one set of rules.
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    raw = raw.removeprefix(b"\xef\xbb\xbf")
    # Blanks before BEGIN:VCALENDAR are tolerated (looks_like does too), and still counted.
    body = raw.lstrip(b" \t\r\n")
    first_number = len(_LINE_END.findall(raw, 0, len(raw) - len(body))) + 1
    unfolded: list[tuple[int, list[bytes]]] = []
    bare_cr: list[int] = []
    line_end = _LF_LINE_END if b"\n" in body else _LINE_END
    for number, (physical, ending) in enumerate(
        _physical_lines(body, line_end), start=first_number
    ):
        if ending == b"\r":
            bare_cr.append(number)
        if physical[:1] in (b" ", b"\t") and unfolded and unfolded[-1][1][0]:
            unfolded[-1][1].append(physical[1:])  # RFC 5545 3.1 folding
        else:
            unfolded.append((number, [physical]))
    lines: list[tuple[int, str]] = []
    not_utf8: list[int] = []
    for number, pieces in unfolded:
        octets = b"".join(pieces)
        try:
            text = octets.decode("utf-8")
        except UnicodeDecodeError:
            not_utf8.append(number)
            text = _decode_legacy(octets)
        if text.strip():
            lines.append((number, text))
    if not_utf8:
        warnings.append(
            _about_lines(
                source,
                not_utf8,
                one="the line is not UTF-8 (RFC 5545 3.1.4); read as Windows-1252: check its "
                "accented letters",
                many="{count} lines are not UTF-8 (RFC 5545 3.1.4), this one first; read as "
                "Windows-1252: check their accented letters",
            )
        )
    if bare_cr:
        warnings.append(
            _about_lines(
                source,
                bare_cr,
                one="the line ends with a bare CR (a carriage return without a line feed), "
                "read as a line end; RFC 5545 ends lines with CRLF",
                many="{count} lines end with a bare CR (a carriage return without a line feed), "
                "this one first; read as line ends; RFC 5545 ends lines with CRLF",
            )
        )
    return lines


def _physical_lines(body: bytes, line_end: re.Pattern[bytes]) -> Iterator[tuple[bytes, bytes]]:
    """Each line of `body` with what ends it: CRLF, LF, a bare CR, or nothing at the end."""
    start = 0
    for match in line_end.finditer(body):
        yield body[start : match.start()], match[0]
        start = match.end()
    if start < len(body):
        yield body[start:], b""


def _decode_legacy(octets: bytes) -> str:
    try:
        return octets.decode("cp1252")
    except UnicodeDecodeError:  # 0x81, 0x8D, 0x8F, 0x90 and 0x9D are unassigned in cp1252
        return octets.decode("latin-1")


def _about_lines(source: str, numbers: list[int], *, one: str, many: str) -> str:
    what = one if len(numbers) == 1 else many.format(count=len(numbers))
    return f"{source}, line {numbers[0]}: {what}"


# --- the structure -------------------------------------------------------------------------


@dataclass
class _Component:
    """BEGIN:NAME … END:NAME as checked: its own property lines and its components."""

    name: str
    line: int
    properties: list[tuple[int, str]] = field(default_factory=list)
    children: list[_Component] = field(default_factory=list)


def _read_structure(
    lines: list[tuple[int, str]], source: str
) -> tuple[_Component, list[_Component]]:
    """The VCALENDAR, and all components in the file's order (however deeply nested)."""
    if not lines or lines[0][1].strip().upper() != "BEGIN:VCALENDAR":
        first = lines[0] if lines else (None, "")
        found = f"it starts with {_snippet(first[1])!r}" if first[1] else "it is empty"
        raise ParseError(
            f"not iCalendar: expected the file to start with BEGIN:VCALENDAR, but {found}",
            source=source,
            line=first[0],
        )
    stack: list[_Component] = []
    components: list[_Component] = []
    for number, content in lines:
        if not stack and components:
            raise ParseError(
                f"{_snippet(content)!r} comes after END:VCALENDAR; expected one calendar per "
                "file and nothing after it",
                source=source,
                line=number,
            )
        if not _CONTENT_LINE.match(content) or ":" not in content:
            raise ParseError(
                f"{_snippet(content)!r} is not an iCalendar content line (NAME:value or "
                "NAME;PARAM=value:value); a line continuing the one before must start with a "
                "space (folding, RFC 5545 3.1)",
                source=source,
                line=number,
            )
        name, _, value = content.partition(":")
        name = name.split(";", 1)[0].upper()
        if name == "BEGIN":
            component = _Component(name=value.strip().upper(), line=number)
            if stack:
                stack[-1].children.append(component)
            stack.append(component)
            components.append(component)
        elif name == "END":
            closing = value.strip().upper()
            if not stack or stack[-1].name != closing:
                raise ParseError(
                    f"END:{closing} does not close BEGIN:{stack[-1].name} of line {stack[-1].line}"
                    if stack
                    else f"END:{closing} closes nothing",
                    source=source,
                    line=number,
                )
            stack.pop()
        else:
            stack[-1].properties.append((number, content))
    if stack:
        opened = stack[-1]
        raise ParseError(
            f"BEGIN:{opened.name} is never closed by END:{opened.name}; the file looks cut short",
            source=source,
            line=opened.line,
        )
    return components[0], components


def _snippet(text: str) -> str:
    return text if len(text) <= _SNIPPET else text[: _SNIPPET - 1] + "…"


def _shown_tzid(tzid: str) -> str:
    return tzid if len(tzid) <= _SHOWN_TZID else tzid[:_SHOWN_TZID] + "…"


# --- one property, read by the library -----------------------------------------------------


@dataclass(frozen=True)
class _Property:
    line: int
    written: str  # the unfolded content line, for messages
    name: str  # upper case
    params: Parameters
    text: str  # the value, iCalendar's backslash escapes undone
    value: object  # typed by the library; None when it could not read it
    problem: str = ""  # why it could not

    def param(self, name: str) -> str:
        value = self.params.get(name, "")
        return ",".join(map(str, value)) if isinstance(value, list) else str(value)


def _property_name(content: str) -> str:
    match = _CONTENT_LINE.match(content)
    return match[0][:-1].upper() if match else ""


def _read_property(number: int, content: str) -> _Property:
    """The line read by the icalendar package; what it raises becomes the property's problem."""
    name = _property_name(content)
    try:
        line = Contentline(content)
        _, params, text = line.parts()
    except _LIBRARY_ERRORS as exc:
        return _Property(number, content, name, Parameters(), "", None, _problem(exc))
    try:
        value = _typed_value(name, params, text, line)
    except _LIBRARY_ERRORS as exc:
        return _Property(number, content, name, params, text, None, _problem(exc))
    return _Property(number, content, name, params, text, value)


def _typed_value(name: str, params: Parameters, text: str, line: Contentline) -> object:
    """The value as the library's own parser types it, less its zone lookup (see `ical.read`)."""
    if name == "RDATE" and not text:
        return None  # an empty RDATE, written by careless exporters: no date at all
    # A value class (vText, vDDDTypes …): the package's annotations say only "type".
    factory: Any = _TYPES.for_property(name, params.value)
    if name == "CATEGORIES":
        # Split before the escapes are undone, so that "\," stays inside a category.
        value = factory(split_on_unescaped_comma(line[line.value_separator_index() + 1 :]))
    else:
        verbatim = getattr(factory, "get_value_from_content_line", None)  # RFC 7265 UNKNOWN
        value = factory(factory.from_ical(verbatim(line) if verbatim else text))
    value.params = params
    return value


def _problem(exc: Exception) -> str:
    if isinstance(exc, ValueError):  # the library's own words: "Expected int, got: two"
        return _snippet(str(exc))
    return _snippet(f"the iCalendar library cannot read it ({type(exc).__name__}: {exc})")
