"""The Sched-page reader on the five PyTorch Conference Europe 2026 pages, with exact values.

Every expectation below was read off the pages by hand (see demo/…/README.md).
"""

from __future__ import annotations

import difflib
from collections import Counter
from datetime import UTC, date, datetime

import pytest

from confsched.core.errors import ParseError
from confsched.interchange.sched import listing as sched_listing
from confsched.interchange.sched import read as sched_pages
from confsched.interchange.sched import titles as sched_titles
from confsched.interchange.sched.read import (
    looks_like_sched_page,
    parse_sched_pages,
)
from confsched.interchange.sched.titles import _split_speakers
from tests.conftest import DEMO_DIR, demo_files

# key, start and end (CEST), room, track ("type"), audience level, slides attached
SCHEDULE = [
    ("lightning-talk-why-your-forecasting-transformer-isnt-working-and-how-to-fix-it-in-python", "11:00", "11:10", "Central Room", "Applications & Case Studies", "Intermediate", False),
    ("lightning-talk-training-embedding-model-resiliently-for-multimodal-model-inference-routing", "11:00", "11:10", "Junior Stage", "Training Systems", "Intermediate", False),
    ("helion-1-0-a-high-level-dsl-for-performance-portable-kernels", "11:00", "11:25", "Master Stage", "", "Intermediate", False),
    ("lightning-talk-flexible-deployment-of-pytorch-models-on-mcu-class-devices-using-executorch", "11:15", "11:25", "Junior Stage", "Inference & Production", "Intermediate", False),
    ("lightning-talk-coding-agents-for-compiler-construction-beyond-the-ai-assistant-paradigm", "11:30", "11:40", "Founders Cafe", "Agents & Interop", "Intermediate", False),
    ("tour-de-force-llm-inference-optimization-from-simple-to-sophisticated", "11:30", "11:55", "Master Stage", "", "Intermediate", False),
    ("lightning-talk-torchjd-jacobian-descent-in-pytorch", "11:45", "11:55", "Founders Cafe", "Training Systems", "Intermediate", False),
    ("parameterized-cuda-graph-launch-in-pytorch-cuda-graphs-without-the-pain", "12:00", "12:25", "Junior Stage", "", "Advanced", False),
    ("lightning-talk-bringing-googles-colossus-to-pytorch-rapid-storage-via-fsspec-to-keep-gpus-busy", "12:00", "12:10", "Master Stage", "Training Systems", "Any", True),
    ("lightning-talk-flexattention-flashattention-4-fast-and-flexible", "12:15", "12:25", "Master Stage", "", "Advanced", False),
    ("lightning-talk-from-pretrained-to-personal-privacy-first-fine-tuning-on-ai-pcs", "13:45", "13:55", "Founders Cafe", "Security & Privacy", "Intermediate", False),
    ("teaching-pytorch-to-read-your-worst-pdfs-with-docling", "13:45", "14:10", "Junior Stage", "", "Intermediate", False),
    ("bringing-executorch-to-the-next-frontiers-of-edge-ai", "13:45", "14:10", "Master Stage", "Applications & Case Studies", "Intermediate", False),
    ("the-token-slice-implementing-preemptive-scheduling-via-chunked-decoding", "14:15", "14:40", "Central Room", "", "Intermediate", False),
    ("the-science-and-practice-of-open-and-scalable-llm-evaluations", "14:45", "15:10", "Central Room", "GenAI & Multimodal", "Intermediate", False),
    ("lightning-talk-implementing-single-dim-strategies-with-sharding-validator", "14:45", "14:55", "Founders Cafe", "Frameworks & Compilers", "Intermediate", False),
    ("brevitas-quantization-library", "14:45", "15:10", "Junior Stage", "Frameworks & Compilers", "Intermediate", False),
    ("model-changing-transforms-with-torch-compile", "14:45", "15:10", "Master Stage", "", "Advanced", False),
    ("lightning-talk-jigsaw-domain-and-tensor-parallelism-for-high-resolution-input-training", "15:00", "15:10", "Founders Cafe", "Training Systems", "Any", True),
    ("enabling-state-of-the-art-asynchronous-execution-in-torch-compile-with-cuda-streams", "15:40", "16:05", "Central Room", "Frameworks & Compilers", "Intermediate", False),
    ("lightning-talk-cross-region-model-serving-pytorch-inference-observability-llmops", "15:40", "15:50", "Founders Cafe", "Inference & Production", "Advanced", False),
    ("torch-compile-and-diffusers-a-hands-on-guide-to-peak-performance", "15:40", "16:05", "Junior Stage", "", "Intermediate", False),
    ("lightning-talk-graph-based-pipeline-parallelism", "15:40", "15:50", "Master Stage", "Frameworks & Compilers", "Intermediate", False),
    ("lightning-talk-beyond-generic-spans-distributed-tracing-for-actionable-llm-observability", "15:55", "16:05", "Master Stage", "", "Intermediate", False),
    ("optimizing-reinforcement-learning-at-trillion-parameter-scale", "16:10", "16:35", "Junior Stage", "Training Systems", "Intermediate", False),
    ("torchstore-what-we-learned-building-distributed-storage-solutions-for-aysncrl", "16:10", "16:35", "Master Stage", "Training Systems", "Intermediate", False),
    ("optimizing-pytorch-on-cpu-gpu-coherent-platforms", "16:40", "17:05", "Founders Cafe", "Frameworks & Compilers", "Advanced", False),
    ("securing-agentic-ai-with-pytorch-threat-modeling-llm-red-teaming-in-practice", "16:40", "17:05", "Junior Stage", "", "Intermediate", False),
]  # fmt: skip


