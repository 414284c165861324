"""The Mem0 entrance: the part of Mem0's REST API that mem0ai's ``MemoryClient`` (2.2.1) calls for
add, search, get, get_all, update, delete and history, so that
``MemoryClient(api_key=<Mnemo token>, host=<Mnemo URL>)`` works against Mnemo.

A thin door like every other: each view *translates* Mem0's request into the fields of the
operation's one contract (AddMemoryInput for add, SearchInput for search, MemoryPatchInput for
update, MemoryFilter for get_all), which validates and scans it; then the same operations,
services and permission checks (``memories.permissions`` on core's layer) as the REST API. A
Mem0 field with no Mnemo meaning is passed on untranslated, so the contract refuses it as an
unknown field (INVALID_INPUT); the few that change nothing here (``output_format``,
``version``, ``org_id``, ``project_id``, ``rerank``, ...) are dropped. Mappings: ``memories.mem0``.

Errors are Mnemo's envelope (``{"ok": false, "error": {"code", "message"}}``) with its HTTP
status, plus Mem0's ``detail`` (``"<CODE>: <message>"``): MemoryClient raises the exception of
the status (400 ValidationError, 401/403 AuthenticationError, 404 MemoryNotFoundError, ...),
with ``detail`` as its message and the whole body, Mnemo's code included, as its ``details``.

Left out of the OpenAPI schema (and so of the schemathesis run): these routes answer Mem0's
shapes, not Mnemo's, live outside /api/, and their contract is mem0ai's client, which
tests/memories/test_mem0_api.py drives against a live server. The permission harness covers
every route.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core import permissions as layer
from core.api import StrictSerializer, check
from core.errors import InvalidInput, NotFound, exception_handler
from core.fields import BoundedIntegerField
from memories import mem0, operations, permissions, selectors, services
from memories.api import serializers as s
from memories.api.filters import MemoryFilter
from memories.models import Memory

#: Mem0 fields that mean nothing here and change nothing: accepted and dropped.
IGNORED = frozenset({"output_format", "version", "org_id", "project_id", "rerank", "keyword_search", "fields"})
#: Logical filter operators Mnemo's filters cannot express.
UNSUPPORTED_FILTERS = frozenset({"OR", "NOT", "$or", "$not", "or", "not"})
#: get_all's default page size (Mem0's).
PAGE_SIZE = 100


def mem0_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Mnemo's error envelope and status, plus Mem0's ``detail``: what MemoryClient shows."""
    response = exception_handler(exc, context)
    if response is not None and isinstance(response.data, dict) and "error" in response.data:
        error = response.data["error"]
        response.data["detail"] = f"{error['code']}: {error['message']}"
    return response


@extend_schema(exclude=True)
class Mem0View(APIView):
    """Base of the Mem0 entrance: Mnemo's authentication and errors, Mem0's error ``detail``."""

    def get_exception_handler(self):
        return mem0_exception_handler


def _body(request: Request) -> dict[str, Any]:
    if not isinstance(request.data, dict):
        raise InvalidInput("The request body must be a JSON object.")
    return {k: v for k, v in request.data.items() if k not in IGNORED}


def _filters(body: dict[str, Any]) -> dict[str, Any]:
    """Mem0's ``filters`` as one flat dict: its keys and those of ``{"AND": [...]}`` lists, and the
    entity ids given at the top level (add takes them there too)."""
    raw = body.pop("filters", None)
    raw = {} if raw is None else raw
    if not isinstance(raw, dict):
        raise InvalidInput("filters must be a JSON object.")
    flat: dict[str, Any] = {}
    stack = [raw]
    while stack:
        part = stack.pop()
        for key, value in part.items():
            if key in UNSUPPORTED_FILTERS:
                raise InvalidInput(f"filters: {key!r} is not supported (only conditions that all hold, AND).")
            if key in ("AND", "$and", "and"):
                if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
                    raise InvalidInput(f"filters: {key!r} takes a list of objects.")
                stack.extend(value)
            else:
                flat[key] = value
    for key in mem0.ENTITY_KEYS:
        if key in body:
            flat.setdefault(key, body.pop(key))
    return flat


