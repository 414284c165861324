"""Reads of memories: hybrid search, lists, history, async events."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from django.conf import settings
from django.db import connection
from django.db.models import Count, Q, QuerySet

from core.replica import reads_from_replica
from memories.embedding import embed_texts
from memories.latency import timed_search
from memories.models import Memory, MemoryEvent, Namespace

SearchMode = Literal["hybrid", "vector", "keyword"]
RRF_K = 60  # the usual reciprocal-rank-fusion constant: rank r counts 1 / (60 + r)
_RESULT_COLUMNS = ", ".join(
    f"m.{f.column}" for f in Memory._meta.concrete_fields if f.column not in {"embedding", "search_vector"}
)


@dataclass(frozen=True)
class VectorHit:
    """A memory and its cosine similarity to the query (best of its own vector and its windows)."""

    memory_id: int
    similarity: float


@dataclass
class SearchFilters:
    """What narrows a search besides the namespaces: tags, metadata, creation time."""

    tags: list[str] = field(default_factory=list)
    tags_mode: Literal["any", "all"] = "any"
    #: {key: {op: value}} with op in eq, ne, in, contains, gt, lt.
    metadata: dict[str, dict[str, Any]] = field(default_factory=dict)
    created_after: datetime | None = None
    created_before: datetime | None = None


@dataclass(frozen=True)
class SearchHit:
    memory: Memory
    #: The fused score scaled to [0, 1]; it orders results.
    score: float
    #: Cosine similarity to the query when the vector side saw the memory, else None.
    similarity: float | None = None
    #: Share of the query's words the memory holds when the keyword side saw it, else None.
    coverage: float | None = None


def _vector_literal(vector: list[float]) -> str:
    return "[" + ",".join(f"{x:.7g}" for x in vector) + "]"


def _filter_sql(namespace_ids: list[int], filters: SearchFilters, params: dict[str, Any]) -> str:
    """The WHERE clause every search arm shares: live, ready memories of the given namespaces."""
    params["ns"] = namespace_ids
    clauses = [
        "m.namespace_id = ANY(%(ns)s)",
        "m.status = 'ready'",
        "m.forgotten_at IS NULL",
        "(m.expires_at IS NULL OR m.expires_at > now())",
    ]
    if filters.tags:
        params["tags"] = filters.tags
        clauses.append(
            "m.tags @> %(tags)s::varchar[]" if filters.tags_mode == "all" else "m.tags && %(tags)s::varchar[]"
        )
    if filters.created_after:
        params["created_after"] = filters.created_after
        clauses.append("m.created_at >= %(created_after)s")
    if filters.created_before:
        params["created_before"] = filters.created_before
        clauses.append("m.created_at < %(created_before)s")
    for n, (key, ops) in enumerate(sorted(filters.metadata.items())):
        params[f"mk{n}"] = key
        field_sql = f"(m.metadata -> %(mk{n})s)"
        for op, value in sorted(ops.items()):
            p = f"mv{n}_{op}"
            if op == "eq":
                params[p] = json.dumps(value)
                clauses.append(f"{field_sql} = %({p})s::jsonb")
            elif op == "ne":
                params[p] = json.dumps(value)
                clauses.append(f"{field_sql} IS DISTINCT FROM %({p})s::jsonb")
            elif op == "in":
                params[p] = [json.dumps(v) for v in value]
                clauses.append(f"{field_sql} = ANY(%({p})s::jsonb[])")
            elif op == "contains":
                params[p] = json.dumps([value])
                params[p + "_s"] = str(value).lower()
                clauses.append(
                    f"((jsonb_typeof({field_sql}) = 'array' AND {field_sql} @> %({p})s::jsonb) OR "
                    f"(jsonb_typeof({field_sql}) = 'string' AND "
                    f"strpos(lower(m.metadata ->> %(mk{n})s), %({p}_s)s) > 0))"
                )
            elif op in ("gt", "lt"):
                sign = ">" if op == "gt" else "<"
                params[p] = value
                if isinstance(value, int | float):
                    clauses.append(
                        f"(jsonb_typeof({field_sql}) = 'number' AND (m.metadata ->> %(mk{n})s)::numeric {sign} %({p})s)"
                    )
                else:
                    clauses.append(
                        f"(jsonb_typeof({field_sql}) = 'string' AND (m.metadata ->> %(mk{n})s) {sign} %({p})s)"
                    )
            else:  # the serializer only lets the six operators through
                raise ValueError(f"unknown metadata operator {op!r}")
    return " AND ".join(clauses)


# One round trip. Vector arm: HNSW neighbours of the query among whole-memory vectors and the
# window vectors of long memories, best distance per memory. Keyword arm: full-text matches of
# any of the query's stemmed words (OR, not AND: a question's words rarely all occur in a fact),
# without the words PostgreSQL's statistics show in more than MNEMO_KEYWORD_COMMON_FREQUENCY of
# all memories (they say nothing, and their long match lists are what makes full text slow), at
# most MNEMO_KEYWORD_SCAN_LIMIT matches per remaining word (a rare word's matches all come), the
# best 4k by ts_rank_cd, re-ranked by coverage (the share of the query's words a memory holds).
# The arms are fused by reciprocal rank, the keyword arm weighted by coverage squared: a memory
# holding the exact code or name asked for counts fully, one that shares a single incidental
# word of a long question barely counts (measured: unweighted fusion lost 4 of 22 paraphrase
# queries' first places to such matches).
_VECTOR_ARM = """
vec AS (
    SELECT memory_id, MIN(d) AS d FROM (
        (SELECT m.id AS memory_id, m.embedding <=> %(q)s::vector AS d
           FROM memories_memory m
          WHERE {where}
          ORDER BY m.embedding <=> %(q)s::vector
          LIMIT %(cand)s)
        UNION ALL
        (SELECT c.memory_id, c.embedding <=> %(q)s::vector AS d
           FROM memories_memorychunk c JOIN memories_memory m ON m.id = c.memory_id
          WHERE c.namespace_id = ANY(%(ns)s) AND {where}
          ORDER BY c.embedding <=> %(q)s::vector
          LIMIT %(cand)s)
    ) candidates
    GROUP BY memory_id
),
vr AS (SELECT memory_id, d, ROW_NUMBER() OVER (ORDER BY d, memory_id) AS r FROM vec)
"""
_KEYWORD_ARM = """
common AS (
    SELECT e.lexeme FROM pg_stats s,
           unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) AS e(lexeme, freq)
     WHERE s.schemaname = current_schema() AND s.tablename = 'memories_memory'
       AND s.attname = 'search_vector' AND e.freq > %(common)s
),
words AS (
    SELECT lexeme FROM unnest(to_tsvector('english', %(query)s))
     WHERE lexeme NOT IN (SELECT lexeme FROM common WHERE lexeme IS NOT NULL)
),
ql AS (SELECT to_tsquery('simple', quote_literal(lexeme)) AS q FROM words),
tq AS (SELECT to_tsquery('simple', string_agg(quote_literal(lexeme), ' | ')) AS t, count(*) AS n FROM words),
matched AS (
    SELECT DISTINCT ON (hit.id) hit.id, hit.search_vector
      FROM ql, LATERAL (
           SELECT m.id, m.search_vector FROM memories_memory m
            WHERE m.search_vector @@ ql.q AND {where}
            LIMIT %(scan)s
      ) hit
),
ranked AS (
    SELECT matched.id AS memory_id, matched.search_vector, ts_rank_cd(matched.search_vector, tq.t) AS s
      FROM matched, tq
     ORDER BY s DESC, matched.id
     LIMIT %(cand)s * 4
),
fr AS (
    SELECT memory_id, coverage, ROW_NUMBER() OVER (ORDER BY coverage DESC, s DESC, memory_id) AS r FROM (
        SELECT ranked.memory_id, ranked.s,
               (SELECT count(*) FROM ql WHERE ranked.search_vector @@ ql.q)::float / GREATEST(tq.n, 1) AS coverage
          FROM ranked, tq
    ) scored
    ORDER BY coverage DESC, s DESC, memory_id
    LIMIT %(cand)s
)
"""


@timed_search  # the staff home page's latency chart and the Prometheus histogram, one timing
@reads_from_replica
def search_memories(
    *,
    namespace_ids: list[int],
    query: str,
    limit: int = 5,
    filters: SearchFilters | None = None,
    mode: SearchMode = "hybrid",
    query_vector: list[float] | None = None,
) -> list[SearchHit]:
    """The ``limit`` most relevant live memories in the namespaces, best first.

    ``score`` is the fused reciprocal-rank score scaled to [0, 1]: 1.0 is first in every arm
    that ran. Expired, forgotten and not-yet-embedded memories never appear. ``query_vector``
    skips embedding the query (a caller that has it already).
    """
    if not namespace_ids or limit <= 0:
        return []
    filters = filters or SearchFilters()
    params: dict[str, Any] = {
        "query": query,
        "k": limit,
        "cand": max(limit, settings.MNEMO_SEARCH_CANDIDATES),
        "scan": settings.MNEMO_KEYWORD_SCAN_LIMIT,
        "common": settings.MNEMO_KEYWORD_COMMON_FREQUENCY,
    }
    where = _filter_sql(namespace_ids, filters, params)
    arms: list[str] = []
    if mode in ("hybrid", "vector"):
        params["q"] = _vector_literal(query_vector if query_vector is not None else embed_texts([query])[0])
        arms.append(_VECTOR_ARM.format(where=where))
    if mode in ("hybrid", "keyword"):
        arms.append(_KEYWORD_ARM.format(where=where))
    if mode == "hybrid":
        fused = f"""
            SELECT COALESCE(vr.memory_id, fr.memory_id) AS id,
                   COALESCE(1.0 / ({RRF_K} + vr.r), 0)
                   + COALESCE(fr.coverage * fr.coverage / ({RRF_K} + fr.r), 0) AS rrf,
                   vr.d AS distance, fr.coverage AS coverage
              FROM vr FULL OUTER JOIN fr ON vr.memory_id = fr.memory_id"""
    elif mode == "vector":
        fused = f"SELECT memory_id AS id, 1.0 / ({RRF_K} + r) AS rrf, d AS distance, NULL AS coverage FROM vr"
    else:
        fused = f"SELECT memory_id AS id, 1.0 / ({RRF_K} + r) AS rrf, NULL AS distance, coverage FROM fr"
    # The memories' own columns come back in the same query (all but the vector and the tsvector,
    # which nobody reads here).
    sql = (
        f"WITH {','.join(arms)}, top AS (SELECT * FROM ({fused}) fused ORDER BY rrf DESC, id LIMIT %(k)s) "
        f"SELECT {_RESULT_COLUMNS}, top.rrf, top.distance, top.coverage "
        "FROM top JOIN memories_memory m ON m.id = top.id ORDER BY top.rrf DESC, m.id"
    )
    best = (2.0 if mode == "hybrid" else 1.0) / (RRF_K + 1)
    # hnsw.iterative_scan and hnsw.ef_search are set on every connection (settings: DATABASES).
    memories = list(Memory.objects.raw(sql, params))
    hits = []
    for m in memories:
        # Raw queries annotate the rows with the extra columns: rrf, distance, coverage.
        rrf, distance, coverage = m.rrf, m.distance, m.coverage  # type: ignore[attr-defined]
        hits.append(
            SearchHit(
                memory=m,
                score=round(min(1.0, float(rrf) / best), 4),
                similarity=None if distance is None else round(1.0 - float(distance), 4),
                coverage=None if coverage is None else float(coverage),
            )
        )
    return hits


def vector_search(*, namespace_id: int, query: str, limit: int = 5) -> list[VectorHit]:
    """Nearest memories by meaning alone, with their cosine similarity (diagnostics, tests)."""
    params: dict[str, Any] = {"q": _vector_literal(embed_texts([query])[0]), "cand": limit, "k": limit}
    where = _filter_sql([namespace_id], SearchFilters(), params)
    sql = f"WITH {_VECTOR_ARM.format(where=where)} SELECT memory_id, d FROM vr ORDER BY r LIMIT %(k)s"
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    return [VectorHit(memory_id=row[0], similarity=1.0 - float(row[1])) for row in rows]


def format_results_text(hits: list[SearchHit]) -> str:
    """Seed 002's text form of search results, for agents that want one string."""
    if not hits:
        return "No matching memories found"
    text = "Found the following memories:\n\n"
    for i, hit in enumerate(hits, 1):
        score = f" (score: {hit.score:.2f})" if hit.score else ""
        text += f"{i}. {hit.memory.text}{score}\n\n"
    return text


