"""Every input contract of the code, and the fields of each that take text: what the tests of the
shared field types (length, secrets) walk over."""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Iterator
from typing import Any

from django.apps import apps
from rest_framework import serializers

from core.api import StrictSerializer
from core.fields import Scanned

#: DRF field types that take text (ChoiceField is a closed set, not text).
TEXT_TYPES = (serializers.CharField, serializers.DictField, serializers.JSONField, serializers.HStoreField)


def strict_serializers() -> list[type[StrictSerializer]]:
    """Every StrictSerializer subclass of the apps (the contracts), by name: the URL conf is
    loaded first (every view module a route names, wherever it lives), then each app's modules."""
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018  (imports the views of every route)
    for config in apps.get_app_configs():
        for module in ("api.serializers", "api.views", "serializers"):
            with contextlib.suppress(ModuleNotFoundError):
                importlib.import_module(f"{config.name}.{module}")
    found, todo = set(), [StrictSerializer]
    while todo:
        for sub in todo.pop().__subclasses__():
            if sub not in found and sub.__module__.split(".")[0] != "tests":
                found.add(sub)
                todo.append(sub)
    return sorted(found, key=lambda c: c.__qualname__)


def text_fields(serializer: serializers.Serializer, prefix: str = "") -> Iterator[tuple[str, serializers.Field]]:
    """(path, field) for every writable field that takes text, at any depth: ``tool_calls[].name``."""
    for name, field in serializer.fields.items():
        if field.read_only:
            continue
        path = prefix + name
        if isinstance(field, Scanned):
            yield path, field  # a scanned list (tags) or JSON field decides for its items
        elif isinstance(field, serializers.ListSerializer):
            yield from text_fields(field.child, f"{path}[].")
        elif isinstance(field, serializers.Serializer):
            yield from text_fields(field, f"{path}.")
        elif isinstance(field, serializers.ListField):
            if isinstance(field.child, (Scanned, *TEXT_TYPES)):
                yield f"{path}[]", field.child
        elif isinstance(field, TEXT_TYPES):
            yield path, field  # a DRF text field that is not one of core.fields' types


def data_at(path: str, value: Any) -> dict[str, Any]:
    """The smallest body that puts ``value`` at ``path`` (``tool_calls[].name``: a list of one)."""
    head, _, rest = path.partition(".")
    if head.endswith("[]"):
        return {head[:-2]: [data_at(rest, value) if rest else value]}
    return {head: data_at(rest, value) if rest else value}
