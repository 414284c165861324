"""remember's candidate statement prepared (issue 25): its text (the new vector's literal four
times) parsed once per connection and, where search's exact statement is, planned once; the
rows are the ones the inlined statement finds, and the planning setting is the transaction's only."""

import pytest
from django.db import connection, transaction
from django.test import override_settings

from memories import services
from memories.embedding import embed_texts
from memories.models import Memory, Tombstone
from memories.permissions import ensure_user_namespace

pytestmark = pytest.mark.django_db
URL = "/api/v1/memories/remember"
TEXTS = [
    "User lives in Berlin.",
    "User lives in Lisbon since 2021.",
    "User's sister is called Mira.",
    "User prefers green tea in the morning.",
    "User works at Globex on the billing team.",
]


def _prepared_statements() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


def test_the_candidate_statement_is_prepared(token_client):
    response = token_client.post(URL, {"text": "User likes coffee."}, format="json")
    assert response.status_code == 201
    assert any("'m' AS arm" in statement for statement in _prepared_statements())


def test_not_prepared_when_prepared_statements_are_off(token_client):
    with override_settings(MNEMO_SEARCH_PREPARED=False):
        assert services._candidates_plan(1) == ""
        response = token_client.post(URL, {"text": "User likes coffee."}, format="json")
    assert response.status_code == 201
    assert not any("'m' AS arm" in statement for statement in _prepared_statements())


@pytest.mark.parametrize("mode", ["force_generic_plan", "force_custom_plan"])
def test_prepared_rows_are_the_inlined_ones(user, mode):
    """Memories (near, contradicting, far) and tombstones (their dates read in Django's time zone)."""
    namespace = ensure_user_namespace(user)
    vectors = embed_texts(TEXTS)
    Memory.objects.bulk_create(
        Memory(namespace=namespace, text=t, embedding=v, embedding_model="m", status="ready")
        for t, v in zip(TEXTS, vectors, strict=True)
    )
    Tombstone.objects.create(namespace=namespace, text="User lives in Berlin.", embedding=vectors[0])
    queries = embed_texts(["User lives in Berlin.", "User lives in Porto since 2024.", "Mira is my sister."])
    found = []
    for query in queries:
        with transaction.atomic():
            services._lock_namespace(namespace.pk, no_key=True, plan_cache_mode=mode)
            prepared = services._candidates(namespace_id=namespace.pk, vector=query, memories=True, prepared=True)
        inlined = services._candidates(namespace_id=namespace.pk, vector=query, memories=True)
        assert prepared == inlined
        found.append(inlined)
    memories, tombstones = found[0]
    assert len(memories) > 1 and tombstones and tombstones[0][-1].tzinfo is not None  # created_at aware


@pytest.mark.django_db(transaction=True)
def test_the_planning_setting_ends_with_the_transaction(token_client):
    with connection.cursor() as cursor:
        cursor.execute("SHOW plan_cache_mode")
        (before,) = cursor.fetchone()
        with transaction.atomic():
            services._lock_namespace(ensure_user_namespace_for(token_client).pk, plan_cache_mode="force_custom_plan")
            cursor.execute("SHOW plan_cache_mode")
            assert cursor.fetchone() == ("force_custom_plan",)
        cursor.execute("SHOW plan_cache_mode")
        assert cursor.fetchone() == (before,)


def ensure_user_namespace_for(token_client):
    """The namespace of the user the client's token belongs to."""
    response = token_client.post(URL, {"text": "User likes coffee."}, format="json")
    return Memory.objects.get(pk=response.json()["memory_id"]).namespace
