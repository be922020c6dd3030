"""confsched's CSV, written: what `csv.read` reads back to the same sessions (the columns,
the quirks and the guard against formulas are described there and in docs/csv-format.md).
"""

from __future__ import annotations

import csv
import io
from datetime import datetime, tzinfo

from confsched.interchange.csv.read import _FORMULA_STARTS, _SEPARATING_SEMICOLON, COLUMNS
from confsched.interchange.pieces import Context, Keeper, billed, build_all
from confsched.interchange.programme import Programme, Session, Speaker
from confsched.interchange.zones import programme_zone


def render(
    programme: Programme, *, slug: str, base_url: str = "", now: datetime | None = None,
    keep: Keeper = build_all,
) -> bytes:  # fmt: skip
    """The programme's scheduled sessions as confsched CSV (UTF-8 with a BOM, CRLF), each row
    asked of `keep` (interchange/pieces.py)."""
    # slug, base_url and now make the writers' common signature: a CSV row holds no link and
    # no timestamp, so the output depends on the programme alone.
    del slug, base_url, now
    zone = programme_zone(programme.timezone)
    speakers = {speaker.key: speaker for speaker in programme.speakers}
    by_key = {
        session.key: session
        for session in programme.sessions
        if session.starts_at is not None and not session.is_cancelled and not session.needs_review
    }
    head = io.StringIO()
    csv.writer(head, lineterminator="\r\n").writerow(COLUMNS)
    ordered = sorted(by_key.values(), key=lambda session: (session.starts_at, session.key))
    wanted = [
        (session, (zone, programme.timezone, billed(session.speakers, speakers)))
        for session in ordered
    ]
    rows = keep(f"{__name__}:row", wanted, render_row)
    return b"".join([("\ufeff" + head.getvalue()).encode("utf-8"), *rows])


def render_row(session: Session, context: Context) -> bytes:
    """One session's line (interchange/pieces.py), UTF-8, ending in CRLF."""
    zone, timezone, named = context
    speakers = {key: speaker for key, speaker in named if speaker is not None}
    row = {
        "key": session.key,
        "title": session.title,
        "kind": session.kind,
        "starts_at": _iso(session.starts_at, zone),
        "ends_at": _iso(session.ends_at, zone) if session.ends_at else "",
        "timezone": timezone,
        "room": session.room,
        "track": session.track,
        "level": session.level,
        "language": session.language,
        "speakers": _speakers_cell(session, speakers),
        "abstract": session.abstract,
        "slides": "yes" if session.has_slides else "no",
        "links": _links_cell(session),
        "seats": "" if session.seats is None else str(session.seats),
    }
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerow(guard_cell(row[column]) for column in COLUMNS)
    return out.getvalue().encode("utf-8")


def _iso(value: datetime | None, zone: tzinfo) -> str:
    assert value is not None
    local = value.astimezone(zone)
    if local.microsecond:
        spec = "microseconds"
    else:
        spec = "seconds" if local.second else "minutes"
    return local.isoformat(timespec=spec)


def _speakers_cell(session: Session, speakers: dict[str, Speaker]) -> str:
    """'Name (Company); Name': ';' inside a name or company is written ',' as ';' separates."""
    parts = []
    for billing in session.speakers:
        speaker = speakers.get(billing.speaker_key)
        name = (speaker.name if speaker else billing.speaker_key).replace(";", ",")
        company = (billing.affiliation or (speaker.company if speaker else "")).replace(";", ",")
        if company:
            parts.append(f"{name} ({company})")
        else:
            # "()" keeps a name that ends in parentheses from being read as name and company.
            parts.append(f"{name} ()" if name.endswith(")") else name)
    return "; ".join(parts)


def _links_cell(session: Session) -> str:
    """'Slides: Title https://…; Video: https://…': each link's kind written out, so that it
    reads back as it is; a title's ';' before a space or at its end is written ','."""
    parts = []
    for link in session.links:
        title = _SEPARATING_SEMICOLON.sub(",", " ".join(link.title.split()))
        parts.append(f"{link.kind.capitalize()}: {title + ' ' if title else ''}{link.url}")
    return "; ".join(parts)


def guard_cell(value: str) -> str:
    """Prefix an apostrophe to a cell a spreadsheet would run as a formula; parse drops it."""
    return f"'{value}" if value.startswith(_FORMULA_STARTS) else value