def _speakers(programme, key):  # noqa: ANN001, ANN202
    session = programme.session(key)
    return [
        (programme.speaker(link.speaker_key).name, link.affiliation) for link in session.speakers
    ]


def test_demo_pages_give_28_scheduled_sessions_and_one_for_review(demo_programme) -> None:
    scheduled = [s for s in demo_programme.sessions if s.starts_at is not None]
    flagged = [s for s in demo_programme.sessions if s.needs_review]
    assert len(demo_programme.sessions) == 29
    assert len(scheduled) == 28
    assert [s.title for s in flagged] == ["Untitled session page (004_8d12cb28771c542b.txt)"]
    assert len(demo_programme.speakers) == 42


def test_demo_pages_each_session_has_its_time_room_track_level_and_slides(demo_programme) -> None:
    got = [
        (
            s.key,
            f"{s.starts_at:%H:%M}",
            f"{s.ends_at:%H:%M}",
            s.room,
            s.track,
            s.level,
            s.has_slides,
        )
        for s in sorted(
            (s for s in demo_programme.sessions if s.starts_at),
            key=lambda s: (s.starts_at, s.room),
        )
    ]
    assert got == SCHEDULE


def test_demo_pages_rooms_tracks_and_levels(demo_programme) -> None:
    scheduled = [s for s in demo_programme.sessions if s.starts_at]
    assert sorted({s.room for s in scheduled}) == [
        "Central Room", "Founders Cafe", "Junior Stage", "Master Stage",
    ]  # fmt: skip
    assert sorted({s.track for s in scheduled} - {""}) == [
        "Agents & Interop", "Applications & Case Studies", "Frameworks & Compilers",
        "GenAI & Multimodal", "Inference & Production", "Security & Privacy", "Training Systems",
    ]  # fmt: skip
    assert sorted({s.level for s in scheduled}) == ["Advanced", "Any", "Intermediate"]


def test_times_are_aware_and_read_at_the_headers_offset(demo_programme) -> None:
    session = demo_programme.session("lightning-talk-torchjd-jacobian-descent-in-pytorch")
    assert session.starts_at.astimezone(UTC) == datetime(2026, 4, 7, 9, 45, tzinfo=UTC)
    assert session.ends_at.astimezone(UTC) == datetime(2026, 4, 7, 9, 55, tzinfo=UTC)
    assert session.starts_at.tzname() == "CEST"


