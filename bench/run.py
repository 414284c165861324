"""Mnemo's benchmark harness. `make bench` runs it; results go to bench/results/*.json and the
table in docs/benchmarks.md (bench/report.py writes it).

Everything runs on this machine against real parts: the embedded PostgreSQL with pgvector (in
its own data folder), gunicorn serving the app, a Celery worker on the database broker (as make run starts them), the
real embedder. Each measurement is repeated and reported as a median; ratios are against the raw
batched embedder, the ceiling of ingestion.

    .venv/bin/python bench/run.py                # everything at the default scale
    .venv/bin/python bench/run.py --quick        # a small smoke run (what the test suite runs)
    .venv/bin/python bench/run.py --only embedder,search
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
PY = sys.executable

SUBJECTS = [
    "The user",
    "My manager",
    "Sarah from finance",
    "Our CTO",
    "The dentist",
    "My sister",
    "The landlord",
    "Kenji at Globex",
    "The accountant",
    "Our biggest client",
    "The travel agent",
    "My neighbour",
]
VERBS = [
    "prefers",
    "asked about",
    "is allergic to",
    "scheduled",
    "cancelled",
    "recommended",
    "is working on",
    "wants a reminder about",
    "paid for",
    "complained about",
    "booked",
    "is waiting for",
]
OBJECTS = [
    "afternoon meetings",
    "the Q4 budget review",
    "peanuts",
    "a flight to Lisbon on June 22",
    "the quarterly report",
    "a table at Nostrana",
    "the renewal contract",
    "invoice 4471",
    "a golden retriever puppy",
    "the dark mode setting",
    "the Slack integration",
    "ticket PLAT-4471",
    "oat milk lattes",
    "the conference in Ljubljana",
    "a standing desk",
    "the team offsite",
]


def corpus(n: int, seed: int = 1) -> list[str]:
    rng = random.Random(seed)
    return [f"{rng.choice(SUBJECTS)} {rng.choice(VERBS)} {rng.choice(OBJECTS)} (note {i})." for i in range(n)]


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = (len(ordered) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def latency_summary(ms: list[float]) -> dict[str, float]:
    return {
        "n": len(ms),
        "p50_ms": round(percentile(ms, 50), 2),
        "p95_ms": round(percentile(ms, 95), 2),
        "p99_ms": round(percentile(ms, 99), 2),
        "mean_ms": round(statistics.fmean(ms), 2) if ms else None,
    }


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_stack(port: int, process: subprocess.Popen[Any], log: Callable[[], str], timeout: float = 300) -> None:
    """Until the ``make run`` stack on ``port`` answers /healthz fast ten times in a row (every
    web worker has loaded its embedder), then until its Celery worker printed its banner (its
    queues; the " ready." line is INFO, below a quiet stack's log level). ``log()``: the stack's
    output so far, shown when it fails to start."""
    if not wait_ready(port, timeout, process=process):
        raise RuntimeError(f"the make run stack did not start: {log()[-3000:]}")
    deadline = time.monotonic() + 120
    while "[queues]" not in log() and time.monotonic() < deadline:
        time.sleep(0.2)


def wait_port(port: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"nothing listens on {port} after {timeout}s")


class Env:
    """The bench's own Mnemo: data folder, settings, Django set up in this process too."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings.local",
            "DJANGO_DEBUG": "false",
            "MNEMO_DATA_DIR": str(data_dir),
            "MNEMO_LOG_LEVEL": "WARNING",
            "PYTHONPATH": str(ROOT),
        }
        self.env.pop("DATABASE_URL", None) if not os.environ.get("BENCH_DATABASE_URL") else self.env.update(
            {"DATABASE_URL": os.environ["BENCH_DATABASE_URL"]}
        )
        os.environ.update({k: v for k, v in self.env.items() if k.startswith(("DJANGO_", "MNEMO_"))})
        if "DATABASE_URL" not in self.env:
            os.environ.pop("DATABASE_URL", None)
        sys.path.insert(0, str(ROOT))
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        self.processes: list[subprocess.Popen] = []
        self.peak_rss = {"web": 0, "worker": 0}
        self._sampling = True
        threading.Thread(target=self._sample, daemon=True).start()

    def _sample(self) -> None:
        """Peak RSS of one web process and one worker process (the largest seen), all run long.

        Once a second: a look at every process costs 2.7 ms of CPU, which four times a second
        took 1.2% of a core from the measurements (the search's concurrency 1, on 2 cores)."""
        while self._sampling:
            _rss(self, self.peak_rss)
            time.sleep(1.0)

    def spawn(
        self, args: list[str], extra: dict[str, str] | None = None, log: str = "proc", cwd: Path = ROOT
    ) -> subprocess.Popen:
        out = open(self.data_dir / f"{log}.log", "w")  # noqa: SIM115 (kept open for the process's life)
        process = subprocess.Popen(
            args,
            cwd=cwd,
            env={**self.env, **(extra or {})},
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.processes.append(process)
        return process

    def stop_all(self) -> None:
        for process in reversed(self.processes):
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
        self.processes.clear()

    def token(self, username: str) -> str:
        from django.contrib.auth import get_user_model

        from core.tokens import issue_token

        user, _ = get_user_model().objects.get_or_create(username=username)
        return issue_token(user=user, name="bench").key

    def gunicorn(self, *, workers: int, threads: int = 1, extra: dict[str, str] | None = None) -> int:
        """The web server exactly as ``make run`` starts it (config/gunicorn.py: uvicorn workers on
        config.asgi, pooled connections, the embedder loaded at boot); ``threads`` is unused (ASGI)."""
        port = free_port()
        self.spawn(
            [PY, "-m", "gunicorn", "-c", "config/gunicorn.py", "config.asgi:application"],
            {"MNEMO_BIND": f"127.0.0.1:{port}", "MNEMO_WEB_WORKERS": str(workers), **(extra or {})},
            log=f"gunicorn-{port}",
        )
        wait_port(port)
        wait_ready(port)
        return port

    def worker(self, extra: dict[str, str] | None = None) -> subprocess.Popen:
        """The Celery worker exactly as ``make run`` starts it (database broker, the threads pool of the settings)."""
        process = self.spawn(
            [
                PY,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--without-mingle",
                "--without-gossip",
                "-l",
                "INFO",
            ],
            extra,
            log="worker",
        )
        deadline = time.monotonic() + 120
        while " ready." not in (self.data_dir / "worker.log").read_text(errors="replace"):
            if time.monotonic() > deadline or process.poll() is not None:
                raise RuntimeError("the Celery worker did not start")
            time.sleep(0.2)
        return process


def wait_ready(port: int, timeout: float = 180, *, process: subprocess.Popen[Any] | None = None) -> bool:
    """Until every web worker has booted (the embedder loaded): /healthz answers quickly ten times
    in a row. False if it did not within ``timeout``, or ``process`` (the server) exited."""
    deadline = time.monotonic() + timeout
    fast = 0
    while time.monotonic() < deadline and fast < 10:
        if process is not None and process.poll() is not None:
            return False
        started = time.perf_counter()
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            conn.request("GET", "/healthz")
            conn.getresponse().read()
            conn.close()
            fast = fast + 1 if time.perf_counter() - started < 0.05 else 0
        except OSError:
            fast = 0
        time.sleep(0.1)
    return fast >= 10


class Client:
    """One keep-alive HTTP connection (one per thread)."""

    def __init__(self, port: int, token: str) -> None:
        self.port, self.token = port, token
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        #: The last response's Server-Timing phases in ms (servers started with MNEMO_SERVER_TIMING).
        self.server_timing: dict[str, float] = {}

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any, float]:
        payload = json.dumps(body) if body is not None else None
        headers = {"Authorization": f"Token {self.token}", "Content-Type": "application/json"}
        started = time.perf_counter()
        try:
            self.conn.request(method, path, body=payload, headers=headers)
            response = self.conn.getresponse()
            data = response.read()
        except (http.client.HTTPException, OSError):
            self.conn.close()
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            self.server_timing = {}
            return 599, None, (time.perf_counter() - started) * 1000
        ms = (time.perf_counter() - started) * 1000
        from core.observability import parse_server_timing  # the server's own format

        self.server_timing = parse_server_timing(response.getheader("Server-Timing") or "")
        return response.status, data, ms


