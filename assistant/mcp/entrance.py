"""What an MCP caller can do, as plain synchronous functions over the one door.

Each function takes the caller (a Django user) and goes through the same entry points as the
REST gateway: ``tools_for`` lists, ``invoke_tool`` runs (registration, input contract, tool
rules, the handler's own object checks), ``start_or_resume_session`` builds the prompt,
``process_turn`` is the post-turn hook. Nothing here decides a permission or validates an input
on its own. Domain errors (``MnemoError``) come back as MCP tool errors carrying the seed's
code and message, never as transport failures.

``call_tool_as(user, name, arguments)`` is what the MCP server runs for ``tools/call``, and what
a permission harness can call to test this entrance without a network.

These functions touch the ORM: from async code, call them through
``asgiref.sync.sync_to_async`` (``assistant.mcp.server`` does).
"""

from __future__ import annotations

import functools
import json
import logging
import re
import uuid
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, unquote

import mcp_types as types
from django.contrib.auth.models import AbstractUser
from django.core.serializers.json import DjangoJSONEncoder
from django.db import DatabaseError
from django.db.models import Q
from django.utils import timezone
from rest_framework import exceptions as drf_exceptions

from assistant.models import AssistantSession
from assistant.services.invoke_tool_service import invoke_tool
from assistant.services.post_turn_service import process_turn
from assistant.services.session_service import start_or_resume_session
from assistant.services.tool_registry_service import tools_for
from assistant.tools import Tool
from core.api import json_schema
from core.authentication import authenticate_key
from core.errors import DatabaseUnavailable, InvalidInput, MnemoError, NotFound, error_body
from core.fields import check_text

logger = logging.getLogger(__name__)

# --- tools -------------------------------------------------------------------------------------

#: Write tools whose effect cannot be taken back by calling another tool: the MCP annotation
#: ``destructiveHint`` (the spec's default for a write tool is "destructive"; additive writes
#: such as remember say false).
DESTRUCTIVE = frozenset({"forget", "send_sms", "send_email"})
#: Tools that reach people outside Mnemo (``openWorldHint``); the rest stay inside its memory.
OPEN_WORLD = frozenset({"send_sms", "send_email"})

_NULLABLE_STRING = {"type": ["string", "null"]}

#: Output schemas of the tools whose result has a fixed shape (MCP ``outputSchema``; the client
#: validates ``structuredContent`` against it). Fields may be added, never removed.
OUTPUT_SCHEMAS: dict[str, dict[str, Any]] = {
    "get_contact_memory": {
        "type": "object",
        "properties": {
            "contact_id": {"type": "string"},
            "deep_link": {"type": "string"},
            "has_memory": {"type": "boolean"},
            "note_id": _NULLABLE_STRING,
            "memory_note": _NULLABLE_STRING,
            "updated_at": _NULLABLE_STRING,
        },
        "required": ["contact_id", "deep_link", "has_memory", "note_id", "memory_note", "updated_at"],
    },
    "search_memory": {
        "type": "object",
        "properties": {"results": {"type": "array", "items": {"type": "object"}}, "text": {"type": "string"}},
        "required": ["results", "text"],
    },
    "add_memory": {
        "type": "object",
        "properties": {
            "id": {"type": "integer"},
            "event_id": {"type": "string"},
            "status": {"type": "string"},
            "message": {"type": "string"},
        },
        "required": ["id", "event_id", "status", "message"],
    },
    "forget": {
        "type": "object",
        "properties": {
            "ok": {"type": "boolean"},
            "memory_id": {"type": "integer"},
            "tombstone_id": {"type": "integer"},
        },
        "required": ["ok", "memory_id", "tombstone_id"],
    },
}

REPORT_TURN = "report_turn"


def _report_turn_schema() -> dict[str, Any]:
    """report_turn's arguments are the REST hook's own contract (``TurnInput``), described to MCP
    clients by the same generator as every gateway tool; only ``session_id`` becomes optional,
    because it defaults to the MCP session."""
    from assistant.api.views import TurnInput  # imported late: the views import the services

    schema = json_schema(TurnInput)
    schema["properties"]["session_id"]["description"] = "the session the turn belongs to; default: this MCP session"
    schema["required"] = [name for name in schema.get("required", []) if name != "session_id"]
    return schema


