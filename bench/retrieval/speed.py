"""Search cost in process (SQL and the query embedding, no HTTP) at 100k memories, for the two
shapes a service has: one large namespace, and many small namespaces in one large table.

The rows are the benchmark's turns (real texts, real vectors) repeated with a little noise on the
vectors, inserted directly (the HNSW index is rebuilt once after, as a bulk load would). Each
shape is searched with the plan search_plan() picks and with the other one forced, so the choice
is shown, not assumed. Queries are the benchmark's questions.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from bench.retrieval import harness

LARGE_KEY = "agent:speed-large"
SMALL_PREFIX = "agent:speed-small-"


def _percentiles(ms: list[float]) -> dict[str, float]:
    ms = sorted(ms)
    return {
        "p50_ms": round(statistics.median(ms), 2),
        "p95_ms": round(ms[min(len(ms) - 1, int(len(ms) * 0.95))], 2),
        "n": len(ms),
    }


def build(*, large: int, small_namespaces: int, small_size: int) -> None:
    """The synthetic namespaces (kept if already there)."""
    import numpy as np
    from django.db import connection

    from memories.models import Memory, Namespace

    want = large + small_namespaces * small_size
    have = Memory.objects.filter(namespace__key__startswith="agent:speed-").count()
    if have == want:
        return
    Memory.objects.filter(namespace__key__startswith="agent:speed-").delete()
    source = list(
        Memory.objects.filter(namespace__key__startswith=harness.NAMESPACE_PREFIX).values_list("text", "embedding")
    )
    texts = [t for t, _ in source]
    base = np.array([list(v) for _, v in source], dtype=np.float32)
    rng = np.random.default_rng(5)
    plan = [(LARGE_KEY, large)] + [(f"{SMALL_PREFIX}{i}", small_size) for i in range(small_namespaces)]
    with connection.cursor() as cursor:
        cursor.execute("DROP INDEX IF EXISTS memory_embedding_hnsw")
        for key, size in plan:
            ns, _ = Namespace.objects.get_or_create(key=key, defaults={"kind": "agent"})
            for start in range(0, size, 5000):
                n = min(5000, size - start)
                pick = rng.integers(0, len(base), n)
                vectors = base[pick] + rng.normal(0, 0.03, (n, base.shape[1])).astype(np.float32)
                vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
                rows = [
                    (ns.id, texts[p], "[" + ",".join(f"{x:.5f}" for x in v) + "]")
                    for p, v in zip(pick, vectors, strict=True)
                ]
                cursor.executemany(
                    """INSERT INTO memories_memory (namespace_id, text, embedding, embedding_model, status, event_id,
                           error, created_at, updated_at, tags, source_provider, importance, capture_mode,
                           session_id, last_confirmed_at, metadata)
                       VALUES (%s, %s, %s::vector, 'synthetic', 'ready', gen_random_uuid(), '', now(), now(), '{}',
                           '', 0.5, '', '', now(), '{}')""",
                    rows,
                )
        # the index as the migration defines it (m 16, ef_construction 64, cosine)
        cursor.execute("SET maintenance_work_mem = '512MB'")
        cursor.execute(
            "CREATE INDEX memory_embedding_hnsw ON memories_memory USING hnsw (embedding vector_cosine_ops) "
            "WITH (m = 16, ef_construction = 64)"
        )
        cursor.execute("VACUUM ANALYZE memories_memory")


def run(*, large: int = 100_000, small_namespaces: int = 1000, small_size: int = 100, queries: int = 200) -> dict:
    from django.test import override_settings

    from memories import selectors
    from memories.models import Memory, Namespace

    build(large=large, small_namespaces=small_namespaces, small_size=small_size)
    data = harness.dataset()
    rng = random.Random(7)
    questions = [q["question"] for q in rng.sample(data["questions"], queries)]
    large_id = Namespace.objects.get(key=LARGE_KEY).id
    small_ids = list(Namespace.objects.filter(key__startswith=SMALL_PREFIX).values_list("id", flat=True))
    result: dict[str, Any] = {
        "table_rows": Memory.objects.count(),
        "large": large,
        "small": [small_namespaces, small_size],
    }
    shapes = (
        (f"one namespace of {large:,}", lambda: large_id),
        (f"{small_namespaces:,} namespaces of {small_size}", lambda: rng.choice(small_ids)),
    )
    result["queries"] = queries
    for shape, pick in shapes:
        chosen = selectors.search_plan([pick()])
        shape_result: dict[str, Any] = {"chosen_plan": chosen}
        for plan, exact_max in (("exact", 10**9), ("hnsw", -1)):
            with override_settings(MNEMO_SEARCH_EXACT_MAX=exact_max):
                selectors.forget_namespace_stats()
                for mode in ("hybrid", "keyword", "vector"):
                    if mode == "keyword" and plan == "hnsw":
                        continue  # the plan is the vector arm's
                    ms = []
                    for q in questions:
                        ns = pick()
                        started = time.perf_counter()
                        selectors.search_memories(namespace_ids=[ns], query=q, limit=10, mode=mode)
                        ms.append((time.perf_counter() - started) * 1000)
                    key = mode if mode == "keyword" else f"{mode} ({plan})"
                    shape_result[key] = _percentiles(ms)
        selectors.forget_namespace_stats()
        result[shape] = shape_result
    # the query embedding alone, for the split
    from memories.embedding import embed_texts

    ms = []
    for q in questions[:100]:
        started = time.perf_counter()
        embed_texts([q])
        ms.append((time.perf_counter() - started) * 1000)
    result["query_embedding"] = _percentiles(ms)
    return result


def render(result: dict[str, Any]) -> list[str]:
    lines = [
        "## Search cost by plan (in process: SQL and the query embedding, no HTTP)",
        "",
        f"{result['table_rows']:,} memories in one table: one namespace of {result['large']:,} and "
        f"{result['small'][0]:,} namespaces of {result['small'][1]}; {result.get('queries', 200)} benchmark questions, "
        "limit 10. "
        f"The query embedding alone: p50 {result['query_embedding']['p50_ms']} / p95 "
        f"{result['query_embedding']['p95_ms']} ms. **bold**: the plan search_plan() picks.",
        "",
        *([result["note"], ""] if result.get("note") else []),
        "| shape | search | p50 ms | p95 ms |",
        "|---|---|---|---|",
    ]
    for shape, r in result.items():
        if not isinstance(r, dict) or "chosen_plan" not in r:
            continue
        for key, v in r.items():
            if key == "chosen_plan":
                continue
            label = f"**{key}**" if f"({r['chosen_plan']})" in key else key
            lines.append(f"| {shape} | {label} | {v['p50_ms']} | {v['p95_ms']} |")
    return lines


def main() -> None:
    import argparse
    import json
    from pathlib import Path

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", required=True, help="the retrieval benchmark's database folder (loaded first)")
    parser.add_argument("--output")
    args = parser.parse_args()
    harness.setup_django(Path(args.data_dir))
    harness.load(harness.dataset(), progress=True)
    result = run()
    print("\n".join(render(result)))
    if args.output:
        Path(args.output).write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
