"""The ``make run`` stack, started as a user starts it (scripts/serve.py, what the Makefile runs):
gunicorn with uvicorn workers, a real Celery worker on the database broker, pooled connections,
metrics and JSON logs. One stack for the module: it takes a while to boot."""

from __future__ import annotations

import json
import os
import random
import shutil
import threading
import time

import pytest

from tests.serving.conftest import own_tmp
from tests.serving.support import http, start_stack, wait_gone, wait_ready_event

# Real servers boot slowly on a busy machine.
pytestmark = pytest.mark.timeout(900)

WEB_WORKERS = 2
POOL_SIZE = 3
BROKER_POOL = 2  # config/settings: the database broker's engine keeps at most 2 connections


@pytest.fixture(scope="module")
def stack():
    folder = own_tmp()
    stack = start_stack(
        folder,
        MNEMO_WEB_WORKERS=str(WEB_WORKERS),
        MNEMO_DB_POOL_SIZE=str(POOL_SIZE),
        # The machine running the suite may be busy: a request may wait long for a connection.
        MNEMO_DB_POOL_TIMEOUT="120",
        # Loopback is not an allowed network here: only the token opens /metrics.
        MNEMO_METRICS_TOKEN="metrics-secret-for-tests",
        MNEMO_METRICS_ALLOW_NETWORKS="10.99.0.0/16",
        MNEMO_LOG_FORMAT="json",
        # An idle worker looks for work every 2 s: wide enough to see a memory still queued
        # right after add_memory answered.
        MNEMO_BROKER_POLL_SECONDS="2",
    )
    yield stack
    stack.stop()
    wait_gone(stack.pgdata)
    shutil.rmtree(folder, ignore_errors=True)


def test_it_serves_with_gunicorn_uvicorn_workers_and_a_celery_worker_with_debug_off(stack):
    commands = [" ".join(p.cmdline()) for p in stack.children()]
    assert any("gunicorn" in c and "config.asgi:application" in c for c in commands), commands
    assert sum("gunicorn" in c for c in commands) == WEB_WORKERS + 1  # the arbiter and its workers
    assert any("celery" in c and "worker" in c and "--beat" in c for c in commands), commands
    # The worker runs a task per core in threads (config/settings: CELERY_WORKER_POOL).
    assert f"concurrency: {os.cpu_count()} (thread)" in stack.output()
    assert "uvicorn_worker.UvicornWorker" in stack.output()
    # DEBUG off: an unknown page is a plain 404, never Django's technical page.
    status, body, _ = http("GET", f"{stack.url}/no-such-page")
    assert status == 404 and "Django tried these URL patterns" not in str(body)
    # The admin looks right: its CSS comes from WhiteNoise.
    status, page, _ = http("GET", f"{stack.url}/admin/login/")
    assert status == 200 and "/static/admin/css/base.css" in page
    status, css, headers = http("GET", f"{stack.url}/static/admin/css/base.css")
    assert status == 200 and headers["Content-Type"].startswith("text/css") and "body" in css


def test_add_memory_answers_before_embedding_and_the_worker_makes_it_ready(stack):
    status, body, _ = http(
        "POST", f"{stack.url}/api/v1/memories", {"content": "Dana's passport expires in March 2031."}, stack.token
    )
    assert status == 202, body
    assert body["status"] == "queued"
    # Answered before embedding: the row has no vector yet.
    [(row_status, has_vector)] = stack.sql(
        "SELECT status, embedding IS NOT NULL FROM memories_memory WHERE id = %s", (body["id"],)
    )
    assert (row_status, has_vector) == ("queued", False)
    event = wait_ready_event(stack, body["event_id"])
    assert event["status"] == "ready"
    [(row_status, has_vector)] = stack.sql(
        "SELECT status, embedding IS NOT NULL FROM memories_memory WHERE id = %s", (body["id"],)
    )
    assert (row_status, has_vector) == ("ready", True)
    assert "memories.tasks.embed_memories" in stack.output()  # the worker did it, not the web process
    assert stack.sql("SELECT count(*) FROM kombu_message", dbname="mnemo_broker") == [(0,)]


