"""Running a tool for a caller: registered? arguments valid against its schema? then its handler."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractUser
from jsonschema import Draft202012Validator, FormatChecker
from jsonschema.exceptions import best_match

from assistant.services.tool_registry_service import tool_for
from assistant.tool_result_formatter import summarize
from config.exceptions import InvalidInput


def _defaults(schema: dict[str, Any], arguments: dict[str, Any]) -> dict[str, Any]:
    filled = dict(arguments)
    for name, spec in schema.get("properties", {}).items():
        if name not in filled and "default" in spec:
            filled[name] = spec["default"]
    return filled


def invoke_tool(*, user: AbstractUser, name: str, arguments: Any) -> dict[str, Any]:
    """``{"ok": true, "result": …, "summary": "…"}``; domain errors propagate with their codes."""
    tool = tool_for(user, name)
    if not isinstance(arguments, dict):
        raise InvalidInput("arguments must be a JSON object.")
    validator = Draft202012Validator(tool.input_schema, format_checker=FormatChecker())
    error = best_match(validator.iter_errors(arguments))
    if error is not None:
        where = ".".join(str(p) for p in error.absolute_path) or "arguments"
        raise InvalidInput(f"{where}: {error.message}")
    result = tool.handler(user, _defaults(tool.input_schema, arguments))
    return {"ok": True, "result": result.data, "summary": summarize(tool, result)}
