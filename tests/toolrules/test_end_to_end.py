"""Seed 004's safety case end to end, enforcement, frozen sessions and owner scoping."""

import pytest
from django.contrib.auth.models import Permission

from contacts import services as contact_services
from contacts import sms
from contacts.models import ContactMessage
from tests.assistant.conftest import client_for
from tests.factories import UserFactory
from toolrules import services
from toolrules.models import ToolMemoryRule

pytestmark = pytest.mark.django_db


@pytest.fixture
def user():
    user = UserFactory(username="pat")
    user.user_permissions.add(Permission.objects.get(codename="add_contact"))
    return user


@pytest.fixture
def sarah(user):
    return contact_services.create_contact(
        actor=user, name="Sarah Johnson", email="sarah@example.com", phone="+1 (415) 555-0100"
    )


@pytest.fixture
def bob(user):
    return contact_services.create_contact(actor=user, name="Bob Roe", email="bob@example.com", phone="+1 415 555 0199")


def turn(client, session_id, text, index=0, tool_calls=()):
    return client.post(
        "/api/v1/assistant/turns",
        {
            "session_id": session_id,
            "turn_index": index,
            "messages": [{"role": "user", "content": text}],
            "tool_calls": list(tool_calls),
        },
        format="json",
    )


def invoke(client, name, **arguments):
    return client.post(f"/api/v1/assistant/tools/{name}/invoke", {"arguments": arguments}, format="json")


def test_the_seed_safety_case_never_email_sarah(user, sarah, bob):
    client = client_for(user)
    first = client.post("/api/v1/assistant/session", {}, format="json").json()
    assert "Tool-scoped rules" not in first["system_prompt"]

    # 1. The user says it in a turn that used send_email (a sentence, with its full stop).
    posted = turn(
        client,
        first["session_id"],
        "never email Sarah at sarah@example.com.",
        tool_calls=[{"name": "send_email", "arguments": {"contact_id": str(bob.id)}, "status": "success"}],
    )
    assert posted.status_code == 201
    [rule] = posted.json()["rules"]
    assert (rule["tool_name"], rule["priority"], rule["source"]) == ("send_email", "critical", "user_explicit")
    assert rule["key"] == f"tool-send_email/rule/{rule['id']}"

    # 2. The next session's prompt pins it.
    second = client.post("/api/v1/assistant/session", {}, format="json").json()
    assert (
        "## Tool-scoped rules\n\n### `send_email`\n- [critical] never email Sarah at sarah@example.com.\n"
        in second["system_prompt"]
    )

    # 3. An email to her is refused, preview or not, and nothing is sent.
    for confirmed in (False, True):
        refused = invoke(
            client, "send_email", contact_id=str(sarah.id), subject="Hi", body="Hello", confirmed=confirmed
        )
        assert refused.status_code == 403
        assert refused.json()["error"]["code"] == "RULE_VIOLATION"
        assert "never email Sarah at sarah@example.com" in refused.json()["error"]["message"]
    assert ContactMessage.objects.count() == 0

    # Others are still reachable, and Sarah by SMS (the rule is about email).
    assert invoke(client, "send_email", contact_id=str(bob.id), body="Hello", confirmed=True).status_code == 200
    assert invoke(client, "send_sms", contact_id=str(sarah.id), body="Hello").status_code == 200


def test_an_sms_decree_blocks_texts_to_that_number(user, sarah, bob):
    client = client_for(user)
    turn(client, "s1", "Don't text +1 415 555 0100 ever again")
    sms.outbox.clear()
    refused = invoke(client, "send_sms", contact_id=str(sarah.id), body="Hi", confirmed=True)
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "RULE_VIOLATION"
    assert sms.outbox == [] and ContactMessage.objects.count() == 0
    assert invoke(client, "send_sms", contact_id=str(bob.id), body="Hi", confirmed=True).status_code == 200


def test_a_rule_naming_no_recipient_only_informs(user, sarah):
    client = client_for(user)
    turn(client, "s1", "never email anyone after 9pm")
    assert invoke(client, "send_email", contact_id=str(sarah.id), body="Hi").status_code == 200


