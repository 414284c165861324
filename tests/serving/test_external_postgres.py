"""The DATABASE_URL path: a PostgreSQL that is not the embedded one, started by the test as a separate
server on a TCP port with a password (pgserver's binaries; the app's role is not a superuser):
migrations, mnemo_doctor, the make run stack with its worker and health checks, remember and
hybrid search, and the search and health test files run against it."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT
from tests.serving.pg_cluster import start_primary
from tests.serving.support import http, start_stack, user_env, wait_ready_event

pytestmark = [pytest.mark.external_pg, pytest.mark.timeout(1200)]


@pytest.fixture(scope="module")
def external():
    cluster = start_primary()
    yield cluster
    cluster.destroy()


def _manage(args: list[str], url: str, tmp_path) -> subprocess.CompletedProcess:
    env = user_env(tmp_path / "unused", DATABASE_URL=url, DJANGO_SETTINGS_MODULE="config.settings.local")
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )


def test_migrate_doctor_and_the_whole_stack_on_an_external_server(external, tmp_path):
    url = external.url()
    migrate = _manage(["migrate", "--noinput"], url, tmp_path)
    assert migrate.returncode == 0, migrate.stdout + migrate.stderr
    doctor = _manage(["mnemo_doctor"], url, tmp_path)
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr
    assert "PostgreSQL 18" in doctor.stdout and "pgvector 0.8" in doctor.stdout
    assert not (tmp_path / "unused" / "pgdata").exists()  # no embedded server was started

    stack = start_stack(tmp_path, DATABASE_URL=url, MNEMO_WARM_EMBEDDER="false", MNEMO_WEB_WORKERS="1")
    try:
        status, ready, _ = http("GET", f"{stack.url}/readyz")
        assert status == 200 and all(check["ok"] for check in ready["checks"].values()), ready
        assert (
            "sqla" in ready["checks"]["broker"]["detail"].lower() or "SQLAlchemy" in ready["checks"]["broker"]["detail"]
        )
        token = stack.token
        status, body, _ = http("POST", f"{stack.url}/api/v1/memories", {"content": "Invoice code ZX-9917."}, token)
        assert status == 202 and body["status"] == "queued"
        wait_ready_event(stack, body["event_id"])  # through the worker, on the external server's queue
        status, body, _ = http(
            "POST", f"{stack.url}/api/v1/memories/remember", {"text": "Maya's birthday is on 12 May."}, token
        )
        assert status == 201, body
        status, body, _ = http(
            "POST", f"{stack.url}/api/v1/memories/search", {"query": "when is Maya's birthday", "limit": 3}, token
        )
        assert status == 200 and "Maya" in body["results"][0]["text"]
        status, body, _ = http("POST", f"{stack.url}/api/v1/memories/search", {"query": "ZX-9917"}, token)
        assert status == 200 and "ZX-9917" in body["results"][0]["text"]
    finally:
        stack.stop()


def test_the_search_and_health_tests_pass_on_the_external_server(external):
    """The test files that prove hybrid search with iterative scans (a small namespace in a large
    table) and the health probes, run against the external server (pytest-django makes its test
    database there)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MNEMO_TEST_", "MNEMO_DATA_DIR", "CELERY_"))}
    env.update({"DATABASE_URL": external.url(), "DJANGO_SETTINGS_MODULE": "config.settings.test"})
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-x",
            "tests/memories/test_search.py",
            "tests/config/test_health.py",
            "tests/memories/test_remember.py",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert " passed" in result.stdout and "skipped" not in result.stdout.splitlines()[-1]
