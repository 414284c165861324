"""The memory table's GIN indexes keep their pending list at 64 kB (memories.models, migration
0007): however many memories are written before autovacuum passes, a search reads at most that
much unmerged list per word (bench/gin_pending.py measures what a longer one cost)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from memories.models import Memory, Namespace

GIN_INDEXES = ("memory_search_vector_gin", "memory_tags_gin", "memory_metadata_gin")
BOUND_PAGES = 64 * 1024 // 8192  # the list never grows past 64 kB of 8 kB pages


def options() -> dict[str, list[str] | None]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT relname, reloptions FROM pg_class WHERE relname = ANY(%s)", [list(GIN_INDEXES)])
        return dict(cursor.fetchall())


def pending_pages(index: str) -> int:
    """Merges the index's pending list; returns how many pages it held."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT gin_clean_pending_list(%s::regclass)", [index])
        return cursor.fetchone()[0]


def without_autovacuum() -> None:
    """Holds autovacuum off the table until the test's transaction ends: its VACUUM would merge the
    list while the test counts it (ALTER TABLE's lock makes a worker skip the table)."""
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE memories_memory SET (autovacuum_enabled = false)")


def write(key: str, n: int) -> None:
    namespace = Namespace.objects.create(key=key, kind="agent")
    Memory.objects.bulk_create(
        Memory(
            namespace=namespace,
            text=f"{key} memory {i}: the ferry number {i} to Naxos leaves at {i % 24}:15 from pier {i}, "
            f"gate {i * 7}, with {i % 50} cabins and {i % 13} decks",
            tags=[f"tag{i}", f"deck{i % 13}", "ferry"],
            metadata={"pier": i, "route": f"route-{i}", "gate": i * 7},
            status="ready",
        )
        for i in range(n)
    )


@pytest.mark.django_db
def test_the_gin_indexes_bound_their_pending_list():
    assert options() == {name: ["gin_pending_list_limit=64"] for name in GIN_INDEXES}


@pytest.mark.django_db
def test_many_new_rows_leave_at_most_the_bound_pending():
    without_autovacuum()
    for name in GIN_INDEXES:
        pending_pages(name)  # whatever an earlier test left
    write("agent:gin-bounded", 1500)
    pending = {name: pending_pages(name) for name in GIN_INDEXES}
    assert all(0 < pages <= BOUND_PAGES for pages in pending.values()), pending


@pytest.mark.django_db
def test_the_same_rows_pile_up_under_postgresqls_default():
    # The control for the test above: with the 4 MB default (rolled back with the test's
    # transaction), the same rows leave several times the bound pending.
    without_autovacuum()
    with connection.cursor() as cursor:
        for name in GIN_INDEXES:
            cursor.execute(f"ALTER INDEX {name} RESET (gin_pending_list_limit)")
    for name in GIN_INDEXES:
        pending_pages(name)
    write("agent:gin-default", 1500)
    assert pending_pages("memory_search_vector_gin") > 2 * BOUND_PAGES


@pytest.mark.django_db(transaction=True)
def test_the_migration_sets_the_bound_in_place_and_merges_what_was_pending():
    executor = MigrationExecutor(connection)
    executor.migrate([("memories", "0006_temporal_validity")])
    try:
        assert options() == dict.fromkeys(GIN_INDEXES)  # PostgreSQL's defaults
        with connection.cursor() as cursor:
            cursor.execute("SELECT oid FROM pg_class WHERE relname = ANY(%s) ORDER BY relname", [list(GIN_INDEXES)])
            before = cursor.fetchall()
        write("agent:gin-migrated", 300)  # rows pending when the migration runs
    finally:
        MigrationExecutor(connection).migrate([("memories", "0007_gin_pending_list_bounded")])
    assert options() == {name: ["gin_pending_list_limit=64"] for name in GIN_INDEXES}
    assert {name: pending_pages(name) for name in GIN_INDEXES} == dict.fromkeys(GIN_INDEXES, 0)
    with connection.cursor() as cursor:
        cursor.execute("SELECT oid FROM pg_class WHERE relname = ANY(%s) ORDER BY relname", [list(GIN_INDEXES)])
        assert cursor.fetchall() == before  # altered, not built again
