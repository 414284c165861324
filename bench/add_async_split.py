"""Where async ``add_memory``'s machine CPU goes, per process (issue 25), on the ``make run`` stack
the way bench/peers/run.py's ``add_async`` measures it: one conversation's turns POSTed to
/api/v1/memories (202, queued) by ``--threads`` client threads, then the database polled every
50 ms until none is queued; the CPU of every process before and after (psutil), per memory:

- ``web``: the gunicorn workers (and their arbiter); ``worker``: the Celery worker (and its beat);
- PostgreSQL backends by who holds the connection (``PGAPPNAME`` given to each child by
  scripts/serve.py: mnemo-web / mnemo-worker) and by database (Mnemo's or the broker's), the
  bench's own poll (``bench-client``) and PostgreSQL's background processes;
- ``client``: this process (the HTTP threads and the poll).

Arms (``--arm name=folder``, a checkout of Mnemo each, e.g. a ``git worktree`` of the commit
before) run one after the other in ABBA order, each on a stack of its own started for the run
and stopped after it, so the arms never share the machine.

    .venv/bin/python bench/add_async_split.py --runs 2
    .venv/bin/python bench/add_async_split.py --arm before=/tmp/base --arm after=. --runs 4
    .venv/bin/python bench/add_async_split.py --no-warm-up --runs 2   # a just-started stack
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.peers.run import Stack  # noqa: E402

DATA = ROOT / "bench" / "retrieval" / "conversations.json"
RESULTS = ROOT / "bench" / "results" / "add-async"


def dsn(stack: Stack, database: str = "mnemo") -> str:
    """The stack's embedded PostgreSQL, as this bench's client (application_name bench-client)."""
    return f"postgresql://postgres@/{database}?host={stack.socket_dir()}&application_name=bench-client"


def processes(stack: Stack, db: Any) -> dict[str, dict[tuple[int, float], float]]:
    """CPU seconds so far of every process, grouped by role (see the module's docstring)."""
    import psutil

    roles: dict[str, dict[tuple[int, float], float]] = {}

    def put(role: str, proc: Any) -> None:
        try:
            times = proc.cpu_times()
            roles.setdefault(role, {})[(proc.pid, proc.create_time())] = times.user + times.system
        except psutil.Error:
            pass

    put("client", psutil.Process())
    for proc in [psutil.Process(stack.process.pid), *psutil.Process(stack.process.pid).children(recursive=True)]:
        try:
            line = " ".join(proc.cmdline())
        except psutil.Error:
            continue
        if "celery" in line:
            put("worker", proc)
        elif "gunicorn" in line or "mnemo-web" in line:
            put("web", proc)
        elif "postgres" in line:
            continue
        else:
            put("supervisor", proc)
    backends = {
        pid: (app or "", datname or "", kind)
        for pid, app, datname, kind in db.execute(
            "SELECT pid, application_name, datname, backend_type FROM pg_stat_activity"
        ).fetchall()
    }
    postmaster = int((stack.pgdata / "postmaster.pid").read_text().split()[0])
    for proc in [psutil.Process(postmaster), *psutil.Process(postmaster).children()]:
        app, datname, kind = backends.get(proc.pid, ("", "", "other"))
        if kind != "client backend":
            role = "pg background"
        elif app.startswith("bench-client"):
            role = "pg client poll"
        else:
            who = app.removeprefix("mnemo-") or "unnamed"
            role = f"pg {who} {'broker' if datname.endswith('broker') else 'mnemo'}"
        put(role, proc)
    return roles


def spent(before: dict[str, dict], after: dict[str, dict], memories: int) -> dict[str, float]:
    """Milliseconds of CPU per memory by role (a process that ended in between is missed)."""
    out = {}
    for role, procs in after.items():
        cpu = sum(v - before.get(role, {}).get(k, 0.0) for k, v in procs.items())
        out[role] = round(cpu * 1000 / memories, 3)
    out["total"] = round(sum(out.values()), 3)
    return out


def machine_busy() -> float:
    import psutil

    t = psutil.cpu_times()
    return t.user + t.nice + t.system + t.irq + t.softirq


def spy(stack: Stack, binary: str, folder: Path) -> list[subprocess.Popen]:
    """py-spy (``--py-spy``) on every web worker and the Celery worker, raw stacks, until stopped."""
    import psutil

    spies = []
    for proc in psutil.Process(stack.process.pid).children(recursive=True):
        line = " ".join(proc.cmdline())
        if ("gunicorn" in line and proc.parent().pid != stack.process.pid) or ("celery" in line and "worker" in line):
            role = "worker" if "celery" in line else "web"
            out = folder / f"{role}-{proc.pid}.txt"
            spies.append(
                subprocess.Popen(
                    [
                        binary,
                        "record",
                        "-p",
                        str(proc.pid),
                        "-r",
                        "200",
                        "-f",
                        "raw",
                        "-o",
                        str(out),
                        "--nonblocking",
                        "--gil",
                    ],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
    time.sleep(1.0)
    return spies


def one_run(
    stack: Stack, token: str, key: str, items: list[tuple[str, dict]], threads: int, spies: Any = None
) -> dict[str, Any]:
    import psycopg

    local = threading.local()

    def post(item: tuple[str, dict]) -> bool:
        if not hasattr(local, "conn"):
            local.conn = http.client.HTTPConnection("127.0.0.1", stack.port, timeout=60)
        body = json.dumps({"content": item[0], "namespace": key, "metadata": item[1]})
        local.conn.request(
            "POST",
            "/api/v1/memories",
            body=body,
            headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
        )
        response = local.conn.getresponse()
        response.read()
        return response.status == 202

    def messages() -> int:
        """Messages ever put on the broker's table (its id sequence): the tasks the web published."""
        with psycopg.connect(dsn(stack, "mnemo_broker"), autocommit=True) as broker:
            return broker.execute("SELECT last_value FROM message_id_sequence").fetchone()[0]

    with psycopg.connect(dsn(stack), autocommit=True) as db:
        messages0 = messages()
        ns_id = db.execute("SELECT id FROM memories_namespace WHERE key = %s", [key]).fetchone()[0]
        before, busy0 = processes(stack, db), machine_busy()
        started = time.perf_counter()
        with ThreadPoolExecutor(threads) as pool:
            errors = sum(not ok for ok in pool.map(post, items))
        posted = time.perf_counter()
        while db.execute(
            "SELECT EXISTS (SELECT 1 FROM memories_memory WHERE namespace_id = %s AND status = 'queued')", [ns_id]
        ).fetchone()[0]:
            if time.perf_counter() > posted + 600:
                break
            time.sleep(0.05)
        finished = time.perf_counter()
        after, busy1 = processes(stack, db), machine_busy()
        for proc in spies or []:
            proc.send_signal(signal.SIGINT)
            proc.wait(30)
        published = messages() - messages0
        ready = db.execute(
            "SELECT count(*) FROM memories_memory WHERE namespace_id = %s AND status = 'ready'", [ns_id]
        ).fetchone()[0]
    n = len(items)
    return {
        "memories": n,
        "ready": ready,
        "errors": errors,
        "post_s": round(posted - started, 3),
        "total_s": round(finished - started, 3),
        "per_s": round(ready / (finished - started), 1),
        "messages": published,
        "machine_busy_ms_per_memory": round((busy1 - busy0) * 1000 / n, 3),
        "cpu_ms_per_memory": spent(before, after, n),
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--arm", action="append", default=[], help="name=folder (default: this checkout)")
    parser.add_argument("--runs", type=int, default=2, help="runs per arm (ABBA order over the arms)")
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--conversation", type=int, default=-1, help="which conversation (bench-peers: the last)")
    parser.add_argument(
        "--no-warm-up",
        action="store_true",
        help="time the stack's first memories (no 64-memory run before): what a just-started worker does",
    )
    parser.add_argument("--json")
    parser.add_argument("--py-spy", help="a py-spy binary: profile the web and worker processes (raw stacks)")
    args = parser.parse_args(argv)
    arms = dict(a.split("=", 1) for a in args.arm) or {"this": str(ROOT)}
    data = json.loads(DATA.read_text())
    conv = data["conversations"][args.conversation]
    items = [
        (f"{t['speaker']}: {t['text']}", {"dia_id": t["id"], "date": s["date"], "speaker": t["speaker"]})
        for s in conv["sessions"]
        for t in s["turns"]
    ]
    names = list(arms)
    order = [names[i % len(names)] for i in range(args.runs * len(names))]
    if len(names) == 2:  # ABBA ABBA ...
        order = [names[0] if i % 4 in (0, 3) else names[1] for i in range(args.runs * 2)]
    out: dict[str, Any] = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "arms": arms,
        "commits": {
            name: subprocess.run(
                ["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True
            ).stdout.strip()
            for name, root in arms.items()
        },
        "cpus": os.cpu_count(),
        "conversation": conv["id"],
        "memories": len(items),
        "client_threads": args.threads,
        "warm_up": not args.no_warm_up,
        "load_average_start": [round(x, 2) for x in os.getloadavg()],
        "runs": [],
    }
    for i, name in enumerate(order):
        work = Path(tempfile.mkdtemp(prefix="mnemo-async-split-"))
        stack = Stack(sys.executable, work, root=Path(arms[name]), env={})
        try:
            token = stack.side("setup", "--namespaces", "agent:split-warm,agent:split-run")["token"]
            if not args.no_warm_up:
                one_run(stack, token, "agent:split-warm", items[:64], args.threads)  # pools, threads, caches
            time.sleep(1.0)
            run = {"arm": name, "load_average": [round(x, 2) for x in os.getloadavg()]}
            spies = None
            if args.py_spy:  # raw stacks in a temporary folder, said in the run's line
                run["py_spy"] = tempfile.mkdtemp(prefix="add-async-py-spy-")
                spies = spy(stack, args.py_spy, Path(run["py_spy"]))
            run.update(one_run(stack, token, "agent:split-run", items, args.threads, spies))
        finally:
            stack.stop()
        out["runs"].append(run)
        print(json.dumps({"run": i, **run}), flush=True)
    out["load_average_end"] = [round(x, 2) for x in os.getloadavg()]
    summary: dict[str, Any] = {}
    for name in names:
        mine = [r for r in out["runs"] if r["arm"] == name]
        roles = sorted({role for r in mine for role in r["cpu_ms_per_memory"]})
        summary[name] = {
            "per_s": statistics.median(r["per_s"] for r in mine),
            "post_s": statistics.median(r["post_s"] for r in mine),
            "total_s": statistics.median(r["total_s"] for r in mine),
            "machine_busy_ms_per_memory": statistics.median(r["machine_busy_ms_per_memory"] for r in mine),
            "cpu_ms_per_memory": {
                role: round(statistics.median(r["cpu_ms_per_memory"].get(role, 0.0) for r in mine), 3) for role in roles
            },
        }
    if len(names) == 2:
        a, b = names
        summary["ratio_per_s"] = round(summary[b]["per_s"] / summary[a]["per_s"], 3)
        summary["ratio_cpu"] = round(
            summary[a]["cpu_ms_per_memory"]["total"] / summary[b]["cpu_ms_per_memory"]["total"], 3
        )
    out["summary"] = summary
    print(json.dumps(summary, indent=1))
    path = Path(args.json) if args.json else RESULTS / f"{out['date'][:19].replace(':', '')}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=2) + "\n")
    print(f"results: {path}")
    return out


if __name__ == "__main__":
    main()
