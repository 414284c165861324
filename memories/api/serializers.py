"""Input and output serializers of the memory API. Inputs validate shape; services decide."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from core.api import JSONObjectField, StrictCharField, StrictSerializer
from memories.models import Memory, MemoryEvent, Namespace, Tombstone


def text_field(**kwargs: Any) -> serializers.CharField:
    # Length and secrets are checked by the service (the same rules for every way in); here only
    # the type. trim_whitespace off: the text is stored exactly as sent.
    return StrictCharField(trim_whitespace=False, allow_blank=True, **kwargs)


class RememberInput(StrictSerializer):
    text = text_field()
    tags = serializers.ListField(child=serializers.CharField(allow_blank=True), required=False, default=list)
    source_provider = serializers.CharField(required=False, default="", allow_blank=True, max_length=200)
    importance = serializers.FloatField(required=False, default=0.5, min_value=0.0, max_value=1.0)
    capture_mode = serializers.ChoiceField(choices=Memory.CaptureMode.values, required=False, default="")
    session_id = serializers.CharField(required=False, default="", allow_blank=True, max_length=255)
    dedup_policy = serializers.ChoiceField(choices=["insert", "skip_if_near", "ask"], required=False, default="ask")
    expires_at = serializers.DateTimeField(required=False, allow_null=True, default=None)
    last_confirmed_at = serializers.DateTimeField(required=False, allow_null=True, default=None)
    namespace = serializers.CharField(required=False, allow_blank=True, default="")
    metadata = JSONObjectField(required=False, default=dict)


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


class RememberOutput(serializers.Serializer):
    ok = serializers.BooleanField(default=True)
    memory_id = serializers.IntegerField()
    message = serializers.CharField()
    near_duplicates = NearDuplicateOutput(many=True, required=False)
    previously_corrected = PreviouslyCorrectedOutput(many=True, required=False)


class AddMemoryInput(StrictSerializer):
    content = text_field()
    metadata = JSONObjectField(required=False, default=dict)
    namespace = serializers.CharField(required=False, allow_blank=True, default="")
    # "async" is a Python keyword: the field is declared under another name and renamed below.
    run_async = serializers.BooleanField(required=False, default=True)

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict) and "async" in data:
            data = {**data, "run_async": data["async"]}
            data.pop("async")
            self.initial_data = data
        return super().to_internal_value(data)


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
    query = serializers.CharField(max_length=4000)
    namespace = serializers.CharField(required=False, allow_blank=True, default="")
    limit = serializers.IntegerField(required=False, default=5, min_value=1, max_value=100)
    tags = serializers.ListField(child=serializers.CharField(), required=False, default=list)
    tags_mode = serializers.ChoiceField(choices=["any", "all"], required=False, default="any")
    metadata = MetadataFilterField(required=False, default=dict)
    created_after = serializers.DateTimeField(required=False, allow_null=True, default=None)
    created_before = serializers.DateTimeField(required=False, allow_null=True, default=None)
    mode = serializers.ChoiceField(choices=["hybrid", "vector", "keyword"], required=False, default="hybrid")
    format = serializers.ChoiceField(choices=["json", "text"], required=False, default="json")
    min_score = serializers.FloatField(
        required=False,
        allow_null=True,
        default=None,
        min_value=0.0,
        max_value=1.0,
        help_text="Leave out results scoring below this (0 keeps all); default MNEMO_SEARCH_MIN_SCORE.",
    )


class SearchResultOutput(serializers.Serializer):
    id = serializers.IntegerField(source="memory.id")
    text = serializers.CharField(source="memory.text")
    score = serializers.FloatField(
        help_text="Calibrated relevance in [0, 1], comparable across queries: above 0.5 the memory is more "
        "likely relevant to the query than not (README: Search)."
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


class MemoryOutput(serializers.ModelSerializer):
    namespace = serializers.CharField(source="namespace.key")
    created_by = serializers.CharField(source="created_by.username", default=None)

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
            "last_confirmed_at",
            "created_at",
            "updated_at",
            "created_by",
            "embedding_model",
            "forgotten_at",
        ]


class MemoryPatchInput(StrictSerializer):
    text = text_field(required=False)
    tags = serializers.ListField(child=serializers.CharField(allow_blank=True), required=False)
    expires_at = serializers.DateTimeField(required=False, allow_null=True)
    metadata = JSONObjectField(required=False)
    importance = serializers.FloatField(required=False, min_value=0.0, max_value=1.0)
    source_provider = serializers.CharField(required=False, allow_blank=True, max_length=200)
    capture_mode = serializers.ChoiceField(choices=["", *Memory.CaptureMode.values], required=False)
    session_id = serializers.CharField(required=False, allow_blank=True, max_length=255)


class ForgetInput(StrictSerializer):
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=2000)


class CorrectInput(StrictSerializer):
    text = text_field()
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=2000)


class TombstoneOutput(serializers.ModelSerializer):
    namespace = serializers.CharField(source="namespace.key")

    class Meta:
        model = Tombstone
        fields = ["id", "memory", "namespace", "text", "kind", "reason", "replaced_by", "created_at"]


class EventOutput(serializers.ModelSerializer):
    actor = serializers.CharField(source="actor.username", default=None)

    class Meta:
        model = MemoryEvent
        fields = ["id", "memory", "event_type", "old_text", "new_text", "actor", "data", "created_at"]


class EventStatusOutput(serializers.Serializer):
    ok = serializers.BooleanField(default=True)
    event_id = serializers.UUIDField()
    status = serializers.CharField()
    memory_id = serializers.IntegerField()
    error = serializers.CharField(allow_null=True)


class NamespaceOutput(serializers.ModelSerializer):
    owner = serializers.CharField(source="owner.username", default=None)
    can_write = serializers.BooleanField()
    memory_count = serializers.IntegerField()

    class Meta:
        model = Namespace
        fields = ["key", "kind", "owner", "can_write", "memory_count", "created_at"]
