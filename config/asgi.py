"""ASGI entry point (gunicorn with uvicorn workers, or uvicorn): ``/mcp`` is the MCP entrance
(``assistant.mcp.http``), everything else is Django.

Django's ASGI handler does not speak the lifespan protocol, so it is answered here: startup
starts the MCP SDK's session manager, shutdown stops it. A server that sends no lifespan
events still works: the MCP app starts its manager on its first request.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
django_application = get_asgi_application()  # sets Django up before the MCP app is imported

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
