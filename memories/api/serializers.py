"""Input and output serializers of the memory API. Inputs validate shape; services decide."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from rest_framework import serializers
from rest_framework.fields import empty

from core.api import SharedFieldsOutput, StrictSerializer
from core.fields import (
    AwareDateTimeField,
    BooleanField,
    BoundedFloatField,
    BoundedIntegerField,
    JSONObjectField,
    TagListField,
    TextField,
    Unscanned,
    UUIDField,
)
from memories.models import Memory, MemoryEvent, Namespace, Tombstone

#: Longest namespace key (``Namespace.key``).
NAMESPACE_MAX = 200


class MemoryTextField(TextField):
    """A memory's text: at most ``MAX_TEXT_CHARS`` characters (a setting, so read at each call,
    and checked before the scanner reads the text), stored exactly as sent (no trimming). The
    service checks it again (its other callers, the admin among them, have no contract)."""

    def run_validation(self, data: Any = empty) -> Any:
        limit = settings.MAX_TEXT_CHARS
        if isinstance(data, str) and len(data) > limit:
            raise serializers.ValidationError(
                f"The text is {len(data)} characters long; the limit is {limit} (MAX_TEXT_CHARS)."
            )
        return super().run_validation(data)


def text_field(**kwargs: Any) -> serializers.CharField:
    # The schema's ceiling; the limit itself is MAX_TEXT_CHARS, read at each call.
    kwargs.setdefault("max_length", 1_000_000)
    return MemoryTextField(trim_whitespace=False, allow_blank=True, **kwargs)


def namespace_field(**kwargs: Any) -> serializers.CharField:
    """The namespace an operation reads or writes in: it names one that exists (or the caller's
    own), so it is not a stored string (import lines, which create namespaces, scan theirs)."""
    kwargs.setdefault("unscanned", Unscanned.REFERENCE)
    return TextField(
        required=False,
        allow_blank=True,
        default="",
        max_length=NAMESPACE_MAX,
        help_text="namespace key; default: your own user:<username>",
        **kwargs,
    )


def valid_from_field(**kwargs: Any) -> AwareDateTimeField:
    kwargs.setdefault("required", False)
    kwargs.setdefault("default", None)
    kwargs.setdefault("help_text", "when the fact became true (ISO 8601); default: open (always)")
    return AwareDateTimeField(allow_null=True, **kwargs)


def valid_until_field(**kwargs: Any) -> AwareDateTimeField:
    kwargs.setdefault("required", False)
    kwargs.setdefault("default", None)
    kwargs.setdefault(
        "help_text", "when the fact stopped being true (ISO 8601; after valid_from); default: expires_at, else open"
    )
    return AwareDateTimeField(allow_null=True, **kwargs)


class RememberInput(StrictSerializer):
    """Seed 003's ``remember``: the contract of the REST call, the tool and every import line."""

    text = text_field(help_text="the fact to remember (up to MAX_TEXT_CHARS characters)")
    tags = TagListField(required=False, default=list)
    source_provider = TextField(required=False, default="", allow_blank=True, max_length=200)
    importance = BoundedFloatField(required=False, default=0.5, min_value=0.0, max_value=1.0)
    capture_mode = serializers.ChoiceField(choices=Memory.CaptureMode.values, required=False, default="")
    # Stored as given (seed 003: "Stored as-is"): no trimming.
    session_id = TextField(required=False, default="", allow_blank=True, max_length=255, trim_whitespace=False)
    dedup_policy = serializers.ChoiceField(choices=["insert", "skip_if_near", "ask"], required=False, default="ask")
    expires_at = AwareDateTimeField(required=False, allow_null=True, default=None)
    last_confirmed_at = AwareDateTimeField(required=False, allow_null=True, default=None)
    namespace = namespace_field()
    metadata = JSONObjectField(required=False, default=dict)
    valid_from = valid_from_field()
    valid_until = valid_until_field()
    supersede = serializers.ChoiceField(
        choices=["report", "close"],
        required=False,
        default="report",
        help_text="a live memory this one contradicts (same subject, another value): 'report' lists it in "
        "supersedes (default); 'close' also ends its validity (valid_until = this one's valid_from or now)",
    )


