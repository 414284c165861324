"""Issue 11, "one door": one input contract per operation, errors always the envelope.

A regression test for each of the issue's findings 2, 7, 8, 9, 10, 11, 13 and 14 (finding 15, the
spec, is also tested live by test_schemathesis.py), each through every entrance it concerns:
REST, the gateway tools, JSON-RPC, import lines and the post-turn hook.
"""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.test import Client, override_settings
from rest_framework.test import APIClient

from contacts.models import Contact
from core.api import json_schema
from core.fields import BoundedIntegerField
from memories.api import serializers as memory_contracts
from memories.models import Memory, Namespace
from tests.factories import UserFactory, token_for
from toolrules.api import serializers as rule_contracts
from toolrules.models import ToolMemoryRule

POISON = "9999-12-31T23:59:59-12:00"


def deep(levels: int) -> dict:
    """{"a": {"a": … {"a": 1}}} nested ``levels`` deep, built without recursion."""
    value: object = 1
    for _ in range(levels):
        value = {"a": value}
    return value  # type: ignore[return-value]


class JSONClient(APIClient):
    """Sends bodies as ASCII JSON (escapes such as \\ud800 reach the server as an agent sends them;
    DRF's test renderer cannot encode a lone surrogate at all)."""

    def generic(self, method, path, data="", content_type=None, **extra):  # noqa: ANN001
        return super().generic(method, path, data, content_type, **extra)

    def _json(self, data, format, content_type):  # noqa: ANN001, A002
        if format == "json":
            return json.dumps(data), "application/json"
        return data, content_type

    def post(self, path, data=None, format=None, content_type=None, **extra):  # noqa: ANN001, A002
        data, content_type = self._json(data, format, content_type)
        return super().post(path, data, content_type=content_type, **extra)

    def patch(self, path, data=None, format=None, content_type=None, **extra):  # noqa: ANN001, A002
        data, content_type = self._json(data, format, content_type)
        return super().patch(path, data, content_type=content_type, **extra)


def client_for(user) -> APIClient:
    client = JSONClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user)}")
    return client


@pytest.fixture
def carol(db):
    return UserFactory(username="carol")


@pytest.fixture
def staff(db):
    return UserFactory(username="ops", is_staff=True, is_superuser=True)


def invoke(user, tool: str, arguments: dict):
    return client_for(user).post(f"/api/v1/assistant/tools/{tool}/invoke", {"arguments": arguments}, format="json")


def assert_invalid(response, status: int = 400, code: str = "INVALID_INPUT") -> dict:
    assert response.status_code == status, response.content[:500]
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["ok"] is False and body["error"]["code"] == code, body
    return body


def rpc(user, body: object, *, raw: str | None = None, status: int = 200) -> dict:
    data = raw if raw is not None else json.dumps(body)
    headers = {"HTTP_AUTHORIZATION": f"Token {token_for(user)}"}
    response = Client().post("/rpc", data=data, content_type="application/json", **headers)
    assert response.status_code == status, response.content[:500]
    return response.json()


def import_file(tmp_path, lines: list[str]) -> tuple[list[str], CommandError | None]:
    path = tmp_path / "lines.jsonl"
    path.write_text("\n".join(lines) + "\n")
    err = StringIO()
    error = None
    try:
        call_command("import_memories", str(path), stdout=StringIO(), stderr=err)
    except CommandError as exc:
        error = exc
    return err.getvalue().splitlines(), error


# --- finding 2: one poisoned timestamp ----------------------------------------------------------------


@pytest.mark.parametrize("field", ["expires_at", "last_confirmed_at"])
def test_out_of_range_timestamps_are_refused_by_rest_and_tool(carol, field):
    arguments = {"text": "Team offsite is in Porto.", field: POISON}
    assert_invalid(invoke(carol, "remember", arguments))
    assert_invalid(client_for(carol).post("/api/v1/memories/remember", arguments, format="json"))
    assert Memory.objects.count() == 0
    # The namespace still lists and searches.
    assert client_for(carol).get("/api/v1/memories").status_code == 200


def test_out_of_range_timestamps_are_refused_by_patch_search_and_list(carol):
    memory_id = client_for(carol).post("/api/v1/memories/remember", {"text": "Likes tea."}, format="json")
    memory_id = memory_id.json()["memory_id"]
    assert_invalid(client_for(carol).patch(f"/api/v1/memories/{memory_id}", {"expires_at": POISON}, format="json"))
    assert_invalid(
        client_for(carol).post("/api/v1/memories/search", {"query": "tea", "created_before": POISON}, format="json")
    )
    assert_invalid(client_for(carol).get("/api/v1/memories", {"created_before": POISON}))