def memory_history(*, memory: Memory) -> QuerySet[MemoryEvent]:
    return MemoryEvent.objects.filter(memory_id=memory.pk).select_related("actor").order_by("created_at", "id")


def memory_by_event_id(event_id: str) -> Memory | None:
    return Memory.objects.select_related("namespace").filter(event_id=event_id).first()


def nearest_neighbours(*, memory: Memory, limit: int = 5) -> list[tuple[Memory, float]]:
    """The live memories of the same namespace closest in meaning to ``memory``, with similarity."""
    if memory.embedding is None:
        return []
    params: dict[str, Any] = {
        "q": _vector_literal(list(memory.embedding)),
        "ns": memory.namespace_id,
        "id": memory.pk,
        "k": limit,
    }
    sql = (
        "SELECT m.id, 1 - (m.embedding <=> %(q)s::vector) FROM memories_memory m "
        "WHERE m.namespace_id = %(ns)s AND m.id <> %(id)s AND m.status = 'ready' AND m.forgotten_at IS NULL "
        "ORDER BY m.embedding <=> %(q)s::vector LIMIT %(k)s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    found = Memory.objects.in_bulk([row[0] for row in rows])
    return [(found[row[0]], round(float(row[1]), 4)) for row in rows if row[0] in found]


def duplicate_clusters(
    *, namespace_ids: list[int], threshold: float, limit: int = 200
) -> list[list[tuple[Memory, float]]]:
    """Groups of near-duplicate live memories per namespace (cosine ≥ threshold and the same
    numbers and codes), largest first. Each member comes with its best similarity in the group."""
    from memories.services import same_specifics

    if not namespace_ids:
        return []
    sql = """
        SELECT a.id, b.id, 1 - (a.embedding <=> b.embedding) AS sim
          FROM memories_memory a
          JOIN LATERAL (
                SELECT m.id, m.embedding FROM memories_memory m
                 WHERE m.namespace_id = a.namespace_id AND m.id > a.id AND m.status = 'ready'
                   AND m.forgotten_at IS NULL
                 ORDER BY m.embedding <=> a.embedding LIMIT 10
          ) b ON true
         WHERE a.namespace_id = ANY(%(ns)s) AND a.status = 'ready' AND a.forgotten_at IS NULL
           AND 1 - (a.embedding <=> b.embedding) >= %(t)s
         ORDER BY sim DESC
         LIMIT %(limit)s
    """
    with connection.cursor() as cursor:
        cursor.execute(sql, {"ns": namespace_ids, "t": threshold, "limit": limit * 5})
        pairs = cursor.fetchall()
    ids = {i for pair in pairs for i in pair[:2]}
    memories = Memory.objects.select_related("namespace").in_bulk(list(ids))
    from memories.models import DuplicateDismissal

    dismissed = set(DuplicateDismissal.objects.filter(memory_a_id__in=ids).values_list("memory_a_id", "memory_b_id"))
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    best: dict[int, float] = {}
    for a, b, sim in pairs:
        if (a, b) in dismissed or a not in memories or b not in memories:
            continue
        if not same_specifics(memories[a].text, memories[b].text):
            continue
        parent[find(a)] = find(b)
        best[a] = max(best.get(a, 0.0), float(sim))
        best[b] = max(best.get(b, 0.0), float(sim))
    groups: dict[int, list[int]] = {}
    for member in best:
        groups.setdefault(find(member), []).append(member)
    clusters = [
        sorted(((memories[m], round(best[m], 4)) for m in members), key=lambda pair: pair[0].created_at)
        for members in groups.values()
    ]
    clusters.sort(key=lambda c: (-len(c), c[0][0].namespace.key, c[0][0].id))
    return clusters[:limit]


def namespaces_for(*, user: Any) -> QuerySet[Namespace]:
    """The namespaces ``user`` may read (their own made if missing), with ``can_write`` and the
    count of live memories."""
    from memories import permissions

    permissions.ensure_user_namespace(user)
    writable = permissions.visible_namespaces(user, permissions.WRITE).values("id")
    return (
        permissions.visible_namespaces(user)
        .select_related("owner")
        .annotate(memory_count=Count("memories", filter=Q(memories__forgotten_at__isnull=True)))
        .annotate(can_write=Q(id__in=writable))
        .order_by("key")
    )
