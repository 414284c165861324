"""Seed 004's frozen prompt with seed 002's memory block: everything before the memory block (base,
tools and their schemas, workflow blocks, pinned rules) is byte-identical on every call with the
same session id, whatever changed mid-session; the memory block at the end follows the message."""

import uuid

import pytest
from django.contrib.auth.models import Permission
from guardian.shortcuts import assign_perm

from assistant.models import AssistantSession
from assistant.services.session_service import start_or_resume_session
from core.errors import NotFound
from memories import services as memory_services
from memories.permissions import ensure_user_namespace
from tests.assistant.conftest import client_for
from tests.factories import UserFactory
from toolrules.services import put_rule

SESSION = "/api/v1/assistant/session"
WITH = "You are an AI assistant with access to user memories.\nRelevant memories:\n"
WITHOUT = "You are an AI assistant.\n"


def post_session(user, **body):
    response = client_for(user).post(SESSION, body, format="json")
    assert response.status_code == 200, response.json()
    return response.json()


def split(prompt: str) -> tuple[str, str]:
    """(frozen prefix, memory block): the memory block is the seed 002 prompt that ends it."""
    at = prompt.rfind("\n\nYou are an AI assistant") + 2
    return prompt[:at], prompt[at:]


def remember(user, *texts):
    ns = ensure_user_namespace(user)
    for text in texts:
        memory_services.add_memory(actor=user, namespace=ns, content=text, run_async=False)


def tool_names(body):
    return [tool["name"] for tool in body["tools"]]


def memories_of(user):
    remember(user, "John Smith is the user's manager at Acme Corp.", "User is allergic to peanuts.")


def test_a_permission_granted_mid_session_waits_for_the_next_session(viewer):
    memories_of(viewer)
    started = post_session(viewer, message="what's the weather like")
    prefix, block = split(started["system_prompt"])
    assert block == WITHOUT
    assert "get_contact_memory" not in tool_names(started)

    viewer.user_permissions.add(Permission.objects.get(codename="view_contactnote"))
    resumed = post_session(viewer, session_id=started["session_id"], message="who is my manager")
    resumed_prefix, resumed_block = split(resumed["system_prompt"])
    assert resumed_prefix == prefix  # byte for byte
    assert resumed["tools"] == started["tools"]  # the tools and their schemas too
    assert resumed_block.startswith(WITH + "- John Smith is the user's manager at Acme Corp.\n")

    fresh = post_session(viewer, message="who is my manager")
    assert "get_contact_memory" in tool_names(fresh)
    assert "## SMS drafting" in fresh["system_prompt"] and "## SMS drafting" not in prefix
    assert split(fresh["system_prompt"])[1] == resumed_block


def test_a_tool_revoked_mid_session_is_listed_until_the_session_ends_but_refused(both, jane):
    started = post_session(both, message="hi")
    assert "get_contact_memory" in tool_names(started)
    both.user_permissions.remove(Permission.objects.get(codename="view_contactnote"))

    resumed = post_session(both, session_id=started["session_id"], message="hi")
    assert resumed["system_prompt"] == started["system_prompt"]
    assert resumed["tools"] == started["tools"]

    # Execution checks permissions itself: the registry's refusal, as for any caller without it.
    invoked = client_for(both).post(
        "/api/v1/assistant/tools/get_contact_memory/invoke", {"arguments": {"contact_id": str(jane.id)}}, format="json"
    )
    assert invoked.status_code == 403
    assert invoked.json() == {
        "ok": False,
        "error": {"code": "PERMISSION_DENIED", "message": "Tool 'get_contact_memory' is not available to you."},
    }
    never_had_it = UserFactory(username="never")
    assign_perm("view_contact", never_had_it, jane)
    assert (
        client_for(never_had_it)
        .post(
            "/api/v1/assistant/tools/get_contact_memory/invoke",
            {"arguments": {"contact_id": str(jane.id)}},
            format="json",
        )
        .json()
        == invoked.json()
    )
    assert "get_contact_memory" not in tool_names(post_session(both))


