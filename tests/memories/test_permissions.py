"""Permissions on every memory endpoint: allowed, not allowed, someone else's objects.

A caller never sees or changes what it has no permission for: another user's namespace and its
memories answer NOT_FOUND exactly like missing ones; a namespace it may read but not write
answers PERMISSION_DENIED to writes.
"""

import pytest
from django.contrib.auth.models import Permission
from guardian.shortcuts import assign_perm
from rest_framework.test import APIClient

from memories import services
from memories.models import Memory, Namespace
from memories.permissions import ensure_user_namespace
from tests.factories import UserFactory, token_for

pytestmark = pytest.mark.django_db


def client_for(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user)}")
    return client


@pytest.fixture
def alice():
    return UserFactory(username="alice")


@pytest.fixture
def bob():
    return UserFactory(username="bob")


@pytest.fixture
def alices_memory(alice):
    ns = ensure_user_namespace(alice)
    return services.add_memory(actor=alice, namespace=ns, content="Alice's son Colby lives in LA.", run_async=False)


@pytest.fixture
def shared(alice, bob):
    """team:shared, written by alice; bob may read it but not write."""
    ns = Namespace.objects.create(key="team:shared", kind="other", owner=alice)
    assign_perm("view_namespace", alice, ns)
    assign_perm("write_namespace", alice, ns)
    assign_perm("view_namespace", bob, ns)
    memory = services.add_memory(actor=alice, namespace=ns, content="The team standup is at 9:15.", run_async=False)
    return ns, memory


def test_creating_a_user_creates_their_namespace_with_both_permissions():
    user = UserFactory(username="carol")
    ns = Namespace.objects.get(key="user:carol")
    assert ns.owner == user and ns.kind == "user"
    assert user.has_perm("memories.view_namespace", ns) and user.has_perm("memories.write_namespace", ns)


MEMORY_ENDPOINTS = [
    ("get", "/api/v1/memories/{id}", None),
    ("patch", "/api/v1/memories/{id}", {"text": "changed by someone"}),
    ("delete", "/api/v1/memories/{id}", None),
    ("post", "/api/v1/memories/{id}/forget", {"reason": "x"}),
    ("post", "/api/v1/memories/{id}/correct", {"text": "corrected by someone", "reason": "x"}),
    ("post", "/api/v1/memories/{id}/confirm", None),
    ("get", "/api/v1/memories/{id}/history", None),
]


@pytest.mark.parametrize(("method", "path", "body"), MEMORY_ENDPOINTS)
def test_someone_elses_memory_is_not_found(bob, alices_memory, method, path, body):
    response = getattr(client_for(bob), method)(path.format(id=alices_memory.id), body, format="json")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "NOT_FOUND"
    missing = getattr(client_for(bob), method)(path.format(id=999999), body, format="json")
    assert missing.status_code == 404 and missing.json() == {
        "ok": False,
        "error": {"code": "NOT_FOUND", "message": "Memory 999999 not found."},
    }
    assert response.json()["error"]["message"] == f"Memory {alices_memory.id} not found."
    alices_memory.refresh_from_db()
    assert alices_memory.text == "Alice's son Colby lives in LA." and alices_memory.forgotten_at is None


@pytest.mark.parametrize(("method", "path", "body"), MEMORY_ENDPOINTS)
def test_the_owner_may_use_every_memory_endpoint(alice, alices_memory, method, path, body):
    response = getattr(client_for(alice), method)(path.format(id=alices_memory.id), body, format="json")
    assert response.status_code in (200, 201), response.json()