REPORT_TURN_OUTPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "ok": {"type": "boolean"},
        "session_id": {"type": "string"},
        "turn": {"type": "string"},
        "memories": {"type": "object"},
        "rules": {"type": "array"},
        "observations": {"type": "array"},
        "replayed": {"type": "boolean"},
    },
    "required": ["ok", "session_id", "turn", "memories", "rules", "observations", "replayed"],
}


def to_mcp_tool(tool: Tool) -> types.Tool:
    """A gateway tool as MCP lists it: title from the UI label, hints from the direction."""
    read_only = tool.direction == "read-only"
    return types.Tool(
        name=tool.name,
        title=tool.ui_label,
        description=tool.description,
        input_schema=tool.input_schema,
        output_schema=OUTPUT_SCHEMAS.get(tool.name),
        annotations=types.ToolAnnotations(
            title=tool.ui_label,
            read_only_hint=read_only,
            destructive_hint=None if read_only else tool.name in DESTRUCTIVE,
            open_world_hint=tool.name in OPEN_WORLD,
        ),
    )


@functools.cache
def report_turn_tool() -> types.Tool:
    """The post-turn hook as an MCP tool (built once, on first use)."""
    return types.Tool(
        name=REPORT_TURN,
        title="Reporting turn",
        description=(
            "After each turn, report it: the user's messages are remembered, decrees "
            '("never email Sarah") become critical tool rules, repeated tool failures become observations, '
            "and a subagent's successful calls become skills. Reporting the same turn twice changes nothing."
        ),
        input_schema=_report_turn_schema(),
        output_schema=REPORT_TURN_OUTPUT_SCHEMA,
        annotations=types.ToolAnnotations(
            title="Reporting turn", read_only_hint=False, destructive_hint=False, open_world_hint=False
        ),
    )


def list_tools_as(user: AbstractUser) -> list[types.Tool]:
    """Exactly the gateway tools registered for ``user`` (read again on every call), and the
    post-turn hook as ``report_turn``."""
    return [to_mcp_tool(tool) for tool in tools_for(user)] + [report_turn_tool()]


def dump_json(data: Any) -> str:
    """Compact JSON, as the REST API renders it (so bytes compare across entrances)."""
    return json.dumps(data, cls=DjangoJSONEncoder, ensure_ascii=False, separators=(",", ":"))


def tool_error(code: str, message: str, details: Any = None) -> types.CallToolResult:
    """A failed call as MCP wants it: a result with ``isError``, readable by the model, carrying
    the seed's code and message in text and Mnemo's error envelope as structured content."""
    return types.CallToolResult(
        content=[types.TextContent(text=f"{code}: {message}")],
        structured_content=error_body(code, message, details),
        is_error=True,
    )


def _report_turn(user: AbstractUser, arguments: dict[str, Any], mcp_session_id: str | None) -> tuple[dict, str]:
    from assistant.api.views import TurnInput  # the REST hook's input contract, reused as it is

    if "session_id" not in arguments and mcp_session_id:
        arguments = {**arguments, "session_id": mcp_session_id}
    serializer = TurnInput(data=arguments)
    if not serializer.is_valid():
        raise _invalid(serializer.errors)
    data = serializer.validated_data
    result = process_turn(
        user=user,
        session_id=data["session_id"],
        agent_name=data["agent_name"],
        turn_index=data["turn_index"],
        messages=[dict(m) for m in data["messages"]],
        tool_calls=[dict(c) for c in data["tool_calls"]],
    )
    stored = len(result["memories"]["stored"])
    summary = (
        f"Tool {REPORT_TURN} {'replayed' if result['replayed'] else 'recorded'} the turn: "
        f"{stored} message{'s' if stored != 1 else ''} remembered, {len(result['rules'])} rule(s), "
        f"{len(result['observations'])} observation(s)."
    )
    return result, summary


def _invalid(errors: Any) -> InvalidInput:
    """DRF validation errors as the one INVALID_INPUT (same one-line message as the REST API)."""
    from core.errors import exception_handler

    response = exception_handler(drf_exceptions.ValidationError(errors), {})
    assert response is not None
    error = response.data["error"]
    return InvalidInput(error["message"], details=error.get("details"))


