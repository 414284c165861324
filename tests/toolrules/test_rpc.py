"""JSON-RPC 2.0 at POST /rpc: the six ``memory.*`` tool-rule methods of seed 004.

Every call goes through Django's test client with the API token, exactly as an agent harness
would send it. Domain errors come back as JSON-RPC errors: invalid params -32602, unknown method
-32601, unknown rule -32004, forbidden -32003, unparseable body -32700; authentication failures
are modern-rpc's own error. Another user's rules do not exist for a caller.
"""

from __future__ import annotations

import json
import uuid
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from tests.factories import UserFactory, token_for
from toolrules.models import ToolMemoryRule

pytestmark = pytest.mark.django_db

NO_AUTH = object()
RULE_FIELDS = {
    "id",
    "key",
    "tool_name",
    "rule",
    "priority",
    "source",
    "tags",
    "owner",
    "created_at",
    "updated_at",
}
SARAH = "never email Sarah at sarah@example.com"


def post_rpc(payload: Any, *, user=None, authorization: Any = NO_AUTH, raw: str | None = None):
    """POST a JSON-RPC body to /rpc with ``user``'s token (or the given Authorization header)."""
    headers = {}
    if user is not None:
        headers["HTTP_AUTHORIZATION"] = f"Token {token_for(user)}"
    elif authorization is not NO_AUTH:
        headers["HTTP_AUTHORIZATION"] = authorization
    data = raw if raw is not None else json.dumps(payload)
    response = Client().post("/rpc", data=data, content_type="application/json", **headers)
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("application/json")
    return response.json()


def call(method: str, params: Any = None, *, user=None, authorization: Any = NO_AUTH, request_id: Any = 1):
    payload: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        payload["params"] = params
    body = post_rpc(payload, user=user, authorization=authorization)
    assert body["jsonrpc"] == "2.0"
    assert body["id"] == request_id
    return body


def ok(method: str, params: Any = None, *, user) -> Any:
    body = call(method, params, user=user)
    assert "error" not in body, body
    return body["result"]


def err(method: str, params: Any = None, *, user=None, authorization: Any = NO_AUTH) -> dict[str, Any]:
    body = call(method, params, user=user, authorization=authorization)
    assert "result" not in body, body
    return body["error"]


def put(user, tool_name: str, rule: str, **extra) -> dict[str, Any]:
    return ok("memory.tool_rule_put", {"tool_name": tool_name, "rule": rule, **extra}, user=user)


def rfc3339(value: str) -> datetime:
    parsed = datetime.fromisoformat(value)
    assert parsed.tzinfo is not None, value
    assert parsed.utcoffset() == timedelta(0), value
    return parsed


def grant_global(user) -> None:
    user.user_permissions.add(
        Permission.objects.get(codename="change_toolmemoryrule", content_type__app_label="toolrules")
    )


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


# --- memory.tool_rule_put ----------------------------------------------------------------------


def test_put_creates_a_rule_with_every_field(alice):
    before = datetime.now().astimezone()
    result = put(alice, "send_email", SARAH, priority="critical", source="user_explicit", tags=["Safety", "permission"])
    assert set(result) == RULE_FIELDS | {"created"}
    assert result["created"] is True
    rule_id = uuid.UUID(result["id"])
    assert result["key"] == f"tool-send_email/rule/{rule_id}"
    assert result["tool_name"] == "send_email"
    assert result["rule"] == SARAH
    assert result["priority"] == "critical"
    assert result["source"] == "user_explicit"
    assert result["tags"] == ["permission", "safety"]
    assert result["owner"] == "alice"
    created_at, updated_at = rfc3339(result["created_at"]), rfc3339(result["updated_at"])
    assert before - timedelta(seconds=5) <= created_at <= updated_at <= datetime.now().astimezone()

    stored = ToolMemoryRule.objects.get(pk=rule_id)
    assert stored.owner == alice and stored.rule == SARAH and stored.priority == "critical"
    assert stored.namespace == "tool-send_email"
    assert ToolMemoryRule.objects.count() == 1


