"""What the sync and async clients share: the operation table, configuration, how a call is
built and answered, and the retry policy."""

from __future__ import annotations

import enum
import json
import os
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Final, Generic, TypeVar
from urllib.parse import quote

import httpx2 as httpx

from mnemo_client._version import __version__
from mnemo_client.errors import ConfigurationError, MnemoError, error_from_response, parse_retry_after

T = TypeVar("T")

DEFAULT_URL = "http://127.0.0.1:8000"

#: Every operation of Mnemo's API under /api/v1/, by the client method that calls it. The suite
#: checks this table against the OpenAPI schema both ways (tests/clients/test_spec_drift.py): an
#: operation the server gains without a client method, or a method whose route is gone, fails it.
OPERATIONS: dict[str, tuple[str, str]] = {
    # memories
    "whoami": ("GET", "/api/v1/whoami"),
    "remember": ("POST", "/api/v1/memories/remember"),
    "add_memory": ("POST", "/api/v1/memories"),
    "list_memories": ("GET", "/api/v1/memories"),
    "search": ("POST", "/api/v1/memories/search"),
    "get_event": ("GET", "/api/v1/memories/events/{event_id}"),
    "get_memory": ("GET", "/api/v1/memories/{memory_id}"),
    "update_memory": ("PATCH", "/api/v1/memories/{memory_id}"),
    "delete_memory": ("DELETE", "/api/v1/memories/{memory_id}"),
    "forget": ("POST", "/api/v1/memories/{memory_id}/forget"),
    "correct": ("POST", "/api/v1/memories/{memory_id}/correct"),
    "confirm": ("POST", "/api/v1/memories/{memory_id}/confirm"),
    "history": ("GET", "/api/v1/memories/{memory_id}/history"),
    "list_namespaces": ("GET", "/api/v1/namespaces"),
    # contacts
    "list_contacts": ("GET", "/api/v1/contacts"),
    "create_contact": ("POST", "/api/v1/contacts"),
    "get_contact": ("GET", "/api/v1/contacts/{contact_id}"),
    "update_contact": ("PATCH", "/api/v1/contacts/{contact_id}"),
    "delete_contact": ("DELETE", "/api/v1/contacts/{contact_id}"),
    "list_contact_notes": ("GET", "/api/v1/contacts/{contact_id}/notes"),
    "add_contact_note": ("POST", "/api/v1/contacts/{contact_id}/notes"),
    "list_contact_messages": ("GET", "/api/v1/contacts/{contact_id}/messages"),
    "get_contact_memory": ("GET", "/api/v1/contacts/{contact_id}/memory"),
    "set_contact_memory": ("PUT", "/api/v1/contacts/{contact_id}/memory"),
    # assistant
    "list_tools": ("GET", "/api/v1/assistant/tools"),
    "invoke_tool": ("POST", "/api/v1/assistant/tools/{name}/invoke"),
    "session": ("POST", "/api/v1/assistant/session"),
    "post_turn": ("POST", "/api/v1/assistant/turns"),
    # tool rules
    "list_rules": ("GET", "/api/v1/tool-rules"),
    "create_rule": ("POST", "/api/v1/tool-rules"),
    "get_rule": ("GET", "/api/v1/tool-rules/{rule_id}"),
    "update_rule": ("PUT", "/api/v1/tool-rules/{rule_id}"),
    "delete_rule": ("DELETE", "/api/v1/tool-rules/{rule_id}"),
    "rules_prompt": ("GET", "/api/v1/tool-rules/prompt"),
    "rule_statistics": ("GET", "/api/v1/tool-rules/statistics"),
    # tokens
    "list_tokens": ("GET", "/api/v1/tokens"),
    "create_token": ("POST", "/api/v1/tokens"),
    "revoke_token": ("DELETE", "/api/v1/tokens/{token_id}"),
}

#: Public methods that are not one operation but built on them (checked by the drift test too).
HELPERS = frozenset({"search_text", "iter_memories", "iter_contacts", "wait_for_event", "close"})

#: Answers worth another try of a call that is safe to repeat: rate limited, and the gateway or
#: the server unavailable (Mnemo answers 503 for EMBEDDING_ERROR and DATABASE_ERROR: nothing changed).
RETRY_STATUSES = frozenset({429, 502, 503, 504})

#: Methods safe to repeat by HTTP's definition. PATCH is not among them: each update of a
#: memory is an event in its history (a repeat would record two).
_IDEMPOTENT_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})


def jsonable(value: Any) -> Any:
    """Request values as JSON: datetimes and dates in ISO 8601, containers walked."""
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [jsonable(v) for v in value]
    return value


