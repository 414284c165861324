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
import sys
from collections.abc import AsyncIterator, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import httpx2
import pytest
from django.contrib.auth.models import Permission
from guardian.shortcuts import assign_perm
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from tests import support
from tests.conftest import free_port
from tests.factories import UserFactory
from tests.support import LiveServer, live_mnemo_server


def run_async(coroutine: Coroutine[Any, Any, Any]) -> Any:
    """Run an MCP client scenario to its end in an event loop of its own, on a thread of its own:
    the session-wide Playwright browser of the browser tests keeps an event loop running on the
    main thread, where ``asyncio.run`` would refuse to start."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


ALLOWED_ORIGIN = "http://localhost:*"


def server_env() -> dict[str, str]:
    """The environment of a process that must use this run's test database (as ``worker_env``)."""
    return support.server_env(
        MNEMO_MCP_ALLOWED_HOSTS="127.0.0.1,localhost",
        MNEMO_MCP_ALLOWED_ORIGINS=ALLOWED_ORIGIN,
        # The production shape: each process keeps checked tokens (and their users'
        # permissions); a revocation must still apply at once (tests/mcp/test_revocation.py).
        MNEMO_TOKEN_CACHE_SECONDS="300",
    )


@dataclass
class Servers:
    a: LiveServer  # gunicorn, 2 uvicorn workers
    b: LiveServer  # uvicorn, no lifespan


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
    env = server_env()
    port_b = free_port()
    uvicorn = [sys.executable, "-m", "uvicorn", "config.asgi:application", "--lifespan", "off"]
    uvicorn += ["--host", "127.0.0.1", "--port", str(port_b)]
    with (
        live_mnemo_server(logs, asgi=True, workers=2, env=env, name="gunicorn+uvicorn") as a,
        live_mnemo_server(logs, command=uvicorn, port=port_b, env=env, name="uvicorn") as b,
    ):
        yield Servers(a=a, b=b)


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
