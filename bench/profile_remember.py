"""Where a remember request's time goes inside the web process (issue 25): timers per stage, the
statements it sends, and the pyinstrument call tree.

Runs POST /api/v1/memories/remember through Django's full stack in process (middleware, DRF,
token authentication, the one input contract, permissions, the secret scanner, the service)
against an embedded PostgreSQL in its own folder, in a namespace of ``--memories`` memories, and
splits each request's time into the text's embedding, the SQL (round trips, COMMIT included) and
the rest. Prints each statement's count and time per request (normalised), then the profile.

    .venv/bin/python bench/profile_remember.py [--memories 500] [--requests 300] [--output FILE]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import re
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--memories", type=int, default=500)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--output", default=str(ROOT / "bench" / "results" / "remember" / "profile-remember.txt"))
    parser.add_argument(
        "--cpu", action="store_true", help="cProfile on CPU time (process_time) instead of pyinstrument"
    )
    args = parser.parse_args()
    from bench.standalone import seeded_namespace, setup_django

    setup_django("mnemo-profile-remember-", DJANGO_DEBUG="false", DJANGO_ALLOWED_HOSTS="testserver")
    from django.db import connection
    from django.test import Client, override_settings
    from pyinstrument import Profiler

    import memories.embedding as embedding
    from bench.run import corpus, latency_summary

    user, token, namespace = seeded_namespace(args.memories)

    timers = {"embed": 0.0, "sql": 0.0}
    statements: dict[str, list[float]] = defaultdict(list)
    real_embed = embedding.get_embedder().embed

    def timed_embed(batch):
        started = time.perf_counter()
        try:
            return real_embed(batch)
        finally:
            timers["embed"] += time.perf_counter() - started

    embedder = embedding.get_embedder()
    real_windows = getattr(embedder, "embed_windows", None)
    embedder.embed = timed_embed
    if real_windows is not None:  # what remember calls (embed_with_windows)

        def timed_windows(batch):
            started = time.perf_counter()
            try:
                return real_windows(batch)
            finally:
                timers["embed"] += time.perf_counter() - started

        embedder.embed_windows = timed_windows

    def sql_timer(execute, sql, params, many, context):
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            spent = time.perf_counter() - started
            timers["sql"] += spent
            statements[re.sub(r"\s+", " ", sql).strip()[:90]].append(spent * 1000)

    # COMMIT is not a statement Django's execute wrapper sees: time it at the connection.
    real_commit = connection.commit

    def timed_commit():
        started = time.perf_counter()
        try:
            return real_commit()
        finally:
            spent = time.perf_counter() - started
            timers["sql"] += spent
            statements["COMMIT"].append(spent * 1000)

    connection.commit = timed_commit
    base = corpus(args.requests * 3, seed=7)
    client = Client(HTTP_AUTHORIZATION=f"Token {token}")
    counter = iter(range(10**9))

    def post() -> int:
        text = f"{base[next(counter) % len(base)]} #{next(counter)}"
        return client.post(
            "/api/v1/memories/remember", {"text": text, "dedup_policy": "ask"}, content_type="application/json"
        ).status_code

    def run(profile: bool = False) -> tuple[dict, str]:
        rows = []
        for _ in range(20):
            post()
        statements.clear()
        profiler = Profiler(interval=0.0005) if profile and not args.cpu else None
        cpu_profiler = cProfile.Profile(time.process_time) if profile and args.cpu else None
        if profiler:
            profiler.start()
        if cpu_profiler:
            cpu_profiler.enable()
        with connection.execute_wrapper(sql_timer):
            for _ in range(args.requests):
                timers.update(embed=0.0, sql=0.0)
                started = time.perf_counter()
                status = post()
                total = time.perf_counter() - started
                assert status == 201, status
                rows.append((total * 1000, timers["embed"] * 1000, timers["sql"] * 1000))
        tree = ""
        if cpu_profiler:
            cpu_profiler.disable()
            out = io.StringIO()
            pstats.Stats(cpu_profiler, stream=out).sort_stats("cumulative").print_stats(70)
            pstats.Stats(cpu_profiler, stream=out).sort_stats("tottime").print_stats(40)
            tree = out.getvalue()
        if profiler:
            profiler.stop()
            tree = profiler.output_text(unicode=False, color=False, show_all=False)
        summary = {
            "total": latency_summary([r[0] for r in rows]),
            "embed_p50_ms": round(statistics.median(r[1] for r in rows), 2),
            "sql_p50_ms": round(statistics.median(r[2] for r in rows), 2),
            "other": latency_summary([t - e - s for t, e, s in rows]),
            "statements": {
                sql: (round(len(ms) / args.requests, 2), round(statistics.median(ms), 3))
                for sql, ms in sorted(statements.items(), key=lambda kv: -sum(kv[1]))
            },
        }
        return summary, tree

    with override_settings(MNEMO_TOKEN_CACHE_SECONDS=60):
        plain, _ = run()
        _, tree = run(profile=True)
    lines = [
        f"remember requests in process, a namespace of {args.memories}+ memories, {args.requests} requests",
        f"total p50 {plain['total']['p50_ms']} ms p95 {plain['total']['p95_ms']} ms; embedding p50 "
        f"{plain['embed_p50_ms']} ms; SQL p50 {plain['sql_p50_ms']} ms; other p50 {plain['other']['p50_ms']} ms",
        "statements per request (count, median ms):",
        *(f"  {count:>5} x {ms:>7} ms  {sql}" for sql, (count, ms) in plain["statements"].items()),
        "",
        "pyinstrument:",
        tree,
    ]
    text = "\n".join(lines)
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(text)
    print("\n".join(lines[: 4 + len(plain["statements"])]))


if __name__ == "__main__":
    main()