def test_import_rejects_out_of_range_timestamps_by_line(carol, tmp_path):
    lines, error = import_file(
        tmp_path,
        [
            json.dumps({"namespace": "user:carol", "text": "Offsite in Porto.", "expires_at": POISON}),
            json.dumps({"namespace": "user:carol", "text": "Offsite in Lisbon.", "last_confirmed_at": POISON}),
            json.dumps({"namespace": "user:carol", "text": "Offsite in Faro."}),
        ],
    )
    assert error is not None and "2 lines rejected" in str(error)
    assert [line.split(":")[0] for line in lines] == ["line 1", "line 2"]
    assert all("INVALID_INPUT" in line for line in lines)
    assert list(Memory.objects.values_list("text", flat=True)) == ["Offsite in Faro."]


def test_a_naive_time_is_read_as_utc_at_every_door(carol):
    """Finding 8: a naive expires_at was a 500 TypeError through the tool."""
    response = invoke(carol, "remember", {"text": "Visa runs out.", "expires_at": "2030-01-01"})
    assert response.status_code == 200, response.content
    rest = client_for(carol).post(
        "/api/v1/memories/remember", {"text": "Passport runs out.", "expires_at": "2030-01-01T00:00:00"}, format="json"
    )
    assert rest.status_code == 201
    stored = {m.text: m.expires_at.isoformat() for m in Memory.objects.all()}
    assert stored == {"Visa runs out.": "2030-01-01T00:00:00+00:00", "Passport runs out.": "2030-01-01T00:00:00+00:00"}


# --- finding 7: deeply nested JSON --------------------------------------------------------------------


def test_deep_json_is_refused_at_every_door(carol, staff, tmp_path):
    nested = deep(500)
    assert_invalid(
        client_for(carol).post("/api/v1/memories/remember", {"text": "x y", "metadata": nested}, format="json")
    )
    assert_invalid(client_for(carol).post("/api/v1/memories", {"content": "x y", "metadata": nested}, format="json"))
    assert_invalid(client_for(carol).post("/api/v1/memories/search", {"query": "x", "metadata": nested}, format="json"))
    assert_invalid(client_for(staff).post("/api/v1/contacts", {"name": "Jo", "custom_fields": nested}, format="json"))
    assert_invalid(invoke(carol, "add_memory", {"content": "x y", "metadata": nested}))
    body = rpc(carol, {"jsonrpc": "2.0", "id": 1, "method": "memory.tool_rule_put", "params": {"tool_name": nested}})
    assert body["error"]["code"] == -32602
    # Deeper than Python's own parser can go: still a 400, not a RecursionError.
    very_deep = '{"query": "x", "metadata": ' + '{"a": ' * 5000 + "1" + "}" * 5000 + "}"
    assert_invalid(client_for(carol).post("/api/v1/memories/search", very_deep, content_type="application/json"))
    # Read (a batch of lists: -32600, about the whole body, 400) or too deep to read (-32700, 200).
    brackets = "[" * 5000 + "]" * 5000
    try:
        assert rpc(carol, None, raw=brackets)["error"]["code"] == -32700
    except AssertionError:
        assert rpc(carol, None, raw=brackets, status=400)["error"]["code"] == -32600
    lines, error = import_file(tmp_path, [json.dumps({"namespace": "user:carol", "text": "x y", "metadata": nested})])
    assert error is not None and lines[0].startswith("line 1: rejected (INVALID_INPUT)")
    assert Memory.objects.count() == 0 and Contact.objects.count() == 0


# --- finding 8: the tools skip REST's checks ----------------------------------------------------------


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("search_memory", {"query": "\ud800"}),
        ("search_memory", {"query": "tea", "namespace": "user:\x00carol"}),
        ("search_memory", {"query": "te\x00a"}),
        ("remember", {"text": "Likes tea.", "tags": ["dri\x00nks"]}),
        ("remember", {"text": "Likes tea.", "metadata": {"k": "v\x00"}}),
        ("remember", {"text": "Likes tea.", "metadata": {"k\ud800": "v"}}),
        ("add_memory", {"content": "Likes tea.", "metadata": {"k": ["\udfff"]}}),
        ("remember", {"text": "Likes tea.", "importance": "high"}),
        ("forget", {"memory_id": 10**130}),
        ("remember", {"text": "Likes tea.", "run_async": True}),
    ],
)
def test_tools_validate_with_the_rest_contract(carol, tool, arguments):
    assert_invalid(invoke(carol, tool, arguments))
    assert Memory.objects.count() == 0


