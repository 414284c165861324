"""The agent gateway's HTTP face: list tools, invoke one, start a session."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from assistant.services.invoke_tool_service import invoke_tool
from assistant.services.post_turn_service import process_turn
from assistant.services.session_service import start_or_resume_session
from assistant.services.tool_registry_service import tools_for
from core.api import StrictSerializer, validated
from core.fields import LONG_TEXT, BoundedIntegerField, JSONObjectField, JSONValueField, TextField, UUIDField
from toolrules.api.serializers import RuleOutput


class ToolDescription(serializers.Serializer):
    name = serializers.CharField()
    description = serializers.CharField()
    input_schema = serializers.DictField(help_text="JSON schema generated from the operation's serializer")
    ui_label = serializers.CharField()
    direction = serializers.ChoiceField(choices=["read-only", "write"])
    # "class" is a Python keyword: added in get_fields.

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        fields["class"] = serializers.ChoiceField(choices=["detail", "list", "action"])
        return fields


class ToolListOutput(serializers.Serializer):
    ok = serializers.BooleanField()
    tools = ToolDescription(many=True)


class InvocationOutput(serializers.Serializer):
    ok = serializers.BooleanField()
    result = serializers.DictField()
    summary = serializers.CharField()


class SessionOutput(serializers.Serializer):
    ok = serializers.BooleanField()
    session_id = serializers.UUIDField()
    tools = ToolDescription(many=True)
    system_prompt = serializers.CharField()
    tool_rules = serializers.DictField()


class StoredMessageOutput(serializers.Serializer):
    message_index = serializers.IntegerField()
    memory_id = serializers.IntegerField()
    event_id = serializers.UUIDField()


class SkippedMessageOutput(serializers.Serializer):
    message_index = serializers.IntegerField()
    code = serializers.CharField()
    reason = serializers.CharField()


class TurnMemoriesOutput(serializers.Serializer):
    stored = StoredMessageOutput(many=True)
    skipped = SkippedMessageOutput(many=True)


class RejectedItemOutput(serializers.Serializer):
    item = serializers.ChoiceField(choices=["decree", "observation"])
    code = serializers.CharField()
    reason = serializers.CharField()
    text = serializers.CharField(required=False)
    tool_name = serializers.CharField(required=False)


class TurnOutput(serializers.Serializer):
    ok = serializers.BooleanField()
    session_id = serializers.CharField()
    turn = serializers.CharField()
    memories = TurnMemoriesOutput()
    rules = RuleOutput(many=True)
    observations = RuleOutput(many=True)
    rejected = RejectedItemOutput(many=True, required=False, help_text="items of the turn that were not kept, and why")
    statistics = serializers.ListField(child=serializers.CharField())
    skill = serializers.DictField(allow_null=True)
    replayed = serializers.BooleanField()


#: ``agent:<name>`` must fit a namespace key (200 characters).
AGENT_NAME_MAX = 200 - len("agent:")


class InvokeInput(StrictSerializer):
    arguments = JSONObjectField(
        required=False, default=dict, help_text="the tool's arguments, as its input_schema describes them"
    )


class SessionInput(StrictSerializer):
    message = TextField(required=False, allow_blank=True, default="", max_length=LONG_TEXT)
    agent_name = TextField(required=False, allow_blank=True, default="", max_length=AGENT_NAME_MAX)
    session_id = UUIDField(required=False, allow_null=True, default=None)


class ToolListView(APIView):
    """The tools registered for the caller."""

    @extend_schema(responses=ToolListOutput)
    def get(self, request: Request) -> Response:
        return Response({"ok": True, "tools": [tool.describe() for tool in tools_for(request.user)]})


class InvokeToolView(APIView):
    """Run one tool: ``{"arguments": {…}}`` → ``{"ok", "result", "summary"}``."""

    @extend_schema(
        request=InvokeInput,
        responses=InvocationOutput,
        examples=[
            OpenApiExample(
                "seed 003",
                value={
                    "arguments": {
                        "text": "My son Colby lives in Los Angeles.",
                        "tags": ["family"],
                        "capture_mode": "explicit",
                    }
                },
                request_only=True,
            )
        ],
    )
    def post(self, request: Request, name: str) -> Response:
        data = validated(InvokeInput, request)
        return Response(invoke_tool(user=request.user, name=name, arguments=data["arguments"]))


class SessionView(APIView):
    """Start (or resume, with ``session_id``) a session: the caller's tools with their schemas and
    the system prompt. Tools, schemas and everything in the prompt before the memory block are
    frozen at session start; the memory block at its end follows ``message``."""

    @extend_schema(request=SessionInput, responses=SessionOutput)
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
    # The turn's shape only: what a user message must be to become a memory (add_memory's
    # contract) is checked per message, and one that fails is reported, not the whole turn.
    content = TextField(allow_blank=True, trim_whitespace=False, max_length=100_000)


class ToolCallInput(StrictSerializer):
    name = TextField(max_length=100)
    arguments = JSONValueField(required=False, default=dict)
    status = serializers.ChoiceField(choices=["success", "error"])
    error = TextField(required=False, allow_blank=True, default="", max_length=LONG_TEXT)


class TurnInput(StrictSerializer):
    # Stored as given (issue 16): no trimming.
    session_id = TextField(max_length=255, trim_whitespace=False)
    agent_name = TextField(required=False, allow_blank=True, default="", max_length=AGENT_NAME_MAX)
    turn_index = BoundedIntegerField(required=False, allow_null=True, default=None, min_value=0)
    messages = MessageInput(many=True, max_length=500)
    tool_calls = ToolCallInput(many=True, required=False, default=list, max_length=500)


class TurnView(APIView):
    """The post-turn hook: store user messages, capture decrees and failures, count tool calls,
    learn subagent skills. A retried post of the same turn changes nothing."""

    @extend_schema(request=TurnInput, responses={201: TurnOutput, 200: TurnOutput})
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
