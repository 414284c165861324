"""The agent gateway's HTTP face: list tools, invoke one, start a session."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from assistant.services.invoke_tool_service import invoke_tool
from assistant.services.post_turn_service import process_turn
from assistant.services.session_service import start_or_resume_session
from assistant.services.tool_registry_service import tools_for
from core.api import StrictSerializer, validated

ToolDescription = inline_serializer(
    "ToolDescription",
    {
        "name": serializers.CharField(),
        "description": serializers.CharField(),
        "input_schema": serializers.DictField(),
        "ui_label": serializers.CharField(),
        "direction": serializers.CharField(),
        "class": serializers.CharField(),
    },
)


class InvokeInput(StrictSerializer):
    arguments = serializers.JSONField(required=False, default=dict)


class SessionInput(StrictSerializer):
    message = serializers.CharField(required=False, allow_blank=True, default="", max_length=16000)
    agent_name = serializers.CharField(required=False, allow_blank=True, default="", max_length=200)
    session_id = serializers.UUIDField(required=False, allow_null=True, default=None)


class ToolListView(APIView):
    """The tools registered for the caller."""

    @extend_schema(responses=inline_serializer("ToolList", {"tools": ToolDescription}))
    def get(self, request: Request) -> Response:
        return Response({"ok": True, "tools": [tool.describe() for tool in tools_for(request.user)]})


class InvokeToolView(APIView):
    """Run one tool: ``{"arguments": {…}}`` → ``{"ok", "result", "summary"}``."""

    @extend_schema(
        request=InvokeInput,
        responses=inline_serializer(
            "ToolInvocation",
            {"ok": serializers.BooleanField(), "result": serializers.DictField(), "summary": serializers.CharField()},
        ),
    )
    def post(self, request: Request, name: str) -> Response:
        data = validated(InvokeInput, request)
        return Response(invoke_tool(user=request.user, name=name, arguments=data["arguments"]))


class SessionView(APIView):
    """Start (or resume, with ``session_id``) a session: the caller's tools with their schemas and
    the system prompt. Tools, schemas and everything in the prompt before the memory block are
    frozen at session start; the memory block at its end follows ``message``."""

    @extend_schema(
        request=SessionInput,
        responses=inline_serializer(
            "Session",
            {
                "session_id": serializers.UUIDField(),
                "tools": ToolDescription,
                "system_prompt": serializers.CharField(),
                "tool_rules": serializers.DictField(),
            },
        ),
    )
    def post(self, request: Request) -> Response:
        data = validated(SessionInput, request)
        session = start_or_resume_session(
            user=request.user, message=data["message"], agent_name=data["agent_name"], session_id=data["session_id"]
        )
        return Response(
            {
                "ok": True,
                "session_id": str(session.id),
                "tools": session.tool_descriptions,
                "system_prompt": session.system_prompt,
                "tool_rules": session.tool_rules,
            }
        )


class MessageInput(StrictSerializer):
    role = serializers.ChoiceField(choices=["user", "assistant", "system", "tool"])
    content = serializers.CharField(allow_blank=True, trim_whitespace=False)


class ToolCallInput(StrictSerializer):
    name = serializers.CharField(max_length=100)
    arguments = serializers.JSONField(required=False, default=dict)
    status = serializers.ChoiceField(choices=["success", "error"])
    error = serializers.CharField(required=False, allow_blank=True, default="")


class TurnInput(StrictSerializer):
    session_id = serializers.CharField(max_length=255)
    agent_name = serializers.CharField(required=False, allow_blank=True, default="", max_length=200)
    turn_index = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=0)
    messages = MessageInput(many=True)
    tool_calls = ToolCallInput(many=True, required=False, default=list)


class TurnView(APIView):
    """The post-turn hook: store user messages, capture decrees and failures, count tool calls,
    learn subagent skills. A retried post of the same turn changes nothing."""

    @extend_schema(
        request=TurnInput,
        responses=inline_serializer(
            "TurnResult",
            {
                "ok": serializers.BooleanField(),
                "memories": serializers.DictField(),
                "rules": serializers.ListField(child=serializers.DictField()),
                "observations": serializers.ListField(child=serializers.DictField()),
                "replayed": serializers.BooleanField(),
            },
        ),
    )
    def post(self, request: Request) -> Response:
        data = validated(TurnInput, request)
        result = process_turn(
            user=request.user,
            session_id=data["session_id"],
            agent_name=data["agent_name"],
            turn_index=data["turn_index"],
            messages=[dict(m) for m in data["messages"]],
            tool_calls=[dict(c) for c in data["tool_calls"]],
        )
        return Response(result, status=200 if result["replayed"] else 201)
