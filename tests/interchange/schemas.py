"""The community's JSON schemas (../shared/formats) as validators that check every format they
name: jsonschema passes "date-time", "uri" and "uuid" unchecked unless told how."""

from __future__ import annotations

import json
import re
import uuid
from datetime import datetime
from pathlib import Path

import jsonschema

# RFC 3339 date-times with an offset; fractions of a second only where a reader allows them.
_DATE_TIME = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dFRACTION(Z|[+-]\d\d:\d\d)"
_URI = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:[^\s<>\"]+")


def schema_validator(
    shared_dir: Path, name: str, *, fractions: bool = True
) -> jsonschema.Draft6Validator:
    """formats/`name` with "date-time", "uri" and "uuid" checked; `fractions=False` refuses
    fractional seconds (what our writers never write)."""
    schema = json.loads((shared_dir / "formats" / name).read_text())
    checker = jsonschema.FormatChecker()
    date_time = re.compile(_DATE_TIME.replace("FRACTION", r"(\.\d+)?" if fractions else ""))

    @checker.checks("date-time", raises=ValueError)
    def is_date_time(value: object) -> bool:
        if not isinstance(value, str):
            return True
        if not date_time.fullmatch(value):
            return False
        return datetime.fromisoformat(value).utcoffset() is not None

    @checker.checks("uri")
    def is_uri(value: object) -> bool:
        return not isinstance(value, str) or bool(_URI.fullmatch(value))

    @checker.checks("uuid", raises=ValueError)
    def is_uuid(value: object) -> bool:
        return not isinstance(value, str) or str(uuid.UUID(value)) == value

    jsonschema.Draft6Validator.check_schema(schema)
    return jsonschema.Draft6Validator(schema, format_checker=checker)


def schema_errors(validator: jsonschema.Draft6Validator, data: bytes) -> list[str]:
    """Each error as "[path]: message", in the validator's order."""
    found = validator.iter_errors(json.loads(data))
    return [f"{list(error.absolute_path)}: {error.message}" for error in found]