def test_put_defaults_and_positional_params(alice):
    result = ok("memory.tool_rule_put", ["shell", "  never run rm -rf on the server  "], user=alice)
    assert result["created"] is True
    assert result["rule"] == "never run rm -rf on the server"
    assert (result["priority"], result["source"], result["tags"]) == ("normal", "programmatic", [])

    positional = ok(
        "memory.tool_rule_put", ["shell", "use --dry-run first", "high", "post_turn", ["safety"]], user=alice
    )
    assert (positional["priority"], positional["source"], positional["tags"]) == ("high", "post_turn", ["safety"])
    assert ToolMemoryRule.objects.filter(owner=alice, tool_name="shell").count() == 2


def test_put_with_the_same_id_updates_the_rule(alice):
    first = put(alice, "send_email", SARAH, priority="high", tags=["safety"])
    second = put(alice, "send_email", "never email Sarah, even at work", priority="critical", id=first["id"])
    assert second["created"] is False
    assert second["id"] == first["id"]
    assert second["rule"] == "never email Sarah, even at work"
    assert second["priority"] == "critical"
    assert second["tags"] == []
    assert second["created_at"] == first["created_at"]
    assert rfc3339(second["updated_at"]) > rfc3339(first["updated_at"])
    assert ToolMemoryRule.objects.count() == 1
    assert ToolMemoryRule.objects.get().rule == "never email Sarah, even at work"


def test_put_with_a_new_caller_id_creates_it_with_exactly_that_id(alice):
    chosen = uuid.uuid4()
    result = put(alice, "send_email", SARAH, priority="critical", id=str(chosen))
    assert result["created"] is True
    assert result["id"] == str(chosen)
    assert result["key"] == f"tool-send_email/rule/{chosen}"
    assert ToolMemoryRule.objects.get().pk == chosen

    replay = put(alice, "send_email", SARAH, priority="critical", id=str(chosen))
    assert replay["created"] is False and replay["id"] == str(chosen)
    assert ToolMemoryRule.objects.count() == 1


@pytest.mark.parametrize(
    "again",
    [
        "Never email Sarah at sarah@example.com.",
        "NEVER EMAIL SARAH AT SARAH@EXAMPLE.COM",
        "  never   email Sarah at\tsarah@example.com!  ",
    ],
)
def test_put_of_the_same_words_updates_the_existing_rule(alice, again):
    first = put(alice, "send_email", SARAH, priority="high")
    second = put(alice, "send_email", again, priority="critical")
    assert second["created"] is False
    assert second["id"] == first["id"]
    assert second["priority"] == "critical"
    assert second["rule"] == again.strip()
    assert ToolMemoryRule.objects.count() == 1

    # The same words for another tool are another rule.
    other = put(alice, "send_sms", SARAH)
    assert other["created"] is True and other["id"] != first["id"]
    assert ToolMemoryRule.objects.count() == 2


def test_put_with_a_new_id_but_existing_words_is_refused(alice):
    # The caller's id is never silently dropped: the words belong to another rule, say so.
    first = put(alice, "send_email", SARAH)
    error = err(
        "memory.tool_rule_put",
        {"tool_name": "send_email", "rule": SARAH + ".", "priority": "critical", "id": str(uuid.uuid4())},
        user=alice,
    )
    assert error["code"] == -32602 and first["id"] in error["message"]
    assert ToolMemoryRule.objects.count() == 1


# --- get, list, delete -------------------------------------------------------------------------


def test_get_by_tool_name_and_id(alice):
    created = put(alice, "send_email", SARAH, priority="critical", tags=["safety"])
    expected = {k: v for k, v in created.items() if k != "created"}
    assert ok("memory.tool_rule_get", {"tool_name": "send_email", "id": created["id"]}, user=alice) == expected
    assert ok("memory.tool_rule_get", ["send_email", created["id"]], user=alice) == expected


