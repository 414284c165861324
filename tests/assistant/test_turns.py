"""The post-turn hook: memories, decrees, failures, statistics, subagent skills, idempotency."""

import pytest

from assistant.models import ProcessedTurn
from memories.models import Memory, Namespace
from tests.assistant.conftest import client_for
from toolrules.models import ToolMemoryRule, ToolStatistic

pytestmark = pytest.mark.django_db
URL = "/api/v1/assistant/turns"

TURN = {
    "session_id": "sess-1",
    "turn_index": 3,
    "messages": [
        {"role": "user", "content": "I work at Acme Corp now. Never email Sarah at sarah@example.com."},
        {"role": "assistant", "content": "Noted!"},
        {"role": "user", "content": "my key is AKIAIOSFODNN7EXAMPLE"},
    ],
    "tool_calls": [
        {"name": "send_email", "arguments": {"to": "x@example.com"}, "status": "error", "error": "SMTP timeout"},
        {"name": "send_email", "arguments": {"to": "x@example.com"}, "status": "error", "error": "SMTP timeout"},
        {"name": "search_memory", "arguments": {"query": "acme"}, "status": "success"},
    ],
}


def test_a_turn_is_captured(nobody, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(nobody).post(URL, TURN, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    # User messages are stored asynchronously, secrets never.
    [stored] = body["memories"]["stored"]
    memory = Memory.objects.get(id=stored["memory_id"])
    assert str(memory.event_id) == stored["event_id"]
    assert memory.text.startswith("I work at Acme Corp now.")
    assert memory.namespace.key == "user:nobody" and memory.metadata["type"] == "user_message"
    assert memory.status == "ready"  # embedded after commit (in process here)
    assert body["memories"]["skipped"] == [
        {"message_index": 2, "code": "SECRET_REJECTED", "reason": body["memories"]["skipped"][0]["reason"]}
    ]
    assert not Memory.objects.filter(text__contains="AKIA").exists()
    # The decree and the repeated failure.
    assert [(r["tool_name"], r["priority"], r["rule"]) for r in body["rules"]] == [
        ("send_email", "critical", "Never email Sarah at sarah@example.com.")
    ]
    assert [(o["tool_name"], o["priority"], o["source"]) for o in body["observations"]] == [
        ("send_email", "normal", "post_turn")
    ]
    # Statistics, apart from rules.
    stats = {s.tool_name: s for s in ToolStatistic.objects.filter(owner=nobody)}
    assert (stats["send_email"].calls, stats["send_email"].failures, stats["send_email"].last_error) == (
        2,
        2,
        "SMTP timeout",
    )
    assert (stats["search_memory"].calls, stats["search_memory"].successes) == (1, 1)
    assert stats["send_email"].key == "tool_effectiveness/tool/send_email"
    # Not a subagent: no skill.
    assert body["skill"] is None
    assert not Namespace.objects.filter(kind="agent").exists()


def test_a_retried_post_changes_nothing(nobody):
    client = client_for(nobody)
    first = client.post(URL, TURN, format="json").json()
    counts = (
        Memory.objects.count(),
        ToolMemoryRule.objects.count(),
        list(ToolStatistic.objects.values_list("calls", flat=True)),
    )
    again = client.post(URL, TURN, format="json")
    assert again.status_code == 200
    assert again.json() == {**first, "replayed": True}
    assert (
        Memory.objects.count(),
        ToolMemoryRule.objects.count(),
        list(ToolStatistic.objects.values_list("calls", flat=True)),
    ) == counts
    assert ProcessedTurn.objects.count() == 1


def test_without_a_turn_index_the_content_identifies_the_turn(nobody):
    client = client_for(nobody)
    turn = {k: v for k, v in TURN.items() if k != "turn_index"}
    assert client.post(URL, turn, format="json").status_code == 201
    assert client.post(URL, turn, format="json").status_code == 200
    changed = {**turn, "messages": [{"role": "user", "content": "something new"}]}
    assert client.post(URL, changed, format="json").status_code == 201


def test_the_same_turn_index_in_another_session_is_another_turn(nobody):
    client = client_for(nobody)
    assert client.post(URL, TURN, format="json").status_code == 201
    assert client.post(URL, {**TURN, "session_id": "sess-2"}, format="json").status_code == 201


def test_subagents_learn_skills_from_successful_calls(nobody):
    turn = {**TURN, "agent_name": "gmail_subagent"}
    body = client_for(nobody).post(URL, turn, format="json").json()
    skill = Memory.objects.get(id=body["skill"]["memory_id"])
    # Nobody granted this caller the shared agent:gmail_subagent: its own agent namespace.
    assert skill.namespace.key == "agent:gmail_subagent/nobody" and skill.namespace.kind == "agent"
    assert skill.namespace.owner == nobody and body["skill"]["namespace"] == "agent:gmail_subagent/nobody"
    assert skill.metadata["type"] == "skill" and skill.metadata["agent"] == "gmail_subagent"
    assert skill.text == 'Tool search_memory succeeded with args: {"query": "acme"}'
    assert nobody.has_perm("memories.view_namespace", skill.namespace)


def test_other_agents_never_learn_skills(nobody):
    body = client_for(nobody).post(URL, {**TURN, "agent_name": "main_agent"}, format="json").json()
    assert body["skill"] is None
    assert not Memory.objects.filter(metadata__type="skill").exists()


@pytest.mark.parametrize(
    "bad",
    [
        {"messages": []} | {"session_id": ""},
        {"session_id": "s", "messages": [{"role": "robot", "content": "x"}]},
        {"session_id": "s", "messages": [], "tool_calls": [{"name": "x", "status": "maybe"}]},
        {"session_id": "s", "messages": [], "surprise": 1},
    ],
)
def test_bad_turns_are_invalid_input(nobody, bad):
    response = client_for(nobody).post(URL, bad, format="json")
    assert response.status_code == 400 and response.json()["error"]["code"] == "INVALID_INPUT"
    assert ProcessedTurn.objects.count() == 0


def test_turns_need_authentication(api_client):
    assert api_client.post(URL, TURN, format="json").status_code == 401
