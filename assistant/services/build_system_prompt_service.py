"""The system prompt an agent gets at session start, rendered from templates/assistant/.

Blocks, in this order, each only when it applies:
1. ``base.txt``: who the agent is and which tools it has;
2. the seed 000 workflow blocks (SMS drafting, contact analysis), when get_contact_memory is
   registered;
3. the pinned tool rules (``tool_rules.txt``): THE PLACE where the tool-rules issue pins its
   ``## Tool-scoped rules`` block (critical, then high); empty until it does;
4. ``relevant_memories.txt``: the caller's memories relevant to the current message (seed 002).

Blocks are joined by one blank line. Nothing time-dependent goes in: the same inputs give a
byte-identical prompt (prompt caches depend on it).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.template.loader import render_to_string

from assistant.tools import Tool
from memories import permissions, selectors

WORKFLOW_TEMPLATES = ["assistant/workflow_sms_drafting.txt", "assistant/workflow_contact_analysis.txt"]
MEMORY_TOOLS = {"remember", "add_memory", "search_memory", "forget"}


def _render(template: str, context: dict) -> str:
    return render_to_string(template, context).strip()


def relevant_memories(*, user: AbstractUser, message: str) -> list[str]:
    """Memories of the caller's own namespace that bear on ``message``.

    A memory makes the prompt only if its search score (calibrated relevance, the same scale as
    search's ``min_score``) is at least MNEMO_PROMPT_MIN_SCORE.
    """
    if not message.strip():
        return []
    namespace = permissions.ensure_user_namespace(user)
    hits = selectors.search_memories(
        namespace_ids=[namespace.id],
        query=message,
        limit=settings.MNEMO_PROMPT_MEMORIES,
        min_score=settings.MNEMO_PROMPT_MIN_SCORE,
    )
    return [hit.memory.text for hit in hits]


def build_system_prompt(
    *,
    user: AbstractUser,
    tools: list[Tool],
    message: str = "",
    agent_name: str = "",
    tool_rules_block: str = "",
) -> str:
    names = [tool.name for tool in tools]
    context = {
        "agent_name": agent_name,
        "tool_names": names,
        "has_memory_tools": bool(MEMORY_TOOLS & set(names)),
        "tool_rules_block": tool_rules_block.strip(),
    }
    blocks = [_render("assistant/base.txt", context)]
    if "get_contact_memory" in names:
        blocks.extend(_render(template, context) for template in WORKFLOW_TEMPLATES)
    if context["tool_rules_block"]:
        blocks.append(_render("assistant/tool_rules.txt", context))
    memories = relevant_memories(user=user, message=message)
    if memories:
        blocks.append(_render("assistant/relevant_memories.txt", {"memories": memories}))
    return "\n\n".join(blocks) + "\n"
