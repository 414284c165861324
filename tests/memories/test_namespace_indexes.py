"""Large namespaces get an HNSW index of their own (memories.ops.maintain_namespace_indexes):
search walks it instead of the table's index, finds the same nearest memories, sees only live
rows of its namespace, and the indexes follow the namespaces' sizes (built, rebuilt, dropped)."""

from __future__ import annotations

from io import StringIO

import numpy as np
import pytest
from django.core.management import call_command
from django.db import connection
from django.test import override_settings

from memories import ops, selectors
from memories.models import Memory, Namespace

# CREATE INDEX CONCURRENTLY cannot run inside the test's transaction.
pytestmark = pytest.mark.django_db(transaction=True)
THRESHOLD = 60


@pytest.fixture(autouse=True)
def _small_threshold():
    with override_settings(MNEMO_NAMESPACE_INDEX_MIN_MEMORIES=THRESHOLD, MNEMO_SEARCH_EXACT_MAX=10):
        selectors.forget_namespace_stats()
        yield
    selectors.forget_namespace_stats()


def unit_vectors(rng: np.random.Generator, n: int) -> np.ndarray:
    v = rng.normal(size=(n, 384)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def fill(key: str, vectors: np.ndarray) -> Namespace:
    namespace = Namespace.objects.create(key=key, kind="agent")
    Memory.objects.bulk_create(
        [
            Memory(namespace=namespace, text=f"{key} {i}", embedding=v.tolist(), status="ready")
            for i, v in enumerate(vectors)
        ]
    )
    return namespace


def own_indexes() -> dict[str, bool]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.relname, i.indisvalid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
            "WHERE i.indrelid = 'memories_memory'::regclass AND starts_with(c.relname, 'memory_hnsw_ns_')"
        )
        return dict(cursor.fetchall())


def search_statement(namespace_id: int, query: list[float]) -> tuple[str, dict]:
    captured: list[tuple[str, dict]] = []

    def capture(execute, sql, params, many, context):
        if "WITH" in sql:
            captured.append((sql, params))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(capture):
        selectors.search_memories(namespace_ids=[namespace_id], query="", query_vector=query, mode="vector")
    return captured[0]


