"""The input field types every entrance shares: REST, gateway tools, JSON-RPC, import lines, turns.

One set of rules for what Mnemo accepts, so that no entrance is weaker than another:

- **text**: a string (never a number turned into one), without NUL characters or lone UTF-16
  surrogates (PostgreSQL cannot store either; they used to fail as 500 or 503), and always with a
  maximum length;
- **datetimes**: ISO 8601; a time without an offset is read as **UTC**; an offset (at most
  ±14:00, the widest any time zone uses) is converted to UTC, and the moment must lie between
  0001-01-02 and 9999-12-30 UTC, so that it can be stored by PostgreSQL and read back by Python
  in any time zone (``9999-12-31T23:59:59-12:00`` is year 10000 in UTC and is refused);
- **integers**: always with bounds that fit PostgreSQL's bigint (no ``limit=2**63``);
- **JSON objects**: bounded nesting depth, number of items and string lengths, with the same text
  rules for every key and string value at any depth, checked by an explicit stack (no recursion:
  500 levels of nesting are refused at once instead of overflowing Python's stack);
- **tags**: each at most 64 characters, refused (never truncated) when longer.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from django.utils.dateparse import parse_datetime
from rest_framework import serializers

#: Longest value of a short text field with no limit of its own (names, keys, ids, reasons).
SHORT_TEXT = 200
#: Longest free text that is not a memory (notes, addresses, rules' reasons, messages of a turn).
LONG_TEXT = 16_000
#: PostgreSQL's bigint.
BIGINT_MAX = 2**63 - 1
#: JSON objects (metadata, custom fields, filters, tool arguments).
JSON_MAX_DEPTH = 20
JSON_MAX_ITEMS = 1_000
JSON_MAX_STRING = 16_000
JSON_MAX_KEY = 200
#: A tag, after normalization (seed 003: lowercase canonical forms).
TAG_MAX_LENGTH = 64
MAX_TAGS = 50

#: The moments a datetime may name (UTC), with a day of margin at both ends so that the value can
#: be shown in any time zone without leaving Python's years 1 to 9999.
MIN_DATETIME = datetime(1, 1, 2, tzinfo=UTC)
MAX_DATETIME = datetime(9999, 12, 30, 23, 59, 59, tzinfo=UTC)

#: The widest offsets real time zones use (UTC-12:00 to UTC+14:00); PostgreSQL refuses some wider.
MAX_UTC_OFFSET = timedelta(hours=14)

_SURROGATE = re.compile("[\ud800-\udfff]")


def text_problem(value: str) -> str | None:
    """Why a string cannot be stored, or None."""
    if "\x00" in value:
        return "must not contain NUL characters"
    if _SURROGATE.search(value):
        return "must not contain lone surrogates (invalid Unicode)"
    return None


def check_text(value: str, *, max_length: int, where: str = "") -> str:
    """``value`` if it is storable text of at most ``max_length`` characters; ValueError otherwise."""
    problem = text_problem(value)
    if problem is None and len(value) > max_length:
        problem = f"is {len(value)} characters long; the limit is {max_length}"
    if problem:
        raise ValueError(f"{where} {problem}".strip() if where else problem)
    return value


def check_json(
    value: Any,
    *,
    max_depth: int = JSON_MAX_DEPTH,
    max_items: int = JSON_MAX_ITEMS,
    max_string: int = JSON_MAX_STRING,
) -> Any:
    """``value`` if it is JSON that Mnemo stores: bounded depth, item count and string sizes, text
    rules on every key and string. Walks with an explicit stack: no recursion at any depth.
    Raises ValueError naming the path of the first problem."""
    stack: list[tuple[Any, str, int]] = [(value, "", 0)]
    items = 0
    while stack:
        node, path, depth = stack.pop()
        items += 1
        if items > max_items:
            raise ValueError(f"has more than {max_items} items")
        if isinstance(node, str):
            check_text(node, max_length=max_string, where=path or "value")
        elif isinstance(node, bool) or node is None or isinstance(node, int | float):
            if isinstance(node, int) and not isinstance(node, bool) and abs(node) > BIGINT_MAX:
                raise ValueError(f"{path or 'value'} is a number out of range")
            if isinstance(node, float) and (node != node or node in (float("inf"), float("-inf"))):
                raise ValueError(f"{path or 'value'} is not a finite number")
        elif isinstance(node, Mapping | list):
            if depth >= max_depth:
                raise ValueError(f"is nested deeper than {max_depth} levels")
            if isinstance(node, Mapping):
                for key, child in node.items():
                    if not isinstance(key, str):
                        raise ValueError(f"{path or 'value'} has a key that is not a string")
                    check_text(key, max_length=JSON_MAX_KEY, where=f"key {path + '.' if path else ''}{key[:40]!r}")
                    stack.append((child, f"{path}.{key}" if path else key, depth + 1))
            else:
                stack.extend((child, f"{path}[{i}]", depth + 1) for i, child in enumerate(node))
        else:
            raise ValueError(f"{path or 'value'} is not JSON")
    return value


def parse_aware_datetime(value: Any) -> datetime:
    """An ISO 8601 string (or a datetime) as an aware UTC datetime in PostgreSQL's and Python's
    range. A naive time is read as UTC. ValueError otherwise."""
    if isinstance(value, datetime):
        parsed: datetime | None = value
    elif isinstance(value, str):
        if len(value) > 64 or text_problem(value):
            raise ValueError("is not an ISO 8601 timestamp")
        try:
            parsed = parse_datetime(value.strip())
        except ValueError as exc:  # well formed but impossible (month 13, offset of 25 hours)
            raise ValueError(f"is not a valid timestamp ({exc})") from exc
    else:
        parsed = None
    if parsed is None:
        raise ValueError("is not an ISO 8601 timestamp (e.g. 2030-01-01T09:00:00Z)")
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)  # naive times are UTC, at every entrance
    offset = parsed.utcoffset() or timedelta(0)
    if abs(offset) > MAX_UTC_OFFSET:
        raise ValueError("has a UTC offset beyond ±14:00, which no time zone uses")
    try:
        utc = parsed.astimezone(UTC)
    except OverflowError as exc:
        raise ValueError("is out of range (years 0001 to 9999 in UTC)") from exc
    if not MIN_DATETIME <= utc <= MAX_DATETIME:
        raise ValueError("is out of range (years 0001 to 9999 in UTC)")
    return utc


# --- DRF fields --------------------------------------------------------------------------------------


class TextField(serializers.CharField):
    """A string, and only a string (DRF's CharField would turn 42 into "42"), storable (no NUL, no
    lone surrogates) and bounded: ``max_length`` defaults to ``SHORT_TEXT``."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", SHORT_TEXT)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        problem = text_problem(data)
        if problem:
            raise serializers.ValidationError(f"This field {problem}.")
        return super().to_internal_value(data)


