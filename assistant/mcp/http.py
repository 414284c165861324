"""``/mcp``: the MCP streamable HTTP endpoint, as an ASGI app in front of the SDK's transport.

Several worker processes serve one port, and a client's next request may land on any of them,
so no MCP state lives in a process:

- the SDK's transport runs **stateless** (a fresh transport per request, JSON responses);
- this app issues the ``Mcp-Session-Id`` itself when ``initialize`` succeeds: it is the id of a
  session of the session service (``AssistantSession``, in the database), owned by the caller;
  every later request must carry it, and it is checked against the database (missing: 400;
  unknown or someone else's: 404, as the spec says), so any process can serve it and the prompt
  stays frozen per MCP session exactly as a REST session's;
- the stateless 2026-07-28 protocol revision (no handshake, no session) goes straight to the
  SDK, authenticated the same way.

In front of the SDK, in this order: Host and Origin checks against DNS rebinding (421 / 403),
the caller's API token (``Authorization: Bearer <token>`` or ``Token <token>``; otherwise 401
with ``WWW-Authenticate: Bearer resource_metadata=…`` as the MCP authorization spec asks), the
body size limit (413). There is no server-to-client stream: GET and DELETE answer 405, which the
spec allows.

The SDK's session manager needs a running task group: ``startup()`` / ``shutdown()`` are called
from the ASGI lifespan (``config.asgi``), and a server that sends no lifespan events gets it
started on the first request instead.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from django.conf import settings
from django.http.request import split_domain_port, validate_host
from mcp.server.lowlevel import Server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

from assistant.mcp import entrance
from assistant.mcp.server import SESSION_SCOPE_KEY, USER_SCOPE_KEY, build_server, db
from core.errors import RateLimited, error_body

logger = logging.getLogger(__name__)

MCP_PATH = "/mcp"
METADATA_PATH = "/.well-known/oauth-protected-resource"
SESSION_HEADER = b"mcp-session-id"
PROTOCOL_HEADER = b"mcp-protocol-version"

Scope = dict[str, Any]


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin-1")
    return None


async def _respond(send: Any, status: int, body: dict[str, Any], headers: list[tuple[bytes, bytes]] = ()) -> None:
    payload = json.dumps(body).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(payload)).encode()),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": payload})


def _rpc_error(code: str, message: str, rpc_code: int = -32600) -> dict[str, Any]:
    """A JSON-RPC error body (no id) that carries Mnemo's code and envelope too: the MCP client
    surfaces its message; a plain HTTP client reads the envelope in ``data``."""
    return {
        "jsonrpc": "2.0",
        "id": None,
        "error": {"code": rpc_code, "message": f"{code}: {message}", "data": error_body(code, message)},
    }


def allowed_hosts() -> list[str]:
    return settings.MNEMO_MCP_ALLOWED_HOSTS or settings.ALLOWED_HOSTS


def _base_url(scope: Scope) -> str | None:
    """Where clients reach this server: ``MNEMO_PUBLIC_URL``, else the request's scheme and Host
    when the Host is an allowed one. None for any other Host: a URL built from it would send a
    client that follows it wherever the request said (it is never echoed)."""
    if settings.MNEMO_PUBLIC_URL:
        return settings.MNEMO_PUBLIC_URL
    host = _header(scope, b"host") or ""
    domain, _port = split_domain_port(host)
    if not domain or not validate_host(domain, allowed_hosts()):
        return None
    return f"{scope.get('scheme', 'http')}://{host}"


def origin_allowed(origin: str, allowed: list[str]) -> bool:
    """``origin`` is listed, or matches a ``scheme://host:*`` (any port) entry."""
    return any(origin == entry or (entry.endswith(":*") and origin.startswith(entry[:-1])) for entry in allowed)


