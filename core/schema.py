"""The OpenAPI schema tells the truth (drf-spectacular): request bodies reject unknown fields
(``additionalProperties: false``, as StrictSerializer does), and every operation documents the
error envelope for each status it can answer with.

- 400 ``INVALID_INPUT`` / ``SECRET_REJECTED``: any operation with a body or parameters;
- 401 ``UNAUTHENTICATED``: every operation (a token is required);
- 403 ``PERMISSION_DENIED`` / ``RULE_VIOLATION``: every operation (read-only grants, model
  permissions, critical rules);
- 404 ``NOT_FOUND``: every operation (a namespace, memory, contact, rule, session or tool the
  caller may not see answers exactly like a missing one);
- 429 ``RATE_LIMITED``: every operation (a token may carry a per-minute limit);
- 413 ``PAYLOAD_TOO_LARGE`` and 415 (a body that is not ``application/json``): operations with
  a body;
- 503 ``EMBEDDING_ERROR`` / ``DATABASE_ERROR``: every operation.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiSerializerExtension

ERROR_COMPONENT = "ErrorEnvelope"

ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": 'Every error: {"ok": false, "error": {"code": "INVALID_INPUT", "message": "…"}}',
    "properties": {
        "ok": {"type": "boolean", "enum": [False]},
        "error": {
            "type": "object",
            "properties": {
                "code": {
                    "type": "string",
                    "description": "INVALID_INPUT, SECRET_REJECTED, UNAUTHENTICATED, PERMISSION_DENIED, "
                    "RULE_VIOLATION, NOT_FOUND, METHOD_NOT_ALLOWED, PAYLOAD_TOO_LARGE, RATE_LIMITED, "
                    "EMBEDDING_ERROR, DATABASE_ERROR",
                },
                "message": {"type": "string"},
                "details": {"description": "per-field details of an INVALID_INPUT"},
            },
            "required": ["code", "message"],
        },
    },
    "required": ["ok", "error"],
}

_DESCRIPTIONS = {
    "400": "INVALID_INPUT (or SECRET_REJECTED): the input breaks the operation's contract",
    "401": "UNAUTHENTICATED: no valid token",
    "403": "PERMISSION_DENIED or RULE_VIOLATION",
    "404": "NOT_FOUND: missing, or not visible to the caller (the same answer)",
    "413": "PAYLOAD_TOO_LARGE: the body is over the upload limit",
    "415": "INVALID_INPUT: the body is not JSON (Content-Type application/json)",
    "429": "RATE_LIMITED: the token's requests per minute are used up; Retry-After says when to try again",
    "503": "EMBEDDING_ERROR or DATABASE_ERROR: nothing was changed; try again later",
}

_RETRY_AFTER = {"description": "seconds until the next minute's requests", "schema": {"type": "integer", "minimum": 1}}


class StrictSerializerExtension(OpenApiSerializerExtension):
    """A StrictSerializer rejects unknown fields: its schema says so."""

    target_class = "core.api.StrictSerializer"
    match_subclasses = True

    def map_serializer(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        schema = auto_schema._map_serializer(self.target, direction, bypass_extensions=True)
        schema["additionalProperties"] = False
        return schema


def add_error_responses(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """POSTPROCESSING_HOOKS: the error envelope component and each operation's error statuses."""
    result.setdefault("components", {}).setdefault("schemas", {})[ERROR_COMPONENT] = ERROR_SCHEMA
    ref = {"$ref": f"#/components/schemas/{ERROR_COMPONENT}"}
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            if method not in {"get", "post", "put", "patch", "delete"}:
                continue
            has_input = bool(operation.get("requestBody") or operation.get("parameters"))
            statuses = ["401", "403", "404", "429", "503"]
            if has_input or "{" in path:
                statuses.append("400")
            if operation.get("requestBody"):
                statuses += ["413", "415"]
            responses = operation.setdefault("responses", {})
            for status in sorted(statuses):
                response = {"description": _DESCRIPTIONS[status], "content": {"application/json": {"schema": ref}}}
                if status == "429":
                    response["headers"] = {"Retry-After": _RETRY_AFTER}
                responses.setdefault(status, response)
    return result