def query_value(value: Any) -> str:
    """A query parameter's text: booleans as ``true``/``false`` (what the API's strict filters accept)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime | date):
        return value.isoformat()
    return str(value)


def compact(**values: Any) -> dict[str, Any]:
    """The fields that were given (``None`` means "not sent": the server's default applies)."""
    return {k: v for k, v in values.items() if v is not None}


class _Unset(enum.Enum):
    """A PATCH parameter that was not given (``None`` is sent: it clears the field). One object
    for the sync and async operations, so their signatures are equal."""

    UNSET = "UNSET"

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Final = _Unset.UNSET


def _given(**values: Any) -> dict[str, Any]:
    """A PATCH's body: the parameters that were given, ``None`` included (JSON null clears)."""
    return {k: v for k, v in values.items() if v is not UNSET}


@dataclass(frozen=True)
class Call(Generic[T]):
    """One API call: its operation (a key of ``OPERATIONS``), path parameters, body, query and
    how the answer becomes a result. ``idempotent`` overrides the method's own safety for a POST
    that is safe to repeat by nature (a search; a turn, which the server replays)."""

    operation: str
    parse: Callable[[Any], T]
    path: Mapping[str, Any] = field(default_factory=dict)
    body: Mapping[str, Any] | None = None
    params: Mapping[str, Any] | None = None
    idempotent: bool | None = None

    @property
    def method(self) -> str:
        return OPERATIONS[self.operation][0]

    @property
    def url(self) -> str:
        template = OPERATIONS[self.operation][1]
        return template.format(**{k: quote(str(v), safe="") for k, v in self.path.items()})

    @property
    def retryable(self) -> bool:
        if self.idempotent is not None:
            return self.idempotent
        return self.method in _IDEMPOTENT_METHODS

    def request_kwargs(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = {}
        if self.body is not None:
            kwargs["content"] = json.dumps(jsonable(self.body)).encode()
            kwargs["headers"] = {"Content-Type": "application/json"}
        if self.params:
            kwargs["params"] = {k: query_value(v) for k, v in self.params.items() if v is not None}
        return kwargs


@dataclass(frozen=True)
class RetryPolicy:
    """Exponential backoff with full jitter: try ``n`` waits a random time up to
    ``min(max_backoff, backoff * 2**n)``; a ``Retry-After`` answer is waited out as asked (up to
    ``max_retry_after`` seconds; a longer wait is not retried but raised)."""

    max_retries: int = 3
    backoff: float = 0.5
    max_backoff: float = 8.0
    max_retry_after: float = 60.0

    def delay(self, attempt: int, response: httpx.Response | None) -> float | None:
        """Seconds to wait before the next try, or ``None`` when the answer should be raised."""
        if response is not None:
            retry_after = parse_retry_after(response.headers.get("retry-after"))
            if retry_after is not None:
                return retry_after if retry_after <= self.max_retry_after else None
        return random.uniform(0, min(self.max_backoff, self.backoff * (2**attempt)))  # noqa: S311 (jitter, not crypto)


def resolve_config(base_url: str | None, token: str | None) -> tuple[str, str]:
    """The server's URL (argument, ``MNEMO_URL``, or the local default) and the API token
    (argument or ``MNEMO_TOKEN``; a clear error when neither is set)."""
    url = base_url or os.environ.get("MNEMO_URL") or DEFAULT_URL
    key = token or os.environ.get("MNEMO_TOKEN")
    if not key:
        raise ConfigurationError(
            "No Mnemo API token: pass token=... or set MNEMO_TOKEN (make one in the admin, "
            "or with POST /api/v1/tokens).",
        )
    return url.rstrip("/"), key


def default_headers(token: str) -> dict[str, str]:
    return {
        "Authorization": f"Token {token}",
        "Accept": "application/json",
        "User-Agent": f"mnemo-client/{__version__}",
    }


def answer(response: httpx.Response, call: Call[T]) -> T:
    """The call's result, or the typed exception of an error answer."""
    body: Any = None
    if response.content:
        try:
            body = response.json()
        except ValueError:
            body = None
    if response.status_code >= 400:
        raise error_from_response(response.status_code, body, response.headers)
    if response.content and body is None:
        raise MnemoError(
            f"The answer to {call.method} {call.url} is not JSON.",
            code="INVALID_RESPONSE",
            status_code=response.status_code,
        )
    return call.parse(body)


def page_params(next_url: str | None) -> dict[str, str] | None:
    """The query of a ``next`` page link (followed on the client's own base URL, so a server
    behind a proxy that builds links with its inner host still pages correctly)."""
    if not next_url:
        return None
    return dict(httpx.URL(next_url).params)