def test_the_tool_schema_is_generated_from_the_rest_serializer(carol):
    tools = {t["name"]: t for t in client_for(carol).get("/api/v1/assistant/tools").json()["tools"]}
    assert tools["remember"]["input_schema"] == json_schema(memory_contracts.RememberInput)
    assert set(tools["remember"]["input_schema"]["properties"]) == set(memory_contracts.RememberInput().fields)
    assert tools["add_memory"]["input_schema"]["properties"]["async"]["type"] == "boolean"
    assert "run_async" not in tools["add_memory"]["input_schema"]["properties"]
    assert "format" not in tools["search_memory"]["input_schema"]["properties"]
    assert "created_before" in tools["search_memory"]["input_schema"]["properties"]
    for tool in tools.values():
        assert tool["input_schema"]["additionalProperties"] is False


def test_generated_tool_schemas_are_valid_json_schema_that_agree_with_the_contract(carol):
    from jsonschema import Draft202012Validator

    tools = {t["name"]: t for t in client_for(carol).get("/api/v1/assistant/tools").json()["tools"]}
    for tool in tools.values():
        Draft202012Validator.check_schema(tool["input_schema"])
    remember = Draft202012Validator(tools["remember"]["input_schema"])
    seed_example = {"text": "My son Colby lives in Los Angeles.", "tags": ["family"], "capture_mode": "explicit"}
    assert list(remember.iter_errors(seed_example)) == []
    assert list(remember.iter_errors({**seed_example, "dedupe_policy": "ask"}))  # unknown: refused by both
    assert list(remember.iter_errors({**seed_example, "importance": 2}))
    assert_invalid(invoke(carol, "remember", {**seed_example, "importance": 2}))
    assert invoke(carol, "remember", seed_example).status_code == 200


def test_a_field_added_to_a_contract_reaches_tool_schema_tool_validation_and_rpc(carol, monkeypatch):
    monkeypatch.setitem(
        memory_contracts.RememberInput._declared_fields, "probe", BoundedIntegerField(required=False, max_value=3)
    )
    monkeypatch.setitem(
        rule_contracts.RuleInput._declared_fields, "probe", BoundedIntegerField(required=False, max_value=3)
    )
    schema = client_for(carol).get("/api/v1/assistant/tools").json()["tools"]
    remember = next(t for t in schema if t["name"] == "remember")
    assert remember["input_schema"]["properties"]["probe"] == {"type": "integer", "minimum": -(2**63 - 1), "maximum": 3}
    body = assert_invalid(invoke(carol, "remember", {"text": "Likes tea.", "probe": 4}))
    assert "probe" in body["error"]["message"]
    params = {"tool_name": "send_email", "rule": "never email Bob", "probe": 4}
    error = rpc(carol, {"jsonrpc": "2.0", "id": 1, "method": "memory.tool_rule_put", "params": params})["error"]
    assert error["code"] == -32602 and "probe" in error["message"]


# --- finding 9: other 5xx that must be 4xx ------------------------------------------------------------


def test_surrogates_anywhere_are_400(carol, staff):
    assert_invalid(
        client_for(carol).post(
            "/api/v1/memories/remember", {"text": "Likes tea.", "metadata": {"x": "\ud800"}}, format="json"
        )
    )
    assert_invalid(
        client_for(staff).post("/api/v1/contacts", {"name": "Jo", "custom_fields": {"\udc00": 1}}, format="json")
    )
    turn = {
        "session_id": "s1",
        "messages": [{"role": "user", "content": "hello"}],
        "tool_calls": [{"name": "send_sms", "arguments": {"body": "\ud83d"}, "status": "success"}],
    }
    assert_invalid(client_for(carol).post("/api/v1/assistant/turns", turn, format="json"))


@pytest.mark.parametrize(
    ("url", "params"),
    [
        ("/api/v1/memories", {"limit": "9223372036854775808"}),
        ("/api/v1/memories", {"offset": "9223372036854775808"}),
        ("/api/v1/memories", {"limit": "-1"}),
        ("/api/v1/memories", {"created_before": "2030-07-11T06:08:58+17:20"}),
        ("/api/v1/memories", {"session_id": "s" * 300}),
        ("/api/v1/contacts", {"limit": "9223372036854775808"}),
        ("/api/v1/tool-rules", {"tool_name": "send\x00email"}),
        ("/api/v1/tool-rules/prompt", {"tools": "a\x00b"}),
    ],
)
def test_out_of_range_query_parameters_are_400(staff, url, params):
    assert_invalid(client_for(staff).get(url, params))