@pytest.mark.parametrize(("method", "path", "body"), MEMORY_ENDPOINTS)
def test_read_only_permission_reads_but_cannot_write(bob, shared, method, path, body):
    _, memory = shared
    response = getattr(client_for(bob), method)(path.format(id=memory.id), body, format="json")
    if method == "get":
        assert response.status_code == 200
    else:
        assert response.status_code == 403
        assert response.json()["error"]["code"] == "PERMISSION_DENIED"
    memory.refresh_from_db()
    assert memory.text == "The team standup is at 9:15." and memory.forgotten_at is None


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/v1/memories/remember", {"text": "sneaky", "namespace": "user:alice"}),
        ("/api/v1/memories", {"content": "sneaky", "namespace": "user:alice"}),
        ("/api/v1/memories/search", {"query": "Colby", "namespace": "user:alice"}),
        ("/api/v1/memories/remember", {"text": "sneaky", "namespace": "user:nobody"}),
    ],
)
def test_naming_someone_elses_namespace_is_not_found(bob, alices_memory, path, body):
    response = client_for(bob).post(path, body, format="json")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "NOT_FOUND"
    assert Memory.objects.filter(text="sneaky").count() == 0


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/v1/memories/remember", {"text": "sneaky", "namespace": "team:shared"}),
        ("/api/v1/memories", {"content": "sneaky", "namespace": "team:shared"}),
    ],
)
def test_writing_a_read_only_namespace_is_forbidden(bob, shared, path, body):
    response = client_for(bob).post(path, body, format="json")
    assert response.status_code == 403
    assert Memory.objects.filter(text="sneaky").count() == 0


def test_read_only_namespace_can_be_searched(bob, shared):
    response = client_for(bob).post(
        "/api/v1/memories/search", {"query": "standup", "namespace": "team:shared"}, format="json"
    )
    assert response.status_code == 200
    assert [r["text"] for r in response.json()["results"]] == ["The team standup is at 9:15."]


def test_search_without_a_namespace_never_reaches_other_users(bob, alices_memory):
    services.add_memory(
        actor=bob, namespace=ensure_user_namespace(bob), content="Bob likes Colby Jack cheese.", run_async=False
    )
    results = (
        client_for(bob)
        .post("/api/v1/memories/search", {"query": "Colby", "limit": 100}, format="json")
        .json()["results"]
    )
    assert [r["text"] for r in results] == ["Bob likes Colby Jack cheese."]


def test_lists_show_only_visible_memories_whatever_the_filter(bob, alices_memory, shared):
    client = client_for(bob)
    texts = [m["text"] for m in client.get("/api/v1/memories").json()["results"]]
    assert texts == ["The team standup is at 9:15."]
    assert client.get("/api/v1/memories?namespace=user:alice").json()["results"] == []


def test_someone_elses_event_is_not_found(bob, alices_memory):
    response = client_for(bob).get(f"/api/v1/memories/events/{alices_memory.event_id}")
    assert response.status_code == 404


def test_namespaces_lists_what_the_caller_may_read(alice, bob, shared):
    body = client_for(bob).get("/api/v1/namespaces").json()
    assert [(n["key"], n["can_write"]) for n in body] == [("team:shared", False), ("user:bob", True)]
    assert {n["key"] for n in client_for(alice).get("/api/v1/namespaces").json()} == {"team:shared", "user:alice"}


def test_staff_with_model_permissions_see_every_namespace(alices_memory, shared):
    auditor = UserFactory(username="auditor", is_staff=True)
    auditor.user_permissions.add(Permission.objects.get(codename="view_namespace"))
    client = client_for(auditor)
    assert client.get(f"/api/v1/memories/{alices_memory.id}").status_code == 200
    assert client.patch(f"/api/v1/memories/{alices_memory.id}", {"text": "x"}, format="json").status_code == 403
    keys = {n["key"] for n in client.get("/api/v1/namespaces").json()}
    assert {"user:alice", "user:bob", "team:shared", "user:auditor"} <= keys


def test_unauthenticated_calls_are_refused_everywhere(api_client, alices_memory):
    for method, path, body in MEMORY_ENDPOINTS:
        response = getattr(api_client, method)(path.format(id=alices_memory.id), body, format="json")
        assert response.status_code == 401, path
    for path in ("/api/v1/memories", "/api/v1/namespaces"):
        assert api_client.get(path).status_code == 401
    for path in ("/api/v1/memories/remember", "/api/v1/memories/search", "/api/v1/memories"):
        assert api_client.post(path, {}, format="json").status_code == 401