class NearDuplicateOutput(serializers.Serializer):
    memory_id = serializers.IntegerField(source="id")
    text = serializers.CharField()
    similarity = serializers.FloatField()


class PreviouslyCorrectedOutput(serializers.Serializer):
    tombstone_id = serializers.IntegerField(source="id")
    memory_id = serializers.IntegerField(source="extra.memory_id", allow_null=True)
    text = serializers.CharField()
    similarity = serializers.FloatField()
    kind = serializers.CharField(source="extra.kind")
    reason = serializers.CharField(source="extra.reason")
    replaced_by = serializers.IntegerField(source="extra.replaced_by", allow_null=True)
    forgotten_at = serializers.DateTimeField(source="extra.forgotten_at")


class SupersedesOutput(serializers.Serializer):
    """A live memory the new one contradicts: the same subject with another value."""

    memory_id = serializers.IntegerField(source="id")
    text = serializers.CharField()
    similarity = serializers.FloatField()
    old_values = serializers.ListField(
        source="extra.old_values", child=serializers.CharField(), help_text="the values it says that the new one drops"
    )
    new_values = serializers.ListField(
        source="extra.new_values", child=serializers.CharField(), help_text="the values the new one says instead"
    )
    closed = serializers.BooleanField(source="extra.closed", help_text="its validity was closed (supersede: close)")
    valid_until = serializers.DateTimeField(source="extra.valid_until", allow_null=True)


class RememberOutput(serializers.Serializer):
    ok = serializers.BooleanField(default=True)
    memory_id = serializers.IntegerField()
    message = serializers.CharField()
    near_duplicates = NearDuplicateOutput(many=True, required=False)
    previously_corrected = PreviouslyCorrectedOutput(many=True, required=False)
    supersedes = SupersedesOutput(many=True, required=False)


def remember_body(result: Any) -> dict[str, Any]:
    """The answer of ``remember`` (seed 003's output), for REST and the tool alike."""
    body: dict[str, Any] = {"ok": True, "memory_id": result.memory_id, "message": result.message}
    if result.near_duplicates is not None:
        # What NearDuplicateOutput(many=True).data gives (its fields' to_representation is int, str
        # and float), without DRF's per-item serializer walk: up to 5 items on every "ask" call.
        body["near_duplicates"] = [
            {"memory_id": int(n.id), "text": str(n.text), "similarity": float(n.similarity)}
            for n in result.near_duplicates
        ]
    # The same for the other two lists (PreviouslyCorrectedOutput, SupersedesOutput: their fields
    # in their order, None as None): an "ask" call lists several superseded memories, and DRF's
    # copy of every field per response and walk per item was 0.1-0.3 ms of it (bench/remember_split.py).
    if result.previously_corrected:
        body["previously_corrected"] = [
            {
                "tombstone_id": int(n.id),
                "memory_id": _or_none(int, n.extra["memory_id"]),
                "text": str(n.text),
                "similarity": float(n.similarity),
                "kind": _or_none(str, n.extra["kind"]),
                "reason": _or_none(str, n.extra["reason"]),
                "replaced_by": _or_none(int, n.extra["replaced_by"]),
                "forgotten_at": _or_none(_DATETIME.to_representation, n.extra["forgotten_at"]),
            }
            for n in result.previously_corrected
        ]
    if result.supersedes:
        body["supersedes"] = [
            {
                "memory_id": int(n.id),
                "text": str(n.text),
                "similarity": float(n.similarity),
                "old_values": _or_none(_strings, n.extra["old_values"]),
                "new_values": _or_none(_strings, n.extra["new_values"]),
                "closed": _or_none(_BOOLEAN.to_representation, n.extra["closed"]),
                "valid_until": _or_none(_DATETIME.to_representation, n.extra["valid_until"]),
            }
            for n in result.supersedes
        ]
    return body


