"""A search's namespace check answered from this process's memory (issue 25) never outlives a
change of who may do what: a permission taken or given back in another process, or the namespace
renamed there, applies to the very next search here, while an unchanged caller is not asked again."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from core import authentication
from memories import services as memory_services
from memories.models import Namespace
from memories.permissions import create_owned_namespace
from tests.core.test_tokens import _in_another_process
from tests.factories import UserFactory, grant, token_for


@pytest.fixture(autouse=True)
def _no_cached_tokens():
    authentication.forget_cached_tokens()
    authentication.access_changed()
    yield
    authentication.forget_cached_tokens()


@pytest.mark.django_db(transaction=True)
@override_settings(MNEMO_TOKEN_CACHE_SECONDS=300)
def test_a_remembered_namespace_check_follows_every_change_at_once():
    owner, reader = UserFactory(), UserFactory()
    namespace, _ = create_owned_namespace(owner, "agent:remembered", kind="agent")
    memory_services.add_memory(
        actor=owner, namespace=namespace, content="The boat is moored in Cascais.", run_async=False
    )
    grant(reader, "view_namespace", obj=namespace)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(reader)}")

    def search() -> int:
        response = client.post("/api/v1/memories/search", {"query": "boat", "namespace": namespace.key}, format="json")
        if response.status_code == 200:
            assert response.json()["results"][0]["text"] == "The boat is moored in Cascais."
        return response.status_code

    for _ in range(2):
        assert search() == 200
    with CaptureQueriesContext(connection) as remembered:
        assert search() == 200
    asked = [q["sql"] for q in remembered.captured_queries if "memories_namespace" in q["sql"].split("WITH")[0]]
    assert not asked, asked  # remembered: neither the row nor its permissions asked again

    who = (
        "from django.contrib.auth import get_user_model; from memories.models import Namespace; "
        "from guardian.shortcuts import assign_perm, remove_perm; "
        f"u = get_user_model().objects.get(pk={reader.pk}); ns = Namespace.objects.get(pk={namespace.pk}); "
    )
    _in_another_process(who + "remove_perm('view_namespace', u, ns)")
    assert search() == 404  # at once: the access version moved
    _in_another_process(who + "assign_perm('view_namespace', u, ns)")
    assert search() == 200
    assert search() == 200
    _in_another_process(who + "ns.key = 'agent:renamed'; ns.save()")  # (one with memories cannot be deleted)
    assert search() == 404  # its old key names nothing now
    assert Namespace.objects.get(pk=namespace.pk).key == "agent:renamed"


@pytest.mark.django_db
def test_nothing_is_remembered_without_the_access_version():
    """MNEMO_TOKEN_CACHE_SECONDS=0: no access version is read, so every search asks again."""
    owner = UserFactory()
    namespace, _ = create_owned_namespace(owner, "agent:not-remembered", kind="agent")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(owner)}")
    with override_settings(MNEMO_TOKEN_CACHE_SECONDS=0):
        for _ in range(2):
            with CaptureQueriesContext(connection) as queries:
                response = client.post(
                    "/api/v1/memories/search", {"query": "boat", "namespace": namespace.key}, format="json"
                )
            assert response.status_code == 200
            assert any("memories_namespace" in q["sql"].split("WITH")[0] for q in queries.captured_queries)