def _entity_ids(flat: dict[str, Any]) -> dict[str, Any]:
    return {key: flat.pop(key) for key in mem0.ENTITY_KEYS if key in flat}


def _namespace(body: dict[str, Any], flat: dict[str, Any], ids: dict[str, Any]) -> Any:
    """The namespace a request names: Mem0's ``user_id`` / ``agent_id`` (``memories.mem0``), or
    Mnemo's own ``namespace`` (at the top level or in ``filters``: the way to a namespace that is
    neither ``user:`` nor ``agent:``, such as a shared ``team:...``); not both."""
    given = [body.pop("namespace")] if "namespace" in body else []
    given += [flat.pop("namespace")] if "namespace" in flat else []
    if not given:
        return mem0.namespace_key(ids)
    if len(given) > 1 or ids.get("user_id") is not None or ids.get("agent_id") is not None:
        raise InvalidInput("Name the namespace once: by user_id, agent_id or namespace.")
    return given[0]


def _created_bounds(flat: dict[str, Any], into: dict[str, Any]) -> None:
    """``created_at: {gte|gt: t, lte|lt: t}`` as the contract's ``created_after`` / ``created_before``."""
    spec = flat.pop("created_at", None)
    if spec is None:
        return
    if not isinstance(spec, dict) or not spec or set(spec) - {"gte", "gt", "lte", "lt"}:
        raise InvalidInput("filters.created_at takes {'gte'|'gt': time, 'lte'|'lt': time}.")
    for op, name in (
        ("gte", "created_after"),
        ("gt", "created_after"),
        ("lte", "created_before"),
        ("lt", "created_before"),
    ):
        if op in spec:
            into[name] = spec[op]


# --- ping ---------------------------------------------------------------------------------------------------


class PingView(Mem0View):
    """``GET /v1/ping/``: MemoryClient checks its key here when it is made (401 for a bad one)."""

    def get(self, request: Request) -> Response:
        user = request.user
        return Response(
            {
                "status": "ok",
                "message": "pong",
                "user_email": user.email or None,
                "username": user.get_username(),
                # Mnemo has no organisations or projects, but MemoryClient refuses to start without
                # both (its project manager checks them); it sends them nowhere after this.
                "org_id": "mnemo",
                "project_id": "default",
            }
        )


# --- add --------------------------------------------------------------------------------------------------------


def _add_inputs(body: dict[str, Any]) -> tuple[list[dict[str, Any]], bool]:
    """AddMemoryInput data for each message to store, and whether the add is asynchronous.

    Without an LLM there is nothing to infer: with ``infer`` (Mem0's default) each message of role
    ``user`` becomes one memory, its text as sent; with ``infer: false`` every message except
    ``system`` ones does (Mem0 stores raw messages then too). The role is kept as
    ``metadata.mem0_role``."""
    messages = body.pop("messages", None)
    if isinstance(messages, str):
        messages = [{"role": "user", "content": messages}]
    if not isinstance(messages, list) or not messages:
        raise InvalidInput("messages must be a non-empty list of {role, content} objects.")
    infer = body.pop("infer", True)
    if not isinstance(infer, bool):
        raise InvalidInput("infer must be true or false.")
    flat = _filters(body)
    ids = _entity_ids(flat)
    namespace = _namespace(body, flat, ids)
    if flat:
        raise InvalidInput(
            f"filters of add may hold only {', '.join(mem0.ENTITY_KEYS)}; not {', '.join(sorted(flat))}."
        )
    metadata = body.pop("metadata", None)
    metadata = {} if metadata is None else metadata
    if isinstance(metadata, dict):
        metadata = {**metadata, **mem0.entity_metadata(ids)}
    async_mode = body.pop("async_mode", True)
    inputs = []
    for index, message in enumerate(messages):
        if not isinstance(message, dict) or not isinstance(message.get("role"), str) or "content" not in message:
            raise InvalidInput(f"messages.{index}: a message is an object with a role (string) and a content.")
        role = message["role"]
        if role == "system" or (infer and role != "user"):
            continue
        item = {
            # Whatever else the body holds goes to the contract as is: unknown there, refused.
            **body,
            "content": message["content"],
            "namespace": namespace,
            "metadata": {**metadata, "mem0_role": role} if isinstance(metadata, dict) else metadata,
            "async": async_mode,
        }
        inputs.append(item)
    if not inputs:
        raise InvalidInput("no message to store: with infer, only messages of role 'user' are stored.")
    return inputs, async_mode is True


