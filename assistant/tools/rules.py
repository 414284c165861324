"""memory_recall: normal-priority tool rules (and the rest) fetched on demand (seed 004)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractUser

from assistant.tools.base import Tool, ToolResult
from toolrules import services
from toolrules.api.serializers import MemoryRecallInput


def memory_recall(user: AbstractUser, arguments: dict[str, Any]) -> ToolResult:
    tool_name = arguments["namespace"].removeprefix("tool-")
    rules = services.list_rules(user=user, tool_name=tool_name)
    query = arguments.get("query", "").lower().split()
    if query:
        rules = [r for r in rules if any(word in r.rule.lower() for word in query)]
    rules = rules[: arguments.get("limit", 20)]
    data = {"namespace": arguments["namespace"], "rules": [services.serialize_rule(r) for r in rules]}
    return ToolResult(data=data, label=arguments["namespace"], count=len(rules))


TOOLS = [
    Tool(
        name="memory_recall",
        description=(
            "Recall the guidance stored for one tool (its namespace tool-<tool name>): normal-priority rules "
            "and observations that are not pinned to the prompt. Call it before using a tool you are unsure of."
        ),
        contract=MemoryRecallInput,
        ui_label="Recalling tool guidance",
        direction="read-only",
        tool_class="list",
        noun="rules",
        is_available=lambda user: bool(user.is_active),
        handler=memory_recall,
    )
]
