"""Namespaces, memories and the window vectors of long memories."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from pgvector.django import HnswIndex, VectorField

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

    namespace = models.ForeignKey(Namespace, on_delete=models.PROTECT, related_name="memories")
    text = models.TextField()
    embedding = VectorField(dimensions=EMBEDDING_DIMENSIONS, null=True, blank=True)
    embedding_model = models.CharField(max_length=200, blank=True, default="")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED, db_index=True)
    #: The id an asynchronous add answers with (seed 002's event id).
    event_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    error = models.TextField(blank=True, default="")
    embedded_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            HnswIndex(
                name="memory_embedding_hnsw",
                fields=["embedding"],
                m=16,
                ef_construction=64,
                opclasses=["vector_cosine_ops"],
            ),
            models.Index(fields=["namespace", "status"], name="memory_ns_status"),
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
    embedding = VectorField(dimensions=EMBEDDING_DIMENSIONS)

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
