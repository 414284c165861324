"""Two embedders on the retrieval benchmark, question by question (issue 25).

``run`` stores the data set with the configured embedder (``MNEMO_EMBEDDER``; one data folder per
embedder, as harness.py does) and writes every answerable question's R@5, R@10 and reciprocal rank
per mode; ``compare`` reads two such files and prints, per question type and mode, both means and
the paired difference with a 95% bootstrap interval (questions resampled, seeded), so a change is
read against the benchmark's own noise rather than as a difference of two rounded means.

    MNEMO_EMBEDDER=minilm-int8 .venv/bin/python -m bench.retrieval.embedder_compare run \\
        --data-dir /tmp/ret-old --dataset mnemo --out /tmp/old-mnemo.json
    MNEMO_EMBEDDER=minilm-int8-dynamic .venv/bin/python -m bench.retrieval.embedder_compare run \\
        --data-dir /tmp/ret-new --dataset mnemo --out /tmp/new-mnemo.json
    .venv/bin/python -m bench.retrieval.embedder_compare compare /tmp/old-mnemo.json /tmp/new-mnemo.json
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.retrieval import harness

METRICS = ("r5", "r10", "mrr")


def run(data_dir: Path, dataset: str, out: Path) -> None:
    harness.setup_django(data_dir)
    from memories import selectors
    from memories.embedding import embed_texts, get_embedder
    from memories.models import Memory

    data = harness.dataset(dataset)
    namespaces = harness.load(data, progress=True)
    dia = harness._dia_ids(list(namespaces.values()))
    questions = [q for q in data["questions"] if q["evidence"]]
    # What search_memories embeds for a query (the harness does the same).
    prepare = getattr(selectors, "embedding_text", lambda *, namespace_ids, query: query)
    vectors = embed_texts(
        [prepare(namespace_ids=[namespaces[q["conversation"]]], query=q["question"]) for q in questions]
    )
    rows: dict[str, dict[str, Any]] = {}
    for mode in harness.MODES:
        for q, vector in zip(questions, vectors, strict=True):
            hits = selectors.search_memories(
                namespace_ids=[namespaces[q["conversation"]]],
                query=q["question"],
                limit=10,
                mode=mode,
                query_vector=vector,
            )
            one: dict[str, dict[str, list[float]]] = {}
            harness.add_question(one, q["type"], [dia.get(h.memory.id) for h in hits], set(q["evidence"]))
            rows.setdefault(q["id"], {"type": q["type"]})[mode] = [one[q["type"]][m][0] for m in METRICS]
    stored = sorted(
        set(Memory.objects.filter(namespace_id__in=namespaces.values()).values_list("embedding_model", flat=True))
    )
    out.write_text(
        json.dumps({"embedder": get_embedder().name, "stored_models": stored, "dataset": dataset, "questions": rows})
        + "\n"
    )
    print(f"{len(rows)} questions, embedder {get_embedder().name}, stored {stored} -> {out}")


def compare(
    before_path: Path,
    after_path: Path,
    *,
    also: Sequence[tuple[Path, Path]] = (),
    rounds: int = 2000,
    seed: int = 25,
) -> dict[str, Any]:
    import numpy as np

    before, after = json.loads(before_path.read_text()), json.loads(after_path.read_text())
    for more_before, more_after in also:  # pooled: the questions of several data sets as one sample
        for mine, path in ((before, more_before), (after, more_after)):
            extra = json.loads(path.read_text())
            mine["dataset"] = f"{mine['dataset']}+{extra['dataset']}"
            mine["questions"] = {
                **mine["questions"],
                **{f"{extra['dataset']}:{k}": v for k, v in extra["questions"].items()},
            }
    ids = sorted(set(before["questions"]) & set(after["questions"]))
    types = sorted({before["questions"][i]["type"] for i in ids}) + ["all"]
    rng = np.random.default_rng(seed)
    result: dict[str, Any] = {
        "before": before["embedder"],
        "after": after["embedder"],
        "dataset": before["dataset"],
        "rows": [],
    }
    for mode in harness.MODES:
        for kind in types:
            chosen = [i for i in ids if kind == "all" or before["questions"][i]["type"] == kind]
            b = np.array([before["questions"][i][mode] for i in chosen])
            a = np.array([after["questions"][i][mode] for i in chosen])
            diff = a - b
            picks = rng.integers(0, len(chosen), size=(rounds, len(chosen)))
            means = diff[picks].mean(axis=1)
            low, high = np.percentile(means, [2.5, 97.5], axis=0)
            row = {"mode": mode, "type": kind, "n": len(chosen)}
            for j, m in enumerate(METRICS):
                row[m] = {
                    "before": round(float(b[:, j].mean()), 4),
                    "after": round(float(a[:, j].mean()), 4),
                    "diff": round(float(diff[:, j].mean()), 4),
                    "ci95": [round(float(low[j]), 4), round(float(high[j]), 4)],
                    "changed_questions": int((diff[:, j] != 0).sum()),
                }
            result["rows"].append(row)
    return result


def render(result: dict[str, Any]) -> list[str]:
    lines = [
        f"{result['dataset']}: {result['before']} -> {result['after']} (paired; 95% bootstrap interval of Δ)",
        "",
        "| mode | type | n | R@5 before → after (Δ [95%]) | R@10 | MRR |",
        "|---|---|---|---|---|---|",
    ]
    for row in result["rows"]:
        cells = []
        for m in METRICS:
            low, high = row[m]["ci95"]
            cells.append(
                f"{row[m]['before']:.3f} → {row[m]['after']:.3f} ({row[m]['diff']:+.3f} [{low:+.3f}, {high:+.3f}])"
            )
        lines.append(f"| {row['mode']} | {row['type']} | {row['n']} | " + " | ".join(cells) + " |")
    return lines


RESULTS = Path(__file__).resolve().parents[2] / "bench" / "results" / "embedder"


def newest_section() -> list[str]:
    """The opt-in integer-kernel embedder's section of docs/benchmarks.md: its speed (the newest
    ``*-speed.json`` of bench/retrieval/embedder_speed.py) and both data sets' paired comparison
    (``retrieval-<set>-old-vs-new.json``), every mode and type."""
    speeds = sorted(RESULTS.glob("*-speed.json"))
    compared = [RESULTS / f"retrieval-{name}-old-vs-new.json" for name in ("mnemo", "chat")]
    if not speeds or not all(p.exists() for p in compared):
        return []
    speed = json.loads(speeds[-1].read_text())
    lines = [
        "## The opt-in integer-kernel embedder, `minilm-int8-dynamic` (issue 25)",
        "",
        f"CPU per call, one onnxruntime thread, the two embedders interleaved, median of {len(speed['rounds'])} "
        f"rounds (`bench/retrieval/embedder_speed.py`, `{speeds[-1].name}`, load average "
        f"{speed['load_average'][0]:.1f}):",
        "",
        "| text (median tokens) | default `minilm-int8` ms | `minilm-int8-dynamic` ms | speed-up |",
        "|---|---|---|---|",
    ]
    for kind, m in speed["median_of_rounds"].items():
        lines.append(
            f"| {kind} ({speed['tokens_median'][kind]:g}) | {m['reference']:.2f} | {m['dynamic']:.2f} | "
            f"{m['ratio']:.2f}× |"
        )
    lines += [
        "",
        "Retrieval, the whole store embedded by each (`bench/retrieval/embedder_compare.py`, measured with "
        "the fusion rule shipped before today's margin rule; paired per question; a change whose interval "
        "excludes 0 is outside the benchmark's noise). The default stays `minilm-int8` because the chat set "
        "loses R@10 in hybrid mode:",
        "",
    ]
    for path in compared:
        lines += [*render(json.loads(path.read_text())), ""]
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run")
    r.add_argument("--data-dir", required=True, type=Path)
    r.add_argument("--dataset", choices=sorted(harness.DATASETS), default="mnemo")
    r.add_argument("--out", required=True, type=Path)
    c = sub.add_parser("compare")
    c.add_argument("before", type=Path)
    c.add_argument("after", type=Path)
    c.add_argument("--json", type=Path, help="write the comparison here")
    c.add_argument(
        "--also",
        nargs=2,
        type=Path,
        action="append",
        default=[],
        metavar=("BEFORE", "AFTER"),
        help="another data set's pair of files, pooled with the first (repeatable)",
    )
    args = parser.parse_args(argv)
    if args.command == "run":
        run(args.data_dir, args.dataset, args.out)
        return
    result = compare(args.before, args.after, also=[tuple(pair) for pair in args.also])
    print("\n".join(render(result)))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
