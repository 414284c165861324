"""Request ids, the access log and the protected Prometheus endpoint (the log formatter and
filter are in core/observability.py: logging is configured before the apps load)."""

from __future__ import annotations

import ipaddress
import logging
import os
import re
import secrets
import time
import uuid
from contextlib import ExitStack
from functools import cache

from django.conf import settings
from django.db import connections
from django.http import HttpRequest, HttpResponse

from core.errors import error_body
from core.observability import HTTP_REQUEST_SECONDS, add_timing, request_id, request_timings, server_timing_header

access_logger = logging.getLogger("mnemo.access")

# A request id from outside is kept only if it is short and plain (it lands in logs and JSON).
_SANE_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")


class RequestObservabilityMiddleware:
    """Gives each request an id, times it by route, and writes one access log line."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        given = request.headers.get("X-Request-ID", "")
        rid = given if _SANE_REQUEST_ID.match(given) else uuid.uuid4().hex
        token = request_id.set(rid)
        started = time.perf_counter()
        response: HttpResponse | None = None
        with ExitStack() as timing:
            timings = _start_server_timing(timing) if settings.MNEMO_SERVER_TIMING else None
            try:
                response = self.get_response(request)
                return response
            finally:
                self._finish(request, response, rid, started, timings)
                request_id.reset(token)

    def _finish(
        self,
        request: HttpRequest,
        response: HttpResponse | None,
        rid: str,
        started: float,
        timings: dict[str, float] | None,
    ) -> None:
        """The request's metrics, its headers (request id, Server-Timing) and its access log line."""
        elapsed = time.perf_counter() - started
        status = response.status_code if response is not None else 500
        match = getattr(request, "resolver_match", None)
        # The route pattern, not the path: /api/v1/memories/<int:memory_id> is one series.
        route = (match.route if match is not None else "") or "unmatched"
        HTTP_REQUEST_SECONDS.labels(route=route, method=request.method, status=str(status)).observe(elapsed)
        if response is not None:
            response["X-Request-ID"] = rid
            if timings is not None:
                response["Server-Timing"] = server_timing_header(timings, elapsed)
        if settings.MNEMO_ACCESS_LOG and route != "metrics":
            access_logger.info(
                "%s %s %s %.1fms",
                request.method,
                request.path,
                status,
                elapsed * 1000,
                extra={
                    "method": request.method,
                    "path": request.path,
                    "route": route,
                    "status": status,
                    "duration_ms": round(elapsed * 1000, 2),
                },
            )


def _start_server_timing(stack: ExitStack) -> dict[str, float]:
    """Times this request's phases: the query embedding and the search statement (counted where
    they run, core.observability.add_timing) and every SQL statement on every database (``db``)."""
    timings: dict[str, float] = {}
    stack.callback(request_timings.reset, request_timings.set(timings))

    def timed_sql(execute, sql, params, many, context):
        begun = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            add_timing("db", time.perf_counter() - begun)

    for alias in settings.DATABASES:
        stack.enter_context(connections[alias].execute_wrapper(timed_sql))
    return timings


# --- /metrics ------------------------------------------------------------------------------------


@cache
def _allowed_networks() -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    return tuple(ipaddress.ip_network(n.strip(), strict=False) for n in settings.MNEMO_METRICS_ALLOW_NETWORKS if n)


def metrics_allowed(request: HttpRequest) -> bool:
    """A scraper on an allowed network, or one that shows the metrics token. The address is the
    connection's peer (``REMOTE_ADDR``): the server takes one from X-Forwarded-For only when the
    peer is one of ``MNEMO_TRUSTED_PROXIES`` (config/gunicorn.py), never from anyone else."""
    token = settings.MNEMO_METRICS_TOKEN
    header = request.headers.get("Authorization", "")
    if token and header.startswith("Bearer ") and secrets.compare_digest(header[7:].strip(), token):
        return True
    try:
        address = ipaddress.ip_address(request.META.get("REMOTE_ADDR", ""))
    except ValueError:
        return False
    return any(address in network for network in _allowed_networks())


class QueueDepthCollector:
    """Embedding queue depth by status and the oldest queued memory's age, read at scrape time
    from the database (the truth, whichever process queued them)."""

    def collect(self):
        from django.db.models import Count, Min
        from django.utils import timezone
        from prometheus_client.core import GaugeMetricFamily

        from memories.models import Memory

        depth = GaugeMetricFamily("mnemo_embedding_queue_depth", "Memories by embedding status.", labels=["status"])
        counts = dict(Memory.objects.values_list("status").annotate(n=Count("id")).values_list("status", "n"))
        for status in Memory.Status.values:
            depth.add_metric([status], counts.get(status, 0))
        yield depth
        oldest = Memory.objects.filter(status=Memory.Status.QUEUED).aggregate(t=Min("created_at"))["t"]
        age = GaugeMetricFamily("mnemo_embedding_queue_oldest_seconds", "Age of the oldest queued memory.")
        age.add_metric([], (timezone.now() - oldest).total_seconds() if oldest else 0.0)
        yield age


def metrics(request: HttpRequest) -> HttpResponse:
    """Prometheus text format: this process's metrics, or every process's in multiprocess mode."""
    from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest

    if not metrics_allowed(request):
        from django.http import JsonResponse

        return JsonResponse(error_body("NOT_FOUND", f"No route for {request.path}."), status=404)
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    else:
        registry = REGISTRY
    output = generate_latest(registry)
    queue = CollectorRegistry()
    queue.register(QueueDepthCollector())
    output += generate_latest(queue)
    return HttpResponse(output, content_type=CONTENT_TYPE_LATEST)
