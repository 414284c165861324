"""Namespaces, memories and the window vectors of long memories."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVector, SearchVectorField
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from pgvector.django import HnswIndex

from memories.vector_field import StoredVectorField

#: The width of the ``embedding`` columns; the configured embedder must produce vectors this long
#: (``mnemo_doctor`` and ``/readyz`` check it).
EMBEDDING_DIMENSIONS = 384


class Namespace(models.Model):
    """A unit of isolation: every memory lives in exactly one namespace.

    Keys follow seed 002: ``user:<name>`` for a user's memories, ``agent:<name>`` for an agent's
    skills, anything else (``tool-send_email``, ``global``) for the rest. Who may read or write a
    namespace is a django-guardian object permission on it.
    """

    class Kind(models.TextChoices):
        USER = "user", "user"
        AGENT = "agent", "agent"
        OTHER = "other", "other"

    key = models.CharField(max_length=200, unique=True)
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.OTHER)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="namespaces"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["key"]
        permissions = [
            ("write_namespace", "Can add, change and forget memories in the namespace"),
        ]

    def __str__(self) -> str:
        return self.key

    @staticmethod
    def kind_for_key(key: str) -> str:
        prefix = key.split(":", 1)[0] if ":" in key else ""
        return prefix if prefix in {"user", "agent"} else Namespace.Kind.OTHER


class Memory(models.Model):
    """One remembered fact, in one namespace.

    The row is written first (status ``queued``) and embedded after, by the same code in process
    or by a Celery worker: the database is the source of truth, the broker only carries ids.
    ``embedding`` is the whole text's vector; long texts also keep per-window vectors in
    :class:`MemoryChunk`.
    """

    class Status(models.TextChoices):
        QUEUED = "queued", "queued"
        READY = "ready", "ready"
        FAILED = "failed", "failed"

    class CaptureMode(models.TextChoices):
        EXPLICIT = "explicit", "explicit"
        INFERRED = "inferred", "inferred"

    namespace = models.ForeignKey(Namespace, on_delete=models.PROTECT, related_name="memories")
    text = models.TextField()
    embedding = StoredVectorField(dimensions=EMBEDDING_DIMENSIONS, null=True, blank=True)
    embedding_model = models.CharField(max_length=200, blank=True, default="")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED, db_index=True)
    #: The id an asynchronous add answers with (seed 002's event id).
    event_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    error = models.TextField(blank=True, default="")
    embedded_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)

    # Seed 003's inputs.
    tags = ArrayField(models.CharField(max_length=64), default=list, blank=True)
    source_provider = models.CharField(max_length=200, blank=True, default="")
    #: Stored, not used in recall scoring (seed 003: reserved for future ranking work).
    importance = models.FloatField(default=0.5)
    capture_mode = models.CharField(max_length=10, choices=CaptureMode.choices, blank=True, default="")
    session_id = models.CharField(max_length=255, blank=True, default="")
    #: Recall hides the memory from this moment on; it stays stored until purged.
    expires_at = models.DateTimeField(null=True, blank=True, db_index=True)
    last_confirmed_at = models.DateTimeField(default=timezone.now)
    metadata = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    #: When the fact became and stopped being true (docs/time-aware.md): recall "as of" a moment
    #: finds the memories with valid_from ≤ moment < valid_until (an empty end is open). A newer
    #: memory that supersedes this one closes it (``valid_until``); given, or from ``expires_at``.
    valid_from = models.DateTimeField(null=True, blank=True)
    valid_until = models.DateTimeField(null=True, blank=True)
    #: Set when the memory is forgotten, corrected or merged away: out of recall, kept on record.
    forgotten_at = models.DateTimeField(null=True, blank=True, db_index=True)
    search_vector = models.GeneratedField(
        expression=SearchVector("text", config="english"),
        output_field=SearchVectorField(),
        db_persist=True,
    )

    class Meta:
        verbose_name = "memory"
        verbose_name_plural = "memories"
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(importance__gte=0) & Q(importance__lte=1), name="memory_importance_0_1"),
            models.CheckConstraint(
                condition=Q(valid_from__isnull=True) | Q(valid_until__isnull=True) | Q(valid_from__lt=F("valid_until")),
                name="memory_valid_from_before_until",
            ),
        ]
        indexes = [
            # GIN's pending list bounded at 64 kB (PostgreSQL's least; its default is 4 MB): a
            # new row's entries still queue (the cheap write), but every search through the index
            # reads the whole list, for every word, until autovacuum or the insert that finds it
            # full merges it, and a table written continuously can grow it to thousands of rows
            # between autovacuum's passes (after 1,000 + 20% of the table's rows inserted, by
            # PostgreSQL's defaults): 4,000 rows pending made a keyword search 1.9x and a
            # hybrid one 1.35x dearer, 12,000 rows 3.2x and 1.55x. Bounded, they cost 0.95x to
            # 1.3x what a merged index does (as full as the list happens to be), for +4% on a
            # single-row insert (no list at all cost +16%). bench/gin_pending.py, bench/NOTES.md
            # 2026-11-29; migration 0007.
            GinIndex(fields=["search_vector"], name="memory_search_vector_gin", gin_pending_list_limit=64),
            GinIndex(fields=["tags"], name="memory_tags_gin", gin_pending_list_limit=64),
            GinIndex(
                fields=["metadata"], name="memory_metadata_gin", opclasses=["jsonb_path_ops"], gin_pending_list_limit=64
            ),
            HnswIndex(
                name="memory_embedding_hnsw",
                fields=["embedding"],
                m=16,
                ef_construction=64,
                opclasses=["vector_cosine_ops"],
            ),
            models.Index(fields=["namespace", "status"], name="memory_ns_status"),
            # Counting a namespace's live memories (the namespace list) reads this index alone.
            models.Index(fields=["namespace"], condition=Q(forgotten_at__isnull=True), name="memory_ns_live"),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.text[:60]}"


class MemoryChunk(models.Model):
    """The vector of one window of a memory too long for the model's 256-token input.

    Only memories of more than one window have chunks. The namespace is copied here so that a
    vector search can filter chunks without a join.
    """

    memory = models.ForeignKey(Memory, on_delete=models.CASCADE, related_name="chunks")
    namespace = models.ForeignKey(Namespace, on_delete=models.CASCADE, related_name="+")
    position = models.PositiveIntegerField()
    embedding = StoredVectorField(dimensions=EMBEDDING_DIMENSIONS)

    class Meta:
        ordering = ["memory", "position"]
        constraints = [models.UniqueConstraint(fields=["memory", "position"], name="chunk_unique_position")]
        indexes = [
            HnswIndex(
                name="memorychunk_embedding_hnsw",
                fields=["embedding"],
                m=16,
                ef_construction=64,
                opclasses=["vector_cosine_ops"],
            ),
        ]

    def __str__(self) -> str:
        return f"memory {self.memory_id} window {self.position}"


class Tombstone(models.Model):
    """What is left of a memory that was forgotten, corrected or merged: out of recall, on record.

    It keeps the text and embedding, so that a later ``remember`` of the same fact can report
    ``previously_corrected``, and what replaced it, if anything.
    """

    class Kind(models.TextChoices):
        FORGOTTEN = "forgotten", "forgotten"
        CORRECTED = "corrected", "corrected"
        MERGED = "merged", "merged"
        DELETED = "deleted", "deleted"

    memory = models.ForeignKey(Memory, null=True, blank=True, on_delete=models.SET_NULL, related_name="tombstones")
    namespace = models.ForeignKey(Namespace, on_delete=models.CASCADE, related_name="tombstones")
    text = models.TextField()
    embedding = StoredVectorField(dimensions=EMBEDDING_DIMENSIONS, null=True, blank=True)
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.FORGOTTEN)
    reason = models.TextField(blank=True, default="")
    replaced_by = models.ForeignKey(Memory, null=True, blank=True, on_delete=models.SET_NULL, related_name="replaces")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            HnswIndex(
                name="tombstone_embedding_hnsw",
                fields=["embedding"],
                m=16,
                ef_construction=64,
                opclasses=["vector_cosine_ops"],
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind}: {self.text[:60]}"


class MemoryEvent(models.Model):
    """One entry of a memory's history: add, update, forget, correct, confirm, restore, merge,
    superseded (a newer memory closed its validity; ``data.superseded_by``).

    The link to the memory carries no database constraint, so history outlives a purged memory.
    """

    class Type(models.TextChoices):
        ADD = "add", "add"
        UPDATE = "update", "update"
        FORGET = "forget", "forget"
        CORRECT = "correct", "correct"
        CONFIRM = "confirm", "confirm"
        RESTORE = "restore", "restore"
        MERGE = "merge", "merge"
        SUPERSEDED = "superseded", "superseded"

    memory = models.ForeignKey(Memory, on_delete=models.DO_NOTHING, db_constraint=False, related_name="events")
    event_type = models.CharField(max_length=10, choices=Type.choices)
    old_text = models.TextField(blank=True, default="")
    new_text = models.TextField(blank=True, default="")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = "history event"
        verbose_name_plural = "history"
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["memory", "created_at"], name="memoryevent_memory_time")]

    def __str__(self) -> str:
        return f"{self.event_type} memory {self.memory_id}"


class DuplicateDismissal(models.Model):
    """Staff looked at two near-duplicates and decided they are different facts: the duplicates
    review does not show the pair again. ``memory_a`` is the one with the smaller id."""

    memory_a = models.ForeignKey(Memory, on_delete=models.CASCADE, related_name="+")
    memory_b = models.ForeignKey(Memory, on_delete=models.CASCADE, related_name="+")
    dismissed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["memory_a", "memory_b"], name="duplicatedismissal_unique")]

    def __str__(self) -> str:
        return f"{self.memory_a_id} ≠ {self.memory_b_id}"


#: Upper bounds (milliseconds) of the search-latency histogram's buckets; the last one is open.
LATENCY_BOUNDS_MS = (5, 10, 25, 50, 100, 250, 500, 1000, 2500)


class SearchLatency(models.Model):
    """How long searches took, one row per minute: count, sum, maximum and a histogram.

    The staff home page charts the last hour from it. Searches are buffered in process and written
    at most once a second (memories.latency), so a search costs microseconds, not a round trip;
    rows older than a day are pruned when a new minute begins. Prometheus metrics, where
    deployed, are the detailed record.
    """

    minute = models.DateTimeField(unique=True)
    count = models.PositiveIntegerField(default=0)
    total_ms = models.FloatField(default=0)
    max_ms = models.FloatField(default=0)
    #: Searches per bucket of LATENCY_BOUNDS_MS (≤ 5 ms, ≤ 10 ms, …, then > 2500 ms).
    buckets = ArrayField(models.PositiveIntegerField(), default=list)

    class Meta:
        verbose_name = "search latency (per minute)"
        verbose_name_plural = "search latency (per minute)"
        ordering = ["-minute"]

    def __str__(self) -> str:
        return f"{self.minute:%Y-%m-%d %H:%M}: {self.count} searches"
