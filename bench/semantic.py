"""Measure search by meaning: loading the model, embedding 1,000 sessions, one query, and the
memory of a worker with the model loaded. Texts are the demo event's titles and abstracts,
cycled and numbered so that all 1,000 differ.

Usage: python bench/semantic.py   (needs the extra: pip install 'confsched[semantic]')
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "demo" / "pytorch-conference-europe-2026"


def rss_mib() -> float:
    """Resident memory of this process now, from /proc (Linux)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main() -> None:
    os.environ.setdefault("CONFSCHED_DATA_DIR", tempfile.mkdtemp(prefix="confsched-bench-"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "confsched.settings")
    os.environ.setdefault("SECRET_KEY", "bench-only-secret")
    os.environ.setdefault("CONFSCHED_TESTING", "1")
    import django

    django.setup()
    from confsched.interchange.sched.read import parse_sched_pages
    from confsched.programme import semantic

    files = [(path.name, path.read_bytes()) for path in sorted(DEMO.glob("*.txt"))]
    demo = parse_sched_pages(files).sessions
    texts = [
        f"{demo[i % len(demo)].title} (part {i})\n{demo[i % len(demo)].abstract}"
        for i in range(1000)
    ]
    print(f"worker before the model: {rss_mib():.0f} MiB")
    started = time.perf_counter()
    semantic._load_model()
    print(f"model load: {time.perf_counter() - started:.2f} s; worker: {rss_mib():.0f} MiB")

    started = time.perf_counter()
    vectors = semantic.embed_texts(texts)
    took = time.perf_counter() - started
    print(
        f"embed 1,000 sessions: {took:.1f} s ({1000 / took:.0f} sessions/s); "
        f"worker: {rss_mib():.0f} MiB"
    )

    queries = ["running models on phones", "compilers and kernels", "distributed training"]
    semantic.embed_texts(queries[:1])  # first call warms the tokenizer
    started = time.perf_counter()
    rounds = 20
    for _ in range(rounds):
        for query in queries:
            scores = vectors @ semantic.embed_texts([query])[0]
            scores.argsort()[-20:]
    per_query = (time.perf_counter() - started) / (rounds * len(queries))
    print(f"one query (embed + cosine over 1,000 + top 20): {per_query * 1000:.1f} ms")
    print(f"worker with the model loaded, after the runs: {rss_mib():.0f} MiB")


if __name__ == "__main__":
    main()
