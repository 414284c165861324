"""Revoked is revoked at once, in every process: real server processes (gunicorn with two uvicorn
workers, and a plain uvicorn) that keep checked tokens for 300 s, a change made in another process
(this one, or the other server), and the very next request of each server, of an MCP session
already open and of an ``mcp_stdio`` process refused."""

from __future__ import annotations

import sys

import anyio
import httpx2
import pytest
from django.contrib.auth.models import Permission
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError

from core.models import ApiToken
from core.tokens import revoke_token, token_digest
from memories import services as memory_services
from memories.permissions import ensure_user_namespace
from tests.conftest import ROOT
from tests.factories import GroupFactory, UserFactory, token_for
from tests.mcp.conftest import mcp_session, run_async, server_env

pytestmark = pytest.mark.timeout(600)


def status(server, path: str, key: str, method: str = "GET") -> int:
    # A new connection per request: each may land on any worker process of the server.
    return httpx2.request(
        method, f"{server.base}{path}", headers={"Authorization": f"Token {key}"}, timeout=30
    ).status_code


def test_a_change_applies_at_once_in_every_server_process(mcp_servers, committed):
    servers = (mcp_servers.a, mcp_servers.b)
    owner, reader = UserFactory(), UserFactory()
    memory = memory_services.add_memory(
        actor=owner,
        namespace=ensure_user_namespace(owner),
        content="The spare key is in the blue pot.",
        run_async=False,
    )
    group = GroupFactory()
    group.permissions.add(Permission.objects.get(codename="view_namespace"))
    reader.groups.add(group)
    key = token_for(reader)
    path = f"/api/v1/memories/{memory.id}"

    def everywhere() -> set[int]:
        return {status(server, path, key) for server in servers for _ in range(3)}

    assert everywhere() == {200}  # every process that answered now remembers the reader
    reader.groups.remove(group)  # in this process: neither server's
    assert everywhere() == {404}
    reader.groups.add(group)
    assert everywhere() == {200}
    reader.is_active = False
    reader.save()
    assert everywhere() == {401}
    reader.is_active = True
    reader.save()
    assert everywhere() == {200}
    # Revoked over the API on one server: refused by the other (and by the first) at once.
    token = ApiToken.objects.get(digest=token_digest(key))
    assert status(mcp_servers.b, f"/api/v1/tokens/{token.pk}", key, "DELETE") == 204
    assert everywhere() == {401}


def test_an_open_mcp_session_stops_with_its_token(mcp_servers, people):
    key = token_for(people.nobody)
    token = ApiToken.objects.get(digest=token_digest(key))

    async def scenario():
        async with mcp_session(mcp_servers.a.url, key) as session:
            before = await session.call_tool("remember", {"text": "I prefer window seats."})
            await anyio.to_thread.run_sync(lambda: revoke_token(token=token))
            try:
                with anyio.fail_after(60):
                    after = await session.call_tool("search_memory", {"query": "seats"})
            except MCPError as exc:
                return before, exc
            return before, after

    before, after = run_async(scenario())
    assert not before.is_error
    assert isinstance(after, MCPError), after  # the session's next message is refused
    answer = httpx2.post(
        mcp_servers.b.url, json={}, headers={"Authorization": f"Bearer {key}", "Accept": "application/json"}
    )
    assert answer.status_code == 401 and answer.json()["error"]["data"]["error"]["code"] == "UNAUTHENTICATED"


def test_mcp_stdio_checks_its_token_on_every_call(people):
    key = token_for(people.nobody)
    token = ApiToken.objects.get(digest=token_digest(key))
    params = StdioServerParameters(
        command=sys.executable, args=["manage.py", "mcp_stdio", "--token", key], env=server_env(), cwd=str(ROOT)
    )

    async def scenario():
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            before = await session.call_tool("remember", {"text": "I take the 8:10 train."})
            await anyio.to_thread.run_sync(lambda: revoke_token(token=token))
            try:
                after = await session.call_tool("search_memory", {"query": "train"})
            except MCPError as exc:
                return before, exc
            return before, after

    before, after = run_async(scenario())
    assert not before.is_error
    refused = str(after) if isinstance(after, MCPError) else (after.is_error and after.content[0].text)
    assert refused and "UNAUTHENTICATED" in refused, after


@pytest.mark.django_db  # (also what makes pytest-django create the test database for this module)
def test_the_stdio_caller_is_loaded_through_its_token_each_time():
    from assistant.mcp.server import StdioCaller, _load_user

    user = UserFactory()
    key = token_for(user)
    caller = StdioCaller(user_id=user.pk, token=key)
    assert _load_user(caller) == user
    revoke_token(token=ApiToken.objects.get(digest=token_digest(key)))
    with pytest.raises(MCPError, match="UNAUTHENTICATED"):
        _load_user(caller)
    assert _load_user(StdioCaller(user_id=user.pk)) == user  # --user: no token to check
