"""The REST twins of the memory.* tool-rule methods under /api/v1/tool-rules.

Same rules as over JSON-RPC: a caller sees its own rules and the ones that bind everyone; another
user's rule answers NOT_FOUND exactly like a missing one; only holders of the model permission
change a rule that binds everyone. Errors have Mnemo's envelope ``{"ok": false, "error": {...}}``.
"""

from __future__ import annotations

import uuid
from dataclasses import asdict
from datetime import datetime

import pytest
from django.contrib.auth.models import Permission
from rest_framework.test import APIClient

from tests.factories import UserFactory, token_for
from toolrules import services
from toolrules.models import ToolMemoryRule, ToolStatistic

pytestmark = pytest.mark.django_db

LIST = "/api/v1/tool-rules"
PROMPT = "/api/v1/tool-rules/prompt"
STATISTICS = "/api/v1/tool-rules/statistics"
SARAH = "never email Sarah at sarah@example.com"
RULE_FIELDS = {"id", "key", "tool_name", "rule", "priority", "source", "tags", "owner", "created_at", "updated_at"}


def detail(rule_id) -> str:
    return f"/api/v1/tool-rules/{rule_id}"


def client_for(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user)}")
    return client


def grant_global(user) -> None:
    user.user_permissions.add(
        Permission.objects.get(codename="change_toolmemoryrule", content_type__app_label="toolrules")
    )


