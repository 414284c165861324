"""Shared fixtures: API clients, real brokers, real Celery workers, private Redis servers.

Tests that need Redis, RabbitMQ or a browser skip with a reason on a developer's machine that
lacks them, and fail in CI (``CI=true``), where everything must run.
"""

from __future__ import annotations

import os

# Prove the embedder never reaches for a model hub: any such attempt fails at once.
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"

import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection
from django.test import override_settings
from rest_framework.test import APIClient

from tests.factories import UserFactory, token_for

ROOT = Path(__file__).resolve().parent.parent
# The Python client (clients/python) is a package of its own: the tests import this tree's copy
# even where the installed one is another checkout's (make install installs it editable).
CLIENT_ROOT = ROOT / "clients" / "python"
if str(CLIENT_ROOT) not in sys.path:
    sys.path.insert(0, str(CLIENT_ROOT))
REDIS_URL = "redis://127.0.0.1:6379/15"
RABBITMQ_URL = "amqp://guest:guest@127.0.0.1:5672//"
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def port_open(host: str, port: int, timeout: float = 0.5) -> bool:
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def require(condition: bool, reason: str) -> None:
    """Skip with ``reason`` where a dependency is missing, but fail in CI: there it must run."""
    if condition:
        return
    if IN_CI:
        pytest.fail(f"required in CI: {reason}")
    pytest.skip(reason)


def require_module(name: str, reason: str) -> None:
    """``require`` for a test module's import, at module level: skip the module where ``name`` is
    not installed, but fail in CI (pytest.importorskip would skip there too)."""
    import importlib.util

    if importlib.util.find_spec(name) is not None:
        return
    if IN_CI:
        pytest.fail(f"required in CI: {reason}", pytrace=False)
    pytest.skip(reason, allow_module_level=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(predicate: Callable[[], bool], timeout: float, what: str, interval: float = 0.1) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


# --- API clients -------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _fresh_namespace_stats() -> Iterator[None]:
    """Search caches what it counted about namespaces and words for a minute per process
    (memories.selectors); each test starts without what an earlier test counted."""
    from memories.selectors import forget_namespace_stats

    forget_namespace_stats()
    yield


@pytest.fixture(scope="session", autouse=True)
def _no_session_outlives_the_run(django_db_setup, django_db_blocker) -> Iterator[None]:
    """Before the test database is dropped, end the sessions this run's threads left open.

    A full run ended with "database test_mnemo is being accessed by other users": one idle
    session, opened at the end of a worker test and last used by a flush, held by a thread of
    this process that outlives the tests (a ``ThreadPoolExecutor`` worker; Django's connections
    are per thread, and pytest-django closes only the main thread's). Subprocesses are stopped
    by their fixtures; this ends what is left, after the last test, so nothing else sees it."""
    yield
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


@pytest.fixture
def user(db):
    return UserFactory()


@pytest.fixture
def api_client() -> APIClient:
    return APIClient()


def api_client_for(user) -> APIClient:
    """An API client that authenticates as ``user`` with its token (the agents' way in)."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user)}")
    return client


@pytest.fixture
def client_for(db) -> Callable[[object], APIClient]:
    """``client_for(user)``: the one way tests call the API as someone (``None``: anonymous)."""

    def make(user) -> APIClient:
        return APIClient() if user is None else api_client_for(user)

    return make


@pytest.fixture
def token_client(user) -> APIClient:
    return api_client_for(user)


# --- brokers and workers -----------------------------------------------------------------------


@pytest.fixture
def redis_url() -> str:
    require(port_open("127.0.0.1", 6379), "Redis is not running on 127.0.0.1:6379")
    return REDIS_URL


@pytest.fixture
def rabbitmq_url() -> str:
    require(port_open("127.0.0.1", 5672), "RabbitMQ is not running on 127.0.0.1:5672")
    return RABBITMQ_URL


@dataclass
class PrivateRedis:
    """A redis-server of the test's own, on a free port, that the test may stop."""

    port: int
    process: subprocess.Popen

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)
        wait_for(lambda: not port_open("127.0.0.1", self.port), 10, "private redis to stop")

    def start(self) -> None:
        self.process = _spawn_redis(self.port)


def _spawn_redis(port: int) -> subprocess.Popen:
    process = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wait_for(lambda: port_open("127.0.0.1", port), 10, f"private redis on {port}")
    return process


@pytest.fixture
def private_redis() -> Iterator[PrivateRedis]:
    require(shutil.which("redis-server") is not None, "redis-server is not installed (make system-deps)")
    port = free_port()
    server = PrivateRedis(port=port, process=_spawn_redis(port))
    yield server
    server.stop()


@contextmanager
def celery_broker(url: str) -> Iterator[None]:
    """Point this process's Celery producer at ``url`` (no eager mode) for the block."""
    from config.celery import app

    old = (app.conf.broker_url, app.conf.task_always_eager)

    def reset_pools() -> None:
        # Celery caches its producer pool, and kombu keys its pools by connection: drop both so
        # that the next publish connects to the broker now configured.
        from kombu import pools

        pools.reset()
        app._pool = None
        app.amqp._producer_pool = None

    reset_pools()
    app.conf.broker_url = url
    app.conf.task_always_eager = False
    try:
        with override_settings(CELERY_BROKER_URL=url, CELERY_TASK_ALWAYS_EAGER=False):
            yield
    finally:
        reset_pools()
        app.conf.broker_url, app.conf.task_always_eager = old


@dataclass
class Worker:
    """A real ``celery -A config worker`` process started by a test."""

    process: subprocess.Popen
    log: Path

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def kill(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture(scope="module")
def committed(django_db_setup, django_db_blocker) -> Iterator[None]:
    """Database access for the whole module, in autocommit, for a module whose live server
    processes must see every write at once; everything is flushed when the module is done (once:
    a flush re-creates content types under new ids, which long-lived servers have cached)."""
    with django_db_blocker.unblock():
        yield
        call_command("flush", interactive=False, verbosity=0)


def worker_env(broker_url: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings.test",
            "CELERY_BROKER_URL": broker_url,
            "CELERY_QUEUE": settings.CELERY_TASK_DEFAULT_QUEUE,
            "MNEMO_TEST_WORKER_DB": connection.settings_dict["NAME"],
            "PYTHONPATH": str(ROOT),
        }
    )
    return env


@pytest.fixture
def start_worker(tmp_path) -> Iterator[Callable[[str], Worker]]:
    """Start real Celery workers (the pool and concurrency of the settings, as make run) on ``broker_url``."""
    workers: list[Worker] = []

    def start(broker_url: str) -> Worker:
        log = tmp_path / f"worker-{len(workers)}.log"
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--without-mingle",
                "--without-gossip",
                "--loglevel=INFO",
                "-Q",
                settings.CELERY_TASK_DEFAULT_QUEUE,
                "-n",
                f"test{len(workers)}-{os.getpid()}@%h",
            ],
            cwd=ROOT,
            env=worker_env(broker_url),
            stdout=log.open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        worker = Worker(process=process, log=log)
        workers.append(worker)

        def ready() -> bool:
            if process.poll() is not None:
                raise AssertionError(f"worker exited early:\n{worker.output()}")
            return " ready." in worker.output()

        wait_for(ready, 60, "the Celery worker to be ready", interval=0.2)
        return worker

    yield start
    for worker in workers:
        worker.stop()
