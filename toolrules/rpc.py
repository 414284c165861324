"""JSON-RPC 2.0 at POST /rpc (django-modern-rpc): the six ``memory.*`` methods of seed 004, and
``memory.remember``, ``memory.add_memory`` and ``memory.search_memory`` (seeds 003 and 002, with the
contracts and operations of their REST calls and tools: ``memories.api.serializers``,
``memories.operations``).

Authentication is the API's token (``Authorization: Token …``). Each method's params are
validated by the serializer of the same operation over REST (``toolrules.api.serializers``), by
name or by position. Domain errors become JSON-RPC errors: bad params are -32602 (invalid
params), an unknown rule is -32004, a forbidden change -32003; each carries the Mnemo error code
in ``data.code``. A body that is not a JSON-RPC request object (``42``, ``null``), an empty batch
and a batch over ``MNEMO_RPC_MAX_BATCH`` calls are -32600; another method than POST is 405.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from modernrpc import Protocol, RpcRequestContext, RpcServer
from modernrpc.exceptions import RPCException, RPCInvalidParams
from rest_framework.exceptions import AuthenticationFailed

from core.api import check
from core.authentication import authenticate_key
from core.errors import Forbidden, InvalidInput, MnemoError, NotFound, RateLimited, error_body
from memories import operations as memory_operations
from memories import selectors as memory_selectors
from memories.api import serializers as memory_contracts
from toolrules import permissions, services
from toolrules.api import serializers as contracts

RPC_NOT_FOUND = -32004
RPC_FORBIDDEN = -32003


def token_user(request: HttpRequest) -> Any:
    """modern-rpc's auth predicate: the active user of the request's API token, or None. Checked
    once per HTTP request (``core.authentication.authenticate_key``, as every entrance), however
    many calls a batch holds; ``RateLimited`` over the token's limit (``view`` answers 429)."""
    cached = getattr(request, "_mnemo_rpc_user", ...)
    if cached is not ...:
        return cached
    header = request.headers.get("Authorization", "")
    scheme, _, key = header.partition(" ")
    user = None
    if scheme.lower() == "token" and key.strip():
        try:
            user, _ = authenticate_key(key.strip())
        except AuthenticationFailed:
            user = None
    request._mnemo_rpc_user = user  # type: ignore[attr-defined]
    return user


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


def contract(serializer_class: type) -> Callable:
    """Validate a method's params with its operation's serializer; the method gets
    ``(user, data)``. Params by position follow the serializer's field order."""

    def decorate(function: Callable[[Any, dict[str, Any]], Any]) -> Callable:
        names = list(serializer_class().fields)

        @functools.wraps(function)
        def method(*args: Any, ctx: RpcRequestContext | None = None, **kwargs: Any) -> Any:
            if len(args) > len(names):
                raise InvalidInput(f"at most {len(names)} params: {', '.join(names)}.")
            params = dict(zip(names, args, strict=False))
            twice = sorted(set(params) & set(kwargs))
            if twice:
                raise InvalidInput(f"given twice: {', '.join(twice)}.")
            return function(_user(ctx), check(serializer_class, {**params, **kwargs}))

        return method

    return decorate


@server.register_procedure(name="memory.tool_rule_put", context_target="ctx")
@contract(contracts.RuleInput)
def tool_rule_put(user: Any, data: dict[str, Any]) -> dict[str, Any]:
    """Upsert a rule; the same id updates it. Use priority='critical' for safety-critical rules."""
    saved, created = services.put_rule(
        actor=user,
        tool_name=data["tool_name"],
        rule=data["rule"],
        priority=data["priority"],
        source=data["source"],
        tags=data["tags"],
        rule_id=data["id"],
        binds_everyone=data["binds_everyone"],
    )
    return {**services.serialize_rule(saved), "created": created}


@server.register_procedure(name="memory.tool_rule_get", context_target="ctx")
@contract(contracts.RuleRefInput)
def tool_rule_get(user: Any, data: dict[str, Any]) -> dict[str, Any]:
    """A rule by (tool_name, id)."""
    return services.serialize_rule(permissions.get_rule(user, str(data["id"]), tool_name=data["tool_name"]))


@server.register_procedure(name="memory.tool_rule_list", context_target="ctx")
@contract(contracts.RuleListInput)
def tool_rule_list(user: Any, data: dict[str, Any]) -> list[dict[str, Any]]:
    """Every rule binding the caller for a tool, by priority then freshness."""
    if not data["tool_name"].strip():
        raise InvalidInput("tool_name must not be empty.")
    return [services.serialize_rule(r) for r in services.list_rules(user=user, tool_name=data["tool_name"])]


@server.register_procedure(name="memory.tool_rule_delete", context_target="ctx")
@contract(contracts.RuleRefInput)
def tool_rule_delete(user: Any, data: dict[str, Any]) -> dict[str, Any]:
    """Delete a rule."""
    services.delete_rule(actor=user, tool_name=data["tool_name"], rule_id=str(data["id"]))
    return {"deleted": True, "id": str(data["id"]), "tool_name": data["tool_name"]}


