"""In-process checks of the serving pieces: the token cache, /metrics protection, request ids in
the envelope, the router without a replica, the JSON log formatter, the database broker URL."""

from __future__ import annotations

import json
import logging

import pytest
from django.db import connection
from django.test import RequestFactory, override_settings
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from config.db_router import ReplicaRouter
from config.observability import metrics, metrics_allowed
from core import authentication
from core.models import ApiToken
from core.observability import JsonFormatter, RequestIdFilter, parse_server_timing, request_id
from core.tokens import revoke_token
from memories.models import Memory
from tests.factories import token_for


@pytest.fixture(autouse=True)
def fresh_token_cache():
    authentication.forget_cached_tokens()
    yield
    authentication.forget_cached_tokens()


@pytest.mark.django_db
@override_settings(MNEMO_TOKEN_CACHE_SECONDS=30)
def test_a_checked_token_is_remembered_and_forgotten_when_revoked(user):
    key = token_for(user)
    auth = authentication.ApiTokenAuthentication()
    with CaptureQueriesContext(connection) as first:
        assert auth.authenticate_credentials(key)[0] == user
    with CaptureQueriesContext(connection) as second:
        assert auth.authenticate_credentials(key)[0] == user
    # Remembered: the second check reads only the access version (one row, straight on libpq, so
    # Django's query log does not show it), not the token.
    assert len(first.captured_queries) >= 1 and second.captured_queries == []
    revoke_token(token=ApiToken.objects.get(user=user))  # this process forgets it at once
    from rest_framework.exceptions import AuthenticationFailed

    with pytest.raises(AuthenticationFailed):
        auth.authenticate_credentials(key)


@pytest.mark.django_db
@override_settings(MNEMO_TOKEN_CACHE_SECONDS=30)
def test_a_deactivated_user_is_forgotten_at_once(user):
    key = token_for(user)
    auth = authentication.ApiTokenAuthentication()
    auth.authenticate_credentials(key)
    user.is_active = False
    user.save()
    from rest_framework.exceptions import AuthenticationFailed

    with pytest.raises(AuthenticationFailed):
        auth.authenticate_credentials(key)


@pytest.mark.parametrize(
    ("remote", "header", "allowed"),
    [
        ("127.0.0.1", "", True),
        ("10.1.2.3", "", False),
        ("10.1.2.3", "Bearer s3cret-token", True),
        ("10.1.2.3", "Bearer wrong", False),
        ("10.1.2.3", "Token s3cret-token", False),
        ("not-an-ip", "", False),
    ],
)
def test_metrics_are_open_to_allowed_networks_or_the_token(remote, header, allowed):
    from config import observability

    observability._allowed_networks.cache_clear()
    with override_settings(MNEMO_METRICS_TOKEN="s3cret-token", MNEMO_METRICS_ALLOW_NETWORKS=["127.0.0.0/8"]):
        request = RequestFactory().get("/metrics", REMOTE_ADDR=remote, HTTP_AUTHORIZATION=header)
        assert metrics_allowed(request) is allowed
    observability._allowed_networks.cache_clear()


@pytest.mark.django_db
def test_metrics_text_has_the_queue_depth_from_the_database(client):
    from tests.factories import MemoryFactory

    MemoryFactory(text="a queued one")
    response = metrics(RequestFactory().get("/metrics", REMOTE_ADDR="127.0.0.1"))
    text = response.content.decode()
    queued = Memory.objects.filter(status="queued").count()
    assert f'mnemo_embedding_queue_depth{{status="queued"}} {float(queued)}' in text
    assert response.status_code == 200 and "mnemo_embedding_queue_oldest_seconds" in text


@pytest.mark.django_db
@override_settings(MNEMO_ERROR_REQUEST_ID=True)
def test_the_error_envelope_carries_the_request_id(api_client):
    response = api_client.get("/api/v1/whoami", HTTP_X_REQUEST_ID="abc-123")
    assert response.status_code == 401
    assert response.json()["error"]["request_id"] == "abc-123" == response["X-Request-ID"]
    response = api_client.get("/api/v1/whoami")
    assert response.json()["error"]["request_id"] == response["X-Request-ID"] and len(response["X-Request-ID"]) == 32


def test_json_log_lines_have_the_request_id_and_extras():
    record = logging.LogRecord("mnemo.access", logging.INFO, __file__, 1, "GET %s", ("/x",), None)
    record.status = 404
    token = request_id.set("rid-9")
    try:
        RequestIdFilter().filter(record)
        line = json.loads(JsonFormatter().format(record))
    finally:
        request_id.reset(token)
    assert line["request_id"] == "rid-9" and line["message"] == "GET /x" and line["status"] == 404


def test_without_a_replica_every_read_and_write_goes_to_the_primary():
    from core.replica import use_replica

    router = ReplicaRouter()
    with use_replica():
        assert router.db_for_read(Memory) == "default"
    assert router.db_for_write(Memory) == "default"
    assert router.allow_migrate("replica", "memories") is False


def test_the_default_broker_is_the_database(monkeypatch, tmp_path):
    import subprocess
    import sys

    from tests.conftest import ROOT

    env = {k: v for k, v in __import__("os").environ.items() if not k.startswith(("CELERY_", "DATABASE_"))}
    script = "import django; django.setup(); from django.conf import settings; print(settings.CELERY_BROKER_URL)"
    local = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "config.settings.local"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert local.stdout.strip() == "sqla+postgresql+psycopg://postgres@/mnemo_broker", local.stderr
    external = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "config.settings.local", "DATABASE_URL": "postgres://u:p%40ss@db:5433/m"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert external.stdout.strip() == "sqla+postgresql+psycopg://u:p%40ss@db:5433/m", external.stderr