def median_summary(summaries: list[dict[str, Any]]) -> dict[str, Any]:
    """Several runs of the same calls as one summary: each number the median of the runs' (errors
    and request counts summed), nested dictionaries alike."""
    if len(summaries) == 1:
        return summaries[0]
    merged: dict[str, Any] = {"rounds": len(summaries)}
    for key, value in summaries[0].items():
        values = [s[key] for s in summaries if s.get(key) is not None]
        if key in {"errors", "n"}:
            merged[key] = sum(values)
        elif isinstance(value, dict):
            merged[key] = median_summary([s[key] for s in summaries if isinstance(s.get(key), dict)])
            merged[key].pop("rounds", None)
        elif isinstance(value, int | float) and values:
            merged[key] = round(statistics.median(values), 3)
        else:
            merged[key] = value
    return merged


def split_search_time(rows: list[tuple[float, dict[str, float]]]) -> dict[str, float] | None:
    """Each search's own time split by its Server-Timing (client ms, phases): the overhead is
    what is left of one request once its own query embedding and search statement are taken
    out (Django, DRF, authentication, permissions, serializers, the server and the round trip),
    per request, then its median; None when the server sent no timings."""
    rows = [(ms, t) for ms, t in rows if "total" in t]
    if not rows:
        return None

    def p50(values: list[float]) -> float:
        return round(percentile(values, 50), 2)

    overhead = [ms - t.get("embed", 0.0) - t.get("search-sql", 0.0) for ms, t in rows]
    return {
        "n": len(rows),
        "embed_p50_ms": p50([t.get("embed", 0.0) for _, t in rows]),
        "search_sql_p50_ms": p50([t.get("search-sql", 0.0) for _, t in rows]),
        "search_sql_p95_ms": round(percentile([t.get("search-sql", 0.0) for _, t in rows], 95), 2),
        "other_sql_p50_ms": p50([t.get("db", 0.0) - t.get("search-sql", 0.0) for _, t in rows]),
        "overhead_p50_ms": p50(overhead),
        "overhead_p95_ms": round(percentile(overhead, 95), 2),
        # Inside Django (middleware to response) less the embedding and the search statement.
        "in_django_overhead_p50_ms": p50(
            [t["total"] - t.get("embed", 0.0) - t.get("search-sql", 0.0) for _, t in rows]
        ),
        # The server and the HTTP round trip: the client's time less Django's.
        "outside_django_p50_ms": p50([ms - t["total"] for ms, t in rows]),
    }


