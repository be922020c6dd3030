"""Made-up programmes of any size, for benchmarks and for tests that need many sessions."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from confsched.interchange.programme import Programme, Session, SessionSpeaker, Speaker


def synthetic_programme(
    size: int, *, rooms: int = 5, days: int = 2, start: datetime | None = None,
    people: int | None = None, slot_minutes: int = 30, abstract_sentences: int = 12,
) -> Programme:  # fmt: skip
    """`size` sessions on `days` days across `rooms` rooms, one every `slot_minutes` in each
    room (each 5 minutes shorter), two speakers each, drawn in turn from `people` speakers (two
    per session when not given); abstracts of 36 characters a sentence."""
    start = start or datetime(2026, 4, 7, 7, tzinfo=UTC)
    people = people or size * 2
    speakers = [
        Speaker(key=f"p{i}", name=f"Person {i}", company=f"Company {i % 40}") for i in range(people)
    ]
    sessions = []
    for i in range(size):
        slot = start + timedelta(days=i % days, minutes=slot_minutes * ((i // days) // rooms))
        sessions.append(
            Session(
                key=f"s{i}",
                title=f"Session number {i} about tensors",
                kind="Talk",
                abstract="An abstract with several sentences. " * abstract_sentences,
                starts_at=slot,
                ends_at=slot + timedelta(minutes=slot_minutes - 5),
                room=f"Room {(i // days) % rooms}",  # one session per room and slot
                track=f"Track {i % 8}",
                level=("Beginner", "Advanced")[i % 2],
                has_slides=i % 4 == 0,
                speakers=(
                    SessionSpeaker(f"p{2 * i % people}", "Company"),
                    SessionSpeaker(f"p{(2 * i + 1) % people}"),
                ),
            )
        )
    return Programme(sessions=sessions, speakers=speakers)


def fosdem_shaped(size: int) -> Programme:
    """A programme of `size` sessions shaped like FOSDEM's, as the benchmarks use it: 10 rooms
    per 1,000 sessions and at least 10, two days, 1.372 speakers per session, abstracts of
    about 800 characters, slots as long as fit the days."""
    rooms = max(10, size // 100)
    return synthetic_programme(
        size, rooms=rooms, days=2, people=round(size * 1.372), abstract_sentences=22,
        slot_minutes=max(10, min(30, 24 * 60 // max(1, size // (2 * rooms)))),
    )  # fmt: skip