@server.register_procedure(name="memory.tool_rules_for_prompt", context_target="ctx")
@contract(contracts.RulesForPromptInput)
def tool_rules_for_prompt(user: Any, data: dict[str, Any]) -> dict[str, Any]:
    """The rendered ``## Tool-scoped rules`` Markdown block and its structured snapshot."""
    result = services.rules_for_prompt(user=user, tools=data["tools"])
    return {"markdown": result.markdown, "snapshot": result.snapshot}


@server.register_procedure(name="memory.tool_rules_json", context_target="ctx")
@contract(contracts.RuleListQuery)
def tool_rules_json(user: Any, data: dict[str, Any]) -> list[dict[str, Any]]:
    """The raw list of rules binding the caller (all tools, or one)."""
    return [services.serialize_rule(r) for r in services.list_rules(user=user, tool_name=data["tool_name"] or None)]


@server.register_procedure(name="memory.remember", context_target="ctx")
@contract(memory_contracts.RememberInput)
def remember(user: Any, data: dict[str, Any]) -> dict[str, Any]:
    """Seed 003's remember: store one durable fact; the same answer as the REST call and the tool."""
    return memory_contracts.remember_body(memory_operations.remember(user=user, data=data))


@server.register_procedure(name="memory.add_memory", context_target="ctx")
@contract(memory_contracts.AddMemoryInput)
def add_memory(user: Any, data: dict[str, Any]) -> dict[str, Any]:
    """Seed 002's add_memory: queued and embedded in the background (``async``: true, default)."""
    memory = memory_operations.add_memory(user=user, data=data)
    status, message = memory_contracts.add_memory_answer(memory, queued=data["async"])
    return {"ok": True, "id": memory.id, "event_id": str(memory.event_id), "status": status, "message": message}


@server.register_procedure(name="memory.search_memory", context_target="ctx")
@contract(memory_contracts.SearchToolInput)
def search_memory(user: Any, data: dict[str, Any]) -> dict[str, Any]:
    """Seed 002's search_memory (``as_of``: recall as of a moment): results and their text form."""
    _, hits = memory_operations.search(user=user, data=data)
    return {
        "results": memory_contracts.search_results(hits),
        "text": memory_selectors.format_results_text(hits),
    }


def _rpc_error(code: int, message: str, *, data: dict[str, Any] | None = None, status: int = 200) -> JsonResponse:
    error: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    return JsonResponse({"jsonrpc": "2.0", "id": None, "error": error}, status=status)


@csrf_exempt
def view(request: HttpRequest) -> HttpResponse:
    """The /rpc endpoint: modern-rpc's view, after the checks it lacks. Another method than POST
    is a JSON-RPC error with 405 and ``Allow: POST`` (modern-rpc's is an empty HTML 405); a body
    that is not a request object or a batch of them is -32600, an empty batch too (JSON-RPC 2.0
    answers ``[]`` with one error, not nothing), and a batch of more than ``MNEMO_RPC_MAX_BATCH``
    calls (each is a whole request's work); JSON too deep to read is -32700. Never a 500. The
    errors about the whole body (not one call of it) answer HTTP 400; a call's error rides in a
    200, as JSON-RPC over HTTP does."""
    if request.method != "POST":
        response = _rpc_error(
            -32600,
            f"Invalid Request: {request.method} is not supported; POST a JSON-RPC request.",
            data={"code": "METHOD_NOT_ALLOWED"},
            status=405,
        )
        response["Allow"] = "POST"
        return response
    if request.content_type in ("application/json", "application/json-rpc", ""):
        try:
            body = json.loads(request.body)
        except (ValueError, UnicodeDecodeError):
            body = ...  # not JSON: modern-rpc answers its parse error (-32700)
        except RecursionError:
            return _rpc_error(-32700, "Parse error: nested too deeply.")
        if body is not ... and (
            not isinstance(body, dict | list) or (isinstance(body, list) and not all(isinstance(r, dict) for r in body))
        ):
            return _rpc_error(
                -32600, "Invalid request: the body must be a JSON-RPC request object or a batch of them.", status=400
            )
        if body == []:
            empty = {"code": "INVALID_INPUT", "message": "The batch is empty."}
            return _rpc_error(-32600, "Invalid Request", data=empty, status=400)
        limit = settings.MNEMO_RPC_MAX_BATCH
        if isinstance(body, list) and len(body) > limit:
            message = f"A batch holds at most {limit} calls (MNEMO_RPC_MAX_BATCH); this one has {len(body)}."
            data = {"code": "INVALID_INPUT", "message": message}
            return _rpc_error(-32600, f"Invalid Request: {message}", data=data, status=400)
    try:
        token_user(request)  # once per HTTP request, before any call of a batch runs
    except RateLimited as exc:
        return _rate_limited(exc)
    return server.view(request)


def _rate_limited(exc: RateLimited) -> JsonResponse:
    """429 with Retry-After; the JSON-RPC error carries Mnemo's envelope in ``data``."""
    response = JsonResponse(
        {
            "jsonrpc": "2.0",
            "id": None,
            "error": {"code": -32029, "message": exc.message, "data": error_body(exc.code, exc.message)},
        },
        status=429,
    )
    response["Retry-After"] = str(exc.retry_after)
    return response