def test_get_with_the_wrong_tool_name_is_not_found(alice):
    created = put(alice, "send_email", SARAH)
    error = err("memory.tool_rule_get", {"tool_name": "send_sms", "id": created["id"]}, user=alice)
    assert error["code"] == -32004
    assert error["data"] == {"code": "NOT_FOUND"}
    assert "send_sms" in error["message"]


def test_list_is_sorted_by_priority_then_freshness(alice):
    normal_old = put(alice, "send_email", "sign emails with my first name", priority="normal")
    high_old = put(alice, "send_email", "ask before emailing anyone outside the company", priority="high")
    critical = put(alice, "send_email", SARAH, priority="critical")
    normal_new = put(alice, "send_email", "keep subject lines short", priority="normal")
    high_new = put(alice, "send_email", "cc my assistant on invoices", priority="high")
    put(alice, "shell", "never run rm -rf on the server", priority="critical")  # another tool: not listed

    def order() -> list[str]:
        listed = ok("memory.tool_rule_list", {"tool_name": "send_email"}, user=alice)
        assert all(set(r) == RULE_FIELDS and r["tool_name"] == "send_email" for r in listed)
        return [r["id"] for r in listed]

    assert order() == [critical["id"], high_new["id"], high_old["id"], normal_new["id"], normal_old["id"]]

    # Touching the older high and normal rules makes them the freshest of their priority.
    put(alice, "send_email", high_old["rule"], priority="high", id=high_old["id"])
    put(alice, "send_email", "Sign emails with my first name.", priority="normal")
    assert order() == [critical["id"], high_old["id"], high_new["id"], normal_old["id"], normal_new["id"]]

    # Priority beats freshness: the just-touched normal rule stays below both high ones.
    positional = ok("memory.tool_rule_list", ["send_email"], user=alice)
    assert [r["priority"] for r in positional] == ["critical", "high", "high", "normal", "normal"]
    assert positional[3]["id"] == normal_old["id"]
    assert ok("memory.tool_rule_list", {"tool_name": "calendar"}, user=alice) == []


def test_delete_removes_the_rule(alice):
    kept = put(alice, "send_email", "keep subject lines short")
    gone = put(alice, "send_email", SARAH, priority="critical")
    result = ok("memory.tool_rule_delete", {"tool_name": "send_email", "id": gone["id"]}, user=alice)
    assert result == {"deleted": True, "id": gone["id"], "tool_name": "send_email"}
    assert not ToolMemoryRule.objects.filter(pk=gone["id"]).exists()

    error = err("memory.tool_rule_get", {"tool_name": "send_email", "id": gone["id"]}, user=alice)
    assert (error["code"], error["data"]) == (-32004, {"code": "NOT_FOUND"})
    again = err("memory.tool_rule_delete", {"tool_name": "send_email", "id": gone["id"]}, user=alice)
    assert (again["code"], again["data"]) == (-32004, {"code": "NOT_FOUND"})
    assert [r["id"] for r in ok("memory.tool_rule_list", ["send_email"], user=alice)] == [kept["id"]]


def test_delete_with_the_wrong_tool_name_deletes_nothing(alice):
    rule = put(alice, "send_email", SARAH)
    error = err("memory.tool_rule_delete", ["shell", rule["id"]], user=alice)
    assert (error["code"], error["data"]) == (-32004, {"code": "NOT_FOUND"})
    assert ToolMemoryRule.objects.filter(pk=rule["id"]).exists()


# --- the pinned prompt block and the raw list --------------------------------------------------


@pytest.fixture
def prompt_rules(alice):
    """Rules put in an order that is not the block's order."""
    return {
        "email_high": put(alice, "send_email", "Ask before emailing anyone outside the company!", priority="high"),
        "email_late": put(alice, "send_email", "do not email anyone after 10pm", priority="critical"),
        "email_normal": put(alice, "send_email", "keep subject lines short", priority="normal"),
        "global": put(alice, "global", "Always answer in English", priority="high"),
        "shell": put(alice, "shell", "never run rm -rf on the server", priority="critical"),
        "sarah": put(alice, "send_email", SARAH, priority="critical", source="user_explicit"),
        "calendar": put(alice, "create_calendar_event", "confirm the   time zone\nwith me", priority="high"),
        "calendar_normal": put(alice, "create_calendar_event", "prefer mornings", priority="normal"),
    }


