"""The contracts of the tool-rule operations: REST (``/api/v1/tool-rules``), the ``memory.*``
JSON-RPC methods and the ``memory_recall`` tool validate with these same serializers."""

from __future__ import annotations

from rest_framework import serializers

from core.api import StrictSerializer
from core.fields import (
    SHORT_TEXT,
    BooleanField,
    BoundedIntegerField,
    RegexField,
    TagListField,
    TextField,
    Unscanned,
    UUIDField,
)
from toolrules.models import ToolMemoryRule

TOOL_NAME_MAX = 100
RULE_MAX = 4000


def tool_name_field(**kwargs) -> TextField:
    return TextField(max_length=TOOL_NAME_MAX, help_text="the tool the rule applies to, e.g. send_email", **kwargs)


class RuleOutput(serializers.Serializer):
    id = serializers.UUIDField()
    key = serializers.CharField()
    tool_name = serializers.CharField()
    rule = serializers.CharField()
    priority = serializers.ChoiceField(choices=ToolMemoryRule.Priority.values)
    source = serializers.ChoiceField(choices=ToolMemoryRule.Source.values)
    tags = serializers.ListField(child=serializers.CharField())
    owner = serializers.CharField(allow_null=True)
    created_at = serializers.CharField(help_text="RFC 3339")
    updated_at = serializers.CharField(help_text="RFC 3339")


class RuleInput(StrictSerializer):
    """``memory.tool_rule_put`` and ``POST /tool-rules``."""

    tool_name = tool_name_field()
    rule = TextField(max_length=RULE_MAX)
    priority = serializers.ChoiceField(choices=ToolMemoryRule.Priority.values, default="normal")
    source = serializers.ChoiceField(choices=ToolMemoryRule.Source.values, default="programmatic")
    tags = TagListField(required=False, default=list)
    # After the seed's fields: the order of params given by position in JSON-RPC.
    id = UUIDField(required=False, allow_null=True, default=None)
    binds_everyone = BooleanField(required=False, default=False)


class RuleUpdateInput(RuleInput):
    tool_name = tool_name_field(required=False)
    rule = TextField(max_length=RULE_MAX, required=False)
    priority = serializers.ChoiceField(choices=ToolMemoryRule.Priority.values, required=False)
    source = serializers.ChoiceField(choices=ToolMemoryRule.Source.values, required=False)
    tags = TagListField(required=False)


class RuleRefInput(StrictSerializer):
    """``memory.tool_rule_get`` and ``memory.tool_rule_delete``: a rule by (tool_name, id)."""

    tool_name = tool_name_field(unscanned=Unscanned.REFERENCE)
    # Any string: an id that is not a UUID names no rule and answers NOT_FOUND like a missing one.
    id = TextField(max_length=64, unscanned=Unscanned.REFERENCE)


class RuleListInput(StrictSerializer):
    """``memory.tool_rule_list`` and ``GET /tool-rules?tool_name=``."""

    tool_name = tool_name_field(unscanned=Unscanned.QUERY)


class RuleListQuery(StrictSerializer):
    """The query of ``GET /tool-rules`` and ``memory.tool_rules_json``: all tools, or one."""

    tool_name = tool_name_field(required=False, allow_blank=True, default="", unscanned=Unscanned.QUERY)


class RulesForPromptInput(StrictSerializer):
    """``memory.tool_rules_for_prompt``: the tools whose rules are rendered (default: all)."""

    tools = serializers.ListField(
        child=tool_name_field(unscanned=Unscanned.QUERY), required=False, allow_null=True, default=None, max_length=200
    )


class RulesForPromptQuery(StrictSerializer):
    """The query of ``GET /tool-rules/prompt``: comma-separated tool names."""

    # Short enough that the URL, percent-encoded, stays within the server's request-line limit
    # (gunicorn: 4 KB); for longer lists, memory.tool_rules_for_prompt takes a JSON array.
    tools = TextField(
        required=False,
        allow_blank=True,
        default="",
        max_length=300,
        help_text="comma-separated tool names",
        unscanned=Unscanned.QUERY,
    )


class MemoryRecallInput(StrictSerializer):
    """The ``memory_recall`` tool: the guidance stored for one tool, fetched on demand."""

    namespace = RegexField(
        r"^tool-[^\s/]+$", max_length=TOOL_NAME_MAX + 5, help_text="tool-<tool name>", unscanned=Unscanned.REFERENCE
    )
    query = TextField(
        required=False,
        allow_blank=True,
        default="",
        max_length=SHORT_TEXT,
        help_text="only rules containing any of these words",
        unscanned=Unscanned.QUERY,
    )
    limit = BoundedIntegerField(required=False, default=20, min_value=1, max_value=100)


class ToolStatisticOutput(serializers.Serializer):
    key = serializers.CharField(help_text="tool_effectiveness/tool/{name}")
    tool_name = serializers.CharField()
    calls = serializers.IntegerField()
    successes = serializers.IntegerField()
    failures = serializers.IntegerField()
    last_failure_at = serializers.CharField(allow_null=True, help_text="RFC 3339")
    last_error = serializers.CharField(allow_blank=True)


class RulesForPromptOutput(serializers.Serializer):
    markdown = serializers.CharField(allow_blank=True)
    snapshot = serializers.DictField()