@pytest.mark.django_db
def test_the_embedded_server_runs_with_mnemos_settings(monkeypatch):
    """shared_buffers sized to the machine, JIT off and autovacuum looking every 5 s
    (config/embedded_pg: server_settings), written before the server's first start so that it
    starts with them."""
    from django.conf import settings

    from config.embedded_pg import server_settings

    if settings.DATABASES["default"].get("ENGINE") != "config.embedded_pg":
        pytest.skip("the tests run against an external PostgreSQL (DATABASE_URL): no embedded server here")
    with connection.cursor() as cursor:
        cursor.execute("SHOW jit")
        assert cursor.fetchone()[0] == "off"
        cursor.execute("SHOW autovacuum_naptime")
        assert cursor.fetchone()[0] == "5s"
        cursor.execute("SELECT setting::bigint * 8192 / 1048576 FROM pg_settings WHERE name = 'shared_buffers'")
        megabytes = cursor.fetchone()[0]
    assert f"{megabytes}MB" == server_settings()["shared_buffers"]
    monkeypatch.setenv("MNEMO_PG_SHARED_BUFFERS", "2GB")
    assert server_settings() == {"shared_buffers": "2GB", "jit": "off", "autovacuum_naptime": "5s"}


class _Worker:
    """What config.celery's worker_init handler reads of Celery's WorkController."""

    def __init__(self, pool_cls: str, concurrency: int) -> None:
        self.pool_cls, self.concurrency = pool_cls, concurrency


@pytest.mark.parametrize(
    ("pool", "concurrency", "explicit", "expected"),
    [
        ("threads", 2, None, "share"),  # the default: each task embeds on its share of the cores
        ("celery.concurrency.thread:TaskPool", 4, None, "share"),
        ("solo", 1, None, "unchanged"),  # one task at a time keeps every core
        ("threads", 1, None, "unchanged"),
        ("threads", 2, "3", "unchanged"),  # an explicit MNEMO_EMBEDDER_THREADS wins
    ],
)
def test_a_threaded_worker_gives_each_task_its_share_of_the_cores(
    settings, monkeypatch, pool, concurrency, explicit, expected
):
    import os

    from config.celery import _embedder_threads_per_task

    settings.MNEMO_EMBEDDER_THREADS = 0
    if explicit is None:
        monkeypatch.delenv("MNEMO_EMBEDDER_THREADS", raising=False)
    else:
        monkeypatch.setenv("MNEMO_EMBEDDER_THREADS", explicit)
    _embedder_threads_per_task(sender=_Worker(pool, concurrency))
    share = max(1, (os.cpu_count() or 1) // concurrency)
    assert (share if expected == "share" else 0) == settings.MNEMO_EMBEDDER_THREADS


@pytest.mark.parametrize("warm", ["true", "false"])
def test_the_worker_loads_its_embedder_before_its_first_task(settings, monkeypatch, warm):
    """Celery's worker_init (before the worker takes a task) sets each task's share of the cores,
    then, unless MNEMO_WARM_EMBEDDER is false, builds the embedder with that share and runs it
    once: a cold worker's first tasks would otherwise load the model themselves (bench/NOTES.md,
    2026-12-08)."""
    import os

    from celery.signals import worker_init

    from config.celery import _prepare_worker
    from memories import embedding

    assert any(ref() is _prepare_worker for _, ref in worker_init.receivers)  # connected, not only defined
    monkeypatch.setattr(embedding, "_embedder", None)
    monkeypatch.delenv("MNEMO_EMBEDDER_THREADS", raising=False)
    monkeypatch.setenv("MNEMO_WARM_EMBEDDER", warm)
    settings.MNEMO_EMBEDDER_THREADS = 0
    _prepare_worker(sender=_Worker("threads", 2))
    share = max(1, (os.cpu_count() or 1) // 2)
    assert share == settings.MNEMO_EMBEDDER_THREADS
    if warm == "false":
        assert embedding._embedder is None
    else:
        built = embedding._embedder
        assert built is not None and built._session is not None  # type: ignore[attr-defined]
        assert built._threads == share  # type: ignore[attr-defined]


@pytest.mark.django_db
def test_server_timing_splits_a_search_into_its_phases(user):
    from memories import services
    from memories.permissions import ensure_user_namespace

    services.add_memory(
        actor=user, namespace=ensure_user_namespace(user), content="Likes green tea in the morning.", run_async=False
    )
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user)}")
    with override_settings(MNEMO_SERVER_TIMING=True):
        search = client.post("/api/v1/memories/search", {"query": "what tea"}, format="json")
        whoami = client.get("/api/v1/whoami")
    assert search.status_code == 200 and search.json()["results"], search.content
    phases = parse_server_timing(search["Server-Timing"])
    assert set(phases) == {"embed", "search-sql", "db", "total"}
    # The search statement is one of the request's statements; every phase is inside the request.
    assert 0 < phases["search-sql"] <= phases["db"] < phases["total"]
    assert 0 < phases["embed"] < phases["total"]
    assert phases["embed"] + phases["db"] <= phases["total"]
    # A request that neither embeds nor searches shows only its SQL and its total.
    assert set(parse_server_timing(whoami["Server-Timing"])) == {"db", "total"}
    with override_settings(MNEMO_SERVER_TIMING=False):
        assert "Server-Timing" not in client.post("/api/v1/memories/search", {"query": "tea"}, format="json")
