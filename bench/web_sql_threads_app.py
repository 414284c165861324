"""config.asgi's application with a probe around the search statement's execute, for
bench/web_sql_threads.py: per search, the wall time of ``cursor.execute``, the CPU of the thread
that called it (``time.thread_time``), every other thread of the process (their
/proc/self/task/<tid>/schedstat, named by Python's threads) and the PostgreSQL backend's
(/proc/<pid>/schedstat); ``GET /_probe`` hands the samples over and forgets them. A request with
``X-Probe-Variant: before`` searches through the cursor as it was up to 98a4d69 (psycopg
converting the statement on every execute: bench/sql_wall.py ``PsycopgConverted``), any other
through this checkout's. Never served by ``make run``."""

from __future__ import annotations

import contextlib
import json
import os
import threading
import time
from typing import Any

from bench.sql_wall import PsycopgConverted
from config.asgi import application as mnemo_application
from memories import selectors

_samples: list[dict[str, Any]] = []


def _schedstat(path: str) -> tuple[int, int]:
    """(on-CPU ns, run-queue wait ns) of a task so far."""
    with open(path) as f:
        run, wait, _ = f.read().split()
    return int(run), int(wait)


def _tasks() -> dict[int, tuple[int, int]]:
    found = {}
    for tid in os.listdir("/proc/self/task"):
        with contextlib.suppress(OSError):  # a thread that ended meanwhile
            found[int(tid)] = _schedstat(f"/proc/self/task/{tid}/schedstat")
    return found


def _name(tid: int) -> str:
    if tid == os.getpid():
        return "main (event loop)"
    for thread in threading.enumerate():
        if thread.native_id == tid:
            return thread.name.rstrip("0123456789_-") or thread.name
    try:
        with open(f"/proc/self/task/{tid}/comm") as f:
            return "native:" + f.read().strip()
    except OSError:
        return "gone"


_CURSORS: dict[str, Any] = {"after": selectors._PreparedSearchCursor, "before": PsycopgConverted}
_variant = {"name": "after"}


def _probed(real_execute: Any) -> Any:
    def execute(self: Any, query: Any, params: Any = None, **kwargs: Any) -> Any:
        return _probed_execute(real_execute, self, query, params, **kwargs)

    return execute


def _probed_execute(real_execute: Any, self: Any, query: Any, params: Any = None, **kwargs: Any) -> Any:
    backend = f"/proc/{self.connection.info.backend_pid}/schedstat"
    me = threading.get_native_id()
    b0, t0 = _schedstat(backend), _tasks()
    w0, c0 = time.perf_counter(), time.thread_time()
    try:
        return real_execute(self, query, params, **kwargs)
    finally:
        c1, w1 = time.thread_time(), time.perf_counter()
        t1, b1 = _tasks(), _schedstat(backend)
        others: dict[str, float] = {}
        for tid, (run, _) in t1.items():
            if tid != me and tid in t0 and run != t0[tid][0]:
                name = _name(tid)
                others[name] = others.get(name, 0.0) + (run - t0[tid][0]) / 1e6
        _samples.append(
            {
                "variant": _variant["name"],
                "execute": (w1 - w0) * 1e3,
                "thread_cpu": (c1 - c0) * 1e3,
                "thread_runqueue": (t1[me][1] - t0[me][1]) / 1e6,
                "backend_cpu": (b1[0] - b0[0]) / 1e6,
                "backend_runqueue": (b1[1] - b0[1]) / 1e6,
                "others": others,
            }
        )


for _cursor in _CURSORS.values():
    _cursor.execute = _probed(_cursor.execute)


async def application(scope: Any, receive: Any, send: Any) -> None:
    if scope["type"] == "http" and scope.get("path") == "/_probe":
        body = json.dumps(_samples).encode()
        _samples.clear()
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": body})
    else:
        if scope["type"] == "http":
            chosen = dict(scope.get("headers", ())).get(b"x-probe-variant", b"after").decode()
            _variant["name"] = chosen if chosen in _CURSORS else "after"
            selectors._PreparedSearchCursor = _CURSORS[_variant["name"]]  # type: ignore[misc]
        await mnemo_application(scope, receive, send)