def test_event_facts_come_from_the_header_but_the_year_from_the_sessions(demo_programme) -> None:
    # The header says "7-8 April, 2025"; every session is dated 2026.
    assert demo_programme.name == "PyTorch Conference Europe 2026"
    assert demo_programme.location == "Paris, France"
    assert demo_programme.start_date == date(2026, 4, 7)
    assert demo_programme.end_date == date(2026, 4, 8)


def test_a_session_seen_under_two_filters_gets_both_facets(demo_programme) -> None:
    # Page 000 is filtered by level Intermediate, page 001 by type Training Systems; this
    # session shows neither facet in its own lines.
    session = demo_programme.session(
        "lightning-talk-training-embedding-model-resiliently-for-multimodal-model-inference-routing"
    )
    assert (session.track, session.level) == ("Training Systems", "Intermediate")
    assert session.kind == "Lightning Talk"
    assert (
        session.title
        == "Training Embedding Model Resiliently for Multimodal Model Inference Routing"
    )


def test_titles_without_a_known_kind_prefix_stay_whole(demo_programme) -> None:
    session = demo_programme.session(
        "tour-de-force-llm-inference-optimization-from-simple-to-sophisticated"
    )
    assert (session.kind, session.title) == (
        "",
        "Tour De Force: LLM Inference Optimization From Simple To Sophisticated",
    )


def test_people_sharing_one_company(demo_programme) -> None:
    key = (
        "lightning-talk-flexible-deployment-of-pytorch-models-on-mcu-class-devices-using-executorch"
    )
    assert _speakers(demo_programme, key) == [("Robert Kalmar", "NXP"), ("Martin Pavella", "NXP")]


def test_four_names_before_a_company_without_its_comma_and_a_misspelt_name(demo_programme) -> None:
    # "Lucas Pasqualin, Danielle Pintz, Allen Wang, Amir Afzail Meta"; the block says "Afzali".
    key = "torchstore-what-we-learned-building-distributed-storage-solutions-for-aysncrl"
    assert _speakers(demo_programme, key) == [
        ("Lucas Pasqualin", "Meta"),
        ("Danielle Pintz", "Meta"),
        ("Allen Wang", "Meta"),
        ("Amir Afzali", "Meta"),
    ]
    # Allen Wang's block has initials ("AW") instead of an avatar, and no bio.
    allen = demo_programme.speaker("allen-wang")
    assert (allen.position, allen.company, allen.bio) == ("Software Engineer", "Meta", "")


def test_a_speaker_named_in_the_title_without_a_block_is_kept(demo_programme) -> None:
    key = "teaching-pytorch-to-read-your-worst-pdfs-with-docling"
    assert _speakers(demo_programme, key) == [
        ("Mingxuan Zhao", "IBM"),
        ("Peter Staar", "IBM"),
        ("Carol Chen", "Red Hat"),
    ]
    peter = demo_programme.speaker("peter-staar")
    assert (peter.company, peter.position, peter.bio) == ("IBM", "", "")


def test_a_company_containing_an_ampersand_is_not_a_second_speaker(demo_programme) -> None:
    key = "optimizing-reinforcement-learning-at-trillion-parameter-scale"
    assert _speakers(demo_programme, key) == [("Songlin Jiang", "Aalto University & Mind Lab")]


def test_a_longer_name_in_the_title_maps_to_the_speakers_block(demo_programme) -> None:
    # "Daniel Holanda Noronha & Iswarya Alex, AMD" while the block reads "Daniel Holanda".
    key = "lightning-talk-from-pretrained-to-personal-privacy-first-fine-tuning-on-ai-pcs"
    assert _speakers(demo_programme, key) == [("Daniel Holanda", "AMD"), ("Iswarya Alex", "AMD")]
    # Sched repeats the name where the position is empty: "Iswarya Alex, AMD".
    iswarya = demo_programme.speaker("iswarya-alex")
    assert (iswarya.position, iswarya.company) == ("", "AMD")