#: The output fields whose conversion is more than a type's constructor, shared: they read nothing
#: but the value (no parent, no context).
_DATETIME = serializers.DateTimeField()
_BOOLEAN = serializers.BooleanField()


def _or_none(convert: Any, value: Any) -> Any:
    # DRF answers None for a None attribute without asking the field.
    return None if value is None else convert(value)


def _strings(values: Any) -> list[str | None]:
    # ListField(child=CharField()).to_representation
    return [None if v is None else str(v) for v in values]


def add_memory_answer(memory: Any, *, queued: bool) -> tuple[str, str]:
    """Seed 002's ``add_memory`` status and message, for REST, the tool and RPC alike: queued with
    its event id (async), or stored with its id."""
    if queued:
        return "queued", f"Memory queued for processing (Event ID: {memory.event_id}, Status: queued)"
    return memory.status, f"Memory stored successfully with ID: {memory.id}"


class AddMemoryInput(StrictSerializer):
    """Seed 002's ``add_memory``. Its flag is ``async`` (a Python keyword, so the field is added in
    ``get_fields``); any other name for it, ``run_async`` included, is an unknown field."""

    content = text_field(help_text="memory content to store (up to MAX_TEXT_CHARS characters)")
    metadata = JSONObjectField(required=False, default=dict)
    namespace = namespace_field()
    valid_from = valid_from_field()
    valid_until = valid_until_field(help_text="when the fact stopped being true (ISO 8601; after valid_from)")

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        fields["async"] = BooleanField(
            required=False, default=True, help_text="true (default): queued and embedded in the background"
        )
        return fields


class AddMemoryOutput(serializers.Serializer):
    ok = serializers.BooleanField(default=True)
    id = serializers.IntegerField()
    event_id = serializers.UUIDField()
    status = serializers.CharField()
    message = serializers.CharField()


class MetadataFilterField(JSONObjectField):
    """``{"key": value}`` (equality) or ``{"key": {"eq"|"ne"|"in"|"contains"|"gt"|"lt": value}}``."""

    OPERATORS = {"eq", "ne", "in", "contains", "gt", "lt"}

    def to_internal_value(self, data: Any) -> dict[str, dict[str, Any]]:
        data = super().to_internal_value(data)
        result: dict[str, dict[str, Any]] = {}
        for key, spec in data.items():
            ops = spec if isinstance(spec, dict) and spec and set(spec) <= self.OPERATORS else {"eq": spec}
            if isinstance(spec, dict) and spec and set(spec) & self.OPERATORS and not set(spec) <= self.OPERATORS:
                raise serializers.ValidationError(f"{key}: operators are {', '.join(sorted(self.OPERATORS))}")
            if "in" in ops and not isinstance(ops["in"], list):
                raise serializers.ValidationError(f"{key}: 'in' takes a list")
            for op in ("gt", "lt"):
                if op in ops and (isinstance(ops[op], bool) or not isinstance(ops[op], int | float | str)):
                    raise serializers.ValidationError(f"{key}: '{op}' takes a number or a string")
            result[str(key)] = ops
        return result


