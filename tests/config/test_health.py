"""Liveness and readiness probes."""

import pytest
from django.test import override_settings

pytestmark = pytest.mark.django_db


def test_healthz_needs_no_auth_and_no_dependencies(api_client):
    response = api_client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"ok": True, "status": "alive"}


def test_readyz_names_each_check(api_client):
    response = api_client.get("/readyz")
    body = response.json()
    assert response.status_code == 200, body
    assert set(body["checks"]) == {"database", "pgvector", "embedder", "broker"}
    assert all(check["ok"] for check in body["checks"].values())
    assert body["checks"]["pgvector"]["detail"].startswith("pgvector 0.8")
    assert "384 dimensions" in body["checks"]["embedder"]["detail"]
    assert "in process" in body["checks"]["broker"]["detail"]


def test_readyz_reports_a_stopped_broker_as_not_ready(api_client, private_redis):
    with override_settings(CELERY_BROKER_URL=private_redis.url):
        up = api_client.get("/readyz")
        assert up.status_code == 200, up.json()
        assert up.json()["checks"]["broker"]["ok"] is True
        private_redis.stop()
        down = api_client.get("/readyz")
    assert down.status_code == 503
    body = down.json()
    assert body["ok"] is False
    assert body["checks"]["broker"]["ok"] is False
    assert body["checks"]["database"]["ok"] is True


def test_readyz_reports_an_unreachable_rabbitmq_as_not_ready(api_client):
    from tests.conftest import free_port

    with override_settings(CELERY_BROKER_URL=f"amqp://guest:guest@127.0.0.1:{free_port()}//"):
        response = api_client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["checks"]["broker"]["ok"] is False


def test_readyz_reports_a_broken_embedder(api_client):
    with override_settings(MNEMO_EMBEDDER="memories.embedding.NoSuchModel"):
        response = api_client.get("/readyz")
    assert response.status_code == 503
    assert "unknown embedder" in response.json()["checks"]["embedder"]["detail"]