def test_rules_for_prompt_renders_the_seed_block(alice, prompt_rules):
    result = ok("memory.tool_rules_for_prompt", {}, user=alice)
    assert set(result) == {"markdown", "snapshot"}
    assert result["markdown"] == (
        "## Tool-scoped rules\n"
        "\n"
        "### `create_calendar_event`\n"
        "- [high] confirm the   time zone with me\n"
        "\n"
        "### `send_email`\n"
        "- [critical] never email Sarah at sarah@example.com\n"
        "- [critical] do not email anyone after 10pm\n"
        "- [high] Ask before emailing anyone outside the company!\n"
        "\n"
        "### `shell`\n"
        "- [critical] never run rm -rf on the server\n"
        "\n"
        "### `global`\n"
        "- [high] Always answer in English\n"
    )
    snapshot = result["snapshot"]
    assert snapshot["count"] == 6
    r = prompt_rules
    assert [(t["tool_name"], [rule["id"] for rule in t["rules"]]) for t in snapshot["tools"]] == [
        ("create_calendar_event", [r["calendar"]["id"]]),
        ("send_email", [r["sarah"]["id"], r["email_late"]["id"], r["email_high"]["id"]]),
        ("shell", [r["shell"]["id"]]),
        ("global", [r["global"]["id"]]),
    ]
    sarah = snapshot["tools"][1]["rules"][0]
    assert sarah == {k: v for k, v in r["sarah"].items() if k != "created"}
    # Without params at all it is the same block.
    assert ok("memory.tool_rules_for_prompt", user=alice) == result


def test_rules_for_prompt_narrowed_to_tools_keeps_global_rules(alice, prompt_rules):
    result = ok("memory.tool_rules_for_prompt", {"tools": ["send_email"]}, user=alice)
    assert result["markdown"] == (
        "## Tool-scoped rules\n"
        "\n"
        "### `send_email`\n"
        "- [critical] never email Sarah at sarah@example.com\n"
        "- [critical] do not email anyone after 10pm\n"
        "- [high] Ask before emailing anyone outside the company!\n"
        "\n"
        "### `global`\n"
        "- [high] Always answer in English\n"
    )
    assert result["snapshot"]["count"] == 4

    positional = ok("memory.tool_rules_for_prompt", [["shell", "no_such_tool"]], user=alice)
    assert positional["markdown"] == (
        "## Tool-scoped rules\n\n### `shell`\n- [critical] never run rm -rf on the server\n\n"
        "### `global`\n- [high] Always answer in English\n"
    )
    only_global = ok("memory.tool_rules_for_prompt", {"tools": []}, user=alice)
    assert only_global["markdown"] == "## Tool-scoped rules\n\n### `global`\n- [high] Always answer in English\n"


def test_rules_for_prompt_is_empty_without_pinned_rules(alice):
    empty = {"markdown": "", "snapshot": {"tools": [], "count": 0}}
    assert ok("memory.tool_rules_for_prompt", {}, user=alice) == empty
    put(alice, "send_email", "keep subject lines short", priority="normal")
    assert ok("memory.tool_rules_for_prompt", {}, user=alice) == empty


def test_rules_for_prompt_follows_a_priority_change(alice):
    rule = put(alice, "send_email", SARAH, priority="normal")
    assert ok("memory.tool_rules_for_prompt", {}, user=alice)["markdown"] == ""
    put(alice, "send_email", SARAH, priority="critical", id=rule["id"])
    assert ok("memory.tool_rules_for_prompt", {}, user=alice)["markdown"] == (
        "## Tool-scoped rules\n\n### `send_email`\n- [critical] never email Sarah at sarah@example.com\n"
    )
    ok("memory.tool_rule_delete", ["send_email", rule["id"]], user=alice)
    assert ok("memory.tool_rules_for_prompt", {}, user=alice)["markdown"] == ""


