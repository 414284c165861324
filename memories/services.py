"""Writes to memories: embedding queued rows, handing them to the queue, sweeping the stragglers.

The memory API of the memories issue (remember, add, forget, correct) builds on these.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from memories.embedding import embed_with_windows, get_embedder
from memories.models import Memory, MemoryChunk

logger = logging.getLogger(__name__)


@transaction.atomic
def embed_queued_memories(*, ids: Iterable[int]) -> int:
    """Embed the given memories that are still ``queued``, in one batch; return how many.

    Idempotent: a row already ``ready`` (or gone) is skipped, so a redelivered or duplicated task
    changes nothing more. Rows are locked while they are embedded, so two workers given the same
    ids embed each row once: the second waits, then finds it ready. If embedding fails the
    transaction rolls back and the rows stay ``queued`` for a retry.
    """
    rows = list(
        Memory.objects.select_for_update()
        .filter(id__in=list(ids), status=Memory.Status.QUEUED)
        .only("id", "text", "namespace_id")
        .order_by("id")
    )
    if not rows:
        return 0
    results = embed_with_windows([row.text for row in rows])
    model_name = get_embedder().name
    now = timezone.now()
    chunks: list[MemoryChunk] = []
    for row, (vector, windows) in zip(rows, results, strict=True):
        row.embedding = vector
        row.embedding_model = model_name
        row.status = Memory.Status.READY
        row.error = ""
        row.embedded_at = now
        row.updated_at = now
        chunks.extend(
            MemoryChunk(memory_id=row.id, namespace_id=row.namespace_id, position=i, embedding=w)
            for i, w in enumerate(windows)
        )
    Memory.objects.bulk_update(
        rows, ["embedding", "embedding_model", "status", "error", "embedded_at", "updated_at"]
    )
    MemoryChunk.objects.filter(memory_id__in=[row.id for row in rows]).delete()
    MemoryChunk.objects.bulk_create(chunks)
    return len(rows)


def mark_failed(*, ids: Iterable[int], error: str) -> int:
    """Give up on queued rows after the task's last retry; the error is kept for the event API."""
    return Memory.objects.filter(id__in=list(ids), status=Memory.Status.QUEUED).update(
        status=Memory.Status.FAILED, error=error[:2000], updated_at=timezone.now()
    )


def send_to_queue(ids: list[int]) -> bool:
    """Publish one embedding task for ``ids`` now; False (and a warning) if the broker is away.

    A failed publish loses nothing: the rows are ``queued`` in the database and the sweeper
    sends them again.
    """
    from memories.tasks import embed_memories

    try:
        if settings.CELERY_TASK_ALWAYS_EAGER:
            # No broker: run here and now (apply_async would still reach for a producer).
            embed_memories.apply(args=[ids], throw=True)
            return True
        embed_memories.apply_async(
            args=[ids],
            retry=True,
            retry_policy={"max_retries": 1, "interval_start": 0.2, "interval_step": 0.2, "interval_max": 0.5},
        )
    except Exception as exc:  # kombu raises several kinds here; any of them means "not sent"
        if settings.CELERY_TASK_ALWAYS_EAGER:
            logger.warning("in-process embedding of %s failed (%s); the rows stay queued", ids, exc)
        else:
            logger.warning("broker unavailable (%s); %d memories stay queued for the sweeper", exc, len(ids))
        return False
    return True


def enqueue_embedding(*, ids: list[int]) -> None:
    """Send ``ids`` to the embedding task once the current transaction commits."""
    if ids:
        transaction.on_commit(lambda: send_to_queue(list(ids)))


def requeue_stale_memories(*, older_than: timedelta | None = None) -> int:
    """The sweeper: send again every memory left ``queued`` longer than ``older_than``.

    Their ``updated_at`` is touched so that one sweep does not resend what the previous one just
    sent. Returns how many rows were sent (or tried: a broker still down leaves them for later).
    """
    if older_than is None:
        older_than = timedelta(seconds=settings.MNEMO_REQUEUE_AFTER_SECONDS)
    now = timezone.now()
    stale = list(
        Memory.objects.filter(status=Memory.Status.QUEUED, updated_at__lt=now - older_than)
        .order_by("id")
        .values_list("id", flat=True)
    )
    size = settings.MNEMO_EMBED_BATCH_SIZE
    for start in range(0, len(stale), size):
        batch = stale[start : start + size]
        Memory.objects.filter(id__in=batch, status=Memory.Status.QUEUED).update(updated_at=now)
        send_to_queue(batch)
    return len(stale)
