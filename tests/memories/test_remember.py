"""Seed 003 ``remember``: every input, every output, every error code, every dedup policy."""

from datetime import timedelta

import psycopg
import pytest
from django.db import connection
from django.test import override_settings
from django.utils import timezone

from memories.models import Memory, MemoryEvent, Tombstone

pytestmark = pytest.mark.django_db
URL = "/api/v1/memories/remember"


def remember(client, **body):
    return client.post(URL, body, format="json")


def test_the_seed_example_is_stored_with_every_input(token_client, user):
    response = remember(
        token_client,
        text="My son Colby lives in Los Angeles.",
        tags=["Family", " family ", "Los_Angeles  Trip"],
        source_provider="claude-3.5",
        importance=0.8,
        capture_mode="explicit",
        session_id="conv-42",
        expires_at=(timezone.now() + timedelta(days=30)).isoformat(),
        last_confirmed_at="2026-01-02T03:04:05Z",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert set(body) == {"ok", "memory_id", "message", "near_duplicates"}
    assert body["ok"] is True and body["message"] == "Ok" and body["near_duplicates"] == []
    memory = Memory.objects.get(id=body["memory_id"])
    assert memory.text == "My son Colby lives in Los Angeles."
    assert memory.tags == ["family", "los-angeles-trip"]
    assert memory.source_provider == "claude-3.5"
    assert memory.importance == 0.8
    assert memory.capture_mode == "explicit"
    assert memory.session_id == "conv-42"
    assert memory.expires_at > timezone.now()
    assert memory.last_confirmed_at.isoformat() == "2026-01-02T03:04:05+00:00"
    assert memory.namespace.key == f"user:{user.username}"
    assert memory.created_by == user
    assert memory.status == Memory.Status.READY and len(memory.embedding) == 384
    assert list(MemoryEvent.objects.filter(memory=memory).values_list("event_type", flat=True)) == ["add"]


def test_defaults(token_client):
    body = remember(token_client, text="User prefers window seats.").json()
    memory = Memory.objects.get(id=body["memory_id"])
    assert memory.importance == 0.5
    assert memory.tags == [] and memory.capture_mode == "" and memory.session_id == ""
    assert memory.expires_at is None
    assert abs((memory.last_confirmed_at - timezone.now()).total_seconds()) < 60


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({}, "text"),
        ({"text": ""}, "text"),
        ({"text": "   "}, "text"),
        ({"text": 42}, "text"),
        ({"text": "ok", "importance": 1.5}, "importance"),
        ({"text": "ok", "importance": -0.1}, "importance"),
        ({"text": "ok", "capture_mode": "guessed"}, "capture_mode"),
        ({"text": "ok", "dedup_policy": "merge"}, "dedup_policy"),
        ({"text": "ok", "tags": "family"}, "tags"),
        ({"text": "ok", "expires_at": "next tuesday"}, "expires_at"),
        ({"text": "ok", "dedupe_policy": "insert"}, "unknown field"),
        ({"text": "ok", "tags": ["x" * 65]}, "tags"),
        ({"text": "nul\x00byte"}, "NUL characters"),
        ({"text": "ok", "metadata": {"k": "a\x00b"}}, "NUL characters"),
        ({"text": "ok", "metadata": {"a\x00": 1}}, "NUL characters"),
    ],
)
def test_invalid_input(token_client, body, fragment):
    response = token_client.post(URL, body, format="json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "INVALID_INPUT"
    assert fragment in error["message"]
    assert Memory.objects.count() == 0


def test_expires_at_in_the_past_is_invalid(token_client):
    response = remember(token_client, text="Temporary", expires_at="2020-01-01T00:00:00Z")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "INVALID_INPUT"
    assert "past" in response.json()["error"]["message"]


@override_settings(MAX_TEXT_CHARS=100)
def test_text_longer_than_max_text_chars_is_invalid(token_client):
    assert remember(token_client, text="x" * 100).status_code == 201
    response = remember(token_client, text="y" * 101)
    assert response.status_code == 400
    assert "MAX_TEXT_CHARS" in response.json()["error"]["message"]


def test_the_default_limit_is_16000_characters(token_client):
    assert remember(token_client, text="a" * 16000, dedup_policy="insert").status_code == 201
    assert remember(token_client, text="b" * 16001).status_code == 400


def test_secrets_are_rejected_and_nothing_is_stored(token_client):
    response = remember(token_client, text="my github token is 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")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "SECRET_REJECTED"
    assert Memory.objects.count() == 0 and MemoryEvent.objects.count() == 0


def test_ask_inserts_and_lists_near_duplicates(token_client):
    first = remember(token_client, text="User prefers meetings in the afternoon.").json()
    second = remember(token_client, text="User prefers meetings in the afternoon!").json()
    assert second["message"] == "Ok" and second["memory_id"] != first["memory_id"]
    [near] = second["near_duplicates"]
    assert near["memory_id"] == first["memory_id"]
    assert near["text"] == "User prefers meetings in the afternoon."
    assert 0.9 <= near["similarity"] <= 1.0
    assert Memory.objects.count() == 2


def test_skip_if_near_returns_the_existing_id(token_client):
    first = remember(token_client, text="User's GitHub username is @johndoe.").json()
    response = remember(token_client, text="User's GitHub username is @johndoe", dedup_policy="skip_if_near")
    assert response.status_code == 200
    body = response.json()
    assert body["ok"] is True
    assert body["memory_id"] == first["memory_id"]
    assert body["message"] == "Already remembered"
    assert body["near_duplicates"][0]["memory_id"] == first["memory_id"]
    assert Memory.objects.count() == 1


def test_skip_if_near_inserts_when_nothing_is_near(token_client):
    remember(token_client, text="User's GitHub username is @johndoe.")
    body = remember(token_client, text="User is allergic to peanuts.", dedup_policy="skip_if_near").json()
    assert body["message"] == "Ok"
    assert "near_duplicates" not in body
    assert Memory.objects.count() == 2


def test_insert_skips_the_check(token_client):
    remember(token_client, text="User works at Acme Corp.")
    body = remember(token_client, text="User works at Acme Corp.", dedup_policy="insert").json()
    assert body == {"ok": True, "memory_id": body["memory_id"], "message": "Ok"}
    assert Memory.objects.count() == 2


def test_tombstones_nearby_are_previously_corrected(token_client):
    old = remember(token_client, text="User's manager is John Smith.").json()["memory_id"]
    corrected = token_client.post(
        f"/api/v1/memories/{old}/correct",
        {"text": "User's manager is Jane Doe.", "reason": "changed teams"},
        format="json",
    )
    assert corrected.status_code == 201
    body = remember(token_client, text="User's manager is John Smith").json()
    assert body["message"] == "Ok"
    [item] = body["previously_corrected"]
    tombstone = Tombstone.objects.get()
    assert item["tombstone_id"] == tombstone.id
    assert item["memory_id"] == old
    assert item["text"] == "User's manager is John Smith."
    assert item["reason"] == "changed teams"
    assert item["kind"] == "corrected"
    assert item["replaced_by"] == corrected.json()["memory"]["id"]
    assert item["similarity"] >= 0.9


def test_no_previously_corrected_key_without_tombstones(token_client):
    body = remember(token_client, text="User likes jazz.").json()
    assert "previously_corrected" not in body


def test_expired_and_forgotten_memories_are_not_near_duplicates(token_client):
    old = remember(token_client, text="User is in Paris this week.").json()["memory_id"]
    Memory.objects.filter(id=old).update(expires_at=timezone.now() - timedelta(seconds=1))
    body = remember(token_client, text="User is in Paris this week.", dedup_policy="skip_if_near").json()
    assert body["message"] == "Ok" and body["memory_id"] != old


@override_settings(MNEMO_EMBEDDER="memories.embedding.NoSuchModel")
def test_embedding_failure_is_embedding_error_and_writes_nothing(token_client):
    response = remember(token_client, text="User likes tea.")
    assert response.status_code == 503
    assert response.json()["error"]["code"] == "EMBEDDING_ERROR"
    assert Memory.objects.count() == 0 and MemoryEvent.objects.count() == 0


@pytest.mark.django_db(transaction=True)
@override_settings(MNEMO_DB_LOCK_TIMEOUT_MS=200)
def test_database_failure_is_database_error_and_writes_nothing(token_client, user):
    from memories.permissions import ensure_user_namespace

    namespace = ensure_user_namespace(user)
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    # Another session holds the namespace: the write cannot get its lock in time and fails.
    with psycopg.connect(**params) as other:
        other.execute("SELECT id FROM memories_namespace WHERE id = %s FOR UPDATE", (namespace.id,))
        response = remember(token_client, text="User likes tea.")
        other.rollback()
    assert response.status_code == 503
    assert response.json()["error"]["code"] == "DATABASE_ERROR"
    assert Memory.objects.count() == 0 and MemoryEvent.objects.count() == 0


@pytest.mark.django_db(transaction=True)
def test_concurrent_skip_if_near_stores_one_memory(user):
    import threading

    from django.db import connections
    from rest_framework.test import APIClient

    from tests.factories import token_for

    key = token_for(user)
    barrier = threading.Barrier(2)
    results = []

    def call():
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        barrier.wait()
        results.append(remember(client, text="User's Linear team ID is TEAM-123.", dedup_policy="skip_if_near"))
        connections.close_all()

    threads = [threading.Thread(target=call) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(r.status_code for r in results) == [200, 201]
    assert Memory.objects.count() == 1
    assert len({r.json()["memory_id"] for r in results}) == 1


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("User's Linear team ID is TEAM-123", "User's Linear team ID is TEAM-456"),
        (
            "User has a standing meeting with Sarah every Monday at 10am",
            "User has a standing meeting with Sarah every Tuesday at 3pm",
        ),
        ("User prefers meetings in the afternoon.", "User prefers meetings in the morning."),
        ("User's manager is John Smith.", "User's manager is Jane Doe."),
    ],
)
def test_a_changed_fact_is_never_swallowed_as_a_duplicate(token_client, first, second):
    remember(token_client, text=first)
    body = remember(token_client, text=second, dedup_policy="skip_if_near").json()
    assert body["message"] == "Ok"
    assert Memory.objects.count() == 2


def test_the_same_fact_rephrased_is_a_near_duplicate(token_client):
    first = remember(token_client, text="User's Linear team ID is TEAM-123").json()["memory_id"]
    body = remember(token_client, text="The user's Linear team id is TEAM-123.", dedup_policy="skip_if_near").json()
    assert body["message"] == "Already remembered" and body["memory_id"] == first
