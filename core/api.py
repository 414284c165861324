"""The one input contract per operation: strict serializers, their validation at every entrance,
the JSON schema agents are shown (generated from the same serializer), and the API's JSON parser.

An operation's serializer validates it over REST, as a gateway tool, as a JSON-RPC call and as an
import line; ``json_schema`` turns that serializer into the tool's ``input_schema``, so adding a
field to the serializer changes every entrance at once and what agents are told cannot drift
from what is enforced.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.settings import api_settings

from core.errors import InvalidInput, first_message
from core.fields import JSONObjectField, TextField

__all__ = [
    "JSONObjectField",
    "SharedFieldsOutput",
    "StrictCharField",
    "StrictSerializer",
    "check",
    "query",
    "json_schema",
    "validated",
]

#: Kept for the serializers that use the old name: a bounded, storable string.
StrictCharField = TextField


def _fresh_copy(field: serializers.Field) -> serializers.Field:
    """A new, unbound copy of a prototype field, made without running its ``__init__`` again.

    DRF's ``Field.__deepcopy__`` rebuilds a field from its original arguments: for an input with
    a dozen fields (validators, lazily translated messages, a list field's child) that was about
    0.9 ms of every request's 1.2 ms of validation (bench/profile_search.py). A shallow copy gets
    its own binding (``field_name``, ``parent``); what it shares with the prototype is read only
    during validation (validators, messages, choices). A mutable default is still copied, a list
    field's child gets its own copy whose parent is the copy, and a nested serializer is deep-copied
    (its own ``get_fields`` is cheap again)."""
    if isinstance(field, serializers.BaseSerializer):
        return copy.deepcopy(field)
    new = object.__new__(type(field))  # copy.copy, without its reduce protocol (a third of the cost)
    new.__dict__.update(field.__dict__)
    if isinstance(field.default, list | dict | set):
        new.default = copy.deepcopy(field.default)
    child = getattr(field, "child", None)
    if isinstance(child, serializers.Field):
        new.child = _fresh_copy(child)  # type: ignore[attr-defined]  # ListField, DictField, ...
        new.child.parent = new  # type: ignore[attr-defined]  # already bound (as "") when the prototype was built
    return new


class StrictSerializer(serializers.Serializer):
    """Rejects fields it does not know: a typo ("dedupe_policy") is an error, not a silent default.
    Nested strict serializers (a turn's messages) reject them too.

    Each instance gets fresh copies of prototype fields built once per class (``_fresh_copy``)
    rather than DRF's per-instance rebuild of every declared field."""

    def get_fields(self) -> dict[str, serializers.Field]:
        cls = type(self)
        declared = self._declared_fields
        cached: tuple[dict[str, serializers.Field], dict[str, serializers.Field]] | None = cls.__dict__.get(
            "_field_prototypes"
        )
        # Rebuilt when the declared fields change (a field added to a contract at run time, as a
        # test does, reaches every entrance at once). Two threads may both build them: equal
        # prototypes, the last one kept.
        if cached is None or cached[0] != declared:
            cached = (dict(declared), copy.deepcopy(declared))
            setattr(cls, "_field_prototypes", cached)  # noqa: B010 (a class-level cache, not a field)
        return {name: _fresh_copy(field) for name, field in cached[1].items()}

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            writable = {name for name, field in self.fields.items() if not field.read_only}
            unknown = sorted(str(key) for key in data if key not in writable)
            if unknown:
                shown = ", ".join(name[:60] for name in unknown[:10])
                raise serializers.ValidationError({api_settings.NON_FIELD_ERRORS_KEY: [f"unknown field(s): {shown}"]})
        return super().to_internal_value(data)


class SharedFieldsOutput(serializers.Serializer):
    """An output serializer whose fields are made once per class and shared by its instances.

    DRF deep-copies every declared field for each serializer instance, and a list of results
    makes one child instance per response: for search's ten fields that copying was most of the
    0.8 ms its output cost (bench/profile_search.py). Only for fields that read nothing but the
    object they are given (no ``context``, no request, no per-instance arguments); the schema
    generator and ``.fields`` still see ordinary per-instance fields.
    """

    @property
    def _readable_fields(self) -> tuple[serializers.Field, ...]:  # type: ignore[override]
        cls = type(self)
        shared: tuple[serializers.Field, ...] | None = cls.__dict__.get("_shared_readable_fields")
        if shared is None:
            # Two threads may both build it: equal tuples, the last one kept.
            shared = tuple(f for f in cls().fields.values() if not f.write_only)
            setattr(cls, "_shared_readable_fields", shared)  # noqa: B010 (a class-level cache, not a field)
        return shared


def check(
    serializer_class: type[serializers.Serializer], data: Any, *, context: dict[str, Any] | None = None
) -> dict[str, Any]:
    """``data`` validated by the operation's serializer; ``InvalidInput`` (with DRF's details)
    otherwise. What every non-REST entrance calls: tools, RPC, import lines, turn items."""
    serializer = serializer_class(data=data, context=context or {})
    if not serializer.is_valid():
        raise InvalidInput(first_message(serializer.errors), details=serializer.errors)
    return dict(serializer.validated_data)


def validated(serializer_class: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    """The request body, validated by ``serializer_class`` (INVALID_INPUT otherwise)."""
    return check(serializer_class, request.data, context={"request": request})


def query(serializer_class: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    """The query parameters an operation declares, validated by its serializer (others, such as
    DRF's ``format``, are left to whoever reads them)."""
    names = set(serializer_class().fields)
    return check(serializer_class, {k: v for k, v in request.query_params.items() if k in names})


# --- serializer → JSON schema ---------------------------------------------------------------------


def _field_schema(field: serializers.Field) -> dict[str, Any]:
    schema: dict[str, Any]
    if isinstance(field, serializers.Serializer):
        schema = json_schema(type(field), instance=field)
    elif isinstance(field, serializers.ListSerializer):
        schema = {"type": "array", "items": _field_schema(field.child) if field.child is not None else {}}
    elif isinstance(field, serializers.ChoiceField):
        schema = {"enum": list(field.choices)}
        if all(isinstance(c, str) for c in field.choices):
            schema["type"] = "string"
    elif isinstance(field, serializers.BooleanField):
        schema = {"type": "boolean"}
    elif isinstance(field, serializers.IntegerField):
        schema = {"type": "integer"}
    elif isinstance(field, serializers.FloatField | serializers.DecimalField):
        schema = {"type": "number"}
    elif isinstance(field, serializers.DateTimeField):
        schema = {"type": "string", "format": "date-time"}
    elif isinstance(field, serializers.UUIDField):
        schema = {"type": "string", "format": "uuid"}
    elif isinstance(field, serializers.EmailField):
        schema = {"type": "string", "format": "email"}
    elif isinstance(field, serializers.RegexField):
        schema = {"type": "string"}
        pattern = next((v.regex.pattern for v in field.validators if hasattr(v, "regex")), None)
        if pattern:
            schema["pattern"] = pattern
    elif isinstance(field, serializers.CharField):
        schema = {"type": "string"}
    elif isinstance(field, serializers.ListField):
        schema = {"type": "array", "items": _field_schema(field.child)}
    elif isinstance(field, serializers.DictField):
        schema = {"type": "object"}
    else:  # JSONField and anything else: any JSON value
        schema = {}
    if isinstance(field, serializers.CharField) and not isinstance(field, serializers.ChoiceField):
        if field.max_length is not None:
            schema["maxLength"] = field.max_length
        if not field.allow_blank:
            schema["minLength"] = max(field.min_length or 0, 1)
        elif field.min_length:
            schema["minLength"] = field.min_length
    if isinstance(field, serializers.IntegerField | serializers.FloatField):
        if field.min_value is not None:
            schema["minimum"] = field.min_value
        if field.max_value is not None:
            schema["maximum"] = field.max_value
    if isinstance(field, serializers.ListField):
        if field.max_length is not None:
            schema["maxItems"] = field.max_length
        if field.min_length is not None:
            schema["minItems"] = field.min_length
    if field.help_text:
        schema["description"] = str(field.help_text)
    default = field.default
    if default is not serializers.empty and not callable(default):
        schema["default"] = str(default) if hasattr(default, "hex") else default
    if getattr(field, "allow_null", False) and "type" in schema:
        schema = {**schema, "type": [schema["type"], "null"]}
    return schema


def json_schema(
    serializer_class: type[serializers.Serializer], *, instance: serializers.Serializer | None = None
) -> dict[str, Any]:
    """The JSON schema (draft 2020-12 subset) of a serializer's input: properties from its
    writable fields, their bounds, ``required``, defaults, and ``additionalProperties: false``."""
    serializer = instance if instance is not None else serializer_class()
    properties: dict[str, Any] = {}
    required: list[str] = []
    for name, field in serializer.fields.items():
        if field.read_only:
            continue
        properties[name] = _field_schema(field)
        if field.required:
            required.append(name)
    schema: dict[str, Any] = {"type": "object", "properties": properties, "additionalProperties": False}
    if required:
        schema["required"] = required
    return schema
