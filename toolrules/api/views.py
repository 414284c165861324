"""REST twins of the memory.* RPC methods, for the admin side and DRF users."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import query, validated
from toolrules import permissions, services
from toolrules.api.serializers import (
    RuleInput,
    RuleListQuery,
    RuleOutput,
    RulesForPromptOutput,
    RulesForPromptQuery,
    RuleUpdateInput,
    ToolStatisticOutput,
)


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
        parameters=[RuleListQuery],
        responses=RuleOutput(many=True),
    )
    def get(self, request: Request) -> Response:
        params = query(RuleListQuery, request)
        rules = services.list_rules(user=request.user, tool_name=params["tool_name"] or None)
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
        parameters=[RulesForPromptQuery],
        responses=RulesForPromptOutput,
    )
    def get(self, request: Request) -> Response:
        raw = query(RulesForPromptQuery, request)["tools"]
        tools = [t.strip() for t in raw.split(",") if t.strip()] if raw else None
        result = services.rules_for_prompt(user=request.user, tools=tools)
        return Response({"markdown": result.markdown, "snapshot": result.snapshot})


class StatisticsView(APIView):
    """The caller's tool statistics, keyed ``tool_effectiveness/tool/{name}``."""

    @extend_schema(responses=ToolStatisticOutput(many=True))
    def get(self, request: Request) -> Response:
        return Response(services.statistics_for(user=request.user))
