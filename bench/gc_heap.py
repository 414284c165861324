"""The cyclic garbage collector in the web workers (issue 25): config/heap.py's freeze, against
CPython's collector as it comes, on the ``make run`` stack.

Each arm starts the stack as bench/peers starts it (scripts/serve.py, 4 gunicorn workers, the
Celery worker, the query-vector cache off) with the arm's environment, stores the first
``--conversations`` conversations of bench/peers' data turn by turn through ``remember``, waits
for autovacuum's ANALYZE, then:

- *c1*: every question of those conversations searched twice, one at a time (hybrid, top 10),
  each request's wall time; the web workers' CPU (psutil, every gunicorn worker) per search;
- *c8*: every question three times from 8 client threads; requests per second and web CPU per
  search;
- *remember*: the web workers' CPU per ``remember`` during the load.

Arms alternate (ABC, CBA, ...), a fresh stack each; medians over rounds. The machine is shared:
compare arms within a run, not across runs.

    .venv/bin/python bench/gc_heap.py [--arms default,freeze] [--rounds 4] [--conversations 2]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.peers import run as peers  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "gc-heap"
ARMS: dict[str, dict[str, str]] = {
    "default": {"MNEMO_GC_FREEZE": "false"},
    "freeze": {"MNEMO_GC_FREEZE": "true"},
    "freeze+t20k": {"MNEMO_GC_FREEZE": "true", "MNEMO_GC_THRESHOLD0": "20000"},
}


def web_cpu_s(stack: peers.Stack) -> float:
    """CPU seconds of the stack's gunicorn workers (not the arbiter, which has children)."""
    import psutil

    total = 0.0
    for proc in psutil.Process(stack.process.pid).children(recursive=True):
        if "gunicorn" in " ".join(proc.cmdline()) and not proc.children():
            times = proc.cpu_times()
            total += times.user + times.system
    return total


def one_arm(arm: str, data: dict[str, Any], convs: list[str], python: str) -> dict[str, float]:
    questions = peers.questions_of(data, convs)
    stack = peers.Stack(python, Path(tempfile.mkdtemp(prefix="mnemo-gc-heap-")), env={**peers.peers_env(), **ARMS[arm]})
    try:
        setup = stack.side("setup", "--namespaces", ",".join(f"agent:peers-{c}" for c in convs))
        mnemo = peers.Mnemo(stack, setup["token"])
        before, stored = web_cpu_s(stack), 0
        for conv in data["conversations"]:
            if conv["id"] in convs:
                for session in conv["sessions"]:
                    for turn in session["turns"]:
                        stored += mnemo.add(conv["id"], peers.turn_text(turn), {"dia_id": turn["id"]})
        remember_cpu = (web_cpu_s(stack) - before) * 1000 / stored
        time.sleep(6)  # autovacuum's ANALYZE of the new rows (the embedded server looks every 5 s)
        ms: list[float] = []
        before = web_cpu_s(stack)
        for q in questions * 2:
            started = time.perf_counter()
            ok, _ = mnemo.search(q["conversation"], q["question"])
            assert ok, "a search failed"
            ms.append((time.perf_counter() - started) * 1000)
        c1_cpu = (web_cpu_s(stack) - before) * 1000 / len(ms)
        calls = questions * 3
        before, started = web_cpu_s(stack), time.perf_counter()
        with ThreadPoolExecutor(8) as pool:
            oks = list(pool.map(lambda q: mnemo.search(q["conversation"], q["question"])[0], calls))
        rate = len(calls) / (time.perf_counter() - started)
        assert all(oks), "a search failed"
        c8_cpu = (web_cpu_s(stack) - before) * 1000 / len(calls)
    finally:
        stack.stop()
    return {
        "remember_web_cpu_ms": round(remember_cpu, 3),
        "c1_web_cpu_ms": round(c1_cpu, 3),
        "c1_p50_ms": round(peers.percentile(ms, 50), 2),
        "c1_p95_ms": round(peers.percentile(ms, 95), 2),
        "c1_p99_ms": round(peers.percentile(ms, 99), 2),
        "c8_per_s": round(rate, 1),
        "c8_web_cpu_ms": round(c8_cpu, 3),
        "load_average": round(os.getloadavg()[0], 2),
    }


def machine() -> dict[str, Any]:
    """The CPU, the commit and the load: what a reader needs to place the numbers."""
    import subprocess

    lines = Path("/proc/cpuinfo").read_text().splitlines()
    model = next((line.split(":", 1)[1].strip() for line in lines if line.startswith("model name")), "")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout
    return {"cpu_model": model, "cpus": os.cpu_count(), "commit": commit.strip(), "load_average": os.getloadavg()[0]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--arms", default="default,freeze")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--conversations", type=int, default=2)
    parser.add_argument("--mnemo-python", default=str(ROOT / ".venv" / "bin" / "python"))
    parser.add_argument("--output")
    args = parser.parse_args()
    arms = args.arms.split(",")
    unknown = set(arms) - set(ARMS)
    if unknown:
        parser.error(f"unknown arms: {', '.join(sorted(unknown))} (known: {', '.join(ARMS)})")
    data = json.loads(peers.DATA.read_text())
    convs = [c["id"] for c in data["conversations"]][: args.conversations]
    runs: dict[str, list[dict[str, float]]] = {arm: [] for arm in arms}
    for r in range(args.rounds):
        for arm in arms if r % 2 == 0 else arms[::-1]:
            row = one_arm(arm, data, convs, args.mnemo_python)
            runs[arm].append(row)
            print(json.dumps({"round": r, "arm": arm, **row}), flush=True)
    medians = {
        arm: {k: round(statistics.median(row[k] for row in rows), 3) for k in rows[0]} for arm, rows in runs.items()
    }
    first = arms[0]
    ratios = {
        arm: {k: round(medians[arm][k] / medians[first][k], 3) for k in medians[arm] if medians[first][k]}
        for arm in arms[1:]
    }
    out = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "conversations": convs,
        "arms": {arm: ARMS[arm] for arm in arms},
        "medians": medians,
        f"ratio_to_{first}": ratios,
        "runs": runs,
    }
    print(json.dumps({"medians": medians, f"ratio_to_{first}": ratios}, indent=1))
    path = Path(args.output) if args.output else RESULTS / f"{out['date'][:19].replace(':', '')}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=2) + "\n")
    print(f"results: {path}")


if __name__ == "__main__":
    main()
