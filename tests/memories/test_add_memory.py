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
        private_redis.start()
        start_worker(private_redis.url)
        assert services.requeue_stale_memories(older_than=timedelta(0)) == 1
    wait_for(lambda: Memory.objects.get(id=memory_id).status == Memory.Status.READY, 60, "the sweeper's resend")


@pytest.mark.django_db
def test_the_periodic_sweeper_is_scheduled():
    from config.celery import app

    schedule = app.conf.beat_schedule
    assert schedule["requeue-stale-memories"]["task"] == "memories.tasks.requeue_stale_memories"
