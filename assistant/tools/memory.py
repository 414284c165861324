"""Memory tools (seeds 002 and 003): remember, add_memory, search_memory, forget."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractUser

from assistant.tools.base import Tool, ToolResult, schema
from memories import permissions, selectors, services
from memories.api.serializers import SearchResultOutput


def always(user: AbstractUser) -> bool:
    """Every active user has a namespace of their own to remember into."""
    return bool(user.is_active)


def _namespace(user: AbstractUser, arguments: dict[str, Any], *, write: bool):
    return permissions.resolve_namespace(user, arguments.get("namespace"), write=write)


def remember(user: AbstractUser, arguments: dict[str, Any]) -> ToolResult:
    from django.utils.dateparse import parse_datetime

    args = dict(arguments)
    namespace = _namespace(user, args, write=True)
    args.pop("namespace", None)
    for key in ("expires_at", "last_confirmed_at"):
        if args.get(key):
            parsed = parse_datetime(args[key])
            if parsed is None:
                from core.errors import InvalidInput

                raise InvalidInput(f"{key} must be an ISO 8601 timestamp.")
            args[key] = parsed
    result = services.remember(actor=user, namespace=namespace, **args)
    data: dict[str, Any] = {"ok": True, "memory_id": result.memory_id, "message": result.message}
    if result.near_duplicates is not None:
        data["near_duplicates"] = [
            {"memory_id": n.id, "text": n.text, "similarity": n.similarity} for n in result.near_duplicates
        ]
    if result.previously_corrected:
        data["previously_corrected"] = [
            {
                "tombstone_id": n.id,
                "text": n.text,
                "similarity": n.similarity,
                **{k: (v.isoformat() if hasattr(v, "isoformat") else v) for k, v in n.extra.items()},
            }
            for n in result.previously_corrected
        ]
    did = (
        f"stored memory {result.memory_id}"
        if result.message == "Ok"
        else f"found memory {result.memory_id} already remembered"
    )
    return ToolResult(data=data, did=did)


def add_memory(user: AbstractUser, arguments: dict[str, Any]) -> ToolResult:
    namespace = _namespace(user, arguments, write=True)
    memory = services.add_memory(
        actor=user, namespace=namespace, content=arguments["content"], metadata=arguments.get("metadata")
    )
    message = f"Memory queued for processing (Event ID: {memory.event_id}, Status: queued)"
    data = {"id": memory.id, "event_id": str(memory.event_id), "status": "queued", "message": message}
    return ToolResult(data=data, did=f"queued memory {memory.id} (event {memory.event_id})")


def search_memory(user: AbstractUser, arguments: dict[str, Any]) -> ToolResult:
    namespace = _namespace(user, arguments, write=False)
    hits = selectors.search_memories(
        namespace_ids=[namespace.id],
        query=arguments["query"],
        limit=arguments.get("limit", 5),
        min_score=selectors.min_score_or_default(arguments.get("min_score")),
    )
    data = {"results": SearchResultOutput(hits, many=True).data, "text": selectors.format_results_text(hits)}
    return ToolResult(data=data, label=namespace.key, count=len(hits))


def forget(user: AbstractUser, arguments: dict[str, Any]) -> ToolResult:
    memory = permissions.get_memory(user, arguments["memory_id"], write=True)
    tombstone = services.forget_memory(actor=user, memory=memory, reason=arguments.get("reason", ""))
    return ToolResult(
        data={"ok": True, "memory_id": memory.id, "tombstone_id": tombstone.id}, did=f"forgot memory {memory.id}"
    )


NAMESPACE = {"type": "string", "description": "namespace key; default: your own user:<username>"}

TOOLS = [
    Tool(
        name="remember",
        description="Store a single durable fact about the user (seed 003). Texts shaped like secrets are refused.",
        input_schema=schema(
            {
                "text": {"type": "string", "minLength": 1},
                "tags": {"type": "array", "items": {"type": "string"}},
                "source_provider": {"type": "string"},
                "importance": {"type": "number", "minimum": 0, "maximum": 1, "default": 0.5},
                "capture_mode": {"type": "string", "enum": ["explicit", "inferred"]},
                "session_id": {"type": "string"},
                "dedup_policy": {"type": "string", "enum": ["insert", "skip_if_near", "ask"], "default": "ask"},
                "expires_at": {"type": "string", "format": "date-time"},
                "last_confirmed_at": {"type": "string", "format": "date-time"},
                "namespace": NAMESPACE,
            },
            ["text"],
        ),
        ui_label="Remembering",
        direction="write",
        tool_class="action",
        is_available=always,
        handler=remember,
    ),
    Tool(
        name="add_memory",
        description="Store a memory for the user in the background; answers at once with an event id.",
        input_schema=schema(
            {"content": {"type": "string", "minLength": 1}, "metadata": {"type": "object"}, "namespace": NAMESPACE},
            ["content"],
        ),
        ui_label="Saving memory",
        direction="write",
        tool_class="action",
        is_available=always,
        handler=add_memory,
    ),
    Tool(
        name="search_memory",
        description="Search the user's memories by meaning and keywords; best first, each with a score.",
        input_schema=schema(
            {
                "query": {"type": "string", "minLength": 1},
                "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 5},
                "min_score": {"type": ["number", "null"], "minimum": 0, "maximum": 1},
                "namespace": NAMESPACE,
            },
            ["query"],
        ),
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
        input_schema=schema(
            {"memory_id": {"type": "integer", "minimum": 1}, "reason": {"type": "string"}}, ["memory_id"]
        ),
        ui_label="Forgetting memory",
        direction="write",
        tool_class="action",
        is_available=always,
        handler=forget,
    ),
]
