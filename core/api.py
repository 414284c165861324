"""DRF plumbing shared by every app's API: strict input serializers and their validation."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers
from rest_framework.request import Request


class StrictSerializer(serializers.Serializer):
    """Rejects fields it does not know: a typo ("dedupe_policy") is an error, not a silent default."""

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        unknown = set(getattr(self, "initial_data", {}) or {}) - set(self.fields)
        if unknown:
            raise serializers.ValidationError(f"unknown field(s): {', '.join(sorted(unknown))}")
        return attrs


class StrictCharField(serializers.CharField):
    """A string, and only a string: DRF's CharField would quietly turn 42 into "42"."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


def _has_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_has_nul(k) or _has_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_nul(v) for v in value)
    return False


class JSONObjectField(serializers.DictField):
    """A JSON object that PostgreSQL's jsonb can store: no NUL characters in keys or values
    (they would fail in the database as a 503 instead of a 400 here)."""

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        value = super().to_internal_value(data)
        if _has_nul(value):
            raise serializers.ValidationError("Null characters are not allowed.")
        return value


def validated(serializer_class: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    """The request body, validated by ``serializer_class`` (INVALID_INPUT otherwise)."""
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)
