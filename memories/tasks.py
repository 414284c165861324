"""Celery tasks. They take ids only, look their rows up, and are safe to run twice."""

from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings
from django.db import OperationalError

from memories import services
from memories.embedding import EmbedderUnavailable

logger = logging.getLogger(__name__)


@shared_task(
    bind=True,
    name="memories.tasks.embed_memories",
    max_retries=5,
    default_retry_delay=2,
    acks_late=True,
    reject_on_worker_lost=True,
)
def embed_memories(self, ids: list[int]) -> int:
    """Embed the queued memories ``ids`` in one batch; rows that are gone or ready are skipped."""
    try:
        return services.embed_queued_memories(ids=ids, fill_to=settings.MNEMO_EMBED_COLLECT)
    except (EmbedderUnavailable, OperationalError) as exc:
        if self.request.retries >= self.max_retries:
            logger.error("embedding %s failed for good: %s", ids, exc)
            services.mark_failed(ids=ids, error=str(exc))
            return 0
        # Exponential backoff: 2, 4, 8, 16, 32 s.
        raise self.retry(exc=exc, countdown=2 ** (self.request.retries + 1)) from exc


@shared_task(name="memories.tasks.requeue_stale_memories", ignore_result=True)
def requeue_stale_memories() -> int:
    """Beat's sweeper: resend memories that stayed queued too long (a lost message loses nothing)."""
    return services.requeue_stale_memories()


@shared_task(name="memories.tasks.index_namespaces", ignore_result=True)
def index_namespaces() -> int:
    """Beat's index keeper: namespaces that grew large get an HNSW index of their own (search of
    them walks only their rows), those that shrank lose it (memories.ops.maintain_namespace_indexes)."""
    from memories import ops

    done = ops.maintain_namespace_indexes(report=lambda action: logger.info("namespace index: %s", action.describe()))
    return len(done or [])
