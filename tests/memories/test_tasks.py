"""The embedding task and the services behind it, in process (eager)."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from memories import services
from memories.embedding import EmbedderUnavailable
from memories.models import Memory, MemoryChunk
from memories.tasks import embed_memories
from tests.factories import MemoryFactory, NamespaceFactory

pytestmark = pytest.mark.django_db


def test_embed_memories_embeds_queued_rows_in_one_batch():
    ns = NamespaceFactory()
    rows = MemoryFactory.create_batch(5, namespace=ns)
    assert embed_memories.apply(args=[[r.id for r in rows]]).get() == 5
    for row in Memory.objects.filter(id__in=[r.id for r in rows]):
        assert row.status == Memory.Status.READY
        assert len(row.embedding) == 384
        assert row.embedding_model == "all-MiniLM-L6-v2-onnx-int8-rowwise-r3"
        assert row.embedded_at is not None


def test_running_twice_changes_nothing_more():
    row = MemoryFactory()
    assert embed_memories.apply(args=[[row.id]]).get() == 1
    first = Memory.objects.get(id=row.id)
    with CaptureQueriesContext(connection) as queries:
        assert embed_memories.apply(args=[[row.id]]).get() == 0
    again = Memory.objects.get(id=row.id)
    assert (again.embedded_at, again.updated_at) == (first.embedded_at, first.updated_at)
    assert not [q for q in queries.captured_queries if q["sql"].startswith("UPDATE")]


def test_rows_that_no_longer_exist_are_skipped_cleanly():
    row = MemoryFactory()
    gone = MemoryFactory()
    gone_id = gone.id
    gone.delete()
    assert embed_memories.apply(args=[[gone_id, row.id, 987654321]]).get() == 1


def test_long_memories_keep_window_vectors():
    row = MemoryFactory(text=" ".join(f"token{i}" for i in range(1500)))
    services.embed_queued_memories(ids=[row.id])
    assert MemoryChunk.objects.filter(memory=row).count() >= 3
    short = MemoryFactory(text="short")
    services.embed_queued_memories(ids=[short.id])
    assert not MemoryChunk.objects.filter(memory=short).exists()


def test_an_embedding_failure_leaves_the_row_queued_and_unchanged():
    row = MemoryFactory()
    with (
        override_settings(MNEMO_EMBEDDER="memories.embedding.NoSuchModel"),
        pytest.raises(EmbedderUnavailable),
    ):
        services.embed_queued_memories(ids=[row.id])
    row.refresh_from_db()
    assert row.status == Memory.Status.QUEUED and row.embedding is None


def test_the_task_gives_up_after_its_retries_and_marks_the_row_failed():
    row = MemoryFactory()
    with override_settings(MNEMO_EMBEDDER="memories.embedding.NoSuchModel"):
        embed_memories.apply(args=[[row.id]], retries=embed_memories.max_retries)
    row.refresh_from_db()
    assert row.status == Memory.Status.FAILED
    assert "unknown embedder" in row.error


def test_enqueue_after_commit_runs_in_process_without_a_broker(django_capture_on_commit_callbacks):
    row = MemoryFactory()
    with django_capture_on_commit_callbacks(execute=True):
        services.enqueue_embedding(ids=[row.id])
    row.refresh_from_db()
    assert row.status == Memory.Status.READY


@override_settings(MNEMO_EMBED_COLLECT=0)  # here the task embeds only what it was sent
def test_the_sweeper_resends_only_rows_queued_too_long():
    old = MemoryFactory()
    fresh = MemoryFactory()
    Memory.objects.filter(id=old.id).update(updated_at=timezone.now() - timedelta(minutes=30))
    assert services.requeue_stale_memories(older_than=timedelta(minutes=5)) == 1
    old.refresh_from_db()
    fresh.refresh_from_db()
    assert old.status == Memory.Status.READY  # eager here: resent means embedded
    assert fresh.status == Memory.Status.QUEUED


def test_a_task_collects_other_queued_memories_into_its_batch():
    ns = NamespaceFactory()
    mine, *others = MemoryFactory.create_batch(5, namespace=ns)
    with override_settings(MNEMO_EMBED_COLLECT=3):
        assert embed_memories.apply(args=[[mine.id]]).get() == 3
    statuses = dict(Memory.objects.values_list("id", "status"))
    assert statuses[mine.id] == "ready"
    assert sorted(statuses.values()).count("ready") == 3  # its own and the two oldest others
    # The tasks of the rows it took find them ready: nothing more to do.
    taken = [m.id for m in others if statuses[m.id] == "ready"]
    with override_settings(MNEMO_EMBED_COLLECT=0):
        assert embed_memories.apply(args=[taken]).get() == 0
