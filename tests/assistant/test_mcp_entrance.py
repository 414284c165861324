"""The MCP entrance in process: the same door as the REST gateway, answer for answer."""

from __future__ import annotations

import json
import uuid

import pytest

from assistant.mcp import entrance
from assistant.mcp.http import origin_allowed
from assistant.tools import ALL_TOOLS
from core.errors import InvalidInput, NotFound
from tests.assistant.conftest import client_for
from tests.factories import UserFactory, token_for

pytestmark = pytest.mark.django_db

MISSING = "6f1c1a52-1111-4e4e-9a9a-123456789abc"


@pytest.mark.parametrize("name", list(ALL_TOOLS))
def test_every_gateway_tool_is_described_from_its_own_attributes(name):
    tool = ALL_TOOLS[name]
    listed = entrance.to_mcp_tool(tool)
    assert listed.name == tool.name and listed.description == tool.description
    assert listed.input_schema == tool.input_schema  # the one contract, as the gateway has it
    assert listed.title == listed.annotations.title == tool.ui_label
    assert listed.annotations.read_only_hint is (tool.direction == "read-only")
    if tool.direction == "write":
        assert listed.annotations.destructive_hint is (name in {"forget", "send_sms", "send_email"})


@pytest.mark.parametrize(
    ("name", "arguments"),
    [
        ("remember", {}),
        ("remember", {"text": ""}),
        ("remember", {"text": "x", "importance": 7}),
        ("remember", {"text": "x", "unknown": 1}),
        ("search_memory", {"query": "x", "limit": 0}),
        ("forget", {"memory_id": 123456}),
        ("forget", {"memory_id": "one"}),
        ("get_contact_memory", {"contact_id": MISSING}),
        ("get_contact_details", {"contact_id": MISSING}),
        ("memory_recall", {"namespace": "nope"}),
        ("no_such_tool", {}),
        ("remember", {"text": "my AWS key is AKIAIOSFODNN7EXAMPLE"}),
    ],
)
def test_errors_are_the_rest_gateways_errors(both, jane, name, arguments):
    rest = client_for(both).post(f"/api/v1/assistant/tools/{name}/invoke", {"arguments": arguments}, format="json")
    assert rest.status_code >= 400
    result = entrance.call_tool_as(both, name, arguments)
    assert result.is_error
    assert result.structured_content == rest.json()
    error = rest.json()["error"]
    assert result.content[0].text == f"{error['code']}: {error['message']}"


def test_successes_are_the_rest_gateways_results(both, jane):
    rest = client_for(both).post(
        "/api/v1/assistant/tools/get_contact_details/invoke", {"arguments": {"contact_id": str(jane.id)}}, format="json"
    )
    result = entrance.call_tool_as(both, "get_contact_details", {"contact_id": str(jane.id)})
    assert not result.is_error
    assert result.structured_content == rest.json()["result"]
    assert result.content[0].text == rest.json()["summary"]
    assert result.content[1].text == entrance.dump_json(rest.json()["result"])


def test_a_tool_not_registered_for_the_caller_is_refused(viewer, jane):
    result = entrance.call_tool_as(viewer, "get_contact_memory", {"contact_id": str(jane.id)})
    assert result.structured_content["error"]["code"] == "PERMISSION_DENIED"


def test_report_turn_uses_the_rest_hooks_contract_and_the_mcp_session(user):
    missing = entrance.call_tool_as(user, "report_turn", {"messages": [{"role": "user", "content": "hi"}]})
    assert missing.structured_content["error"]["code"] == "INVALID_INPUT"
    assert "session_id" in missing.structured_content["error"]["message"]
    bad_role = entrance.call_tool_as(
        user, "report_turn", {"session_id": "s", "messages": [{"role": "boss", "content": "hi"}]}
    )
    assert bad_role.structured_content["error"]["code"] == "INVALID_INPUT"
    ok = entrance.call_tool_as(
        user, "report_turn", {"messages": [{"role": "user", "content": "I like green tea."}]}, mcp_session_id="m-1"
    )
    assert not ok.is_error and ok.structured_content["session_id"] == "m-1"
    summary = "Tool report_turn recorded the turn: 1 message remembered, 0 rule(s), 0 observation(s)."
    assert ok.content[0].text == summary


def test_prompt_sessions_are_the_callers_own(user):
    first = entrance.get_prompt_as(user)
    again = entrance.get_prompt_as(user, mcp_session_id=first.session_id)
    assert again.session_id == first.session_id
    assert again.result.messages[0].content.text == first.result.messages[0].content.text
    stranger = UserFactory()
    with pytest.raises(NotFound):
        entrance.get_prompt_as(stranger, arguments={"session_id": first.session_id})
    with pytest.raises(NotFound):
        entrance.get_prompt_as(stranger, arguments={"session_id": str(uuid.uuid4())})
    with pytest.raises(InvalidInput):
        entrance.get_prompt_as(user, arguments={"session_id": "not-a-uuid"})
    with pytest.raises(InvalidInput):
        entrance.get_prompt_as(user, arguments={"colour": "blue"})
    assert entrance.session_belongs_to(user, first.session_id)
    assert not entrance.session_belongs_to(stranger, first.session_id)
    assert not entrance.session_belongs_to(user, "garbage")


