"""A real `confsched serve` of the demo event for the tests that need one (scale-out, database
restarts, Redis down): its own data folder and database, gunicorn in front, stopped after."""

from __future__ import annotations

import importlib
import os
import random
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.conftest import DEMO_DIR, DEMO_SLUG, ROOT

CONFSCHED = [sys.executable, "-m", "confsched.cli"]


def _ephemeral_start() -> int:
    """Where the kernel starts choosing source ports for outgoing connections."""
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def free_port() -> int:
    """A port nobody listens on, chosen below the kernel's ephemeral range: a port the kernel
    hands out (bind to 0) is free now but may become the source port of any outgoing connection
    (to PostgreSQL, between a server's own parts) before our server binds it, which once failed
    CI with "address already in use". Random, so that parallel test processes rarely meet; a
    server that still loses the race is started again by its fixture."""
    chooser = random.SystemRandom()
    top = min(_ephemeral_start(), 65536)
    for _ in range(200):
        port = chooser.randrange(20000, top) if top > 20001 else 0
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return int(probe.getsockname()[1])
    raise OSError("no free port below the ephemeral range")


def reachable(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(1)
        return probe.connect_ex(("127.0.0.1", port)) == 0


def confsched(*args: str, env: dict[str, str]) -> str:
    return subprocess.run(
        [*CONFSCHED, *args], env=env, capture_output=True, text=True, check=True
    ).stdout


def sqlite_env(data_dir: Path) -> dict[str, str]:
    """This process's environment for a server of its own: a production one (no DEBUG, no test
    settings) on an SQLite file in `data_dir`."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "DEBUG", "CONFSCHED_TESTING"}
    }
    env.update(
        SECRET_KEY="s" * 50,
        CONFSCHED_DATA_DIR=str(data_dir),
        DATABASE_URL=f"sqlite:///{data_dir / 'db.sqlite3'}",
    )
    return env


def with_demo(env: dict[str, str]) -> None:
    """Migrate the database `env` names and import the demo event into it."""
    confsched("migrate", "--noinput", env=env)
    demo = [str(path) for path in sorted(DEMO_DIR.glob("*.txt"))]
    confsched("import", "--event", DEMO_SLUG, "--timezone", "Europe/Paris", *demo, env=env)


@contextmanager
def served(env: dict[str, str]) -> Iterator[str]:
    """`confsched serve` (one worker) on a free port; yields the demo event's address once the
    server answers (up to 30 s for collectstatic and the first worker)."""
    port = free_port()
    process = subprocess.Popen(  # noqa: S603 - our own command
        [*CONFSCHED, "serve", "--port", str(port), "--workers", "1", "--no-worker"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}/{DEMO_SLUG}/"
    try:
        for _ in range(150):
            try:
                urllib.request.urlopen(base, timeout=5)  # noqa: S310 - our own server
                break
            except OSError:
                time.sleep(0.2)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=10)


def bench_modules(*names: str) -> list[object]:
    """The benchmarks' own modules (bench/serving.py, storm.py, writers.py), which drive a
    served site for the tests that need real concurrent requests as well."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        return [importlib.import_module(name) for name in names]
    finally:
        sys.path.remove(str(ROOT / "bench"))
