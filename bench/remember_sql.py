"""remember's SQL (issue 25): one POST /api/v1/memories/remember at a time through Django's WSGI
handler in this process (as bench/remember_split.py), on an embedded PostgreSQL in its own folder
with a namespace of ``--memories`` memories, two variants alternating request by request (ABBA)
so both see the same machine and the same growing table:

- "before": remember's candidate statement sent as every other statement (Django's cursor, the
  values inlined in its text, parsed and planned per remember);
- "after": this checkout (memories.services ``_candidates_plan``: the lock and candidate
  statements prepared, the candidates planned generically where search's exact statement is).

Per request: wall time, this thread's CPU, and the PostgreSQL client backends' CPU (their
/proc/<pid>/schedstat, as bench/sql_wall.py), and the wall of each of remember's statements
(Django's execute wrapper: what Server-Timing's ``db`` counts; the COMMIT is not among them).
Medians per variant and their ratios.

    .venv/bin/python bench/remember_sql.py [--memories 500] [--requests 400] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "remember" / "sql"
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--memories", type=int, default=500)
    parser.add_argument("--requests", type=int, default=400, help="per variant")
    parser.add_argument("--json", default="", help="write the medians here (default: bench/results/remember/sql/)")
    args = parser.parse_args()
    os.environ["MNEMO_EMBEDDER_THREADS"] = "1"  # as in a web process (config/gunicorn.py)
    from bench.standalone import seeded_namespace, setup_django

    setup_django("mnemo-remember-sql-", DJANGO_DEBUG="false", DJANGO_ALLOWED_HOSTS="127.0.0.1")
    from django.core.wsgi import get_wsgi_application
    from django.db import connection
    from django.test import override_settings

    import memories.services as services
    from bench.run import corpus
    from bench.wsgi_calls import post, remember_body

    _, token, _ = seeded_namespace(args.memories)
    app = get_wsgi_application()
    base = corpus(args.requests * 2 + 100, seed=11)
    real_plan = services._candidates_plan
    variants = {"before": lambda namespace_id: "", "after": real_plan}
    statement_wall: dict[str, float] = {}

    def kind(sql: str) -> str:
        if "'m' AS arm" in sql:
            return "candidates"
        if "FOR NO KEY UPDATE" in sql:
            return "lock (with BEGIN)"
        if sql.startswith("WITH m AS (INSERT"):
            return "insert"
        return "other"

    def timed(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            key = kind(sql)
            statement_wall[key] = statement_wall.get(key, 0.0) + time.perf_counter() - started

    def one(i: int) -> None:
        post(
            app,
            "/api/v1/memories/remember",
            remember_body(base[i % len(base)], i, source="remember_sql"),
            token,
            expect="201",
        )

    def backends() -> list[str]:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pid FROM pg_stat_activity WHERE backend_type = 'client backend'")
            return [f"/proc/{pid}/schedstat" for (pid,) in cursor.fetchall()]

    def pg_cpu(paths: list[str]) -> int:
        total = 0
        for path in paths:
            try:
                with open(path) as f:
                    total += int(f.read().split()[0])
            except FileNotFoundError:
                pass
        return total

    samples: dict[str, dict[str, list[float]]] = {name: {} for name in variants}
    with override_settings(MNEMO_TOKEN_CACHE_SECONDS=60), connection.execute_wrapper(timed):
        for i in range(40):  # warm: caches, prototypes, the embedder's session, both variants' statements
            services._candidates_plan = list(variants.values())[i % 2]
            one(10**6 + i)
        paths = backends()
        load_before = os.getloadavg()
        n = 0
        for block in range(args.requests):
            order = list(variants) if block % 2 == 0 else list(variants)[::-1]  # ABBA
            for name in order:
                services._candidates_plan = variants[name]
                statement_wall.clear()
                cpu0, pg0, wall0 = time.thread_time(), pg_cpu(paths), time.perf_counter()
                one(n)
                wall1, pg1, cpu1 = time.perf_counter(), pg_cpu(paths), time.thread_time()
                n += 1
                got = samples[name]
                got.setdefault("wall_ms", []).append((wall1 - wall0) * 1e3)
                got.setdefault("thread_cpu_ms", []).append((cpu1 - cpu0) * 1e3)
                got.setdefault("postgres_cpu_ms", []).append((pg1 - pg0) / 1e6)
                for key in ("lock (with BEGIN)", "candidates", "insert", "other"):
                    got.setdefault(f"{key} wall_ms", []).append(statement_wall.get(key, 0.0) * 1e3)
                got.setdefault("all statements wall_ms", []).append(sum(statement_wall.values()) * 1e3)
        services._candidates_plan = real_plan
    out: dict[str, Any] = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "requests_per_variant": args.requests,
        "memories": args.memories,
        "load_average_1m": [round(load_before[0], 2), round(os.getloadavg()[0], 2)],
        "medians": {},
    }
    for name, got in samples.items():
        out["medians"][name] = {key: round(statistics.median(values), 3) for key, values in got.items()}
    out["ratio_before_over_after"] = {
        key: round(out["medians"]["before"][key] / after, 3) if (after := out["medians"]["after"][key]) else None
        for key in out["medians"]["after"]
    }
    print(json.dumps(out, indent=1))
    target = Path(args.json) if args.json else RESULTS / f"sql-{datetime.now(UTC).strftime('%Y-%m-%dT%H%M%S')}.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
