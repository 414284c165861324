"""The list endpoints' pagination: ``limit`` and ``offset`` are bounded integers like every other
input (``limit=9223372036854775808`` is a 400, never a database error)."""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ValidationError
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request

from core.fields import BIGINT_MAX

MAX_LIMIT = 500


def _bounded(request: Request, name: str, default: int, low: int, high: int) -> int:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    if len(raw) > 20 or not raw.strip().lstrip("+").isdigit():
        raise ValidationError({name: [f"must be an integer from {low} to {high}."]})
    value = int(raw)
    if not low <= value <= high:
        raise ValidationError({name: [f"must be an integer from {low} to {high}."]})
    return value


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    """DRF's limit/offset pagination with ``limit`` in 1..500 and ``offset`` in 0..2**63-1."""

    max_limit = MAX_LIMIT

    def get_limit(self, request: Request) -> int:
        return _bounded(request, self.limit_query_param, self.default_limit or 50, 1, MAX_LIMIT)

    def get_offset(self, request: Request) -> int:
        return _bounded(request, self.offset_query_param, 0, 0, BIGINT_MAX)

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.limit_query_param:
                parameter["schema"].update({"minimum": 1, "maximum": MAX_LIMIT})
            elif parameter["name"] == self.offset_query_param:
                parameter["schema"].update({"minimum": 0, "maximum": BIGINT_MAX})
        return parameters
