"""Search latency, recorded cheaply for the staff home page.

A search only adds its duration to an in-process buffer (a lock and a few additions); the buffer
is written at most once a second per process (or every 500 searches), as one upsert per minute
row, with ``synchronous_commit`` off: a crash may lose the last second of timings, never a
search's time. A failure here never fails a search: the timings are dropped and logged.
"""

from __future__ import annotations

import bisect
import functools
import logging
import threading
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any, TypeVar

from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from core.observability import SEARCH_SECONDS
from memories.models import LATENCY_BOUNDS_MS, SearchLatency

logger = logging.getLogger(__name__)
F = TypeVar("F", bound=Callable[..., Any])
KEEP = timedelta(days=1)
FLUSH_SECONDS = 1.0
FLUSH_COUNT = 500

_UPSERT = f"""
    INSERT INTO {SearchLatency._meta.db_table} AS t (minute, count, total_ms, max_ms, buckets)
    VALUES (%(minute)s, %(count)s, %(total)s, %(max)s, %(buckets)s)
    ON CONFLICT (minute) DO UPDATE SET
        count = t.count + EXCLUDED.count,
        total_ms = t.total_ms + EXCLUDED.total_ms,
        max_ms = GREATEST(t.max_ms, EXCLUDED.max_ms),
        buckets = ARRAY(
            SELECT COALESCE(a, 0) + COALESCE(b, 0)
              FROM unnest(t.buckets, EXCLUDED.buckets) WITH ORDINALITY AS u(a, b, i) ORDER BY i
        )
    RETURNING (xmax = 0) AS inserted
"""  # noqa: S608 (the table name is ours)

_lock = threading.Lock()
_pending: dict[datetime, list[Any]] = {}  # minute -> [count, total_ms, max_ms, buckets]
_last_flush = time.monotonic()


def bucket_of(ms: float) -> int:
    """The histogram bucket (0-based) of a duration."""
    return bisect.bisect_left(LATENCY_BOUNDS_MS, ms)


def record_search(ms: float, *, at: datetime | None = None) -> None:
    """Count one search of ``ms`` milliseconds in its minute; written within a second."""
    minute = (at or timezone.now()).replace(second=0, microsecond=0)
    with _lock:
        row = _pending.setdefault(minute, [0, 0.0, 0.0, [0] * (len(LATENCY_BOUNDS_MS) + 1)])
        row[0] += 1
        row[1] += ms
        row[2] = max(row[2], ms)
        row[3][bucket_of(ms)] += 1
        due = time.monotonic() - _last_flush >= FLUSH_SECONDS or sum(r[0] for r in _pending.values()) >= FLUSH_COUNT
    if due:
        flush()


def flush() -> None:
    """Write the buffered timings now (the home page calls it before it reads)."""
    global _last_flush
    with _lock:
        rows = dict(_pending)
        _pending.clear()
        _last_flush = time.monotonic()
    if not rows:
        return
    own_transaction = not connection.in_atomic_block
    try:
        # In a caller's transaction a savepoint keeps a failed write from spoiling it (and the
        # caller's commit stays as it was); in a transaction of its own the write does not wait
        # for the disk: these are statistics, not data.
        with transaction.atomic(savepoint=not own_transaction), connection.cursor() as cursor:
            if own_transaction:
                cursor.execute("SET LOCAL synchronous_commit TO OFF")
            inserted = False
            for minute, (count, total, peak, buckets) in sorted(rows.items()):
                params: dict[str, Any] = {
                    "minute": minute,
                    "count": count,
                    "total": total,
                    "max": peak,
                    "buckets": buckets,
                }
                cursor.execute(_UPSERT, params)
                row = cursor.fetchone()
                inserted = inserted or bool(row and row[0])
            if inserted:  # a new minute: drop what no page shows any more
                SearchLatency.objects.filter(minute__lt=max(rows) - KEEP).delete()
    except DatabaseError as exc:
        logger.warning("%d search timings not recorded (%s)", sum(r[0] for r in rows.values()), exc.__class__.__name__)


def discard_pending() -> None:
    """Forget buffered timings not yet written (tests start from nothing)."""
    with _lock:
        _pending.clear()


def timed_search(func: F) -> F:
    """Record how long each call of the wrapped search took (also when it raised): for the staff
    home page (per-minute buckets) and for Prometheus (``SEARCH_SECONDS`` by mode), one timing."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return func(*args, **kwargs)
        finally:
            seconds = time.perf_counter() - started
            record_search(seconds * 1000)
            SEARCH_SECONDS.labels(mode=str(kwargs.get("mode", "hybrid"))).observe(seconds)

    return wrapper  # type: ignore[return-value]


def percentile(buckets: list[int], share: float) -> float | None:
    """The upper bound (ms) of the bucket holding the ``share`` quantile; None without data.

    The open last bucket answers the last bound: "more than 2500 ms" reads as 2500.
    """
    total = sum(buckets)
    if not total:
        return None
    seen = 0
    for index, count in enumerate(buckets):
        seen += count
        if seen >= share * total:
            return float(LATENCY_BOUNDS_MS[min(index, len(LATENCY_BOUNDS_MS) - 1)])
    return float(LATENCY_BOUNDS_MS[-1])
