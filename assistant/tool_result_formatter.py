"""One-line summaries of tool results, by the tool's class (seed 000's result formatter).

Detail tools say what they loaded and its state, never the body ("Tool get_contact_memory loaded
contact memory for Jane Doe: has memory, updated 2026-04-02 09:00 UTC."), which keeps
conversation history compact. List tools say how many items. Action tools say what they did.
"""

from __future__ import annotations

from assistant.tools.base import Tool, ToolResult


def summarize(tool: Tool, result: ToolResult) -> str:
    if tool.tool_class == "detail":
        about = f" for {result.label}" if result.label else ""
        state = f": {result.state}" if result.state else ""
        return f"Tool {tool.name} loaded {tool.noun}{about}{state}."
    if tool.tool_class == "list":
        count = result.count or 0
        about = f" for {result.label}" if result.label else ""
        noun = tool.noun if count != 1 else tool.noun.rstrip("s").replace("memorie", "memory")
        return f"Tool {tool.name} loaded {count} {noun}{about}."
    return f"Tool {tool.name} {result.did or 'completed'}."
