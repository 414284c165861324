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
- **tags**: each at most 64 characters, refused (never truncated) when longer;
- **agent names**: letters, digits, spaces and ``_ - .``, without ``..`` (``AgentNameField``).

A maximum length is checked on the text as sent, before any trimming: ``"x" * 200 + " "`` is
201 characters, over a limit of 200, even where surrounding whitespace is then trimmed.

**Secrets are refused in the contract.** Every text, JSON and tag field type here scans its
value with the one secret scanner (``core.secrets``) once it is otherwise valid, so an entrance
that validates with an operation's contract (REST, gateway tools, JSON-RPC, MCP, import lines,
the post-turn hook) refuses a secret with SECRET_REJECTED exactly as the others do. A field that
is read and never stored (a query, a filter, the name of an existing object), or whose items are
scanned one by one where they are stored, says so with ``unscanned=<why>`` (one of ``Unscanned``);
tests/core/test_scanned_fields.py holds every field of every contract to one or the other and
the list of what is scanned in docs/secrets.md to the code.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from django.utils.dateparse import parse_datetime
from rest_framework import serializers
from rest_framework.fields import empty

from core.secrets import reject_secrets

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
#: ``agent:<name>`` must fit a namespace key (200 characters).
AGENT_NAME_MAX = 200 - len("agent:")

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


# --- secrets ------------------------------------------------------------------------------------------


class Unscanned:
    """Why a text field of a contract is not scanned for secrets there (``unscanned=``): the only
    reasons there are. Anything stored or pinned is scanned."""

    QUERY = "read, never stored: a query or a filter"
    REFERENCE = "names an existing object, never stored"
    OUTBOUND = "an outbound message, sent and recorded as the user asked"
    EACH_WHERE_STORED = (
        "scanned item by item where it is stored; a refused item is skipped and reported, not the request"
    )
    REDACTED = "text a third party wrote (a tool's error): credential-shaped spans are redacted where it is kept"
    TOOL_ARGUMENTS = "the called tool's own contract validates and scans them"
    WITH_ITS_LIST = "scanned with the list it is in"
    IGNORED = "accepted for an export's round trip, then ignored"

    ALL = frozenset({QUERY, REFERENCE, OUTBOUND, EACH_WHERE_STORED, REDACTED, TOOL_ARGUMENTS, WITH_ITS_LIST, IGNORED})


def field_path(field: serializers.Field) -> str:
    """``tool_calls.name`` for a field inside a nested contract: the names of it and its parents."""
    names: list[str] = []
    node: Any = field
    while node is not None:
        name = getattr(node, "field_name", None)
        if name:
            names.append(str(name))
        node = getattr(node, "parent", None)
    return ".".join(reversed(names)) or "value"


class Scanned:
    """Mixed into a DRF field: once the value is otherwise valid, the secret scanner runs on it
    (a string, or JSON: keys and values at any depth) and a secret raises SECRET_REJECTED, which
    passes through DRF's validation untouched and reaches the caller as every entrance reports a
    domain error. ``unscanned="<why>"`` (a reason of ``Unscanned``) turns it off for a field that
    is not stored."""

    unscanned: str | None

    def __init__(self, *args: Any, unscanned: str | None = None, **kwargs: Any) -> None:
        if unscanned is not None and unscanned not in Unscanned.ALL:
            raise ValueError(f"unscanned must be one of the reasons in core.fields.Unscanned, not {unscanned!r}")
        self.unscanned = unscanned
        super().__init__(*args, **kwargs)

    def run_validation(self, data: Any = empty) -> Any:
        value = super().run_validation(data)  # type: ignore[misc]
        if self.unscanned is None and value:
            reject_secrets(**{field_path(self): value})  # type: ignore[arg-type]
        return value


# --- DRF fields --------------------------------------------------------------------------------------


class TextField(Scanned, serializers.CharField):
    """A string, and only a string (DRF's CharField would turn 42 into "42"), storable (no NUL, no
    lone surrogates) and bounded: ``max_length`` defaults to ``SHORT_TEXT`` and is checked on the
    text as sent, before trimming. Scanned for secrets unless ``unscanned`` says why not."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", SHORT_TEXT)
        super().__init__(**kwargs)

    def run_validation(self, data: Any = empty) -> Any:
        # DRF trims first and measures what is left (and answers a blank string before anything
        # else): 10,000 spaces around a short name passed a limit of 200. The limit is on the input.
        if isinstance(data, str) and self.max_length is not None and len(data) > self.max_length:
            self.fail("max_length", max_length=self.max_length)
        return super().run_validation(data)

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        problem = text_problem(data)
        if problem:
            raise serializers.ValidationError(f"This field {problem}.")
        return super().to_internal_value(data)


class EmailField(Scanned, serializers.EmailField):
    """An e-mail address (DRF's rules), scanned for secrets like any stored text."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str) or text_problem(data):
            self.fail("invalid")
        return super().to_internal_value(data)


class RegexField(Scanned, serializers.RegexField):
    """Text of a given shape (DRF's RegexField), scanned for secrets like any stored text."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str) or text_problem(data):
            self.fail("invalid")
        return super().to_internal_value(data)


def agent_name_problem(value: str) -> str | None:
    """Why ``value`` cannot be an agent's name, or None. A hand-written scan (no regex): letters
    and digits of any script, spaces, ``_``, ``-`` and ``.``; no ``..``."""
    for char in value:
        if not (char.isalnum() or char in "_-. "):
            return f"must hold only letters, digits, spaces and _ - . (not {char!r})"
    if ".." in value:
        return "must not contain '..'"
    return None


class AgentNameField(TextField):
    """The name of an agent or subagent (a session's, a turn's): it is pinned into the session's
    prompt and becomes part of an ``agent:<name>`` namespace key, so it is a name and nothing
    else: letters, digits, spaces, ``_ - .``, no ``..``, at most ``AGENT_NAME_MAX`` characters."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", AGENT_NAME_MAX)
        kwargs.setdefault("help_text", "letters, digits, spaces and _ - . (no '..')")
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> str:
        value = super().to_internal_value(data)
        problem = agent_name_problem(value)
        if problem:
            raise serializers.ValidationError(f"An agent name {problem}.")
        return value


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


class JSONObjectField(Scanned, serializers.DictField):
    """A JSON object PostgreSQL's jsonb can store, of bounded depth, size and string lengths;
    its keys and values are scanned for secrets unless ``unscanned`` says why not."""

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


class JSONValueField(Scanned, serializers.JSONField):
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


class TagListField(Scanned, serializers.ListField):
    """Up to 50 tags, each at most 64 characters (normalized to lowercase canonical forms later),
    scanned as a list (before they are lower-cased) unless ``unscanned`` says why not."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("child", TagField(unscanned=Unscanned.WITH_ITS_LIST))
        kwargs.setdefault("max_length", MAX_TAGS)
        super().__init__(**kwargs)
