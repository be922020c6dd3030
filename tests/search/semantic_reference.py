"""The fixed queries whose top-5 sessions by meaning must stay those of the fp32 model as it was
first shipped (embed_texts at batch 64, in the texts' order), whatever makes embedding faster.

`python -m tests.search.semantic_reference` (from the repository, with the semantic extra and
../shared) writes semantic_top5.json, the reference; tests/search/test_semantic_agreement.py
compares the present code with it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

HERE = Path(__file__).resolve().parent
REFERENCE = HERE / "semantic_top5.json"
ROOT = HERE.parent.parent
DEMO_DIR = ROOT / "demo" / "pytorch-conference-europe-2026"
CCC = ROOT.parent / "shared/formats/samples/frab-xml/eventfahrplan_schedule-38c3-20251206.xml"

QUERIES = {
    "demo": [
        "running models on phones",
        "compilers and kernels",
        "training on many GPUs at once",
        "quantization and smaller models",
        "privacy",
        "serving large language models",
        "open source community",
        "robots",
        "reinforcement learning",
        "saving memory",
    ],
    "38c3": [
        "hacking voting machines",
        "satellites and space",
        "car security",
        "mass surveillance by governments",
        "open hardware",
        "climate change",
        "encrypted messaging",
        "trains and railways",
        "mobile phone networks",
        "artificial intelligence and its risks",
    ],
}
TOP = 5


def programmes() -> dict[str, list[str]]:
    """The texts embedded for each programme, as semantic.session_text makes them: the demo
    event (29 sessions) and 38C3's 1,007 events (from ../shared, when it is there)."""
    from confsched.interchange.frab import read as frab_xml
    from confsched.interchange.sched.read import parse_sched_pages

    files = [(path.name, path.read_bytes()) for path in sorted(DEMO_DIR.glob("*.txt"))]
    found = {"demo": parse_sched_pages(files).sessions}
    if CCC.exists():
        found["38c3"] = frab_xml.parse(CCC.read_bytes(), source=CCC.name).sessions
    return {
        name: [f"{s.title}\n{s.abstract}".strip() for s in sessions]
        for name, sessions in found.items()
    }


def top_five(texts: list[str], queries: list[str]) -> list[list[int]]:
    """For each query, the indexes of the `TOP` texts nearest in meaning, nearest first."""
    from confsched.search import semantic

    vectors = semantic.embed_texts(texts)
    return [
        [int(i) for i in (-(vectors @ semantic.embed_texts([query])[0])).argsort(kind="stable")][
            :TOP
        ]
        for query in queries
    ]


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "confsched.settings")
    os.environ.setdefault("SECRET_KEY", "reference-only-secret")
    os.environ.setdefault("CONFSCHED_TESTING", "1")
    import django

    django.setup()
    reference = {
        name: dict(zip(QUERIES[name], top_five(texts, QUERIES[name]), strict=True))
        for name, texts in programmes().items()
    }
    REFERENCE.write_text(json.dumps(reference, indent=1) + "\n")


if __name__ == "__main__":
    main()
