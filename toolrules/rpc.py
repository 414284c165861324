"""JSON-RPC 2.0 at POST /rpc (django-modern-rpc): the six ``memory.*`` methods of seed 004.

Authentication is the API's token (``Authorization: Token …``). Domain errors become JSON-RPC
errors: bad params are -32602 (invalid params), an unknown rule is -32004, a forbidden change
-32003; each carries the Mnemo error code in ``data.code``.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from modernrpc import Protocol, RpcRequestContext, RpcServer
from modernrpc.exceptions import RPCException, RPCInvalidParams
from rest_framework.authtoken.models import Token

from core.errors import Forbidden, InvalidInput, MnemoError, NotFound
from toolrules import permissions, services

RPC_NOT_FOUND = -32004
RPC_FORBIDDEN = -32003


def token_user(request: HttpRequest) -> Any:
    """modern-rpc's auth predicate: the active user of the request's API token, or None."""
    header = request.headers.get("Authorization", "")
    scheme, _, key = header.partition(" ")
    if scheme.lower() != "token" or not key.strip():
        return None
    token = Token.objects.select_related("user").filter(key=key.strip()).first()
    return token.user if token and token.user.is_active else None


def to_rpc_error(exception: BaseException, context: RpcRequestContext) -> None:
    """Raise the JSON-RPC form of a domain error (modern-rpc's error_handler contract)."""
    if isinstance(exception, InvalidInput):
        raise RPCInvalidParams(exception.message, data={"code": exception.code})
    if isinstance(exception, NotFound):
        raise RPCException(RPC_NOT_FOUND, exception.message, data={"code": exception.code})
    if isinstance(exception, Forbidden):
        raise RPCException(RPC_FORBIDDEN, exception.message, data={"code": exception.code})
    if isinstance(exception, MnemoError):
        raise RPCException(-32000, exception.message, data={"code": exception.code})


server = RpcServer(
    register_system_procedures=False,
    supported_protocol=Protocol.JSON_RPC,
    auth=token_user,
    error_handler=to_rpc_error,
)


def _user(ctx: RpcRequestContext) -> Any:
    return ctx.auth_result


def _text(name: str, value: Any) -> str:
    if not isinstance(value, str):
        raise InvalidInput(f"{name} must be a string.")
    return value


@server.register_procedure(name="memory.tool_rule_put", context_target="ctx")
def tool_rule_put(
    tool_name: str,
    rule: str,
    priority: str = "normal",
    source: str = "programmatic",
    tags: list[str] | None = None,
    id: str | None = None,  # noqa: A002 (the seed's field name)
    binds_everyone: bool = False,
    ctx: RpcRequestContext | None = None,
) -> dict[str, Any]:
    """Upsert a rule; the same id updates it. Use priority='critical' for safety-critical rules."""
    if tags is not None and not (isinstance(tags, list) and all(isinstance(t, str) for t in tags)):
        raise InvalidInput("tags must be a list of strings.")
    if not isinstance(binds_everyone, bool):
        raise InvalidInput("binds_everyone must be true or false.")
    saved, created = services.put_rule(
        actor=_user(ctx),
        tool_name=_text("tool_name", tool_name),
        rule=_text("rule", rule),
        priority=_text("priority", priority),
        source=_text("source", source),
        tags=tags,
        rule_id=id,
        binds_everyone=binds_everyone,
    )
    return {**services.serialize_rule(saved), "created": created}


@server.register_procedure(name="memory.tool_rule_get", context_target="ctx")
def tool_rule_get(tool_name: str, id: str, ctx: RpcRequestContext | None = None) -> dict[str, Any]:  # noqa: A002
    """A rule by (tool_name, id)."""
    return services.serialize_rule(permissions.get_rule(_user(ctx), id, tool_name=_text("tool_name", tool_name)))


@server.register_procedure(name="memory.tool_rule_list", context_target="ctx")
def tool_rule_list(tool_name: str, ctx: RpcRequestContext | None = None) -> list[dict[str, Any]]:
    """Every rule binding the caller for a tool, by priority then freshness."""
    if not _text("tool_name", tool_name).strip():
        raise InvalidInput("tool_name must not be empty.")
    return [
        services.serialize_rule(r)
        for r in services.list_rules(user=_user(ctx), tool_name=_text("tool_name", tool_name))
    ]


@server.register_procedure(name="memory.tool_rule_delete", context_target="ctx")
def tool_rule_delete(tool_name: str, id: str, ctx: RpcRequestContext | None = None) -> dict[str, Any]:  # noqa: A002
    """Delete a rule."""
    services.delete_rule(actor=_user(ctx), tool_name=_text("tool_name", tool_name), rule_id=id)
    return {"deleted": True, "id": id, "tool_name": tool_name}


@server.register_procedure(name="memory.tool_rules_for_prompt", context_target="ctx")
def tool_rules_for_prompt(tools: list[str] | None = None, ctx: RpcRequestContext | None = None) -> dict[str, Any]:
    """The rendered ``## Tool-scoped rules`` Markdown block and its structured snapshot."""
    if tools is not None and not (isinstance(tools, list) and all(isinstance(t, str) for t in tools)):
        raise InvalidInput("tools must be a list of tool names.")
    result = services.rules_for_prompt(user=_user(ctx), tools=tools)
    return {"markdown": result.markdown, "snapshot": result.snapshot}


@server.register_procedure(name="memory.tool_rules_json", context_target="ctx")
def tool_rules_json(tool_name: str | None = None, ctx: RpcRequestContext | None = None) -> list[dict[str, Any]]:
    """The raw list of rules binding the caller (all tools, or one)."""
    return [services.serialize_rule(r) for r in services.list_rules(user=_user(ctx), tool_name=tool_name)]
