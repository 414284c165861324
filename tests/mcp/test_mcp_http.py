"""The MCP entrance over streamable HTTP, driven by the official MCP client against live servers
(gunicorn + two uvicorn workers, and a second server process) on the test database."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime

import httpx2
import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth.models import Permission
from django.db import connection
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from assistant.services.tool_registry_service import tools_for
from contacts import services as contact_services
from contacts.models import ContactMessage, ContactNote
from tests.factories import token_for
from tests.mcp.conftest import Alternate, mcp_session, run_async

MEMORY_TOOLS = ["remember", "add_memory", "search_memory", "forget", "memory_recall"]
CONTACT_TOOLS = ["get_contact_details", "get_contact_messages", "send_sms", "send_email"]
PROMPT = "mnemo_system_prompt"
MISSING = "6f1c1a52-1111-4e4e-9a9a-123456789abc"


def in_thread(fn):
    """Run ORM code from inside a scenario (off the event loop), then let its connection go."""

    def run():
        try:
            return fn()
        finally:
            connection.close()

    return sync_to_async(run, thread_sensitive=True)()


def error_of(result) -> dict:
    assert result.is_error, result
    assert result.structured_content["ok"] is False
    error = result.structured_content["error"]
    assert result.content[0].text == f"{error['code']}: {error['message']}"
    return error


@pytest.mark.parametrize(
    ("caller", "expected"),
    [
        ("nobody", MEMORY_TOOLS),
        ("notes_only", MEMORY_TOOLS),
        ("viewer", [*CONTACT_TOOLS, *MEMORY_TOOLS]),
        (
            "both",
            ["get_contact_details", "get_contact_memory", "get_contact_messages", "send_sms", "send_email"]
            + MEMORY_TOOLS,
        ),
    ],
)
def test_the_tool_list_is_the_registry_for_each_caller(mcp_servers, people, caller, expected):
    user = getattr(people, caller)
    token = token_for(user)

    async def scenario():
        async with mcp_session(mcp_servers.a.url, token) as session:
            return await session.list_tools()

    tools = {tool.name: tool for tool in run_async(scenario()).tools}
    assert list(tools) == [tool.name for tool in tools_for(user)] + ["report_turn"] == [*expected, "report_turn"]
    for gateway_tool in tools_for(user):
        listed = tools[gateway_tool.name]
        assert listed.input_schema == gateway_tool.input_schema
        assert listed.title == listed.annotations.title == gateway_tool.ui_label
        assert listed.annotations.read_only_hint is (gateway_tool.direction == "read-only")
    assert tools["remember"].annotations.destructive_hint is False
    assert tools["forget"].annotations.destructive_hint is True
    if caller == "both":
        memory = tools["get_contact_memory"]
        assert memory.title == "Loading contact memory"
        assert memory.annotations.read_only_hint is True
        assert memory.output_schema["required"] == [
            "contact_id",
            "deep_link",
            "has_memory",
            "note_id",
            "memory_note",
            "updated_at",
        ]
        assert tools["send_sms"].annotations.destructive_hint is True
        assert tools["send_email"].annotations.open_world_hint is True


def test_remember_search_forget(mcp_servers, people):
    token = token_for(people.nobody)

    async def scenario():
        async with mcp_session(mcp_servers.a.url, token) as session:
            stored = await session.call_tool("remember", {"text": "My sister Ana lives in Lisbon."})
            found = await session.call_tool("search_memory", {"query": "Where does Ana live?"})
            forgot = await session.call_tool(
                "forget", {"memory_id": stored.structured_content["memory_id"], "reason": "moved"}
            )
            after = await session.call_tool("search_memory", {"query": "Where does Ana live?"})
            return stored, found, forgot, after

    stored, found, forgot, after = run_async(scenario())
    assert not stored.is_error and stored.structured_content["ok"] is True
    memory_id = stored.structured_content["memory_id"]
    assert stored.content[0].text == f"Tool remember stored memory {memory_id}."
    assert json.loads(stored.content[1].text) == stored.structured_content
    assert [r["id"] for r in found.structured_content["results"]][:1] == [memory_id]
    assert found.content[0].text.startswith("Tool search_memory loaded 1 memory")
    assert forgot.structured_content["memory_id"] == memory_id and not forgot.is_error
    assert memory_id not in [r["id"] for r in after.structured_content["results"]]


def test_get_contact_memory_is_byte_exact_to_the_seed(mcp_servers, people):
    owner, jane = people.owner, people.jane
    note = contact_services.set_memory_note(
        actor=owner, contact=jane, body="Prefers texts over calls. Last discussed pricing on March 15."
    )
    ContactNote.objects.filter(pk=note.pk).update(updated_at=datetime(2026, 4, 2, 9, 0, 27, tzinfo=UTC))
    token = token_for(people.both)

    async def scenario():
        async with mcp_session(mcp_servers.a.url, token) as session:
            called = await session.call_tool("get_contact_memory", {"contact_id": str(jane.id)})
            read = await session.read_resource(f"mnemo://contacts/{jane.id}/memory")
            return called, read

    called, read = run_async(scenario())
    expected = (
        f'{{"contact_id":"{jane.id}","deep_link":"/contacts/{jane.id}","has_memory":true,'
        f'"note_id":"{note.id}","memory_note":"Prefers texts over calls. Last discussed pricing on March 15.",'
        '"updated_at":"2026-04-02 09:00 UTC"}'
    )
    assert not called.is_error
    assert called.content[0].text == (
        "Tool get_contact_memory loaded contact memory for Jane Doe: has memory, updated 2026-04-02 09:00 UTC."
    )
    assert "Prefers texts" not in called.content[0].text  # the summary never carries the body
    assert called.content[1].text == expected
    assert called.structured_content == json.loads(expected)
    assert read.contents[0].text == expected
    assert read.contents[0].mime_type == "application/json"


def test_a_foreign_contact_answers_like_a_missing_one(mcp_servers, people):
    other_contact = people.other_contact
    token = token_for(people.both)

    async def scenario():
        async with mcp_session(mcp_servers.a.url, token) as session:
            foreign = await session.call_tool("get_contact_memory", {"contact_id": str(other_contact.id)})
            missing = await session.call_tool("get_contact_memory", {"contact_id": MISSING})
            errors = []
            for contact_id in (other_contact.id, MISSING):
                try:
                    await session.read_resource(f"mnemo://contacts/{contact_id}/memory")
                except MCPError as exc:
                    errors.append(exc)
            return foreign, missing, errors

    foreign, missing, errors = run_async(scenario())
    foreign_error, missing_error = error_of(foreign), error_of(missing)
    assert foreign_error["code"] == missing_error["code"] == "NOT_FOUND"
    assert foreign_error["message"].replace(str(other_contact.id), "X") == missing_error["message"].replace(
        MISSING, "X"
    )
    assert len(errors) == 2
    assert errors[0].code == errors[1].code == -32002
    assert errors[0].message.replace(str(other_contact.id), "X") == errors[1].message.replace(MISSING, "X")
    assert errors[0].message.startswith("NOT_FOUND: ")


def test_invalid_input_and_rule_violation_are_tool_errors(mcp_servers, people):
    jane = people.jane
    token = token_for(people.both)

    async def scenario():
        async with mcp_session(mcp_servers.a.url, token) as session:
            empty = await session.call_tool("remember", {"text": ""})
            unknown = await session.call_tool("remember", {"text": "x", "dedupe_policy": "ask"})
            bad_id = await session.call_tool("forget", {"memory_id": "seven"})
            turn = await session.call_tool(
                "report_turn",
                {"turn_index": 0, "messages": [{"role": "user", "content": "never email Jane at jane@example.com"}]},
            )
            refused = await session.call_tool(
                "send_email", {"contact_id": str(jane.id), "subject": "Hi", "body": "Hello", "confirmed": True}
            )
            return empty, unknown, bad_id, turn, refused

    empty, unknown, bad_id, turn, refused = run_async(scenario())
    for result in (empty, unknown, bad_id):
        assert error_of(result)["code"] == "INVALID_INPUT"
    assert not turn.is_error and turn.structured_content["rules"][0]["priority"] == "critical"
    error = error_of(refused)
    assert error["code"] == "RULE_VIOLATION"
    assert "never email Jane at jane@example.com" in error["message"]
    assert not ContactMessage.objects.filter(contact=jane).exists()  # nothing was sent


def test_the_prompt_is_frozen_per_mcp_session_across_processes(mcp_servers, people):
    token = token_for(people.both)
    ports = [mcp_servers.a.port, mcp_servers.b.port]

    async def scenario():
        alternate = Alternate(ports)
        async with mcp_session(mcp_servers.a.url, token, transport=alternate) as first:
            before = await first.get_prompt(PROMPT)
            turn = await first.call_tool(
                "report_turn",
                {"turn_index": 1, "messages": [{"role": "user", "content": "never email Jane at jane@example.com"}]},
            )
            again = await first.get_prompt(PROMPT, {"message": ""})
            third = await first.get_prompt(PROMPT)
            async with mcp_session(mcp_servers.b.url, token) as second:
                fresh = await second.get_prompt(PROMPT)
            return before, turn, again, third, fresh, alternate.sent_to

    before, turn, again, third, fresh, sent_to = run_async(scenario())
    assert not turn.is_error
    text = before.messages[0].content.text
    assert "## SMS drafting" in text and "Tool-scoped rules" not in text
    assert again.messages[0].content.text == third.messages[0].content.text == text
    session_id = before.meta["mnemo/session_id"]
    assert again.meta["mnemo/session_id"] == session_id
    assert turn.structured_content["session_id"] == session_id  # report_turn defaults to the MCP session
    assert "never email Jane at jane@example.com" in fresh.messages[0].content.text
    assert fresh.meta["mnemo/session_id"] != session_id
    # The session's requests really went to both servers, turn by turn.
    assert set(sent_to) == set(ports) and len(sent_to) >= 5


def test_the_tool_list_follows_permissions_and_execution_checks_them(mcp_servers, people):
    both, jane = people.both, people.jane
    token = token_for(people.both)
    note_permission = Permission.objects.get(codename="view_contactnote")

    async def scenario():
        async with mcp_session(mcp_servers.a.url, token) as session:
            before = [t.name for t in (await session.list_tools()).tools]
            await in_thread(lambda: both.user_permissions.remove(note_permission))
            after = [t.name for t in (await session.list_tools()).tools]
            refused = await session.call_tool("get_contact_memory", {"contact_id": str(jane.id)})
            templates = await session.list_resource_templates()
            return before, after, refused, templates

    before, after, refused, templates = run_async(scenario())
    assert "get_contact_memory" in before and "get_contact_memory" not in after
    assert error_of(refused)["code"] == "PERMISSION_DENIED"
    assert [t.uri_template for t in templates.resource_templates] == ["mnemo://namespaces/{key}/recent"]


def test_namespace_resources_answer_only_what_the_caller_may_read(mcp_servers, people):
    nobody, viewer = people.nobody, people.viewer
    token = token_for(people.nobody)

    async def scenario():
        async with mcp_session(mcp_servers.a.url, viewer_token) as other:
            await other.call_tool("remember", {"text": "The viewer's cat is called Miso."})
        async with mcp_session(mcp_servers.a.url, token) as session:
            await session.call_tool("remember", {"text": "I take my coffee black."})
            listed = await session.list_resources()
            own = await session.read_resource(f"mnemo://namespaces/user:{nobody.username}/recent")
            errors = []
            for key in (f"user:{viewer.username}", "user:nosuchuser"):
                try:
                    await session.read_resource(f"mnemo://namespaces/{key}/recent")
                except MCPError as exc:
                    errors.append(exc)
            return listed, own, errors

    viewer_token = token_for(viewer)
    listed, own, errors = run_async(scenario())
    assert [str(r.uri) for r in listed.resources] == [f"mnemo://namespaces/user:{nobody.username}/recent"]
    body = json.loads(own.contents[0].text)
    assert body["namespace"] == f"user:{nobody.username}"
    assert [m["text"] for m in body["memories"]] == ["I take my coffee black."]
    assert [e.code for e in errors] == [-32002, -32002]
    assert errors[0].message.replace(f"user:{viewer.username}", "K") == errors[1].message.replace(
        "user:nosuchuser", "K"
    )


def _post(url: str, headers: dict[str, str], body: dict | None = None) -> httpx2.Response:
    message = body or {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
    }
    return httpx2.post(
        url,
        json=message,
        headers={"Accept": "application/json, text/event-stream", **headers},
        timeout=30,
    )


def test_authentication_401_and_both_token_schemes(mcp_servers, people):
    token = token_for(people.nobody)
    url = mcp_servers.a.url
    anonymous = _post(url, {})
    assert anonymous.status_code == 401
    challenge = anonymous.headers["www-authenticate"]
    metadata_url = f"{mcp_servers.a.base}/.well-known/oauth-protected-resource/mcp"
    assert challenge.startswith("Bearer ") and f'resource_metadata="{metadata_url}"' in challenge
    assert anonymous.json()["error"]["data"]["error"]["code"] == "UNAUTHENTICATED"
    for bad in ("Bearer not-a-token", f"Token {token}x", "Basic dXNlcjpwYXNz"):
        refused = _post(url, {"Authorization": bad})
        assert refused.status_code == 401, bad
        assert "www-authenticate" in refused.headers
    assert 'error="invalid_token"' in _post(url, {"Authorization": "Bearer not-a-token"}).headers["www-authenticate"]
    metadata = httpx2.get(metadata_url, timeout=10).json()
    assert metadata["resource"] == url and metadata["bearer_methods_supported"] == ["header"]

    for scheme in ("Bearer", "Token"):
        answer = _post(url, {"Authorization": f"{scheme} {token}"})
        assert answer.status_code == 200, answer.text
        assert answer.json()["result"]["serverInfo"]["name"] == "mnemo"
        uuid.UUID(answer.headers["mcp-session-id"])

    async def scenario():
        async with mcp_session(url, token, scheme="Token") as session:
            return await session.list_tools()

    assert [t.name for t in run_async(scenario()).tools][-1] == "report_turn"

    async def anonymous_client():
        async with (
            httpx2.AsyncClient(timeout=30) as client,
            streamable_http_client(url, http_client=client) as (read, write),
            ClientSession(read, write) as session,
        ):
            try:
                await session.initialize()
            except MCPError as exc:
                return exc
        return None

    refused = run_async(anonymous_client())
    assert refused is not None and refused.message.startswith("UNAUTHENTICATED: ")


def test_sessions_are_checked_and_owned(mcp_servers, people):
    nobody, viewer = people.nobody, people.viewer
    url = mcp_servers.a.url
    auth = {"Authorization": f"Bearer {token_for(nobody)}"}
    session_id = _post(url, auth).headers["mcp-session-id"]
    other_session = _post(mcp_servers.b.url, {"Authorization": f"Bearer {token_for(viewer)}"}).headers["mcp-session-id"]
    list_tools = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
    version = {"MCP-Protocol-Version": "2025-11-25"}
    ok = _post(mcp_servers.b.url, {**auth, **version, "Mcp-Session-Id": session_id}, list_tools)
    assert ok.status_code == 200 and ok.json()["result"]["tools"]
    assert _post(url, {**auth, **version}, list_tools).status_code == 400
    for wrong in (other_session, str(uuid.uuid4()), "not-a-session"):
        assert _post(url, {**auth, **version, "Mcp-Session-Id": wrong}, list_tools).status_code == 404
    get = httpx2.get(url, headers={**auth, "Accept": "text/event-stream"}, timeout=10)
    assert get.status_code == 405


def test_origin_and_host_are_checked_against_dns_rebinding(mcp_servers, people):
    nobody = people.nobody
    auth = {"Authorization": f"Bearer {token_for(nobody)}"}
    url = mcp_servers.a.url
    assert _post(url, {**auth, "Origin": "http://evil.example"}).status_code == 403
    assert _post(url, {**auth, "Origin": "null"}).status_code == 403
    # Refused before authentication: no token needed to be turned away.
    assert _post(url, {"Origin": "http://evil.example"}).status_code == 403
    assert _post(url, {**auth, "Origin": "http://localhost:6274"}).status_code == 200  # allowed in settings
    assert _post(url, {**auth, "Host": "evil.example"}).status_code == 421
    assert _post(url, {**auth, "Host": f"localhost:{mcp_servers.a.port}"}).status_code == 200


def test_the_metadata_and_the_challenge_never_echo_an_unknown_host(mcp_servers, people):
    """Issue 24: /.well-known echoed any Host. URLs are built only from an allowed Host."""
    for server in (mcp_servers.a, mcp_servers.b):
        metadata = f"{server.base}/.well-known/oauth-protected-resource/mcp"
        for host in ("evil.example", "evil.example:80", "127.0.0.1.evil.example"):
            refused = httpx2.get(metadata, headers={"Host": host}, timeout=10)
            assert refused.status_code == 421, refused.text
            assert "evil" not in refused.text and refused.json()["error"]["code"] == "PERMISSION_DENIED"
        known = httpx2.get(metadata, headers={"Host": f"localhost:{server.port}"}, timeout=10).json()
        assert known["resource"] == f"http://localhost:{server.port}/mcp"
        challenge = _post(server.url, {"Host": f"localhost:{server.port}"}).headers["www-authenticate"]
        assert f'resource_metadata="http://localhost:{server.port}/.well-known/' in challenge
        assert _post(server.url, {"Host": "evil.example"}).status_code == 421


def test_a_nul_in_a_resource_key_is_invalid_params(mcp_servers, people):
    token = token_for(people.nobody)

    async def scenario():
        errors = []
        async with mcp_session(mcp_servers.a.url, token) as session:
            for uri in ("mnemo://namespaces/%00/recent", "mnemo://namespaces/a\x00b/recent"):
                try:
                    await session.read_resource(uri)
                except MCPError as exc:
                    errors.append(exc)
        return errors

    errors = run_async(scenario())
    assert [e.code for e in errors] == [-32602, -32602]
    assert all(e.message.startswith("INVALID_INPUT: The namespace key in the resource URI") for e in errors)


@pytest.mark.django_db  # (also what makes pytest-django create the test database for this module)
def test_call_tool_as_is_the_same_entrance_in_process():
    """What a permission harness calls: the same answers, without a network."""
    from assistant.mcp.entrance import call_tool_as
    from tests.factories import UserFactory

    user = UserFactory()
    result = call_tool_as(user, "forget", {"memory_id": 999999})
    assert result.is_error and result.structured_content["error"]["code"] == "NOT_FOUND"
    assert result.content[0].text == f"NOT_FOUND: {result.structured_content['error']['message']}"
    assert call_tool_as(user, "no_such_tool", {}).structured_content["error"]["code"] == "NOT_FOUND"
    assert call_tool_as(user, "forget", None).structured_content["error"]["code"] == "INVALID_INPUT"


def test_the_stateless_2026_revision_has_no_session_but_can_resume_one(mcp_servers, people):
    """Protocol 2026-07-28 (no handshake, no Mcp-Session-Id) reaches the same door: the prompt is
    frozen by passing back the session id it names."""
    token = token_for(people.both)
    jane = people.jane

    async def scenario():
        client = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=httpx2.Timeout(60))
        async with (
            client,
            streamable_http_client(mcp_servers.a.url, http_client=client) as (read, write),
            ClientSession(read, write) as session,
        ):
            discovered = await session.discover()
            tools = await session.list_tools()
            memory = await session.call_tool("get_contact_memory", {"contact_id": str(jane.id)})
            first = await session.get_prompt(PROMPT)
            session_id = first.meta["mnemo/session_id"]
            await session.call_tool(
                "report_turn",
                {
                    "session_id": session_id,
                    "turn_index": 0,
                    "messages": [{"role": "user", "content": "never email Jane at jane@example.com"}],
                },
            )
            resumed = await session.get_prompt(PROMPT, {"session_id": session_id})
            fresh = await session.get_prompt(PROMPT)
            return discovered, tools, memory, first, resumed, fresh

    discovered, tools, memory, first, resumed, fresh = run_async(scenario())
    assert session_version(discovered) == "2026-07-28"
    assert [t.name for t in tools.tools] == [t.name for t in tools_for(people.both)] + ["report_turn"]
    assert not memory.is_error and memory.structured_content["has_memory"] is False
    assert resumed.messages[0].content.text == first.messages[0].content.text
    assert "never email Jane" in fresh.messages[0].content.text
    assert fresh.meta["mnemo/session_id"] != first.meta["mnemo/session_id"]


def session_version(discovered) -> str:
    return discovered.supported_versions[-1]