def test_tool_rules_json_is_the_raw_list(alice, prompt_rules):
    everything = ok("memory.tool_rules_json", {}, user=alice)
    assert len(everything) == len(prompt_rules)
    assert all(set(r) == RULE_FIELDS for r in everything)
    assert {r["id"] for r in everything} == {r["id"] for r in prompt_rules.values()}
    ranks = [{"critical": 0, "high": 1, "normal": 2}[r["priority"]] for r in everything]
    assert ranks == sorted(ranks)
    assert ok("memory.tool_rules_json", user=alice) == everything

    email = ok("memory.tool_rules_json", {"tool_name": "send_email"}, user=alice)
    assert email == ok("memory.tool_rule_list", {"tool_name": "send_email"}, user=alice)
    assert [r["rule"] for r in email] == [
        SARAH,
        "do not email anyone after 10pm",
        "Ask before emailing anyone outside the company!",
        "keep subject lines short",
    ]
    assert ok("memory.tool_rules_json", ["shell"], user=alice) == [
        {k: v for k, v in prompt_rules["shell"].items() if k != "created"}
    ]


# --- JSON-RPC errors ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("params", "domain_error"),
    [
        ({"tool_name": "send_email", "rule": SARAH, "priority": "urgent"}, True),
        ({"tool_name": "send_email", "rule": SARAH, "source": "robot"}, True),
        ({"tool_name": "send_email"}, False),
        ({"rule": SARAH}, False),
        ({"tool_name": "send_email", "rule": SARAH, "tags": "safety"}, True),
        ({"tool_name": "send_email", "rule": SARAH, "tags": ["safety", 7]}, True),
        ({"tool_name": "send_email", "rule": SARAH, "id": "not-a-uuid"}, True),
        ({"tool_name": "send_email", "rule": SARAH, "id": 42}, True),
        ({"tool_name": "send email", "rule": SARAH}, True),
        ({"tool_name": "tool/with/slashes", "rule": SARAH}, True),
        ({"tool_name": 42, "rule": SARAH}, True),
        ({"tool_name": "send_email", "rule": "   "}, True),
        ({"tool_name": "send_email", "rule": ["never", "email"]}, True),
        ({"tool_name": "send_email", "rule": SARAH, "colour": "red"}, False),
        (["send_email"], False),
        (["send_email", SARAH, "normal", "programmatic", [], None, False, "extra"], False),
    ],
)
def test_bad_put_params_are_invalid_params_and_write_nothing(alice, params, domain_error):
    error = err("memory.tool_rule_put", params, user=alice)
    assert error["code"] == -32602, error
    assert error["message"].startswith("Invalid parameters")
    if domain_error:
        assert error["data"] == {"code": "INVALID_INPUT"}
    assert ToolMemoryRule.objects.count() == 0


@pytest.mark.parametrize(
    ("method", "params"),
    [
        ("memory.tool_rule_get", {"tool_name": "send_email"}),
        ("memory.tool_rule_get", {"id": str(uuid.uuid4())}),
        ("memory.tool_rule_list", {}),
        ("memory.tool_rule_list", {"tool_name": 5}),
        ("memory.tool_rule_delete", ["send_email"]),
        ("memory.tool_rules_for_prompt", {"tools": "send_email"}),
        ("memory.tool_rules_for_prompt", {"tools": ["send_email", 3]}),
    ],
)
def test_bad_params_of_the_other_methods(alice, method, params):
    assert err(method, params, user=alice)["code"] == -32602


