"""Search CPU per request against its query embedding (issue 25), over HTTP on the `make run`
stack, at the retrieval benchmark's namespaces (one conversation each: 400 to 530 memories).

Servers of the same data, measured in one run, round after round, alternating: the code of a
BASE commit (a git worktree of it: "before") and this checkout, with the query-vector cache off
(every search embeds its query: the statement's and Django's changes alone) and on (the
benchmark's questions come again in every round, as an agent asks again: the repeated-query
path). Each round: concurrency 1 then 8 for every server. Per request: latency, the machine's
busy CPU (bench/run.py's accounting: all processes, the client's threads included and shown
apart), Server-Timing's split. Beside it, the query embedding's own CPU in this process (one
thread, as in a web process) on the same questions, and a burst at 32 clients for errors.

    .venv/bin/python bench/search_cpu.py --data-dir /tmp/mnemo-retrieval [--base 414824c] [--rounds 3]

Writes bench/results/search-cpu/<date>.json; bench/report.py renders the newest one.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "search-cpu"
sys.path.insert(0, str(ROOT))


def embedding_cpu(questions: list[str]) -> dict[str, float]:
    """The query embedding alone, one model run per query on one thread: CPU and wall per query."""
    from memories.embedding import embed_texts

    embed_texts(questions[:5])
    cpu, wall = [], []
    for q in questions:
        c, w = time.process_time(), time.perf_counter()
        embed_texts([q])
        cpu.append((time.process_time() - c) * 1000)
        wall.append((time.perf_counter() - w) * 1000)
    return {
        "cpu_mean_ms": round(statistics.fmean(cpu), 2),
        "cpu_p50_ms": round(statistics.median(cpu), 2),
        "wall_p50_ms": round(statistics.median(wall), 2),
    }


class StackCPU:
    """CPU used by this stack's own processes: the web servers (every gunicorn process of the
    run), PostgreSQL (the postmaster of the data folder and its children) and this client. The
    machine is shared with other work, so its busy time (bench/run.py's accounting) counts that
    work too; these processes are all that serve a search here."""

    def __init__(self, env: Any, data_dir: Path) -> None:
        self.env, self.data_dir = env, str(data_dir)

    def _processes(self) -> dict[str, list[Any]]:
        import psutil

        groups: dict[str, list[Any]] = {"web": [], "postgres": [], "client": [psutil.Process()]}
        for popen in self.env.processes:
            try:
                root = psutil.Process(popen.pid)
                groups["web"] += [root, *root.children(recursive=True)]
            except psutil.Error:
                pass
        for p in psutil.process_iter(["name", "cmdline"]):
            try:
                if p.info["name"] == "postgres" and self.data_dir in " ".join(p.info["cmdline"] or []):
                    groups["postgres"] += [p, *p.children(recursive=True)]
            except psutil.Error:
                pass
        return groups

    def snapshot(self) -> dict[str, dict[int, float]]:
        import psutil

        out: dict[str, dict[int, float]] = {}
        for group, processes in self._processes().items():
            out[group] = {}
            for p in processes:
                try:
                    t = p.cpu_times()
                    out[group][p.pid] = t.user + t.system
                except psutil.Error:
                    pass
        return out

    @staticmethod
    def per_request(before: dict, after: dict, requests: int) -> dict[str, float]:
        spent = {
            group: sum(cpu - before.get(group, {}).get(pid, cpu) for pid, cpu in after[group].items())
            for group in after
        }
        result = {f"{group}_ms": round(value * 1000 / requests, 2) for group, value in spent.items()}
        result["stack_ms"] = round(sum(spent.values()) * 1000 / requests, 2)
        return result


def timed_calls(stack: StackCPU, port: int, token: str, calls: list, concurrency: int) -> dict[str, Any]:
    """bench/run.py's timed calls, with the stack's own CPU per request beside the machine's."""
    from bench import run as bench

    before = stack.snapshot()
    summary = bench._timed_calls(port, token, calls, concurrency)
    summary["stack_cpu"] = StackCPU.per_request(before, stack.snapshot(), len(calls) + 5)  # + its 5 warm calls
    return summary


def old_checkout(base: str) -> Path:
    """The files of commit ``base`` (``git archive``, made once), to serve "before" from."""
    path = Path(os.environ.get("TMPDIR", "/tmp")) / f"mnemo-search-cpu-{base}"
    if not path.exists():
        path.mkdir(parents=True)
        archive = subprocess.run(["git", "archive", base], cwd=ROOT, check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(path)], input=archive, check=True)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", required=True, help="the retrieval benchmark's database folder (loaded first)")
    parser.add_argument("--base", default="414824c", help="the commit measured as 'before'")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    os.environ["MNEMO_EMBEDDER_THREADS"] = "1"  # as in a web process (config/gunicorn.py)
    from bench import run as bench
    from bench.retrieval import harness

    env = bench.Env(Path(args.data_dir))
    data = harness.dataset()
    harness.load(data, progress=True)
    token = env.token("bench-search-cpu")
    keys = [harness.NAMESPACE_PREFIX + c["id"] for c in data["conversations"]]
    for key in keys:
        bench._grant(env, "bench-search-cpu", key)
    rng = random.Random(11)
    questions = rng.sample(data["questions"], args.requests)
    calls = [
        (
            "POST",
            "/api/v1/memories/search",
            {"query": q["question"], "namespace": harness.NAMESPACE_PREFIX + q["conversation"], "limit": 10},
        )
        for q in questions
    ]
    keyword_calls = [(m, p, {**body, "mode": "keyword"}) for m, p, body in calls]
    old = old_checkout(args.base)
    timing = {"MNEMO_SERVER_TIMING": "true"}
    servers: dict[str, tuple[int, list]] = {}
    # A base that has the query-vector cache itself is served both ways, like this checkout: its
    # "before" is then its cache-off server (each search embeds), beside its cache-on one.
    base_has_cache = "MNEMO_QUERY_VECTOR_CACHE" in (old / "memories" / "selectors.py").read_text()
    servers["before"] = (
        _gunicorn(env, old, args.workers, {**timing, "MNEMO_QUERY_VECTOR_CACHE": "0"} if base_has_cache else timing),
        calls,
    )
    if base_has_cache:
        servers["before, repeated queries (cache on)"] = (_gunicorn(env, old, args.workers, timing), calls)
    servers["after, query cache off"] = (
        env.gunicorn(workers=args.workers, extra={**timing, "MNEMO_QUERY_VECTOR_CACHE": "0"}),
        calls,
    )
    after = env.gunicorn(workers=args.workers, extra=timing)
    servers["after, repeated queries (cache on)"] = (after, calls)
    servers["after, keyword mode (no embedding)"] = (after, keyword_calls)
    servers["before, keyword mode (no embedding)"] = (servers["before"][0], keyword_calls)
    if base_has_cache:  # the order the table reads best in: each "after" below its "before"
        order = ["before", "after, query cache off", "before, repeated queries (cache on)"]
        order += ["after, repeated queries (cache on)", "before, keyword mode (no embedding)"]
        servers = {name: servers[name] for name in [*order, *(n for n in servers if n not in order)]}
    results: dict[str, Any] = {"machine": {**bench.machine(), "load_average_1m": os.getloadavg()[0]}}
    results["settings"] = {
        "base": args.base,
        "requests": args.requests,
        "rounds": args.rounds,
        "web_workers": args.workers,
        "namespaces": {k: bench._count(k) for k in keys},
    }
    stack = StackCPU(env, Path(args.data_dir))
    # The unmeasured passes: connections, pages, and the query cache's entries (each web worker
    # has its own: several passes, so that every worker has seen most questions).
    for _ in range(4):
        for port, c in servers.values():
            bench._timed_calls(port, token, c, 8)
    results["embedding"] = embedding_cpu([q["question"] for q in questions])
    rounds: dict[str, list[dict[str, Any]]] = {name: [] for name in servers}
    for _ in range(args.rounds):
        for name, (port, c) in servers.items():
            rounds[name].append(
                {
                    "concurrency_1": timed_calls(stack, port, token, c, 1),
                    "concurrency_8": timed_calls(stack, port, token, c, 8),
                }
            )
    results["embedding_after"] = embedding_cpu([q["question"] for q in questions])
    results["servers"] = {
        name: {
            "concurrency_1": bench.median_summary([r["concurrency_1"] for r in rs]),
            "concurrency_8": bench.median_summary([r["concurrency_8"] for r in rs]),
            "rounds": rs,
        }
        for name, rs in rounds.items()
    }
    burst = calls * 2
    results["burst_32_clients"] = {
        name: timed_calls(stack, port, token, burst, 32)
        for name, (port, _) in servers.items()
        if name in ("before", "after, repeated queries (cache on)", "after, query cache off")
        or name == "before, repeated queries (cache on)"
    }
    results["machine"]["load_average_1m_after"] = os.getloadavg()[0]
    env.stop_all()
    RESULTS.mkdir(parents=True, exist_ok=True)
    out = RESULTS / f"{datetime.now(UTC).strftime('%Y-%m-%dT%H%M%S')}.json"
    out.write_text(json.dumps(results, indent=2) + "\n")
    print("\n".join(render_section(results)))
    print(f"results: {out}")


