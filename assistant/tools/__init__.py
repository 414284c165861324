"""Every tool the gateway knows, in the order agents see them."""

from assistant.tools import contacts, memory, rules
from assistant.tools.base import Tool, ToolResult

ALL_TOOLS: dict[str, Tool] = {tool.name: tool for tool in [*contacts.TOOLS, *memory.TOOLS, *rules.TOOLS]}

__all__ = ["ALL_TOOLS", "Tool", "ToolResult"]
