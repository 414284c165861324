"""Search latency, recorded cheaply for the staff home page: one upsert per search, per minute.

A failure here never fails a search: the timing is dropped and logged.
"""

from __future__ import annotations

import bisect
import functools
import logging
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any, TypeVar

from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from memories.models import LATENCY_BOUNDS_MS, SearchLatency

logger = logging.getLogger(__name__)
F = TypeVar("F", bound=Callable[..., Any])
KEEP = timedelta(days=1)

_UPSERT = f"""
    INSERT INTO {SearchLatency._meta.db_table} AS t (minute, count, total_ms, max_ms, buckets)
    VALUES (%(minute)s, 1, %(ms)s, %(ms)s, %(buckets)s)
    ON CONFLICT (minute) DO UPDATE SET
        count = t.count + 1,
        total_ms = t.total_ms + EXCLUDED.total_ms,
        max_ms = GREATEST(t.max_ms, EXCLUDED.max_ms),
        buckets[%(slot)s] = t.buckets[%(slot)s] + 1
    RETURNING (xmax = 0) AS inserted
"""  # noqa: S608 (the table name is ours)


def bucket_of(ms: float) -> int:
    """The histogram bucket (0-based) of a duration."""
    return bisect.bisect_left(LATENCY_BOUNDS_MS, ms)


def record_search(ms: float, *, at: datetime | None = None) -> None:
    """Count one search of ``ms`` milliseconds in its minute's row."""
    minute = (at or timezone.now()).replace(second=0, microsecond=0)
    slot = bucket_of(ms)
    buckets = [0] * (len(LATENCY_BOUNDS_MS) + 1)
    buckets[slot] = 1
    params: dict[str, Any] = {"minute": minute, "ms": ms, "buckets": buckets, "slot": slot + 1}  # SQL arrays: 1-based
    try:
        # In a caller's transaction a savepoint keeps a failed write from spoiling it.
        with transaction.atomic(savepoint=connection.in_atomic_block), connection.cursor() as cursor:
            cursor.execute(_UPSERT, params)
            row = cursor.fetchone()
            inserted = bool(row and row[0])
            if inserted:  # a new minute: drop what no page shows any more
                SearchLatency.objects.filter(minute__lt=minute - KEEP).delete()
    except DatabaseError as exc:
        logger.warning("search latency not recorded (%s)", exc.__class__.__name__)


def timed_search(func: F) -> F:
    """Record how long each call of the wrapped search took (also when it raised)."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return func(*args, **kwargs)
        finally:
            record_search((time.perf_counter() - started) * 1000)

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