def test_turn_index_and_agent_name_are_bounded(carol):
    turn = {"session_id": "s1", "messages": [{"role": "user", "content": "hi there"}], "turn_index": 10**130}
    assert_invalid(client_for(carol).post("/api/v1/assistant/turns", turn, format="json"))
    turn = {"session_id": "s1", "messages": [], "agent_name": "a-subagent" + "x" * 200}
    assert_invalid(client_for(carol).post("/api/v1/assistant/turns", turn, format="json"))
    assert_invalid(client_for(carol).post("/api/v1/assistant/session", {"agent_name": "x" * 195}, format="json"))


@pytest.mark.parametrize("raw", ["42", "null", '"text"', "[1, 2]", "true"])
def test_rpc_bodies_that_are_not_requests_are_32600(carol, raw):
    body = rpc(carol, None, raw=raw, status=400)
    assert body["error"]["code"] == -32600, body


@pytest.mark.parametrize(
    ("method", "params"),
    [
        ("memory.tool_rule_put", {"tool_name": "send_email", "rule": "never email Bob\x00"}),
        ("memory.tool_rule_list", {"tool_name": "send\x00email"}),
        ("memory.tool_rule_get", {"tool_name": "send_email\x00", "id": "x"}),
        ("memory.tool_rules_for_prompt", {"tools": ["a\x00"]}),
        ("memory.tool_rules_json", {"tool_name": "\ud800"}),
        ("memory.tool_rule_put", {"tool_name": "send_email", "rule": "r", "run_async": True}),
        ("memory.tool_rule_put", {"tool_name": "send_email", "rule": "x" * 4001}),
    ],
)
def test_rpc_invalid_params_are_32602(carol, method, params):
    error = rpc(carol, {"jsonrpc": "2.0", "id": 1, "method": method, "params": params})["error"]
    assert error["code"] == -32602, error
    assert error["data"]["code"] == "INVALID_INPUT"
    assert ToolMemoryRule.objects.count() == 0


@override_settings(MNEMO_EMBEDDER="memories.embedding.NoSuchModel")
def test_embedder_failure_is_503_on_search_tool_and_session(carol):
    client = client_for(carol)
    assert_invalid(client.post("/api/v1/memories/search", {"query": "tea"}, format="json"), 503, "EMBEDDING_ERROR")
    assert_invalid(invoke(carol, "search_memory", {"query": "tea"}), 503, "EMBEDDING_ERROR")
    assert_invalid(client.post("/api/v1/assistant/session", {"message": "tea?"}, format="json"), 503, "EMBEDDING_ERROR")


# --- finding 10: body too large, unknown routes with any method ------------------------------------------


@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=1000)
def test_a_body_over_the_upload_limit_is_a_413_envelope(carol):
    body = json.dumps({"text": "x" * 2000})
    response = client_for(carol).post("/api/v1/memories/remember", body, content_type="application/json")
    assert_invalid(response, 413, "PAYLOAD_TOO_LARGE")
    rpc_response = Client().post("/rpc", data=json.dumps({"x": "y" * 2000}), content_type="application/json")
    assert rpc_response.status_code == 413 and rpc_response.json()["error"]["code"] == "PAYLOAD_TOO_LARGE"


@pytest.mark.parametrize("method", ["get", "post", "put", "patch", "delete"])
def test_unknown_api_routes_are_json_404_with_any_method(carol, method):
    for client in (Client(enforce_csrf_checks=True), client_for(carol)):
        if method == "get":
            response = client.get("/api/v1/no-such-thing")
        else:
            response = getattr(client, method)("/api/v1/no-such-thing", "{}", content_type="application/json")
        assert_invalid(response, 404, "NOT_FOUND")


# --- finding 11: someone else's event ----------------------------------------------------------------------


def test_a_foreign_event_answers_exactly_like_a_missing_one(carol, django_capture_on_commit_callbacks):
    import uuid

    dave = UserFactory(username="dave")
    with django_capture_on_commit_callbacks(execute=False):
        added = client_for(dave).post("/api/v1/memories", {"content": "Dave likes tea."}, format="json").json()
    foreign = client_for(carol).get(f"/api/v1/memories/events/{added['event_id']}")
    missing_id = str(uuid.uuid4())
    missing = client_for(carol).get(f"/api/v1/memories/events/{missing_id}")
    assert foreign.status_code == missing.status_code == 404
    assert foreign.json() == json.loads(json.dumps(missing.json()).replace(missing_id, added["event_id"]))
    assert f"Memory {added['id']}" not in foreign.content.decode()


# --- finding 13: one bad item keeps the rest of the turn -----------------------------------------------------


