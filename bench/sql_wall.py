"""Where the search statement's wall time goes (issue 25): the ``search-sql`` interval of
memories/selectors.py ``search_memories`` split into its pieces, in process, against an
embedded PostgreSQL in its own folder (bench/standalone.py), a namespace of the retrieval
benchmark's size (500 memories), the query-vector cache off (every search embeds its query right
before the statement, as in ``make bench-peers``), the table's statistics removed as before
autovacuum's first ANALYZE (as when ``make bench-peers`` searches right after loading), or
kept (``--analyzed``: the steady state).

Per search: the interval (Server-Timing's ``search-sql``), and inside it the Python before the
statement (search_plan, the generic-plan check, the cursor), psycopg's execute, fetchall; the
PostgreSQL backend's own CPU and run-queue wait during the search (/proc/<pid>/schedstat, in
nanoseconds) and this thread's. Two variants alternate search by search, so both see the same
machine: "before", the statement planned per search with its values inlined (what
``generic_namespace_rows`` gave a table without statistics before: None), and "after" (this
checkout: the prepared statement's generic plan, the table's row count bounding it).

``--compare conversion``: both variants prepared and planned generically (the same prepared
statement on the server), "before" the cursor as it was up to 98a4d69 (psycopg converts the
statement's ``%(name)s`` placeholders on every execute: it remembers statements of at most
4,096 characters only), "after" this checkout's (the ``$n`` text converted once per statement,
memories.selectors._positional). ``wrapper_execute`` is Django's cursor wrapper's execute, the
whole client side of sending the statement; ``*_thread_cpu`` this thread's CPU (thread_time).

``--compare statement``: the statement as a BASE commit builds it ("before": that commit's
``memories.selectors._search_sql``, loaded beside this checkout's) against this checkout's
("after"), both sent the same way (this checkout's cursor, prepared and planned generically where
the table allows it). Hits compared with their raw score, cosine and coverage (every float as
PostgreSQL sent it). What each process counted about namespaces is trusted for the whole run in
both variants, so no recount lands in one variant's searches.

``--retrieval N``: instead of the bench corpus, the first N conversations of the retrieval
benchmark (bench/retrieval/conversations.json, one namespace each, 407 to 526 memories, stored
through ``remember`` and analyzed), searched with their own questions; ``--namespaces 2`` searches
each question in its namespace and the next one. ``--data-dir`` keeps that database between runs.

    .venv/bin/python bench/sql_wall.py [--memories 460] [--searches 300] [--analyzed] [--compare plan|conversion]
    .venv/bin/python bench/sql_wall.py --compare statement --base 03ac827 --retrieval 12 --data-dir /tmp/mnemo-sqlwall

Writes bench/results/sql-wall/<date>.json.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "sql-wall"
sys.path.insert(0, str(ROOT))


class PsycopgConverted(psycopg.Cursor[tuple[Any, ...]]):
    """The search cursor up to 98a4d69 (memories.selectors._PreparedSearchCursor then): prepared,
    and psycopg converts the statement's placeholders on every execute of a statement over 4,096
    characters. The "before" of ``--compare conversion`` and of bench/web_sql_threads.py."""

    def execute(
        self, query: Any, params: Any = None, *, prepare: bool | None = None, binary: bool | None = None
    ) -> Any:
        return super().execute(query, params, prepare=True if prepare is None else prepare, binary=binary)

    def _convert_query(self, query: Any, params: Any = None) -> Any:
        self._query = super()._convert_query(query, params)
        return self._query


def schedstat(path: str) -> tuple[int, int]:
    """(on-CPU ns, run-queue wait ns) of a task so far."""
    with open(path) as f:
        run, wait, _ = f.read().split()
    return int(run), int(wait)


def base_statement(base: str | None, selectors: Any) -> Any:
    """BASE's ``memories.selectors._search_sql``: its module loaded beside this checkout's (its own
    templates and counts), what it counted trusted for the run as this checkout's is."""
    if not base:
        raise SystemExit("--compare statement needs --base")
    import importlib.util
    import subprocess
    import tempfile

    text = subprocess.run(
        ["git", "show", f"{base}:memories/selectors.py"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout
    path = Path(tempfile.mkdtemp(prefix="sqlwall-base-")) / "selectors.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location("memories.base_selectors", path)
    assert spec is not None and spec.loader is not None
    module: Any = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    for m in (module, selectors):
        m.SMALL_NAMESPACE_STATS_SECONDS = m.NAMESPACE_STATS_SECONDS = 10**9
    return module._search_sql


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--memories", type=int, default=500)
    parser.add_argument("--searches", type=int, default=400)
    parser.add_argument("--analyzed", action="store_true", help="keep the table's statistics (the steady state)")
    parser.add_argument("--compare", choices=["plan", "conversion", "statement"], default="plan")
    parser.add_argument("--base", help="--compare statement: the commit whose statement is 'before'")
    parser.add_argument("--retrieval", type=int, default=0, help="the retrieval benchmark's first N conversations")
    parser.add_argument("--namespaces", type=int, choices=[1, 2], default=1, help="namespaces per search")
    parser.add_argument("--data-dir", help="the database's folder (kept between runs); default: a new one")
    args = parser.parse_args()
    os.environ["MNEMO_EMBEDDER_THREADS"] = "1"  # as in a web process (config/gunicorn.py)
    if args.data_dir:
        os.environ["MNEMO_DATA_DIR"] = args.data_dir
    from bench.standalone import seeded_namespace, setup_django

    setup_django("mnemo-sqlwall-", MNEMO_QUERY_VECTOR_CACHE="0")
    from django.db import connection
    from django.db.backends.utils import CursorWrapper

    import memories.selectors as selectors
    from bench.run import OBJECTS, VERBS

    rng = random.Random(5)
    searches: list[tuple[list[int], str]]
    if args.retrieval:
        from bench.retrieval import harness

        data = harness.dataset("mnemo")
        namespaces = harness.load(data, conversations=[c["id"] for c in data["conversations"][: args.retrieval]])
        ids = sorted(namespaces.values())
        asked = [
            (namespaces[q["conversation"]], q["question"]) for q in data["questions"] if q["conversation"] in namespaces
        ]
        asked = rng.sample(asked, min(args.searches, len(asked)))
        if args.namespaces == 2:  # the question's namespace and the next one
            searches = [([ns, ids[(ids.index(ns) + 1) % len(ids)]], q) for ns, q in asked]
        else:
            searches = [([ns], q) for ns, q in asked]
    else:
        _, _, namespace = seeded_namespace(args.memories)
        searches = [
            ([namespace.id], f"when did they {rng.choice(VERBS)} the {rng.choice(OBJECTS)}?")
            for _ in range(args.searches)
        ]
    with connection.cursor() as cursor:
        if args.analyzed or args.retrieval:
            cursor.execute("ANALYZE memories_memory")
        else:
            cursor.execute("DELETE FROM pg_statistic WHERE starelid = 'memories_memory'::regclass")
            cursor.execute("UPDATE pg_class SET reltuples = -1 WHERE oid = 'memories_memory'::regclass")
    selectors.forget_namespace_stats()
    assert selectors.generic_namespace_rows() is not None  # this checkout: "after" is prepared
    real_search_sql: Any = selectors._search_sql
    base_search_sql: Any = None
    if args.compare == "statement":
        base_search_sql = base_statement(args.base, selectors)

    piece: dict[str, float] = {}
    timings: dict[str, float] = {}
    real_add_timing = selectors.add_timing
    selectors.add_timing = lambda phase, seconds: (timings.__setitem__(phase, seconds), real_add_timing(phase, seconds))

    def timed(name: str, fn: Any, cpu: bool = False) -> Any:
        def wrapper(*a: Any, **kw: Any) -> Any:
            started, cpu_started = time.perf_counter(), time.thread_time()
            try:
                return fn(*a, **kw)
            finally:
                piece[name] = piece.get(name, 0.0) + time.perf_counter() - started
                if cpu:
                    piece[name + "_thread_cpu"] = (
                        piece.get(name + "_thread_cpu", 0.0) + time.thread_time() - cpu_started
                    )

        return wrapper

    real_cursor_class = selectors._PreparedSearchCursor

    real_plan, real_generic, real_cursor = (
        selectors.search_plan,
        selectors._generic_plan_reads_the_index,
        selectors._search_cursor,
    )
    real_execute, real_fetchall = psycopg.Cursor.execute, psycopg.Cursor.fetchall
    fetched: list[Any] = []

    def fetchall(self: Any) -> Any:
        rows = real_fetchall(self)
        fetched[:] = [(r[0], *r[-3:]) for r in rows]  # id, score, cos, coverage as sent
        return rows

    selectors._search_cursor = timed("cursor", real_cursor)
    psycopg.Cursor.execute = timed("execute", real_execute)  # type: ignore[method-assign]
    psycopg.Cursor.fetchall = timed("fetchall", fetchall)  # type: ignore[method-assign]
    CursorWrapper.execute = timed("wrapper_execute", CursorWrapper.execute, cpu=True)  # type: ignore[method-assign]

    def search(namespace_ids: list[int], q: str) -> list[Any]:
        limit = 10 if args.retrieval else 5
        return timed("search", selectors.search_memories, cpu=True)(namespace_ids=namespace_ids, query=q, limit=limit)

    def generic_check(variant: str) -> Any:
        if args.compare == "statement":
            selectors._search_sql = base_search_sql if variant == "before" else real_search_sql
            return timed("generic_check", real_generic)
        if args.compare == "conversion":
            selectors._PreparedSearchCursor = PsycopgConverted if variant == "before" else real_cursor_class
            return timed("generic_check", real_generic)
        return (lambda: False) if variant == "before" else timed("generic_check", real_generic)

    for ids, q in searches[:30]:  # warm: caches of statistics, the prepared statement
        for variant in ("before", "after"):
            selectors._generic_plan_reads_the_index = generic_check(variant)
            search(ids, q)
    backend = connection.connection.info.backend_pid
    me = f"/proc/self/task/{threading.get_native_id()}/schedstat"
    samples: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
    found: dict[str, list[Any]] = {"before": [], "after": []}
    order = [(s, v) for j, s in enumerate(searches) for v in (("before", "after") if j % 2 else ("after", "before"))]
    for (ids, q), variant in order:
        selectors._generic_plan_reads_the_index = generic_check(variant)
        piece.clear()
        timings.clear()
        # search_plan is also called before the interval (by _search_sql): time only the call in it.
        calls = {"n": 0}

        def plan(ids: list[int], _calls: dict = calls) -> Any:
            _calls["n"] += 1
            if _calls["n"] == 2:
                return timed("search_plan", real_plan)(ids)
            return real_plan(ids)

        selectors.search_plan = plan
        b0, m0 = schedstat(f"/proc/{backend}/schedstat"), schedstat(me)
        hits = search(ids, q)
        found[variant].append(list(fetched) if args.compare == "statement" else [(h.memory.id, h.score) for h in hits])
        b1, m1 = schedstat(f"/proc/{backend}/schedstat"), schedstat(me)
        sql = timings["search-sql"]
        samples[variant].append(
            {
                "search_sql": sql * 1000,
                **{k: v * 1000 for k, v in piece.items()},
                "backend_cpu": (b1[0] - b0[0]) / 1e6,
                "backend_runqueue": (b1[1] - b0[1]) / 1e6,
                "client_runqueue": (m1[1] - m0[1]) / 1e6,
            }
        )
    selectors.search_plan = real_plan
    summary = {}
    for variant, rows in samples.items():
        keys = sorted({k for r in rows for k in r})
        summary[variant] = {k: round(statistics.median(r.get(k, 0.0) for r in rows), 3) for k in keys}
        summary[variant]["execute_minus_backend_cpu"] = round(
            statistics.median(r["execute"] - r["backend_cpu"] for r in rows), 3
        )
        summary[variant]["n"] = len(rows)
    summary["same_hits"] = found["before"] == found["after"]
    summary["searches_with_other_hits"] = sum(b != a for b, a in zip(found["before"], found["after"], strict=True))
    summary["ratio_search_sql"] = round(summary["before"]["search_sql"] / summary["after"]["search_sql"], 2)
    summary["ratio_backend_cpu"] = round(summary["before"]["backend_cpu"] / summary["after"]["backend_cpu"], 2)
    for key in ("wrapper_execute_thread_cpu", "search_thread_cpu"):
        summary[f"ratio_{key}"] = round(summary["before"][key] / summary["after"][key], 3)
        summary[f"paired_median_difference_{key}"] = round(
            statistics.median(b[key] - a[key] for b, a in zip(samples["before"], samples["after"], strict=True)),
            3,
        )
    result = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "memories": "retrieval benchmark" if args.retrieval else args.memories,
        "conversations": args.retrieval or None,
        "namespaces_per_search": args.namespaces,
        "base": args.base,
        "searches": args.searches,
        "loadavg": os.getloadavg(),
        "p50_ms": summary,
        "table_statistics": "analyzed"
        if args.analyzed or args.retrieval
        else "none (removed, as before the first ANALYZE)",
        "compare": args.compare,
    }
    print(json.dumps(result, indent=1))
    RESULTS.mkdir(parents=True, exist_ok=True)
    suffix = {"conversion": "-conversion", "statement": "-statement"}.get(args.compare, "")
    out = RESULTS / f"{datetime.now(UTC).strftime('%Y-%m-%dT%H%M%S')}{suffix}.json"
    out.write_text(json.dumps(result, indent=1) + "\n")
    print(out)


if __name__ == "__main__":
    main()
