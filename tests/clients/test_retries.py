"""Retries: only calls safe to repeat, on the answers worth repeating, with backoff.

A tiny HTTP server on a free loopback port answers from a script (503 then 200, ...) and counts
what it was sent; the client's sleeps are recorded instead of slept, so the waits it chose
(exponential with jitter, or Retry-After) are checked without timing anything.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import mnemo_client.client as client_module
import pytest
from mnemo_client import (
    AsyncMnemoClient,
    ConfigurationError,
    DatabaseError,
    MnemoClient,
    MnemoError,
    RateLimited,
    TransportError,
)

from tests.conftest import free_port

MEMORY = {"id": 7, "namespace": "user:ann", "text": "Ann likes tea", "created_at": "2026-11-01T10:00:00Z"}
UNAVAILABLE = (
    503,
    {},
    {"ok": False, "error": {"code": "DATABASE_ERROR", "message": "The database is unavailable; nothing was changed."}},
)


class Scripted:
    """Answers each request with the next scripted answer (the last one repeats)."""

    def __init__(self) -> None:
        self.script: list[tuple[int, dict[str, str], Any]] = []
        self.seen: list[tuple[str, str, dict[str, str]]] = []
        scripted = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                self.rfile.read(length)
                scripted.seen.append((self.command, self.path, dict(self.headers)))
                status, headers, body = scripted.script[min(len(scripted.seen), len(scripted.script)) - 1]
                data = b"" if body is None else json.dumps(body).encode()
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _answer

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def answers(self, *script: tuple[int, dict[str, str], Any]) -> None:
        self.script = list(script)
        self.seen.clear()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def server() -> Iterator[Scripted]:
    scripted = Scripted()
    yield scripted
    scripted.stop()


@pytest.fixture
def sleeps(monkeypatch) -> list[float]:
    """The client's waits, recorded instead of slept (sync and async)."""
    waits: list[float] = []

    async def async_sleep(seconds: float) -> None:
        waits.append(seconds)

    monkeypatch.setattr(client_module.time, "sleep", waits.append)
    monkeypatch.setattr(client_module.asyncio, "sleep", async_sleep)
    return waits


def test_a_read_is_retried_after_a_503_and_succeeds(server, sleeps):
    server.answers(UNAVAILABLE, UNAVAILABLE, (200, {}, MEMORY))
    with MnemoClient(server.url, "key", backoff=0.5) as mnemo:
        memory = mnemo.get_memory(7)
    assert memory.text == "Ann likes tea" and memory.id == 7
    assert [(m, p) for m, p, _ in server.seen] == [("GET", "/api/v1/memories/7")] * 3
    # Full jitter under an exponential cap: try n waits at most backoff * 2**n.
    assert len(sleeps) == 2 and 0 <= sleeps[0] <= 0.5 and 0 <= sleeps[1] <= 1.0


def test_retries_stop_after_max_retries_with_the_typed_error(server, sleeps):
    server.answers(UNAVAILABLE)
    with MnemoClient(server.url, "key", max_retries=2) as mnemo, pytest.raises(DatabaseError) as caught:
        mnemo.search("tea")
    assert len(server.seen) == 3  # the first try and two retries
    assert caught.value.status_code == 503 and caught.value.code == "DATABASE_ERROR"


def test_retry_after_is_honoured(server, sleeps):
    limited = {"ok": False, "error": {"code": "RATE_LIMITED", "message": "try again in 2 s."}}
    server.answers((429, {"Retry-After": "2"}, limited), (200, {}, {"ok": True, "results": []}))
    with MnemoClient(server.url, "key") as mnemo:
        assert mnemo.search("tea") == []
    assert sleeps == [2.0]


