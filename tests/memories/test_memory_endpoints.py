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


@pytest.mark.parametrize("how", ["delete", "forget"])
def test_writes_to_a_deleted_or_forgotten_memory_are_refused(token_client, how):
    memory_id = remember(token_client, "User's gym is on Pine Street", tags=["health"])
    if how == "delete":
        assert token_client.delete(f"/api/v1/memories/{memory_id}").status_code == 200
    else:
        token_client.post(f"/api/v1/memories/{memory_id}/forget", {"reason": "moved"}, format="json")
    state = "deleted" if how == "delete" else "forgotten"
    before = Memory.objects.get(id=memory_id)
    writes = [
        ("patch", f"/api/v1/memories/{memory_id}", {"tags": ["gym"]}),
        ("post", f"/api/v1/memories/{memory_id}/correct", {"text": "User's gym is on Oak Street"}),
        ("post", f"/api/v1/memories/{memory_id}/confirm", None),
        ("post", f"/api/v1/memories/{memory_id}/forget", {"reason": "again"}),
        ("delete", f"/api/v1/memories/{memory_id}", None),
    ]
    for method, path, body in writes:
        response = getattr(token_client, method)(path, body, format="json")
        assert response.status_code == 400, (method, path, response.json())
        error = response.json()["error"]
        assert error["code"] == "INVALID_INPUT"
        assert error["message"].startswith(f"Memory {memory_id} was {state};"), error["message"]
        assert error["details"] == {"memory_id": memory_id, "state": state, "replaced_by": None}
    after = Memory.objects.get(id=memory_id)
    assert (after.tags, after.last_confirmed_at, after.forgotten_at) == (
        before.tags,
        before.last_confirmed_at,
        before.forgotten_at,
    )
    assert Tombstone.objects.filter(memory_id=memory_id).count() == 1
    assert Memory.objects.count() == 1  # no correction was stored
    assert [e.event_type for e in MemoryEvent.objects.filter(memory_id=memory_id)] == ["add", "forget"]


def test_writes_to_a_corrected_memory_name_its_replacement(token_client):
    old = remember(token_client, "User's manager is John Smith")
    new = token_client.post(
        f"/api/v1/memories/{old}/correct", {"text": "User's manager is Jane Doe"}, format="json"
    ).json()["memory"]["id"]
    again = token_client.post(f"/api/v1/memories/{old}/correct", {"text": "User's manager is Ann Lee"}, format="json")
    assert again.status_code == 400 and again.json()["error"]["code"] == "INVALID_INPUT"
    assert f"replaced by memory {new}" in again.json()["error"]["message"]
    assert again.json()["error"]["details"] == {"memory_id": old, "state": "corrected", "replaced_by": new}
    patch = token_client.patch(f"/api/v1/memories/{old}", {"text": "User's manager is Ann Lee"}, format="json")
    assert patch.status_code == 400 and patch.json()["error"]["details"]["replaced_by"] == new
    assert Memory.objects.filter(forgotten_at__isnull=True).get().id == new


def test_forget_tool_on_a_forgotten_memory_answers_the_same_error(token_client):
    memory_id = remember(token_client, "User's locker is number 12")
    token_client.delete(f"/api/v1/memories/{memory_id}")
    response = token_client.post(
        "/api/v1/assistant/tools/forget/invoke", {"arguments": {"memory_id": memory_id, "reason": "x"}}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "INVALID_INPUT"
    assert response.json()["error"]["details"]["state"] == "deleted"


def test_patch_writes_only_the_fields_it_changes(token_client):
    """A PATCH writes the fields it names, so it cannot put back what its caller's copy said about
    any other column (the forgetting, above all): checked on the SQL it sends."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    memory_id = remember(token_client, "User's bike is blue", tags=["bike"])
    with CaptureQueriesContext(connection) as queries:
        response = token_client.patch(f"/api/v1/memories/{memory_id}", {"tags": ["bike", "blue"]}, format="json")
    assert response.status_code == 200
    [update] = [q["sql"] for q in queries.captured_queries if q["sql"].startswith('UPDATE "memories_memory"')]
    assert '"tags"' in update and '"updated_at"' in update
    assert '"forgotten_at"' not in update and '"text"' not in update and '"status"' not in update
