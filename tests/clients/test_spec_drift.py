"""The Python client cannot drift from the OpenAPI spec.

The schema is the one drf-spectacular generates for /api/schema/ (``SchemaGenerator``, the
generator behind ``SpectacularAPIView``). Both ways: every operation under /api/v1/ has a client
method (``mnemo_client.OPERATIONS``), every method's route and HTTP method exist in the schema,
every method really sends that request, and every body field or query parameter it can send is
one the schema's request declares (the API's strict serializers would refuse any other). The
async client is generated from the sync one: the generated file must be current and every
method's signature must match.
"""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
import json
import re
import subprocess
import sys
import typing
from pathlib import Path
from typing import Any

import httpx2
import mnemo_client
import pytest
from mnemo_client import HELPERS, OPERATIONS, AsyncMnemoClient, MnemoClient

from tests.conftest import CLIENT_ROOT

METHODS = {"get", "post", "put", "patch", "delete"}


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    from drf_spectacular.generators import SchemaGenerator

    # Through JSON, as a client downloading /api/schema/?format=json would see it.
    return json.loads(json.dumps(SchemaGenerator().get_schema(request=None, public=True), default=str))


def _operations(schema: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {
        (method.upper(), path): op
        for path, item in schema["paths"].items()
        if path.startswith("/api/v1/")
        for method, op in item.items()
        if method in METHODS
    }


def _resolve(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    ref = node.get("$ref")
    if ref:
        name = ref.rsplit("/", 1)[-1]
        return schema["components"]["schemas"][name]
    return node


def _body_fields(schema: dict[str, Any], op: dict[str, Any]) -> set[str]:
    content = op.get("requestBody", {}).get("content", {}).get("application/json")
    if not content:
        return set()
    return set(_resolve(schema, content["schema"]).get("properties", {}))


def _query_fields(op: dict[str, Any]) -> set[str]:
    return {p["name"] for p in op.get("parameters", []) if p["in"] == "query"}


def test_every_api_operation_has_a_client_method_and_every_method_an_operation(schema):
    in_schema = set(_operations(schema))
    in_client = set(OPERATIONS.values())
    assert in_schema - in_client == set(), "operations without a client method (add them to OPERATIONS)"
    assert in_client - in_schema == set(), "client methods whose route is not in the API's schema"
    assert len(in_client) == len(OPERATIONS), "two methods claim the same operation"
    for client in (MnemoClient, AsyncMnemoClient):
        public = {name for name in dir(client) if not name.startswith("_") and callable(getattr(client, name))}
        assert set(OPERATIONS) <= public, f"{client.__name__} lacks methods"
        # Every public method is an operation or a helper built on them: nothing untested hides.
        assert public - set(OPERATIONS) - HELPERS == set()


# --- what each method really sends ------------------------------------------------------------


class Recorded(Exception):
    """Raised by the recording transport: the request was built and captured, none was sent."""

    def __init__(self, request: httpx2.Request) -> None:
        self.request = request


def _record(request: httpx2.Request) -> httpx2.Response:
    raise Recorded(request)


def _sample(name: str, annotation: Any) -> Any:
    """A value of a parameter's type (names first, for the few parameters whose shape matters)."""
    text = str(annotation)
    if name == "messages":
        return [{"role": "user", "content": "hello"}]
    if name == "tool_calls":
        return [{"name": "send_email", "status": "success"}]
    if "bool" in text:
        return True
    if "Mapping" in text or "dict" in text:
        return {"category": "x"}
    if "Sequence" in text or "list" in text:
        return ["x"]
    if "datetime" in text:
        return "2026-01-01T00:00:00+00:00"
    if "float" in text:
        return 0.5
    if "int" in text:
        return 7
    return "x"


def _full_call(method: Any) -> tuple[list[Any], dict[str, Any]]:
    """Arguments for every named parameter of ``method`` (so every field it can send is sent)."""
    hints = typing.get_type_hints(method)
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    for param in list(inspect.signature(method).parameters.values())[1:]:
        if param.kind in (param.VAR_KEYWORD, param.VAR_POSITIONAL):
            continue
        value = _sample(param.name, hints.get(param.name))
        if param.kind == param.KEYWORD_ONLY:
            kwargs[param.name] = value
        else:
            args.append(value)
    return args, kwargs


def _template_regex(path: str) -> re.Pattern[str]:
    return re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", path) + "$")


@pytest.mark.parametrize("operation", sorted(OPERATIONS))
def test_each_method_sends_its_operation_with_fields_the_schema_accepts(schema, operation):
    client = MnemoClient("http://mnemo.invalid", "key", transport=httpx2.MockTransport(_record), max_retries=0)
    method = getattr(MnemoClient, operation)
    args, kwargs = _full_call(method)
    with pytest.raises(Recorded) as caught:
        method(client, *args, **kwargs)
    request = caught.value.request
    http_method, path = OPERATIONS[operation]
    op = _operations(schema)[(http_method, path)]
    assert request.method == http_method
    assert _template_regex(path).match(request.url.path), (request.url.path, path)
    assert request.headers["Authorization"] == "Token key"
    sent_body = set(json.loads(request.content)) if request.content else set()
    assert sent_body <= _body_fields(schema, op), f"{operation} sends fields the API does not declare"
    assert set(request.url.params) <= _query_fields(op), f"{operation} sends query parameters the API does not declare"
    if kwargs and op.get("requestBody"):
        # The sample filled every named parameter: the body must carry them (none silently dropped).
        assert sent_body, f"{operation} sent no body"


def test_search_text_asks_for_the_text_format(schema):
    client = MnemoClient("http://mnemo.invalid", "key", transport=httpx2.MockTransport(_record), max_retries=0)
    with pytest.raises(Recorded) as caught:
        client.search_text("meetings", namespace="user:ann", limit=3, mode="hybrid")
    body = json.loads(caught.value.request.content)
    assert body == {"query": "meetings", "namespace": "user:ann", "limit": 3, "mode": "hybrid", "format": "text"}
    assert set(body) <= _body_fields(schema, _operations(schema)[OPERATIONS["search"]])


def test_the_async_client_sends_the_same_requests():
    async def record(request: httpx2.Request) -> httpx2.Response:
        raise Recorded(request)

    async def scenario() -> list[tuple[str, str, bytes]]:
        sent = []
        async with AsyncMnemoClient(
            "http://mnemo.invalid", "key", transport=httpx2.MockTransport(record), max_retries=0
        ) as client:
            for operation in sorted(OPERATIONS):
                method = getattr(AsyncMnemoClient, operation)
                args, kwargs = _full_call(method)
                try:
                    await method(client, *args, **kwargs)
                except Recorded as exc:
                    sent.append((exc.request.method, str(exc.request.url), exc.request.content))
        return sent

    expected = []
    sync = MnemoClient("http://mnemo.invalid", "key", transport=httpx2.MockTransport(_record), max_retries=0)
    for operation in sorted(OPERATIONS):
        method = getattr(MnemoClient, operation)
        args, kwargs = _full_call(method)
        try:
            method(sync, *args, **kwargs)
        except Recorded as exc:
            expected.append((exc.request.method, str(exc.request.url), exc.request.content))
    assert asyncio.run(scenario()) == expected
    assert len(expected) == len(OPERATIONS)


def test_the_generated_async_operations_are_current_and_match_the_sync_signatures():
    script = Path(mnemo_client.__file__).resolve().parent.parent / "scripts" / "generate_async.py"
    result = subprocess.run([sys.executable, str(script), "--check"], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    for name in [*OPERATIONS, *sorted(HELPERS - {"close"})]:
        sync, async_ = getattr(MnemoClient, name), getattr(AsyncMnemoClient, name)
        assert inspect.signature(sync).parameters == inspect.signature(async_).parameters, name
        assert inspect.iscoroutinefunction(async_) or inspect.isasyncgenfunction(async_), name


def test_the_client_package_is_the_one_in_this_repository():
    """The tests exercise this tree's client (tests/conftest.py puts it first on the path), not
    whatever copy is installed."""
    assert Path(mnemo_client.__file__).resolve().is_relative_to(CLIENT_ROOT)


# --- the other way: everything the schema declares is named and typed in the client -----------

#: JSON names that are not Python names: the parameter that sends each.
PARAMETER_NAMES: dict[tuple[str, str], str] = {("add_memory", "async"): "async_"}

#: Request fields deliberately left to a method's ``**extra``/``**fields``, each with why. Anything
#: else the schema declares must be a named parameter, so a field the API gains fails here until
#: the client names it (or says here why it does not).
LEFT_TO_EXTRA: dict[str, dict[str, str]] = {
    # search_text sends format "text" and answers the string; search always answers results.
    "search": {"format": "set by search_text, which answers the text form"},
    # Partial updates of a contact and a rule: any field, as given (a contact's None clears it).
    # Their fields are the create call's, which are named (create_contact, create_rule).
    "update_contact": dict.fromkeys(
        ["address", "company", "custom_fields", "email", "name", "phone", "tags", "timezone", "title"],
        "a partial update of create_contact's fields, passed as **fields",
    ),
    "update_rule": dict.fromkeys(
        ["binds_everyone", "id", "priority", "rule", "source", "tags", "tool_name"],
        "a partial update of create_rule's fields, passed as **fields",
    ),
}

#: The main result schemas and the dataclass each is parsed into.
RESULT_MODELS: dict[str, type[mnemo_client.models.Model]] = {
    "MemoryOutput": mnemo_client.Memory,
    "SearchResultOutput": mnemo_client.SearchResult,
    "RememberOutput": mnemo_client.RememberResult,
    "SupersedesOutput": mnemo_client.Supersession,
    "AddMemoryOutput": mnemo_client.AddMemoryResult,
}

#: Response properties deliberately left untyped (read through ``extra``/``result["..."]``), each with why.
LEFT_UNTYPED: dict[str, dict[str, str]] = {}


def _named_parameters(method: Any) -> set[str]:
    kinds = (inspect.Parameter.VAR_KEYWORD, inspect.Parameter.VAR_POSITIONAL)
    return {p.name for p in list(inspect.signature(method).parameters.values())[1:] if p.kind not in kinds}


@pytest.mark.parametrize("operation", sorted(OPERATIONS))
def test_every_field_the_schema_declares_is_a_named_parameter(schema, operation):
    op = _operations(schema)[OPERATIONS[operation]]
    declared = _body_fields(schema, op) | _query_fields(op)
    named = _named_parameters(getattr(MnemoClient, operation))
    left = LEFT_TO_EXTRA.get(operation, {})
    missing = {f for f in declared - set(left) if PARAMETER_NAMES.get((operation, f), f) not in named}
    assert missing == set(), f"{operation}: fields the API takes that the client only passes through **extra"
    assert set(left) <= declared, f"{operation}: allow-listed fields the API no longer declares"


def test_search_text_names_every_parameter_of_search():
    assert _named_parameters(MnemoClient.search_text) == _named_parameters(MnemoClient.search)


@pytest.mark.parametrize("component", sorted(RESULT_MODELS))
def test_every_property_of_the_main_results_is_a_typed_field(schema, component):
    model = RESULT_MODELS[component]
    typed = {f.metadata.get("key", f.name): f for f in dataclasses.fields(model) if f.name not in ("raw", "extra")}
    properties = schema["components"]["schemas"][component]["properties"]
    left = LEFT_UNTYPED.get(component, {})
    missing = set(properties) - set(left) - set(typed)
    assert missing == set(), f"{model.__name__} keeps {sorted(missing)} of {component} in `extra` only"
    for name, spec in properties.items():
        if spec.get("format") == "date-time" and name in typed:
            # A timestamp is a timezone-aware datetime, as every other one of the client's.
            assert typed[name].metadata.get("conv") is mnemo_client.models.parse_datetime, f"{component}.{name}"


def test_update_memory_sends_only_the_given_fields_and_none_as_null():
    client = MnemoClient("http://mnemo.invalid", "key", transport=httpx2.MockTransport(_record), max_retries=0)
    sent = []
    for kwargs in ({"tags": ("a", "b")}, {"valid_until": None, "valid_from": "2021-03-01T00:00:00Z"}):
        with pytest.raises(Recorded) as caught:
            client.update_memory(7, **kwargs)
        sent.append(json.loads(caught.value.request.content))
    assert sent == [{"tags": ["a", "b"]}, {"valid_until": None, "valid_from": "2021-03-01T00:00:00Z"}]