def create(user, tool_name: str, rule: str, **extra) -> dict:
    response = client_for(user).post(LIST, {"tool_name": tool_name, "rule": rule, **extra}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def assert_error(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    body = response.json()
    assert body["ok"] is False
    assert body["error"]["code"] == code
    assert body["error"]["message"]
    return body["error"]


@pytest.fixture
def alice():
    return UserFactory(username="alice")


@pytest.fixture
def bob():
    return UserFactory(username="bob")


@pytest.fixture
def staff():
    user = UserFactory(username="ops", is_staff=True)
    grant_global(user)
    return user


@pytest.fixture
def alices_rule(alice):
    return create(alice, "send_email", SARAH, priority="critical", source="user_explicit", tags=["safety"])


@pytest.fixture
def global_rule(staff):
    return create(staff, "send_email", "never email the whole company", priority="critical", binds_everyone=True)


# --- create, upsert, read ----------------------------------------------------------------------


def test_post_creates_a_rule(alice):
    response = client_for(alice).post(
        LIST,
        {"tool_name": "send_email", "rule": SARAH, "priority": "critical", "tags": ["Safety", "safety "]},
        format="json",
    )
    assert response.status_code == 201
    body = response.json()
    assert set(body) == RULE_FIELDS
    assert body["key"] == f"tool-send_email/rule/{body['id']}"
    assert (body["tool_name"], body["rule"], body["priority"]) == ("send_email", SARAH, "critical")
    assert (body["source"], body["tags"], body["owner"]) == ("programmatic", ["safety"], "alice")
    for field in ("created_at", "updated_at"):
        assert datetime.fromisoformat(body[field]).tzinfo is not None
    assert ToolMemoryRule.objects.get(pk=body["id"]).owner == alice


def test_post_of_the_same_words_is_an_upsert(alice, alices_rule):
    response = client_for(alice).post(
        LIST,
        {"tool_name": "send_email", "rule": "Never email Sarah at sarah@example.com.", "priority": "high"},
        format="json",
    )
    assert response.status_code == 200
    body = response.json()
    assert body["id"] == alices_rule["id"]
    assert body["priority"] == "high"
    assert body["created_at"] == alices_rule["created_at"]
    assert datetime.fromisoformat(body["updated_at"]) > datetime.fromisoformat(alices_rule["updated_at"])
    assert ToolMemoryRule.objects.count() == 1


def test_post_with_an_id(alice):
    chosen = str(uuid.uuid4())
    first = client_for(alice).post(
        LIST, {"id": chosen, "tool_name": "shell", "rule": "never run rm -rf"}, format="json"
    )
    assert first.status_code == 201 and first.json()["id"] == chosen
    again = client_for(alice).post(
        LIST, {"id": chosen, "tool_name": "shell", "rule": "never run rm -rf /", "priority": "critical"}, format="json"
    )
    assert again.status_code == 200
    assert (again.json()["id"], again.json()["rule"]) == (chosen, "never run rm -rf /")
    assert ToolMemoryRule.objects.count() == 1


def test_get_one_and_list(alice, alices_rule):
    client = client_for(alice)
    normal = create(alice, "send_email", "keep subject lines short")
    high = create(alice, "send_email", "ask before emailing strangers", priority="high")
    shell = create(alice, "shell", "never run rm -rf", priority="critical")

    response = client.get(detail(alices_rule["id"]))
    assert response.status_code == 200
    assert response.json() == alices_rule

    listed = client.get(LIST, {"tool_name": "send_email"})
    assert listed.status_code == 200
    assert [r["id"] for r in listed.json()] == [alices_rule["id"], high["id"], normal["id"]]
    everything = [r["id"] for r in client.get(LIST).json()]
    assert everything == [shell["id"], alices_rule["id"], high["id"], normal["id"]]
    assert client.get(LIST, {"tool_name": "calendar"}).json() == []

    # Touching the older critical rule makes it the freshest critical one.
    client.put(detail(alices_rule["id"]), {"tags": ["safety", "contacts"]}, format="json")
    assert [r["id"] for r in client.get(LIST).json()][:2] == [alices_rule["id"], shell["id"]]


# --- update and delete -------------------------------------------------------------------------


def test_put_merges_the_given_fields(alice, alices_rule):
    response = client_for(alice).put(detail(alices_rule["id"]), {"priority": "high", "tags": []}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["id"] == alices_rule["id"]
    assert (body["rule"], body["priority"], body["source"], body["tags"]) == (SARAH, "high", "user_explicit", [])
    assert body["created_at"] == alices_rule["created_at"]
    assert datetime.fromisoformat(body["updated_at"]) > datetime.fromisoformat(alices_rule["updated_at"])

    moved = client_for(alice).put(
        detail(alices_rule["id"]), {"tool_name": "send_sms", "rule": "never text Sarah"}, format="json"
    )
    assert moved.status_code == 200
    assert moved.json()["key"] == f"tool-send_sms/rule/{alices_rule['id']}"
    assert ToolMemoryRule.objects.get().tool_name == "send_sms"


def test_delete(alice, alices_rule):
    client = client_for(alice)
    response = client.delete(detail(alices_rule["id"]))
    assert response.status_code == 204
    assert not response.content
    assert not ToolMemoryRule.objects.exists()
    assert_error(client.get(detail(alices_rule["id"])), 404, "NOT_FOUND")
    assert_error(client.delete(detail(alices_rule["id"])), 404, "NOT_FOUND")


# --- validation --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        {"tool_name": "send_email", "rule": SARAH, "priority": "urgent"},
        {"tool_name": "send_email", "rule": SARAH, "source": "robot"},
        {"tool_name": "send_email", "rule": SARAH, "colour": "red"},
        {"tool_name": "send_email"},
        {"rule": SARAH},
        {"tool_name": "send_email", "rule": "   "},
        {"tool_name": "send email", "rule": SARAH},
        {"tool_name": 42, "rule": SARAH},
        {"tool_name": "send_email", "rule": SARAH, "tags": "safety"},
        {"tool_name": "send_email", "rule": SARAH, "id": "not-a-uuid"},
        {"tool_name": "send_email", "rule": SARAH, "tags": ["x" * 65]},
    ],
)
def test_bad_input_is_invalid_input(alice, body):
    response = client_for(alice).post(LIST, body, format="json")
    assert_error(response, 400, "INVALID_INPUT")
    assert ToolMemoryRule.objects.count() == 0


def test_malformed_json_is_invalid_input(alice):
    response = client_for(alice).post(LIST, data='{"tool_name": ', content_type="application/json")
    assert_error(response, 400, "INVALID_INPUT")


@pytest.mark.parametrize("body", [{"priority": "urgent"}, {"colour": "red"}, {"rule": 7}, {"tags": "safety"}])
def test_bad_update_is_invalid_input_and_changes_nothing(alice, alices_rule, body):
    response = client_for(alice).put(detail(alices_rule["id"]), body, format="json")
    assert_error(response, 400, "INVALID_INPUT")
    assert client_for(alice).get(detail(alices_rule["id"])).json() == alices_rule


# --- owner scoping and global rules ------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "body"),
    [("get", None), ("put", {"priority": "normal"}), ("put", {"priority": "urgent"}), ("delete", None)],
)
def test_someone_elses_rule_is_not_found(alice, bob, alices_rule, method, body):
    client = client_for(bob)
    theirs = getattr(client, method)(detail(alices_rule["id"]), body, format="json")
    error = assert_error(theirs, 404, "NOT_FOUND")
    missing_id = str(uuid.uuid4())
    missing = getattr(client, method)(detail(missing_id), body, format="json")
    assert missing.json() == {"ok": False, "error": {"code": "NOT_FOUND", "message": f"Rule {missing_id} not found."}}
    assert error["message"] == f"Rule {alices_rule['id']} not found."
    assert_error(getattr(client, method)(detail("not-a-uuid"), body, format="json"), 404, "NOT_FOUND")
    assert client_for(alice).get(detail(alices_rule["id"])).json() == alices_rule


