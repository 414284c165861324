"""The MCP entrance in process: the same door as the REST gateway, answer for answer."""

from __future__ import annotations

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
