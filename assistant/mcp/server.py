"""The MCP server (the official SDK's low-level ``Server``): its handlers call ``entrance``.

The caller is not decided here. Over HTTP the ASGI app (``assistant.mcp.http``) authenticates
the request and puts the user and the MCP session id into the ASGI scope, which reaches the
handler as ``ctx.request.scope``; over stdio the server is built for one user
(``build_server(stdio=StdioCaller(…))``), read again on every request (through its token when it
was started with one) so that a revocation or a permission change applies at once.

Every ORM call runs in Django's thread through ``sync_to_async(thread_sensitive=True)``, never on
the event loop, with the connection hygiene Django applies around a request.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import mcp_types as types
from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser
from django.db import close_old_connections
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

from assistant.mcp import entrance
from core.errors import MnemoError, RateLimited, error_body

USER_SCOPE_KEY = "mnemo.user"
SESSION_SCOPE_KEY = "mnemo.mcp_session_id"
RESOURCE_NOT_FOUND = -32002  # the MCP spec's code for a resource that does not exist
SERVER_NAME = "mnemo"
SERVER_VERSION = "0.1.0"
INSTRUCTIONS = (
    "Mnemo is the user's memory. Get the prompt mnemo_system_prompt (with the user's message) for your "
    "system prompt: it lists your tools, the rules you must obey and the memories relevant to the message. "
    "Remember durable facts with remember, find them with search_memory, and call report_turn after each turn."
)

T = TypeVar("T")


def _in_django(fn: Callable[..., T]) -> Callable[..., T]:
    def run(*args: Any, **kwargs: Any) -> T:
        close_old_connections()  # what Django does at a request's start and end
        try:
            return fn(*args, **kwargs)
        finally:
            close_old_connections()

    return run


async def db(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)`` in Django's sync thread, off the event loop."""
    return await sync_to_async(_in_django(fn), thread_sensitive=True)(*args, **kwargs)


def _protocol_error(exc: MnemoError) -> MCPError:
    """A domain error of a prompt or resource request (they have no ``isError`` result) as a
    JSON-RPC error that still carries the seed's code and message."""
    code = {
        "NOT_FOUND": RESOURCE_NOT_FOUND,
        "INVALID_INPUT": types.INVALID_PARAMS,
        "SECRET_REJECTED": types.INVALID_PARAMS,  # a prompt argument (the agent's name) shaped like a secret
    }.get(exc.code, types.INTERNAL_ERROR)
    return MCPError(code=code, message=f"{exc.code}: {exc.message}", data=error_body(exc.code, exc.message))


@dataclass
class StdioCaller:
    """The one caller of a stdio server, and the session its prompt is frozen in. ``token``: the
    API token it was started with, checked again on every request (revoked is revoked at once)."""

    user_id: int
    session_id: str | None = None
    token: str | None = None


def _load_user(caller: StdioCaller) -> AbstractUser:
    if caller.token is not None:
        try:
            user = entrance.user_for_token(caller.token)
        except RateLimited as exc:
            raise MCPError(
                code=-32029, message=f"{exc.code}: {exc.message}", data=error_body(exc.code, exc.message)
            ) from exc
        if user is None or user.pk != caller.user_id:
            raise MCPError(
                code=types.INVALID_REQUEST,
                message="UNAUTHENTICATED: the token was revoked or has expired, or its user is inactive.",
            )
        return user
    user = get_user_model().objects.filter(pk=caller.user_id, is_active=True).first()
    if user is None:
        raise MCPError(code=types.INVALID_REQUEST, message="UNAUTHENTICATED: the stdio user is gone or inactive.")
    return user


def build_server(*, stdio: StdioCaller | None = None) -> Server:
    """The MCP server. Without ``stdio``, the caller comes from the HTTP request's scope."""

    def scope_of(ctx: ServerRequestContext) -> dict[str, Any]:
        request = ctx.request
        return getattr(request, "scope", None) or {}

    def caller(ctx: ServerRequestContext) -> tuple[Any, str | None]:
        """(the user or, over stdio, their id; the MCP session id)."""
        if stdio is not None:
            return stdio.user_id, stdio.session_id
        scope = scope_of(ctx)
        user = scope.get(USER_SCOPE_KEY)
        if user is None:  # the ASGI app authenticates before the SDK sees a request
            raise MCPError(code=types.INVALID_REQUEST, message="UNAUTHENTICATED: no caller.")
        return user, scope.get(SESSION_SCOPE_KEY)

    def as_user(fn: Callable[..., T]) -> Callable[..., T]:
        """``fn(user, …)`` with the stdio caller loaded from the database first."""

        def run(who: Any, *args: Any, **kwargs: Any) -> T:
            user = _load_user(stdio) if stdio is not None else who
            return fn(user, *args, **kwargs)

        return run

    async def list_tools(ctx: ServerRequestContext, params: Any) -> types.ListToolsResult:
        user, _ = caller(ctx)
        return types.ListToolsResult(tools=await db(as_user(entrance.list_tools_as), user))

    async def call_tool(ctx: ServerRequestContext, params: types.CallToolRequestParams) -> types.CallToolResult:
        user, session_id = caller(ctx)
        return await db(as_user(entrance.call_tool_as), user, params.name, params.arguments, mcp_session_id=session_id)

    async def list_prompts(ctx: ServerRequestContext, params: Any) -> types.ListPromptsResult:
        return types.ListPromptsResult(prompts=[entrance.SYSTEM_PROMPT])

    async def get_prompt(ctx: ServerRequestContext, params: types.GetPromptRequestParams) -> types.GetPromptResult:
        if params.name != entrance.PROMPT_NAME:
            raise MCPError(
                code=types.INVALID_PARAMS, message=f"INVALID_INPUT: there is no prompt named {params.name!r}."
            )
        user, session_id = caller(ctx)
        try:
            answer = await db(
                as_user(entrance.get_prompt_as), user, arguments=params.arguments, mcp_session_id=session_id
            )
        except MnemoError as exc:
            raise _protocol_error(exc) from exc
        if stdio is not None and stdio.session_id is None:
            stdio.session_id = answer.session_id  # one stdio connection is one session
        return answer.result

    async def list_resources(ctx: ServerRequestContext, params: Any) -> types.ListResourcesResult:
        user, _ = caller(ctx)
        return types.ListResourcesResult(resources=await db(as_user(entrance.list_resources_as), user))

    async def list_resource_templates(ctx: ServerRequestContext, params: Any) -> types.ListResourceTemplatesResult:
        user, _ = caller(ctx)
        return types.ListResourceTemplatesResult(
            resource_templates=await db(as_user(entrance.resource_templates_as), user)
        )

    async def read_resource(
        ctx: ServerRequestContext, params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        user, _ = caller(ctx)
        try:
            return await db(as_user(entrance.read_resource_as), user, str(params.uri))
        except MnemoError as exc:
            raise _protocol_error(exc) from exc

    return Server(
        SERVER_NAME,
        version=SERVER_VERSION,
        title="Mnemo",
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_prompts=list_prompts,
        on_get_prompt=get_prompt,
        on_list_resources=list_resources,
        on_list_resource_templates=list_resource_templates,
        on_read_resource=read_resource,
    )
