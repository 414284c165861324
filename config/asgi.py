"""ASGI entry point (gunicorn with uvicorn workers, or uvicorn): ``/mcp`` is the MCP entrance
(``assistant.mcp.http``), everything else is Django.

Django itself runs behind a WSGI adapter (a2wsgi: below, why), which does not speak the
lifespan protocol, so it is answered here: startup starts the MCP SDK's session manager,
shutdown stops it. A server that sends no lifespan events still works: the MCP app starts its
manager on its first request.
"""

import os

from django.core.wsgi import get_wsgi_application

from config.wsgi_bridge import BridgeMiddleware

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
# Django is served through its WSGI handler, each request in one of this process's threads
# (MNEMO_WEB_THREADS). Django's own ASGI handler runs the same sync views and middleware with
# three or four hops between the event loop and its thread per request (the middleware chain,
# the view, the request signals): measured on search at 100k memories, 3 to 5 ms more per request
# at concurrency 1 and a third less throughput at concurrency 8 (docs/benchmarks.md). The bridge is
# a2wsgi with one hop per request instead of five (config/wsgi_bridge.py).
django_application = BridgeMiddleware(
    get_wsgi_application(),  # sets Django up before the MCP app is imported
    workers=int(os.environ.get("MNEMO_WEB_THREADS") or 4),
)

from assistant.mcp.http import MCP_PATH, METADATA_PATH, McpHttpApp  # noqa: E402

mcp_application = McpHttpApp()
MCP_METADATA_PATHS = {METADATA_PATH, f"{METADATA_PATH}{MCP_PATH}"}


async def _lifespan(receive, send) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            try:
                await mcp_application.startup()
            except Exception as exc:  # report it; the server decides whether to go on
                await send({"type": "lifespan.startup.failed", "message": repr(exc)})
                return
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await mcp_application.shutdown()
            await send({"type": "lifespan.shutdown.complete"})
            return


async def application(scope, receive, send) -> None:
    if scope["type"] == "lifespan":
        await _lifespan(receive, send)
        return
    path = scope.get("path", "")
    if scope["type"] == "http" and path in (MCP_PATH, f"{MCP_PATH}/"):
        await mcp_application(scope, receive, send)
    elif scope["type"] == "http" and path in MCP_METADATA_PATHS:
        await mcp_application.protected_resource_metadata(scope, receive, send)
    else:
        await django_application(scope, receive, send)
