"""The session's system prompt: golden files for four callers, byte-identical on repeat, and seed
002's memory block (intro switch included) byte for byte at its end.

To accept a deliberate change of the prompt: MNEMO_UPDATE_GOLDEN=1 pytest tests/assistant/test_prompt.py,
then read the diff of tests/assistant/golden/ before committing it.
"""

import os
from pathlib import Path

import pytest

from assistant.services.build_system_prompt_service import relevant_memories
from memories import services as memory_services
from memories.permissions import ensure_user_namespace
from tests.assistant.conftest import client_for
from toolrules.services import put_rule

GOLDEN = Path(__file__).parent / "golden"


@pytest.fixture(autouse=True)
def no_stale_word_statistics(monkeypatch):
    """The keyword arm weighs a word also by the table's column statistics (selectors.
    word_frequencies: PostgreSQL's most common words of memories_memory as last analysed). In the
    suite those are the statistics of thousands of rows earlier tests stored and flushed (the
    retrieval benchmark's turns), so a golden prompt's order of two close memories followed which
    tests ran before it (CI's fast run on 3.12: "John Smith is the user's manager" above "standing
    meeting", a word of the benchmark's). Here the table holds these five memories only, whose
    statistics a fresh database has none of: that is what the golden prompts are made with."""
    from memories import selectors

    monkeypatch.setattr(selectors, "word_frequencies", dict)


MEMORIES = [
    "User prefers email summaries in the morning.",
    "John Smith is the user's manager at Acme Corp.",
    "User has a standing meeting with Sarah every Monday at 10am.",
    "User is allergic to peanuts.",
    "User's dog is a golden retriever named Biscuit.",
]


def seed_memories(user):
    ns = ensure_user_namespace(user)
    for text in MEMORIES:
        memory_services.add_memory(actor=user, namespace=ns, content=text, run_async=False)


def session(user, **body):
    response = client_for(user).post("/api/v1/assistant/session", body, format="json")
    assert response.status_code == 200, response.json()
    return response.json()["system_prompt"]


def check_golden(name: str, prompt: str) -> None:
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("MNEMO_UPDATE_GOLDEN"):
        path.write_text(prompt)
    assert prompt == path.read_text(), f"prompt differs from {path}"


CASES = {
    # (caller fixture, request body, whether the caller has memories)
    "no_contact_permissions": ("nobody", {"message": "Can you set up a meeting with my manager?"}, True),
    "contacts_without_notes": ("viewer", {"message": "Text Jane that I'm late"}, False),
    "contacts_and_notes_subagent": (
        "both",
        {
            "message": "Draft a text to Jane about pricing; I'm allergic to peanuts so no lunch",
            "agent_name": "sms_subagent",
        },
        True,
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_golden_prompts(request, case):
    fixture, body, with_memories = CASES[case]
    user = request.getfixturevalue(fixture)
    if with_memories:
        seed_memories(user)
    first = session(user, **body)
    check_golden(case, first)
    assert session(user, **body) == first  # the same inputs, byte for byte


SEED_INTRO_WITH = "You are an AI assistant with access to user memories."
SEED_INTRO_WITHOUT = "You are an AI assistant."
SEED_OUTRO = "Use these memories to personalize your responses."


def test_the_seed_002_block_byte_for_byte_with_memories(nobody):
    seed_memories(nobody)
    prompt = session(nobody, message="who is my manager")
    injected = relevant_memories(user=nobody, message="who is my manager")
    assert injected[0] == "John Smith is the user's manager at Acme Corp."
    # The seed's f-string: intro, "Relevant memories:", one "- …" line each, the outro; no blank line.
    block = "\n".join([SEED_INTRO_WITH, "Relevant memories:", *[f"- {m}" for m in injected], SEED_OUTRO]) + "\n"
    assert prompt.endswith("\n\n" + block)
    assert prompt.count(SEED_INTRO_WITH) == 1 and SEED_INTRO_WITHOUT + "\n" not in prompt


def test_the_seed_002_intro_switch_without_memories(nobody):
    prompt = session(nobody, message="what's the weather like")
    assert prompt.endswith("\n\n" + SEED_INTRO_WITHOUT + "\n")
    assert "Relevant memories" not in prompt and "access to user memories" not in prompt


def test_no_memory_block_without_relevant_memories(nobody):
    assert "Relevant memories" not in session(nobody, message="what's the weather like")
    seed_memories(nobody)
    assert "Relevant memories" not in session(nobody)
    assert session(nobody).endswith("\n\nYou are an AI assistant.\n")


def test_a_memory_with_line_breaks_is_one_line(nobody):
    ns = ensure_user_namespace(nobody)
    memory_services.add_memory(actor=nobody, namespace=ns, content="User's cat is named\nMochi.", run_async=False)
    prompt = session(nobody, message="cat named Mochi")
    assert "Relevant memories:\n- User's cat is named Mochi.\nUse these memories" in prompt


def test_the_golden_prompt_with_pinned_rules(both):
    seed_memories(both)
    put_rule(actor=both, tool_name="send_sms", rule="Never text Jane after 9pm.", priority="critical")
    put_rule(actor=both, tool_name="send_sms", rule="keep texts under 160 characters", priority="high")
    put_rule(actor=both, tool_name="shell", rule="Do not run rm -rf /", priority="critical")
    body = {"message": "Text Jane about the peanut-free lunch", "agent_name": "sms_subagent"}
    prompt = session(both, **body)
    check_golden("rules_and_memories", prompt)
    assert session(both, **body) == prompt


def test_other_users_memories_never_reach_the_prompt(nobody, viewer):
    seed_memories(nobody)
    assert "Relevant memories" not in session(viewer, message="who is my manager at Acme Corp")


def test_prompts_are_plain_text_not_html_escaped(nobody):
    ns = ensure_user_namespace(nobody)
    memory_services.add_memory(
        actor=nobody, namespace=ns, content='User\'s <b>"favourite"</b> shop is M&S.', run_async=False
    )
    # An agent's name holds no markup at all (letters, digits, spaces, _ - .): the memory's does.
    prompt = session(nobody, message="favourite shop M&S", agent_name="Ünal research-subagent.v2")
    assert '- User\'s <b>"favourite"</b> shop is M&S.' in prompt
    assert 'agent "Ünal research-subagent.v2"' in prompt
    assert "&amp;" not in prompt and "&#x27;" not in prompt