def call_tool_as(
    user: AbstractUser, name: str, arguments: dict[str, Any] | None, *, mcp_session_id: str | None = None
) -> types.CallToolResult:
    """Run tool ``name`` for ``user`` through the one door and shape the answer for MCP.

    Success: the formatter's one-line summary and the result as JSON text (for clients that
    read only text), the result itself as structured content. Failure: ``tool_error``.
    """
    try:
        if name == REPORT_TURN:
            data, summary = _report_turn(user, dict(arguments or {}), mcp_session_id)
        else:
            answer = invoke_tool(user=user, name=name, arguments={} if arguments is None else arguments)
            data, summary = answer["result"], answer["summary"]
    except MnemoError as exc:
        return tool_error(exc.code, exc.message, exc.details)
    except drf_exceptions.ValidationError as exc:
        error = _invalid(exc.detail)
        return tool_error(error.code, error.message, error.details)
    except DatabaseError:
        logger.exception("database error in MCP tool %s", name)
        error = DatabaseUnavailable("The database is unavailable or refused the write; nothing was changed.")
        return tool_error(error.code, error.message)
    except Exception:  # a bug must not take the MCP connection down: the caller gets a tool error
        logger.exception("MCP tool %s failed", name)
        return tool_error("INTERNAL_ERROR", "Internal server error.")
    return types.CallToolResult(
        content=[types.TextContent(text=summary), types.TextContent(text=dump_json(data))],
        structured_content=data,
    )


# --- the prompt --------------------------------------------------------------------------------

PROMPT_NAME = "mnemo_system_prompt"
SESSION_META_KEY = "mnemo/session_id"

SYSTEM_PROMPT = types.Prompt(
    name=PROMPT_NAME,
    title="Mnemo session system prompt",
    description=(
        "The system prompt of this session: instructions, the tools you have, workflow blocks, pinned "
        "tool rules (frozen for the session) and the memories relevant to the current message."
    ),
    arguments=[
        types.PromptArgument(
            name="message", description="the user's current message: memories relevant to it are added"
        ),
        types.PromptArgument(name="agent_name", description="the agent (or subagent) the prompt is for"),
        types.PromptArgument(
            name="session_id",
            description=(
                "resume this Mnemo session (from the prompt's _meta); default: the MCP session. "
                "Needed only on the stateless 2026-07-28 protocol, which has no MCP session"
            ),
        ),
    ],
)


@dataclass(frozen=True)
class PromptAnswer:
    session_id: str
    result: types.GetPromptResult


def get_prompt_as(
    user: AbstractUser, *, arguments: dict[str, Any] | None = None, mcp_session_id: str | None = None
) -> PromptAnswer:
    """The session's system prompt, as one MCP prompt message.

    The arguments pass the REST session's own contract (``SessionInput``); the session is the one
    named in ``session_id``, else the MCP session, else a new one. The session service resumes
    it exactly as over REST, so what it freezes per session stays frozen for this MCP session.
    """
    from assistant.api.views import SessionInput  # the REST session's input contract

    arguments = dict(arguments or {})
    if not arguments.get("session_id"):
        arguments.pop("session_id", None)
        if mcp_session_id:
            arguments["session_id"] = mcp_session_id
    serializer = SessionInput(data=arguments)
    if not serializer.is_valid():
        raise _invalid(serializer.errors)
    data = serializer.validated_data
    session = start_or_resume_session(
        user=user, message=data["message"], agent_name=data["agent_name"], session_id=data["session_id"]
    )
    result = types.GetPromptResult(
        description=f"Mnemo system prompt of session {session.id}",
        messages=[types.PromptMessage(role="user", content=types.TextContent(text=session.system_prompt))],
        meta={SESSION_META_KEY: str(session.id)},
    )
    return PromptAnswer(session_id=str(session.id), result=result)


def open_session(user: AbstractUser) -> str:
    """A new session of the session service for an MCP session that starts: its id becomes the
    ``Mcp-Session-Id``; what the service freezes per session is frozen from now on."""
    return str(start_or_resume_session(user=user).id)


def session_belongs_to(user: AbstractUser, session_id: str) -> bool:
    """Whether ``session_id`` is a session of ``user`` (someone else's answers like a missing one)."""
    try:
        key = uuid.UUID(session_id)
    except ValueError:
        return False
    return AssistantSession.objects.filter(pk=key, user=user).exists()


# --- resources ---------------------------------------------------------------------------------

CONTACT_MEMORY_TEMPLATE = "mnemo://contacts/{contact_id}/memory"
NAMESPACE_RECENT_TEMPLATE = "mnemo://namespaces/{key}/recent"
_CONTACT_MEMORY = re.compile(r"^mnemo://contacts/(?P<contact_id>[^/?#]+)/memory$")
_NAMESPACE_RECENT = re.compile(r"^mnemo://namespaces/(?P<key>[^/?#]+)/recent$")
JSON = "application/json"


