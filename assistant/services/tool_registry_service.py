"""Which tools a caller gets: each tool's registration predicate over the caller's permissions."""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser

from assistant.tools import ALL_TOOLS, Tool
from core.errors import Forbidden, NotFound


def tools_for(user: AbstractUser) -> list[Tool]:
    """The tools registered for ``user``, in a stable order."""
    return [tool for tool in ALL_TOOLS.values() if tool.is_available(user)]


def tool_for(user: AbstractUser, name: str) -> Tool:
    """The tool ``name`` if it is registered for ``user``."""
    tool = ALL_TOOLS.get(name)
    if tool is None:
        raise NotFound(f"There is no tool named {name!r}.")
    if not tool.is_available(user):
        raise Forbidden(f"Tool {name!r} is not available to you.")
    return tool
