"""What every entrance shares for ops: the current request's id and the Prometheus metrics.

The request id is set by ``config.observability``'s middleware for each request (taken from a
sane ``X-Request-ID`` header or made up) and read by the error envelope and the log formatter.
The metrics are prometheus-client objects; with several processes (gunicorn workers, the Celery
worker) prometheus-client's multiprocess mode (``PROMETHEUS_MULTIPROC_DIR``) adds them up.
"""

from __future__ import annotations

import json
import logging
import time
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

from prometheus_client import Counter, Histogram

request_id: ContextVar[str | None] = ContextVar("mnemo_request_id", default=None)
#: Seconds spent per phase in the current request (``MNEMO_SERVER_TIMING``), or None when off.
request_timings: ContextVar[dict[str, float] | None] = ContextVar("mnemo_request_timings", default=None)

# Buckets from 1 ms to 10 s: search is a few ms to tens of ms; remember and embeddings longer.
_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

HTTP_REQUEST_SECONDS = Histogram(
    "mnemo_http_request_duration_seconds",
    "HTTP request latency by route pattern, method and status.",
    ["route", "method", "status"],
    buckets=_BUCKETS,
)
SEARCH_SECONDS = Histogram(
    "mnemo_search_duration_seconds",
    "Memory search latency (query embedding and SQL) by mode.",
    ["mode"],
    buckets=_BUCKETS,
)
EMBED_SECONDS = Histogram(
    "mnemo_embedder_duration_seconds",
    "Time the embedder spent on one call, by how many texts it embedded.",
    ["batch"],
    buckets=_BUCKETS,
)
TASKS = Counter(
    "mnemo_tasks_total",
    "Celery tasks finished, by task name and outcome (success, failure, retry).",
    ["task", "outcome"],
)


def add_timing(phase: str, seconds: float) -> None:
    """Count ``seconds`` to ``phase`` of the current request's Server-Timing (when it is on)."""
    timings = request_timings.get()
    if timings is not None:
        timings[phase] = timings.get(phase, 0.0) + seconds


def server_timing_header(timings: dict[str, float], total: float) -> str:
    """``embed;dur=5.91, search-sql;dur=7.68, db;dur=9.12, total;dur=21.03`` (milliseconds)."""
    parts = [f"{phase};dur={seconds * 1000:.2f}" for phase, seconds in sorted(timings.items())]
    return ", ".join([*parts, f"total;dur={total * 1000:.2f}"])


def parse_server_timing(header: str) -> dict[str, float]:
    """The phases of a :func:`server_timing_header` in ms: ``{"embed": 5.91, "total": 21.03}``."""
    phases = {}
    for part in header.split(","):
        name, _, dur = part.strip().partition(";dur=")
        if name and dur:
            phases[name] = float(dur)
    return phases


@contextmanager
def timed(histogram: Histogram, phase: str | None = None, **labels: str) -> Iterator[None]:
    """Observe the block's duration (also when it raises); with ``phase``, count it to the
    request's Server-Timing as well."""
    started = time.perf_counter()
    try:
        yield
    finally:
        seconds = time.perf_counter() - started
        histogram.labels(**labels).observe(seconds)
        if phase is not None:
            add_timing(phase, seconds)


def batch_label(size: int) -> str:
    """A few fixed label values, so that batch sizes do not make unbounded label sets."""
    if size <= 1:
        return "1"
    if size <= 8:
        return "2-8"
    if size <= 32:
        return "9-32"
    return "33+"


# --- logs ------------------------------------------------------------------------------------


class RequestIdFilter(logging.Filter):
    """Adds ``request_id`` to every log record ("-" outside a request)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id.get() or "-"
        return True


_STANDARD_ATTRS = set(vars(logging.makeLogRecord({}))) | {"message", "asctime", "request_id"}


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, request id, and any extras."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", None) or request_id.get(),
            "pid": record.process,
        }
        for key, value in vars(record).items():
            if key not in _STANDARD_ATTRS and not key.startswith("_"):
                entry[key] = value if isinstance(value, str | int | float | bool | type(None)) else str(value)
        if record.exc_info:
            entry["exception"] = "".join(traceback.format_exception(*record.exc_info))
        return json.dumps(entry, ensure_ascii=False)