class AddView(Mem0View):
    """``POST /v3/memories/add/``: each stored message through ``add_memory``'s contract."""

    def post(self, request: Request) -> Response:
        inputs, _ = _add_inputs(_body(request))
        # Every message is checked before anything is written, and all are written in one
        # transaction: a refused or failed message leaves none of the others behind.
        checked = [check(s.AddMemoryInput, item, context={"request": request}) for item in inputs]
        with transaction.atomic():
            stored = [operations.add_memory(user=request.user, data=data) for data in checked]
        results = [
            {
                "id": str(memory.id),
                "memory": memory.text,
                "event": "ADD",
                "event_id": str(memory.event_id),
                "status": mem0.STATUS_TO_MEM0.get(memory.status, memory.status),
            }
            for memory in stored
        ]
        return Response({"results": results})


# --- search -------------------------------------------------------------------------------------------------


def _search_input(body: dict[str, Any]) -> dict[str, Any]:
    """SearchInput data for Mem0's search body."""
    query = body.pop("query", None)
    flat = _filters(body)
    ids = _entity_ids(flat)
    data: dict[str, Any] = {"query": query, "namespace": _namespace(body, flat, ids)}
    _created_bounds(flat, data)
    if "top_k" in body:
        data["limit"] = body.pop("top_k")
    else:
        data["limit"] = 10  # Mem0's default
    if "threshold" in body:
        data["min_score"] = body.pop("threshold")
    if "categories" in body:
        data["tags"] = body.pop("categories")
    extra = body.pop("metadata", None)
    metadata = {**mem0.entity_metadata(ids), **flat}
    if isinstance(extra, dict):
        metadata.update(extra)
    elif extra is not None:
        metadata = extra  # not an object: the contract says so
    if metadata:
        data["metadata"] = metadata
    return {**body, **data}


class SearchView(Mem0View):
    """``POST /v3/memories/search/``: ``search_memory``'s contract; Mem0's ``{"results": [...]}``."""

    def post(self, request: Request) -> Response:
        data = check(s.SearchInput, _search_input(_body(request)), context={"request": request})
        _, hits = operations.search(user=request.user, data=data)
        return Response({"results": [{**mem0.memory_body(hit.memory), "score": hit.score} for hit in hits]})


# --- get_all ---------------------------------------------------------------------------------------------------


class PageInput(StrictSerializer):
    """get_all's ``page`` and ``page_size`` query parameters (Mem0's pagination)."""

    page = BoundedIntegerField(required=False, default=1, min_value=1, max_value=1_000_000)
    page_size = BoundedIntegerField(required=False, default=PAGE_SIZE, min_value=1, max_value=500)


class ListView(Mem0View):
    """``POST /v3/memories/``: the memory list's filters (MemoryFilter), one namespace, paginated."""

    def post(self, request: Request) -> Response:
        body = _body(request)
        page = check(PageInput, {k: v for k, v in request.query_params.items() if k in ("page", "page_size")})
        flat = _filters(body)
        ids = _entity_ids(flat)
        wanted = _namespace(body, flat, ids)
        if not isinstance(wanted, str):
            raise InvalidInput("namespace: a string.")
        params: dict[str, Any] = {}
        _created_bounds(flat, params)
        if "categories" in body:
            categories = body.pop("categories")
            if not isinstance(categories, list) or len(categories) != 1:
                raise InvalidInput("categories takes a list of one category here.")
            params["tag"] = categories[0]
        for bound, name in (("start_date", "created_after"), ("end_date", "created_before")):
            if bound in body:
                params[name] = body.pop(bound)
        if body:
            raise InvalidInput(f"unknown field(s): {', '.join(sorted(map(str, body)))}")
        # The namespace is checked like search's: one the caller may not read is NOT_FOUND.
        namespace = permissions.resolve_namespace(request.user, wanted, write=False)
        params["namespace"] = namespace.key
        filterset = MemoryFilter(
            data={k: str(v) if not isinstance(v, str) else v for k, v in params.items()},
            queryset=permissions.visible_memories(request.user),
        )
        if not filterset.is_valid():
            raise InvalidInput(f"filters: {filterset.errors.as_text()}", details=filterset.errors)
        rows = filterset.qs
        metadata = {**mem0.entity_metadata(ids), **flat}
        for key, value in metadata.items():
            if isinstance(value, dict | list):
                raise InvalidInput(f"filters.{key}: get_all matches metadata by equal values only.")
            rows = rows.filter(metadata__contains={key: value})
        rows = rows.order_by("-created_at", "-id")
        count = rows.count()
        size, number = page["page_size"], page["page"]
        chunk = list(rows[(number - 1) * size : number * size])

        def link(n: int) -> str:
            return request.build_absolute_uri(f"{request.path}?page={n}&page_size={size}")

        return Response(
            {
                "count": count,
                "next": link(number + 1) if number * size < count else None,
                "previous": link(number - 1) if number > 1 else None,
                "results": [mem0.memory_body(memory) for memory in chunk],
            }
        )


