"""REST twins of the memory.* RPC methods, for the admin side and DRF users."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import StrictCharField, StrictSerializer, validated
from toolrules import permissions, services
from toolrules.models import ToolMemoryRule


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
    id = serializers.UUIDField(required=False, allow_null=True, default=None)
    tool_name = StrictCharField(max_length=100)
    rule = StrictCharField(max_length=4000)
    priority = serializers.ChoiceField(choices=ToolMemoryRule.Priority.values, default="normal")
    source = serializers.ChoiceField(choices=ToolMemoryRule.Source.values, default="programmatic")
    tags = serializers.ListField(child=StrictCharField(), required=False, default=list)
    binds_everyone = serializers.BooleanField(required=False, default=False)


class RuleUpdateInput(RuleInput):
    tool_name = StrictCharField(max_length=100, required=False)
    rule = StrictCharField(max_length=4000, required=False)
    priority = serializers.ChoiceField(choices=ToolMemoryRule.Priority.values, required=False)
    source = serializers.ChoiceField(choices=ToolMemoryRule.Source.values, required=False)
    tags = serializers.ListField(child=StrictCharField(), required=False)


def _put(request: Request, data: dict, rule_id=None) -> tuple[dict, bool]:
    rule, created = services.put_rule(
        actor=request.user,
        tool_name=data["tool_name"],
        rule=data["rule"],
        priority=data["priority"],
        source=data["source"],
        tags=data["tags"],
        rule_id=rule_id or data.get("id"),
        binds_everyone=data["binds_everyone"],
    )
    return services.serialize_rule(rule), created


class RuleListView(APIView):
    """``memory.tool_rule_list`` / ``memory.tool_rules_json`` (GET) and ``memory.tool_rule_put`` (POST)."""

    @extend_schema(
        parameters=[OpenApiParameter("tool_name", str, description="only this tool's rules")],
        responses=RuleOutput(many=True),
    )
    def get(self, request: Request) -> Response:
        rules = services.list_rules(user=request.user, tool_name=request.query_params.get("tool_name") or None)
        return Response([services.serialize_rule(r) for r in rules])

    @extend_schema(request=RuleInput, responses={201: RuleOutput, 200: RuleOutput})
    def post(self, request: Request) -> Response:
        body, created = _put(request, validated(RuleInput, request))
        return Response(body, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class RuleDetailView(APIView):
    """``memory.tool_rule_get``, an update by id, and ``memory.tool_rule_delete``."""

    @extend_schema(responses=RuleOutput)
    def get(self, request: Request, rule_id: str) -> Response:
        return Response(services.serialize_rule(permissions.get_rule(request.user, rule_id)))

    @extend_schema(request=RuleUpdateInput, responses=RuleOutput)
    def put(self, request: Request, rule_id: str) -> Response:
        current = permissions.get_rule(request.user, rule_id, write=True)
        data = validated(RuleUpdateInput, request)
        merged = {
            "tool_name": data.get("tool_name", current.tool_name),
            "rule": data.get("rule", current.rule),
            "priority": data.get("priority", current.priority),
            "source": data.get("source", current.source),
            "tags": data.get("tags", list(current.tags)),
            "binds_everyone": current.owner_id is None,
        }
        body, _ = _put(request, merged, rule_id=current.id)
        return Response(body)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, rule_id: str) -> Response:
        rule = permissions.get_rule(request.user, rule_id, write=True)
        services.delete_rule(actor=request.user, tool_name=rule.tool_name, rule_id=rule.id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class RulesForPromptView(APIView):
    """``memory.tool_rules_for_prompt``: the pinned Markdown block and its snapshot."""

    @extend_schema(
        parameters=[OpenApiParameter("tools", str, description="comma-separated tool names (default: all)")],
        responses=inline_serializer(
            "RulesForPrompt", {"markdown": serializers.CharField(), "snapshot": serializers.DictField()}
        ),
    )
    def get(self, request: Request) -> Response:
        raw = request.query_params.get("tools")
        tools = [t.strip() for t in raw.split(",") if t.strip()] if raw else None
        result = services.rules_for_prompt(user=request.user, tools=tools)
        return Response({"markdown": result.markdown, "snapshot": result.snapshot})


class StatisticsView(APIView):
    """The caller's tool statistics, keyed ``tool_effectiveness/tool/{name}``."""

    @extend_schema(
        responses=inline_serializer(
            "ToolStatistics", {"key": serializers.CharField(), "calls": serializers.IntegerField()}, many=True
        )
    )
    def get(self, request: Request) -> Response:
        return Response(services.statistics_for(user=request.user))