def test_a_bad_put_does_not_change_an_existing_rule(alice):
    rule = put(alice, "send_email", SARAH, priority="critical")
    error = err(
        "memory.tool_rule_put",
        {"tool_name": "send_email", "rule": "x", "priority": "urgent", "id": rule["id"]},
        user=alice,
    )
    assert error["code"] == -32602
    stored = ToolMemoryRule.objects.get()
    assert (stored.rule, stored.priority) == (SARAH, "critical")


def test_unknown_method(alice):
    error = err("memory.tool_rule_frobnicate", {}, user=alice)
    assert error["code"] == -32601
    assert "memory.tool_rule_frobnicate" in error["message"]
    # The system procedures are not registered either.
    assert err("system.listMethods", [], user=alice)["code"] == -32601


@pytest.mark.parametrize(
    ("method", "params"),
    [
        ("memory.tool_rule_get", {"tool_name": "send_email", "id": str(uuid.uuid4())}),
        ("memory.tool_rule_get", {"tool_name": "send_email", "id": "not-a-uuid"}),
        ("memory.tool_rule_delete", {"tool_name": "send_email", "id": str(uuid.uuid4())}),
        ("memory.tool_rule_delete", {"tool_name": "send_email", "id": "not-a-uuid"}),
    ],
)
def test_unknown_rule_is_not_found(alice, method, params):
    error = err(method, params, user=alice)
    assert error["code"] == -32004
    assert error["data"] == {"code": "NOT_FOUND"}
    assert params["id"] in error["message"]


@pytest.mark.parametrize(
    "authorization",
    [NO_AUTH, "Token not-a-real-token", "Token ", "Bearer {key}", "{key}", "Token{key}"],
    ids=["missing", "unknown-token", "empty-token", "bearer-scheme", "no-scheme", "no-space"],
)
@pytest.mark.parametrize(
    ("method", "params"),
    [
        ("memory.tool_rule_put", {"tool_name": "send_email", "rule": SARAH, "priority": "critical"}),
        ("memory.tool_rule_list", {"tool_name": "send_email"}),
        ("memory.tool_rules_for_prompt", {}),
        ("memory.tool_rules_json", {}),
    ],
)
def test_no_or_bad_token_fails_authentication_and_writes_nothing(alice, authorization, method, params):
    key = token_for(alice)
    header = authorization if authorization is NO_AUTH else authorization.format(key=key)
    error = err(method, params, authorization=header)
    assert error["code"] == -32098
    assert error["message"] == f'Authentication failed when calling "{method}"'
    assert ToolMemoryRule.objects.count() == 0


def test_an_inactive_users_token_fails_authentication(alice):
    key = token_for(alice)
    alice.is_active = False
    alice.save()
    error = err("memory.tool_rule_put", {"tool_name": "send_email", "rule": SARAH}, authorization=f"Token {key}")
    assert error["code"] == -32098
    assert ToolMemoryRule.objects.count() == 0


def test_bad_token_cannot_delete(alice):
    rule = put(alice, "send_email", SARAH)
    error = err("memory.tool_rule_delete", ["send_email", rule["id"]], authorization="Token nope")
    assert error["code"] == -32098
    assert ToolMemoryRule.objects.filter(pk=rule["id"]).exists()


@pytest.mark.parametrize(
    "raw",
    ['{"jsonrpc": "2.0", "id": 1, "method": "memory.tool_rule_put", "params": {', "not json", "{'jsonrpc': '2.0'}"],
)
def test_malformed_json_is_a_parse_error(alice, raw):
    body = post_rpc(None, user=alice, raw=raw)
    assert body["jsonrpc"] == "2.0"
    assert body["id"] is None
    assert body["error"]["code"] == -32700
    assert ToolMemoryRule.objects.count() == 0


def test_a_request_without_a_method_is_invalid(alice):
    body = post_rpc({"jsonrpc": "2.0", "id": 1, "params": {}}, user=alice)
    assert body["error"]["code"] == -32600


