"""The embedding worker's memory while it embeds a programme and while it answers queries.

A fresh site (SQLite, or with `--database postgres` a PostgreSQL database of its own at
CONFSCHED_BENCH_POSTGRES) gets a FOSDEM-shaped programme of `--size` sessions
(interchange/synthetic.py), written as c3voc's schedule.json and imported with
`--skip-embeddings`; the model is exported by a process of its own (as a site's first start
does once), then the event's embedding is queued as `confsched import` queues it and
`confsched worker` is started. Every `--every` seconds the worker's RSS (VmRSS of it and of any
process it started) and its peak (VmHWM) are read from /proc:

- start: from its start until its socket answers (the model loaded; with `--export-in-worker`
  also exported first, as on a site's first start);
- embedding: until every session has a vector, while one query a second is asked on its
  socket (a web worker's searches beside the batches);
- queries: `--queries` queries of 1 to 200 words, one after the other, once all is embedded.

Printed: peak and steady (the median of the phase's second half) RSS per phase in MiB, the
peak of the whole run (VmHWM), the sessions embedded per second and the load average. `--texts
demo` gives the sessions the demo's titles and abstracts (cycled and numbered, lengths from a
few words to the model's 256 word pieces) instead of the synthetic ones, all of about one
length; `--src` runs another source tree's code.

    python bench/worker_memory.py [--size 5000] [--texts synthetic|demo] [--src DIR]
        [--export-in-worker] [--database sqlite|postgres] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

from serving import BIN, fresh_site, in_site, run

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "demo" / "pytorch-conference-europe-2026"
SLUG = "bench"
MIB = 1024
WORDS = (
    "running models on phones compilers and kernels training on many GPUs privacy of "
    "attendees schedule a talk about tensors distributed storage open hardware the kernel "
    "scheduler memory safety in systems languages"
).split()

EXPORT = """
import django
django.setup()
from confsched.search import semantic
assert semantic.is_available()
"""
QUEUE = """
import django
django.setup()
from confsched.programme.models import Event
from confsched.search.worker import queue_embeddings
print(queue_embeddings(Event.objects.get(slug="bench")))
"""


def programme(size: int, texts: str) -> bytes:
    """The c3voc schedule.json of a FOSDEM-shaped programme of `size` sessions."""
    from confsched.interchange.c3voc import write
    from confsched.interchange.synthetic import fosdem_shaped

    made = fosdem_shaped(size)
    if texts == "demo":
        from confsched.interchange.sched.read import parse_sched_pages

        demo = parse_sched_pages([(p.name, p.read_bytes()) for p in sorted(DEMO.glob("*.txt"))])
        sessions = demo.sessions
        made = replace(
            made,
            sessions=[
                replace(
                    session,
                    title=f"{sessions[i % len(sessions)].title} (part {i})",
                    abstract=sessions[i % len(sessions)].abstract,
                )
                for i, session in enumerate(made.sessions)
            ],
        )
    return write.render(made, slug=SLUG)


def query_text(number: int) -> str:
    """Query `number`, of 1 to 200 words: one query after another, many shapes for the model."""
    return " ".join(WORDS[(number + j) % len(WORDS)] for j in range(1 + (number * 37) % 200))


def tree(pid: int) -> list[int]:
    """`pid` and every process it started, and theirs."""
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        for task in Path(f"/proc/{current}/task").glob("*"):
            try:
                todo += [int(child) for child in (task / "children").read_text().split()]
            except OSError:
                pass
    return found


def memory(pid: int) -> tuple[int, int]:
    """The RSS of `pid` and its descendants, and the largest peak RSS among them, in KiB."""
    rss = peak = 0
    for member in tree(pid):
        try:
            status = Path(f"/proc/{member}/status").read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        rss += int(fields.get("VmRSS", "0 kB").split()[0])
        peak = max(peak, int(fields.get("VmHWM", "0 kB").split()[0]))
    return rss, peak


class Sampler(threading.Thread):
    """Reads the worker's memory every `every` seconds, under the phase named at the time."""

    def __init__(self, pid: int, every: float) -> None:
        super().__init__(daemon=True)
        self.pid, self.every = pid, every
        self.phase = "start"
        self.samples: dict[str, list[int]] = {}
        self.peak = 0
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.is_set():
            rss, peak = memory(self.pid)
            if rss:
                self.samples.setdefault(self.phase, []).append(rss)
                self.peak = max(self.peak, peak)
            self.done.wait(self.every)

    def figures(self, phase: str) -> tuple[float, float]:
        """Peak and steady (median of the phase's second half) RSS in MiB."""
        values = self.samples.get(phase, [0])
        return max(values) / MIB, statistics.median(values[len(values) // 2 :]) / MIB


def embedded() -> int:
    from django.db import connection

    from confsched.search.models import SessionEmbedding

    connection.close()  # a fresh read of the worker's commits
    return SessionEmbedding.objects.filter(session__event__slug=SLUG).count()


def load_avg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=5000, help="sessions (default: 5000)")
    parser.add_argument("--texts", choices=["synthetic", "demo"], default="synthetic")
    parser.add_argument("--queries", type=int, default=200, help="queries once all is embedded")
    parser.add_argument("--every", type=float, default=0.5, help="seconds between samples")
    parser.add_argument("--database", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--src", default=str(ROOT / "src"), help="the source tree to run")
    parser.add_argument(
        "--export-in-worker", action="store_true",
        help="leave the model's one-time ONNX export to the worker (a site's first start)",
    )  # fmt: skip
    parser.add_argument("--label", default="this tree")
    parser.add_argument("--json", help="also write the figures to this file")
    options = parser.parse_args()

    src = Path(options.src).resolve()
    os.environ["PYTHONPATH"] = os.pathsep.join(
        part for part in (str(src), os.environ.get("PYTHONPATH")) if part
    )
    sys.path.insert(0, str(src))
    with fresh_site(options.database, name="worker_memory") as env:
        data_dir = Path(env["CONFSCHED_DATA_DIR"])
        schedule = data_dir / "schedule.json"
        schedule.write_bytes(programme(options.size, options.texts))
        cli = str(BIN / "confsched")
        run(
            [cli, "import", "--event", SLUG, "--timezone", "Europe/Brussels", "--skip-embeddings",
             str(schedule)],
            env,
        )  # fmt: skip
        if not options.export_in_worker:
            # The model's ONNX export, made once per data folder (with torch): not measured.
            in_site(env, EXPORT)
        assert in_site(env, QUEUE).strip() == "True", "nothing was queued"
        os.environ.update({k: env[k] for k in ("CONFSCHED_DATA_DIR", "SECRET_KEY")})
        if "DATABASE_URL" in env:
            os.environ["DATABASE_URL"] = env["DATABASE_URL"]
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "confsched.settings")
        import django

        django.setup()
        from confsched.search.semantic import ModelUnavailableError, ask_worker

        socket = data_dir / "semantic.sock"
        load_before = load_avg()
        worker = subprocess.Popen(  # noqa: S603 - our own command
            [cli, "worker"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        sampler = Sampler(worker.pid, options.every)
        sampler.start()
        figures: dict[str, float | str] = {"tree": options.label, "size": options.size}
        try:
            started = time.perf_counter()
            while not socket.exists():
                assert worker.poll() is None, "the worker stopped"
                time.sleep(0.1)
            ask_worker("warm up", socket)
            figures["start (s)"] = time.perf_counter() - started
            figures["model loaded: RSS (MiB)"] = memory(worker.pid)[0] / MIB
            sampler.phase = "embedding"
            began = time.perf_counter()
            asked = 0
            while (count := embedded()) < options.size:
                assert worker.poll() is None, "the worker stopped"
                try:
                    ask_worker(query_text(asked), socket)
                except ModelUnavailableError:
                    pass  # a slow answer under load: the sampling goes on
                asked += 1
                time.sleep(1.0)
            took = time.perf_counter() - began
            figures["embedding (s)"] = took
            figures["sessions/s"] = count / took
            figures["load average while embedding"] = load_avg()
            sampler.phase = "idle"
            time.sleep(3)
            sampler.phase = "queries"
            began = time.perf_counter()
            for number in range(options.queries):
                ask_worker(query_text(number), socket)
            figures["queries (s)"] = time.perf_counter() - began
            time.sleep(2 * options.every)  # one sample after the last answer
        finally:
            sampler.done.set()
            sampler.join()
            worker.terminate()
            worker.wait(timeout=60)
        for phase in ("start", "embedding", "idle", "queries"):
            peak, steady = sampler.figures(phase)
            figures[f"{phase}: peak RSS (MiB)"] = peak
            figures[f"{phase}: steady RSS (MiB)"] = steady
        figures["whole run: VmHWM (MiB)"] = sampler.peak / MIB
        figures["load average before"] = load_before
    for key, value in figures.items():
        shown = f"{value:.1f}" if isinstance(value, float) else value
        print(f"{key:<32} {shown}")
    if options.json:
        Path(options.json).write_text(json.dumps(figures, indent=1) + "\n")


if __name__ == "__main__":
    main()