def test_someone_elses_rules_are_not_listed(bob, alices_rule):
    client = client_for(bob)
    assert client.get(LIST).json() == []
    assert client.get(LIST, {"tool_name": "send_email"}).json() == []
    assert client.get(PROMPT).json() == {"markdown": "", "snapshot": {"tools": [], "count": 0}}


def test_posting_someone_elses_id_is_not_found(bob, alices_rule):
    response = client_for(bob).post(
        LIST, {"id": alices_rule["id"], "tool_name": "send_email", "rule": "email Sarah daily"}, format="json"
    )
    assert_error(response, 404, "NOT_FOUND")
    assert ToolMemoryRule.objects.get().rule == SARAH


def test_the_same_words_from_another_user_are_their_own_rule(bob, alices_rule):
    bobs = create(bob, "send_email", SARAH)
    assert bobs["id"] != alices_rule["id"] and bobs["owner"] == "bob"
    assert ToolMemoryRule.objects.count() == 2


def test_binds_everyone_needs_the_permission(alice):
    response = client_for(alice).post(
        LIST, {"tool_name": "global", "rule": "never share passwords", "binds_everyone": True}, format="json"
    )
    assert_error(response, 403, "PERMISSION_DENIED")
    assert ToolMemoryRule.objects.count() == 0


def test_a_global_rule_binds_everyone(alice, bob, global_rule, alices_rule):
    assert global_rule["owner"] is None
    for user in (alice, bob):
        client = client_for(user)
        assert client.get(detail(global_rule["id"])).json() == global_rule
        assert global_rule["id"] in [r["id"] for r in client.get(LIST).json()]
    assert client_for(alice).get(PROMPT).json()["markdown"] == (
        "## Tool-scoped rules\n\n### `send_email`\n"
        "- [critical] never email Sarah at sarah@example.com\n"
        "- [critical] never email the whole company\n"
    )
    assert client_for(bob).get(PROMPT).json()["markdown"] == (
        "## Tool-scoped rules\n\n### `send_email`\n- [critical] never email the whole company\n"
    )


@pytest.mark.parametrize(("method", "body"), [("put", {"priority": "normal"}), ("delete", None)])
def test_a_non_staff_change_of_a_global_rule_is_forbidden(bob, global_rule, method, body):
    response = getattr(client_for(bob), method)(detail(global_rule["id"]), body, format="json")
    assert_error(response, 403, "PERMISSION_DENIED")
    assert client_for(bob).get(detail(global_rule["id"])).json() == global_rule

    grant_global(bob)
    allowed = getattr(client_for(bob), method)(detail(global_rule["id"]), body, format="json")
    assert allowed.status_code == (200 if method == "put" else 204)
    if method == "put":
        assert (allowed.json()["priority"], allowed.json()["owner"]) == ("normal", None)
    else:
        assert not ToolMemoryRule.objects.filter(pk=global_rule["id"]).exists()


def test_staff_update_of_a_global_rule_keeps_it_global(staff, global_rule):
    response = client_for(staff).put(detail(global_rule["id"]), {"rule": "never email all@company.com"}, format="json")
    assert response.status_code == 200
    assert response.json()["owner"] is None
    assert ToolMemoryRule.objects.get(pk=global_rule["id"]).owner is None


# --- the prompt block and statistics -----------------------------------------------------------