class McpHttpApp:
    """The ASGI app mounted at ``/mcp`` (and the protected-resource metadata it points to)."""

    def __init__(self, server: Server | None = None) -> None:
        self.server = server or build_server()
        self._manager: StreamableHTTPSessionManager | None = None
        self._task: asyncio.Task | None = None
        self._ready: asyncio.Event | None = None
        self._stop: asyncio.Event | None = None
        self._lock: asyncio.Lock | None = None

    # --- the SDK's session manager: one task holds its task group ------------------------------

    async def startup(self) -> None:
        """Start the SDK's session manager (idempotent; also called lazily by the first request)."""
        if self._ready is not None and self._ready.is_set():
            return
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:
            if self._task is None:
                self._ready, self._stop = asyncio.Event(), asyncio.Event()
                self._task = asyncio.get_running_loop().create_task(self._run_manager(), name="mcp-session-manager")
        assert self._ready is not None
        ready = asyncio.ensure_future(self._ready.wait())
        done, _ = await asyncio.wait({ready, self._task}, return_when=asyncio.FIRST_COMPLETED)
        if ready not in done:
            ready.cancel()
            self._task.result()  # the manager failed to start: raise its error

    async def _run_manager(self) -> None:
        # A manager runs once; a new one per start (the SDK forbids reusing one).
        self._manager = StreamableHTTPSessionManager(
            app=self.server,
            json_response=True,
            stateless=True,
            # Host and Origin are checked in __call__ (before authentication); the SDK still
            # checks the content type.
            security_settings=TransportSecuritySettings(enable_dns_rebinding_protection=False),
            max_request_body_size=settings.MNEMO_MCP_MAX_BODY_BYTES,
        )
        async with self._manager.run():
            assert self._ready is not None and self._stop is not None
            self._ready.set()
            await self._stop.wait()

    async def shutdown(self) -> None:
        if self._task is None:
            return
        assert self._stop is not None
        self._stop.set()
        try:
            await self._task
        finally:
            self._task = self._manager = None
            self._ready = self._stop = None

    # --- requests -----------------------------------------------------------------------------

    def _check_host_and_origin(self, scope: Scope) -> tuple[int, str] | None:
        if not settings.MNEMO_MCP_DNS_REBINDING_PROTECTION:
            return None
        host = _header(scope, b"host") or ""
        domain, _port = split_domain_port(host)
        if not domain or not validate_host(domain, allowed_hosts()):
            return 421, f"Host {host!r} is not allowed."
        origin = _header(scope, b"origin")
        if origin is not None and not origin_allowed(origin, settings.MNEMO_MCP_ALLOWED_ORIGINS):
            return 403, f"Origin {origin!r} is not allowed."
        return None

    def _challenge(self, scope: Scope, *, invalid: bool) -> list[tuple[bytes, bytes]]:
        value = 'Bearer realm="mnemo"'
        base = _base_url(scope)
        if base is not None:  # behind an unknown Host (Host checks off), no URL at all
            value += f', resource_metadata="{base}{METADATA_PATH}{MCP_PATH}"'
        if invalid:
            value += ', error="invalid_token", error_description="The token is invalid or its user inactive."'
        return [(b"www-authenticate", value.encode())]

    async def protected_resource_metadata(self, scope: Scope, receive: Any, send: Any) -> None:
        """RFC 9728 metadata named by the 401 challenge: what this resource is, how to send a token
        (Mnemo's API tokens are issued by Mnemo; there is no OAuth authorization server)."""
        base = _base_url(scope)
        if base is None:
            message = "This Host is not one Mnemo answers to (MNEMO_MCP_ALLOWED_HOSTS, ALLOWED_HOSTS)."
            await _respond(send, 421, error_body("PERMISSION_DENIED", message))
            return
        await _respond(
            send,
            200,
            {
                "resource": f"{base}{MCP_PATH}",
                "resource_name": "Mnemo",
                "bearer_methods_supported": ["header"],
                "resource_documentation": f"{base}/api/docs/",
            },
        )

    async def _read_body(self, receive: Any) -> bytes | None:
        """The whole body, or None once it passes the size limit."""
        limit = settings.MNEMO_MCP_MAX_BODY_BYTES
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                break
            body.extend(message.get("body", b""))
            if len(body) > limit:
                return None
            if not message.get("more_body", False):
                break
        return bytes(body)

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        refused = self._check_host_and_origin(scope)
        if refused is not None:
            status, message = refused
            await _respond(send, status, _rpc_error("PERMISSION_DENIED", message))
            return

        authorization = _header(scope, b"authorization")
        try:
            user = await db(entrance.user_from_authorization, authorization) if authorization else None
        except RateLimited as exc:
            retry = [(b"retry-after", str(exc.retry_after).encode())]
            await _respond(send, 429, _rpc_error(exc.code, exc.message, -32029), retry)
            return
        if user is None:
            message = "Send your API token: Authorization: Bearer <token> (or Token <token>)."
            if authorization:
                message = "Invalid token."
            headers = self._challenge(scope, invalid=bool(authorization))
            await _respond(send, 401, _rpc_error("UNAUTHENTICATED", message, -32001), headers)
            return

        if scope["method"] != "POST":
            # No server-to-client stream (GET) and no client-ended sessions (DELETE): the spec
            # lets a server answer both with 405.
            await _respond(
                send,
                405,
                _rpc_error("METHOD_NOT_ALLOWED", f"{scope['method']} is not supported here; POST JSON-RPC messages."),
                [(b"allow", b"POST")],
            )
            return

        body = await self._read_body(receive)
        if body is None:
            await _respond(send, 413, _rpc_error("INVALID_INPUT", "The request body is too large."))
            return
        scope = {**scope, USER_SCOPE_KEY: user}
        send = await self._session_step(scope, body, user, send)
        if send is None:
            return

        sent = False

        async def replay() -> dict[str, Any]:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.startup()
        assert self._manager is not None
        await self._manager.handle_request(scope, replay, send)

    async def _session_step(self, scope: Scope, body: bytes, user: Any, send: Any) -> Any:
        """The ``Mcp-Session-Id`` part of a handshake-era request: issue one on a successful
        ``initialize``, require and check it on everything else. Returns the ``send`` to use, or
        None when the request was answered here."""
        version = _header(scope, PROTOCOL_HEADER)
        if version is not None and version not in HANDSHAKE_PROTOCOL_VERSIONS:
            return send  # the stateless 2026-07-28 revision (or an unknown one: the SDK answers)
        try:
            message = json.loads(body)
        except ValueError:
            return send  # the SDK answers a parse error
        if isinstance(message, dict) and message.get("method") == "initialize":
            return self._issue_session(send, user)

        session_id = _header(scope, SESSION_HEADER)
        if not session_id:
            await _respond(send, 400, _rpc_error("INVALID_INPUT", "Missing Mcp-Session-Id: initialize first."))
            return None
        if not await db(entrance.session_belongs_to, user, session_id):
            # Unknown, or another caller's: the same answer (the client starts a new session).
            await _respond(send, 404, _rpc_error("NOT_FOUND", "Session not found: initialize again.", -32001))
            return None
        scope[SESSION_SCOPE_KEY] = session_id
        return send

    @staticmethod
    def _issue_session(send: Any, user: Any) -> Any:
        async def send_with_session(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start" and message["status"] == 200:
                session_id = await db(entrance.open_session, user)
                message = {**message, "headers": [*message.get("headers", []), (SESSION_HEADER, session_id.encode())]}
            await send(message)

        return send_with_session