def _gunicorn(env: Any, checkout: Path, workers: int, extra: dict[str, str]) -> int:
    """The web server of another checkout, as ``make run`` starts it, on the same database."""
    from bench.run import PY, free_port, wait_port, wait_ready

    port = free_port()
    env.spawn(
        [PY, "-m", "gunicorn", "-c", "config/gunicorn.py", "config.asgi:application"],
        {"MNEMO_BIND": f"127.0.0.1:{port}", "MNEMO_WEB_WORKERS": str(workers), "PYTHONPATH": str(checkout), **extra},
        log=f"gunicorn-{port}",
        cwd=checkout,
    )
    wait_port(port)
    wait_ready(port)
    return port


def render_section(results: dict[str, Any]) -> list[str]:
    """The "Search CPU per request (issue 25)" section of docs/benchmarks.md."""
    m, s, e = results["machine"], results["settings"], results["embedding"]
    embed_cpu = statistics.fmean([e["cpu_mean_ms"], results.get("embedding_after", e)["cpu_mean_ms"]])
    sizes = sorted(s["namespaces"].values())
    lines = [
        "## Search CPU per request against its query embedding (issue 25)",
        "",
        f"Measured by `bench/search_cpu.py` (commit {m['commit']} against {s['base']}, {m['date']}; {m['cpus']} cores, "
        f"load average {m['load_average_1m']:.1f} before and {m['load_average_1m_after']:.1f} after: the machine "
        "is shared, compare within this table only). Over HTTP through the `make run` stack "
        f"({s['web_workers']} web workers each), the retrieval benchmark's {len(sizes)} namespaces "
        f"({sizes[0]} to {sizes[-1]} memories), {s['requests']} of its questions (hybrid, limit 10), "
        f"{s['rounds']} rounds alternating the servers, medians of the rounds. CPU per search: the CPU of the "
        "stack's own processes (the web servers, PostgreSQL, the client: their shares in brackets; the machine's "
        "busy time counts other people's work on this shared machine). The query embedding alone: "
        f"{embed_cpu:.2f} ms of CPU per query (one thread, mean of the two measurements around the rounds; "
        f"wall p50 {e['wall_p50_ms']} ms).",
        "",
        "| server | c1 p50 / p95 ms | c1 p50 − embedding | CPU per search c1 (web / PostgreSQL / client) | "
        "CPU − embedding | c8 req/s | c8 CPU per search | embed / SQL / other p50 ms (Server-Timing) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, r in results["servers"].items():
        c1, c8 = r["concurrency_1"], r["concurrency_8"]
        sc = c1["stack_cpu"]
        cpu = sc["stack_ms"]
        st = c1.get("server_timing", {})
        lines.append(
            f"| {name} | {c1['p50_ms']} / {c1['p95_ms']} | {c1['p50_ms'] - embed_cpu:.1f} | "
            f"{cpu} ({sc['web_ms']} / {sc['postgres_ms']} / {sc['client_ms']}) | {cpu - embed_cpu:.1f} | "
            f"{c8['requests_per_s']} | {c8['stack_cpu']['stack_ms']} | "
            f"{st.get('embed_p50_ms', '—')} / {st.get('search_sql_p50_ms', '—')} / {st.get('overhead_p50_ms', '—')} |"
        )
    burst = results.get("burst_32_clients", {})
    if burst:
        lines += [
            "",
            "Bursts at 32 clients (every question twice): "
            + "; ".join(f"{name}: {b['errors']} errors, p95 {b['p95_ms']} ms" for name, b in burst.items())
            + ".",
        ]
    lines.append("")
    return lines


def newest_section() -> list[str]:
    """The section for the newest results, or nothing when there are none."""
    from bench.report import newest_results_section

    return newest_results_section(RESULTS, render_section)


if __name__ == "__main__":
    main()
