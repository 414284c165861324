"""Whose CPU the search statement's execute costs in the web process (issue 25): one
gunicorn/uvicorn worker as ``make run`` starts it (config/gunicorn.py) serving
bench/web_sql_threads_app.py (config.asgi's application with a probe around the search cursor's
execute), one client at a time, hybrid searches of a seeded namespace (the query-vector cache
off: every search embeds its query right before the statement, as in ``make bench-peers``); then
the same searches in this process (search_memories called directly, the same probe). Per
execute: its wall, the calling thread's CPU and run-queue wait, every other thread's CPU by name,
the PostgreSQL backend's CPU. Medians. Each query is searched twice, search by search
alternating (ABBA) the search cursor up to 98a4d69 ("before": psycopg converts the statement on
every execute) and this checkout's ("after"); both use the same prepared statement.

    .venv/bin/python bench/web_sql_threads.py [--memories 460] [--searches 300]

Writes bench/results/sql-wall/<date>-threads.json.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import statistics
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "sql-wall"
sys.path.insert(0, str(ROOT))


def summary(samples: list[dict[str, Any]]) -> dict[str, Any]:
    """Medians of the samples' numbers; other threads' CPU as median and mean per search by name."""
    keys = [k for k in samples[0] if k not in ("others", "variant")]
    out: dict[str, Any] = {k: round(statistics.median(s[k] for s in samples), 3) for k in keys}
    out["execute_minus_backend_cpu"] = round(statistics.median(s["execute"] - s["backend_cpu"] for s in samples), 3)
    names = sorted({name for s in samples for name in s["others"]})
    out["other_threads_cpu"] = {
        name: {
            "median": round(statistics.median(s["others"].get(name, 0.0) for s in samples), 3),
            "mean": round(statistics.fmean(s["others"].get(name, 0.0) for s in samples), 3),
            "share_of_searches": round(sum(name in s["others"] for s in samples) / len(samples), 2),
        }
        for name in names
    }
    out["n"] = len(samples)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--memories", type=int, default=460)
    parser.add_argument("--searches", type=int, default=300)
    parser.add_argument("--label", default="")
    args = parser.parse_args()
    os.environ["MNEMO_EMBEDDER_THREADS"] = "1"  # as in a web process (config/gunicorn.py)
    # Every search embeds its query right before the statement, as in make bench-peers (whose
    # questions are all different): what the embedder's threads do then shows beside execute.
    os.environ["MNEMO_QUERY_VECTOR_CACHE"] = "0"
    from bench import run as bench
    from bench.standalone import seeded_namespace

    env = bench.Env(Path(tempfile.mkdtemp(prefix="mnemo-sqlthreads-")))
    loadavg = [os.getloadavg()]
    try:
        _, token, namespace = seeded_namespace(args.memories)
        rng = random.Random(5)
        queries = [
            f"when did they {rng.choice(bench.VERBS)} the {rng.choice(bench.OBJECTS)}?" for _ in range(args.searches)
        ]
        port = bench.free_port()
        env.spawn(
            [bench.PY, "-m", "gunicorn", "-c", "config/gunicorn.py", "bench.web_sql_threads_app:application"],
            {
                "MNEMO_BIND": f"127.0.0.1:{port}",
                "MNEMO_WEB_WORKERS": "1",
                "MNEMO_SERVER_TIMING": "true",
                # as scripts/serve.py runs it (prometheus-client's multiprocess mode)
                "PROMETHEUS_MULTIPROC_DIR": tempfile.mkdtemp(prefix="mnemo-sqlthreads-metrics-"),
            },
            log=f"web-sql-threads-{port}",
        )
        bench.wait_port(port)
        bench.wait_ready(port)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}

        order = [(q, v) for j, q in enumerate(queries) for v in (("before", "after") if j % 2 else ("after", "before"))]
        found: dict[str, list[Any]] = {"before": [], "after": []}

        def ask(method: str, path: str, body: Any = None, variant: str = "after") -> bytes:
            conn.request(
                method,
                path,
                body=None if body is None else json.dumps(body),
                headers={**headers, "X-Probe-Variant": variant},
            )
            response = conn.getresponse()
            data = response.read()
            assert response.status == 200, (response.status, data[:300])
            return data

        for q, variant in order[:60]:  # warm: the prepared statement, the process's caches
            ask("POST", "/api/v1/memories/search", {"query": q, "namespace": namespace.key, "limit": 5}, variant)
        ask("GET", "/_probe")
        for q, variant in order:
            hits = ask("POST", "/api/v1/memories/search", {"query": q, "namespace": namespace.key, "limit": 5}, variant)
            found[variant].append([(h["id"], h["score"]) for h in json.loads(hits)["results"]])
        web = json.loads(ask("GET", "/_probe"))
        conn.close()
        loadavg.append(os.getloadavg())
        env.stop_all()

        import bench.web_sql_threads_app as probe
        from memories import selectors

        def search(q: str, variant: str) -> list[Any]:
            probe._variant["name"] = variant
            selectors._PreparedSearchCursor = probe._CURSORS[variant]  # type: ignore[misc]
            return selectors.search_memories(namespace_ids=[namespace.id], query=q, limit=5)

        for q, variant in order[:60]:
            search(q, variant)
        probe._samples.clear()
        for q, variant in order:
            search(q, variant)
        in_process = list(probe._samples)
        loadavg.append(os.getloadavg())
    finally:
        env.stop_all()
    result = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "label": args.label,
        "memories": args.memories,
        "searches": args.searches,
        "loadavg": loadavg,
        "same_hits_over_http": found["before"] == found["after"],
        "p50_ms": {
            where: {
                variant: summary([s for s in samples if s["variant"] == variant]) for variant in ("before", "after")
            }
            for where, samples in (("web", web), ("in_process", in_process))
        },
    }
    print(json.dumps(result, indent=1))
    RESULTS.mkdir(parents=True, exist_ok=True)
    out = RESULTS / f"{datetime.now(UTC).strftime('%Y-%m-%dT%H%M%S')}-threads.json"
    out.write_text(json.dumps(result, indent=1) + "\n")
    print(out)


if __name__ == "__main__":
    main()
