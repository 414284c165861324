"""The search statement prepared once per connection (MNEMO_SEARCH_PREPARED): the exact plan's
statement is prepared and planned generically, the same hits as the statement sent with its
values inlined, and it keeps working after a rollback; the HNSW plans are not prepared."""

from datetime import timedelta

import psycopg
import pytest
from django.db import connection, transaction
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from psycopg import _queries

from memories import selectors, services
from memories.permissions import ensure_user_namespace
from memories.selectors import SearchFilters, forget_namespace_stats, generic_namespace_rows, search_memories

pytestmark = pytest.mark.django_db

FACTS = [
    "Sarah Johnson is the VP of Engineering at TechCorp",
    "User prefers afternoon meetings on Thursdays",
    "The quarterly report is due on March 3",
    "User is allergic to peanuts and shellfish",
    "Booked a table at Nostrana for Friday at 8pm",
    "The renewal contract with Acme ends in June",
]
QUERIES = ["who leads engineering", "when is the report due", "peanuts", "dinner reservation Friday", "Acme"]


@pytest.fixture
def ns(user):
    namespace = ensure_user_namespace(user)
    for text in FACTS:
        services.add_memory(actor=user, namespace=namespace, content=text, run_async=False)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE memories_memory (namespace_id)")  # the statistics the generic plan's choice reads
    forget_namespace_stats()
    return namespace