class SearchInput(StrictSerializer):
    """Seed 002's ``search_memory``: REST and the tool (which leaves out ``format``)."""

    query = TextField(max_length=4000, help_text="query string to search for", unscanned=Unscanned.QUERY)
    namespace = namespace_field()
    limit = BoundedIntegerField(required=False, default=5, min_value=1, max_value=100)
    tags = TagListField(required=False, default=list, unscanned=Unscanned.QUERY)
    tags_mode = serializers.ChoiceField(choices=["any", "all"], required=False, default="any")
    metadata = MetadataFilterField(required=False, default=dict, unscanned=Unscanned.QUERY)
    created_after = AwareDateTimeField(required=False, allow_null=True, default=None)
    created_before = AwareDateTimeField(required=False, allow_null=True, default=None)
    mode = serializers.ChoiceField(choices=["hybrid", "vector", "keyword"], required=False, default="hybrid")
    format = serializers.ChoiceField(choices=["json", "text"], required=False, default="json")
    min_score = BoundedFloatField(
        required=False,
        allow_null=True,
        default=None,
        min_value=0.0,
        max_value=1.0,
        help_text="Leave out results scoring below this (0 keeps the top k whatever they are); when absent or "
        "null, MNEMO_SEARCH_MIN_SCORE and the answerability check (MNEMO_ANSWERABLE_CHECK: hybrid search answers "
        "nothing to a question about people and things the namespace never heard of).",
    )
    as_of = AwareDateTimeField(
        required=False,
        allow_null=True,
        default=None,
        help_text="recall the memories valid at this moment (valid_from ≤ as_of < valid_until, not expired then); "
        "default now",
    )


class SearchToolInput(SearchInput):
    """The ``search_memory`` tool: SearchInput without ``format`` (the tool answers both forms)."""

    format = None  # type: ignore[assignment]  # DRF: None removes an inherited field


class SearchResultOutput(SharedFieldsOutput):
    id = serializers.IntegerField(source="memory.id")
    text = serializers.CharField(source="memory.text")
    score = serializers.FloatField(
        help_text="Calibrated relevance in [0, 1], comparable across queries: above 0.5 the memory is more "
        "likely relevant to the query than not (docs/memory-api.md: Search)."
    )
    similarity = serializers.FloatField(
        allow_null=True, help_text="Cosine similarity of the memory to the query (null in keyword mode)."
    )
    keyword_coverage = serializers.FloatField(
        source="coverage",
        allow_null=True,
        help_text="IDF-weighted share of the query's words the memory holds, in [0, 1] (null in vector mode).",
    )
    tags = serializers.ListField(source="memory.tags", child=serializers.CharField())
    metadata = serializers.DictField(source="memory.metadata")
    created_at = serializers.DateTimeField(source="memory.created_at")
    last_confirmed_at = serializers.DateTimeField(source="memory.last_confirmed_at")
    valid_from = serializers.DateTimeField(source="memory.valid_from", allow_null=True)
    valid_until = serializers.DateTimeField(source="memory.valid_until", allow_null=True)


_DATETIME = serializers.DateTimeField()  # its to_representation only: the format and zone DRF's output uses


def _datetime_representation() -> Any:
    """``DateTimeField().to_representation`` for this response: for DRF's ISO 8601 output with
    time zones on, an aware datetime is its ``astimezone`` of the current zone in ISO form (UTC as
    ``Z``), what DRF makes of it without its per-call settings and zone checks (a third of the
    cost, and search formats four dates per hit); anything else goes to DRF's own."""
    from django.utils import timezone
    from rest_framework.settings import api_settings

    drf = _DATETIME.to_representation
    if not settings.USE_TZ or str(api_settings.DATETIME_FORMAT).lower() != "iso-8601":
        return drf
    zone = timezone.get_current_timezone()

    def represent(value: Any) -> Any:
        if type(value) is not datetime or value.utcoffset() is None:
            return drf(value)
        text = value.astimezone(zone).isoformat()
        return text[:-6] + "Z" if text.endswith("+00:00") else text

    return represent


