"""What one synchronous ``remember`` costs (issue 25): ms per call and the stack's CPU per call,
over HTTP on the `make run` stack, the code of a BASE commit ("before") and this checkout
("after") served side by side from one database, round after round, alternating.

One namespace of ``--memories`` memories (the bench corpus, embedded), both servers writing into
it: each round, each server stores ``--calls`` new texts one call at a time (concurrency 1,
dedup_policy "ask": the near-duplicate and supersede checks run on every call), in ABBA order
(the server that went second goes first next round). Per server and round: latency, the CPU of
the stack's own processes per call (the web servers, the data folder's PostgreSQL, this client:
bench/search_cpu.py's StackCPU) and Server-Timing's split (embedding, SQL, the rest).

    .venv/bin/python bench/remember_cost.py [--base 7c42427] [--rounds 5] [--calls 150]

Writes bench/results/remember/<date>.json.
"""

from __future__ import annotations

import argparse
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
RESULTS = ROOT / "bench" / "results" / "remember"
sys.path.insert(0, str(ROOT))

KEY = "bench:remember-cost"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", default="", help="a database folder (a new one by default)")
    parser.add_argument("--base", default="7c42427", help="the commit measured as 'before'")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--calls", type=int, default=150)
    parser.add_argument("--memories", type=int, default=500)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    os.environ["MNEMO_EMBEDDER_THREADS"] = "1"  # as in a web process (config/gunicorn.py)
    from bench import run as bench
    from bench.search_cpu import StackCPU, _gunicorn, old_checkout, timed_calls

    data_dir = Path(args.data_dir or tempfile.mkdtemp(prefix="mnemo-remember-cost-"))
    env = bench.Env(data_dir)
    from django.contrib.auth import get_user_model

    from memories.embedding import embed_texts
    from memories.models import Memory, Namespace

    owner, _ = get_user_model().objects.get_or_create(username="bench-remember-owner")
    namespace, created = Namespace.objects.get_or_create(key=KEY, defaults={"owner": owner})
    if created:
        texts = bench.corpus(args.memories, seed=42)
        Memory.objects.bulk_create(
            Memory(namespace=namespace, text=t, embedding=v, embedding_model="minilm", status="ready")
            for t, v in zip(texts, embed_texts(texts), strict=True)
        )
    token = env.token("bench-remember-cost")
    bench._grant(env, "bench-remember-cost", KEY)
    timing = {"MNEMO_SERVER_TIMING": "true"}
    servers = {
        "before": _gunicorn(env, old_checkout(args.base), args.workers, timing),
        "after": env.gunicorn(workers=args.workers, extra=timing),
    }
    rng = random.Random(17)
    counter = iter(range(10**9))

    def calls(n: int) -> list[tuple[str, str, Any]]:
        # New facts in the corpus's shape (so the nearest memories are close, as in real use), each
        # text unique: every call stores a row and reports its near-duplicates.
        return [
            (
                "POST",
                "/api/v1/memories/remember",
                {
                    "text": f"{rng.choice(bench.SUBJECTS)} {rng.choice(bench.VERBS)} {rng.choice(bench.OBJECTS)} "
                    f"(entry {next(counter)}).",
                    "namespace": KEY,
                    "dedup_policy": "ask",
                },
            )
            for _ in range(n)
        ]

    results: dict[str, Any] = {"machine": {**bench.machine(), "load_average_1m": os.getloadavg()[0]}}
    results["settings"] = {
        "base": args.base,
        "calls_per_round": args.calls,
        "rounds": args.rounds,
        "web_workers": args.workers,
        "namespace_size_start": bench._count(KEY),
    }
    stack = StackCPU(env, data_dir)
    for port in servers.values():  # unmeasured: connections, pages, the first model runs
        bench._timed_calls(port, token, calls(40), 1)
    rounds: dict[str, list[dict[str, Any]]] = {name: [] for name in servers}
    order = list(servers)
    for _ in range(args.rounds):
        for name in order:
            rounds[name].append(timed_calls(stack, servers[name], token, calls(args.calls), 1))
            print(name, json.dumps({k: rounds[name][-1][k] for k in ("p50_ms", "p95_ms", "errors", "stack_cpu")}))
        order.reverse()
    results["settings"]["namespace_size_end"] = bench._count(KEY)
    results["servers"] = {name: {"median": bench.median_summary(rs), "rounds": rs} for name, rs in rounds.items()}
    b, a = (results["servers"][n]["median"] for n in ("before", "after"))
    results["ratios"] = {
        "p50_before_over_after": round(b["p50_ms"] / a["p50_ms"], 3),
        "stack_cpu_before_over_after": round(b["stack_cpu"]["stack_ms"] / a["stack_cpu"]["stack_ms"], 3),
        "rounds_after_faster_p50": sum(
            1 for rb, ra in zip(rounds["before"], rounds["after"], strict=True) if ra["p50_ms"] < rb["p50_ms"]
        ),
        "rounds_after_less_cpu": sum(
            1
            for rb, ra in zip(rounds["before"], rounds["after"], strict=True)
            if ra["stack_cpu"]["stack_ms"] < rb["stack_cpu"]["stack_ms"]
        ),
    }
    results["machine"]["load_average_1m_after"] = os.getloadavg()[0]
    env.stop_all()
    RESULTS.mkdir(parents=True, exist_ok=True)
    out = RESULTS / f"{datetime.now(UTC).strftime('%Y-%m-%dT%H%M%S')}.json"
    out.write_text(json.dumps(results, indent=2) + "\n")
    for name, r in results["servers"].items():
        m = r["median"]
        st = m.get("server_timing", {})
        print(
            f"{name}: p50 {m['p50_ms']} ms p95 {m['p95_ms']} ms, stack CPU {m['stack_cpu']} ms/call, "
            f"embed {st.get('embed_p50_ms')} SQL {st.get('other_sql_p50_ms')} Django-other "
            f"{st.get('in_django_overhead_p50_ms')} ms, errors {statistics.fmean(x['errors'] for x in r['rounds'])}"
        )
    print(json.dumps(results["ratios"]))
    print(f"results: {out}")


if __name__ == "__main__":
    main()