def test_prompt_block_with_a_tools_filter(alice):
    create(alice, "send_email", "ask before emailing strangers", priority="high")
    create(alice, "send_email", SARAH, priority="critical")
    create(alice, "send_email", "keep subject lines short")
    create(alice, "shell", "never run rm -rf", priority="critical")
    create(alice, "send_sms", "no texts after 9pm", priority="high")
    create(alice, "global", "Always answer in English", priority="high")
    client = client_for(alice)

    everything = client.get(PROMPT)
    assert everything.status_code == 200
    assert everything.json()["markdown"] == (
        "## Tool-scoped rules\n"
        "\n### `send_email`\n"
        "- [critical] never email Sarah at sarah@example.com\n"
        "- [high] ask before emailing strangers\n"
        "\n### `send_sms`\n- [high] no texts after 9pm\n"
        "\n### `shell`\n- [critical] never run rm -rf\n"
        "\n### `global`\n- [high] Always answer in English\n"
    )
    assert everything.json()["snapshot"]["count"] == 5

    narrowed = client.get(PROMPT, {"tools": "shell, send_sms"}).json()
    assert narrowed["markdown"] == (
        "## Tool-scoped rules\n"
        "\n### `send_sms`\n- [high] no texts after 9pm\n"
        "\n### `shell`\n- [critical] never run rm -rf\n"
        "\n### `global`\n- [high] Always answer in English\n"
    )
    assert [t["tool_name"] for t in narrowed["snapshot"]["tools"]] == ["send_sms", "shell", "global"]
    assert narrowed == asdict(services.rules_for_prompt(user=alice, tools=["shell", "send_sms"]))


def test_statistics_are_the_callers_own(alice, bob):
    services.record_tool_calls(
        user=alice,
        calls=[
            {"name": "send_email", "status": "ok"},
            {"name": "send_email", "status": "error", "error": "SMTP down"},
            {"name": "shell", "status": "ok"},
        ],
    )
    response = client_for(alice).get(STATISTICS)
    assert response.status_code == 200
    body = response.json()
    assert [(s["key"], s["calls"], s["successes"], s["failures"]) for s in body] == [
        ("tool_effectiveness/tool/send_email", 2, 1, 1),
        ("tool_effectiveness/tool/shell", 1, 1, 0),
    ]
    assert body[0]["last_error"] == "SMTP down"
    assert datetime.fromisoformat(body[0]["last_failure_at"]).tzinfo is not None
    assert body[1]["last_failure_at"] is None
    assert client_for(bob).get(STATISTICS).json() == []
    # Statistics never write rules.
    assert ToolMemoryRule.objects.count() == 0
    assert ToolStatistic.objects.filter(owner=alice).count() == 2


# --- authentication and the schema -------------------------------------------------------------


def test_unauthenticated_calls_are_refused(alices_rule):
    anonymous = APIClient()
    for method, path, body in [
        ("get", LIST, None),
        ("post", LIST, {"tool_name": "send_email", "rule": "sneaky"}),
        ("get", detail(alices_rule["id"]), None),
        ("put", detail(alices_rule["id"]), {"rule": "sneaky"}),
        ("delete", detail(alices_rule["id"]), None),
        ("get", PROMPT, None),
        ("get", STATISTICS, None),
    ]:
        response = getattr(anonymous, method)(path, body, format="json")
        assert_error(response, 401, "UNAUTHENTICATED")
    bad = APIClient()
    bad.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    assert_error(bad.post(LIST, {"tool_name": "send_email", "rule": "sneaky"}, format="json"), 401, "UNAUTHENTICATED")
    assert ToolMemoryRule.objects.get().rule == SARAH


def test_the_endpoints_are_in_the_openapi_schema(alice):
    response = client_for(alice).get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/vnd.oai.openapi+json")
    paths = response.json()["paths"]
    expected = {
        "/api/v1/tool-rules": {"get", "post"},
        "/api/v1/tool-rules/{rule_id}": {"get", "put", "delete"},
        "/api/v1/tool-rules/prompt": {"get"},
        "/api/v1/tool-rules/statistics": {"get"},
    }
    for path, methods in expected.items():
        assert path in paths, sorted(paths)
        assert methods <= set(paths[path]), (path, sorted(paths[path]))
    list_params = {p["name"] for p in paths["/api/v1/tool-rules"]["get"].get("parameters", [])}
    assert "tool_name" in list_params
    prompt_params = {p["name"] for p in paths["/api/v1/tool-rules/prompt"]["get"].get("parameters", [])}
    assert "tools" in prompt_params
    assert set(paths["/api/v1/tool-rules"]["post"]["responses"]) >= {"200", "201"}
    assert "204" in paths["/api/v1/tool-rules/{rule_id}"]["delete"]["responses"]


# --- bugs --------------------------------------------------------------------------------------


def test_updating_a_rule_to_another_rules_words_is_a_client_error(alice, alices_rule):
    other = create(alice, "send_email", "keep subject lines short")
    response = client_for(alice).put(
        detail(other["id"]), {"rule": "Never email Sarah at sarah@example.com."}, format="json"
    )
    assert 400 <= response.status_code < 500, response.json()
    assert ToolMemoryRule.objects.get(pk=other["id"]).rule == "keep subject lines short"