class BooleanField(serializers.BooleanField):
    """``true`` or ``false`` and nothing else (DRF's would also read "false", "0", "off"...)."""

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid", input=str(data)[:40])
        return data


class UUIDField(serializers.UUIDField):
    """A UUID given as a string (DRF's would also read the integer 5 as a UUID)."""

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, str) or len(data) > 64:
            self.fail("invalid", value=str(data)[:64])
        return super().to_internal_value(data)


class AwareDateTimeField(serializers.DateTimeField):
    """ISO 8601; naive means UTC; converted to UTC; within years 0001–9999 (see the module)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("help_text", "ISO 8601 timestamp; without an offset it is read as UTC")
        super().__init__(**kwargs)

    def to_internal_value(self, value: Any) -> datetime:
        try:
            return parse_aware_datetime(value)
        except ValueError as exc:
            raise serializers.ValidationError(f"Timestamp {exc}.") from exc


class BoundedIntegerField(serializers.IntegerField):
    """An integer (not a boolean, not a fraction) within explicit bounds, by default bigint's."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", -BIGINT_MAX)
        kwargs.setdefault("max_value", BIGINT_MAX)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or (isinstance(data, float) and not data.is_integer()):
            self.fail("invalid")
        if isinstance(data, str) and len(data) > 40:
            raise serializers.ValidationError(
                f"Ensure this value is less than or equal to {self.max_value}."  # no 10**130 parsing
            )
        return super().to_internal_value(data)


class BoundedFloatField(serializers.FloatField):
    """A finite number (not a boolean) within ``min_value`` and ``max_value``."""

    def to_internal_value(self, data: Any) -> float:
        if isinstance(data, bool | str):
            self.fail("invalid")
        value = super().to_internal_value(data)
        if value != value or value in (float("inf"), float("-inf")):
            self.fail("invalid")
        return value


class JSONObjectField(serializers.DictField):
    """A JSON object PostgreSQL's jsonb can store, of bounded depth, size and string lengths."""

    def __init__(self, **kwargs: Any) -> None:
        self.max_depth = kwargs.pop("max_depth", JSON_MAX_DEPTH)
        self.max_items = kwargs.pop("max_items", JSON_MAX_ITEMS)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if not isinstance(data, Mapping):
            self.fail("not_a_dict", input_type=type(data).__name__)
        try:
            check_json(data, max_depth=self.max_depth, max_items=self.max_items)
        except ValueError as exc:
            raise serializers.ValidationError(f"This object {exc}.") from exc
        return dict(data)


class JSONValueField(serializers.JSONField):
    """Any JSON value (tool-call arguments), with the same bounds as ``JSONObjectField``."""

    def to_internal_value(self, data: Any) -> Any:
        try:
            check_json(data)
        except ValueError as exc:
            raise serializers.ValidationError(f"This value {exc}.") from exc
        return super().to_internal_value(data)


class TagField(TextField):
    """One tag: text of at most 64 characters, refused (never truncated) when longer."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", TAG_MAX_LENGTH)
        kwargs.setdefault("allow_blank", True)
        super().__init__(**kwargs)


class TagListField(serializers.ListField):
    """Up to 50 tags, each at most 64 characters (normalized to lowercase canonical forms later)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("child", TagField())
        kwargs.setdefault("max_length", MAX_TAGS)
        super().__init__(**kwargs)
