"""Sessions: the tools, and a system prompt whose pinned rules block is frozen per session."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.contrib.auth.models import AbstractUser

from assistant.models import AssistantSession
from assistant.permissions import get_session
from assistant.services.build_system_prompt_service import build_system_prompt
from assistant.services.tool_registry_service import tools_for
from assistant.tools import Tool
from toolrules.services import rules_for_prompt


@dataclass(frozen=True)
class Session:
    id: uuid.UUID
    tools: list[Tool]
    system_prompt: str
    tool_rules: dict


def start_or_resume_session(
    *, user: AbstractUser, message: str = "", agent_name: str = "", session_id: uuid.UUID | None = None
) -> Session:
    """A new session computes the rules block now and keeps it; an existing one (of this caller)
    reuses it unchanged, whatever happened to the rules since."""
    if session_id is None:
        rules = rules_for_prompt(user=user)
        session = AssistantSession.objects.create(
            user=user, agent_name=agent_name, tool_rules_block=rules.markdown, tool_rules_snapshot=rules.snapshot
        )
    else:
        session = get_session(user, session_id)
        agent_name = agent_name or session.agent_name
    tools = tools_for(user)
    prompt = build_system_prompt(
        user=user, tools=tools, message=message, agent_name=agent_name, tool_rules_block=session.tool_rules_block
    )
    return Session(id=session.id, tools=tools, system_prompt=prompt, tool_rules=session.tool_rules_snapshot)
