"""What a part of the hybrid search statement costs, the statement as it ships against variants of
that part, in one process, interleaved query by query with the order rotating, on a namespace of
``--memories`` memories (exact plan), query vectors given (no embedding). Medians of the rounds'
median wall times. ``--part``:

- ``time-rank`` (issue 26's recency for questions about the present, memories.selectors._TIME_RANK):
  against the same statement ranking by storage order (id, as shipped until the rank read
  valid_from) and without the term; results ``search-cost/<stamp>-present.json``;
- ``distinct`` (each text once, memories.selectors._DISTINCT["hybrid"]): against the statement
  keeping every copy (no window); results ``search-cost/<stamp>-distinct.json``.

    .venv/bin/python bench/present_cost.py [--part time-rank] [--memories 500] [--queries 300] [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--memories", type=int, default=500)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--part", choices=["time-rank", "distinct"], default="time-rank")
    parser.add_argument("--out")
    args = parser.parse_args()
    from bench.standalone import seeded_namespace, setup_django

    setup_django("mnemo-present-cost-", DJANGO_DEBUG="false")
    from bench.run import corpus
    from memories import selectors
    from memories.embedding import get_embedder

    _, _, namespace = seeded_namespace(args.memories)
    # half the questions ask about the present (the term then moves the order), half do not
    texts = corpus(args.queries, seed=11)
    queries = [" ".join(t.split()[:8]) + (" now?" if i % 2 else "?") for i, t in enumerate(texts)]
    vectors = [get_embedder().embed([q])[0] for q in queries]

    def put(part: str) -> None:
        if args.part == "time-rank":
            selectors._TIME_RANK = part
        else:
            selectors._DISTINCT["hybrid"] = part

    shipped = selectors._TIME_RANK if args.part == "time-rank" else selectors._DISTINCT["hybrid"]
    arms = (
        {
            "shipped": shipped,
            "storage order": "(ROW_NUMBER() OVER (ORDER BY feat.id) - 1)::float8 / GREATEST(COUNT(*) OVER () - 1, 1)",
            "without the term": "0",
        }
        if args.part == "time-rank"
        else {
            "shipped": shipped,
            "every copy": "distinct_texts AS (SELECT scored.*, 1 AS copy FROM scored WHERE score >= %(min_score)s)",
        }
    )
    names = list(arms)
    rounds = []
    for r in range(args.rounds):
        times: dict[str, list[float]] = {name: [] for name in arms}
        for i, (query, vector) in enumerate(zip(queries, vectors, strict=True)):
            k = (i + r) % len(names)  # each arm first, middle and last in turn
            for name in names[k:] + names[:k]:
                put(arms[name])
                started = time.perf_counter()
                selectors.search_memories(namespace_ids=[namespace.id], query=query, limit=10, query_vector=vector)
                times[name].append((time.perf_counter() - started) * 1000)
        put(shipped)
        rounds.append({name: statistics.median(v) for name, v in times.items()})
    result = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "part": args.part,
        "memories": args.memories,
        "queries": args.queries,
        "rounds": rounds,
        "median_ms": {name: round(statistics.median(r[name] for r in rounds), 3) for name in arms},
    }
    print(json.dumps(result["median_ms"]))
    stamp = datetime.now(UTC).strftime("%Y-%m-%dT%H%M%S")
    suffix = "present" if args.part == "time-rank" else "distinct"
    out = Path(args.out) if args.out else ROOT / "bench" / "results" / "search-cost" / f"{stamp}-{suffix}.json"
    out.write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
