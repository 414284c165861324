"""A real Celery worker on a real broker embeds queued memories; a killed worker loses nothing."""

import psycopg
import pytest
from django.db import connection

from memories import services
from memories.models import Memory
from tests.conftest import celery_broker, wait_for
from tests.factories import MemoryFactory

pytestmark = [pytest.mark.broker, pytest.mark.worker]


def _status(memory_id: int) -> str:
    return Memory.objects.values_list("status", flat=True).get(id=memory_id)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("broker", ["redis_url", "rabbitmq_url"])
def test_a_worker_embeds_a_queued_memory_end_to_end(broker, request, start_worker):
    url = request.getfixturevalue(broker)
    row = MemoryFactory(text="My son Colby lives in Los Angeles.")
    start_worker(url)
    with celery_broker(url):
        assert services.send_to_queue([row.id]) is True
    wait_for(lambda: _status(row.id) == Memory.Status.READY, 60, "the worker to embed the memory")
    row.refresh_from_db()
    assert len(row.embedding) == 384 and row.embedding_model


@pytest.mark.django_db(transaction=True)
def test_a_task_whose_worker_is_killed_before_ack_is_redelivered_and_runs_once(rabbitmq_url, start_worker):
    row = MemoryFactory(text="The user's Linear team ID is TEAM-123.")
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    # Hold the row's lock so that the worker's task blocks inside the transaction, after it
    # received the message and before it could acknowledge it.
    locker = psycopg.connect(**params)
    try:
        locker.execute("SELECT id FROM memories_memory WHERE id = %s FOR UPDATE", (row.id,))
        worker = start_worker(rabbitmq_url)
        with celery_broker(rabbitmq_url):
            assert services.send_to_queue([row.id]) is True

        def worker_waits_on_lock() -> bool:
            # Asked on another connection: inside the locker's transaction the view is a snapshot.
            with connection.cursor() as cursor:
                cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'")
                return cursor.fetchone()[0] > 0

        wait_for(worker_waits_on_lock, 60, "the worker to start the task")
        worker.kill()  # SIGKILL: no ack, no cleanup
        assert _status(row.id) == Memory.Status.QUEUED
    finally:
        locker.rollback()
        locker.close()

    second = start_worker(rabbitmq_url)
    wait_for(lambda: _status(row.id) == Memory.Status.READY, 60, "the redelivered task to run")
    row.refresh_from_db()
    embedded_at = row.embedded_at
    assert "embed_memories" in second.output()
    # Delivering it once more changes nothing: the row was embedded exactly once.
    assert services.embed_queued_memories(ids=[row.id]) == 0
    row.refresh_from_db()
    assert row.embedded_at == embedded_at
    assert Memory.objects.filter(text=row.text).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_memory_queued_while_the_broker_is_down_is_embedded_after_it_returns(private_redis, start_worker):
    row = MemoryFactory(text="User prefers email summaries in the morning.")
    private_redis.stop()
    with celery_broker(private_redis.url):
        assert services.send_to_queue([row.id]) is False  # not sent, but nothing lost
        assert _status(row.id) == Memory.Status.QUEUED
        private_redis.start()
        start_worker(private_redis.url)
        from datetime import timedelta

        assert services.requeue_stale_memories(older_than=timedelta(0)) == 1
    wait_for(lambda: _status(row.id) == Memory.Status.READY, 60, "the swept memory to be embedded")
