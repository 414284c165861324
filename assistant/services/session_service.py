"""Sessions (seeds 002 and 004): a prompt prefix frozen for the session, a memory block per call.

At session start the caller's tools (with their schemas), the pinned rules block and the prompt
prefix built from them are computed once and stored on the session row. Every later call with
that session id (REST, or MCP with its transport's session id) reads them back from the database,
byte for byte, whichever worker process answers; only the memory block that ends the prompt
follows the call's message. A permission granted or revoked, or a rule added, mid-session shows
in the next session; execution checks permissions itself on every call, so a revoked tool listed
by a running session is still refused when invoked.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractUser
from django.db import IntegrityError, transaction

from assistant.models import AssistantSession
from assistant.permissions import get_session
from assistant.services.build_system_prompt_service import build_frozen_prefix, build_system_prompt
from assistant.services.tool_registry_service import tools_for
from assistant.tools import ALL_TOOLS, Tool
from core.errors import NotFound
from toolrules.services import rules_for_prompt

# uuid5 namespace for session ids that are not UUIDs (an MCP transport may mint any string).
_SESSION_KEYS = uuid.UUID("6c1b8a52-4f0e-4d3a-9a57-2f4f1d0b7e11")


@dataclass(frozen=True)
class Session:
    id: uuid.UUID
    tools: list[Tool]  # the tools frozen at session start (that this build still knows)
    system_prompt: str
    tool_rules: dict
    tool_descriptions: list[dict[str, Any]] = field(default_factory=list)  # as frozen, with schemas
    prompt_prefix: str = ""  # ``system_prompt`` up to the memory block, byte-identical per session
    created: bool = False


def session_pk(*, user: AbstractUser, session_id: uuid.UUID | str) -> uuid.UUID:
    """The row id of ``session_id``: itself when it is a UUID, else one UUID per caller and key."""
    if isinstance(session_id, uuid.UUID):
        return session_id
    try:
        return uuid.UUID(session_id)
    except ValueError:
        return uuid.uuid5(_SESSION_KEYS, f"{user.pk}:{session_id}")


def _frozen(*, user: AbstractUser, agent_name: str, pk: uuid.UUID | None = None) -> AssistantSession:
    """A new, unsaved session with everything seed 004 freezes computed now."""
    tools = tools_for(user)
    rules = rules_for_prompt(user=user)
    session = AssistantSession(
        user=user,
        agent_name=agent_name,
        tool_rules_block=rules.markdown,
        tool_rules_snapshot=rules.snapshot,
        tools_snapshot=[tool.describe() for tool in tools],
        prompt_prefix=build_frozen_prefix(
            tool_names=[tool.name for tool in tools], agent_name=agent_name, tool_rules_block=rules.markdown
        ),
    )
    if pk is not None:
        session.id = pk
    return session


def _fill_legacy(session: AssistantSession) -> AssistantSession:
    """A row from before prefixes were frozen: freeze one now (its kept rules block, today's
    tools), once; a concurrent call that froze it first wins."""
    tools = tools_for(session.user)
    prefix = build_frozen_prefix(
        tool_names=[tool.name for tool in tools],
        agent_name=session.agent_name,
        tool_rules_block=session.tool_rules_block,
    )
    AssistantSession.objects.filter(pk=session.pk, prompt_prefix="").update(
        prompt_prefix=prefix, tools_snapshot=[tool.describe() for tool in tools]
    )
    return AssistantSession.objects.get(pk=session.pk)


def _own_session(user: AbstractUser, pk: uuid.UUID) -> AssistantSession | None:
    """The caller's session ``pk`` through the permission layer; None where there is none it may see."""
    try:
        return get_session(user, pk)
    except NotFound:
        return None


def start_or_resume_session(
    *,
    user: AbstractUser,
    message: str = "",
    agent_name: str = "",
    session_id: uuid.UUID | str | None = None,
    create_if_missing: bool = False,
) -> Session:
    """Without ``session_id``: a new session, frozen now. With one: that session of this caller,
    as frozen (``agent_name`` is then the session's own); a session id of someone else, or
    unknown, is NOT_FOUND, unless ``create_if_missing`` (MCP: the transport names the session)
    starts it under that id. Either way the memory block follows ``message``."""
    created = False
    if session_id is None:
        session = _frozen(user=user, agent_name=agent_name)
        session.save(force_insert=True)
        created = True
    else:
        pk = session_pk(user=user, session_id=session_id)
        session = _own_session(user, pk)
        if session is None and create_if_missing:
            try:
                with transaction.atomic():
                    session = _frozen(user=user, agent_name=agent_name, pk=pk)
                    session.save(force_insert=True)
                    created = True
            except IntegrityError:  # started by a concurrent call, or the id is someone else's
                session = _own_session(user, pk)
        if session is None:
            raise NotFound(f"Session {session_id} not found.")
        if not session.prompt_prefix:
            session = _fill_legacy(session)
    prompt = build_system_prompt(user=user, tools=[], message=message, frozen_prefix=session.prompt_prefix)
    return Session(
        id=session.id,
        tools=[ALL_TOOLS[d["name"]] for d in session.tools_snapshot if d["name"] in ALL_TOOLS],
        system_prompt=prompt,
        tool_rules=session.tool_rules_snapshot,
        tool_descriptions=list(session.tools_snapshot),
        prompt_prefix=session.prompt_prefix,
        created=created,
    )
