"""What the benchmarks share: a fresh site (data folder, database, migrations) and a running
`confsched serve` on it, stopped and removed afterwards."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

BIN = Path(sys.executable).parent
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
POSTGRES = os.environ.get("CONFSCHED_BENCH_POSTGRES", "postgres://postgres@127.0.0.1:5432")


def run(args: list[str], env: dict[str, str]) -> str:
    """The standard output of one of our own commands; an error stops the benchmark."""
    return subprocess.run(  # noqa: S603 - our own commands
        args, env=env, check=True, capture_output=True, text=True
    ).stdout


def in_site(env: dict[str, str], code: str, *arguments: str) -> str:
    """What Python `code` prints, run with Django set up on the site `env` names."""
    return run(
        [sys.executable, "-c", code, *arguments],
        {**env, "DJANGO_SETTINGS_MODULE": "confsched.settings"},
    )


@contextmanager
def fresh_site(database: str, *, name: str) -> Iterator[dict[str, str]]:
    """The environment of a new, migrated site: SQLite in a temporary folder, or a PostgreSQL
    database `name` dropped and made anew at CONFSCHED_BENCH_POSTGRES."""
    data_dir = tempfile.mkdtemp(prefix=f"{name}-")
    env = {
        **os.environ,
        "CONFSCHED_DATA_DIR": data_dir,
        "SECRET_KEY": "bench-only-secret-" + "x" * 40,
        "ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SETTINGS_MODULE": "confsched.settings",
    }
    for variable in ("CONFSCHED_TESTING", "DEBUG", "DATABASE_URL"):
        env.pop(variable, None)
    if database == "postgres":
        import psycopg

        with psycopg.connect(f"{POSTGRES}/postgres", autocommit=True) as connection:
            connection.execute(f"DROP DATABASE IF EXISTS {name}")
            connection.execute(f"CREATE DATABASE {name}")
        env["DATABASE_URL"] = f"{POSTGRES}/{name}"
    try:
        run([str(BIN / "confsched"), "migrate", "--noinput"], env)
        yield env
    finally:
        shutil.rmtree(data_dir, ignore_errors=True)


@contextmanager
def served(env: dict[str, str], *, port: int, workers: int) -> Iterator[subprocess.Popen]:
    """`confsched serve` on 127.0.0.1:`port`, once it answers; stopped on leaving. Its output
    goes to the file CONFSCHED_BENCH_LOG names, if set (a benchmark that got a 500)."""
    log = os.environ.get("CONFSCHED_BENCH_LOG")
    output = open(log, "ab") if log else subprocess.DEVNULL  # noqa: SIM115 - closed below
    server = subprocess.Popen(  # noqa: S603 - our own command
        [str(BIN / "confsched"), "serve", "--port", str(port), "--workers", str(workers)],
        env=env, stdout=output, stderr=output,
    )  # fmt: skip
    try:
        for _ in range(600):  # collectstatic and the first worker: up to 2 minutes
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30).read()  # noqa: S310 - loopback
                break
            except OSError:
                time.sleep(0.2)
        # The embedding worker (the semantic extra) exports and loads its model first, on
        # both cores: nothing is measured until it answers on its socket.
        embedding = Path(env["CONFSCHED_DATA_DIR"]) / "semantic.sock"
        for _ in range(600):
            if embedding.exists() or not any(map(is_embedding_worker, children(server.pid))):
                break
            time.sleep(0.2)
        yield server
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
        if log:
            output.close()  # type: ignore[union-attr]


def free_port() -> int:
    """A port on the loopback that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def together(
    count: int, work: Callable[[int], None], *, before: Callable[[int], object] | None = None
) -> float:
    """`work(i)` for each i below `count`, each in a thread of its own, all released at the
    same moment (after `before(i)`, such as opening a connection); the seconds from the
    release until the last one ended."""
    start = threading.Barrier(count + 1)

    def run(i: int) -> None:
        if before is not None:
            before(i)
        start.wait()
        work(i)

    with ThreadPoolExecutor(count) as pool:
        futures = [pool.submit(run, i) for i in range(count)]
        start.wait()
        began = time.perf_counter()
        for future in futures:
            future.result()
    return time.perf_counter() - began


def children(pid: int) -> list[int]:
    """The processes `pid` started (serve's: its web workers and the embedding worker)."""
    return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def is_embedding_worker(pid: int) -> bool:
    """Whether the process is `confsched worker`, the model's (serve starts one)."""
    return "\0worker\0" in Path(f"/proc/{pid}/cmdline").read_text()


def worker_pids(master: int) -> list[int]:
    """The gunicorn master's children but the embedding worker: the web workers."""
    return [pid for pid in children(master) if not is_embedding_worker(pid)]


def percentile(values: list[float], share: float) -> float:
    """The value `share` of the way up the sorted values (0.0 when there are none)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def cpu_ticks(pids: list[int]) -> int:
    """User and system time the processes have used so far, in clock ticks."""
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
    return total