def prepared_search_statements() -> dict[str, tuple[int, int]]:
    """This connection's prepared search statements: name -> (generic plans, custom plans). The
    connection outlives a test, and so do they: tests compare before and after."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT name, generic_plans, custom_plans FROM pg_prepared_statements WHERE statement LIKE %s",
            ["%scored AS%"],
        )
        return {name: (generic, custom) for name, generic, custom in cursor.fetchall()}


def runs_since(before: dict[str, tuple[int, int]]) -> list[tuple[int, int]]:
    """(generic, custom) plans run per search statement since ``before``, those that ran."""
    now = prepared_search_statements()
    runs = [(g - before.get(name, (0, 0))[0], c - before.get(name, (0, 0))[1]) for name, (g, c) in now.items()]
    return [run for run in runs if run != (0, 0)]


def hits(ns, query, mode="hybrid", **filters):
    found = search_memories(
        namespace_ids=[ns.id], query=query, limit=5, mode=mode, filters=SearchFilters(**filters), min_score=0
    )
    return [(h.memory.id, h.score, h.similarity, h.coverage) for h in found]


@pytest.mark.parametrize("mode", ["hybrid", "vector", "keyword"])
def test_the_prepared_statement_finds_what_the_inlined_one_does(ns, mode):
    before = prepared_search_statements()
    with override_settings(MNEMO_SEARCH_PREPARED=False):
        inlined = [hits(ns, q, mode) for q in QUERIES]
    assert runs_since(before) == []
    prepared = [hits(ns, q, mode) for q in QUERIES]
    assert prepared == inlined and any(inlined)
    assert runs_since(before) == [(len(QUERIES), 0)]  # one statement, a generic plan every time


def test_filters_make_another_statement_and_the_same_hits(ns):
    since = timezone.now() - timedelta(days=1)
    before = prepared_search_statements()
    with override_settings(MNEMO_SEARCH_PREPARED=False):
        inlined = hits(ns, "meetings", created_after=since)
    assert hits(ns, "meetings", created_after=since) == inlined != []
    assert hits(ns, "meetings") == inlined
    assert runs_since(before) == [(1, 0), (1, 0)]


def test_the_statement_is_converted_once_to_the_text_psycopg_would_send(ns, monkeypatch):
    """psycopg converts a statement's %(name)s placeholders on every execute when it is longer than
    4,096 characters (it remembers shorter ones only), and the hybrid statement is: the search
    cursor hands it the $n text converted once per text, the same text psycopg would make."""
    split: list[bytes] = []
    real_split = _queries._split_query
    monkeypatch.setattr(
        _queries, "_split_query", lambda query, *a, **k: (split.append(query), real_split(query, *a, **k))[1]
    )
    seen: list[str] = []
    real_positional = selectors._positional
    monkeypatch.setattr(
        selectors, "_positional", lambda statement: (seen.append(statement), real_positional(statement))[1]
    )
    since = timezone.now() - timedelta(days=1)
    for _ in range(2):
        for mode in ("hybrid", "vector", "keyword"):
            assert hits(ns, QUERIES[0], mode) is not None
        assert hits(ns, "meetings", created_after=since, tags=["x"], metadata={"k": {"eq": 1, "contains": "y"}}) == []
    assert not [query for query in split if b"scored AS" in query]  # psycopg never parsed a search statement
    assert len(seen) == 8 and len(set(seen)) == 4
    assert max(len(statement) for statement in seen) > _queries.MAX_CACHED_STATEMENT_LENGTH  # why it matters
    for statement in set(seen):
        text, names = real_positional(statement)
        psycopg_text, _, psycopg_names, _ = _queries._query2pg_nocache(statement.encode(), "utf-8")
        assert (text.encode(), list(names)) == (psycopg_text, psycopg_names)


def test_the_query_log_shows_the_search_statement(ns):
    with CaptureQueriesContext(connection) as captured:
        assert hits(ns, QUERIES[0])
    logged = [q["sql"] for q in captured.captured_queries if "scored AS" in q["sql"]]
    assert len(logged) == 1 and "m.namespace_id = ANY($" in logged[0]


def test_positional_placeholders():
    assert selectors._positional("SELECT %(a)s, %(b)s, %(a)s, 5 %% 2") == ("SELECT $1, $2, $1, 5 % 2", ("a", "b"))
    for bad in ("SELECT %s", "SELECT %(a)b", "SELECT 5 % 2"):
        with pytest.raises(psycopg.ProgrammingError):
            selectors._positional(bad)


def test_a_rolled_back_transaction_leaves_the_statement_usable(ns):
    first = hits(ns, QUERIES[0])
    with pytest.raises(RuntimeError), transaction.atomic():
        assert hits(ns, QUERIES[1])
        raise RuntimeError("rolled back")
    assert hits(ns, QUERIES[0]) == first
    assert hits(ns, QUERIES[1])


def test_hnsw_plans_are_not_prepared(ns):
    before = prepared_search_statements()
    with override_settings(MNEMO_SEARCH_EXACT_MAX=0):
        assert hits(ns, QUERIES[0])
    assert runs_since(before) == []


def test_a_table_of_few_large_namespaces_is_planned_per_search(ns):
    """Two namespaces in a large table: a generic plan would expect most of the table for any
    namespace and read all of it (bench/NOTES.md), so the statement is planned for its values."""
    assert generic_namespace_rows() is not None and generic_namespace_rows() <= 5000
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # the fixture's rows: ALTER waits for no trigger
        cursor.execute("ALTER TABLE memories_memory ALTER namespace_id SET (n_distinct = 2)")
        cursor.execute("ANALYZE memories_memory (namespace_id)")
        cursor.execute("UPDATE pg_class SET reltuples = 200000 WHERE oid = 'memories_memory'::regclass")
    forget_namespace_stats()
    assert generic_namespace_rows() > 5000
    before = prepared_search_statements()
    assert hits(ns, QUERIES[0])
    assert runs_since(before) == []


def test_a_table_not_analyzed_yet_is_prepared_with_the_same_hits(user):
    """Memories searched right after they are stored, before autovacuum's first ANALYZE (a new
    installation, make bench-peers): the table's row count bounds what the generic plan expects,
    so the statement is prepared, planned generically, and finds what the inlined one does."""
    namespace = ensure_user_namespace(user)
    for text in FACTS:
        services.add_memory(actor=user, namespace=namespace, content=text, run_async=False)
    with connection.cursor() as cursor:
        # No statistics, as before the first ANALYZE (undone with the test's transaction).
        cursor.execute("DELETE FROM pg_statistic WHERE starelid = 'memories_memory'::regclass")
        cursor.execute("UPDATE pg_class SET reltuples = -1 WHERE oid = 'memories_memory'::regclass")
    forget_namespace_stats()
    assert generic_namespace_rows() is not None and generic_namespace_rows() <= 5000
    before = prepared_search_statements()
    with override_settings(MNEMO_SEARCH_PREPARED=False):
        inlined = [hits(namespace, q) for q in QUERIES]
    prepared = [hits(namespace, q) for q in QUERIES]
    assert prepared == inlined and any(inlined)
    assert runs_since(before) == [(len(QUERIES), 0)]
    with connection.cursor() as cursor:
        # The generic plan reads the namespace through its index, as an analyzed table's does.
        cursor.execute(
            "EXPLAIN (GENERIC_PLAN) SELECT id FROM memories_memory m WHERE m.namespace_id = ANY($1::bigint[]) "
            "AND m.status = 'ready' AND m.forgotten_at IS NULL"
        )
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "Index" in plan, plan


def test_a_large_table_not_analyzed_yet_is_planned_per_search(ns):
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM pg_statistic WHERE starelid = 'memories_memory'::regclass")
    forget_namespace_stats()
    with override_settings(MNEMO_SEARCH_EXACT_MAX=len(FACTS) - 1):
        assert generic_namespace_rows() is None
