"""List, get, patch, delete, forget, correct, confirm, history: what each does to recall and record."""

import pytest

from memories.models import Memory, MemoryEvent, Tombstone

pytestmark = pytest.mark.django_db


def remember(client, text, **extra):
    response = client.post("/api/v1/memories/remember", {"text": text, **extra}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()["memory_id"]


def recall_ids(client, query):
    return [
        r["id"]
        for r in client.post("/api/v1/memories/search", {"query": query, "limit": 100}, format="json").json()["results"]
    ]


def test_list_is_paginated_and_filterable(token_client):
    for i in range(3):
        remember(token_client, f"Work fact {i}", tags=["work"], dedup_policy="insert")
    remember(token_client, "Home fact", tags=["home"], capture_mode="inferred", source_provider="gpt")
    body = token_client.get("/api/v1/memories?limit=2").json()
    assert body["count"] == 4 and len(body["results"]) == 2 and body["next"]
    assert {m["text"] for m in token_client.get("/api/v1/memories?tag=work").json()["results"]} == {
        "Work fact 0",
        "Work fact 1",
        "Work fact 2",
    }
    assert [m["text"] for m in token_client.get("/api/v1/memories?capture_mode=inferred").json()["results"]] == [
        "Home fact"
    ]
    assert token_client.get("/api/v1/memories?source_provider=gpt").json()["count"] == 1
    assert token_client.get("/api/v1/memories?status=queued").json()["count"] == 0


def test_get_shows_every_field(token_client, user):
    memory_id = remember(token_client, "User likes jazz", tags=["Music"])
    body = token_client.get(f"/api/v1/memories/{memory_id}").json()
    assert body["id"] == memory_id and body["text"] == "User likes jazz" and body["tags"] == ["music"]
    assert body["namespace"] == f"user:{user.username}" and body["created_by"] == user.username
    assert body["status"] == "ready" and body["forgotten_at"] is None
    assert "embedding" not in body


def test_patch_text_reembeds_and_records_history(token_client, django_capture_on_commit_callbacks):
    memory_id = remember(token_client, "User's favourite colour is blue")
    before = Memory.objects.get(id=memory_id).embedding
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = token_client.patch(
            f"/api/v1/memories/{memory_id}",
            {"text": "User's favourite colour is green", "tags": ["Colours"]},
            format="json",
        )
    assert response.status_code == 200
    assert response.json()["status"] == "queued"  # the page says so: re-embedding after the commit
    for callback in callbacks:
        callback()
    memory = Memory.objects.get(id=memory_id)
    assert memory.text == "User's favourite colour is green" and memory.tags == ["colours"]
    assert memory.status == "ready"  # re-embedded after commit (in process here)
    assert list(memory.embedding) != list(before)
    event = MemoryEvent.objects.filter(memory_id=memory_id, event_type="update").get()
    assert (event.old_text, event.new_text) == ("User's favourite colour is blue", "User's favourite colour is green")


def test_patch_validates_like_remember(token_client):
    memory_id = remember(token_client, "User's favourite colour is blue")
    secret = token_client.patch(
        f"/api/v1/memories/{memory_id}", {"text": "token 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"}, format="json"
    )
    assert secret.status_code == 400 and secret.json()["error"]["code"] == "SECRET_REJECTED"
    past = token_client.patch(f"/api/v1/memories/{memory_id}", {"expires_at": "2001-01-01T00:00:00Z"}, format="json")
    assert past.status_code == 400
    assert Memory.objects.get(id=memory_id).text == "User's favourite colour is blue"


def test_forget_leaves_recall_and_keeps_a_tombstone(token_client):
    memory_id = remember(token_client, "User lives in Portland")
    assert memory_id in recall_ids(token_client, "where does the user live")
    response = token_client.post(f"/api/v1/memories/{memory_id}/forget", {"reason": "moved away"}, format="json")
    assert response.status_code == 200
    tombstone = Tombstone.objects.get(memory_id=memory_id)
    assert response.json()["tombstone"]["id"] == tombstone.id
    assert (tombstone.text, tombstone.reason, tombstone.kind) == ("User lives in Portland", "moved away", "forgotten")
    assert tombstone.embedding is not None
    assert memory_id not in recall_ids(token_client, "where does the user live")
    assert token_client.get("/api/v1/memories").json()["count"] == 0
    assert token_client.get("/api/v1/memories?include_forgotten=true").json()["count"] == 1
    again = token_client.post(f"/api/v1/memories/{memory_id}/forget", {"reason": "twice"}, format="json")
    assert again.status_code == 400
    assert Tombstone.objects.count() == 1


def test_delete_is_a_tombstone_too(token_client):
    memory_id = remember(token_client, "User is learning Italian")
    assert token_client.delete(f"/api/v1/memories/{memory_id}").status_code == 200
    assert Tombstone.objects.get(memory_id=memory_id).kind == "deleted"
    assert memory_id not in recall_ids(token_client, "Italian")


def test_correct_replaces_and_points_the_tombstone_at_the_replacement(token_client):
    old = remember(token_client, "User's manager is John Smith", tags=["work"])
    response = token_client.post(
        f"/api/v1/memories/{old}/correct", {"text": "User's manager is Jane Doe", "reason": "reorg"}, format="json"
    )
    assert response.status_code == 201
    new = response.json()["memory"]["id"]
    assert response.json()["memory"]["tags"] == ["work"]
    tombstone = Tombstone.objects.get(memory_id=old)
    assert tombstone.replaced_by_id == new and tombstone.kind == "corrected" and tombstone.reason == "reorg"
    assert recall_ids(token_client, "who is the user's manager") == [new]
    history = token_client.get(f"/api/v1/memories/{old}/history").json()["events"]
    assert [e["event_type"] for e in history] == ["add", "correct"]
    assert (
        history[1]["old_text"] == "User's manager is John Smith"
        and history[1]["new_text"] == "User's manager is Jane Doe"
    )


def test_confirm_moves_last_confirmed_at(token_client):
    memory_id = remember(token_client, "User still works at Acme", last_confirmed_at="2025-01-01T00:00:00Z")
    body = token_client.post(f"/api/v1/memories/{memory_id}/confirm").json()
    assert body["last_confirmed_at"] > "2026-"
    assert MemoryEvent.objects.filter(memory_id=memory_id, event_type="confirm").count() == 1


def test_history_records_every_change_with_its_actor(token_client, user):
    memory_id = remember(token_client, "Fact one")
    token_client.patch(f"/api/v1/memories/{memory_id}", {"text": "Fact one, revised"}, format="json")
    token_client.post(f"/api/v1/memories/{memory_id}/confirm")
    token_client.post(f"/api/v1/memories/{memory_id}/forget", {"reason": "obsolete"}, format="json")
    events = token_client.get(f"/api/v1/memories/{memory_id}/history").json()["events"]
    assert [e["event_type"] for e in events] == ["add", "update", "confirm", "forget"]
    assert {e["actor"] for e in events} == {user.username}
    assert events[3]["data"]["reason"] == "obsolete"
