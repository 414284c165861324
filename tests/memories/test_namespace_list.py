"""The namespace list's ``memory_count``: each namespace's live memories, and only its own."""

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from memories.models import Memory
from memories.permissions import create_owned_namespace, ensure_user_namespace
from tests.factories import UserFactory, token_for

pytestmark = pytest.mark.django_db


def test_memory_count_is_each_namespaces_live_memories():
    user = UserFactory(username="counter")
    own = ensure_user_namespace(user)
    busy, _ = create_owned_namespace(user, "agent:busy", kind="agent")
    create_owned_namespace(user, "agent:empty", kind="agent")
    other_user = UserFactory(username="other")
    hidden = ensure_user_namespace(other_user)
    for i, status in enumerate(["queued", "ready", "failed", "ready"]):
        Memory.objects.create(namespace=busy, text=f"busy {i}", status=status)
    Memory.objects.create(namespace=busy, text="forgotten", status="ready", forgotten_at=timezone.now())
    Memory.objects.create(namespace=own, text="mine", status="ready")
    Memory.objects.create(namespace=hidden, text="not mine", status="ready")

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user)}")
    body = client.get("/api/v1/namespaces").json()

    # Queued, ready and failed memories count; a forgotten one does not; nobody else's does.
    assert {n["key"]: n["memory_count"] for n in body} == {"agent:busy": 4, "agent:empty": 0, "user:counter": 1}
    assert all(isinstance(n["memory_count"], int) for n in body)
