"""Reads of memories. Vector search lives here; the memories issue fuses it with full text."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection, transaction

from memories.embedding import embed_texts
from memories.models import Memory


@dataclass(frozen=True)
class VectorHit:
    """A memory and its cosine similarity to the query (best of its own vector and its windows)."""

    memory_id: int
    similarity: float


# Candidates come from two HNSW scans, whole-memory vectors and window vectors of long memories;
# each memory keeps its best distance. Iterative index scans (pgvector 0.8) keep scanning past
# rows the namespace filter drops, so a small namespace in a large table still gets k rows.
_VECTOR_SQL = """
WITH hits AS (
    (SELECT m.id AS memory_id, m.embedding <=> %(q)s::vector AS distance
       FROM memories_memory m
      WHERE m.namespace_id = %(ns)s AND m.status = 'ready'
      ORDER BY m.embedding <=> %(q)s::vector
      LIMIT %(k)s)
    UNION ALL
    (SELECT c.memory_id, c.embedding <=> %(q)s::vector AS distance
       FROM memories_memorychunk c
      WHERE c.namespace_id = %(ns)s
      ORDER BY c.embedding <=> %(q)s::vector
      LIMIT %(k)s)
)
SELECT memory_id, MIN(distance) AS distance
  FROM hits
 GROUP BY memory_id
 ORDER BY distance, memory_id
 LIMIT %(k)s
"""


def vector_search(*, namespace_id: int, query: str, limit: int = 5) -> list[VectorHit]:
    """The ``limit`` ready memories of a namespace nearest in meaning to ``query``."""
    vector = embed_texts([query])[0]
    literal = "[" + ",".join(f"{x:.7g}" for x in vector) + "]"
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
        cursor.execute(_VECTOR_SQL, {"q": literal, "ns": namespace_id, "k": limit})
        rows = cursor.fetchall()
    return [VectorHit(memory_id=row[0], similarity=1.0 - float(row[1])) for row in rows]


def memories_by_id(ids: list[int]) -> dict[int, Memory]:
    return Memory.objects.in_bulk(ids)
