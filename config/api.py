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


def validated(serializer_class: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    """The request body, validated by ``serializer_class`` (INVALID_INPUT otherwise)."""
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)