# --- one memory --------------------------------------------------------------------------------------------------


def _memory(request: Request, memory_id: str, *, write: bool = False, live: bool = True) -> Memory:
    """The memory a Mem0 path names: Mnemo's id, or an imported memory's Mem0 id
    (``metadata.mem0_id``), through the one permission check (NOT_FOUND / PERMISSION_DENIED).
    With ``live``, a deleted (forgotten) memory is NOT_FOUND, as it is in Mem0; its history
    stays readable."""
    if memory_id.isdigit() and len(memory_id) <= 18:
        memory = permissions.get_memory(request.user, int(memory_id), write=write)
    elif len(memory_id) > 100:
        raise NotFound(f"Memory {memory_id[:100]} not found.")
    else:
        memory = layer.get_for_user(
            Memory.objects.select_related("namespace"),
            request.user,
            "change" if write else "view",
            metadata__contains={"mem0_id": memory_id},
            not_found=f"Memory {memory_id} not found.",
            denied=f"You may read memory {memory_id} but not change it.",
        )
    if live and memory.forgotten_at is not None:
        raise NotFound(f"Memory {memory_id} was deleted.")
    return memory


class MemoryView(Mem0View):
    """``/v1/memories/{id}/``: get (GET), update (PUT: MemoryPatchInput), delete (DELETE: a tombstone)."""

    def get(self, request: Request, memory_id: str) -> Response:
        return Response(mem0.memory_body(_memory(request, memory_id)))

    def put(self, request: Request, memory_id: str) -> Response:
        memory = _memory(request, memory_id, write=True)
        body = _body(request)
        if "expiration_date" in body:
            body["expires_at"] = mem0.expiry(body.pop("expiration_date"))
        data = check(s.MemoryPatchInput, body, context={"request": request})
        if not data:
            raise InvalidInput("Give text, metadata or expiration_date to change.")
        if "metadata" in data:
            # Mem0 replaces metadata; the ids Mnemo keeps for Mem0 (mem0_*) stay.
            kept = {k: v for k, v in (memory.metadata or {}).items() if k.startswith(mem0.SYSTEM_PREFIX)}
            data["metadata"] = {**data["metadata"], **kept}
        memory = services.update_memory(actor=request.user, memory=memory, **data)
        return Response({**mem0.memory_body(memory), "message": "Memory updated successfully!"})

    def delete(self, request: Request, memory_id: str) -> Response:
        memory = _memory(request, memory_id, write=True)
        if request.query_params.get("delete_linked") not in (None, "False", "false"):
            raise InvalidInput("delete_linked is not supported: Mnemo keeps no chain of superseded memories.")
        services.forget_memory(actor=request.user, memory=memory, reason="deleted", kind="deleted")
        return Response({"message": "Memory deleted successfully!"})


class HistoryView(Mem0View):
    """``GET /v1/memories/{id}/history/``: the memory's history as Mem0's rows."""

    def get(self, request: Request, memory_id: str) -> Response:
        memory = _memory(request, memory_id, live=False)
        events = selectors.memory_history(memory=memory)
        return Response([mem0.history_body(event, memory=memory) for event in events])
