"""Issue 24's LOW findings at the API's entrances, each answered with a 4xx in the envelope (or
JSON-RPC's error object on /rpc), never a 500 or an HTML page: /rpc's other methods, its empty
and over-long batches, a turn's maxima, agent names. (The admin's filters: tests/admin/
test_admin_filters.py; MCP: tests/assistant/test_mcp_entrance.py and tests/mcp/; lengths before
trimming: tests/core/test_input_fields.py; /metrics behind proxies: tests/serving/test_trusted_proxies.py.)"""

from __future__ import annotations

import json

import pytest
from django.test import Client, override_settings
from rest_framework.test import APIClient

from assistant.api.views import TURN_MAX_MESSAGES, TURN_MAX_TOOL_CALLS
from assistant.models import AssistantSession, ProcessedTurn
from tests.factories import UserFactory, token_for
from toolrules.models import ToolMemoryRule

pytestmark = pytest.mark.django_db


@pytest.fixture
def carol(db):
    return UserFactory(username="carol")


def token(user) -> str:
    return token_for(user)


def api(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token(user)}")
    return client


def rpc_post(user, raw: str):
    return Client().post("/rpc", data=raw, content_type="application/json", HTTP_AUTHORIZATION=f"Token {token(user)}")


def put_call(i: int) -> dict:
    params = {"tool_name": "send_email", "rule": f"rule number {i}"}
    return {"jsonrpc": "2.0", "id": i, "method": "memory.tool_rule_put", "params": params}


# --- /rpc ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["get", "put", "patch", "delete", "options"])
def test_rpc_answers_other_methods_with_a_json_405(carol, method):
    response = getattr(Client(), method)("/rpc", HTTP_AUTHORIZATION=f"Token {token(carol)}")
    assert response.status_code == 405
    assert response["Allow"] == "POST"
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["jsonrpc"] == "2.0" and body["id"] is None
    assert body["error"]["code"] == -32600 and body["error"]["data"]["code"] == "METHOD_NOT_ALLOWED"


def test_rpc_answers_an_empty_batch_with_one_invalid_request_error(carol):
    response = rpc_post(carol, "[]")
    assert response.status_code == 400 and response["Content-Type"].startswith("application/json")
    body = response.json()
    assert {k: body[k] for k in ("jsonrpc", "id")} == {"jsonrpc": "2.0", "id": None}
    assert body["error"]["code"] == -32600 and body["error"]["message"] == "Invalid Request"
    assert rpc_post(carol, " [ ] ").json()["error"]["code"] == -32600


@override_settings(MNEMO_RPC_MAX_BATCH=3)
def test_rpc_batches_are_bounded_and_nothing_of_a_refused_one_runs(carol):
    refused_response = rpc_post(carol, json.dumps([put_call(i) for i in range(4)]))
    assert refused_response.status_code == 400
    refused = refused_response.json()
    assert isinstance(refused, dict) and refused["error"]["code"] == -32600, refused
    assert "at most 3 calls (MNEMO_RPC_MAX_BATCH)" in refused["error"]["message"]
    assert refused["error"]["data"]["code"] == "INVALID_INPUT"
    assert not ToolMemoryRule.objects.exists()
    answered = rpc_post(carol, json.dumps([put_call(i) for i in range(3)])).json()
    assert [item["id"] for item in answered] == [0, 1, 2] and all("result" in item for item in answered)


def test_the_default_batch_maximum_is_50(carol, settings):
    assert settings.MNEMO_RPC_MAX_BATCH == 50
    assert rpc_post(carol, json.dumps([put_call(i) for i in range(51)])).json()["error"]["code"] == -32600


# --- turns: documented maxima -------------------------------------------------------------------------


def test_a_turn_holds_at_most_its_maxima_of_messages_and_tool_calls(carol):
    message = {"role": "assistant", "content": "ok"}
    call = {"name": "search_memory", "status": "success"}
    for field, item, limit in (("messages", message, TURN_MAX_MESSAGES), ("tool_calls", call, TURN_MAX_TOOL_CALLS)):
        turn = {"session_id": "s-1", "messages": [message], field: [item] * (limit + 1)}
        response = api(carol).post("/api/v1/assistant/turns", turn, format="json")
        assert response.status_code == 400 and response.json()["error"]["code"] == "INVALID_INPUT"
        assert field in response.json()["error"]["message"] and str(limit) in response.json()["error"]["message"]
    assert not ProcessedTurn.objects.exists()
    turn = {"session_id": "s-1", "messages": [message] * TURN_MAX_MESSAGES, "tool_calls": [call] * TURN_MAX_TOOL_CALLS}
    assert api(carol).post("/api/v1/assistant/turns", turn, format="json").status_code == 201


# --- agent names ----------------------------------------------------------------------------------------

BAD_AGENT_NAMES = [
    "research\nsubagent",
    "line\rbreak",
    "tab\tname",
    "<script>",
    "a>b",
    "..",
    "../../etc",
    "x..y",
    "slash/name",
    "back\\slash",
    'quote"name',
    "colon:name",
    "emoji 🙂",
    "nul\x00",
    "zero\u200bwidth",
    "rtl\u202eoverride",
]
GOOD_AGENT_NAMES = ["research-subagent", "Claude Code 2.1", "agent_1.v2", "Ünal-subagent", "日本語エージェント"]


@pytest.mark.parametrize("name", BAD_AGENT_NAMES)
def test_a_bad_agent_name_is_invalid_input_at_every_entrance(carol, name):
    from assistant.mcp import entrance
    from core.errors import InvalidInput

    session = api(carol).post("/api/v1/assistant/session", {"agent_name": name}, format="json")
    assert session.status_code == 400 and session.json()["error"]["code"] == "INVALID_INPUT", session.json()
    assert session.json()["error"]["message"].startswith("agent_name: ")
    turn = {"session_id": "s-1", "agent_name": name, "messages": [{"role": "user", "content": "hello"}]}
    response = api(carol).post("/api/v1/assistant/turns", turn, format="json")
    assert response.status_code == 400 and response.json()["error"]["code"] == "INVALID_INPUT"
    reported = entrance.call_tool_as(carol, "report_turn", turn)
    assert reported.is_error and reported.structured_content["error"]["code"] == "INVALID_INPUT"
    with pytest.raises(InvalidInput):
        entrance.get_prompt_as(carol, arguments={"agent_name": name})
    assert not AssistantSession.objects.exists() and not ProcessedTurn.objects.exists()


@pytest.mark.parametrize("name", GOOD_AGENT_NAMES)
def test_a_plain_agent_name_is_accepted_and_pinned_as_given(carol, name):
    response = api(carol).post("/api/v1/assistant/session", {"agent_name": f"  {name} "}, format="json")
    assert response.status_code == 200, response.json()
    assert f'agent "{name}"' in response.json()["system_prompt"]
    assert AssistantSession.objects.get().agent_name == name
