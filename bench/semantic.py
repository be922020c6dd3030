"""Measure search by meaning from the outside, as an operator sees it, for one source tree:

- `confsched import` of 1,000 and of 5,000 sessions (wall time, peak RSS), then of the 1,000
  again with one title changed;
- embedding throughput: the seconds to embed 1,000 sessions (`confsched embed`);
- `confsched serve` (2 web workers): the first search after the server answers, the first search
  by meaning, the median warm search of the 5,000-session event, and each process's RSS and PSS.

Sessions carry the demo event's titles and abstracts, cycled and numbered so that all differ.
Run it once per tree, before and after, on the same machine:

    python bench/semantic.py --src ../main/src --label before
    python bench/semantic.py --src src --label after

`--seed-vectors` gives the imported events random unit vectors instead of waiting for the worker
to embed them (a tree whose `confsched import` only queues the embedding): a search's cost does
not depend on what the vectors say, only on how many there are, and the worker is then idle.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from dataclasses import replace
from pathlib import Path

from serving import children, free_port, is_embedding_worker

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "demo" / "pytorch-conference-europe-2026"
QUERIES = ["running models on phones", "compilers and kernels", "training on many GPUs"]


def programme_file(size: int, folder: Path, *, changed_title: bool = False) -> Path:
    """A frab schedule.xml of `size` sessions with the demo's texts (made by this tree's code)."""
    from confsched.interchange.frab import write as frab_xml_write
    from confsched.interchange.sched.read import parse_sched_pages
    from confsched.interchange.synthetic import synthetic_programme

    demo = parse_sched_pages([(p.name, p.read_bytes()) for p in sorted(DEMO.glob("*.txt"))])
    texts = demo.sessions
    base = synthetic_programme(size, rooms=20, days=3)
    sessions = [
        replace(
            session,
            title=f"{texts[i % len(texts)].title} (part {i})",
            abstract=texts[i % len(texts)].abstract,
        )
        for i, session in enumerate(base.sessions)
    ]
    if changed_title:
        sessions[0] = replace(sessions[0], title=sessions[0].title + " (changed)")
    programme = replace(base, sessions=sessions, timezone="Europe/Paris")
    path = folder / f"programme-{size}{'-changed' if changed_title else ''}.xml"
    path.write_bytes(frab_xml_write.render(programme, slug="bench"))
    return path


def timed(command: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """Run a confsched command under /usr/bin/time: (seconds, peak RSS in MiB, its output)."""
    done = subprocess.run(  # noqa: S603 - our own command
        ["/usr/bin/time", "-v", sys.executable, "-m", "confsched.cli", *command],
        env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    wall = re.search(
        r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)", done.stderr
    )
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    assert wall and rss, done.stderr
    hours, minutes, seconds = int(wall[1] or 0), int(wall[2]), float(wall[3])
    return hours * 3600 + minutes * 60 + seconds, int(rss[1]) / 1024, done.stdout


def seed_vectors(slug: str) -> None:
    """Random unit vectors, with the digests of the present texts, for every session of `slug`."""
    import numpy as np
    from django.db import connection

    from confsched.programme.models import Session
    from confsched.search import semantic
    from confsched.search.models import SessionEmbedding

    connection.close()
    rng = np.random.default_rng(0)
    sessions = list(Session.objects.filter(event__slug=slug))
    vectors = rng.standard_normal((len(sessions), semantic.DIMENSIONS)).astype("<f4")
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    SessionEmbedding.objects.filter(session__event__slug=slug).delete()
    SessionEmbedding.objects.bulk_create(
        SessionEmbedding(
            session=session,
            model_name=semantic.MODEL_NAME,
            text_digest=semantic.text_digest(semantic.session_text(session)),
            vector=vector.tobytes(),
        )
        for session, vector in zip(sessions, vectors, strict=True)
    )


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def pss_mib(pid: int) -> float:
    """The process's proportional share: pages it shares with the master and the other workers
    (what `serve` loaded before forking) count divided among them."""
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def get(url: str) -> tuple[float, str]:
    started = time.perf_counter()
    with urllib.request.urlopen(url, timeout=60) as page:  # noqa: S310 - our own server
        html = page.read().decode()
    return time.perf_counter() - started, html


def answering_server(env: dict[str, str], path: str) -> tuple[subprocess.Popen, str]:
    """`confsched serve` with 2 web workers on a free port, and its address, once `path`
    answers there."""
    port = free_port()
    server = subprocess.Popen(  # noqa: S603 - our own command
        [sys.executable, "-m", "confsched.cli", "serve", "--port", str(port), "--workers", "2"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    origin = f"http://127.0.0.1:{port}"
    try:
        while True:
            try:
                get(origin + path)
                return server, origin
            except OSError:
                time.sleep(0.2)
    except BaseException:
        server.terminate()
        raise


def serve_figures(env: dict[str, str], data_dir: Path) -> dict[str, float | str]:
    started = time.perf_counter()
    server, origin = answering_server(env, "/b5000/")
    base = f"{origin}/b5000/"

    def search(query: str) -> tuple[float, bool]:
        took, html = get(base + "search/?" + urllib.parse.urlencode({"q": query}))
        return took, "Closest in meaning to" in html

    figures: dict[str, float | str] = {}
    try:
        figures["serve answers after (s)"] = time.perf_counter() - started
        took, by_meaning = search("first query after serve")
        figures["first search after serve (s)"] = took
        figures["first search was by meaning"] = str(by_meaning)
        waited = time.perf_counter()
        while not by_meaning and time.perf_counter() - waited < 300:
            time.sleep(0.5)
            took, by_meaning = search("a search by meaning at last")
        figures["first search by meaning, after serve answers (s)"] = (
            time.perf_counter() - started - figures["serve answers after (s)"]
        )
        figures["that search took (s)"] = took
        for query in QUERIES:  # each web worker warms up
            for _ in range(2):
                search(query)
        warm = [search(query)[0] for _ in range(10) for query in QUERIES]
        figures["warm search, 5,000 sessions, median (ms)"] = statistics.median(warm) * 1000
        figures["warm search, 5,000 sessions, max (ms)"] = max(warm) * 1000
        for pid in children(server.pid):
            kind = "model worker" if is_embedding_worker(pid) else "web worker"
            key = f"{kind} RSS (MiB)"
            figures[key] = max(float(figures.get(key, 0)), rss_mib(pid))
            key = f"{kind} PSS (MiB)"
            figures[key] = max(float(figures.get(key, 0)), pss_mib(pid))
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)
    return figures


def migrated_site(src: Path, *, name: str, code: Path) -> tuple[Path, dict[str, str]]:
    """A new data folder with a migrated SQLite site, and the environment of the commands that
    run `src`'s code on it; this process reads it with Django set up from `code`."""
    data_dir = Path(tempfile.mkdtemp(prefix=f"confsched-bench-{name}-"))
    env = {
        **{k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "CONFSCHED_TESTING"}},
        "PYTHONPATH": str(src.resolve()),
        "CONFSCHED_DATA_DIR": str(data_dir),
        "SECRET_KEY": "bench-only-secret-" + "x" * 40,
    }
    os.environ.update({k: env[k] for k in ("CONFSCHED_DATA_DIR", "SECRET_KEY")})
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "confsched.settings")
    sys.path.insert(0, str(code.resolve()))
    import django

    django.setup()
    subprocess.run(  # noqa: S603 - our own command
        [sys.executable, "-m", "confsched.cli", "migrate", "--noinput"],
        env=env, check=True, capture_output=True,
    )  # fmt: skip
    return data_dir, env


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--src", default=str(ROOT / "src"), help="the source tree to measure")
    parser.add_argument("--label", default="this tree")
    parser.add_argument("--seed-vectors", action="store_true")
    parser.add_argument(
        "--import-sizes", default="1000,5000",
        help="the imports timed (the 5,000-session event is always made: without 5000 here, "
        "imported with --skip-embeddings and given random vectors)",
    )  # fmt: skip
    parser.add_argument("--json", help="also write the figures to this file")
    options = parser.parse_args()

    data_dir, env = migrated_site(Path(options.src), name="semantic", code=ROOT / "src")
    files = {size: programme_file(size, data_dir) for size in (1000, 5000)}
    changed = programme_file(1000, data_dir, changed_title=True)
    figures: dict[str, float | str] = {"tree": options.label}

    def load(slug: str, path: Path, *extra: str) -> tuple[float, float]:
        took, rss, _ = timed(
            ["import", "--event", slug, "--timezone", "Europe/Paris", *extra, str(path)], env
        )
        return took, rss

    sizes = [int(size) for size in options.import_sizes.split(",")]
    for size in sizes:
        took, rss = load(f"b{size}", files[size])
        figures[f"import {size:,} (s)"], figures[f"import {size:,} peak RSS (MiB)"] = took, rss
        print(f"import {size:,}: {took:.1f} s, {rss:.0f} MiB", flush=True)
    if 5000 not in sizes:
        load("b5000", files[5000], "--skip-embeddings")
        seed_vectors("b5000")
    took, rss = load("b1000", changed)
    figures["one title changed (s)"], figures["one title changed peak RSS (MiB)"] = took, rss
    print(f"one title changed: {took:.1f} s, {rss:.0f} MiB", flush=True)

    load("e1000", files[1000], "--skip-embeddings")
    took, rss, out = timed(["embed", "--event", "e1000"], env)
    assert "1000 session(s) embedded" in out, out
    figures["embed 1,000 (s)"], figures["embed 1,000 peak RSS (MiB)"] = took, rss
    print(f"embed 1,000: {took:.1f} s, {rss:.0f} MiB", flush=True)

    if options.seed_vectors:
        for slug in ("b1000", "b5000"):
            seed_vectors(slug)
    figures.update(serve_figures(env, data_dir))
    for key, value in figures.items():
        print(f"{key}: {value:.3g}" if isinstance(value, float) else f"{key}: {value}")
    if options.json:
        Path(options.json).write_text(json.dumps(figures, indent=1) + "\n")


if __name__ == "__main__":
    main()
