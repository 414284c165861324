"""The agent gateway's HTTP face: list tools, invoke one, start a session."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from assistant.services.build_system_prompt_service import build_system_prompt
from assistant.services.invoke_tool_service import invoke_tool
from assistant.services.tool_registry_service import tools_for
from config.api import StrictSerializer, validated

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
    """Start a session: the caller's tools with their schemas, and the system prompt."""

    @extend_schema(
        request=SessionInput,
        responses=inline_serializer("Session", {"tools": ToolDescription, "system_prompt": serializers.CharField()}),
    )
    def post(self, request: Request) -> Response:
        data = validated(SessionInput, request)
        tools = tools_for(request.user)
        prompt = build_system_prompt(
            user=request.user, tools=tools, message=data["message"], agent_name=data["agent_name"]
        )
        return Response({"ok": True, "tools": [tool.describe() for tool in tools], "system_prompt": prompt})