def test_speaker_blocks_give_position_company_and_bio(demo_programme) -> None:
    huamin = demo_programme.speaker("huamin-chen")
    assert (huamin.name, huamin.position, huamin.company) == (
        "Huamin Chen", "Technical Advisor", "Microsoft",
    )  # fmt: skip
    assert huamin.bio.startswith("Dr. Huamin Chen is a passionate developer.")
    assert huamin.bio.endswith("He is also one of the founding members...")
    # The billed affiliation of the session differs from the profile, and both are kept.
    key = (
        "lightning-talk-training-embedding-model-resiliently-for-multimodal-model-inference-routing"
    )
    assert _speakers(demo_programme, key) == [("Huamin Chen", "Red Hat"), ("Haichen Zhang", "AMD")]
    daniel = demo_programme.speaker("daniel-holanda")
    assert "\n\nPreviously, he was a Machine Learning Engineer at Groq" in daniel.bio


def test_page_chrome_avatar_lines_and_repeated_time_lines_are_not_text(demo_programme) -> None:
    texts = [s.abstract for s in demo_programme.sessions] + [
        sp.bio for sp in demo_programme.speakers
    ]
    for marker in ("avatar for", "Read More", "Filter By", "CEST", "Share Modal", "Speakers\n"):
        assert [t for t in texts if marker in t] == [], marker
    torchjd = demo_programme.session("lightning-talk-torchjd-jacobian-descent-in-pytorch")
    assert torchjd.abstract.splitlines()[-1] == "Paper: https://arxiv.org/abs/2406.16232"
    assert torchjd.abstract.count("\n\n") == 3


def test_a_session_page_without_title_is_matched_to_its_listing(demo_programme) -> None:
    assert demo_programme.notes == [
        "003_e30430de5c212814.txt: session page matched 'Enabling State-of-the-art "
        "Asynchronous Execution in Torch.compile With CUDA Streams'"
    ]


def test_an_unmatched_session_page_is_kept_for_review(demo_programme) -> None:
    (session,) = [s for s in demo_programme.sessions if s.needs_review]
    assert session.key == "sched-page-" + session.key.removeprefix("sched-page-")
    assert len(session.key) == len("sched-page-") + 12
    assert (session.starts_at, session.room, session.speakers) == (None, "", ())
    assert session.abstract.startswith("PyTorch Monarch introduces a new distributed programming")
    assert session.abstract.endswith("Please connect with me on LinkedIn.")
    assert "no title and no time" in session.review_note
    assert "Sign up or log in" not in session.abstract


def test_parsing_is_independent_of_page_order() -> None:
    forward = parse_sched_pages(demo_files())
    backward = parse_sched_pages(list(reversed(demo_files())))
    assert sorted(forward.sessions, key=lambda s: s.key) == sorted(
        backward.sessions, key=lambda s: s.key
    )
    assert sorted(forward.speakers, key=lambda s: s.key) == sorted(
        backward.speakers, key=lambda s: s.key
    )


def test_reading_one_filtered_page_alone_gives_only_its_facets() -> None:
    (page,) = [(n, d) for n, d in demo_files() if n.startswith("002")]
    programme = parse_sched_pages([page])
    assert len(programme.sessions) == 5
    assert {s.level for s in programme.sessions} == {"Advanced"}


@pytest.mark.parametrize(
    ("tail", "known", "expected"),
    [
        ("Jane Doe, Acme", ["Jane Doe"], [("Jane Doe", "Acme")]),
        ("A B & C D, Acme", ["A B", "C D"], [("A B", "Acme"), ("C D", "Acme")]),
        (
            "A B, Acme & C D, Other, Inc.",
            ["A B", "C D"],
            [("A B", "Acme"), ("C D", "Other, Inc.")],
        ),
        ("Jane Doe", ["Jane Doe"], [("Jane Doe", "")]),
        ("Not A Name, Acme", ["Jane Doe"], None),
    ],
)
def test_split_speakers(tail: str, known: list[str], expected) -> None:  # noqa: ANN001
    assert _split_speakers(tail, known) == expected


def test_sniffer_tells_sched_pages_from_other_text() -> None:
    assert looks_like_sched_page((DEMO_DIR / "003_e30430de5c212814.txt").read_text())
    assert not looks_like_sched_page("BEGIN:VCALENDAR\nVERSION:2.0\n")


# --- refusals: each names the file and line, and returns nothing -------------------------------

LISTING = (DEMO_DIR / "001_6d989ba89a10ee92.txt").read_text(encoding="utf-8")


