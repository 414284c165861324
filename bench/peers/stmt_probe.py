"""Where the search statement's time goes on the ``make bench-peers`` stack (issue 25): the
``make run`` stack (bench/peers/run.py's Stack: scripts/serve.py, its web workers, pool, embedded
PostgreSQL) loaded over HTTP with the first N conversations of bench/retrieval/conversations.json
(one namespace each, every turn through ``remember``, as the peers run stores them), then their
questions searched one at a time over HTTP, Mnemo only.

Per search: Server-Timing's ``search-sql``, and the PostgreSQL CPU and run-queue wait of every
backend connected to Mnemo's database during the request (/proc/<pid>/schedstat, as
bench/sql_wall.py reads its one backend), and the web workers' (all their threads). Interleaved
with each HTTP search, search by search (ABBA), the same search in a process of its own on the
same database (bench/peers/mnemo_side.py ``search-loop``: search_memories as the API calls it,
the backend's CPU during the ``search-sql`` interval alone, ``stmt_backend_cpu``): what the stack
adds to the statement, at the same moment on the same machine. ``--bench-corpus N`` adds a
namespace of N memories of bench/sql_wall.py's corpus, searched with its questions, alternating
with the conversations' own. ``--thrash-mb M`` adds a third way: HTTP after the client has read
M MB (about what Mem0's in-process search does between two of Mnemo's in the peers run), so the
CPU caches hold someone else's data when the statement starts.

``--log-probe N``: first N searches with ``log_min_duration_statement = 0`` (ALTER SYSTEM, then
reset): whether each search statement went to PostgreSQL prepared (``execute _pg3_...``) or as a
simple statement, and by which backend.

    .venv-peers/bin/python bench/peers/stmt_probe.py --conversations 4 --bench-corpus 460 --searches 150

Writes bench/results/sql-wall/<date>-stack.json.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT))

from bench.peers.run import DATA, K, Mnemo, Stack, questions_of, turn_text  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "sql-wall"
#: A search statement's execute in PostgreSQL's log, by backend (log_line_prefix '%m [%p] ').
PREPARED_BY_PID = r"\[(\d+)\] LOG:  duration: [0-9.]+ ms\s+execute _pg3_\d+: WITH"


def schedstat(pid: int, field: int = 0) -> int:
    """On-CPU ns (field 0) or run-queue wait ns (1) of a process's main thread so far."""
    try:
        with open(f"/proc/{pid}/schedstat") as f:
            return int(f.read().split()[field])
    except OSError:
        return 0


def web_workers(root: int) -> list[int]:
    """The gunicorn workers under the stack's supervisor (processes running config/gunicorn.py)."""
    import psutil

    found = []
    for proc in psutil.Process(root).children(recursive=True):
        try:
            parent = proc.parent()
            if "gunicorn" in " ".join(proc.cmdline()) and parent and "gunicorn" in " ".join(parent.cmdline()):
                found.append(proc.pid)
        except psutil.Error:
            continue
    return found