def namespace_uri(key: str) -> str:
    return NAMESPACE_RECENT_TEMPLATE.format(key=quote(key, safe=":@-._~"))


def resource_templates_as(user: AbstractUser) -> list[types.ResourceTemplate]:
    templates = [
        types.ResourceTemplate(
            name="namespace_recent_memories",
            title="Recent memories of a namespace",
            uri_template=NAMESPACE_RECENT_TEMPLATE,
            description="The newest memories of a namespace you may read (e.g. user:<you>).",
            mime_type=JSON,
        )
    ]
    if any(tool.name == "get_contact_memory" for tool in tools_for(user)):
        templates.insert(
            0,
            types.ResourceTemplate(
                name="contact_memory",
                title="Contact memory",
                uri_template=CONTACT_MEMORY_TEMPLATE,
                description="A contact's saved memory note (what get_contact_memory returns).",
                mime_type=JSON,
            ),
        )
    return templates


def list_resources_as(user: AbstractUser) -> list[types.Resource]:
    """One "recent memories" resource per namespace the caller may read."""
    from memories.selectors import namespaces_for

    return [
        types.Resource(
            name=f"recent:{namespace.key}",
            title=f"Recent memories in {namespace.key}",
            uri=namespace_uri(namespace.key),
            mime_type=JSON,
        )
        for namespace in namespaces_for(user=user)
    ]


def _recent_memories(user: AbstractUser, key: str) -> dict[str, Any]:
    from django.conf import settings

    from memories import permissions
    from memories.api.serializers import MemoryOutput

    namespace = permissions.resolve_namespace(user, key, write=False)
    memories = (
        permissions.visible_memories(user)
        .filter(namespace=namespace, forgotten_at__isnull=True)
        .filter(Q(expires_at__isnull=True) | Q(expires_at__gt=timezone.now()))
        .select_related("created_by")
        .order_by("-created_at", "-id")[: settings.MNEMO_MCP_RECENT_MEMORIES]
    )
    return {"namespace": namespace.key, "memories": MemoryOutput(memories, many=True).data}


def _namespace_key(key: str) -> str:
    """A namespace key out of a resource URI, checked as the API checks one (no NUL, no lone
    surrogates, at most 200 characters): INVALID_INPUT otherwise, never a database error."""
    from memories.api.serializers import NAMESPACE_MAX

    try:
        return check_text(key, max_length=NAMESPACE_MAX, where="The namespace key in the resource URI")
    except ValueError as exc:
        raise InvalidInput(f"{exc}.") from exc


def read_resource_as(user: AbstractUser, uri: str) -> types.ReadResourceResult:
    """A resource's contents, with the permissions of the matching tool or namespace read; raises
    ``MnemoError`` (NOT_FOUND for anything the caller may not see, like a missing one)."""
    if match := _CONTACT_MEMORY.match(uri):
        # The tool itself, through the door: same registration gate, same object check.
        answer = invoke_tool(user=user, name="get_contact_memory", arguments={"contact_id": match["contact_id"]})
        data = answer["result"]
    elif match := _NAMESPACE_RECENT.match(uri):
        data = _recent_memories(user, _namespace_key(unquote(match["key"])))
    else:
        shown = uri[:200].encode("utf-8", "replace").decode("utf-8")  # lone surrogates cannot be encoded
        raise NotFound(f"Resource {shown} not found.")
    return types.ReadResourceResult(
        contents=[types.TextResourceContents(uri=uri, mime_type=JSON, text=dump_json(data))]
    )


# --- the caller --------------------------------------------------------------------------------


def user_for_token(key: str) -> AbstractUser | None:
    """The active user holding API token ``key`` (the REST API's own check,
    ``core.authentication.authenticate_key``), else None; ``RateLimited`` over the token's limit."""
    try:
        user, _ = authenticate_key(key)
    except drf_exceptions.AuthenticationFailed:
        return None
    return user


def user_from_authorization(header: str | None) -> AbstractUser | None:
    """``Authorization: Bearer <token>`` or ``Token <token>`` (the API's token), else None."""
    scheme, _, key = (header or "").strip().partition(" ")
    key = key.strip()
    if scheme.lower() not in {"bearer", "token"} or not key or " " in key:
        return None
    return user_for_token(key)
