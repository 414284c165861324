"""config.asgi's application with three floors in front, for bench/web_layers.py: ``/_floor/asgi``
answers from the ASGI server itself, ``/_floor/wsgi`` from a bare WSGI app behind a2wsgi as it
comes, ``/_floor/bridge`` from the same app behind config.wsgi_bridge (Django's bridge), answering
as Django's HttpResponse does (content held whole). Never served by ``make run``."""

from a2wsgi import WSGIMiddleware

from config.asgi import application as mnemo_application
from config.wsgi_bridge import BridgeMiddleware

_BODY = b'{"ok":true}'


def _bare_wsgi(environ, start_response):
    start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(_BODY)))])
    return [_BODY]


class _Held(list):
    streaming = False


def _held_wsgi(environ, start_response):
    start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(_BODY)))])
    return _Held([_BODY])


_a2wsgi = WSGIMiddleware(_bare_wsgi, workers=4)
_bridge = BridgeMiddleware(_held_wsgi, workers=4)


async def application(scope, receive, send) -> None:
    path = scope.get("path", "") if scope["type"] == "http" else ""
    if path == "/_floor/asgi":
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": _BODY})
    elif path == "/_floor/wsgi":
        await _a2wsgi(scope, receive, send)
    elif path == "/_floor/bridge":
        await _bridge(scope, receive, send)
    else:
        await mnemo_application(scope, receive, send)
