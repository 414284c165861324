"""The peers bench's helper on Mnemo's side, run with Mnemo's own Python (bench/peers/run.py runs
in .venv-peers, which has no Django): it attaches to the running ``make run`` stack's embedded
PostgreSQL (as the stack's children do) and answers with one JSON line.

    python bench/peers/mnemo_side.py setup --namespaces agent:peers-c0,agent:peers-c1
        a user with an API token and write access to each namespace: {"token": ..., "namespaces": {...}}
    python bench/peers/mnemo_side.py search-loop < one JSON search per line
        each search in this process on the stack's database, one JSON line back (bench/peers/stmt_probe.py)
    python bench/peers/mnemo_side.py embed-cpu < queries.json
        the query embedding's CPU in this process, one thread, as the web process embeds a query:
        back to back, and each after a pause
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent
#: The pause before each embedding of the second measurement (about what comes between two of
#: Mnemo's searches at concurrency 1 in the peers run).
PAUSE_S = 0.02


def setup_django() -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    os.environ.setdefault("MNEMO_EMBEDDER_THREADS", "1")  # as gunicorn's web processes embed (config/gunicorn.py)
    import django

    django.setup()


def setup(namespaces: list[str]) -> dict:
    from django.contrib.auth import get_user_model
    from guardian.shortcuts import assign_perm

    from core.tokens import issue_token
    from memories.models import Namespace

    user, _ = get_user_model().objects.get_or_create(username="bench-peers")
    made = {}
    for key in namespaces:
        ns, _ = Namespace.objects.get_or_create(key=key, defaults={"kind": "agent"})
        assign_perm("view_namespace", user, ns)
        assign_perm("write_namespace", user, ns)
        made[key] = ns.id
    return {"token": issue_token(user=user, name=f"peers-{time.time_ns()}").key, "namespaces": made}


def embed_cpu(queries: list[str]) -> dict:
    """Each query embedded alone (search's ``embedding_text`` of a one-namespace search), its CPU
    time on this thread: what one search's embedding costs the machine.

    Twice: back to back (``cpu_p50_ms``), and each after a pause of ``PAUSE_S`` (``*_after_pause``),
    as a served search's embedding comes, with the search's statement, Django, the client and Mem0's
    search between two. Back to back the model's data (86 MiB of float32 once onnxruntime has folded
    the file's int8 weights, 40 MiB of them read by every query) is still in the caches; after a
    pause it is not, and the same embedding costs 1.2 to 1.9 times the CPU (bench/embed_gap.py,
    bench/NOTES.md 2026-11-26)."""
    from memories.embedding import embed_texts

    embed_texts(queries[:8])  # load and warm up
    cpu: dict[str, list[float]] = {"": [], "_after_pause": []}
    wall: dict[str, list[float]] = {"": [], "_after_pause": []}
    # In blocks of 20 queries, the two ways in turn (ABBA), so a change in the machine's load
    # falls on both alike; within a block, back to back is back to back.
    for b, start in enumerate(range(0, len(queries), 20)):
        for suffix in ("", "_after_pause") if b % 2 == 0 else ("_after_pause", ""):
            for query in queries[start : start + 20]:
                if suffix:
                    time.sleep(PAUSE_S)
                c0, w0 = time.thread_time(), time.perf_counter()
                embed_texts([query])
                cpu[suffix].append((time.thread_time() - c0) * 1000)
                wall[suffix].append((time.perf_counter() - w0) * 1000)
    out: dict = {"n": len(queries), "pause_ms": PAUSE_S * 1000}
    for suffix in cpu:
        c, w = sorted(cpu[suffix]), sorted(wall[suffix])
        out |= {
            f"cpu_p50_ms{suffix}": round(c[len(c) // 2], 2),
            f"cpu_mean_ms{suffix}": round(sum(c) / len(c), 2),
            f"wall_p50_ms{suffix}": round(w[len(w) // 2], 2),
        }
    return out


def search_loop() -> None:
    """One JSON line per search on stdin ({"namespace": key, "query": ...}), one JSON line back:
    search_memories in this process on the stack's database (bench/peers/stmt_probe.py), with
    Server-Timing's ``search-sql`` interval and this connection's backend CPU and run-queue wait
    during that interval only, and during the whole search (the common-words recount included)."""
    import threading

    from django.conf import settings
    from django.db import connection

    import memories.selectors as selectors
    from memories.models import Namespace

    ids = {ns.key: ns.id for ns in Namespace.objects.all()}
    interval: dict[str, float] = {}
    real_cursor, real_add = selectors._search_cursor, selectors.add_timing

    def stat(path: str) -> tuple[int, int]:
        with open(path) as f:
            run, wait, _ = f.read().split()
        return int(run), int(wait)

    def backend() -> str:
        connection.ensure_connection()
        return f"/proc/{connection.connection.info.backend_pid}/schedstat"

    def cursor(*a: Any, **kw: Any) -> Any:
        interval["b0"], interval["w0"] = stat(backend())
        return real_cursor(*a, **kw)

    def add_timing(phase: str, seconds: float) -> None:
        if phase == "search-sql":
            interval["b1"], interval["w1"] = stat(backend())
            interval["sql"] = seconds
        real_add(phase, seconds)

    selectors._search_cursor, selectors.add_timing = cursor, add_timing
    me = f"/proc/self/task/{threading.get_native_id()}/schedstat"
    for line in sys.stdin:
        ask = json.loads(line)
        s0, m0 = stat(backend()), stat(me)
        hits = selectors.search_memories(  # as the search API calls it (memories.operations.search)
            namespace_ids=[ids[ask["namespace"]]],
            query=ask["query"],
            limit=ask["limit"],
            min_score=selectors.min_score_or_default(None),
            answerable_check=settings.MNEMO_ANSWERABLE_CHECK,
        )
        s1, m1 = stat(backend()), stat(me)
        out = {
            "search_sql": interval["sql"] * 1000,
            "stmt_backend_cpu": (interval["b1"] - interval["b0"]) / 1e6,
            "stmt_backend_wait": (interval["w1"] - interval["w0"]) / 1e6,
            "backend_cpu": (s1[0] - s0[0]) / 1e6,
            "client_wait": (m1[1] - m0[1]) / 1e6,
            "hits": [h.memory.metadata.get("dia_id", "") for h in hits],
        }
        print(json.dumps(out), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=["setup", "embed-cpu", "search-loop"])
    parser.add_argument("--namespaces", default="")
    args = parser.parse_args()
    setup_django()
    if args.command == "search-loop":
        search_loop()
        return
    if args.command == "setup":
        result = setup([k for k in args.namespaces.split(",") if k])
    else:
        result = embed_cpu(json.load(sys.stdin))
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