def per_thread_clients(port: int, token: str) -> Callable[[], Client]:
    local = threading.local()

    def get() -> Client:
        if not hasattr(local, "client"):
            local.client = Client(port, token)
        return local.client

    return get


# --- 1. the raw embedder -------------------------------------------------------------------------------


def bench_embedder(scale: dict[str, int], repeats: int) -> dict[str, Any]:
    from memories.embedding import MiniLMInt8Embedder

    embedder = MiniLMInt8Embedder(batch_size=64)
    texts = corpus(scale["embed_texts"])
    embedder.embed(texts[:8])  # load and warm up
    single, batched = [], []
    for _ in range(repeats):
        started = time.perf_counter()
        for text in texts[: scale["embed_texts"] // 4]:
            embedder.embed([text])
        single.append((scale["embed_texts"] // 4) / (time.perf_counter() - started))
        started = time.perf_counter()
        for i in range(0, len(texts), 64):
            embedder.embed(texts[i : i + 64])
        batched.append(len(texts) / (time.perf_counter() - started))
    return {
        "texts": len(texts),
        "batch1_texts_per_s": round(statistics.median(single), 1),
        "batch64_texts_per_s": round(statistics.median(batched), 1),
        "runs_batch64": [round(x, 1) for x in batched],
    }


# --- 2. async ingestion over HTTP with a real worker ---------------------------------------------


def bench_ingestion(env: Env, scale: dict[str, int], repeats: int, ceiling: float) -> dict[str, Any]:
    """Async ingestion over HTTP through the make run stack (web + worker on the database broker),
    and the worker alone on memories already queued (web idle)."""
    from memories import services
    from memories.models import Memory, Namespace

    extra = {"MNEMO_EMBED_COLLECT": "64"}
    port = env.gunicorn(workers=2, extra=extra)
    env.worker(extra)
    token = env.token("bench-ingest")
    client = per_thread_clients(port, token)
    runs = []
    for run in range(repeats):
        texts = corpus(scale["ingest"], seed=100 + run)
        ns = f"agent:ingest-{run}-{time.time_ns()}"
        start_ids = Memory.objects.order_by("-id").values_list("id", flat=True).first() or 0
        started = time.perf_counter()

        def post(text: str) -> int:
            status, _, _ = client().call("POST", "/api/v1/memories", {"content": text})
            return status

        with ThreadPoolExecutor(8) as pool:
            statuses = list(pool.map(post, texts))
        errors = sum(1 for s in statuses if s != 202)
        posted = time.perf_counter()
        while Memory.objects.filter(id__gt=start_ids, status="queued").exists():
            time.sleep(0.05)
        finished = time.perf_counter()
        ready = Memory.objects.filter(id__gt=start_ids, status="ready").count()
        runs.append(
            {
                "memories": ready,
                "errors": errors,
                "post_s": round(posted - started, 2),
                "total_s": round(finished - started, 2),
                "memories_per_s": round(ready / (finished - started), 1),
                "namespace": ns,
            }
        )
    # The worker alone: rows written queued (as add_memory writes them), then one task per 64.
    worker_runs = []
    for run in range(repeats):
        ns, _ = Namespace.objects.get_or_create(key=f"agent:worker-only-{run}-{time.time_ns()}")
        rows = Memory.objects.bulk_create(
            [Memory(namespace=ns, text=t, status="queued") for t in corpus(scale["ingest"], seed=900 + run)]
        )
        ids = [row.id for row in rows]
        started = time.perf_counter()
        for i in range(0, len(ids), 64):
            services.send_to_queue(ids[i : i + 64])
        # Polled through the namespace's (namespace, status) index: "id IN (1,000 ids)" cost 14 ms
        # per poll here, every 50 ms a fifth of a core taken from the worker it measures.
        while Memory.objects.filter(namespace=ns, status="queued").exists():
            time.sleep(0.05)
        elapsed = time.perf_counter() - started
        worker_runs.append(
            {"memories": len(ids), "seconds": round(elapsed, 2), "memories_per_s": round(len(ids) / elapsed, 1)}
        )
    env.stop_all()
    rate = statistics.median(r["memories_per_s"] for r in runs)
    worker_rate = statistics.median(r["memories_per_s"] for r in worker_runs)
    return {
        "memories": scale["ingest"],
        "memories_per_s": rate,
        "ratio_to_batched_embedder": round(rate / ceiling, 3),
        "runs": runs,
        "worker_only": {
            "memories_per_s": worker_rate,
            "ratio_to_batched_embedder": round(worker_rate / ceiling, 3),
            "runs": worker_runs,
        },
    }


def _rss(env: Env, peaks: dict[str, int]) -> dict[str, int]:
    import psutil

    for process in env.processes:
        try:
            parent = psutil.Process(process.pid)
            name = " ".join(parent.cmdline())
            kind = "worker" if "celery" in name else "web" if "gunicorn" in name else None
            if kind is None:
                continue
            for child in [parent, *parent.children(recursive=True)]:
                # Only the server's own processes: not a helper it runs for a moment (gunicorn's
                # on_starting derives the embedder's graph in a child Python, which peaks at 1 GB
                # and exits before the workers start: memories/graph_prepare.py).
                if kind == "web" and "gunicorn" not in " ".join(child.cmdline()):
                    continue
                peaks[kind] = max(peaks[kind], child.memory_info().rss)  # one process, not the sum
        except psutil.Error:
            continue
    return peaks


# --- 3. bulk import ----------------------------------------------------------------------------------


def bench_import(env: Env, scale: dict[str, int], repeats: int, ceiling: float) -> dict[str, Any]:
    from memories import ops
    from memories.models import Memory, Namespace

    runs = []
    for run in range(repeats):
        key = f"agent:import-{run}-{time.time_ns()}"
        lines = [
            (i + 1, json.dumps({"namespace": key, "text": t}))
            for i, t in enumerate(corpus(scale["import"], seed=200 + run))
        ]
        report = ops.ImportReport()
        started = time.perf_counter()
        ops.import_lines(
            lines, namespace=None, dedup_policy="insert", embedder=ops.embedder_for(None), batch_size=64, report=report
        )
        elapsed = time.perf_counter() - started
        runs.append(
            {
                "memories": report.imported,
                "seconds": round(elapsed, 2),
                "memories_per_s": round(report.imported / elapsed, 1),
            }
        )
        if run < repeats - 1:  # keep the last one: remember and search use it
            Memory.objects.filter(namespace__key=key).delete()
            Namespace.objects.filter(key=key).delete()
    rate = statistics.median(r["memories_per_s"] for r in runs)
    # Settle the table before the latency measurements: otherwise autovacuum, woken by the
    # imports and deletes above, runs in the middle of them.
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE memories_memory")
    return {
        "memories": scale["import"],
        "memories_per_s": rate,
        "ratio_to_batched_embedder": round(rate / ceiling, 3),
        "runs": runs,
        "namespace": key,
    }


# --- 4 and 5. remember and search over HTTP ---------------------------------------------------------


def _grant(env: Env, username: str, key: str) -> None:
    from django.contrib.auth import get_user_model
    from guardian.shortcuts import assign_perm

    from memories.models import Namespace

    user = get_user_model().objects.get(username=username)
    ns = Namespace.objects.get(key=key)
    assign_perm("view_namespace", user, ns)
    assign_perm("write_namespace", user, ns)


def _timed_calls(port: int, token: str, calls: list[tuple[str, str, Any]], concurrency: int) -> dict[str, Any]:
    client = per_thread_clients(port, token)
    for method, path, body in calls[:5]:  # warm every connection path once
        client().call(method, path, body)

    def one(call: tuple[str, str, Any]) -> tuple[int, float, dict[str, float]]:
        own = client()
        status, _, ms = own.call(*call)
        return status, ms, own.server_timing

    import psutil

    me = psutil.Process()
    machine_before, client_before = psutil.cpu_times(), me.cpu_times()
    started = time.perf_counter()
    with ThreadPoolExecutor(concurrency) as pool:
        results = list(pool.map(one, calls))
    elapsed = time.perf_counter() - started
    machine_after, client_after = psutil.cpu_times(), me.cpu_times()
    summary: dict[str, Any] = latency_summary([ms for _, ms, _ in results])
    summary["errors"] = sum(1 for status, _, _ in results if status >= 400)
    summary["requests_per_s"] = round(len(calls) / elapsed, 1)

    # Where the cores went while it ran: the whole machine's busy CPU per request, the share of
    # it this process (the client's threads) used, and how much of the cores sat idle. Time the
    # hypervisor gave to another machine (steal) is neither ours nor idle; guest time is already
    # counted in user time.
    def spent(*fields: str) -> float:
        return sum(getattr(machine_after, f, 0.0) - getattr(machine_before, f, 0.0) for f in fields)

    busy = spent("user", "nice", "system", "irq", "softirq")
    idle = spent("idle", "iowait")
    client = (client_after.user + client_after.system) - (client_before.user + client_before.system)
    summary["cpu"] = {
        "busy_ms_per_request": round(busy * 1000 / len(calls), 2),
        "client_ms_per_request": round(client * 1000 / len(calls), 2),
        "idle_share": round(idle / (busy + idle), 3) if busy + idle > 0 else None,
        "steal_ms_per_request": round(spent("steal") * 1000 / len(calls), 2),
    }
    split = split_search_time([(ms, timing) for _, ms, timing in results])
    if split is not None:
        summary["server_timing"] = split
    return summary


def bench_remember(env: Env, scale: dict[str, int], key: str) -> dict[str, Any]:
    port = env.gunicorn(workers=2)
    token = env.token("bench-remember")
    _grant(env, "bench-remember", key)
    rng = random.Random(5)
    calls = [
        (
            "POST",
            "/api/v1/memories/remember",
            {
                "text": f"{rng.choice(SUBJECTS)} {rng.choice(VERBS)} {rng.choice(OBJECTS)} ({i})",
                "namespace": key,
                "dedup_policy": "ask",
            },
        )
        for i in range(scale["remember"])
    ]
    result = {"namespace_size": _count(key), "concurrency_1": _timed_calls(port, token, calls, 1)}
    env.stop_all()
    return result


def _count(key: str) -> int:
    from memories.models import Memory

    return Memory.objects.filter(namespace__key=key).count()


_base_vectors: dict[str, Any] = {}


def synthetic_namespace(key: str, size: int, seed_key: str, analyze: bool = True) -> None:
    """``size`` memories made by inserting vectors directly: real vectors of ``seed_key`` with a
    little noise (so neighbours look like real ones), texts from the same corpus."""
    import numpy as np
    from django.db import connection

    from memories.models import Memory, Namespace

    ns, created = Namespace.objects.get_or_create(key=key, defaults={"kind": "agent"})
    have = Memory.objects.filter(namespace=ns).count()
    if have >= size:
        return
    base = _base_vectors.get(seed_key)
    if base is None:  # read once: 1,000 small namespaces read them 1,000 times (20 minutes here)
        seeds = Memory.objects.filter(namespace__key=seed_key).values_list("embedding", flat=True)[:5000]
        base = np.array([list(v) for v in seeds], dtype=np.float32)
        _base_vectors[seed_key] = base
    rng = np.random.default_rng(3)
    texts = corpus(size, seed=300)
    batch = 5000
    with connection.cursor() as cursor:
        for start in range(have, size, batch):
            n = min(batch, size - start)
            vectors = base[rng.integers(0, len(base), n)] + rng.normal(0, 0.04, (n, base.shape[1])).astype(np.float32)
            vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
            rows = [(ns.id, texts[start + i], "[" + ",".join(f"{x:.5f}" for x in vectors[i]) + "]") for i in range(n)]
            cursor.executemany(
                """INSERT INTO memories_memory (namespace_id, text, embedding, embedding_model, status, event_id, error,
                       created_at, updated_at, tags, source_provider, importance, capture_mode, session_id,
                       last_confirmed_at, metadata)
                   VALUES (%s, %s, %s::vector, 'synthetic', 'ready', gen_random_uuid(), '', now(), now(), '{}', '',
                       0.5, '', '', now(), '{}')""",
                rows,
            )
        if analyze:
            cursor.execute("ANALYZE memories_memory")


def hnsw_recall(key: str, queries: int = 50, k: int = 10) -> dict[str, Any]:
    """recall@k of the HNSW index against exact search, per ef_search, and the SQL time alone.

    Measured the way search uses the index: its first MNEMO_SEARCH_CANDIDATES rows (iterative
    scan, relaxed order), the best k of them by exact distance. ``recall_at_10_first_10`` is the
    index's first k rows alone: with relaxed order they are only roughly the best, which is why
    search takes more candidates than it returns."""
    from django.conf import settings
    from django.db import connection, transaction

    from memories.embedding import embed_texts
    from memories.models import Namespace
    from memories.selectors import _vector_literal

    ns = Namespace.objects.get(key=key)
    vectors = embed_texts(corpus(queries, seed=999))
    qs = [_vector_literal(v) for v in vectors]
    exact_sql = (
        "SELECT id FROM memories_memory WHERE namespace_id = %s AND status = 'ready' "
        "ORDER BY (embedding <=> %s::vector) + 0 LIMIT %s"
    )
    ann_sql = (
        "SELECT id FROM memories_memory WHERE namespace_id = %s AND status = 'ready' "
        "ORDER BY embedding <=> %s::vector LIMIT %s"
    )
    truth = []
    with connection.cursor() as cursor:
        for q in qs:
            cursor.execute(exact_sql, [ns.id, q, k])
            truth.append({row[0] for row in cursor.fetchall()})
    search_sql = (
        "WITH c AS MATERIALIZED (SELECT id, embedding <=> %s::vector AS d FROM memories_memory "
        "WHERE namespace_id = %s AND status = 'ready' ORDER BY embedding <=> %s::vector LIMIT %s) "
        "SELECT id FROM c ORDER BY d LIMIT %s"
    )
    result = {}
    for ef in (40, 100, 200):
        found, first, ms = [], [], []
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(
                "SELECT set_config('hnsw.ef_search', %s, true), "
                "set_config('hnsw.iterative_scan', 'relaxed_order', true)",
                [str(ef)],
            )
            for q, expected in zip(qs, truth, strict=True):
                started = time.perf_counter()
                cursor.execute(search_sql, [q, ns.id, q, max(k, settings.MNEMO_SEARCH_CANDIDATES), k])
                rows = {row[0] for row in cursor.fetchall()}
                ms.append((time.perf_counter() - started) * 1000)
                found.append(len(rows & expected) / k)
                cursor.execute(ann_sql, [ns.id, q, k])
                first.append(len({row[0] for row in cursor.fetchall()} & expected) / k)
        result[f"ef_search_{ef}"] = {
            "recall_at_10": round(statistics.fmean(found), 4),
            "recall_at_10_first_10": round(statistics.fmean(first), 4),
            "sql_p50_ms": round(percentile(ms, 50), 2),
        }
    # What search gets: its vector arm (the index walk, completed exactly when it comes back
    # short), default settings.
    from memories.selectors import search_features

    arm = []
    for vector, expected in zip(vectors, truth, strict=True):
        rows = search_features(namespace_ids=[ns.id], query="", query_vector=vector, limit=k, mode="vector")
        top = {row[0] for row in sorted(rows, key=lambda row: row[3])[:k]}
        arm.append(len(top & expected) / k)
    result["vector_arm"] = {"recall_at_10": round(statistics.fmean(arm), 4)}
    return result


def search_sql_alone(key: str, texts: list[str]) -> dict[str, float]:
    """The hybrid search statement alone, for the queries the HTTP calls sent: the query vectors
    are computed beforehand, as the web process embeds them (``embedding_text``)."""
    from memories.embedding import embed_texts
    from memories.models import Namespace
    from memories.selectors import embedding_text, search_memories

    ns = Namespace.objects.get(key=key)
    vectors = embed_texts([embedding_text(namespace_ids=[ns.id], query=text) for text in texts])
    ms = []
    for text, vector in zip(texts, vectors, strict=True):
        started = time.perf_counter()
        search_memories(namespace_ids=[ns.id], query=text, limit=5, query_vector=vector)
        ms.append((time.perf_counter() - started) * 1000)
    return latency_summary(ms)


def synthetic_small_namespaces(prefix: str, count: int, size: int, seed_key: str) -> list[str]:
    keys = [f"{prefix}-{i:04d}" for i in range(count)]
    for key in keys:
        synthetic_namespace(key, size, seed_key, analyze=False)
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE memories_memory")
    return keys


def embed_alone(queries: int = 100) -> dict[str, float]:
    from memories.embedding import embed_texts

    rng = random.Random(5)
    ms = []
    for _ in range(queries):
        started = time.perf_counter()
        embed_texts([f"{rng.choice(VERBS)} {rng.choice(OBJECTS)}"])
        ms.append((time.perf_counter() - started) * 1000)
    return latency_summary(ms)


def bench_search(env: Env, scale: dict[str, int], key_10k: str) -> dict[str, Any]:
    key_100k = "agent:bench-100k"
    synthetic_namespace(key_100k, scale["search_large"], key_10k)
    small = synthetic_small_namespaces("agent:bench-small", scale["small_namespaces"], scale["small_size"], key_10k)
    # The imports before this section left tens of thousands of new row versions: autovacuum
    # would work through them (an HNSW index vacuum keeps a core busy for minutes) while search
    # is measured. Measure the table settled, as a running service's is between imports.
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM (ANALYZE) memories_memory")
        cursor.execute("VACUUM (ANALYZE) memories_memorychunk")
    # What beat does within the hour on a running service: namespaces of 10,000 memories and more
    # get an HNSW index of their own (docs/memory-api.md, "Large namespaces").
    from memories import ops

    indexes = [a.__dict__ for a in ops.maintain_namespace_indexes() or []]
    # Server-Timing on: each search's own embedding and statement times come back with it. The
    # query-vector cache off: these calls draw from 192 query texts, so after the first pass every
    # search would skip its embedding; this section measures a search that embeds its query, as
    # it always did (bench/search_cpu.py measures the repeated query apart).
    port = env.gunicorn(
        workers=scale["web_workers"], extra={"MNEMO_SERVER_TIMING": "true", "MNEMO_QUERY_VECTOR_CACHE": "0"}
    )
    token = env.token("bench-search")
    _grant(env, "bench-search", key_10k)
    _grant(env, "bench-search", key_100k)
    granted_small = small[:: max(1, len(small) // 50)]
    for key in granted_small:
        _grant(env, "bench-search", key)
    result: dict[str, Any] = {"embed_alone": embed_alone(), "namespace_indexes": indexes}
    cases = (("10k", [key_10k]), ("100k", [key_100k]), ("small_namespaces", granted_small))
    for label, keys in cases:
        rng = random.Random(11)
        calls = [
            (
                "POST",
                "/api/v1/memories/search",
                {"query": f"{rng.choice(VERBS)} {rng.choice(OBJECTS)}", "namespace": rng.choice(keys), "limit": 5},
            )
            for _ in range(scale["search_requests"])
        ]
        # One pass first, not measured: a running service's cache holds the pages its searches
        # touch; right after this bench's own bulk inserts and VACUUM it holds none of them, and
        # the first pass read thousands of pages per query from the kernel (p95 93 ms at 100k).
        _timed_calls(port, token, calls, 8)
        # Rounds of concurrency 1 then 8, back to back: the shared machine's speed drifts by
        # tens of percent within minutes, and a ratio of two numbers measured minutes apart
        # measures the drift too. Each round's pair is measured within seconds; the verdicts
        # read the medians of the rounds (every round is kept).
        rounds = [
            {"concurrency_1": _timed_calls(port, token, calls, 1), "concurrency_8": _timed_calls(port, token, calls, 8)}
            for _ in range(scale["search_rounds"])
        ]
        for pair in rounds:
            pair["throughput_ratio_8_to_1"] = round(
                pair["concurrency_8"]["requests_per_s"] / pair["concurrency_1"]["requests_per_s"], 2
            )
        c1 = median_summary([pair["concurrency_1"] for pair in rounds])
        c8 = median_summary([pair["concurrency_8"] for pair in rounds])
        sql = search_sql_alone(keys[0], [body["query"] for _, _, body in calls[:100]])
        from memories.models import Namespace
        from memories.selectors import search_plan

        result[label] = {
            "namespace_size": _count(keys[0]),
            "vector_plan": search_plan([Namespace.objects.get(key=keys[0]).id]),
            "namespaces": len(keys) if label != "small_namespaces" else scale["small_namespaces"],
            "concurrency_1": c1,
            "concurrency_8": c8,
            "throughput_ratio_8_to_1": statistics.median(pair["throughput_ratio_8_to_1"] for pair in rounds),
            "rounds": rounds,
            "sql_alone": sql,
            # What is left of a search's time once its embedding and SQL are taken out: Django,
            # DRF, authentication, permissions, serializers, the server and the HTTP round trip.
            # Per request from its Server-Timing (concurrency 1); the difference of medians
            # measured apart is kept beside it for comparison with earlier runs.
            "overhead_p50_ms": c1["server_timing"]["overhead_p50_ms"],
            "overhead_p50_ms_from_medians": round(c1["p50_ms"] - result["embed_alone"]["p50_ms"] - sql["p50_ms"], 2),
        }
        if label != "small_namespaces":
            result[label]["hnsw"] = hnsw_recall(keys[0])
    result["total_memories"] = _count_all()
    env.stop_all()
    return result


def _count_all() -> int:
    from memories.models import Memory

    return Memory.objects.count()


# --- 6. load: mixed workload at rising concurrency ------------------------------------------------


def bench_load(env: Env, scale: dict[str, int], key: str) -> dict[str, Any]:
    port = env.gunicorn(workers=scale["web_workers"])
    env.worker()
    token = env.token("bench-load")
    _grant(env, "bench-load", key)
    client = per_thread_clients(port, token)
    steps = []
    plan = [(c, scale["load_seconds"]) for c in scale["load_steps"]] + [(32, scale["soak_seconds"])]
    for concurrency, seconds in plan:
        step_result: dict[str, Any] = {"latencies": [], "errors": 0}
        lock = threading.Lock()

        def user(
            seed: int,
            stop: float = time.monotonic() + seconds,
            out: dict[str, Any] = step_result,
            lock: threading.Lock = lock,
        ) -> None:
            rng = random.Random(seed)
            while time.monotonic() < stop:
                roll = rng.random()
                if roll < 0.7:
                    call = (
                        "POST",
                        "/api/v1/memories/search",
                        {"query": f"{rng.choice(VERBS)} {rng.choice(OBJECTS)}", "namespace": key},
                    )
                elif roll < 0.85:
                    call = (
                        "POST",
                        "/api/v1/memories/remember",
                        {
                            "text": f"{rng.choice(SUBJECTS)} {rng.choice(VERBS)} {rng.choice(OBJECTS)} "
                            f"{rng.random():.6f}",
                            "namespace": key,
                            "dedup_policy": "insert",
                        },
                    )
                elif roll < 0.95:
                    call = ("POST", "/api/v1/memories", {"content": f"{rng.choice(SUBJECTS)} {rng.random():.6f}"})
                else:
                    call = ("POST", "/api/v1/assistant/session", {"message": rng.choice(OBJECTS)})
                status, _, ms = client().call(*call)
                with lock:
                    out["latencies"].append(ms)
                    out["errors"] += status >= 400

        started = time.perf_counter()
        with ThreadPoolExecutor(concurrency) as pool:
            list(pool.map(user, range(concurrency)))
        elapsed = time.perf_counter() - started
        latencies = step_result["latencies"]
        step = {
            "concurrency": concurrency,
            "seconds": seconds,
            **latency_summary(latencies),
            "errors": step_result["errors"],
            "requests_per_s": round(len(latencies) / elapsed, 1),
        }
        steps.append(step)
    env.stop_all()
    ok = [s for s in steps if s["p95_ms"] < 100 and s["errors"] == 0]
    return {
        "steps": steps,
        "mix": "70% search, 15% remember, 10% add_memory, 5% session",
        "best_rps_with_p95_under_100ms": max((s["requests_per_s"] for s in ok), default=None),
    }


# --- run ------------------------------------------------------------------------------------------


SCALES = {
    "full": {
        "embed_texts": 512,
        "ingest": 1000,
        "import": 10_000,
        "remember": 300,
        "search_large": 100_000,
        "small_namespaces": 1000,
        "small_size": 100,
        "web_workers": 4,
        "search_requests": 300,
        "search_rounds": 5,
        "load_steps": [1, 2, 4, 8, 16],
        "load_seconds": 15,
        "soak_seconds": 60,
    },
    "quick": {
        "embed_texts": 64,
        "ingest": 40,
        "import": 200,
        "remember": 20,
        "search_large": 1000,
        "small_namespaces": 10,
        "small_size": 20,
        "web_workers": 2,
        "search_requests": 20,
        "search_rounds": 2,
        "load_steps": [1, 2],
        "load_seconds": 2,
        "soak_seconds": 3,
    },
}


def machine() -> dict[str, Any]:
    import psutil

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout
    return {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "commit": commit.strip(),
        "cpus": os.cpu_count(),
        "memory_gb": round(psutil.virtual_memory().total / 2**30, 1),
        "python": platform.python_version(),
        "platform": platform.platform(),
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a small smoke run")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--only", default="embedder,ingest,import,remember,search,load,retrieval,search_plans")
    parser.add_argument("--data-dir", help="where the bench's database lives (default: a temporary folder)")
    parser.add_argument("--output", help="results file (default bench/results/<date>.json)")
    args = parser.parse_args(argv)
    scale = SCALES["quick" if args.quick else "full"]
    repeats = 1 if args.quick else args.repeats
    only = set(args.only.split(","))
    data_dir = Path(args.data_dir) if args.data_dir else Path(tempfile.mkdtemp(prefix="mnemo-bench-"))
    data_dir.mkdir(parents=True, exist_ok=True)
    env = Env(data_dir)
    results: dict[str, Any] = {"machine": machine(), "scale": "quick" if args.quick else "full", "repeats": repeats}
    try:
        embedder = bench_embedder(scale, repeats)
        results["embedder"] = embedder
        ceiling = embedder["batch64_texts_per_s"]
        print(json.dumps({"embedder": embedder}), flush=True)
        if "ingest" in only:
            results["ingest"] = bench_ingestion(env, scale, repeats, ceiling)
            print(json.dumps({"ingest": results["ingest"]}), flush=True)
        key = None
        if only & {"import", "remember", "search", "load"}:
            results["import"] = bench_import(env, scale, repeats, ceiling)
            key = results["import"]["namespace"]
            print(json.dumps({"import": results["import"]}), flush=True)
        if "remember" in only:
            results["remember"] = bench_remember(env, scale, key)
            print(json.dumps({"remember": results["remember"]}), flush=True)
        if "search" in only:
            results["search"] = bench_search(env, scale, key)
            print(json.dumps({"search": results["search"]}), flush=True)
        if "load" in only:
            results["load"] = bench_load(env, scale, key)
            print(json.dumps({"load": results["load"]}), flush=True)
        from bench.retrieval.bench import run_sections  # retrieval quality and search plans (issue 14)

        results.update(run_sections(quick=args.quick, only=only))
    finally:
        env.stop_all()
        env._sampling = False
    results["peak_rss_mb"] = {kind: round(value / 2**20, 1) for kind, value in env.peak_rss.items()}
    output = Path(args.output) if args.output else RESULTS / f"{results['machine']['date'][:19].replace(':', '')}.json"
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(results, indent=2) + "\n")
    print(f"results: {output}")
    return results


if __name__ == "__main__":
    main()
