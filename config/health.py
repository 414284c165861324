"""Health probes: /healthz says the process answers; /readyz says it can do its work."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, cast

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness: no dependencies checked, no authentication."""
    return JsonResponse({"ok": True, "status": "alive"})


def check_database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT version()")
        return cursor.fetchone()[0].split(" on ")[0]


def check_pgvector() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
        row = cursor.fetchone()
    if row is None:
        raise RuntimeError(
            "the vector extension is not installed: run migrations as a role allowed to create it (pgvector "
            "is not a trusted extension: a superuser), or run CREATE EXTENSION vector as a superuser first"
        )
    return f"pgvector {row[0]}"


def check_embedder() -> str:
    from memories.embedding import embed_texts, get_embedder
    from memories.models import EMBEDDING_DIMENSIONS

    embedder = get_embedder()
    vector = embed_texts(["readiness probe"])[0]
    if len(vector) != EMBEDDING_DIMENSIONS:
        raise RuntimeError(f"{embedder.name} gives {len(vector)} dimensions; the column has {EMBEDDING_DIMENSIONS}")
    return f"{embedder.name} ({len(vector)} dimensions)"


def check_broker() -> str:
    url = settings.CELERY_BROKER_URL
    if not url or url.startswith("memory://"):
        return "none configured: tasks run in process"
    from kombu import Connection

    with Connection(url, connect_timeout=settings.CELERY_BROKER_CONNECTION_TIMEOUT) as conn:
        conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=3)
        return f"{conn.transport_cls} reachable"


# The oldest PostgreSQL major version Mnemo supports (pgvector 0.8 supports 13 and newer; the
# versions the test suite ran on are in docs/own-infrastructure.md).
MIN_POSTGRES_MAJOR = 13


def check_postgres_version() -> str:
    major = cast(Any, connection).pg_version // 10000  # PostgreSQL's wrapper only
    if major < MIN_POSTGRES_MAJOR:
        raise RuntimeError(f"PostgreSQL {major}: Mnemo needs {MIN_POSTGRES_MAJOR} or newer")
    return f"PostgreSQL {major} (minimum {MIN_POSTGRES_MAJOR})"


def check_replica() -> str:
    """With DATABASE_REPLICA_URL: the replica answers, is a standby, and is not lagging."""
    from core.replica import _lag_seconds, replica_configured

    if not replica_configured():
        return "none configured"
    lag = _lag_seconds()
    if lag > settings.MNEMO_REPLICA_MAX_LAG_SECONDS:
        raise RuntimeError(f"the replica is {lag:.1f}s behind (reads go to the primary until it catches up)")
    return f"streaming, {lag:.1f}s behind"


CHECKS: dict[str, Callable[[], str]] = {
    "database": check_database,
    "pgvector": check_pgvector,
    "embedder": check_embedder,
    "broker": check_broker,
}


def run_checks() -> tuple[bool, dict[str, dict[str, object]]]:
    """Run every check; each reports ok, a detail and how long it took."""
    results: dict[str, dict[str, object]] = {}
    healthy = True
    for name, check in CHECKS.items():
        started = time.perf_counter()
        try:
            detail, ok = check(), True
        except Exception as exc:  # a probe reports failures, it does not raise them
            detail, ok = f"{type(exc).__name__}: {exc}", False
            healthy = False
        results[name] = {"ok": ok, "detail": detail, "ms": round((time.perf_counter() - started) * 1000, 1)}
    return healthy, results


@never_cache
@require_GET
def readyz(request: HttpRequest) -> JsonResponse:
    """Readiness: database, pgvector, embedder and (when configured) broker; 503 if any fails."""
    healthy, checks = run_checks()
    return JsonResponse({"ok": healthy, "checks": checks}, status=200 if healthy else 503)
