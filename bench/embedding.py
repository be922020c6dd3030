"""Measure embedding throughput and the model's start for several source trees, alternately:

- `confsched embed` of 1,000 sessions (wall time, CPU time, peak RSS), the event's vectors
  deleted before each run, so that every run embeds all 1,000;
- a fresh process loading the model and answering one query (what `confsched worker` does before
  its socket answers), and the median time of a warm query's vector.

Each tree gets its own data folder, database and event (imported with that tree's code); the
runs take turns (tree A, tree B, tree A, ...), so that the machine's load weighs on each alike.
The sessions are bench/semantic.py's: the demo's titles and abstracts, cycled and numbered.

    python bench/embedding.py --tree before=../wt-base/src --tree after=src --rounds 2
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from semantic import ROOT, programme_file

# Run in a tree's own interpreter: the model's start, then the median of 20 warm queries.
START = """
import json, statistics, time
started = time.perf_counter()
import django
django.setup()
from confsched.search import semantic
# Trees older than the worker's socket (7c6b6ac, where issue 18 began) have no embed_query.
embed_query = getattr(semantic, "embed_query", lambda text: semantic.embed_texts([text])[0])
embed_query("warm up")
loaded = time.perf_counter() - started
warm = []
for query in ["running models on phones", "compilers and kernels", "privacy"] * 7:
    began = time.perf_counter()
    embed_query(query)
    warm.append(time.perf_counter() - began)
print(json.dumps({"start": loaded, "warm": statistics.median(warm), "model": type(semantic._model).__name__}))
"""


def run(command: list[str], env: dict[str, str]) -> tuple[float, float, float, str]:
    """A command under /usr/bin/time: (wall s, CPU s, peak RSS MiB, its output)."""
    done = subprocess.run(  # noqa: S603 - our own command
        ["/usr/bin/time", "-v", *command], env=env, capture_output=True, text=True, check=True
    )
    wall = re.search(
        r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)", done.stderr
    )
    user = re.search(r"User time \(seconds\): ([\d.]+)", done.stderr)
    system = re.search(r"System time \(seconds\): ([\d.]+)", done.stderr)
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    assert wall and user and system and rss, done.stderr
    seconds = int(wall[1] or 0) * 3600 + int(wall[2]) * 60 + float(wall[3])
    return seconds, float(user[1]) + float(system[1]), int(rss[1]) / 1024, done.stdout


def tree_env(src: Path, data_dir: Path) -> dict[str, str]:
    path = os.pathsep.join(p for p in (str(src.resolve()), os.environ.get("PYTHONPATH")) if p)
    return {
        **{k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "CONFSCHED_TESTING"}},
        "PYTHONPATH": path,
        "CONFSCHED_DATA_DIR": str(data_dir),
        "SECRET_KEY": "bench-only-secret-" + "x" * 40,
        "DJANGO_SETTINGS_MODULE": "confsched.settings",
    }


def load_avg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tree", action="append", required=True, help="LABEL=SRC, repeatable")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--json", help="also write the figures to this file")
    options = parser.parse_args()
    cli = [sys.executable, "-m", "confsched.cli"]

    sys.path.insert(0, str(ROOT / "src"))
    folder = Path(tempfile.mkdtemp(prefix="confsched-bench-embedding-"))
    programme = programme_file(1000, folder)
    trees = {}
    for spec in options.tree:
        label, src = spec.split("=", 1)
        data_dir = Path(tempfile.mkdtemp(prefix=f"confsched-bench-embedding-{label}-"))
        env = tree_env(Path(src), data_dir)
        run([*cli, "migrate", "--noinput"], env)
        run(
            [*cli, "import", "--event", "e1000", "--timezone", "Europe/Paris",
             "--skip-embeddings", str(programme)],
            env,
        )  # fmt: skip
        trees[label] = env
        # The first start on a fresh data folder (the ONNX path exports the model then).
        first = json.loads(run([sys.executable, "-c", START], env)[3])
        print(f"{label}: first start ever, model loaded and one query: {first['start']:.1f} s")

    figures: dict[str, list[dict[str, float | str]]] = {label: [] for label in trees}
    for round_ in range(options.rounds):
        for label, env in trees.items():
            started = json.loads(run([sys.executable, "-c", START], env)[3])
            clear = (
                "import django; django.setup(); from confsched.programme.models import "
                "SessionEmbedding; SessionEmbedding.objects.all().delete()"
            )
            run([sys.executable, "-c", clear], env)
            load = load_avg()
            wall, cpu, rss, out = run([*cli, "embed", "--event", "e1000"], env)
            assert "1000 session(s) embedded" in out, out
            row = {
                "round": round_ + 1,
                "embed 1,000 wall (s)": wall,
                "embed 1,000 CPU (s)": cpu,
                "embed 1,000 peak RSS (MiB)": rss,
                "model start + first query (s)": started["start"],
                "warm query vector, median (ms)": started["warm"] * 1000,
                "model": started["model"],
                "load average before": load,
            }
            figures[label].append(row)
            print(label, json.dumps(row), flush=True)
    for label, rows in figures.items():
        for key in rows[0]:
            if isinstance(rows[0][key], float):
                values = [float(row[key]) for row in rows]
                print(f"{label}: {key}: median {statistics.median(values):.3g} of {values}")
    if options.json:
        Path(options.json).write_text(json.dumps(figures, indent=1) + "\n")


if __name__ == "__main__":
    main()
