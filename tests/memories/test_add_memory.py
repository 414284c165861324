"""Seed 002 ``add_memory``: stored at once, queued, embedded after commit; events; the sweeper."""

from datetime import timedelta

import pytest

from memories import services
from memories.models import Memory
from tests.conftest import celery_broker, wait_for

URL = "/api/v1/memories"


@pytest.mark.django_db
def test_async_add_answers_202_with_the_event_id_and_queued(token_client, user, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = token_client.post(
            URL,
            {
                "content": "User prefers meetings scheduled in the afternoon",
                "metadata": {"category": "preferences", "type": "scheduling"},
            },
            format="json",
        )
    assert response.status_code == 202, response.json()
    body = response.json()
    memory = Memory.objects.get(id=body["id"])
    assert body == {
        "ok": True,
        "id": memory.id,
        "event_id": str(memory.event_id),
        "status": "queued",
        "message": f"Memory queued for processing (Event ID: {memory.event_id}, Status: queued)",
    }
    # Stored before anything else, queued, not yet embedded; the task goes out after the commit.
    assert memory.status == Memory.Status.QUEUED and memory.embedding is None
    assert memory.metadata == {"category": "preferences", "type": "scheduling"}
    assert memory.namespace.key == f"user:{user.username}"
    assert len(callbacks) == 1

    event = token_client.get(f"{URL}/events/{memory.event_id}").json()
    assert event == {
        "ok": True,
        "event_id": str(memory.event_id),
        "status": "queued",
        "memory_id": memory.id,
        "error": None,
    }
    callbacks[0]()  # the commit happens: in process (no broker) the task runs now
    event = token_client.get(f"{URL}/events/{memory.event_id}").json()
    assert event["status"] == "ready"


@pytest.mark.django_db
def test_sync_add_answers_201_stored(token_client):
    response = token_client.post(URL, {"content": "User's GitHub username is @johndoe", "async": False}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["message"] == f"Memory stored successfully with ID: {body['id']}"
    assert body["status"] == "ready"
    assert Memory.objects.get(id=body["id"]).embedding is not None


@pytest.mark.django_db
def test_metadata_tags_are_normalized(token_client):
    body = token_client.post(
        URL, {"content": "x fact", "metadata": {"tags": ["Work Stuff", "work_stuff"]}, "async": False}, format="json"
    ).json()
    assert Memory.objects.get(id=body["id"]).tags == ["work-stuff"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({}, "INVALID_INPUT"),
        ({"content": ""}, "INVALID_INPUT"),
        ({"content": "ok", "metadata": "nope"}, "INVALID_INPUT"),
        ({"content": "ok", "async": "sometimes"}, "INVALID_INPUT"),
        ({"content": "ok", "metadata": {"tags": 5}}, "INVALID_INPUT"),
        ({"content": "aws AKIAIOSFODNN7EXAMPLE"}, "SECRET_REJECTED"),
    ],
)
def test_bad_adds_store_nothing(token_client, body, code):
    response = token_client.post(URL, body, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == code
    assert Memory.objects.count() == 0


@pytest.mark.django_db
def test_unknown_event_is_not_found(token_client):
    response = token_client.get(f"{URL}/events/00000000-0000-0000-0000-000000000000")
    assert response.status_code == 404


@pytest.mark.broker
@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_an_add_with_the_broker_down_is_kept_and_embedded_after_it_returns(token_client, private_redis, start_worker):
    private_redis.stop()
    with celery_broker(private_redis.url):
        response = token_client.post(URL, {"content": "User prefers Slack over email."}, format="json")
        assert response.status_code == 202
        memory_id = response.json()["id"]
        assert Memory.objects.get(id=memory_id).status == Memory.Status.QUEUED
        # The publisher's try (and its one retry) is over before the broker returns: a retry that
        # landed after the restart would send the task itself, and a worker that has its model
        # loaded before it says ready would embed the row before the sweep below could count it.
        assert services.publisher.flush()
        private_redis.start()
        start_worker(private_redis.url)
        assert services.requeue_stale_memories(older_than=timedelta(0)) == 1
    wait_for(lambda: Memory.objects.get(id=memory_id).status == Memory.Status.READY, 60, "the sweeper's resend")


@pytest.mark.django_db
def test_the_periodic_sweeper_is_scheduled():
    from config.celery import app

    schedule = app.conf.beat_schedule
    assert schedule["requeue-stale-memories"]["task"] == "memories.tasks.requeue_stale_memories"


# --- the async write in one statement, the metadata's scan, the publisher's linger ----------------


def _stored(memory: Memory) -> dict:
    """A memory's columns and its events' as stored, without what differs between two writes."""
    from django.forms.models import model_to_dict

    from memories.models import MemoryEvent

    row = model_to_dict(Memory.objects.get(id=memory.id))
    for varying in ("id", "event_id"):
        row.pop(varying, None)
    events = [
        (e.event_type, e.actor_id, e.old_text, e.new_text, e.data)
        for e in MemoryEvent.objects.filter(memory_id=memory.id).order_by("id")
    ]
    return {"row": row, "events": events}


@pytest.mark.django_db
def test_the_async_add_writes_the_row_and_its_event_in_one_statement_as_before(user):
    """One round trip (the row and its event; no second INSERT, no BEGIN or COMMIT of its own),
    and what it stores is what Memory.objects.create and the event's create stored."""
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    from memories.models import MemoryEvent
    from memories.permissions import ensure_user_namespace

    namespace = ensure_user_namespace(user)
    metadata = {"tags": ["Work Stuff"], "source_provider": "chat", "session_id": "s-1", "capture_mode": "explicit"}
    with CaptureQueriesContext(connection) as queries:
        new = services.add_memory(actor=user, namespace=namespace, content="Dana flies on June 22.", metadata=metadata)
    writes = [q["sql"] for q in queries.captured_queries if "INSERT" in q["sql"].upper()]
    assert len(writes) == 1, writes
    assert "memories_memory" in writes[0] and "memories_memoryevent" in writes[0]
    assert len(queries.captured_queries) == 1, [q["sql"][:80] for q in queries.captured_queries]

    # The write before this change, with the same inputs.
    with transaction.atomic():
        old = Memory.objects.create(
            namespace=namespace,
            text="Dana flies on June 22.",
            tags=["work-stuff"],
            metadata=metadata,
            created_by=user,
            capture_mode="explicit",
            source_provider="chat",
            session_id="s-1",
            valid_from=None,
            valid_until=None,
        )
        MemoryEvent.objects.create(
            memory=old, event_type="add", actor=user, old_text="", new_text=old.text, data={"via": "add_memory"}
        )
    stored_new, stored_old = _stored(new), _stored(old)
    from datetime import datetime

    for when in ("created_at", "updated_at", "last_confirmed_at"):  # the write's own time
        a, b = (getattr(Memory.objects.get(id=m.id), when) for m in (new, old))
        assert isinstance(a, datetime) and abs(a - b) < timedelta(seconds=5)
        stored_new["row"].pop(when, None), stored_old["row"].pop(when, None)
    assert stored_new == stored_old
    assert stored_new["row"]["status"] == Memory.Status.QUEUED and stored_new["events"][0][0] == "add"
    assert (new.id, new.event_id) == tuple(Memory.objects.filter(id=new.id).values_list("id", "event_id")[0])


@pytest.mark.django_db
def test_the_service_still_scans_metadata_the_contract_did_not_see(user):
    """Called without an entrance's contract (admin, commands, imports), add_memory scans the
    metadata itself: a text the contract never found clean is scanned, not looked up."""
    from core.errors import SecretRejected
    from memories.permissions import ensure_user_namespace

    namespace = ensure_user_namespace(user)
    with pytest.raises(SecretRejected):
        services.add_memory(
            actor=user, namespace=namespace, content="a fact", metadata={"note": "aws AKIAIOSFODNN7EXAMPLE"}
        )
    with pytest.raises(SecretRejected):
        services.add_memory(actor=user, namespace=namespace, content="a fact", metadata={"AKIAIOSFODNN7EXAMPLE": 1})
    assert Memory.objects.count() == 0


def test_the_publisher_lingers_for_more_ids_and_a_flush_does_not_wait(monkeypatch, settings):
    """Ids handed over within MNEMO_PUBLISH_LINGER_MS of the first leave in one message; a flush
    sends what is waiting at once; a full batch does not wait."""
    import threading
    import time

    sent: list[list[int]] = []
    done = threading.Event()

    def record(ids: list[int]) -> bool:
        sent.append(list(ids))
        done.set()
        return True

    monkeypatch.setattr(services, "send_to_queue", record)
    monkeypatch.setattr(services.connections, "close_all", lambda: None)
    settings.MNEMO_PUBLISH_LINGER_MS = 300
    settings.MNEMO_EMBED_BATCH_SIZE = 4
    publisher = services._Publisher()
    publisher.add([1])
    time.sleep(0.05)
    publisher.add([2])
    publisher.add([3])
    assert done.wait(5)
    assert publisher.flush(5)
    assert sent == [[1, 2, 3]]

    sent.clear()
    settings.MNEMO_PUBLISH_LINGER_MS = 60_000
    started = time.monotonic()
    publisher.add([4])
    assert publisher.flush(5)
    assert sent == [[4]] and time.monotonic() - started < 2  # the flush did not wait out the linger

    sent.clear()
    started = time.monotonic()
    publisher.add([5, 6, 7, 8, 9])
    wait_for(lambda: len(sent) == 1, 5, "a full batch to leave")
    assert sent == [[5, 6, 7, 8]] and time.monotonic() - started < 2  # a full batch goes at once
    assert publisher.flush(5)
    assert sent == [[5, 6, 7, 8], [9]]
