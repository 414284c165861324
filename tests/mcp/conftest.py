"""Live Mnemo servers for the MCP tests, the official MCP client to drive them, and callers.

``mcp_servers`` starts, once per module, the production shape against the test database:
gunicorn with two uvicorn worker processes on one port (server A), plus a single plain uvicorn
process without lifespan events on another port (server B, which must start the SDK's session
manager lazily). A session opened on one process must work on any other.

Starting servers takes tens of seconds, so they live for the module, and the module's data is
committed as it is written (``committed``) and flushed once at the end instead of after each
test: a flush re-creates content types under new ids, which long-lived server processes have
cached (django-guardian looks object permissions up by them). Each test makes its own callers
(``people``), so tests do not see each other's data.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2
import pytest
from django.contrib.auth.models import Permission
from django.core.management import call_command
from django.db import connection
from guardian.shortcuts import assign_perm
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from tests.conftest import ROOT, free_port, wait_for
from tests.factories import UserFactory


def run_async(coroutine: Coroutine[Any, Any, Any]) -> Any:
    """Run an MCP client scenario to its end in an event loop of its own, on a thread of its own:
    the session-wide Playwright browser of the browser tests keeps an event loop running on the
    main thread, where ``asyncio.run`` would refuse to start."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


ALLOWED_ORIGIN = "http://localhost:*"


def server_env() -> dict[str, str]:
    """The environment of a process that must use this run's test database (as ``worker_env``)."""
    env = dict(os.environ)
    env.pop("CELERY_BROKER_URL", None)  # tasks run in process, as in the test run
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings.test",
            "MNEMO_TEST_WORKER_DB": connection.settings_dict["NAME"],
            "PYTHONPATH": str(ROOT),
            "MNEMO_MCP_ALLOWED_HOSTS": "127.0.0.1,localhost",
            "MNEMO_MCP_ALLOWED_ORIGINS": ALLOWED_ORIGIN,
            # The production shape: each process keeps checked tokens (and their users'
            # permissions); a revocation must still apply at once (tests/mcp/test_revocation.py).
            "MNEMO_TOKEN_CACHE_SECONDS": "300",
        }
    )
    return env


@dataclass
class Server:
    name: str
    port: int
    process: subprocess.Popen
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)


def _start(name: str, command: list[str], port: int, log: Path) -> Server:
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        env=server_env(),
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    server = Server(name=name, port=port, process=process, log=log)

    def ready() -> bool:
        if process.poll() is not None:
            raise AssertionError(f"{name} exited early:\n{server.output()}")
        try:
            return httpx2.get(f"{server.base}/healthz", timeout=2).status_code == 200
        except httpx2.HTTPError:
            return False

    wait_for(ready, 90, f"{name} to answer", interval=0.3)
    return server


@dataclass
class Servers:
    a: Server  # gunicorn, 2 uvicorn workers
    b: Server  # uvicorn, no lifespan


@pytest.fixture(scope="module")
def committed(django_db_setup, django_db_blocker) -> Iterator[None]:
    """Database access for the whole module, in autocommit (the servers see every write at
    once); everything is flushed when the module is done."""
    with django_db_blocker.unblock():
        yield
        call_command("flush", interactive=False, verbosity=0)


@dataclass
class People:
    """Callers with neither, one or both of get_contact_memory's permissions, and contacts."""

    owner: Any
    jane: Any
    other_contact: Any
    nobody: Any
    viewer: Any
    notes_only: Any
    both: Any


@pytest.fixture
def people(committed) -> People:
    from contacts import services as contact_services

    owner = UserFactory()
    owner.user_permissions.add(Permission.objects.get(codename="add_contact"))
    jane = contact_services.create_contact(
        actor=owner, name="Jane Doe", phone="+1 415 555 0100", email="jane@example.com", company="Acme"
    )
    other = contact_services.create_contact(actor=owner, name="Bob Roe", phone="+1 415 555 0199")
    notes = Permission.objects.get(codename="view_contactnote")
    viewer, notes_only, both = UserFactory(), UserFactory(), UserFactory()
    assign_perm("view_contact", viewer, jane)
    notes_only.user_permissions.add(notes)
    assign_perm("view_contact", both, jane)
    both.user_permissions.add(notes)
    return People(owner, jane, other, UserFactory(), viewer, notes_only, both)


@pytest.fixture(scope="module")
def mcp_servers(committed, tmp_path_factory) -> Iterator[Servers]:
    logs = tmp_path_factory.mktemp("mcp-servers")
    port_a, port_b = free_port(), free_port()
    a = _start(
        "gunicorn+uvicorn",
        [
            sys.executable,
            "-m",
            "gunicorn",
            "config.asgi:application",
            "-k",
            "uvicorn.workers.UvicornWorker",
            "--workers",
            "2",
            "--bind",
            f"127.0.0.1:{port_a}",
            "--control-socket",
            str(logs / "gunicorn.ctl"),
        ],
        port_a,
        logs / "a.log",
    )
    try:
        b = _start(
            "uvicorn",
            [
                sys.executable,
                "-m",
                "uvicorn",
                "config.asgi:application",
                "--lifespan",
                "off",
                "--host",
                "127.0.0.1",
                "--port",
                str(port_b),
            ],
            port_b,
            logs / "b.log",
        )
    except BaseException:
        a.stop()
        raise
    yield Servers(a=a, b=b)
    a.stop()
    b.stop()


class Alternate(httpx2.AsyncBaseTransport):
    """Sends each request to the next of several servers in turn (same path), so consecutive
    requests of one MCP session land on different processes."""

    def __init__(self, ports: list[int]) -> None:
        self.ports = ports
        self.sent_to: list[int] = []
        self.inner = httpx2.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        port = self.ports[len(self.sent_to) % len(self.ports)]
        self.sent_to.append(port)
        request.url = request.url.copy_with(port=port)
        request.headers["host"] = f"127.0.0.1:{port}"
        return await self.inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self.inner.aclose()


@asynccontextmanager
async def mcp_session(
    url: str, token: str, *, scheme: str = "Bearer", transport: httpx2.AsyncBaseTransport | None = None
) -> AsyncIterator[ClientSession]:
    """An initialized official ``ClientSession`` over streamable HTTP, authenticated by token."""
    client = httpx2.AsyncClient(
        headers={"Authorization": f"{scheme} {token}"}, timeout=httpx2.Timeout(60), transport=transport
    )
    async with (
        client,
        streamable_http_client(url, http_client=client) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session