def test_a_rule_added_mid_session_waits_for_the_next_session(nobody):
    memories_of(nobody)
    started = post_session(nobody, message="who is my manager")
    prefix, block = split(started["system_prompt"])
    assert "Tool-scoped rules" not in prefix and block.startswith(WITH)

    turn = client_for(nobody).post(
        "/api/v1/assistant/turns",
        {"session_id": started["session_id"], "messages": [{"role": "user", "content": "NEVER email John Smith."}]},
        format="json",
    )
    assert turn.status_code == 201 and len(turn.json()["rules"]) == 1

    for message, expected in [("what's the weather like", WITHOUT), ("am I allergic to peanuts", WITH)]:
        resumed = post_session(nobody, session_id=started["session_id"], message=message)
        resumed_prefix, resumed_block = split(resumed["system_prompt"])
        assert resumed_prefix == prefix
        assert resumed_block.startswith(expected)
        assert resumed["tool_rules"] == started["tool_rules"] == {"tools": [], "count": 0}
    assert resumed_block != block  # the memory block follows the message

    fresh = post_session(nobody, message="hi")
    assert "### `send_email`\n- [critical] NEVER email John Smith.\n\n" in fresh["system_prompt"]


def test_the_frozen_prefix_lives_in_the_database(nobody):
    started = post_session(nobody, message="hi")
    row = AssistantSession.objects.get(pk=started["session_id"])
    assert started["system_prompt"] == row.prompt_prefix + WITHOUT
    assert row.tools_snapshot == started["tools"]
    # A resume reads the row (as any worker process would), it does not recompute.
    AssistantSession.objects.filter(pk=row.pk).update(prompt_prefix="Frozen elsewhere.\n\n")
    resumed = post_session(nobody, session_id=started["session_id"], message="hi")
    assert resumed["system_prompt"] == "Frozen elsewhere.\n\n" + WITHOUT


def test_a_session_from_before_frozen_prefixes_is_frozen_once(nobody):
    legacy = AssistantSession.objects.create(user=nobody, agent_name="old", tool_rules_block="")
    first = post_session(nobody, session_id=str(legacy.id), message="hi")
    assert first["system_prompt"].startswith('You are running as the agent "old".\n')
    put_rule(actor=nobody, tool_name="shell", rule="Do not run rm -rf /", priority="critical")
    assert post_session(nobody, session_id=str(legacy.id), message="hi") == first


def test_the_agent_name_is_the_sessions_own(nobody):
    started = post_session(nobody, agent_name="planner")
    resumed = post_session(nobody, session_id=started["session_id"], agent_name="someone_else")
    assert resumed["system_prompt"] == started["system_prompt"]
    assert 'agent "planner"' in resumed["system_prompt"]


def test_unknown_or_someone_elses_session_is_not_found(nobody, viewer):
    started = post_session(nobody)
    for user, session_id in [(viewer, started["session_id"]), (nobody, str(uuid.uuid4()))]:
        response = client_for(user).post(SESSION, {"session_id": session_id}, format="json")
        assert response.status_code == 404 and response.json()["error"]["code"] == "NOT_FOUND"


@pytest.mark.django_db
def test_a_transport_named_session_for_mcp(nobody, viewer):
    """MCP passes its transport's session id (any string) and asks for the session to exist."""
    with pytest.raises(NotFound):
        start_or_resume_session(user=nobody, session_id="mcp-abc")
    first = start_or_resume_session(user=nobody, session_id="mcp-abc", message="hi", create_if_missing=True)
    assert first.created
    put_rule(actor=nobody, tool_name="shell", rule="Do not run rm -rf /", priority="critical")
    again = start_or_resume_session(user=nobody, session_id="mcp-abc", message="hi", create_if_missing=True)
    assert (again.id, again.created, again.system_prompt) == (first.id, False, first.system_prompt)
    assert again.prompt_prefix == first.prompt_prefix and first.system_prompt.startswith(first.prompt_prefix)
    # The same key is another session for another caller; a caller's UUID never opens another's.
    theirs = start_or_resume_session(user=viewer, session_id="mcp-abc", create_if_missing=True)
    assert theirs.id != first.id and "rm -rf" not in theirs.system_prompt
    with pytest.raises(NotFound):
        start_or_resume_session(user=viewer, session_id=first.id, create_if_missing=True)
