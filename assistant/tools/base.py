"""What a gateway tool is: a name, a description, the input contract of its operation (the DRF
serializer REST uses for it), a UI label, a direction, a class for the result formatter, a
registration predicate over the caller, and a handler.

The JSON schema agents are shown is generated from the contract (``core.api.json_schema``), and
``invoke_tool`` validates arguments with the same serializer: never a schema written by hand."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from django.contrib.auth.models import AbstractUser
from rest_framework.serializers import Serializer

from core.api import json_schema

Direction = Literal["read-only", "write"]
ToolClass = Literal["detail", "list", "action"]


@dataclass(frozen=True)
class ToolResult:
    """A handler's answer: the data the agent gets, and what the one-line summary needs."""

    data: dict[str, Any]
    #: Whom or what the result is about ("Jane Doe"), for the summary.
    label: str | None = None
    #: How many items a list tool returned.
    count: int | None = None
    #: The action tool's own words for what it did ("sent an SMS to Jane Doe").
    did: str | None = None
    #: A detail tool's status, never the body ("has memory, updated 2026-04-02 09:00 UTC").
    state: str | None = None


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    #: The operation's input contract: the serializer that validates it at every entrance.
    contract: type[Serializer]
    ui_label: str
    direction: Direction
    tool_class: ToolClass
    is_available: Callable[[AbstractUser], bool]
    handler: Callable[[AbstractUser, dict[str, Any]], ToolResult]
    #: What a detail or list tool loads ("contact memory", "messages"), for the summary.
    noun: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def input_schema(self) -> dict[str, Any]:
        """The JSON schema of the arguments, generated from the contract."""
        return json_schema(self.contract)

    def describe(self) -> dict[str, Any]:
        """How the tool is listed to an agent (OpenAI-style function definition plus Mnemo's fields)."""
        return {
            "name": self.name,
            "description": self.description,
            "input_schema": self.input_schema,
            "ui_label": self.ui_label,
            "direction": self.direction,
            "class": self.tool_class,
        }
