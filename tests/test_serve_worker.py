"""`confsched serve` on the embedded default runs search by meaning's worker beside gunicorn:
the imported sessions are embedded without anyone running `confsched embed`, searches are by
meaning from the web workers (which never load the model), and the worker stops with `serve`."""

from __future__ import annotations

import signal
import subprocess
import time
import urllib.request
from pathlib import Path

from tests.conftest import DEMO_SLUG
from tests.search.test_semantic import _require_model
from tests.served_demo import CONFSCHED, free_port, sqlite_env, with_demo

BY_MEANING = "Closest in meaning to"


def _children(pid: int) -> list[int]:
    found = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return [int(child) for child in found]


def _loads_the_model(pid: int) -> bool:
    """Whether the process has mapped ONNX Runtime's library, OpenVINO's or torch's."""
    maps = Path(f"/proc/{pid}/maps").read_text()
    return any(f"/{name}/" in maps for name in ("onnxruntime", "openvino", "torch"))


def _niceness(pid: int) -> int:
    # /proc/PID/stat: the 19th field, counted after the command name's closing parenthesis.
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as page:  # noqa: S310 - our own server
        return page.read().decode()


def test_serve_starts_the_worker_which_embeds_and_answers_queries(tmp_path: Path) -> None:
    _require_model()
    env = sqlite_env(tmp_path)
    with_demo(env)
    port = free_port()
    serve = subprocess.Popen(  # noqa: S603 - our own command
        [*CONFSCHED, "serve", "--port", str(port), "--workers", "1"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    search = f"http://127.0.0.1:{port}/{DEMO_SLUG}/search/?q=running+models+on+phones"
    try:
        html = ""
        for _ in range(600):  # the model loads and 29 sessions are embedded on a busy machine
            try:
                html = _get(search)
                if BY_MEANING in html and "ExecuTorch" in html:
                    break
            except OSError:
                pass
            time.sleep(0.5)
        assert BY_MEANING in html
        first = html.split('<h3 class="card-title">', 2)[1]
        assert "Flexible Deployment of PyTorch Models on MCU-Class Devices" in first
        assert (tmp_path / "semantic.sock").is_socket()
        children = _children(serve.pid)
        with_model = [pid for pid in children if _loads_the_model(pid)]
        assert (len(children), len(with_model)) == (2, 1)  # one web worker, one model worker
        # Embedding yields the CPU to the web workers.
        own = _niceness(serve.pid)
        assert sorted(_niceness(pid) for pid in children) == [own, min(own + 10, 19)]
    finally:
        serve.send_signal(signal.SIGTERM)
        serve.wait(timeout=30)
    for pid in children:
        assert not Path(f"/proc/{pid}").exists() or "Z" in Path(f"/proc/{pid}/stat").read_text()
