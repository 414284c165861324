"""A search's candidates do not depend on where PostgreSQL keeps the rows.

Equal texts have equal vectors, so their distances to the query tie exactly; when such a tie
straddles the candidate cut (``ORDER BY distance LIMIT``), which of the tied rows is kept must
not be left to the order the scan meets them, which is the table's physical order: it moves with
every update, vacuum and rolled-back insert (bench/NOTES.md: after a rolled-back bulk insert, 2
searches of 350 in tests/memories/test_search_equivalence.py kept another of two equal turns at
rank 50). The tied rows are ordered by id."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import override_settings

from memories import selectors
from memories.embedding import embed_texts
from memories.models import Memory, Namespace
from memories.services import embed_queued_memories

pytestmark = pytest.mark.django_db

# Three distinct facts stored four times each: a query about the first ranks its four copies
# first and then four exactly tied copies of another, across the cut at 5 candidates.
FACTS = [
    "Tariq keeps a tortoise called Humphrey in the garden.",
    "Solveig sings at the corner café on Thursday nights.",
    "The reunion is in the old school hall in June.",
]
COPIES = 4
CANDIDATES = 5


def _store() -> tuple[Namespace, list[int]]:
    ns = Namespace.objects.create(key="agent:ties", kind="agent")
    rows = [Memory(namespace=ns, text=text, status=Memory.Status.QUEUED) for _ in range(COPIES) for text in FACTS]
    Memory.objects.bulk_create(rows)
    ids = [row.id for row in rows]
    embed_queued_memories(ids=ids)
    return ns, ids


def _rewrite_in_order(ids: list[int]) -> None:
    """Every row of ``ids`` written again, in that order, at the end of the table (deleted and
    inserted with the same id and values in this transaction, whose deleted rows' space cannot be
    reused yet; the foreign keys are checked at commit): the scan then meets them in that order,
    as it would after an update, a vacuum or a rolled-back insert moved them."""
    with connection.cursor() as cursor:
        cursor.execute(  # the stored columns (the generated tsvector is computed again)
            "SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) FROM pg_attribute "
            "WHERE attrelid = 'memories_memory'::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = ''"
        )
        columns = cursor.fetchone()[0]
        cursor.execute("CREATE TEMP TABLE ties_copy AS SELECT * FROM memories_memory WHERE id = ANY(%s)", [ids])
        cursor.execute("DELETE FROM memories_memory WHERE id = ANY(%s)", [ids])
        for memory_id in ids:
            cursor.execute(
                f"INSERT INTO memories_memory ({columns}) SELECT {columns} FROM ties_copy WHERE id = %s", [memory_id]
            )
        cursor.execute("DROP TABLE ties_copy")
        cursor.execute("ANALYZE memories_memory")
    selectors.forget_namespace_stats()


def _candidates(ns: Namespace, vector: list[float], mode: selectors.SearchMode) -> list[tuple[Any, ...]]:
    rows = selectors.search_features(namespace_ids=[ns.id], query=FACTS[0], query_vector=vector, limit=1, mode=mode)
    return sorted((r[0], None if r[1] is None else round(float(r[1]), 9), r[3]) for r in rows)


@pytest.mark.parametrize("exact_max", [5000, -1], ids=["exact", "hnsw"])
@pytest.mark.parametrize("mode", ["vector", "hybrid"])
def test_tied_candidates_at_the_cut_do_not_follow_the_physical_order(exact_max: int, mode: selectors.SearchMode):
    with override_settings(MNEMO_SEARCH_CANDIDATES=CANDIDATES, MNEMO_SEARCH_EXACT_MAX=exact_max):
        ns, ids = _store()
        selectors.forget_namespace_stats()
        assert selectors.search_plan([ns.id]) == ("exact" if exact_max > 0 else "hnsw")
        vector = embed_texts([FACTS[0]])[0]
        _rewrite_in_order(ids)  # the table's order is the ids'
        forward = _candidates(ns, vector, mode)
        _rewrite_in_order(ids[::-1])  # ... and now the reverse
        backward = _candidates(ns, vector, mode)
    # the scenario is the one meant: a tie of equal copies crosses the cut
    cosines = [c for _, c, vr in forward if vr is not None]
    assert len(cosines) == CANDIDATES and cosines.count(min(cosines)) < COPIES
    assert forward == backward
    # the tie is broken by id: the lowest ids of the tied copies are kept
    texts = dict(Memory.objects.filter(id__in=ids).values_list("id", "text"))
    last = max((vr, memory_id) for memory_id, _, vr in forward if vr is not None)[1]
    assert last == min(i for i in ids if texts[i] == texts[last])