def _error(text: str | bytes, name: str = "page.txt") -> str:
    data = text.encode() if isinstance(text, str) else text
    with pytest.raises(ParseError) as caught:
        parse_sched_pages([(name, data)])
    return str(caught.value)


def test_refuses_bytes_that_are_not_utf8() -> None:
    data = LISTING.encode()
    broken = data.replace(b"Jacobian descent (JD)", b"Jacobian \xff descent (JD)")
    line = data[: data.index(b"Jacobian descent (JD)")].count(b"\n") + 1
    byte = broken.index(b"\xff")
    assert _error(broken) == (
        f"page.txt, line {line}: not UTF-8 text (byte {byte} cannot be "
        "decoded); save the page as UTF-8"
    )


def test_refuses_text_that_is_not_a_sched_page() -> None:
    assert _error("Hello\nworld\n", "notes.txt") == (
        "notes.txt: not a Sched page: no session time lines such as "
        "'Tuesday April 7, 2026 11:00 - 11:10 CEST' and none of Sched's page text"
    )


def test_refuses_an_entry_whose_time_line_is_not_repeated() -> None:
    lines = LISTING.splitlines()
    closing = [
        i for i, line in enumerate(lines) if line == "Tuesday April 7, 2026 11:45 - 11:55 CEST"
    ][1]
    del lines[closing]
    opening = lines.index("Tuesday April 7, 2026 11:45 - 11:55 CEST") + 1
    assert _error("\n".join(lines)) == (
        f"page.txt, line {opening}: this entry's time line is not repeated at the end of the "
        "entry, as Sched pages always do; the page looks cut or edited here"
    )


def test_refuses_a_weekday_that_does_not_match_the_date() -> None:
    text = LISTING.replace(
        "Tuesday April 7, 2026 11:45 - 11:55", "Monday April 7, 2026 11:45 - 11:55"
    )
    line = text.splitlines().index("Monday April 7, 2026 11:45 - 11:55 CEST") + 1
    assert _error(text) == f"page.txt, line {line}: April 7, 2026 is a Tuesday, not a Monday"


def test_refuses_an_unknown_zone_abbreviation() -> None:
    text = LISTING.replace("12:00 - 12:10 CEST", "12:00 - 12:10 XYZT")
    line = text.splitlines().index("Tuesday April 7, 2026 12:00 - 12:10 XYZT") + 1
    assert _error(text) == (
        f"page.txt, line {line}: time zone 'XYZT' is not declared in the page header and is "
        "not one confsched knows; keep the header line 'This schedule is automatically "
        "displayed in …'"
    )


def test_refuses_an_impossible_time() -> None:
    text = LISTING.replace("12:00 - 12:10 CEST", "12:00 - 25:10 CEST")
    line = text.splitlines().index("Tuesday April 7, 2026 12:00 - 25:10 CEST") + 1
    assert _error(text) == f"page.txt, line {line}: '25:10' is not a time of day"


def test_refuses_nothing() -> None:
    with pytest.raises(ParseError, match="no Sched pages given"):
        parse_sched_pages([])


def test_a_session_running_past_midnight_ends_the_next_day() -> None:
    text = LISTING.replace("16:10 - 16:35 CEST", "23:50 - 00:20 CEST")
    programme = parse_sched_pages([("late.txt", text.encode())])
    session = programme.session("optimizing-reinforcement-learning-at-trillion-parameter-scale")
    assert session.starts_at.astimezone(UTC) == datetime(2026, 4, 7, 21, 50, tzinfo=UTC)
    assert session.ends_at.astimezone(UTC) == datetime(2026, 4, 7, 22, 20, tzinfo=UTC)


def test_twelve_hour_times_as_sched_prints_them_for_us_events() -> None:
    text = LISTING.replace(
        "Tuesday April 7, 2026 16:10 - 16:35 CEST", "Tuesday April 7, 2026 4:10pm - 4:35pm CEST"
    )
    programme = parse_sched_pages([("us.txt", text.encode())])
    session = programme.session("optimizing-reinforcement-learning-at-trillion-parameter-scale")
    assert session.starts_at.astimezone(UTC) == datetime(2026, 4, 7, 14, 10, tzinfo=UTC)


