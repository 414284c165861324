"""Reads that may come from a read replica, and the replica's health.

With ``DATABASE_REPLICA_URL`` set there is a second database alias, ``replica``. Only reads
that opt in go there (``config.db_router`` asks :func:`read_alias`): searches (the
:func:`reads_from_replica` decorator on the search selector, which also covers the session
prompt's recall), and the list routes named in ``MNEMO_REPLICA_ROUTES``. Everything else, every
write and every read-your-own-write path, stays on the primary.

The replica is used only while it is healthy: reachable, in recovery (a standby), and not more
than ``MNEMO_REPLICA_MAX_LAG_SECONDS`` behind. The check runs at most every
``MNEMO_REPLICA_CHECK_SECONDS`` per process; a read that fails on the replica marks it down and
runs again on the primary.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, ParamSpec, TypeVar

from django.conf import settings
from django.db import DatabaseError, connections

logger = logging.getLogger(__name__)

REPLICA = "replica"
_wanted: ContextVar[bool] = ContextVar("mnemo_read_from_replica", default=False)
_state_lock = threading.Lock()
_state: dict[str, Any] = {"healthy": False, "checked_at": float("-inf"), "lag": None, "retry_at": float("-inf")}
# A replica that did not answer is asked again after this long at the earliest (each try can
# cost a read the connection timeout).
DOWN_RETRY_SECONDS = 5.0

P = ParamSpec("P")
R = TypeVar("R")


def replica_configured() -> bool:
    return REPLICA in settings.DATABASES


def _lag_seconds() -> float:
    """How far the replica is behind: 0 when it has replayed everything the primary wrote."""
    with connections["default"].cursor() as cursor:
        cursor.execute("SELECT pg_current_wal_lsn()::text")
        primary_lsn = cursor.fetchone()[0]
    with connections[REPLICA].cursor() as cursor:
        cursor.execute(
            "SELECT pg_is_in_recovery(), pg_last_wal_replay_lsn() >= %s::pg_lsn,"
            " coalesce(extract(epoch FROM now() - pg_last_xact_replay_timestamp()), 0)",
            [primary_lsn],
        )
        in_recovery, caught_up, since_last_replay = cursor.fetchone()
    if not in_recovery:
        raise RuntimeError("DATABASE_REPLICA_URL names a server that is not a standby")
    return 0.0 if caught_up else float(since_last_replay)


def replica_healthy(*, force: bool = False) -> bool:
    """Whether reads may go to the replica now (checked at most every MNEMO_REPLICA_CHECK_SECONDS)."""
    if not replica_configured():
        return False
    now = time.monotonic()
    if not force and (now - _state["checked_at"] < settings.MNEMO_REPLICA_CHECK_SECONDS or now < _state["retry_at"]):
        return bool(_state["healthy"])
    with _state_lock:
        retry_at = float("-inf")
        try:
            lag = _lag_seconds()
            healthy = lag <= settings.MNEMO_REPLICA_MAX_LAG_SECONDS
            if not healthy:
                logger.warning("read replica is %.1fs behind: reading from the primary", lag)
        except Exception as exc:  # down, refusing, misconfigured: the primary answers instead
            lag, healthy = None, False
            retry_at = time.monotonic() + DOWN_RETRY_SECONDS
            logger.warning("read replica unavailable (%s): reading from the primary", exc)
            _close_quietly()
        was = _state["healthy"]
        _state.update(healthy=healthy, checked_at=time.monotonic(), lag=lag, retry_at=retry_at)
        if healthy and not was:
            logger.info("read replica healthy again: reads go to it")
        return healthy


def mark_replica_down() -> None:
    with _state_lock:
        _state.update(healthy=False, checked_at=time.monotonic(), retry_at=time.monotonic() + DOWN_RETRY_SECONDS)
    _close_quietly()


def _close_quietly() -> None:
    # A broken connection may fail to close; it is dropped either way.
    with contextlib.suppress(Exception):
        connections[REPLICA].close()


def read_alias() -> str | None:
    """The alias for a read in this context: the replica when wanted and healthy, else None."""
    if _wanted.get() and replica_healthy():
        return REPLICA
    return None


@contextmanager
def use_replica() -> Iterator[None]:
    """Reads in this block may come from the replica (when one is configured and healthy)."""
    token = _wanted.set(True)
    try:
        yield
    finally:
        _wanted.reset(token)


@contextmanager
def use_primary() -> Iterator[None]:
    token = _wanted.set(False)
    try:
        yield
    finally:
        _wanted.reset(token)


def reads_from_replica(func: Callable[P, R]) -> Callable[P, R]:
    """Run a read-only function against the replica; if the replica fails it, run it on the primary."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with use_replica():
            if read_alias() != REPLICA:
                with use_primary():
                    return func(*args, **kwargs)
            try:
                return func(*args, **kwargs)
            except DatabaseError:
                # A read is safe to run twice: the replica failed it (or the primary did, and
                # it fails again below and the error goes up).
                logger.warning("a read failed on the replica: running it on the primary", exc_info=True)
                mark_replica_down()
        with use_primary():
            return func(*args, **kwargs)

    return wrapper
