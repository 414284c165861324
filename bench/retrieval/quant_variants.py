"""Integer-kernel variants of the shipped MiniLM (issue 25, third round): how close each one's
vectors are to the default embedder's, and what a query and a full window cost.

Variants are built from the shipped int8 file itself (its weights are int8 per output channel
already, so the integer product uses exactly the weights the default model dequantizes); only the
activations are quantized, per row (per token), symmetric, with standard ONNX ops.

    .venv/bin/python bench/retrieval/quant_variants.py quality [--variants a,b] [--out FILE]
    .venv/bin/python bench/retrieval/quant_variants.py speed [--variants a,b] [--rounds 5] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    import django

    django.setup()


def data_texts(name: str) -> tuple[list[str], list[str]]:
    data = json.loads((ROOT / "bench" / "retrieval" / name).read_text())
    turns = [f"{t['speaker']}: {t['text']}" for c in data["conversations"] for s in c["sessions"] for t in s["turns"]]
    return turns, [q["question"] for q in data["questions"]]


def embedder_for(model: bytes | None, batch_size: int = 32, threads: int = 1) -> Any:
    from memories.embedding import MiniLMInt8Embedder

    class Variant(MiniLMInt8Embedder):
        def _model(self) -> str | bytes:
            return model if model is not None else super()._model()

    return Variant(threads=threads, batch_size=batch_size)


def calibration_maxima(texts: list[str]) -> dict[str, np.ndarray]:
    """Per input channel, the largest |activation| feeding each weight MatMul of the shipped graph,
    over ``texts`` (for the SmoothQuant variants)."""
    import onnx

    from memories.embedding import MiniLMInt8Embedder, rowquant_roles

    source = MiniLMInt8Embedder._shipped_model()
    model = onnx.load(str(source))
    inputs = sorted({n.input[0] for n in rowquant_roles(model)[0]})
    for name in inputs:
        model.graph.output.append(onnx.helper.make_tensor_value_info(name, onnx.TensorProto.FLOAT, None))
    import onnxruntime as ort

    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    ref = MiniLMInt8Embedder(threads=1)
    maxima: dict[str, np.ndarray] = {}
    windows = [[ref._cls_id, *w, ref._sep_id] for ws in ref.window_ids(texts) for w in ws]
    for w in windows:
        ids = np.array([w], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": np.ones_like(ids)}
        if "token_type_ids" in [i.name for i in session.get_inputs()]:
            feeds["token_type_ids"] = np.zeros_like(ids)
        outs = session.run(inputs, feeds)
        for name, value in zip(inputs, outs, strict=True):
            m = np.abs(value).reshape(-1, value.shape[-1]).max(axis=0)
            maxima[name] = np.maximum(maxima.get(name, m), m)
    return maxima


def fit(out: Path) -> None:
    """Fit the SmoothQuant channel maxima on every turn of the first data set (not the chat set,
    on which the result is judged) and write them where MiniLMRowInt8Embedder reads them."""
    import hashlib

    from memories.embedding import MiniLMInt8Embedder, rowquant_roles

    turns, _ = data_texts("conversations.json")
    maxima = calibration_maxima(turns)
    import onnx

    source = MiniLMInt8Embedder._shipped_model()
    matmuls, roles, _ = rowquant_roles(onnx.load(str(source)))
    smoothed = sorted({n.input[0] for n in matmuls if roles[n.output[0]] != "ffn_out"}, key=str)
    data = {
        "about": "max |activation| per input channel of the shipped MiniLM's weight products, over the "
        f"{len(turns)} turns of bench/retrieval/conversations.json (bench/retrieval/quant_variants.py fit)",
        "source_sha256": hashlib.sha256(source.read_bytes()).hexdigest(),
        "maxima": {name: [float(f"{v:.4g}") for v in maxima[name]] for name in smoothed},
    }
    lines = [f"{json.dumps(k)}: {json.dumps(v)}" for k, v in data["maxima"].items()]
    head = {k: v for k, v in data.items() if k != "maxima"}
    body = ",\n".join(f" {json.dumps(k)}: {json.dumps(v)}" for k, v in head.items())
    out.write_text("{\n" + body + ',\n "maxima": {\n  ' + ",\n  ".join(lines) + "\n }\n}\n")
    print(f"{len(smoothed)} activations from {len(turns)} turns -> {out}")


def shipped_maxima() -> dict[str, np.ndarray]:
    from memories.embedding import MiniLMRowInt8Embedder

    fitted = json.loads(MiniLMRowInt8Embedder.SMOOTHING_FILE.read_text())
    return {k: np.asarray(v, dtype=np.float32) for k, v in fitted["maxima"].items()}


VARIANTS: dict[str, dict[str, Any]] = {
    "dynamic_r1": {"kind": "dynamic"},
    "row": {"kind": "row"},
    "row_noffnout": {"kind": "row", "exclude": {"ffn_out"}},
    "row_smooth": {"kind": "row", "smooth": 0.5, "all_maxima": True},
    "row_smooth_noffnout": {"kind": "row", "smooth": 0.5, "exclude": {"ffn_out"}},
    "row_shift": {"kind": "row", "shift": True},
    "row_smooth_shift": {"kind": "row", "smooth": 0.5, "shift": True},
    "row_smooth75_shift": {"kind": "row", "smooth": 0.75, "shift": True},
    "row_smooth25_shift": {"kind": "row", "smooth": 0.25, "shift": True},
    "row_smooth90_shift": {"kind": "row", "smooth": 0.9, "shift": True},
    # Recipe 2 as it shipped until recipe 3: the exported graph's operators.
    "rowwise_r2": {"kind": "row", "smooth": 0.5, "shift": True, "asym": True},
}
for _x in ["L0", "L1", "L2", "L3", "L4", "L5", "q", "attn_out", "ffn_in", "ffn_out"]:
    VARIANTS[f"rs75_no_{_x}"] = {"kind": "row", "smooth": 0.75, "shift": True, "exclude": {_x}}
VARIANTS["asym_shift"] = {"kind": "row", "shift": True, "asym": True}
VARIANTS["asym_s50_shift"] = {"kind": "row", "smooth": 0.5, "shift": True, "asym": True}
VARIANTS["asym_s75_shift"] = {"kind": "row", "smooth": 0.75, "shift": True, "asym": True}
VARIANTS["asym_s90_shift"] = {"kind": "row", "smooth": 0.9, "shift": True, "asym": True}
VARIANTS["asym_s50_all"] = {"kind": "row", "smooth": 0.5, "asym": True, "all_maxima": True}
VARIANTS["asym_s75_all"] = {"kind": "row", "smooth": 0.75, "asym": True, "all_maxima": True}
VARIANTS["asym_s50_noffnout"] = {"kind": "row", "smooth": 0.5, "asym": True, "exclude": {"ffn_out"}}
VARIANTS["rs75_no_v"] = {"kind": "row", "smooth": 0.75, "shift": True, "exclude": {"v"}}
# Fourth round: onnxruntime's 8-bit MatMulNBits on the fused graph (bench/retrieval/graph_variants.py),
# and minilm-int8-rowwise as it ships (recipe 3: recipe 2 on the fused graph's operators).
VARIANTS["nbits32"] = {"kind": "nbits", "block": 32}
VARIANTS["nbits128"] = {"kind": "nbits", "block": 128}
VARIANTS["rowwise"] = {"kind": "rowwise"}
# The same graphs with uint8 weights (memories.embedding.unsigned_weights): exact products on a CPU
# whose uint8 x int8 kernel saturates (no VNNI), as the embedders run there since 2026-11-29.
VARIANTS["rowwise_u8u8"] = {"kind": "rowwise", "unsigned": True}
VARIANTS["dynamic_r1_u8u8"] = {"kind": "dynamic", "unsigned": True}


def build(name: str, maxima: dict[str, np.ndarray] | None = None) -> bytes | None:
    from memories.embedding import unsigned_weights

    model = _build(name, maxima)
    return unsigned_weights(model) if model is not None and VARIANTS[name].get("unsigned") else model


def _build(name: str, maxima: dict[str, np.ndarray] | None = None) -> bytes | None:
    from memories.embedding import MiniLMDynamicInt8Embedder, MiniLMInt8Embedder, rowquant_graph

    spec = VARIANTS[name]
    source = MiniLMInt8Embedder._shipped_model()
    if spec["kind"] == "reference":
        return None
    if spec["kind"] == "dynamic":
        return MiniLMDynamicInt8Embedder.derive(source)
    if spec["kind"] == "rowwise":
        from memories.embedding import MiniLMRowInt8Embedder

        return MiniLMRowInt8Embedder.derive(source)
    if spec["kind"] == "nbits":
        from bench.retrieval.graph_variants import nbits_graph

        return nbits_graph(spec["block"])
    return rowquant_graph(
        source,
        exclude=spec.get("exclude", set()),
        smooth=(spec["smooth"], maxima) if spec.get("smooth") else None,
        shift_gelu=spec.get("shift", False),
        asymmetric=spec.get("asym", False),
    )


def quality(names: list[str], out: Path | None, against: str | None = None) -> None:
    rnd = random.Random(25)
    turns_m, qs_m = data_texts("conversations.json")
    turns_c, qs_c = data_texts("chat.json")
    # SmoothQuant maxima: fitted on the first data set's turns only; judged on both.
    maxima = shipped_maxima()
    if any(VARIANTS[n].get("all_maxima") for n in names):  # the FFN's GELU outputs too, same turns
        maxima = calibration_maxima(turns_m)
    pool = rnd.sample(turns_m, 1000) + rnd.sample(turns_c, 1000)
    queries = rnd.sample(qs_m, 400) + rnd.sample(qs_c, 400)
    texts = pool + queries
    # The default model's vectors, or ``against``'s (another variant as the reference).
    reference = np.array(embedder_for(build(against, maxima) if against else None).embed(texts))
    result: dict[str, Any] = {
        "texts": {"turns": len(pool), "questions": len(queries)},
        "reference": against or "minilm-int8",
        "quality": {},
    }

    def top10(v: np.ndarray) -> np.ndarray:
        sims = v[len(pool) :] @ v[: len(pool)].T
        return np.argsort(-sims, axis=1)[:, :10]

    ref_top = top10(reference)
    for name in names:
        started = time.time()
        model = build(name, maxima)
        batch = 1 if VARIANTS[name]["kind"] == "dynamic" else 32
        vectors = np.array(embedder_for(model, batch_size=batch).embed(texts))
        cos = (vectors * reference).sum(axis=1)
        top = top10(vectors)
        overlaps = np.array([len(set(a) & set(b)) / 10 for a, b in zip(ref_top, top, strict=True)])
        row = {
            "cos_mean": float(cos.mean()),
            "cos_p1": float(np.percentile(cos, 1)),
            "cos_min": float(cos.min()),
            "cos_mean_questions": float(cos[len(pool) :].mean()),
            "top10_overlap": float(overlaps.mean()),
        }
        # The chat set alone: the smoothing maxima were fitted on the first set's turns.
        chat = np.r_[np.arange(1000, 2000), np.arange(2400, 2800)]
        row |= {
            "chat_cos_mean": float(cos[chat].mean()),
            "chat_cos_p1": float(np.percentile(cos[chat], 1)),
            "chat_cos_min": float(cos[chat].min()),
            "chat_top10_overlap": float(overlaps[400:].mean()),
        }
        result["quality"][name] = row
        print(name, json.dumps({k: round(v, 4) for k, v in row.items()}), f"{time.time() - started:.0f}s", flush=True)
    result["load_average"] = os.getloadavg()
    if out:
        out.write_text(json.dumps(result, indent=1) + "\n")


def speed(names: list[str], rounds: int, out: Path | None) -> None:
    from bench.retrieval.embedder_speed import texts as speed_texts

    maxima = shipped_maxima()
    embedders = {"reference": embedder_for(None, batch_size=1)}
    for name in names:
        embedders[name] = embedder_for(build(name, maxima), batch_size=1)
    for e in embedders.values():
        e.embed(["warm up"] * 3)
    sets = speed_texts()
    result: dict[str, Any] = {"rounds": []}
    for r in range(rounds):
        row: dict[str, dict[str, float]] = {}
        for kind, items in sets.items():
            seconds: dict[str, list[float]] = {k: [] for k in embedders}
            for i, text in enumerate(items):
                order = list(embedders)
                order = order[i % len(order) :] + order[: i % len(order)]
                if (i + r) % 2:
                    order.reverse()
                for k in order:
                    started = time.process_time()
                    embedders[k].embed([text])
                    seconds[k].append(time.process_time() - started)
            row[kind] = {k: 1000 * statistics.median(v) for k, v in seconds.items()}
        result["rounds"].append(row)
        print(r, json.dumps({k: {m: round(x, 2) for m, x in v.items()} for k, v in row.items()}), flush=True)
    result["median_of_rounds"] = {
        kind: {k: statistics.median(r[kind][k] for r in result["rounds"]) for k in embedders} for kind in sets
    }
    for m in result["median_of_rounds"].values():
        m.update({f"ratio_{k}": m["reference"] / m[k] for k in names})
    result["load_average"] = os.getloadavg()
    print(json.dumps(result["median_of_rounds"], indent=1), result["load_average"])
    if out:
        out.write_text(json.dumps(result, indent=1) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["quality", "speed", "fit"])
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--against", help="quality: a variant's vectors as the reference, not the default's")
    args = parser.parse_args()
    setup()
    names = args.variants.split(",")
    if args.what == "fit":
        from memories.embedding import MiniLMRowInt8Embedder

        fit(args.out or MiniLMRowInt8Embedder.SMOOTHING_FILE)
    elif args.what == "quality":
        quality(names, args.out, args.against)
    else:
        speed(names, args.rounds, args.out)


if __name__ == "__main__":
    main()


def _experimental_asymmetric() -> type:
    """asym_s50_shift as an embedder class, for embedder_compare.py runs
    (MNEMO_EMBEDDER=bench.retrieval.quant_variants.AsymRowInt8Embedder)."""
    from memories.embedding import MiniLMRowInt8Embedder, rowquant_graph

    class AsymRowInt8Embedder(MiniLMRowInt8Embedder):
        name = "all-MiniLM-L6-v2-onnx-int8-rowwise-asym-experiment"
        CACHE_PREFIX = "minilm-int8-rowwise-asym-experiment"

        @classmethod
        def derive(cls, source: Path) -> bytes:  # type: ignore[override]
            return rowquant_graph(source, smooth=(0.5, shipped_maxima()), shift_gelu=True, asymmetric=True)

    return AsymRowInt8Embedder


def __getattr__(name: str) -> Any:
    if name == "AsymRowInt8Embedder":
        return _experimental_asymmetric()
    raise AttributeError(name)