def test_connections_stay_bounded_under_32_concurrent_clients(stack):
    """Mixed traffic from 32 clients: no errors, and the server's connection count is set by the
    processes' pools, not by the number of clients."""
    errors: list[str] = []
    counts: list[int] = []
    done = threading.Event()
    words = ["tea", "passport", "Colby", "allergic", "email", "morning", "Los Angeles", "TEAM-123"]

    def client(n: int) -> None:
        rng = random.Random(n)
        while not done.is_set():
            roll = rng.random()
            if roll < 0.7:
                call = ("POST", "/api/v1/memories/search", {"query": rng.choice(words), "limit": 5})
            elif roll < 0.85:
                call = ("POST", "/api/v1/memories/remember", {"text": f"Client {n} fact {rng.random():.6f}"})
            else:
                call = ("POST", "/api/v1/memories", {"content": f"Client {n} note {rng.random():.6f}"})
            try:
                status, body, _ = http(call[0], stack.url + call[1], call[2], stack.token, timeout=120)
                if status >= 400:
                    errors.append(f"{call[1]} {status} {body}")
            except OSError as exc:
                errors.append(f"{call[1]} {exc!r}")

    def sample() -> None:
        while not done.is_set():
            counts.append(
                stack.sql("SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'")[0][0]
            )
            time.sleep(0.2)

    threads = [threading.Thread(target=client, args=(n,)) for n in range(32)] + [threading.Thread(target=sample)]
    for t in threads:
        t.start()
    time.sleep(20)
    done.set()
    for t in threads:
        t.join(150)
    assert not errors, errors[:5]
    # Web: pool + broker engine each; worker: the same; beat: a publisher; +1 for the sampler.
    bound = WEB_WORKERS * (POOL_SIZE + BROKER_POOL) + (POOL_SIZE + BROKER_POOL) * 2 + 1
    assert counts and max(counts) <= bound, (max(counts), bound)
    [(max_connections,)] = stack.sql("SHOW max_connections")
    assert bound < int(max_connections) - 10  # room for ops commands


def test_metrics_need_the_token_and_report_routes_search_queue_embedder_and_tasks(stack):
    http("POST", f"{stack.url}/api/v1/memories/search", {"query": "passport", "mode": "keyword"}, stack.token)
    status, _, _ = http("GET", f"{stack.url}/metrics")
    assert status == 404
    status, _, _ = http("GET", f"{stack.url}/metrics", headers={"Authorization": "Bearer wrong"})
    assert status == 404
    status, text, headers = http(
        "GET", f"{stack.url}/metrics", headers={"Authorization": "Bearer metrics-secret-for-tests"}
    )
    assert status == 200 and headers["Content-Type"].startswith("text/plain")
    assert 'mnemo_http_request_duration_seconds_bucket{le="0.005",method="POST",route="api/v1/memories/search"' in text
    assert 'mnemo_search_duration_seconds_count{mode="keyword"}' in text
    assert 'mnemo_embedding_queue_depth{status="ready"}' in text
    assert "mnemo_embedder_duration_seconds_count" in text
    # Task outcomes come from the worker process: multiprocess mode adds them up.
    assert 'mnemo_tasks_total{outcome="success",task="memories.tasks.embed_memories"}' in text


def test_json_logs_carry_the_request_id_that_the_error_envelope_shows(stack):
    status, body, headers = http(
        "GET", f"{stack.url}/api/v1/memories/999999", token=stack.token, headers={"X-Request-ID": "trace-42.a"}
    )
    assert status == 404
    assert body["error"]["request_id"] == "trace-42.a" and headers["X-Request-ID"] == "trace-42.a"
    # An id from outside that is not plain is replaced by one of ours.
    status, body, headers = http("GET", f"{stack.url}/api/v1/nope", headers={"X-Request-ID": "bad id!"})
    assert body["error"]["request_id"] == headers["X-Request-ID"] != "bad id!"
    lines = []
    for line in stack.output().splitlines():
        if line.startswith("{"):
            try:
                lines.append(json.loads(line))
            except ValueError:
                continue
    access = [e for e in lines if e.get("request_id") == "trace-42.a" and e.get("logger") == "mnemo.access"]
    assert access and access[0]["status"] == 404 and access[0]["route"] == "api/v1/memories/<int:memory_id>"