def search_results(hits: list[Any]) -> list[dict[str, Any]]:
    """``SearchResultOutput(hits, many=True).data``, the same JSON, built as plain dicts.

    Search answers up to 100 hits per request, and DRF's serializer walks each field's ``source``
    path, checks for None and calls its ``to_representation`` per hit: about 0.5 ms of a search's
    web CPU for ten hits (bench/profile_search.py). The serializer stays the documented output
    (the OpenAPI schema is built from it); tests/memories/test_search_presenter.py holds the two
    equal."""
    dt = _datetime_representation()
    results = []
    for hit in hits:
        m = hit.memory
        created_at, confirmed_at, valid_from, valid_until = (
            m.created_at,
            m.last_confirmed_at,
            m.valid_from,
            m.valid_until,
        )
        results.append(
            {
                "id": int(m.id),
                "text": str(m.text),
                "score": float(hit.score),
                "similarity": None if hit.similarity is None else float(hit.similarity),
                "keyword_coverage": None if hit.coverage is None else float(hit.coverage),
                "tags": None if m.tags is None else [None if t is None else str(t) for t in m.tags],
                "metadata": None if m.metadata is None else {str(k): v for k, v in m.metadata.items()},
                "created_at": None if created_at is None else dt(created_at),
                "last_confirmed_at": None if confirmed_at is None else dt(confirmed_at),
                "valid_from": None if valid_from is None else dt(valid_from),
                "valid_until": None if valid_until is None else dt(valid_until),
            }
        )
    return results


class MemoryOutput(serializers.ModelSerializer):
    namespace = serializers.CharField(source="namespace.key")
    created_by = serializers.CharField(source="created_by.username", default=None, allow_null=True)

    class Meta:
        model = Memory
        fields = [
            "id",
            "namespace",
            "text",
            "tags",
            "metadata",
            "status",
            "event_id",
            "source_provider",
            "importance",
            "capture_mode",
            "session_id",
            "expires_at",
            "valid_from",
            "valid_until",
            "last_confirmed_at",
            "created_at",
            "updated_at",
            "created_by",
            "embedding_model",
            "forgotten_at",
        ]


class MemoryPatchInput(StrictSerializer):
    text = text_field(required=False)
    tags = TagListField(required=False)
    expires_at = AwareDateTimeField(required=False, allow_null=True)
    metadata = JSONObjectField(required=False)
    importance = BoundedFloatField(required=False, min_value=0.0, max_value=1.0)
    source_provider = TextField(required=False, allow_blank=True, max_length=200)
    capture_mode = serializers.ChoiceField(choices=["", *Memory.CaptureMode.values], required=False)
    session_id = TextField(required=False, allow_blank=True, max_length=255, trim_whitespace=False)
    valid_from = valid_from_field(default=empty)
    valid_until = valid_until_field(
        default=empty, help_text="when the fact stopped being true (ISO 8601; after valid_from); null reopens it"
    )


class ForgetInput(StrictSerializer):
    reason = TextField(required=False, allow_blank=True, default="", max_length=2000)


class ForgetToolInput(ForgetInput):
    """The ``forget`` tool: ForgetInput plus the memory it names (REST has it in the path)."""

    memory_id = BoundedIntegerField(min_value=1)


class CorrectInput(StrictSerializer):
    text = text_field()
    reason = TextField(required=False, allow_blank=True, default="", max_length=2000)


class ImportLineInput(RememberInput):
    """One memory line of ``import_memories``: ``remember``'s contract plus what an export writes
    (``created_at``, ``event_id``, the embedding…). A field added to RememberInput is checked here
    too."""

    type = serializers.ChoiceField(choices=["memory"], required=False, default="memory")
    # An import stores each line as exported (its validity included): it closes nothing.
    supersede = None  # type: ignore[assignment]  # DRF: None removes an inherited field
    id = serializers.IntegerField(required=False, allow_null=True, default=None)
    event_id = UUIDField(required=False, allow_null=True, default=None)
    # The namespace a line names is created if missing: a stored key, scanned.
    namespace = namespace_field(unscanned=None)
    status = TextField(required=False, allow_blank=True, max_length=20, unscanned=Unscanned.IGNORED)
    created_at = AwareDateTimeField(required=False, allow_null=True, default=None)
    updated_at = AwareDateTimeField(required=False, allow_null=True, default=None)
    forgotten_at = AwareDateTimeField(required=False, allow_null=True, default=None)
    created_by = TextField(
        required=False, allow_blank=True, allow_null=True, max_length=150, unscanned=Unscanned.IGNORED
    )
    embedding_model = TextField(required=False, allow_blank=True, default="", max_length=200)
    embedding = serializers.ListField(
        child=BoundedFloatField(), required=False, allow_null=True, default=None, max_length=4096
    )
    source_provider = TextField(required=False, default="", allow_blank=True, allow_null=True, max_length=200)
    session_id = TextField(
        required=False, default="", allow_blank=True, allow_null=True, max_length=255, trim_whitespace=False
    )
    capture_mode = serializers.ChoiceField(
        choices=["", *Memory.CaptureMode.values], required=False, default="", allow_null=True
    )
    tags = TagListField(required=False, default=list, allow_null=True)
    metadata = JSONObjectField(required=False, default=dict, allow_null=True)