def test_unknown_resources_are_missing(user):
    for uri in ("mnemo://contacts//memory", "mnemo://elsewhere/1", "file:///etc/passwd"):
        with pytest.raises(NotFound):
            entrance.read_resource_as(user, uri)


@pytest.mark.parametrize(
    "uri",
    [
        "mnemo://namespaces/%00/recent",
        "mnemo://namespaces/user%3Aa%00b/recent",
        "mnemo://namespaces/\x00/recent",
        "mnemo://namespaces/\ud800/recent",
        "mnemo://namespaces/" + "k" * 201 + "/recent",
    ],
    ids=["percent-nul", "nul-inside", "raw-nul", "lone-surrogate", "too-long"],
)
def test_a_resource_key_that_cannot_be_a_namespace_is_invalid_input(user, uri):
    """Issue 24: a NUL in the key was a database error, and MCP answered "internal error"."""
    from assistant.mcp.server import _protocol_error

    with pytest.raises(InvalidInput) as refusal:
        entrance.read_resource_as(user, uri)
    assert refusal.value.message.startswith("The namespace key in the resource URI ")
    error = _protocol_error(refusal.value).error  # the JSON-RPC error object the MCP server sends
    assert error.code == -32602 and error.message.startswith("INVALID_INPUT: ")
    assert error.data["error"]["code"] == "INVALID_INPUT"


def test_an_unknown_resource_with_a_lone_surrogate_is_missing(user):
    with pytest.raises(NotFound) as missing:
        entrance.read_resource_as(user, "mnemo://elsewhere/\ud800")
    missing.value.message.encode("utf-8")  # the answer can be encoded


def test_token_schemes(user):
    key = token_for(user)
    for header in (f"Bearer {key}", f"Token {key}", f"bearer {key}", f"  Token   {key} "):
        assert entrance.user_from_authorization(header) == user, header
    for header in (None, "", key, f"Basic {key}", f"Bearer {key} extra", f"Bearer {key}x", "Bearer"):
        assert entrance.user_from_authorization(header) is None, header
    user.is_active = False
    user.save()
    assert entrance.user_from_authorization(f"Bearer {key}") is None


def test_origins():
    allowed = ["https://app.example.com", "http://localhost:*"]
    assert origin_allowed("https://app.example.com", allowed)
    assert origin_allowed("http://localhost:6274", allowed)
    for origin in ("https://app.example.com.evil.io", "http://localhost", "http://localhostx:1", "null", ""):
        assert not origin_allowed(origin, allowed), origin


def _metadata(host: str | None, scheme: str = "http") -> tuple[int, dict]:
    """The protected-resource metadata the ASGI app answers for a request with this Host."""
    from assistant.mcp.http import McpHttpApp
    from tests.mcp.conftest import run_async

    sent: list[dict] = []

    async def send(message):
        sent.append(message)

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    headers = [(b"host", host.encode())] if host is not None else []
    scope = {"type": "http", "method": "GET", "scheme": scheme, "headers": headers, "path": "/.well-known/x"}
    run_async(McpHttpApp().protected_resource_metadata(scope, receive, send))
    return sent[0]["status"], json.loads(sent[1]["body"])


def test_the_metadata_urls_come_from_an_allowed_host_or_the_public_url(settings):
    settings.MNEMO_MCP_ALLOWED_HOSTS = ["mnemo.example.com", ".internal.example"]
    settings.MNEMO_PUBLIC_URL = ""
    assert _metadata("mnemo.example.com:8443", "https")[1]["resource"] == "https://mnemo.example.com:8443/mcp"
    assert _metadata("api.internal.example")[1]["resource"] == "http://api.internal.example/mcp"
    for host in ("evil.example", "mnemo.example.com.evil.example", "", None, "bad host", "a" * 300):
        status, body = _metadata(host)
        assert status == 421 and body["error"]["code"] == "PERMISSION_DENIED", host
        assert "evil" not in json.dumps(body)
    settings.MNEMO_PUBLIC_URL = "https://mnemo.example.com"
    for host in ("evil.example", "mnemo.example.com"):
        status, body = _metadata(host)
        assert status == 200 and body["resource"] == "https://mnemo.example.com/mcp"
        assert body["resource_documentation"] == "https://mnemo.example.com/api/docs/"


def test_the_401_challenge_names_no_unknown_host(settings):
    from assistant.mcp.http import McpHttpApp

    settings.MNEMO_MCP_ALLOWED_HOSTS = ["localhost"]
    settings.MNEMO_PUBLIC_URL = ""
    app = McpHttpApp()
    [(_, unknown)] = app._challenge({"headers": [(b"host", b"evil.example")], "scheme": "http"}, invalid=False)
    assert unknown == b'Bearer realm="mnemo"'
    [(_, known)] = app._challenge({"headers": [(b"host", b"localhost:8000")], "scheme": "http"}, invalid=True)
    assert b'resource_metadata="http://localhost:8000/.well-known/oauth-protected-resource/mcp"' in known
