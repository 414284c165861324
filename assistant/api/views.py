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
from core.fields import (
    LONG_TEXT,
    AgentNameField,
    BoundedIntegerField,
    JSONObjectField,
    JSONValueField,
    TextField,
    Unscanned,
    UUIDField,
)
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


#: The most messages and tool calls one turn may report (docs/security.md). A turn's work
#: grows with them: each user message becomes a memory and is read for decrees (about 19 ms each),
#: each call is counted in the statistics (about 10 ms each), so a full turn stays near a second or
#: two instead of holding a web worker for 13 s (500 user messages, measured on 2 loaded cores).
TURN_MAX_MESSAGES = 100
TURN_MAX_TOOL_CALLS = 100


class InvokeInput(StrictSerializer):
    arguments = JSONObjectField(
        required=False,
        default=dict,
        help_text="the tool's arguments, as its input_schema describes them",
        unscanned=Unscanned.TOOL_ARGUMENTS,
    )


class SessionInput(StrictSerializer):
    # The message picks the memories of the prompt's last block; it is not stored.
    message = TextField(required=False, allow_blank=True, default="", max_length=LONG_TEXT, unscanned=Unscanned.QUERY)
    # Pinned into every prompt of the session: a name, scanned.
    agent_name = AgentNameField(required=False, allow_blank=True, default="")
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
    # A user message carrying a secret is skipped (reported), the rest of the turn kept.
    content = TextField(
        allow_blank=True, trim_whitespace=False, max_length=100_000, unscanned=Unscanned.EACH_WHERE_STORED
    )


class ToolCallInput(StrictSerializer):
    # Kept in the caller's tool statistics and observation rules: scanned.
    name = TextField(max_length=100)
    # Kept only inside a subagent's skill memory, which add_memory scans (a refused skill is skipped).
    arguments = JSONValueField(required=False, default=dict, unscanned=Unscanned.EACH_WHERE_STORED)
    status = serializers.ChoiceField(choices=["success", "error"])
    error = TextField(required=False, allow_blank=True, default="", max_length=LONG_TEXT, unscanned=Unscanned.REDACTED)


class TurnInput(StrictSerializer):
    # Stored as given (issue 16): no trimming. Kept with the turn and in its memories: scanned.
    session_id = TextField(max_length=255, trim_whitespace=False)
    agent_name = AgentNameField(required=False, allow_blank=True, default="")
    turn_index = BoundedIntegerField(required=False, allow_null=True, default=None, min_value=0)
    messages = MessageInput(many=True, max_length=TURN_MAX_MESSAGES)
    tool_calls = ToolCallInput(many=True, required=False, default=list, max_length=TURN_MAX_TOOL_CALLS)


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