def test_a_batch_runs_each_call(alice):
    body = post_rpc(
        [
            {
                "jsonrpc": "2.0",
                "id": "a",
                "method": "memory.tool_rule_put",
                "params": ["send_email", SARAH, "critical"],
            },
            {"jsonrpc": "2.0", "id": "b", "method": "memory.tool_rule_put", "params": ["send_email", "x", "urgent"]},
            {"jsonrpc": "2.0", "id": "c", "method": "memory.tool_rule_list", "params": ["send_email"]},
        ],
        user=alice,
    )
    by_id = {item["id"]: item for item in body}
    assert by_id["a"]["result"]["created"] is True
    assert by_id["b"]["error"]["code"] == -32602
    assert [r["rule"] for r in by_id["c"]["result"]] == [SARAH]


# --- owner scoping -----------------------------------------------------------------------------


def test_another_users_rule_is_invisible(alice, bob):
    rule = put(alice, "send_email", SARAH, priority="critical")
    for method, params in [
        ("memory.tool_rule_get", {"tool_name": "send_email", "id": rule["id"]}),
        ("memory.tool_rule_delete", {"tool_name": "send_email", "id": rule["id"]}),
    ]:
        error = err(method, params, user=bob)
        assert (error["code"], error["data"]) == (-32004, {"code": "NOT_FOUND"}), method
    assert ok("memory.tool_rule_list", {"tool_name": "send_email"}, user=bob) == []
    assert ok("memory.tool_rules_json", {}, user=bob) == []
    assert ok("memory.tool_rules_for_prompt", {}, user=bob) == {"markdown": "", "snapshot": {"tools": [], "count": 0}}
    assert ToolMemoryRule.objects.filter(pk=rule["id"], owner=alice).exists()


def test_another_users_rule_cannot_be_overwritten_by_id(alice, bob):
    rule = put(alice, "send_email", SARAH, priority="critical", tags=["safety"])
    error = err(
        "memory.tool_rule_put",
        {"tool_name": "send_email", "rule": "email Sarah whenever you like", "priority": "normal", "id": rule["id"]},
        user=bob,
    )
    assert (error["code"], error["data"]) == (-32004, {"code": "NOT_FOUND"})
    after = ok("memory.tool_rule_get", ["send_email", rule["id"]], user=alice)
    assert after == {k: v for k, v in rule.items() if k != "created"}
    assert ToolMemoryRule.objects.count() == 1


def test_the_same_words_from_another_user_are_their_own_rule(alice, bob):
    alices = put(alice, "send_email", SARAH, priority="critical")
    bobs = put(bob, "send_email", SARAH, priority="normal")
    assert bobs["created"] is True and bobs["id"] != alices["id"] and bobs["owner"] == "bob"
    assert ok("memory.tool_rule_get", ["send_email", alices["id"]], user=alice)["priority"] == "critical"
    assert [r["id"] for r in ok("memory.tool_rules_json", {}, user=bob)] == [bobs["id"]]
    assert [r["id"] for r in ok("memory.tool_rules_json", {}, user=alice)] == [alices["id"]]


def test_binds_everyone_needs_the_model_permission(alice):
    error = err(
        "memory.tool_rule_put",
        {"tool_name": "global", "rule": "never share passwords", "binds_everyone": True},
        user=alice,
    )
    assert error["code"] == -32003
    assert error["data"] == {"code": "PERMISSION_DENIED"}
    assert ToolMemoryRule.objects.count() == 0

    staff_without_permission = UserFactory(username="clerk", is_staff=True)
    error = err(
        "memory.tool_rule_put",
        ["global", "never share passwords", "critical", "programmatic", [], None, True],
        user=staff_without_permission,
    )
    assert error["code"] == -32003
    assert ToolMemoryRule.objects.count() == 0