@pytest.mark.shared
def test_demo_pages_are_the_shared_seeds_unchanged(shared_dir) -> None:  # noqa: ANN001
    seeds = {path.name: path.read_bytes() for path in sorted((shared_dir / "seeds").glob("*.txt"))}
    assert dict(demo_files()) == seeds


# --- issue 7: hostile pages cost time in proportion to their size -------------------------------

HEADER = "This schedule is automatically displayed in CEST (UTC/GMT +2).\n\n"
TIME_LINE = "Tuesday April 7, 2026 11:00 - 11:10 CEST"


def entry(title: str, blocks: str, footer: str = "Room 1\n", abstract: str = "Abstract.") -> str:
    return f"{title}\n{TIME_LINE}\n{abstract}\nSpeakers\n{blocks}{TIME_LINE}\n{footer}\n"


def block(name: str, bio: str = "Bio.") -> str:
    return f"avatar for {name}\n{name}\nEngineer, Co\n{bio}\n"


def test_long_runs_of_spaces_are_read_in_one_pass() -> None:
    # By size: ten times the audit's 40,000 spaces, before "Read More →", around a bullet's
    # text and inside an abstract. "\s*Read More →\s*$" and "^\s*•\s*(.+?)\s*$" retried at
    # every space (hours at this size); string methods read each line once.
    run = " " * 400_000
    page = HEADER + entry(
        "Spaces - Ada Lovelace, Co",
        block("Ada Lovelace", f"Ada builds engines...{run}Read More →{run}"),
        footer=f"Room 1\n  Compilers\n  •{run}Audience Level Any{run}\n  • Slides Attached Yes\n",
        abstract=f"Before{run}after.",
    )
    programme = parse_sched_pages([("page.txt", page.encode())])
    (session,) = programme.sessions
    assert (session.title, session.room, session.track, session.level, session.has_slides) == (
        "Spaces",
        "Room 1",
        "Compilers",
        "Any",
        True,
    )
    assert session.abstract == f"Before{run}after."
    assert programme.speakers[0].bio == "Ada builds engines..."
    session_page = f"Sign up or log in to add sessions\nOther text...{run}Read More →\n"
    unmatched = parse_sched_pages([("s.txt", session_page.encode())]).sessions[0]
    assert unmatched.abstract == "Other text..."


@pytest.mark.parametrize(
    ("line", "name"),
    [
        ("You must be registered for PyCon 2026 to participate in the sessions.", "PyCon 2026"),
        ("You must be registered for  to participate", ""),
        ("You must be registered for X to participate to participate", "X"),
        ("You must be registered for " * 50_000, ""),  # the pattern rescanned the rest each time
    ],
)
def test_event_name_from_the_registration_sentence(line: str, name: str) -> None:
    assert sched_listing._event_name(line) == name


