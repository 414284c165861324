"""The ASGI → WSGI bridge Django is served through (config/asgi.py): a2wsgi, with fewer hops
between the event loop and the request's thread.

a2wsgi hands every piece of a request across threads and waits for each: the body read (the
thread asks the loop for it), the response's start, each body chunk and the final empty chunk,
then the call's own end: five round trips through the loop's wake-up pipe. Measured on one web
worker (bench/web_layers.py), that bridge cost 0.38 ms of CPU per request against uvicorn
answering by itself, more than DRF's validation of a search. Here a request whose body is sent
with a Content-Length of at most ``PREREAD_LIMIT`` is read on the loop before the thread starts,
and a response Django has in hand (an ``HttpResponse``, ``streaming`` false) is collected in the
thread and sent by the loop afterwards: one round trip. Everything else goes a2wsgi's own way,
unchanged: a chunked or larger body is read as the view reads it, a streaming response
(``FileResponse``, ``StreamingHttpResponse``: static files, exports) is sent chunk by chunk.

The messages sent are a2wsgi's: the same status and headers (names stripped, lower-cased, Latin-1),
then the content; an exception (or ``exc_info`` given to ``start_response``) goes up as there.
The one difference: the response's bytes leave after the WSGI iterable is closed (Django's
``request_finished``, which returns the database connection to the pool), not before.
"""

from __future__ import annotations

import contextvars
from typing import Any

from a2wsgi import WSGIMiddleware
from a2wsgi.wsgi import Body, WSGIResponder, build_environ

#: Request bodies up to this size (bytes, with a Content-Length) are read before the view runs.
PREREAD_LIMIT = 1 << 20


def _content_length(scope: dict[str, Any]) -> int | None:
    """The request's Content-Length; None when it has none (no body) or is chunked."""
    length = None
    for name, value in scope.get("headers", ()):
        if name == b"transfer-encoding":
            return -1
        if name == b"content-length":
            try:
                length = int(value)
            except ValueError:
                return -1
    return length


class BridgeMiddleware(WSGIMiddleware):
    """a2wsgi's WSGIMiddleware, whose HTTP requests go through :class:`_Responder`."""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            responder = _Responder(self.app, self.executor, self.send_queue_size)
            return await responder(scope, receive, send)
        return await super().__call__(scope, receive, send)


class _Responder(WSGIResponder):
    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        length = _content_length(scope)
        if length is not None and not 0 <= length <= PREREAD_LIMIT:
            return await super().__call__(scope, receive, send)  # chunked or large: a2wsgi's way
        body = Body(self.loop, receive)
        if length:  # read on the loop, as Body would have asked for it (a disconnect ends it too)
            while body._has_more:
                message = await receive()
                body._has_more = message.get("more_body", False)
                body.buffer.extend(message.get("body", b""))
        else:
            body._has_more = False
        environ = build_environ(scope, body)
        sender = None
        try:
            sender = self.loop.create_task(self.sender(send))
            context = contextvars.copy_context()
            collected = await self.loop.run_in_executor(self.executor, context.run, self._collect, environ)
            for message in collected:
                await self.send_queue.put(message)
            await self.send_queue.put(None)
            await sender
            if self.exc_info is not None:
                raise self.exc_info[0].with_traceback(self.exc_info[1], self.exc_info[2])
        finally:
            if sender and not sender.done():
                sender.cancel()

    def _collect(self, environ: Any) -> list[dict[str, Any]]:
        """Runs in the request's thread: the whole response as messages when the app returned
        a response it holds in full; otherwise sends it as a2wsgi does and returns nothing."""
        held: list[dict[str, Any]] = []
        self._held: list[dict[str, Any]] | None = held
        iterable = self.app(environ, self.start_response)
        try:
            if getattr(iterable, "streaming", None) is False:
                content = b"".join(iterable)
                held.append({"type": "http.response.body", "body": content})
                return held
            self._release()
            for chunk in iterable:
                self.send({"type": "http.response.body", "body": chunk, "more_body": True})
            self.send({"type": "http.response.body", "body": b""})
            return []
        finally:
            getattr(iterable, "close", lambda: None)()

    def _release(self) -> None:
        """From now on messages go out as they come (what was held first)."""
        held, self._held = self._held, None
        for message in held or ():
            super().send(message)  # type: ignore[arg-type]

    def send(self, message: Any) -> None:
        held = getattr(self, "_held", None)
        if held is not None and message is not None:
            held.append(message)  # start_response's start, or a write() before the content
        else:
            super().send(message)