def test_a_rule_that_binds_everyone(alice, bob, staff):
    shared = put(staff, "send_email", "never email the whole company", priority="critical", binds_everyone=True)
    assert shared["created"] is True
    assert shared["owner"] is None
    assert ToolMemoryRule.objects.get(pk=shared["id"]).owner is None
    own = put(alice, "send_email", SARAH, priority="high")

    for user in (alice, bob, staff):
        assert ok("memory.tool_rule_get", ["send_email", shared["id"]], user=user)["owner"] is None
        assert shared["id"] in [r["id"] for r in ok("memory.tool_rule_list", ["send_email"], user=user)]
    assert ok("memory.tool_rules_for_prompt", {}, user=alice)["markdown"] == (
        "## Tool-scoped rules\n\n### `send_email`\n"
        "- [critical] never email the whole company\n"
        "- [high] never email Sarah at sarah@example.com\n"
    )
    assert ok("memory.tool_rules_for_prompt", {}, user=bob)["markdown"] == (
        "## Tool-scoped rules\n\n### `send_email`\n- [critical] never email the whole company\n"
    )
    # Staff see everyone's rules, not Alice's own ones.
    assert [r["id"] for r in ok("memory.tool_rules_json", {}, user=staff)] == [shared["id"]]
    assert own["id"] not in [r["id"] for r in ok("memory.tool_rules_json", {}, user=bob)]


def test_only_holders_of_the_permission_change_or_delete_a_global_rule(alice, bob, staff):
    shared = put(staff, "send_email", "never email the whole company", priority="critical", binds_everyone=True)
    untouched = {k: v for k, v in shared.items() if k != "created"}

    error = err("memory.tool_rule_delete", ["send_email", shared["id"]], user=bob)
    assert (error["code"], error["data"]) == (-32003, {"code": "PERMISSION_DENIED"})
    error = err(
        "memory.tool_rule_put", {"tool_name": "send_email", "rule": "email everyone", "id": shared["id"]}, user=bob
    )
    assert error["code"] == -32003
    assert ok("memory.tool_rule_get", ["send_email", shared["id"]], user=bob) == untouched

    # The same words without an id are Bob's own rule, and leave the global one alone.
    own = put(bob, "send_email", "never email the whole company", priority="normal")
    assert own["created"] is True and own["owner"] == "bob" and own["id"] != shared["id"]
    assert ok("memory.tool_rule_get", ["send_email", shared["id"]], user=alice) == untouched

    grant_global(bob)
    updated = put(
        bob, "send_email", "never email the whole company", priority="high", id=shared["id"], binds_everyone=True
    )
    assert (updated["created"], updated["priority"], updated["owner"]) == (False, "high", None)
    assert ok("memory.tool_rule_delete", ["send_email", shared["id"]], user=bob)["deleted"] is True
    assert not ToolMemoryRule.objects.filter(pk=shared["id"]).exists()
    assert ToolMemoryRule.objects.filter(pk=own["id"]).exists()


def test_a_superuser_may_set_a_global_rule():
    root = UserFactory(username="root", is_staff=True, is_superuser=True)
    result = put(root, "global", "never share passwords", priority="critical", binds_everyone=True)
    assert result["owner"] is None and result["created"] is True


# --- bugs --------------------------------------------------------------------------------------


def test_updating_a_rule_to_another_rules_words_is_a_client_error(alice):
    first = put(alice, "send_email", SARAH, priority="critical")
    second = put(alice, "send_email", "keep subject lines short", priority="normal")
    error = err(
        "memory.tool_rule_put", {"tool_name": "send_email", "rule": SARAH + ".", "id": second["id"]}, user=alice
    )
    assert error["code"] != -32603, error
    assert ok("memory.tool_rule_get", ["send_email", first["id"]], user=alice)["rule"] == SARAH
    assert ok("memory.tool_rule_get", ["send_email", second["id"]], user=alice)["rule"] == "keep subject lines short"


def test_binds_everyone_must_be_a_boolean(staff, alice):
    error = err(
        "memory.tool_rule_put",
        {"tool_name": "send_email", "rule": "cc me on everything", "priority": "critical", "binds_everyone": "false"},
        user=staff,
    )
    assert error["code"] == -32602
    assert ok("memory.tool_rules_for_prompt", {}, user=alice)["markdown"] == ""
