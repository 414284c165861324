"""Where a search request's time goes inside the web process (pyinstrument and timers).

Runs search requests through Django's full stack in process (middleware, DRF, token
authentication, permissions, serializers, the selector, the query embedding, the SQL) against an
embedded PostgreSQL in its own folder, and splits each request's time into: the query embedding,
the SQL, and the rest (Django/DRF/auth/permissions/serializers: the overhead). It does this with
the token cache off (every request looks its token up, as before) and on, and prints the
pyinstrument call tree of the "on" run.

    .venv/bin/python bench/profile_search.py [--memories 2000] [--requests 300] [--output FILE]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--memories", type=int, default=2000)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--output", default=str(ROOT / "bench" / "results" / "profile-search.txt"))
    args = parser.parse_args()
    from bench.standalone import seeded_namespace, setup_django

    setup_django("mnemo-profile-", DJANGO_DEBUG="false", DJANGO_ALLOWED_HOSTS="testserver")
    from django.db import connection
    from django.test import Client, override_settings
    from pyinstrument import Profiler

    import memories.embedding as embedding
    from bench.run import OBJECTS, VERBS, latency_summary

    user, token, namespace = seeded_namespace(args.memories)

    timers = {"embed": 0.0, "sql": 0.0}
    real_embed = embedding.get_embedder().embed

    def timed_embed(batch):
        started = time.perf_counter()
        try:
            return real_embed(batch)
        finally:
            timers["embed"] += time.perf_counter() - started

    embedding.get_embedder().embed = timed_embed

    def sql_timer(execute, sql, params, many, context):
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            timers["sql"] += time.perf_counter() - started

    import random

    rng = random.Random(3)
    queries = [f"{rng.choice(VERBS)} {rng.choice(OBJECTS)}" for _ in range(args.requests)]
    client = Client(HTTP_AUTHORIZATION=f"Token {token}")

    def run(label: str, profile: bool = False) -> tuple[dict, str]:
        rows = []
        profiler = Profiler(interval=0.0005) if profile else None
        for q in queries[:20]:  # warm up
            client.post("/api/v1/memories/search", {"query": q}, content_type="application/json")
        if profiler:
            profiler.start()
        with connection.execute_wrapper(sql_timer):
            for q in queries:
                timers.update(embed=0.0, sql=0.0)
                started = time.perf_counter()
                response = client.post("/api/v1/memories/search", {"query": q}, content_type="application/json")
                total = time.perf_counter() - started
                assert response.status_code == 200, response.content
                rows.append((total * 1000, timers["embed"] * 1000, timers["sql"] * 1000))
        tree = ""
        if profiler:
            profiler.stop()
            tree = profiler.output_text(unicode=False, color=False, show_all=False)
        overhead = [t - e - s for t, e, s in rows]
        summary = {
            "label": label,
            "total": latency_summary([r[0] for r in rows]),
            "embed_p50_ms": round(statistics.median(r[1] for r in rows), 2),
            "sql_p50_ms": round(statistics.median(r[2] for r in rows), 2),
            "overhead": latency_summary(overhead),
        }
        return summary, tree

    with override_settings(MNEMO_TOKEN_CACHE_SECONDS=0):
        before, _ = run("token looked up on every request")
    with override_settings(MNEMO_TOKEN_CACHE_SECONDS=60):
        after, _ = run("token cache on (default)")
        _, tree = run("profiled", profile=True)
    lines = [f"search requests in process, {args.memories} memories in the namespace, {args.requests} requests", ""]
    for s in (before, after):
        lines.append(
            f"{s['label']}: total p50 {s['total']['p50_ms']} ms p95 {s['total']['p95_ms']} ms; "
            f"embedding p50 {s['embed_p50_ms']} ms; SQL p50 {s['sql_p50_ms']} ms; "
            f"overhead p50 {s['overhead']['p50_ms']} ms p95 {s['overhead']['p95_ms']} ms"
        )
    lines += ["", "pyinstrument, token cache on:", tree]
    text = "\n".join(lines)
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(text)
    print("\n".join(lines[:4]))


if __name__ == "__main__":
    main()