def test_a_session_freezes_its_rules_block(user):
    client = client_for(user)
    services.put_rule(actor=user, tool_name="shell", rule="never run rm -rf /", priority="critical")
    started = client.post("/api/v1/assistant/session", {"message": "hi"}, format="json").json()
    assert "never run rm -rf /" in started["system_prompt"]
    services.put_rule(actor=user, tool_name="shell", rule="never touch production", priority="high")
    ToolMemoryRule.objects.filter(rule="never run rm -rf /").delete()
    resumed = client.post(
        "/api/v1/assistant/session", {"message": "hi", "session_id": started["session_id"]}, format="json"
    ).json()
    assert resumed["session_id"] == started["session_id"]
    assert resumed["system_prompt"] == started["system_prompt"]  # frozen: byte for byte
    fresh = client.post("/api/v1/assistant/session", {"message": "hi"}, format="json").json()
    assert "never touch production" in fresh["system_prompt"] and "rm -rf" not in fresh["system_prompt"]


def test_someone_elses_session_is_not_found(user):
    started = client_for(user).post("/api/v1/assistant/session", {}, format="json").json()
    other = UserFactory()
    response = client_for(other).post("/api/v1/assistant/session", {"session_id": started["session_id"]}, format="json")
    assert response.status_code == 404


def test_one_users_decree_never_binds_another(user, sarah):
    client = client_for(user)
    turn(client, "s1", "never email Sarah")
    other = UserFactory(username="quinn")
    from guardian.shortcuts import assign_perm

    assign_perm("view_contact", other, sarah)
    other_client = client_for(other)
    prompt = other_client.post("/api/v1/assistant/session", {}, format="json").json()["system_prompt"]
    assert "never email Sarah" not in prompt
    assert invoke(other_client, "send_email", contact_id=str(sarah.id), body="Hi").status_code == 200


def test_a_rule_without_owner_binds_everyone(user, sarah):
    staff = UserFactory(username="staff", is_staff=True)
    staff.user_permissions.add(Permission.objects.get(codename="change_toolmemoryrule"))
    staff = type(staff).objects.get(pk=staff.pk)
    services.put_rule(
        actor=staff,
        tool_name="send_email",
        rule="never email sarah@example.com",
        priority="critical",
        binds_everyone=True,
    )
    response = invoke(client_for(user), "send_email", contact_id=str(sarah.id), body="Hi")
    assert response.status_code == 403 and response.json()["error"]["code"] == "RULE_VIOLATION"


def test_the_block_lists_critical_before_high_and_leaves_normal_out(user):
    services.put_rule(actor=user, tool_name="send_email", rule="prefer plain text", priority="high")
    services.put_rule(
        actor=user, tool_name="send_email", rule="never email Sarah at sarah@example.com", priority="critical"
    )
    services.put_rule(actor=user, tool_name="send_email", rule="SMTP is slow on Mondays", priority="normal")
    services.put_rule(actor=user, tool_name="shell", rule="never run rm -rf /", priority="critical")
    services.put_rule(actor=user, tool_name="global", rule="never share the Q4 numbers", priority="critical")
    block = services.rules_for_prompt(user=user)
    assert block.markdown == (
        "## Tool-scoped rules\n"
        "\n"
        "### `send_email`\n"
        "- [critical] never email Sarah at sarah@example.com\n"
        "- [high] prefer plain text\n"
        "\n"
        "### `shell`\n"
        "- [critical] never run rm -rf /\n"
        "\n"
        "### `global`\n"
        "- [critical] never share the Q4 numbers\n"
    )
    assert block.snapshot["count"] == 4
    assert [t["tool_name"] for t in block.snapshot["tools"]] == ["send_email", "shell", "global"]
    only_shell = services.rules_for_prompt(user=user, tools=["shell"])
    assert "send_email" not in only_shell.markdown and "never share the Q4 numbers" in only_shell.markdown


def test_memory_recall_fetches_normal_rules_on_demand(user):
    services.put_rule(actor=user, tool_name="send_email", rule="SMTP is slow on Mondays", priority="normal")
    services.put_rule(actor=user, tool_name="send_sms", rule="carrier drops long texts", priority="normal")
    body = invoke(client_for(user), "memory_recall", namespace="tool-send_email").json()
    assert [r["rule"] for r in body["result"]["rules"]] == ["SMTP is slow on Mondays"]
    assert body["summary"] == "Tool memory_recall loaded 1 rule for tool-send_email."
