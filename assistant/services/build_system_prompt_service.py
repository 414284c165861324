"""The system prompt an agent gets, rendered from templates/assistant/, in two parts.

1. The **frozen prefix**, computed once at session start and kept for the session's lifetime
   (seed 004: "the system prompt is frozen during session"), blocks in this order, each only when
   it applies:
   a. ``base.txt``: which agent it runs as and which tools it has;
   b. the seed 000 workflow blocks (SMS drafting, contact analysis), when get_contact_memory is
      registered;
   c. ``tool_rules.txt``: the pinned ``## Tool-scoped rules`` block (critical, then high).
2. The **memory block**, computed on every call from the current message: seed 002's
   ``manage_system_prompts_node`` prompt, byte for byte, intro switch included
   (``memory_block.txt``): with memories ``You are an AI assistant with access to user
   memories.`` / ``Relevant memories:`` / one ``- …`` line per memory / ``Use these memories to
   personalize your responses.``; without, ``You are an AI assistant.``.

The intro line belongs to the memory block, not to the top of the prompt: it depends on whether
memories were injected, which changes with each message, and anything that changes per message
would break the byte-stable prefix that seed 004 promises (and that prompt caches need). So the
seed 002 block is kept whole and goes last. Blocks are joined by one blank line; the prompt ends
with one newline. Nothing time-dependent goes in: the same inputs give a byte-identical prompt.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.template.loader import render_to_string

from assistant.tools import Tool
from core.errors import Forbidden, NotFound
from memories import permissions, selectors

WORKFLOW_TEMPLATES = ["assistant/workflow_sms_drafting.txt", "assistant/workflow_contact_analysis.txt"]
BLOCK_SEPARATOR = "\n\n"


def _render(template: str, context: dict) -> str:
    return render_to_string(template, context).strip("\n")


def relevant_memories(*, user: AbstractUser, message: str) -> list[str]:
    """Memories of the caller's own namespace that bear on ``message``.

    A memory makes the prompt only if its search score (calibrated relevance, the same scale as
    search's ``min_score``) is at least MNEMO_PROMPT_MIN_SCORE.
    """
    if not message.strip():
        return []
    try:
        # The own namespace like any other: revoked, its memories stay out of the prompt.
        namespace = permissions.resolve_namespace(user, None, write=False)
    except (NotFound, Forbidden):
        return []
    hits = selectors.search_memories(
        namespace_ids=[namespace.id],
        query=message,
        limit=settings.MNEMO_PROMPT_MEMORIES,
        min_score=settings.MNEMO_PROMPT_MIN_SCORE,
    )
    return [hit.memory.text for hit in hits]


def build_frozen_prefix(*, tool_names: list[str], agent_name: str = "", tool_rules_block: str = "") -> str:
    """Everything before the memory block: base, workflow blocks, pinned rules. Ends with the
    blank line that separates it from the memory block, so ``prefix + memory_block`` is the prompt."""
    # A line break in the agent's name would start a line of its own in the prompt.
    context = {"agent_name": " ".join(agent_name.splitlines()), "tool_names": tool_names}
    blocks = [_render("assistant/base.txt", context)]
    if "get_contact_memory" in tool_names:
        blocks.extend(_render(template, context) for template in WORKFLOW_TEMPLATES)
    rules = tool_rules_block.strip("\n")
    if rules:
        blocks.append(_render("assistant/tool_rules.txt", {"tool_rules_block": rules}))
    return BLOCK_SEPARATOR.join(blocks) + BLOCK_SEPARATOR


def memory_block(*, memories: list[str]) -> str:
    """Seed 002's prompt for these memories, ending with one newline. A memory's line breaks
    become spaces: each memory is one ``- …`` line, as in the seed."""
    lines = [" ".join(memory.splitlines()) for memory in memories]
    return _render("assistant/memory_block.txt", {"memories": lines}) + "\n"


def build_system_prompt(
    *,
    user: AbstractUser,
    tools: list[Tool],
    message: str = "",
    agent_name: str = "",
    tool_rules_block: str = "",
    frozen_prefix: str | None = None,
) -> str:
    """The whole prompt: ``frozen_prefix`` (built from the other arguments when not given) and
    the memory block for ``message``."""
    if frozen_prefix is None:
        frozen_prefix = build_frozen_prefix(
            tool_names=[tool.name for tool in tools], agent_name=agent_name, tool_rules_block=tool_rules_block
        )
    return frozen_prefix + memory_block(memories=relevant_memories(user=user, message=message))