class ImportTombstoneInput(StrictSerializer):
    """One tombstone line of ``import_memories``."""

    type = serializers.ChoiceField(choices=["tombstone"])
    id = serializers.IntegerField(required=False, allow_null=True, default=None)
    memory_id = serializers.IntegerField(required=False, allow_null=True, default=None)
    namespace = TextField(required=False, allow_blank=True, default="", max_length=NAMESPACE_MAX)  # created: scanned
    text = text_field()
    kind = serializers.ChoiceField(choices=Tombstone.Kind.values, required=False, default=Tombstone.Kind.FORGOTTEN)
    reason = TextField(required=False, allow_blank=True, allow_null=True, default="", max_length=2000)
    replaced_by = serializers.IntegerField(required=False, allow_null=True, default=None)
    created_at = AwareDateTimeField(required=False, allow_null=True, default=None)
    embedding = serializers.ListField(
        child=BoundedFloatField(), required=False, allow_null=True, default=None, max_length=4096
    )


class TombstoneOutput(serializers.ModelSerializer):
    namespace = serializers.CharField(source="namespace.key")

    class Meta:
        model = Tombstone
        fields = ["id", "memory", "namespace", "text", "kind", "reason", "replaced_by", "created_at"]


class ForgetOutput(serializers.Serializer):
    """``POST /memories/{id}/forget`` and ``DELETE /memories/{id}``."""

    ok = serializers.BooleanField()
    tombstone = TombstoneOutput()


class CorrectOutput(serializers.Serializer):
    """``POST /memories/{id}/correct``: the new memory and the old one's tombstone."""

    ok = serializers.BooleanField()
    memory = MemoryOutput()
    tombstone = TombstoneOutput()


class EventOutput(serializers.ModelSerializer):
    actor = serializers.CharField(source="actor.username", default=None, allow_null=True)

    class Meta:
        model = MemoryEvent
        fields = ["id", "memory", "event_type", "old_text", "new_text", "actor", "data", "created_at"]


class HistoryOutput(serializers.Serializer):
    """``GET /memories/{id}/history``."""

    ok = serializers.BooleanField()
    memory_id = serializers.IntegerField()
    events = EventOutput(many=True)


class SearchOutput(serializers.Serializer):
    """``POST /memories/search``: ``results`` (format json) or seed 002's ``text`` (format text)."""

    ok = serializers.BooleanField()
    results = SearchResultOutput(many=True, required=False)
    text = serializers.CharField(required=False)


class EventStatusOutput(serializers.Serializer):
    ok = serializers.BooleanField(default=True)
    event_id = serializers.UUIDField()
    status = serializers.CharField()
    memory_id = serializers.IntegerField()
    error = serializers.CharField(allow_null=True)


class NamespaceOutput(serializers.ModelSerializer):
    owner = serializers.CharField(source="owner.username", default=None, allow_null=True)
    can_write = serializers.BooleanField()
    memory_count = serializers.IntegerField()

    class Meta:
        model = Namespace
        fields = ["key", "kind", "owner", "can_write", "memory_count", "created_at"]