def test_a_rate_limit_that_outlasts_the_retries_is_raised_with_retry_after(server, sleeps):
    limited = {"ok": False, "error": {"code": "RATE_LIMITED", "message": "try again in 30 s."}}
    server.answers((429, {"Retry-After": "30"}, limited))
    with MnemoClient(server.url, "key", max_retries=1) as mnemo, pytest.raises(RateLimited) as caught:
        mnemo.list_namespaces()
    assert caught.value.retry_after == 30.0 and len(server.seen) == 2


def test_remember_and_add_memory_are_never_retried(server, sleeps):
    server.answers(UNAVAILABLE, (201, {}, {"ok": True, "memory_id": 1, "message": "Ok"}))
    with MnemoClient(server.url, "key", max_retries=5) as mnemo:
        with pytest.raises(DatabaseError):
            mnemo.remember("Ann likes tea")
        assert len(server.seen) == 1
        server.answers(UNAVAILABLE, (202, {}, {"ok": True, "id": 1, "event_id": "e", "status": "queued"}))
        with pytest.raises(DatabaseError):
            mnemo.add_memory("Ann likes tea")
        assert len(server.seen) == 1
    assert sleeps == []


def test_a_client_error_is_not_retried(server, sleeps):
    missing = {"ok": False, "error": {"code": "NOT_FOUND", "message": "Memory 7 not found."}}
    server.answers((404, {}, missing), (200, {}, MEMORY))
    with MnemoClient(server.url, "key") as mnemo, pytest.raises(MnemoError) as caught:
        mnemo.get_memory(7)
    assert caught.value.code == "NOT_FOUND" and len(server.seen) == 1


def test_post_turn_is_retried_since_the_server_replays_it(server, sleeps):
    turn = {"ok": True, "session_id": "s", "turn": "t", "replayed": True}
    server.answers(UNAVAILABLE, (200, {}, turn))
    with MnemoClient(server.url, "key") as mnemo:
        assert mnemo.post_turn("s", [{"role": "user", "content": "hi"}]).replayed is True
    assert len(server.seen) == 2


def test_an_unreachable_server_is_a_transport_error_after_the_retries(sleeps):
    url = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    with MnemoClient(url, "key", max_retries=2, timeout=2) as mnemo, pytest.raises(TransportError) as caught:
        mnemo.whoami()
    assert len(sleeps) == 2 and caught.value.status_code is None
    assert isinstance(caught.value, MnemoError) and caught.value.code == "TRANSPORT_ERROR"


def test_the_async_client_retries_reads_and_not_remember(server, sleeps):
    async def scenario() -> None:
        async with AsyncMnemoClient(server.url, "key") as mnemo:
            server.answers(UNAVAILABLE, (200, {}, MEMORY))
            assert (await mnemo.get_memory(7)).text == "Ann likes tea"
            assert len(server.seen) == 2
            server.answers(UNAVAILABLE, (201, {}, {"ok": True, "memory_id": 1, "message": "Ok"}))
            with pytest.raises(DatabaseError):
                await mnemo.remember("Ann likes tea")
            assert len(server.seen) == 1

    asyncio.run(scenario())
    assert len(sleeps) == 1


def test_token_and_url_come_from_the_environment(server, monkeypatch):
    server.answers((200, {}, {"ok": True, "username": "ann"}))
    monkeypatch.setenv("MNEMO_URL", server.url)
    monkeypatch.setenv("MNEMO_TOKEN", "env-key")
    with MnemoClient() as mnemo:
        assert mnemo.whoami().username == "ann"
    assert server.seen[0][2]["Authorization"] == "Token env-key"
    monkeypatch.delenv("MNEMO_TOKEN")
    with pytest.raises(ConfigurationError, match="MNEMO_TOKEN"):
        MnemoClient()


def test_an_error_without_the_envelope_is_still_typed(server, sleeps):
    server.answers((502, {}, None))
    with MnemoClient(server.url, "key", max_retries=0) as mnemo, pytest.raises(MnemoError) as caught:
        mnemo.whoami()
    assert caught.value.code == "HTTP_502" and caught.value.status_code == 502