def tasks_stat(pids: list[int]) -> tuple[int, int]:
    """On-CPU and run-queue wait ns of every thread of the processes so far."""
    run = wait = 0
    for pid in pids:
        for task in Path(f"/proc/{pid}/task").glob("*"):
            try:
                r, w, _ = (task / "schedstat").read_text().split()
            except (OSError, ValueError):
                continue
            run, wait = run + int(r), wait + int(w)
    return run, wait


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--conversations", type=int, default=4)
    parser.add_argument("--searches", type=int, default=300)
    parser.add_argument("--log-probe", type=int, default=40)
    parser.add_argument("--thrash-mb", type=int, default=0)
    parser.add_argument(
        "--bench-corpus", type=int, default=0, help="also a namespace of this many bench-corpus memories (sql_wall's)"
    )
    parser.add_argument("--mnemo-python", default="/work/main/.venv/bin/python")
    parser.add_argument("--env", action="append", default=[], help="NAME=VALUE for the stack")
    args = parser.parse_args()
    import numpy as np
    import psycopg

    from bench.peers.run import peers_env

    data = json.loads(DATA.read_text())
    convs = [c["id"] for c in data["conversations"][: args.conversations]]
    keys = [f"agent:peers-{c}" for c in convs] + (["agent:peers-bench"] if args.bench_corpus else [])
    work = Path(tempfile.mkdtemp(prefix="mnemo-stmtprobe-"))
    env = {**peers_env(), **dict(e.split("=", 1) for e in args.env)}
    stack = Stack(args.mnemo_python, work, env=env)
    try:
        made = stack.side("setup", "--namespaces", ",".join(keys))
        mnemo = Mnemo(stack, made["token"])
        loaded = 0
        started = time.perf_counter()
        for conv in data["conversations"]:
            if conv["id"] not in convs:
                continue
            for session in conv["sessions"]:
                for turn in session["turns"]:
                    meta = {"dia_id": turn["id"], "date": session["date"], "speaker": turn["speaker"]}
                    loaded += mnemo.add(conv["id"], turn_text(turn), meta)
        if args.bench_corpus:  # sql_wall's corpus (bench.standalone.seeded_namespace's texts), through remember
            from bench.run import corpus

            for text in corpus(args.bench_corpus, seed=42):
                loaded += mnemo.add("bench", text, {})
        load_s = time.perf_counter() - started
        dsn = f"postgresql://postgres@/postgres?host={stack.socket_dir()}"
        with psycopg.connect(dsn, autocommit=True) as admin:
            dbs = [r[0] for r in admin.execute("SELECT datname FROM pg_database WHERE NOT datistemplate")]
        db = next(d for d in dbs if d != "postgres" and "broker" not in d) if len(dbs) > 1 else "postgres"
        mine = psycopg.connect(f"postgresql://postgres@/{db}?host={stack.socket_dir()}", autocommit=True)
        # Wait for autovacuum's ANALYZE of the loaded table (the peers run searches after it too:
        # its load, alternating with Mem0, takes over a minute).
        waited = time.perf_counter()
        while True:
            row = mine.execute(
                "SELECT last_autoanalyze, n_mod_since_analyze, n_live_tup FROM pg_stat_user_tables"
                " WHERE relname = 'memories_memory'"
            ).fetchone()
            if row and row[0] is not None and row[1] < 0.1 * max(row[2], 1) + 50:
                break
            if time.perf_counter() - waited > 90:
                break
            time.sleep(1)
        stats_row = mine.execute(
            "SELECT c.reltuples, s.n_distinct, s.most_common_freqs[1] FROM pg_class c JOIN pg_stats s"
            " ON s.tablename = c.relname AND s.attname = 'namespace_id' WHERE c.relname = 'memories_memory'"
        ).fetchone()
        mine_pid = mine.info.backend_pid

        def backends() -> list[int]:
            return [
                r[0]
                for r in mine.execute(
                    "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> %s"
                    " AND backend_type = 'client backend'",
                    [mine_pid],
                )
            ]

        workers = web_workers(stack.process.pid)

        def web_stat() -> tuple[int, int]:
            return tasks_stat(workers)

        questions = questions_of(data, convs)
        calls = [questions[i % len(questions)] for i in range(args.searches)]
        if args.bench_corpus:  # sql_wall's questions, alternating with the conversations' own
            import random

            from bench.run import OBJECTS, VERBS

            rng = random.Random(5)
            asked = [
                {"conversation": "bench", "question": f"when did they {rng.choice(VERBS)} the {rng.choice(OBJECTS)}?"}
                for _ in calls
            ]
            calls = [q for pair in zip(calls, asked, strict=True) for q in pair]
        thrash = np.ones(max(args.thrash_mb, 1) * 1024 * 1024 // 8)

        def one(q: dict[str, Any]) -> dict[str, Any]:
            pids = backends()
            before = {p: schedstat(p) for p in pids}
            w0 = web_stat()
            bw0 = sum(schedstat(p, 1) for p in pids)
            ok, hits = mnemo.search(q["conversation"], q["question"])
            w1 = web_stat()
            bw1 = sum(schedstat(p, 1) for p in pids)
            after = {p: schedstat(p) for p in pids}
            t = mnemo.client.server_timing
            used = {p: (after[p] - before[p]) / 1e6 for p in pids if after[p] - before[p] > 0}
            return {
                "ok": ok,
                "hits": hits,
                "search_sql": t.get("search-sql"),
                "embed": t.get("embed"),
                "total": t.get("total"),
                "backend_cpu": sum(used.values()),
                "backend_wait": (bw1 - bw0) / 1e6,
                "web_cpu": (w1[0] - w0[0]) / 1e6,
                "web_wait": (w1[1] - w0[1]) / 1e6,
                "backends_active": len(used),
                "backends": len(pids),
            }

        for q in calls[:20]:  # warm
            one(q)
        probe: list[dict[str, Any]] = []
        if args.log_probe:
            mine.execute("ALTER SYSTEM SET log_min_duration_statement = 0")
            mine.execute("ALTER SYSTEM SET log_line_prefix = '%m [%p] '")
            mine.execute("SELECT pg_reload_conf()")
            time.sleep(1)
            log_dir = mine.execute("SHOW log_directory").fetchone()[0]
            collector = mine.execute("SHOW logging_collector").fetchone()[0]
            for q in calls[: args.log_probe]:
                probe.append(one(q))
            mine.execute("ALTER SYSTEM RESET log_min_duration_statement")
            mine.execute("ALTER SYSTEM RESET log_line_prefix")
            mine.execute("SELECT pg_reload_conf()")
            texts = []
            for path in [stack.pgdata / "log", *stack.pgdata.glob(f"{log_dir}/*"), work / "serve.log"]:
                if path.is_file():
                    texts.append(path.read_text(errors="replace"))
            lines = "\n".join(texts)
            prepared = len(re.findall(r"execute _pg3_\d+: WITH", lines))
            simple = len(re.findall(r"statement: WITH", lines))
            parse = len(re.findall(r"parse _pg3_\d+: WITH", lines))
            durations = [float(m) for m in re.findall(r"duration: ([0-9.]+) ms\s+execute _pg3_\d+: WITH", lines)]
            log_summary = {
                "logging_collector": collector,
                "prepared_executes": prepared,
                "prepared_parses": parse,
                "simple_statements": simple,
                "execute_duration_p50_ms": round(statistics.median(durations), 3) if durations else None,
                "backend_pids": sorted({int(m) for m in re.findall(PREPARED_BY_PID, lines)}),
            }
        else:
            log_summary = {}
        rows: dict[str, list[dict[str, Any]]] = {}
        side = subprocess.Popen(
            [args.mnemo_python, "bench/peers/mnemo_side.py", "search-loop"],
            cwd=ROOT,
            env={**stack.env, "MNEMO_EMBEDDED_PG_PGDATA": str(stack.pgdata.resolve()), "PYTHONPATH": str(ROOT)},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert side.stdin is not None and side.stdout is not None

        def in_process(q: dict[str, Any]) -> dict[str, Any]:
            ask = {"namespace": f"agent:peers-{q['conversation']}", "query": q["question"], "limit": K}
            side.stdin.write(json.dumps(ask) + "\n")  # type: ignore[union-attr]
            side.stdin.flush()  # type: ignore[union-attr]
            return {"ok": True, **json.loads(side.stdout.readline())}  # type: ignore[union-attr]

        ways = ["back", "side"] + (["cold"] if args.thrash_mb else [])
        for q in calls[:20]:
            in_process(q)
        for j, q in enumerate(calls):
            for way in ways if j % 2 == 0 else ways[::-1]:
                if way == "cold":
                    float(thrash.sum())  # reads the whole array: the caches hold it, not PostgreSQL's data
                row = in_process(q) if way == "side" else one(q)
                corpus_name = "bench" if q["conversation"] == "bench" else "conversations"
                rows.setdefault(f"{way}_{corpus_name}" if args.bench_corpus else way, []).append(row)
        side.stdin.close()
        side.wait(30)
        summary: dict[str, Any] = {}
        for way, rs in rows.items():
            good = [r for r in rs if r["ok"] and r["search_sql"] is not None]
            if not good:
                continue
            summary[way] = {
                "n": len(good),
                **{
                    f"{k}_p50": round(statistics.median(r[k] for r in good), 3)
                    for k in sorted(good[0])
                    if isinstance(good[0][k], float)
                },
                "search_sql_p95": round(sorted(r["search_sql"] for r in good)[int(0.95 * len(good))], 3),
                "sql_minus_backend_p50": round(
                    statistics.median(r["search_sql"] - r.get("stmt_backend_cpu", r["backend_cpu"]) for r in good), 3
                ),
            }
        for suffix in ("_conversations", "_bench") if args.bench_corpus else ("",):
            http, side_ = rows[f"back{suffix}"], rows[f"side{suffix}"]
            summary[f"searches_with_other_hits{suffix}"] = sum(
                a["hits"] != b["hits"] for a, b in zip(http, side_, strict=False)
            )
            summary[f"ratio_search_sql_http_to_side{suffix}"] = round(
                summary[f"back{suffix}"]["search_sql_p50"] / summary[f"side{suffix}"]["search_sql_p50"], 2
            )
        result = {
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
            "conversations": convs,
            "memories_loaded": loaded,
            "load_s": round(load_s, 1),
            "waited_for_analyze_s": round(time.perf_counter() - waited, 1),
            "namespace_stats": stats_row,
            "env": env,
            "web_workers": len(workers),
            "loadavg": os.getloadavg(),
            "log_probe": log_summary,
            "probe_backend_cpu_p50": round(statistics.median(r["backend_cpu"] for r in probe), 3) if probe else None,
            "p50_ms": summary,
        }
        print(json.dumps(result, indent=1, default=str))
        RESULTS.mkdir(parents=True, exist_ok=True)
        out = RESULTS / f"{datetime.now(UTC).strftime('%Y-%m-%dT%H%M%S')}-stack.json"
        out.write_text(json.dumps(result, indent=1, default=str) + "\n")
        print(out)
        mine.close()
    finally:
        stack.stop()


if __name__ == "__main__":
    main()
