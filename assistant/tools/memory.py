"""Memory tools (seeds 002 and 003): remember, add_memory, search_memory, forget."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractUser

from assistant.tools.base import Tool, ToolResult
from memories import operations, permissions, selectors, services
from memories.api import serializers as s


def always(user: AbstractUser) -> bool:
    """Every active user has a namespace of their own to remember into."""
    return bool(user.is_active)


def _namespace(user: AbstractUser, arguments: dict[str, Any], *, write: bool):
    return permissions.resolve_namespace(user, arguments.get("namespace"), write=write)


def remember(user: AbstractUser, arguments: dict[str, Any]) -> ToolResult:
    result = operations.remember(user=user, data=arguments)
    did = (
        f"stored memory {result.memory_id}"
        if result.message == "Ok"
        else f"found memory {result.memory_id} already remembered"
    )
    return ToolResult(data=s.remember_body(result), did=did)


def add_memory(user: AbstractUser, arguments: dict[str, Any]) -> ToolResult:
    memory = operations.add_memory(user=user, data=arguments)
    queued = arguments.get("async", True)
    status, message = s.add_memory_answer(memory, queued=queued)
    data = {"id": memory.id, "event_id": str(memory.event_id), "status": status, "message": message}
    did = f"queued memory {memory.id} (event {memory.event_id})" if queued else f"stored memory {memory.id}"
    return ToolResult(data=data, did=did)


def search_memory(user: AbstractUser, arguments: dict[str, Any]) -> ToolResult:
    namespace, hits = operations.search(user=user, data=arguments)
    data = {"results": s.search_results(hits), "text": selectors.format_results_text(hits)}
    return ToolResult(data=data, label=namespace.key, count=len(hits))


def forget(user: AbstractUser, arguments: dict[str, Any]) -> ToolResult:
    memory = permissions.get_memory(user, arguments["memory_id"], write=True)
    tombstone = services.forget_memory(actor=user, memory=memory, reason=arguments["reason"])
    return ToolResult(
        data={"ok": True, "memory_id": memory.id, "tombstone_id": tombstone.id}, did=f"forgot memory {memory.id}"
    )


TOOLS = [
    Tool(
        name="remember",
        description="Store a single durable fact about the user (seed 003). Texts shaped like secrets are refused.",
        contract=s.RememberInput,
        ui_label="Remembering",
        direction="write",
        tool_class="action",
        is_available=always,
        handler=remember,
    ),
    Tool(
        name="add_memory",
        description="Store a memory for the user in the background; answers at once with an event id.",
        contract=s.AddMemoryInput,
        ui_label="Saving memory",
        direction="write",
        tool_class="action",
        is_available=always,
        handler=add_memory,
    ),
    Tool(
        name="search_memory",
        description="Search the user's memories by meaning and keywords; best first, each with a score.",
        contract=s.SearchToolInput,
        ui_label="Searching memories",
        direction="read-only",
        tool_class="list",
        noun="memories",
        is_available=always,
        handler=search_memory,
    ),
    Tool(
        name="forget",
        description="Forget a memory: it leaves recall and is kept as a tombstone with the reason.",
        contract=s.ForgetToolInput,
        ui_label="Forgetting memory",
        direction="write",
        tool_class="action",
        is_available=always,
        handler=forget,
    ),
]
