"""remember's candidate statement prepared and planned generically (issue 25): does the generic
plan read what the per-value (custom) plans read, and find the same rows? On an embedded
PostgreSQL in its own folder: ``--namespaces`` namespaces of ``--per`` memories each (the bench
corpus, embedded once and copied) and a tombstone for every memory, both tables analysed, so that
memories.services ``_candidates_plan`` picks the generic plan; then ``--queries`` new texts (and 10
stored texts, which find their tombstones) are looked up both ways, and both plans are shown.

    .venv/bin/python bench/remember_plans.py [--namespaces 50] [--per 400] [--queries 30]

Writes bench/results/remember/sql/plans-<date>.json.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "remember" / "sql"
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--namespaces", type=int, default=50)
    parser.add_argument("--per", type=int, default=400)
    parser.add_argument("--queries", type=int, default=30)
    args = parser.parse_args()
    os.environ["MNEMO_EMBEDDER_THREADS"] = "1"
    from bench.standalone import seeded_namespace, setup_django

    setup_django("mnemo-remember-plans-")
    from django.db import connection, transaction

    import memories.selectors as selectors
    import memories.services as services
    from bench.run import corpus
    from memories.embedding import embed_texts
    from memories.models import Memory, Namespace, Tombstone

    _, _, namespace = seeded_namespace(args.per)
    texts = corpus(args.per, seed=42)
    stored = list(Memory.objects.filter(namespace=namespace).values_list("text", "embedding"))
    others = [Namespace.objects.create(key=f"other-{j}") for j in range(args.namespaces - 1)]
    Memory.objects.bulk_create(
        [
            Memory(namespace=other, text=text, embedding=vector, embedding_model="minilm", status="ready")
            for other in others
            for text, vector in stored
        ],
        batch_size=2000,
    )
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO memories_tombstone (namespace_id, text, embedding, kind, reason, created_at)"
            " SELECT namespace_id, text, embedding, 'forgotten', '', now() FROM memories_memory"
        )
        cursor.execute("ANALYZE memories_memory")
        cursor.execute("ANALYZE memories_tombstone")
    selectors.forget_namespace_stats()
    mode = services._candidates_plan(namespace.pk)
    queries = embed_texts([f"{t} again" for t in corpus(args.queries, seed=21)] + texts[:10])
    same = 0
    for query in queries:
        with transaction.atomic():
            services._lock_namespace(namespace.pk, no_key=True, plan_cache_mode="force_generic_plan")
            generic = services._candidates(namespace_id=namespace.pk, vector=query, memories=True, prepared=True)
        same += generic == services._candidates(namespace_id=namespace.pk, vector=query, memories=True)
    seen: list[tuple[str, dict]] = []
    with connection.execute_wrapper(
        lambda execute, sql, params, many, context: (seen.append((sql, params)), execute(sql, params, many, context))[1]
    ):
        services._candidates(namespace_id=namespace.pk, vector=queries[0], memories=True)
    sql, params = seen[-1]
    numbered = sql
    for n, name in enumerate(("q", "ns", "k_memories", "max_memory", "max_tombstone"), start=1):
        numbered = numbered.replace(f"%({name})s", f"${n}")
    plans = {}
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL plan_cache_mode = force_generic_plan")
        cursor.execute(f"PREPARE candidates(text, bigint, int, float8, float8) AS {numbered}")
        cursor.execute(
            "EXPLAIN EXECUTE candidates(%s, %s, %s, %s, %s)",
            [params["q"], params["ns"], params["k_memories"], params["max_memory"], params["max_tombstone"]],
        )
        plans["generic"] = [r[0][:160] for r in cursor.fetchall() if "Scan" in r[0] or "Limit" in r[0]]
        cursor.execute("EXPLAIN " + sql, params)
        plans["custom"] = [r[0][:160] for r in cursor.fetchall() if "Scan" in r[0] or "Limit" in r[0]]
    out = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "namespaces": args.namespaces,
        "memories_per_namespace": args.per,
        "tombstones": Tombstone.objects.count(),
        "plan_chosen": mode,
        "generic_namespace_rows": selectors.generic_namespace_rows(),
        "queries": len(queries),
        "same_rows": same,
        "plans": plans,
    }
    print(json.dumps(out, indent=1))
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"plans-{datetime.now(UTC).strftime('%Y-%m-%dT%H%M%S')}.json").write_text(
        json.dumps(out, indent=1) + "\n"
    )


if __name__ == "__main__":
    main()
