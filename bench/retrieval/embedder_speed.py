"""Embedding CPU per call (issue 25): minilm-int8 against minilm-int8-dynamic, one onnxruntime
thread each, in one process, interleaved text by text (the order alternating), process CPU time of
one ``embed([text])``; per round the median of each kind of text, then the median of the rounds.

    .venv/bin/python bench/retrieval/embedder_speed.py [--rounds 5] [--out FILE.json]
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    import django

    django.setup()
    from memories.embedding import MiniLMDynamicInt8Embedder, MiniLMInt8Embedder

    embedders = {"reference": MiniLMInt8Embedder(threads=1), "dynamic": MiniLMDynamicInt8Embedder(threads=1)}
    for embedder in embedders.values():
        embedder.embed(["warm up"] * 3)
    sets = texts()
    result: dict[str, Any] = {"rounds": []}
    for r in range(args.rounds):
        row: dict[str, dict[str, float]] = {}
        for kind, items in sets.items():
            seconds: dict[str, list[float]] = {k: [] for k in embedders}
            for i, text in enumerate(items):
                for name in list(embedders) if (i + r) % 2 == 0 else list(embedders)[::-1]:
                    started = time.process_time()
                    embedders[name].embed([text])
                    seconds[name].append(time.process_time() - started)
            row[kind] = {k: 1000 * statistics.median(v) for k, v in seconds.items()}
            row[kind]["ratio"] = row[kind]["reference"] / row[kind]["dynamic"]
        result["rounds"].append(row)
        print(r, json.dumps({k: {m: round(x, 3) for m, x in v.items()} for k, v in row.items()}), flush=True)
    reference = embedders["reference"]
    result["tokens_median"] = {
        k: statistics.median(len(reference.window_ids([t])[0][0]) + 2 for t in v) for k, v in sets.items()
    }
    result["median_of_rounds"] = {
        k: {m: statistics.median(r[k][m] for r in result["rounds"]) for m in ("reference", "dynamic", "ratio")}
        for k in sets
    }
    result["load_average"] = os.getloadavg()
    print(json.dumps(result["median_of_rounds"], indent=1), result["tokens_median"], result["load_average"])
    if args.out:
        args.out.write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