def test_a_large_namespace_is_searched_through_its_own_index_with_the_same_results():
    rng = np.random.default_rng(11)
    big = fill("agent:big", unit_vectors(rng, 90))
    small = fill("agent:small", unit_vectors(rng, 8))
    crowd = fill("agent:crowd", unit_vectors(rng, 400))
    queries = [v.tolist() for v in unit_vectors(rng, 8)]
    before = [
        [h.memory.id for h in selectors.search_memories(namespace_ids=[big.id], query="", query_vector=q, limit=10)]
        for q in queries
    ]
    assert selectors.search_plan([big.id]) == "hnsw"

    done = ops.maintain_namespace_indexes()

    assert [(a.kind, a.namespace_id) for a in done] == [("create", big.id), ("create", crowd.id)]
    assert own_indexes() == {f"memory_hnsw_ns_{big.id}": True, f"memory_hnsw_ns_{crowd.id}": True}
    assert selectors.search_plan([big.id]) == "own"
    assert selectors.search_plan([small.id]) == "exact"  # small: every vector compared, as before
    assert selectors.search_plan([big.id, crowd.id]) == "hnsw"  # several namespaces: the table's index
    sql, params = search_statement(big.id, queries[0])
    with connection.cursor() as cursor:
        cursor.execute("SET enable_sort = off")  # tables this small would be sorted instead
        cursor.execute("EXPLAIN " + sql, params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
        cursor.execute("RESET enable_sort")
    assert f"memory_hnsw_ns_{big.id}" in plan and "memory_embedding_hnsw" not in plan
    after = [
        [h.memory.id for h in selectors.search_memories(namespace_ids=[big.id], query="", query_vector=q, limit=10)]
        for q in queries
    ]
    assert after == before
    # The nearest memories by exact cosine, whichever index found them.
    mine = dict(Memory.objects.filter(namespace=big).values_list("id", "embedding"))
    for query, ids in zip(queries, after, strict=True):
        exact = sorted(mine, key=lambda i: -float(np.dot(mine[i], query)))[:10]
        assert ids == exact


def test_the_own_index_holds_live_rows_of_its_namespace_only():
    rng = np.random.default_rng(12)
    big = fill("agent:big", unit_vectors(rng, 80))
    other = fill("agent:other", unit_vectors(rng, 80))
    ops.maintain_namespace_indexes()
    query = Memory.objects.filter(namespace=big).order_by("id").values_list("embedding", flat=True)[0]
    first = Memory.objects.filter(namespace=big).order_by("id").first()
    hits = selectors.search_memories(namespace_ids=[big.id], query="", query_vector=list(query), mode="vector")
    assert hits[0].memory.id == first.id
    Memory.objects.filter(id=first.id).update(forgotten_at="2026-01-01T00:00:00Z")
    hits = selectors.search_memories(namespace_ids=[big.id], query="", query_vector=list(query), mode="vector")
    assert first.id not in {h.memory.id for h in hits}
    assert {h.memory.namespace_id for h in hits} == {big.id}
    # The same vector stored in another namespace is not found through this one's index.
    twin = Memory.objects.create(namespace=other, text="twin", embedding=list(query), status="ready")
    hits = selectors.search_memories(namespace_ids=[big.id], query="", query_vector=list(query), mode="vector")
    assert twin.id not in {h.memory.id for h in hits}


def test_indexes_follow_namespace_sizes_and_an_invalid_one_is_rebuilt():
    rng = np.random.default_rng(13)
    big = fill("agent:big", unit_vectors(rng, 70))
    ops.maintain_namespace_indexes()
    assert own_indexes() == {f"memory_hnsw_ns_{big.id}": True}
    assert ops.namespace_index_plan() == []  # nothing left to do

    # Half the threshold keeps it (no build and drop back and forth around one size)...
    Memory.objects.filter(id__in=Memory.objects.filter(namespace=big).order_by("id").values("id")[:40]).delete()
    assert ops.maintain_namespace_indexes() == []
    # ... below half of it, it goes.
    Memory.objects.filter(id__in=Memory.objects.filter(namespace=big).order_by("id").values("id")[:5]).delete()
    assert [a.kind for a in ops.maintain_namespace_indexes()] == ["drop"]
    assert own_indexes() == {}
    assert selectors.search_plan([big.id]) == "hnsw"

    # An interrupted concurrent build leaves an invalid index: search ignores it, the run rebuilds it.
    grown = fill("agent:grown", unit_vectors(rng, 65))
    # A unique index built concurrently over duplicate keys fails and stays behind, invalid.
    with connection.cursor() as cursor, pytest.raises(Exception, match="could not create unique index"):
        cursor.execute(f"CREATE UNIQUE INDEX CONCURRENTLY memory_hnsw_ns_{grown.id} ON memories_memory (status)")
    assert own_indexes() == {f"memory_hnsw_ns_{grown.id}": False}
    assert selectors.search_plan([grown.id]) == "hnsw"
    assert [(a.kind, a.namespace_id) for a in ops.maintain_namespace_indexes()] == [("rebuild", grown.id)]
    assert own_indexes() == {f"memory_hnsw_ns_{grown.id}": True}
    assert selectors.search_plan([grown.id]) == "own"

    # A namespace emptied and deleted takes its index with it.
    Memory.objects.filter(namespace=grown).delete()
    grown.delete()
    assert [a.kind for a in ops.maintain_namespace_indexes()] == ["drop"]
    assert own_indexes() == {}


def test_the_command_plans_builds_and_refuses_a_second_run_at_once():
    rng = np.random.default_rng(14)
    big = fill("agent:big", unit_vectors(rng, 61))
    out = StringIO()
    call_command("index_namespaces", "--dry-run", stdout=out)
    assert f"would create memory_hnsw_ns_{big.id} (namespace {big.id}, 61 live memories)" in out.getvalue()
    assert own_indexes() == {}
    from django.db import connections

    # Another run holds the lock (its own connection): this one does nothing and says so.
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_lock(%s)", [ops._INDEX_LOCK])
        from django.core.management.base import CommandError

        with pytest.raises(CommandError, match="in progress"):
            call_command("index_namespaces", stdout=StringIO())
        assert own_indexes() == {}
        # Released by the holder itself, which PostgreSQL does before the statement returns: a
        # closed connection's backend lets its session locks go only as it exits, a moment after
        # the close, so the run below could still find the lock held (this test failed so, twice).
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s)", [ops._INDEX_LOCK])
            assert cursor.fetchone() == (True,)
    finally:
        other.close()
    out = StringIO()
    call_command("index_namespaces", stdout=out)
    assert f"create memory_hnsw_ns_{big.id}" in out.getvalue() and "1 change(s) made" in out.getvalue()
    assert own_indexes() == {f"memory_hnsw_ns_{big.id}": True}


def test_turned_off_it_drops_every_own_index():
    rng = np.random.default_rng(15)
    fill("agent:big", unit_vectors(rng, 61))
    ops.maintain_namespace_indexes()
    assert len(own_indexes()) == 1
    with override_settings(MNEMO_NAMESPACE_INDEX_MIN_MEMORIES=0):
        assert [a.kind for a in ops.maintain_namespace_indexes()] == ["drop"]
    assert own_indexes() == {}


def test_beat_keeps_the_indexes():
    from config.celery import app
    from memories.tasks import index_namespaces

    entry = app.conf.beat_schedule["index-namespaces"]
    assert entry["task"] == index_namespaces.name and entry["schedule"] == 3600.0
    big = fill("agent:big", unit_vectors(np.random.default_rng(16), 61))
    assert index_namespaces() == 1  # the task itself, as the worker runs it
    assert own_indexes() == {f"memory_hnsw_ns_{big.id}": True}
    assert index_namespaces() == 0


def test_a_failed_build_is_reported_and_releases_the_lock():
    from django.core.management.base import CommandError

    big = fill("agent:big", unit_vectors(np.random.default_rng(17), 61))
    with override_settings(MNEMO_INDEX_BUILD_MEMORY="1kB"), pytest.raises(CommandError, match="database error"):
        call_command("index_namespaces", stdout=StringIO())  # below PostgreSQL's minimum: refused
    assert own_indexes() == {}
    # The lock was given back: another session (a lock is re-entrant within its own) can take it.
    from django.db import connections

    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_try_advisory_lock(%s)", [ops._INDEX_LOCK])
            assert cursor.fetchone()[0] is True
            cursor.execute("SELECT pg_advisory_unlock(%s)", [ops._INDEX_LOCK])
    finally:
        other.close()
    assert [a.kind for a in ops.maintain_namespace_indexes()] == ["create"]
    assert own_indexes() == {f"memory_hnsw_ns_{big.id}": True}
