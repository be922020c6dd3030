"""Turning an import's bytes into a JSON value or an XML tree, or into a ParseError that says
what is wrong and where. Every JSON and XML reader starts here, so that hostile documents
(huge integers, deep nesting, unknown encodings, entity tricks) meet one set of defences.
"""

from __future__ import annotations

import json
import re
from typing import Any
from xml.etree.ElementTree import Element
from xml.etree.ElementTree import ParseError as XMLSyntaxError

import defusedxml
from defusedxml.ElementTree import fromstring

from confsched.core.errors import ParseError


def decode_utf8(data: bytes, *, source: str, what: str) -> str:
    """The text of `data` (a byte-order mark dropped); a ParseError names the first bad byte."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ParseError(
            f"not UTF-8 text (byte {exc.start} cannot be decoded); {what} must be UTF-8",
            source=source,
            line=data[: exc.start].count(b"\n") + 1,
        ) from exc


def read_json(data: bytes, *, source: str, what: str) -> Any:
    """The JSON value in `data`; `what` names the document for messages ("a schedule.json")."""
    text = decode_utf8(data, source=source, what=what)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ParseError(
            f"not valid JSON: {exc.msg} (column {exc.colno})", source=source, line=exc.lineno
        ) from exc
    except RecursionError as exc:
        raise ParseError(f"not {what}: its JSON is nested too deeply", source=source) from exc
    except ValueError as exc:
        # Python refuses integers of more than 4,300 digits rather than spend quadratic time.
        raise ParseError(f"not {what}: a number in it is too long ({exc})", source=source) from exc


_POSITION = re.compile(r": line \d+, column \d+$")


def read_xml(data: bytes | str, *, source: str, what: str) -> Element:
    """The root element of the XML in `data`; no entities expanded, no external references."""
    try:
        return fromstring(data)
    except XMLSyntaxError as exc:
        line, column = exc.position
        problem = _POSITION.sub("", str(exc))
        raise ParseError(
            f"not well-formed XML: {problem} (column {column + 1})", source=source, line=line
        ) from exc
    except defusedxml.DefusedXmlException as exc:
        name = getattr(exc, "name", None)
        declared = f"an entity ({name!r})" if name else "entities or external references"
        raise ParseError(
            f"the XML declares {declared}; {what} needs none and confsched does not expand them",
            source=source,
        ) from exc
    except LookupError as exc:
        # An XML declaration naming an encoding Python does not know: encoding="x-klingon".
        name = str(exc).removeprefix("unknown encoding: ")[:64]
        raise ParseError(
            f"the XML declares the encoding {name!r}, which confsched does not know; save the "
            "file as UTF-8",
            source=source,
        ) from exc
    except (ValueError, RecursionError) as exc:
        raise ParseError(f"not well-formed XML: {exc}", source=source) from exc
