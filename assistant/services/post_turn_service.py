"""The post-turn hook: after each agent turn, what the turn teaches is stored.

- each user message becomes a memory in the caller's namespace, asynchronously (seed 002's
  automatic storage); a message shaped like a secret is never stored;
- user decrees become critical tool rules, repeated failures normal observations (seed 004);
- tool statistics count the turn's calls;
- for subagents only, the successful tool calls become one skill memory in an agent namespace
  (seed 002's memory learning node; who owns which, see ``agent_namespace``).

Idempotent per (caller, session_id, turn): the first answer is kept and a retried post gets it
back and changes nothing. The turn is ``turn_index`` when the harness sends one, else a hash of
the turn's content.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.contrib.auth.models import AbstractUser
from django.db import IntegrityError, transaction

from assistant.models import ProcessedTurn
from core.api import check
from core.errors import Forbidden, InvalidInput, MnemoError, NotFound
from memories import services as memory_services
from memories.api.serializers import AddMemoryInput
from memories.models import Namespace
from memories.permissions import create_owned_namespace, get_namespace, resolve_namespace
from toolrules import capture
from toolrules.services import record_tool_calls, serialize_rule


def turn_key(*, turn_index: int | None, messages: list[dict[str, Any]], tool_calls: list[dict[str, Any]]) -> str:
    if turn_index is not None:
        return f"index:{turn_index}"
    content = json.dumps({"messages": messages, "tool_calls": tool_calls}, sort_keys=True, ensure_ascii=False)
    return "sha256:" + hashlib.sha256(content.encode()).hexdigest()


def _store_user_messages(user: AbstractUser, session_id: str, messages: list[dict[str, Any]]) -> dict[str, list]:
    stored, skipped = [], []
    try:
        # The own namespace is checked like any other: revoked, nothing is stored in it.
        namespace: Namespace | None = resolve_namespace(user, None, write=True)
        refused: MnemoError | None = None
    except MnemoError as exc:
        namespace, refused = None, exc
    for index, message in enumerate(messages):
        if message["role"] != "user":
            continue
        if refused is not None:
            skipped.append({"message_index": index, "code": refused.code, "reason": refused.message})
            continue
        try:
            # add_memory's own contract, item by item: a message it refuses is skipped, not the turn.
            data = check(
                AddMemoryInput,
                {
                    "content": message["content"],
                    "metadata": {"type": "user_message", "source": "post_turn", "session_id": session_id},
                },
            )
            memory = memory_services.add_memory(
                actor=user, namespace=namespace, content=data["content"], metadata=data["metadata"]
            )
        except MnemoError as exc:  # a secret, an empty or an over-long message: never stored
            skipped.append({"message_index": index, "code": exc.code, "reason": exc.message})
            continue
        stored.append({"message_index": index, "memory_id": memory.id, "event_id": str(memory.event_id)})
    return {"stored": stored, "skipped": skipped}


def agent_namespace(user: AbstractUser, agent_name: str) -> Namespace:
    """Where a subagent's skills go, for this caller. Agent namespaces cannot be squatted:

    - ``agent:<name>``, the seed's key, is a shared namespace that staff create (admin, import,
      ``load_demo``) and grant ``write_namespace`` on. Skills go there when the caller may write it.
    - Otherwise they go to the caller's own ``agent:<name>/<username>``, created for them (owned,
      view and write) the first time. A username holds no ``/``, so no two users share one.

    Which of the two is chosen depends only on the caller's own permissions, never on whether
    someone else's namespace exists. Raises NOT_FOUND / PERMISSION_DENIED (the caller's own agent
    namespace was revoked or is not theirs) and INVALID_INPUT (the key would be too long).
    """
    shared = f"agent:{agent_name}"
    try:
        return get_namespace(user, shared, write=True)
    except (NotFound, Forbidden):
        pass  # not granted (or not there): the same answer either way
    key = f"{shared}/{user.get_username()}"
    if len(key) > Namespace._meta.get_field("key").max_length:
        raise InvalidInput(f"agent_name is too long for an agent namespace ({len(key)} characters with your username).")
    namespace, created = create_owned_namespace(user, key, kind=Namespace.Kind.AGENT)
    if created:
        return namespace
    return get_namespace(user, key, write=True)


def _learn_skill(user: AbstractUser, agent_name: str, session_id: str, tool_calls: list[dict[str, Any]]) -> dict | None:
    """Seed 002's memory learning node: successful tool calls of a subagent, as one skill memory."""
    if "subagent" not in agent_name:
        return None
    learnings = [
        f"Tool {call['name']} succeeded with args: {json.dumps(call.get('arguments') or {}, sort_keys=True)}"
        for call in tool_calls
        if call["status"] == "success"
    ]
    if not learnings:
        return None
    try:
        namespace = agent_namespace(user, agent_name)
        memory = memory_services.add_memory(
            actor=user,
            namespace=namespace,
            content="\n".join(learnings),
            metadata={"type": "skill", "agent": agent_name, "session_id": session_id},
        )
    except MnemoError as exc:
        return {"skipped": exc.message}
    return {"namespace": namespace.key, "memory_id": memory.id, "event_id": str(memory.event_id)}


def process_turn(
    *,
    user: AbstractUser,
    session_id: str,
    messages: list[dict[str, Any]],
    tool_calls: list[dict[str, Any]],
    agent_name: str = "",
    turn_index: int | None = None,
) -> dict[str, Any]:
    key = turn_key(turn_index=turn_index, messages=messages, tool_calls=tool_calls)
    previous = ProcessedTurn.objects.filter(user=user, session_id=session_id, turn_key=key).first()
    if previous is not None:
        return {**previous.response, "replayed": True}
    try:
        with transaction.atomic():
            # The record goes in first: a concurrent retry of the same turn fails on its unique
            # constraint instead of doing the work twice.
            record = ProcessedTurn.objects.create(user=user, session_id=session_id, turn_key=key)
            memories = _store_user_messages(user, session_id, messages)
            user_texts = [m["content"] for m in messages if m["role"] == "user"]
            # One bad item (a decree too long to be a rule, a failing tool whose name cannot name
            # a rule) is reported in "rejected"; every valid item of the turn is still kept.
            rejected: list[dict[str, Any]] = []
            decrees = capture.capture_decrees(user=user, messages=user_texts, rejected=rejected)
            failures = capture.capture_failures(user=user, tool_calls=tool_calls, rejected=rejected)
            record_tool_calls(user=user, calls=tool_calls)
            skill = _learn_skill(user, agent_name, session_id, tool_calls)
            response = {
                "ok": True,
                "session_id": session_id,
                "turn": key,
                "memories": memories,
                "rules": [serialize_rule(rule) for rule in decrees],
                "observations": [serialize_rule(rule) for rule in failures],
                "rejected": rejected,
                "statistics": sorted({call["name"] for call in tool_calls}),
                "skill": skill,
                "replayed": False,
            }
            record.response = response
            record.save(update_fields=["response"])
    except IntegrityError:
        previous = ProcessedTurn.objects.get(user=user, session_id=session_id, turn_key=key)
        return {**previous.response, "replayed": True}
    return response
