"""Seed 003's ``session_id`` is stored as given: surrounding whitespace included, through REST
(remember, patch) and through the remember tool, the same way."""

import pytest

from memories.models import Memory

pytestmark = pytest.mark.django_db

AS_SENT = ["  conv-42\t", " ", "conv 42", "\nconv-42\n", "Conv-42"]


def remember_rest(client, session_id, text):
    response = client.post("/api/v1/memories/remember", {"text": text, "session_id": session_id}, format="json")
    assert response.status_code == 201, response.json()
    return Memory.objects.get(pk=response.json()["memory_id"])


def remember_tool(client, session_id, text):
    response = client.post(
        "/api/v1/assistant/tools/remember/invoke",
        {"arguments": {"text": text, "session_id": session_id}},
        format="json",
    )
    assert response.status_code == 200, response.json()
    return Memory.objects.get(pk=response.json()["result"]["memory_id"])


@pytest.mark.parametrize("session_id", AS_SENT)
def test_rest_remember_stores_the_session_id_as_sent(token_client, session_id):
    memory = remember_rest(token_client, session_id, "User's favourite colour is teal.")
    assert memory.session_id == session_id
    listed = token_client.get(f"/api/v1/memories/{memory.id}").json()
    assert listed["session_id"] == session_id


@pytest.mark.parametrize("session_id", AS_SENT)
def test_the_remember_tool_stores_the_session_id_as_sent(token_client, session_id):
    memory = remember_tool(token_client, session_id, "User's favourite colour is teal.")
    assert memory.session_id == session_id


def test_rest_and_tool_agree(token_client):
    by_rest = remember_rest(token_client, "  s-1  ", "User walks to work on Tuesdays.")
    by_tool = remember_tool(token_client, "  s-1  ", "User cycles to work on Fridays.")
    assert by_rest.session_id == by_tool.session_id == "  s-1  "


def test_patch_keeps_the_session_id_as_sent(token_client):
    memory = remember_rest(token_client, "s-1", "User's office is on the 4th floor.")
    response = token_client.patch(f"/api/v1/memories/{memory.id}", {"session_id": " s-2 "}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["session_id"] == " s-2 "
    memory.refresh_from_db()
    assert memory.session_id == " s-2 "


def test_the_list_filter_matches_the_session_id_as_sent(token_client):
    padded = remember_rest(token_client, " s-1 ", "User's office is on the 4th floor.")
    bare = remember_rest(token_client, "s-1", "User parks in bay 12.")
    for session_id, expected in [(" s-1 ", padded.id), ("s-1", bare.id)]:
        listed = token_client.get("/api/v1/memories", {"session_id": session_id}).json()
        assert [m["id"] for m in listed["results"]] == [expected]
