"""The MCP entrance: Mnemo's gateway tools, session prompt and memory resources over the Model
Context Protocol (official ``mcp`` SDK), on streamable HTTP at ``/mcp`` and on stdio.

An entrance, not a door of its own: every tool call goes through
``assistant.services.invoke_tool_service.invoke_tool`` (registration, the input contract, tool
rules, the handler's own permission checks), the tool list is ``tools_for(user)``, the prompt is
the session service's. ``entrance`` holds those calls as plain synchronous functions (what a
permission harness calls); ``server`` wraps them for the SDK; ``http`` is the ASGI app.
"""
