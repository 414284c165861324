"""The default broker (kombu's SQLAlchemy transport on Mnemo's PostgreSQL, config/broker.py) with a
real worker: a memory goes queued -> ready, a taken message leaves the table, and a worker killed
mid-task loses nothing (the outbox row stays queued and the sweeper sends it again)."""

from __future__ import annotations

from datetime import timedelta

import psycopg
import pytest
from django.db import connection

from memories import services
from memories.models import Memory
from tests.conftest import celery_broker, wait_for
from tests.factories import MemoryFactory

pytestmark = [pytest.mark.worker]


def _status(memory_id: int) -> str:
    return Memory.objects.values_list("status", flat=True).get(id=memory_id)


@pytest.fixture
def database_broker_url():
    params = connection.get_connection_params()
    host = params.get("host") or "127.0.0.1"
    name = connection.settings_dict["NAME"]
    user = params.get("user") or "postgres"
    password = params.get("password")
    auth = f"{user}:{password}@" if password else f"{user}@"
    if host.startswith("/"):
        yield f"sqla+postgresql+psycopg://{auth}/{name}?host={host}"
    else:
        yield f"sqla+postgresql+psycopg://{auth}{host}:{params.get('port') or 5432}/{name}"
    # This process published through a SQLAlchemy engine: close its pooled connections, or the
    # test database cannot be dropped at the end of the run.
    from kombu.transport.sqlalchemy import Channel

    for engine, _ in Channel._engines.values():
        engine.dispose()
    Channel._engines.clear()


def _messages() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT to_regclass('kombu_message') IS NOT NULL")
        if not cursor.fetchone()[0]:
            return 0
        cursor.execute("SELECT count(*) FROM kombu_message")
        return cursor.fetchone()[0]


@pytest.mark.django_db(transaction=True)
def test_a_worker_on_the_database_broker_embeds_a_queued_memory(database_broker_url, start_worker):
    row = MemoryFactory(text="Dana prefers window seats on long flights.")
    start_worker(database_broker_url)
    with celery_broker(database_broker_url):
        assert services.send_to_queue([row.id]) is True
    wait_for(lambda: _status(row.id) == Memory.Status.READY, 60, "the worker to embed the memory")
    assert _messages() == 0  # taken messages are deleted, the table does not grow


@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_task_loses_nothing_on_the_database_broker(database_broker_url, start_worker):
    row = MemoryFactory(text="The user's Linear team ID is TEAM-456.")
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    locker = psycopg.connect(**params)
    try:
        # Hold the row's lock: the worker's task blocks after it took the message.
        locker.execute("SELECT id FROM memories_memory WHERE id = %s FOR UPDATE", (row.id,))
        worker = start_worker(database_broker_url)
        with celery_broker(database_broker_url):
            assert services.send_to_queue([row.id]) is True

        def worker_waits_on_lock() -> bool:
            with connection.cursor() as cursor:
                cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'")
                return cursor.fetchone()[0] > 0

        wait_for(worker_waits_on_lock, 60, "the worker to start the task")
        worker.kill()  # SIGKILL: the message is gone from the broker with it
        assert _messages() == 0
        assert _status(row.id) == Memory.Status.QUEUED  # ...but the outbox row is still there
    finally:
        locker.rollback()
        locker.close()

    start_worker(database_broker_url)
    with celery_broker(database_broker_url):
        # The sweeper (beat runs it every MNEMO_SWEEP_INTERVAL_SECONDS) sends it again.
        assert services.requeue_stale_memories(older_than=timedelta(0)) == 1
    wait_for(lambda: _status(row.id) == Memory.Status.READY, 60, "the swept memory to be embedded")
    assert Memory.objects.filter(text=row.text).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_publish_is_one_row_as_kombu_writes_it_and_leaves_no_transaction_open(database_broker_url, start_worker):
    """config/broker.py publishes with one INSERT in autocommit (the queue's id remembered)
    instead of kombu's session: the row must be the one kombu's ORM wrote (visible, version 1,
    the queue's id, the task's JSON body), and no connection may be left inside a transaction
    (kombu's queue declaration counted messages in a transaction its next publish committed)."""
    import json

    rows = [MemoryFactory(text=f"Kenji booked table {n} at Nostrana.") for n in range(3)]
    with celery_broker(database_broker_url):
        for row in rows:
            assert services.send_to_queue([row.id]) is True
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT m.visible, m.version, q.name, m.payload FROM kombu_message m "
            "JOIN kombu_queue q ON q.id = m.queue_id ORDER BY m.id"
        )
        published = cursor.fetchall()
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND state = 'idle in transaction' AND pid <> pg_backend_pid()"
        )
        idle_in_transaction = cursor.fetchone()[0]
    from django.conf import settings

    queue = settings.CELERY_TASK_DEFAULT_QUEUE
    assert [(visible, version, name) for visible, version, name, _ in published] == [(True, 1, queue)] * 3
    bodies = [json.loads(payload) for *_, payload in published]
    assert [body["headers"]["task"] for body in bodies] == ["memories.tasks.embed_memories"] * 3
    assert [body["headers"]["argsrepr"] for body in bodies] == [f"[[{row.id}]]" for row in rows]
    assert idle_in_transaction == 0
    start_worker(database_broker_url)
    for row in rows:
        wait_for(lambda row=row: _status(row.id) == Memory.Status.READY, 60, "the worker to embed the memory")
    wait_for(lambda: _messages() == 0, 30, "every message to be taken")


@pytest.mark.django_db(transaction=True)
def test_ids_that_arrive_while_a_publish_waits_go_out_together_and_none_is_lost(database_broker_url, start_worker):
    """add_memory hands its row's id to the process's publisher thread after the commit: the
    request does not wait for the broker, and ids handed over while a publish is in flight leave
    in one message. The broker is held still (its queue row locked, so the second memory's
    publish waits) while four more memories are added: they leave together, every id once."""
    import json

    from django.conf import settings

    from memories.permissions import ensure_user_namespace
    from tests.factories import UserFactory

    user = UserFactory()
    namespace = ensure_user_namespace(user)
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    with celery_broker(database_broker_url):
        first = services.add_memory(actor=user, namespace=namespace, content="Dana flies to Lisbon on June 22.")
        assert services.publisher.flush(30)
        with psycopg.connect(**params) as holder:
            holder.execute(
                "SELECT id FROM kombu_queue WHERE name = %s FOR UPDATE", [settings.CELERY_TASK_DEFAULT_QUEUE]
            )
            second = services.add_memory(actor=user, namespace=namespace, content="Dana's seat is 14C.")
            wait_for(lambda: services.publisher._busy, 10, "the publisher to wait on the locked queue")
            rest = [
                services.add_memory(actor=user, namespace=namespace, content=f"Dana packed item {n}.") for n in range(4)
            ]
            assert not services.publisher.flush(0.5)  # still held: the four wait for the first to go
            holder.rollback()
        assert services.publisher.flush(30)
    with connection.cursor() as cursor:
        cursor.execute("SELECT payload FROM kombu_message ORDER BY id")
        sent = [json.loads(payload)["headers"]["argsrepr"] for (payload,) in cursor.fetchall()]
    assert sent == [f"[[{first.id}]]", f"[[{second.id}]]", f"[{[m.id for m in rest]}]"]
    start_worker(database_broker_url)
    for memory in [first, second, *rest]:
        wait_for(lambda m=memory: _status(m.id) == Memory.Status.READY, 60, "the worker to embed every memory")