def test_a_turn_with_bad_items_keeps_every_valid_item(carol, django_capture_on_commit_callbacks):
    long_decree = "never email " + "Sarah and " * 450 + "Bob."
    turn = {
        "session_id": "turn-13",
        "messages": [
            {"role": "user", "content": long_decree},
            {"role": "user", "content": "Never text Bob after 9pm."},
            {"role": "user", "content": "My daughter is called Ada."},
        ],
        "tool_calls": [
            {"name": "send email", "arguments": {}, "status": "error", "error": "smtp down"},
            {"name": "send email", "arguments": {}, "status": "error", "error": "smtp down"},
            {"name": "send_sms", "arguments": {}, "status": "error", "error": "timeout"},
            {"name": "send_sms", "arguments": {}, "status": "error", "error": "timeout"},
        ],
    }
    with django_capture_on_commit_callbacks(execute=False):
        response = client_for(carol).post("/api/v1/assistant/turns", turn, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert len(body["memories"]["stored"]) == 3
    assert [r["rule"] for r in body["rules"]] == [
        "Never text Bob after 9pm."
    ]  # the user's words, as written (issue 16)
    assert [o["tool_name"] for o in body["observations"]] == ["send_sms"]
    rejected = sorted((r["item"], r["code"]) for r in body["rejected"])
    assert rejected == [("decree", "INVALID_INPUT"), ("observation", "INVALID_INPUT")]
    assert ToolMemoryRule.objects.count() == 2


# --- finding 14: tags are refused or matched whole, never truncated ------------------------------------------


def test_a_tag_longer_than_64_characters_never_matches_its_first_64(carol):
    tag = "t" * 64
    created = client_for(carol).post("/api/v1/memories/remember", {"text": "Tagged.", "tags": [tag]}, format="json")
    assert created.status_code == 201
    assert client_for(carol).get("/api/v1/memories", {"tag": tag}).json()["count"] == 1
    assert client_for(carol).get("/api/v1/memories", {"tag": tag + "x" * 6}).json()["count"] == 0
    too_long = {"text": "Tagged again.", "tags": [tag + "x"]}
    assert_invalid(client_for(carol).post("/api/v1/memories/remember", too_long, format="json"))
    assert_invalid(invoke(carol, "remember", too_long))
    assert_invalid(
        client_for(carol).post("/api/v1/memories/search", {"query": "t", "tags": [tag + "x"]}, format="json")
    )


# --- finding 15: the spec ---------------------------------------------------------------------------------------


@pytest.fixture
def spec(carol):
    return client_for(carol).get("/api/schema/", {"format": "json"}).json()


def test_request_bodies_reject_unknown_fields_and_errors_are_documented(spec):
    schemas = spec["components"]["schemas"]
    assert schemas["RememberInputRequest"]["additionalProperties"] is False
    assert "async" in schemas["AddMemoryInputRequest"]["properties"]
    assert "run_async" not in schemas["AddMemoryInputRequest"]["properties"]
    assert schemas["NoteOutput"]["properties"]["author"].get("nullable") is True
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            for status in ("401", "403", "404", "503"):
                assert status in operation["responses"], (method, path, status)
            assert operation["responses"]["404"]["content"]["application/json"]["schema"] == {
                "$ref": "#/components/schemas/ErrorEnvelope"
            }


def test_the_documented_remember_example_works_as_is(carol, spec):
    operation = spec["paths"]["/api/v1/memories/remember"]["post"]
    example = operation["requestBody"]["content"]["application/json"]["examples"]["Seed003"]["value"]
    assert example == {"text": "My son Colby lives in Los Angeles.", "tags": ["family"], "capture_mode": "explicit"}
    response = client_for(carol).post("/api/v1/memories/remember", example, format="json")
    assert response.status_code == 201, response.content


def test_add_memory_takes_async_and_refuses_run_async(carol):
    client = client_for(carol)
    refused = client.post("/api/v1/memories", {"content": "Likes tea.", "run_async": False}, format="json")
    assert "run_async" in assert_invalid(refused)["error"]["message"]
    stored = client.post("/api/v1/memories", {"content": "Likes tea.", "async": False}, format="json")
    assert stored.status_code == 201 and Namespace.objects.filter(key="user:carol").exists()


def test_session_id_is_stored_as_given_by_rest_and_tool(carol):
    """Issue 16, point 4: seed 003 says "Stored as-is"; no door trims it."""
    client_for(carol).post("/api/v1/memories/remember", {"text": "Likes tea.", "session_id": " s-1 "}, format="json")
    invoke(carol, "remember", {"text": "Likes coffee.", "session_id": "\ts-2\n"})
    assert dict(Memory.objects.values_list("text", "session_id")) == {"Likes tea.": " s-1 ", "Likes coffee.": "\ts-2\n"}