def test_many_speakers_are_matched_by_lookup_not_by_comparison(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # By size: 300 speakers sharing a first name. Each piece of the title line was compared
    # with every block of that first name (89,700 fuzzy comparisons); exact names now cost a
    # look-up, and a first name shared by more than 16 blocks gets no fuzzy matching.
    compared: list[tuple[str, str]] = []
    real = sched_titles.difflib.SequenceMatcher

    def counting(*, a: str, b: str) -> difflib.SequenceMatcher:
        compared.append((a, b))
        return real(a=a, b=b)

    monkeypatch.setattr(sched_titles.difflib, "SequenceMatcher", counting)
    names = [f"Ann Person{number}" for number in range(300)]
    page = HEADER + entry(
        "Crowd - " + ", ".join(f"{name}, Co {number}" for number, name in enumerate(names)),
        "".join(block(name) for name in names),
    )
    programme = parse_sched_pages([("page.txt", page.encode())])
    assert _speakers(programme, "crowd") == [
        (name, f"Co {number}") for number, name in enumerate(names)
    ]
    assert programme.warnings == []
    assert compared == []


def test_a_misspelt_name_is_still_matched_among_few_blocks() -> None:
    page = HEADER + entry("Typo - Amir Afzail Meta", block("Amir Afzali") + block("Amir Other"))
    programme = parse_sched_pages([("page.txt", page.encode())])
    assert _speakers(programme, "typo") == [("Amir Afzali", "Meta"), ("Amir Other", "Co")]


def test_only_the_first_ten_dashes_of_a_title_line_are_tried() -> None:
    speakers = "Ada Lovelace, Co"
    near = "Q - " + " - ".join("x" * 9) + " - " + speakers  # the speakers after the 10th " - "
    far = "Q - " + " - ".join("x" * 10) + " - " + speakers  # after the 11th
    for title in (near, far):
        assert title.count(" - ") in (10, 11)
    page = HEADER + entry(near, block("Ada Lovelace")) + entry(far, block("Ada Lovelace"))
    programme = parse_sched_pages([("page.txt", page.encode())])
    first, second = programme.sessions
    assert (first.title, [link.affiliation for link in first.speakers]) == (
        near.removesuffix(" - " + speakers),
        ["Co"],
    )
    # Past ten, the line is a title; the block still gives the speaker, with a warning.
    assert (second.title, [link.affiliation for link in second.speakers]) == (far, ["Co"])
    assert programme.warnings == [
        "page.txt, line 14: speaker 'Ada Lovelace' has a block but is not named in the title line"
    ]


def test_a_session_page_completes_many_bios_with_one_lookup_each(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # By size: 200 cut bios and a page of 2,000 lines. Each bio was compared with every line,
    # folding the line each time (200 folds a line); now each line is folded three times.
    folds: list[str] = []
    real = sched_pages.fold

    def counting(text: str) -> str:
        folds.append(text)
        return real(text)

    names = [f"Speaker {number:03d}" for number in range(200)]
    bios = [
        f"{name} has worked on compilers for a long time and many other things" for name in names
    ]
    page = HEADER + entry(
        "Many - " + ", ".join(f"{name}, Co" for name in names),
        "".join(
            block(name, bio[:70] + "... Read More →") for name, bio in zip(names, bios, strict=True)
        ),
        abstract="The abstract.",
    )
    page_lines = [
        line
        for number, bio in enumerate(bios)
        for line in [f"{bio}, in full."] + [f"Filler {number}-{k}." for k in range(9)]
    ]
    session_page = "Sign up or log in to add sessions\nThe abstract.\n" + "\n".join(page_lines)
    monkeypatch.setattr(sched_pages, "fold", counting)
    programme = parse_sched_pages([("l.txt", page.encode()), ("s.txt", session_page.encode())])
    assert [speaker.bio for speaker in programme.speakers] == [f"{bio}, in full." for bio in bios]
    assert programme.notes == ["s.txt: session page matched 'Many'"]
    assert len(page_lines) == 2000
    wanted = set(page_lines)
    assert Counter(text for text in folds if text in wanted) == Counter(
        {line: 3 for line in page_lines}
    )


def test_refuses_a_session_that_ends_after_the_year_9999() -> None:
    late = HEADER + entry("Late", "").replace(
        TIME_LINE, "Friday December 31, 9999 23:50 - 00:20 CEST"
    )
    assert _error(late) == (
        "page.txt, line 4: 'Friday December 31, 9999 23:50 - 00:20 CEST' falls outside the "
        "dates confsched can show in every time zone (0001-01-02 to 9999-12-30, UTC)"
    )
    early = HEADER + entry("Early", "").replace(
        TIME_LINE, "Monday January 1, 0001 00:10 - 00:20 CEST"
    )
    assert _error(early) == (
        "page.txt, line 4: 'Monday January 1, 0001 00:10 - 00:20 CEST' falls outside the dates "
        "confsched can show in every time zone (0001-01-02 to 9999-12-30, UTC)"
    )


def test_refuses_a_header_offset_of_a_day_or_more() -> None:
    page = HEADER.replace("+2", "+24") + entry("Talk", "")
    assert _error(page) == (
        "page.txt, line 1: 'displayed in CEST (UTC/GMT +24)' is no UTC offset: offsets lie "
        "within a day of UTC"
    )
