"""config.wsgi_bridge against a2wsgi itself: the same ASGI messages for the same WSGI app, with
the request body read before the view for a sized body and the response sent in one go when
Django holds it whole (no server started: the bridge is driven with ASGI messages)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from a2wsgi import WSGIMiddleware

from config.wsgi_bridge import BridgeMiddleware


class Held(list):
    """Like Django's HttpResponse for WSGI: an iterable of its content that says it is not streaming."""

    streaming = False
    closed = False

    def close(self) -> None:
        self.closed = True


def app_for(response_type: type, seen: list[bytes]):
    def app(environ: dict[str, Any], start_response):
        seen.append(environ["wsgi.input"].read())
        write = start_response("201 Created", [("Content-Type", "application/json"), (" X-Thing ", " v ")])
        write(b"early,")
        return response_type([b'{"a":', b"1}"])

    return app


def drive(middleware_class: type, app, body_messages: list[dict[str, Any]], headers: list) -> list[dict[str, Any]]:
    async def run() -> list[dict[str, Any]]:
        middleware = middleware_class(app, workers=2)
        incoming = list(body_messages)
        sent: list[dict[str, Any]] = []

        async def receive() -> dict[str, Any]:
            return incoming.pop(0) if incoming else {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        scope = {
            "type": "http",
            "http_version": "1.1",
            "method": "POST",
            "path": "/x",
            "raw_path": b"/x",
            "root_path": "",
            "scheme": "http",
            "query_string": b"",
            "headers": headers,
            "client": ("127.0.0.1", 1),
            "server": ("127.0.0.1", 8000),
        }
        await middleware(scope, receive, send)
        middleware.executor.shutdown()
        return sent

    return asyncio.run(run())


@pytest.mark.parametrize("response_type", [Held, list], ids=["held whole", "streamed"])
@pytest.mark.parametrize(
    "body_messages, headers",
    [
        (
            [{"type": "http.request", "body": b"abc", "more_body": True}, {"type": "http.request", "body": b"de"}],
            [(b"content-length", b"5")],
        ),
        (
            [{"type": "http.request", "body": b"abc", "more_body": True}, {"type": "http.request", "body": b"de"}],
            [(b"transfer-encoding", b"chunked")],
        ),
        ([{"type": "http.request", "body": b""}], []),
        ([{"type": "http.request", "body": b"ab", "more_body": True}], [(b"content-length", b"5")]),  # disconnect
    ],
    ids=["sized", "chunked", "no body", "client gone"],
)
def test_the_bridge_sends_what_a2wsgi_sends(response_type, body_messages, headers):
    seen_a2wsgi: list[bytes] = []
    seen_bridge: list[bytes] = []
    expected = drive(WSGIMiddleware, app_for(response_type, seen_a2wsgi), body_messages, headers)
    got = drive(BridgeMiddleware, app_for(response_type, seen_bridge), body_messages, headers)
    assert seen_bridge == seen_a2wsgi
    assert (
        got[0]
        == expected[0]
        == {
            "type": "http.response.start",
            "status": 201,
            "headers": [(b"content-type", b"application/json"), (b"x-thing", b"v")],
        }
    )
    joined = lambda messages: b"".join(m["body"] for m in messages[1:])  # noqa: E731
    assert joined(got) == joined(expected) == b'early,{"a":1}'
    assert got[-1].get("more_body", False) is False
    if response_type is Held and (b"transfer-encoding", b"chunked") not in headers:
        assert len(got) == 3  # start, the write() before the content, the content: sent in one go
    else:
        assert len(got) == len(expected)  # a2wsgi's way: chunk by chunk


def test_an_exception_in_the_app_goes_up_as_with_a2wsgi():
    def app(environ, start_response):
        raise RuntimeError("boom")

    for middleware_class in (WSGIMiddleware, BridgeMiddleware):
        with pytest.raises(RuntimeError, match="boom"):
            drive(middleware_class, app, [{"type": "http.request", "body": b""}], [])
