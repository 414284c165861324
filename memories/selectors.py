"""Reads of memories: hybrid search, lists, history, async events."""

from __future__ import annotations

import functools
import json
import math
import re
import sys
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

import psycopg
from django.conf import settings
from django.db import connection, connections, router
from django.db.backends.postgresql.psycopg_any import register_tzloader
from django.db.models import Count, IntegerField, OuterRef, Q, QuerySet, Subquery, Value
from django.db.models.base import ModelState
from django.db.models.fields.related_descriptors import ForeignKeyDeferredAttribute
from django.db.models.functions import Coalesce
from django.db.models.signals import post_init, pre_init
from django.utils import timezone
from psycopg.pq import Format

from core.observability import add_timing
from core.replica import reads_from_replica
from memories import answerable
from memories.embedding import embed_texts, get_embedder
from memories.latency import timed_search
from memories.models import EMBEDDING_DIMENSIONS, Memory, MemoryEvent, Namespace
from memories.recency import asks_about_present

SearchMode = Literal["hybrid", "vector", "keyword"]
#: The memory columns a search returns: all but the vector and the tsvector, which nobody reads.
_RESULT_FIELDS = tuple(f for f in Memory._meta.concrete_fields if f.column not in {"embedding", "search_vector"})
_RESULT_COLUMNS = ", ".join(f"m.{f.column}" for f in _RESULT_FIELDS)
_RESULT_ATTNAMES = frozenset(f.attname for f in _RESULT_FIELDS)
_result_converters: dict[str, list[tuple[int, list[Callable[..., Any]], Any]]] = {}


def _memories_from_rows(alias: str, rows: list[tuple[Any, ...]]) -> list[Memory]:
    """Memories from rows that start with ``_RESULT_COLUMNS``, as ``Memory.objects.raw`` would
    make them (the fields' and the backend's converters applied, the two columns left out
    deferred), with the converters found once per database instead of on every call: the raw
    queryset's per-call column matching cost a search about 1 ms (bench/profile_search.py)."""
    conn = connections[alias]
    converters = _result_converters.get(conn.vendor)
    if converters is None:
        converters = []
        for index, f in enumerate(_RESULT_FIELDS):
            col = f.get_col(Memory._meta.db_table)
            found = [*conn.ops.get_db_converters(col), *col.get_db_converters(conn)]
            if found:
                converters.append((index, found, col))
        _result_converters[conn.vendor] = converters
    width = len(_RESULT_FIELDS)
    memories = []
    for row in rows:
        values = list(row[:width])
        for index, funcs, col in converters:
            for func in funcs:
                values[index] = func(values[index], col, conn)
        memories.append(_memory_from_values(alias, values))
    return memories


#: The result columns' attribute names in order, and whether a Memory can be made from them by
#: filling its ``__dict__`` (below): true while none of them has a descriptor that acts on
#: assignment other than a foreign key's id, whose ``__set__`` only drops a cached related object
#: a new instance does not have.
_RESULT_ATTNAME_ORDER = tuple(f.attname for f in _RESULT_FIELDS)
_PLAIN_ATTRIBUTES = all(
    not hasattr(type(Memory.__dict__.get(name)), "__set__")
    or isinstance(Memory.__dict__.get(name), ForeignKeyDeferredAttribute)
    for name in _RESULT_ATTNAME_ORDER
)


def _memory_from_values(alias: str, values: list[Any]) -> Memory:
    """``Memory.from_db(alias, _RESULT_ATTNAMES, values)``: the same instance (the same
    ``__dict__``, the two left-out columns deferred, ``_state`` not adding and on ``alias``)
    without ``Model.__init__``'s per-field ``setattr`` and DEFERRED checks, which were most of
    the rows' cost in a search (bench/NOTES.md, 2026-11-26 "web process"). Django's own path
    whenever ``pre_init``/``post_init`` have receivers for Memory or a field's descriptor acts on
    assignment (both checked, not assumed)."""
    if not _PLAIN_ATTRIBUTES or pre_init.has_listeners(Memory) or post_init.has_listeners(Memory):
        return Memory.from_db(alias, _RESULT_ATTNAMES, values)
    memory = Memory.__new__(Memory)
    state = ModelState()
    state.adding = False
    state.db = alias
    memory._state = state
    memory.__dict__.update(zip(_RESULT_ATTNAME_ORDER, values, strict=True))
    return memory


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
    #: Recall as of this moment (memories valid then); None: now (docs/time-aware.md).
    as_of: datetime | None = None


def _validity_sql(filters: SearchFilters, params: dict[str, Any]) -> str:
    """Valid at ``as_of`` (default now): valid_from ≤ as_of < valid_until and not expired then;
    an empty end is open. Forgotten memories stay out at every moment (_filter_sql).

    "Now" is the application's clock, the one remember closes a superseded fact with, not the
    transaction's start (PostgreSQL's now()): a search in the transaction that closed a fact
    sees the new one."""
    params["as_of"] = filters.as_of or timezone.now()
    moment = "%(as_of)s::timestamptz"
    return (
        f"(m.valid_from IS NULL OR m.valid_from <= {moment}) AND (m.valid_until IS NULL OR m.valid_until > {moment})"
        f" AND (m.expires_at IS NULL OR m.expires_at > {moment})"
    )


@dataclass(frozen=True)
class SearchHit:
    memory: Memory
    #: The fused score scaled to [0, 1]; it orders results.
    score: float
    #: Cosine similarity to the query when the vector side saw the memory, else None.
    similarity: float | None = None
    #: Share of the query's words the memory holds when the keyword side saw it, else None.
    coverage: float | None = None


@functools.cache
def _formats(size: int, spec: str) -> str:
    """``"%.7g,%.7g,…"``: one %-format for a whole vector (one C call, where a generator of
    f-strings made a Python step per number)."""
    return ",".join([spec] * size)


def _vector_literal(vector: list[float]) -> str:
    """A query vector as pgvector's text, 7 significant digits per number (what
    ``f"{x:.7g}"`` per number gave, at a third of its cost)."""
    return "[" + _formats(len(vector), "%.7g") % tuple(vector) + "]"


def _filter_sql(namespace_ids: list[int], filters: SearchFilters, params: dict[str, Any]) -> str:
    """The WHERE clause every search arm shares: live, ready memories of the given namespaces."""
    params["ns"] = namespace_ids
    clauses = [
        "m.namespace_id = ANY(%(ns)s)",
        "m.status = 'ready'",
        "m.forgotten_at IS NULL",
        _validity_sql(filters, params),
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


# One round trip. The query vector is sent once (``qv``) and read where it is needed: inlined at
# each use it made a 35 KB statement with seven copies for PostgreSQL to parse (0.6 ms at 100k).
# Vector arm: the query's nearest whole-memory vectors and window vectors (long
# memories), best distance per memory; a small namespace is scanned exactly (every vector of it
# compared), a large one through the HNSW index with iterative scans (search_plan()). Keyword
# arm: each of the query's terms (query_terms(): its distinct stemmed words, at most
# MNEMO_KEYWORD_MAX_TERMS of them) gets an IDF weight from its document frequency in
# the searched namespaces (counted up to MNEMO_KEYWORD_SCAN_LIMIT matches, or PostgreSQL's column
# statistics for words too common to scan); a memory's keyword coverage is the IDF-weighted share
# of the query's words it holds, so "Cartagena" counts many times more than "go" or a speaker's
# name. Every candidate of either arm gets both numbers (cosine computed exactly for keyword
# candidates, coverage for vector candidates): fusion and the score use both.
_WORDS = """
stats AS (SELECT * FROM unnest(%(stat_lexemes)s::text[], %(stat_freqs)s::float8[]) AS e(lexeme, freq)),
words AS (
    SELECT w.lexeme, to_tsquery('simple', quote_literal(w.lexeme)) AS q, COALESCE(max(stats.freq), 0) AS freq
      FROM unnest(%(terms)s::text[]) AS w(lexeme)
      LEFT JOIN stats ON stats.lexeme = w.lexeme
     GROUP BY w.lexeme
),
hits AS (
    SELECT words.lexeme, hit.id FROM words, LATERAL (
           SELECT m.id FROM memories_memory m
            WHERE m.search_vector @@ words.q AND {hits_where}
            LIMIT %(scan)s
    ) hit
     WHERE words.freq <= %(common)s AND words.freq * {scan_rows} <= %(scan_max)s
),
wq AS (
    SELECT words.q, ln((%(n)s + 1.0) / (LEAST(%(n)s, GREATEST(
               (SELECT count(*) FROM hits WHERE hits.lexeme = words.lexeme),
               words.freq * %(n)s)) + 0.5)) AS w
      FROM words
),
total AS (SELECT GREATEST(sum(w), 1e-9) AS w FROM wq)
"""
# Every cut of candidates (ORDER BY distance LIMIT) breaks ties by id: equal texts have equal
# vectors, and without it which of a tie at the cut was kept followed the scan's order, the table's
# physical order, which updates, vacuum and rolled-back inserts move (bench/NOTES.md,
# tests/memories/test_search_ties.py). On an HNSW walk PostgreSQL adds an incremental sort: the
# index still orders, the sort only orders each run of equal distances.
_VECTOR_ARM = """
qv AS (SELECT %(q)s::vector AS v),
ann AS MATERIALIZED ({ann}),
vec AS (
    SELECT memory_id, MIN(d) AS d FROM (
        SELECT memory_id, d FROM ann
        UNION ALL{fallback}
        (SELECT c.memory_id, c.embedding <=> (SELECT v FROM qv) AS d
           FROM memories_memorychunk c JOIN memories_memory m ON m.id = c.memory_id
          WHERE c.namespace_id = ANY(%(ns)s) AND {where}
          ORDER BY (c.embedding <=> (SELECT v FROM qv)) {exact}, c.memory_id
          LIMIT %(cand)s)
    ) candidates
    GROUP BY memory_id
),
vr AS (SELECT memory_id, d, ROW_NUMBER() OVER (ORDER BY d, memory_id) AS r FROM vec)
"""
# The vector arm's nearest memories by walking an HNSW index (ordered by the indexed expression).
_ANN_WALK = """
    SELECT m.id AS memory_id, m.embedding <=> (SELECT v FROM qv) AS d
      FROM memories_memory m
     WHERE {where}
     ORDER BY ({walked} <=> (SELECT v FROM qv)), m.id
     LIMIT %(cand)s
"""
# ... and by comparing every vector of a small namespace: each distance computed once (the walk's
# form, ordered by "distance + 0" to keep the planner off the index, computed it twice per row:
# 0.35 of the statement's 4.0 ms of CPU at 600 memories), then the nearest kept. The same
# distances and the same candidates (tests/memories/test_search_equivalence.py).
_ANN_EXACT = """
    SELECT memory_id, d FROM (
        SELECT m.id AS memory_id, m.embedding <=> (SELECT v FROM qv) AS d
          FROM memories_memory m
         WHERE {where}
        OFFSET 0
    ) every_vector
     ORDER BY d, memory_id
     LIMIT %(cand)s
"""
# The HNSW plan's safety net: when the index walk ends with fewer candidates than the namespaces
# hold, the same candidates are found exactly. An HNSW graph holding many identical vectors (the
# same memory stored in many namespaces: a template every new user gets) has islands the walk
# cannot leave; measured on the bench table (100 vectors stored 1,000 times each), 5 queries in
# 200 got no vector candidate at all from a 100k namespace. Decided in the statement: the exact
# scan runs only when ``ann`` came back short (a one-time filter; 40 to 85 ms at 100k when it does).
_EXACT_FALLBACK = """
        (SELECT m.id AS memory_id, m.embedding <=> (SELECT v FROM qv) AS d
           FROM memories_memory m
          WHERE {where} AND (SELECT count(*) FROM ann) < %(ann_min)s
          ORDER BY (m.embedding <=> (SELECT v FROM qv)) + 0, m.id
          LIMIT %(cand)s)
        UNION ALL"""

_KEYWORD_ARM = """
kw AS (
    SELECT c.id AS memory_id, c.coverage, ROW_NUMBER() OVER (ORDER BY c.coverage DESC, c.tr DESC, c.id) AS r
      FROM (
        SELECT m.id,
               (SELECT sum(wq.w) FROM wq WHERE m.search_vector @@ wq.q) / total.w AS coverage,
               ts_rank_cd(m.search_vector, (SELECT to_tsquery('simple', string_agg(lexeme, ' | ')) FROM words)) AS tr
          FROM (SELECT DISTINCT id FROM hits) h JOIN memories_memory m ON m.id = h.id, total
      ) c
     ORDER BY c.coverage DESC, c.tr DESC, c.id
     LIMIT %(cand)s
)
"""

# Both arms' candidates with both arms' evidence. A keyword candidate the vector arm did not
# return gets its exact cosine; a vector candidate gets its keyword coverage.
_FEATURES = {
    "hybrid": """
feat AS (
    SELECT c.memory_id AS id,
           1 - COALESCE(vr.d, m.embedding <=> (SELECT v FROM qv)) AS cos,
           COALESCE(kw.coverage, (SELECT sum(wq.w) FROM wq WHERE m.search_vector @@ wq.q) / total.w, 0) AS coverage,
           vr.r AS vr, kw.r AS kr, COALESCE(m.valid_from, m.created_at) AS since, m.text AS body
      FROM (SELECT memory_id FROM vr UNION SELECT memory_id FROM kw) c
      JOIN memories_memory m ON m.id = c.memory_id
      LEFT JOIN vr ON vr.memory_id = c.memory_id
      LEFT JOIN kw ON kw.memory_id = c.memory_id, total
)""",
    "vector": """
feat AS (SELECT memory_id AS id, 1 - d AS cos, NULL::float AS coverage, r AS vr, NULL::bigint AS kr FROM vr)""",
    "keyword": """
feat AS (SELECT memory_id AS id, NULL::float AS cos, coverage, NULL::bigint AS vr, r AS kr FROM kw)""",
}


# Hybrid ranking: cos + a · coverage + m · (coverage − runner-up coverage)⁺ + b · cos · √coverage
# (hybrid_ranking()), the runner-up being the second-best coverage among the search's candidates.
# The margin term puts first the memory that the query's words single out (its coverage clearly
# above every other candidate's: a pet's name, a city, a band), while words many memories share (a
# speaker's name, "said") move nothing; otherwise the order is the cosine's, helped by the
# coverage the meaning supports (b). Chosen by cross-validation over two data sets built apart
# (bench/retrieval/crossval.py; docs/benchmarks.md "Retrieval, cross-validated"): the best mean
# R@5 + R@10 among the rules that, in every out-of-sample split (the other data set; the other
# half of the conversations, both ways), lose to neither arm in any question type at R@5 or R@10.
# Before: a = 0.5, b = 0.25 and no margin, which lost to the vector arm on the first data set's
# adversarial questions in two splits (one to two questions of 58 to 104).
# b = 1.5 (was 0.5): the leave-one-data-set-out procedure's pick on six read sets (bench/retrieval/
# lodo.py; held out 0.680 / 0.746 against 0.675 / 0.740), pre-registered and then read once on a
# seventh set none of it saw (family.json: R@5 / R@10 0.805 / 0.848 against 0.759 / 0.822;
# bench/NOTES.md 2026-11-27). More weight on the coverage the meaning supports lifts the memory that
# holds the query's words and its sense over one that holds only its sense.
HYBRID_COVERAGE_WEIGHT = 0.05
HYBRID_MARGIN_WEIGHT = 3.0
HYBRID_SUPPORTED_COVERAGE_WEIGHT = 1.5
# The second-best coverage among the candidates (0 with fewer than two), a scalar subquery over the
# statement's few rows. Measured against the window form (nth_value(coverage, 2) OVER (ORDER BY
# coverage DESC ...)), same rows: the window cost 0.13 ms more execution per search than the rule
# before; this form, which makes PostgreSQL compute ``feat`` once for both readers, 0.4 ms less
# (EXPLAIN ANALYZE, 150 questions of bench/retrieval, paired, medians; bench/NOTES.md).
_RUNNER_UP = "COALESCE((SELECT f2.coverage FROM feat f2 ORDER BY f2.coverage DESC OFFSET 1 LIMIT 1), 0)"
_RANKING = {
    "hybrid": (
        f"cos + {HYBRID_COVERAGE_WEIGHT} * coverage"
        f" + {HYBRID_MARGIN_WEIGHT} * GREATEST(coverage - {_RUNNER_UP}, 0)"
        f" + {HYBRID_SUPPORTED_COVERAGE_WEIGHT} * GREATEST(cos, 0) * sqrt(GREATEST(coverage, 0))"
    ),
    "vector": "cos",
    "keyword": "coverage",
}


# A hybrid query about the present (memories.recency): + MNEMO_SEARCH_PRESENT_RECENCY times the
# candidate's rank in time among the statement's candidates, 0 for the oldest and 1 for the newest
# (%(recency)s is 0 for any other query; the arms' own modes have no such term). A memory's time is
# when its fact took effect, ``valid_from``, or, without one, when it was stored: a fact imported
# or remembered later with an earlier ``valid_from`` ("lived in Paris from 2019") counts as older
# than one stated since, which storage order alone got wrong; an import puts an exported memory's
# created_at back, so imported memories keep their original order. Ties (none in practice) by id.
_TIME_RANK = "(ROW_NUMBER() OVER (ORDER BY feat.since, feat.id) - 1)::float8 / GREATEST(COUNT(*) OVER () - 1, 1)"


def hybrid_ranking(cos: float, coverage: float, runner_up: float, time_rank: float = 0.0) -> float:
    """The hybrid ranking value of a candidate, as the search statement computes it (_RANKING);
    ``runner_up`` is the second-best coverage among the search's candidates (runner_up());
    ``time_rank`` is present_recency() times the candidate's rank in time (valid_from, else when
    stored) among them, scaled to [0, 1] (_TIME_RANK): 0 for a query not about the present."""
    return (
        cos
        + HYBRID_COVERAGE_WEIGHT * coverage
        + HYBRID_MARGIN_WEIGHT * max(coverage - runner_up, 0.0)
        + HYBRID_SUPPORTED_COVERAGE_WEIGHT * max(cos, 0.0) * math.sqrt(max(coverage, 0.0))
        + time_rank
    )


def present_recency(query: str, mode: SearchMode) -> float:
    """The weight of a candidate's rank in time in the ranking value: MNEMO_SEARCH_PRESENT_RECENCY
    for a hybrid query about the present (memories.recency), 0 otherwise."""
    if mode != "hybrid" or not asks_about_present(query):
        return 0.0
    return float(settings.MNEMO_SEARCH_PRESENT_RECENCY)


def runner_up(coverages: list[float]) -> float:
    """The second-best of a search's candidates' coverages (0 with fewer than two), as _RANKING
    finds it."""
    return sorted(coverages, reverse=True)[1] if len(coverages) > 1 else 0.0


@dataclass(frozen=True)
class Calibration:
    """score = 1 / (1 + exp(-(alpha · z + gamma · z_best + beta))), z the mode's ranking value
    (_RANKING), z_best the best z among the search's candidates.

    Fitted by logistic regression on bench/retrieval's data sets (crossval.fit_calibration: is this
    top-10 result one of the question's evidence turns?): the score estimates the probability that the
    memory is relevant; the order within a search is z's. gamma < 0: the same z is less likely
    relevant when the search holds a clearly better candidate."""

    alpha: float
    beta: float
    gamma: float = 0.0

    def sql(self) -> str:
        return f"1.0 / (1.0 + exp(-({self.alpha!r} * z + {self.gamma!r} * max(z) OVER () + {self.beta!r})))"


CALIBRATION: dict[str, Calibration] = {
    # Fitted on all seven of bench/retrieval's data sets (in sample) for the rule with b = 1.5
    # (2026-11-27); fitted on six and read on the seventh, each in turn, it gives the same R@10
    # cost at the default floor within half a point (bench/NOTES.md).
    "hybrid": Calibration(alpha=3.249, gamma=-1.181, beta=-3.235),
    # fitted on bench/retrieval's first data set (calibrate.py); not refitted.
    "vector": Calibration(alpha=12.877, beta=-6.756),
    "keyword": Calibration(alpha=9.633, beta=-6.123),
}
#: What this process counted about namespaces and words: key → (when, value).
_stats_cache: dict[tuple[Any, ...], tuple[float, Any]] = {}
_lexeme_cache: dict[str, tuple[str, ...]] = {}
#: Per namespace, the keys of the sizes counted in ``_stats_cache`` that include it, so that
#: :func:`note_stored` moves them without walking the whole cache on every remember.
_size_keys: dict[int, set[tuple[Any, ...]]] = {}
#: How long a process trusts what it counted (a large namespace's size and common words, the
#: table's word statistics).
NAMESPACE_STATS_SECONDS = 60
#: How long it trusts the size and common words of a namespace of at most MNEMO_SEARCH_EXACT_MAX
#: memories. Why shorter: a small namespace can grow several times over within a minute (an
#: import, an agent's first conversation), and its size scales the keyword arm's weights and
#: picks its common words: counted when it held one memory and trusted for a minute, they cost
#: the peers benchmark's searches 17 points of R@10 (bench/NOTES.md, 2026-11-26 "stale
#: namespace size"). Counting a small namespace again is cheap (its index, at most a few
#: thousand rows), so a search recounts it at most every few seconds.
SMALL_NAMESPACE_STATS_SECONDS = 2
#: The clock of the cache (tests move it).
_clock = time.monotonic
#: Memories read to find a namespace's common words (all of a smaller namespace).
COMMON_WORDS_SAMPLE = 2000


def forget_namespace_stats() -> None:
    """Drop what this process counted about namespaces (tests that change a namespace's shape),
    and the query vectors it remembers (:func:`query_vector_literal`)."""
    _stats_cache.clear()
    _size_keys.clear()
    with _query_vectors_lock:
        _query_vectors.clear()


#: The query vectors this process embedded last, as the statement's literal: (embedder setting,
#: fused graph or not, embedder name, text embedded) -> literal; least recently used first.
_query_vectors: OrderedDict[tuple[str, bool, str, str], str] = OrderedDict()
_query_vectors_lock = threading.Lock()


def query_vector_literal(text: str) -> str:
    """The query vector of ``text`` as the search statement reads it (``_vector_literal``),
    remembered for the MNEMO_QUERY_VECTOR_CACHE most recently searched texts of this process.

    Why: the query embedding is most of a search's CPU (one model run: 4 to 5 ms on one core,
    the statement and all of Django about as much again), and agents ask the same things again
    (a session's recall, a tool called again with the same query). The vector is a pure function
    of the text and the model, so a remembered one is the one the model would make (the key holds
    the embedder setting and name: another model never reads it). 2,048 entries of about 4 KB of
    literal each: at most 8 MB per process."""
    size = settings.MNEMO_QUERY_VECTOR_CACHE
    if size <= 0:
        return _vector_literal(embed_texts([text])[0])
    key = (settings.MNEMO_EMBEDDER, settings.MNEMO_EMBED_FUSED, get_embedder().name, text)
    with _query_vectors_lock:
        literal = _query_vectors.get(key)
        if literal is not None:
            _query_vectors.move_to_end(key)
            return literal
    literal = _vector_literal(embed_texts([text])[0])  # outside the lock: threads embed at once
    with _query_vectors_lock:
        _query_vectors[key] = literal
        _query_vectors.move_to_end(key)
        while len(_query_vectors) > size:
            _query_vectors.popitem(last=False)
    return literal


def _counted(
    key: tuple[Any, ...],
    count: Callable[[], Any],
    *,
    seconds: Callable[[Any], float] | None = None,
    still_good: Callable[[Any], bool] | None = None,
) -> Any:
    """``count()``, remembered under ``key`` for NAMESPACE_STATS_SECONDS, or for
    ``seconds(value)`` when given (how long a value may be trusted can depend on the value), and
    while ``still_good(value)`` holds when given."""
    now = _clock()
    cached = _stats_cache.get(key)
    if cached is not None and now < cached[0] and (still_good is None or still_good(cached[1])):
        return cached[1]
    value = count()
    _stats_cache[key] = (now + (seconds(value) if seconds is not None else NAMESPACE_STATS_SECONDS), value)
    return value


def note_stored(namespace_id: int, count: int = 1) -> None:
    """This process made ``count`` memories of the namespace live (negative: took them away).

    The sizes it counted that include the namespace move by as much, so a burst of remembers
    followed by a search (an import, an agent's first conversation, a benchmark's load) is searched
    with the namespace's size, not with the size the burst's first remember counted and trusted
    for SMALL_NAMESPACE_STATS_SECONDS; its common words are counted again once the size has moved
    by a quarter (:func:`common_lexemes`). Writes of other processes are seen when the counts
    expire, as before (bench/NOTES.md, 2026-11-26 "the fourth data set")."""
    for key in list(_size_keys.get(namespace_id, ())):
        cached = _stats_cache.get(key)
        if cached is not None:
            _stats_cache[key] = (cached[0], max(0, cached[1] + count))


def _namespace_stats_seconds(size: int) -> float:
    """How long a namespace's counted size and common words are trusted, by its size."""
    return SMALL_NAMESPACE_STATS_SECONDS if size <= settings.MNEMO_SEARCH_EXACT_MAX else NAMESPACE_STATS_SECONDS


def word_frequencies() -> dict[str, float]:
    """Share of all memories holding each common stemmed word, from PostgreSQL's column
    statistics (``most_common_elems`` of ``search_vector``, kept by ANALYZE and autovacuum),
    read once a minute per process: joining ``pg_stats`` in every search statement cost more
    to plan than the rest of the keyword side took to run."""

    def count() -> dict[str, float]:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT e.lexeme, e.freq FROM pg_stats s, "
                "unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) AS e(lexeme, freq) "
                "WHERE s.schemaname = current_schema() AND s.tablename = 'memories_memory' "
                "AND s.attname = 'search_vector'"
            )
            return {lexeme: float(freq) for lexeme, freq in cursor.fetchall()}

    return _counted(("word frequencies",), count)


def namespace_size(namespace_ids: list[int]) -> int:
    """Live memories in the namespaces, cached per process for a minute, or a few seconds for a
    small namespace (:data:`SMALL_NAMESPACE_STATS_SECONDS`): it picks the search plan and scales
    keyword weights, so its order of magnitude matters, not the last row."""
    key = tuple(sorted(namespace_ids))

    def count() -> int:
        for namespace_id in key:  # only when counted: a cached size is indexed already
            _size_keys.setdefault(namespace_id, set()).add(("size", *key))
        return Memory.objects.filter(namespace_id__in=key, status=Memory.Status.READY).count()

    return _counted(("size", *key), count, seconds=_namespace_stats_seconds)


def generic_namespace_rows() -> float | None:
    """How many rows PostgreSQL expects ``m.namespace_id = ANY($n)`` to select when it plans
    without the value (a generic plan), from the table's statistics, read once a minute per
    process; None without statistics (a table never analyzed).

    Why: the search statement is planned once for any namespace (_search_cursor), so this, not
    the searched namespace's size, decides how its vectors are read. The planner takes a value's
    share as 1 / n_distinct (no more than the most common value's) and an array of unknown
    length as 10 values: 1 - (1 - share)^10 of the table. With few namespaces in a large table
    that is most of it, and the generic plan reads the whole table (two namespaces of 100k and
    500 memories: 145 ms instead of 2.3, bench/NOTES.md).

    A table not analyzed yet (new, or filled within the last minute, before autovacuum's first
    ANALYZE) of at most MNEMO_SEARCH_EXACT_MAX rows: its row count, which bounds what any filter
    on it selects. Why: a benchmark (make bench-peers) or a new installation searches right after
    loading its memories, and with None every search planned its statement anew (PostgreSQL CPU
    4.8 instead of about 2.5 ms per search at 460 memories, bench/NOTES.md "search statement's
    wall"). A larger table without statistics stays None (planned per search)."""

    def count() -> float | None:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT c.reltuples, s.n_distinct, s.most_common_freqs[1]"
                "  FROM pg_class c JOIN pg_stats s ON s.tablename = c.relname AND s.attname = 'namespace_id'"
                " WHERE c.oid = 'memories_memory'::regclass AND s.schemaname = current_schema()"
            )
            row = cursor.fetchone()
            if row is None or row[0] is None or row[0] <= 0 or not row[1]:
                # Without statistics: how many rows the table holds, counted up to one past the bound.
                bound = settings.MNEMO_SEARCH_EXACT_MAX
                cursor.execute("SELECT count(*) FROM (SELECT FROM memories_memory LIMIT %s) t", [bound + 1])
                (held,) = cursor.fetchone()
                return float(held) if held <= bound else None
        rows, n_distinct, most_common = float(row[0]), float(row[1]), row[2]
        distinct = -n_distinct * rows if n_distinct < 0 else n_distinct
        share = 1.0 / max(distinct, 1.0)
        if most_common is not None:
            share = min(share, float(most_common))
        return rows * (1.0 - (1.0 - share) ** 10)

    return _counted(("generic namespace rows",), count)


# A namespace of MNEMO_NAMESPACE_INDEX_MIN_MEMORIES or more gets an HNSW index of its own
# (memories.ops.maintain_namespace_indexes): partial, over the namespace's live rows, so a walk
# never passes another namespace's rows (at 100k memories in a 210k table the table-wide walk
# removed 60 to 1,200 rows of others per query by the filter). It indexes l2_normalize(embedding),
# the same vectors (every stored vector is normalised) under another expression: with both on
# ``embedding``, the planner kept the table-wide index, as pgvector's cost estimate does not see
# the filter. The search orders by that expression only where it wants the namespace's index.
OWN_INDEX_PREFIX = "memory_hnsw_ns_"


def own_index_vector(alias: str = "") -> str:
    """The expression a namespace's own HNSW index holds (``alias``: the table's, in a query)."""
    column = f"{alias}.embedding" if alias else "embedding"
    return f"l2_normalize({column})::vector({EMBEDDING_DIMENSIONS})"


def own_index_name(namespace_id: int) -> str:
    return f"{OWN_INDEX_PREFIX}{int(namespace_id)}"


def own_indexes() -> dict[int, bool]:
    """Every namespace index in the catalog: namespace id -> usable (built and valid; an
    interrupted concurrent build leaves an invalid one, which PostgreSQL does not use)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.relname, i.indisvalid AND i.indisready FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
            "WHERE i.indrelid = 'memories_memory'::regclass AND starts_with(c.relname, %s)",
            [OWN_INDEX_PREFIX],
        )
        named = ((name[len(OWN_INDEX_PREFIX) :], valid) for name, valid in cursor.fetchall())
        return {int(suffix): valid for suffix, valid in named if suffix.isdigit()}


def namespaces_with_own_index() -> frozenset[int]:
    """Namespaces whose own HNSW index is usable (own_indexes()), read once a minute per process."""
    return _counted(
        ("own indexes",), lambda: frozenset(namespace_id for namespace_id, ok in own_indexes().items() if ok)
    )


def search_plan(namespace_ids: list[int]) -> Literal["exact", "own", "hnsw"]:
    """How the vector arm finds neighbours: every vector of a namespace up to
    MNEMO_SEARCH_EXACT_MAX memories is compared (exact, and cheaper than walking an HNSW index
    past other namespaces' rows); one namespace with an index of its own walks that index
    ("own"); anything else larger goes through the table's HNSW index with iterative scans.

    The keyword arm follows the same split: a small namespace's full-text matches are found by
    intersecting the word's index entries with the namespace's (cheap when the namespace is
    small); a large namespace's by the word's entries alone, the namespace checked on the rows
    (its own index entries would cost more than the rows: 4 ms per word at 100k)."""
    if namespace_size(namespace_ids) <= settings.MNEMO_SEARCH_EXACT_MAX:
        return "exact"
    if len(set(namespace_ids)) == 1 and namespace_ids[0] in namespaces_with_own_index():
        return "own"
    return "hnsw"


def common_lexemes(namespace_ids: list[int]) -> frozenset[str]:
    """The stemmed words found in more than MNEMO_SEARCH_COMMON_SHARE of the namespaces' live
    memories (and at least 1,000 of them in a large namespace): the people talking, nothing rare.

    Counted (PostgreSQL's ``ts_stat``) over the namespaces' first COMMON_WORDS_SAMPLE memories
    in storage order (all of a smaller namespace) and cached with the namespace's size: a word's
    share of a namespace moves slowly, and counting it per query word cost a search at 100k
    memories 29 ms (docs/benchmarks.md)."""
    key = tuple(sorted(namespace_ids))

    def count() -> tuple[int, frozenset[str]]:
        n = namespace_size(namespace_ids)
        sample = min(n, COMMON_WORDS_SAMPLE)
        if sample == 0:
            return n, frozenset()
        # The same bar as counting every memory: a share of the namespace, at most 1,000 of them;
        # in a sample, that share of the sample.
        cap = min(max(2, math.ceil(settings.MNEMO_SEARCH_COMMON_SHARE * n)), 1000)
        need = max(2, math.ceil(cap * sample / n))
        ids = ",".join(str(int(i)) for i in key)  # ints only: ts_stat takes its query as text
        inner = (
            f"SELECT search_vector FROM memories_memory WHERE namespace_id IN ({ids}) "
            f"AND status = 'ready' AND search_vector IS NOT NULL LIMIT {sample}"
        )
        with connection.cursor() as cursor:
            cursor.execute("SELECT word FROM ts_stat(%s) WHERE ndoc >= %s", [inner, need])
            return n, frozenset(row[0] for row in cursor.fetchall())

    def still_good(counted: tuple[int, frozenset[str]]) -> bool:
        # Counted at another order of size (this process stored or forgot a quarter of the
        # namespace since: note_stored), the bar and the shares have moved: count them again.
        size = namespace_size(namespace_ids)
        return abs(size - counted[0]) <= max(2, counted[0] // 4)

    counted = _counted(
        ("common words", *key),
        count,
        seconds=lambda _: _namespace_stats_seconds(namespace_size(list(key))),
        still_good=still_good,
    )
    return counted[1]


def _lexemes(tokens: list[str]) -> list[tuple[str, ...]]:
    """Each token's stemmed words as PostgreSQL's ``english`` configuration makes them (a pure
    function of the token: remembered per process, at most 50,000 tokens)."""
    missing = sorted({t for t in tokens if t not in _lexeme_cache})
    if missing:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT t.tok, COALESCE((SELECT array_agg(l.lexeme) FROM unnest(to_tsvector('english', t.tok)) l),"
                " '{}') FROM unnest(%s::text[]) AS t(tok)",
                [missing],
            )
            rows = cursor.fetchall()
        if len(_lexeme_cache) + len(rows) > 50_000:
            _lexeme_cache.clear()
        for tok, lexemes in rows:
            _lexeme_cache[tok] = tuple(lexemes)
    return [_lexeme_cache.get(t, ()) for t in tokens]


def query_terms(query: str) -> list[str]:
    """The stemmed words the keyword arm looks for: the query's distinct words as PostgreSQL's
    ``english`` configuration stems them, at most MNEMO_KEYWORD_MAX_TERMS of them, the most
    informative kept: the rarest by the table's word statistics (:func:`word_frequencies`; a word
    missing from them is rare), earlier in the query first among equals.

    Why a cap: each term is one index scan for candidates and one more test on every candidate,
    so a 16,000-character query of distinct words cost thousands of scans (seconds). Linear in the
    query: one split, one stemming of each distinct word (remembered per process), one sort of at
    most that many words."""
    order: dict[str, int] = {}
    for tokens in _lexemes(list(dict.fromkeys(query.split()))):
        for lexeme in tokens:
            order.setdefault(lexeme, len(order))
    frequencies = word_frequencies()
    ranked = sorted(order, key=lambda lexeme: (frequencies.get(lexeme, 0.0), order[lexeme]))
    return ranked[: settings.MNEMO_KEYWORD_MAX_TERMS]


def embedding_text(*, namespace_ids: list[int], query: str) -> str:
    """The query as the vector arm embeds it: without the words found in more than
    MNEMO_SEARCH_COMMON_SHARE of the searched memories (:func:`common_lexemes`).

    Why: in a conversation every turn starts with its speaker's name, and MiniLM's vector of a
    short question is dominated by the name it holds ("When did Tariq get a tattoo?" sat closest
    to "Tariq: Honestly same."): without it the question's content decides. Measured on
    bench/retrieval: vector R@10 0.508 to 0.717. The keyword arm keeps every word (weighted by
    IDF, a common name weighs little there).

    Only when a word that says something is left: in a namespace of a few templated facts every
    content word is common, and "prefers afternoon meetings" would be embedded as "the" (stop
    words have no stemmed word, so they are never common), a vector near nothing the query meant.
    """
    tokens = query.split()
    if not 2 <= len(tokens) <= 32:  # a long text is not dominated by one name
        return query
    common = common_lexemes(namespace_ids)
    if not common:
        return query
    stemmed = _lexemes(tokens)
    kept = [(t, lexemes) for t, lexemes in zip(tokens, stemmed, strict=True) if not common.intersection(lexemes)]
    if len(kept) == len(tokens) or not any(lexemes for _, lexemes in kept):
        return query
    return " ".join(t for t, _ in kept)


def _search_sql(
    *, namespace_ids: list[int], query: str, mode: SearchMode, filters: SearchFilters, limit: int, params: dict
) -> str:
    """The CTEs up to ``feat`` (id, cos, coverage, vr, kr) for ``mode``."""
    params.update(
        cand=max(limit, settings.MNEMO_SEARCH_CANDIDATES),
        scan=settings.MNEMO_KEYWORD_SCAN_LIMIT,
        common=settings.MNEMO_KEYWORD_COMMON_FREQUENCY,
        n=max(namespace_size(namespace_ids), 1),
        # A word expected in more memories than this (of the namespace; of the whole table for a
        # large namespace, whose words are found through the full-text index alone) is not
        # scanned for candidates, though it still weighs in every candidate's coverage: LIMIT
        # would take an arbitrary few of its matches, after the index had listed all of them
        # (0.45 µs each: 4.5 ms for a word in 10,000 memories).
        scan_max=10 * settings.MNEMO_KEYWORD_SCAN_LIMIT,
    )
    where = _filter_sql(namespace_ids, filters, params)
    ctes = []
    plan = search_plan(namespace_ids)
    if mode in ("hybrid", "vector"):
        if plan == "exact":
            ann = _ANN_EXACT.format(where=where)
            ctes.append(_VECTOR_ARM.format(where=where, ann=ann, exact="+ 0", fallback=""))
        else:
            params["ann_min"] = min(params["cand"], namespace_size(namespace_ids))
            walked = own_index_vector("m") if plan == "own" else "m.embedding"
            fallback = _EXACT_FALLBACK.format(where=where)
            ann = _ANN_WALK.format(where=where, walked=walked)
            ctes.append(_VECTOR_ARM.format(where=where, ann=ann, exact="", fallback=fallback))
    if mode in ("hybrid", "keyword"):
        # The statistics of the query's words (a word the statement finds that is not among
        # them counts as rare, as a word missing from the statistics always did).
        frequencies = word_frequencies()
        terms = query_terms(query)
        lexemes = sorted(set(terms) & frequencies.keys())
        params.update(terms=terms, stat_lexemes=lexemes, stat_freqs=[frequencies[lexeme] for lexeme in lexemes])
        hits_where, scan_rows = where, "%(n)s"
        if plan != "exact":
            # A large namespace: the word's own index entries, the namespace checked on the rows
            # (search_plan's docstring); "+ 0" keeps the planner off the namespace index. Those
            # entries are the whole table's, so the table's row count bounds what a word costs.
            hits_where = where.replace("m.namespace_id = ANY(", "(m.namespace_id + 0) = ANY(", 1)
            scan_rows = "(SELECT GREATEST(reltuples, 1) FROM pg_class WHERE oid = 'memories_memory'::regclass)"
        ctes.append(_WORDS.format(where=where, hits_where=hits_where, scan_rows=scan_rows))
        ctes.append(_KEYWORD_ARM)
    ctes.append(_FEATURES[mode])
    return "WITH " + ",".join(ctes)


def _fused(mode: SearchMode) -> str:
    """The CTEs after ``feat``: each candidate's ranking value z and calibrated score (``scored``;
    the best z among the candidates is a window over the statement's few rows). Fusion and
    calibration only: how ``feat``'s numbers are found is _search_sql's."""
    recency = f" + %(recency)s * {_TIME_RANK}" if mode == "hybrid" else ""
    return (
        f"ranked AS (SELECT feat.*, {_RANKING[mode]}{recency} AS z FROM feat), "
        f"scored AS (SELECT ranked.*, {CALIBRATION[mode].sql()} AS score FROM ranked)"
    )


# Each text once in a result list. Remember's default policy (``ask``) stores a fact told again
# beside the older copy, and copies of one text tie on both arms' evidence, so without this a top 5
# could be one text five times. Of a text's candidates above the floor, the one with the highest
# score is kept, then the one stored last (highest id: the latest telling, with its own tags,
# metadata and time); the others are left out before ``limit``. Scores are unchanged. Judged as
# pre-registered on a ninth data set (bench/retrieval/diversity.py; bench/NOTES.md 2026-11-27,
# "each text once"). The hybrid statement's ``feat`` carries the text from the row it joins
# already (``body``): a join back to the table for it cost twice as much (bench/present_cost.py
# --part distinct); the arms' own modes join.
_COPY = "ROW_NUMBER() OVER (PARTITION BY {text} ORDER BY scored.score DESC, scored.id DESC) AS copy"
_DISTINCT = {
    "hybrid": f"distinct_texts AS (SELECT scored.*, {_COPY.format(text='scored.body')} "
    "FROM scored WHERE scored.score >= %(min_score)s)",
    "vector": f"distinct_texts AS (SELECT scored.*, {_COPY.format(text='t.text')} "
    "FROM scored JOIN memories_memory t ON t.id = scored.id WHERE scored.score >= %(min_score)s)",
}
_DISTINCT["keyword"] = _DISTINCT["vector"]


#: A placeholder of the search statement: ``%(name)s``, or ``%%`` (a literal %); any other % is
#: an error, as psycopg's own parser has it.
_PLACEHOLDER = re.compile(r"%\((?P<name>[^)]+)\)s|%%|%")


@functools.lru_cache(maxsize=256)
def _positional(statement: str) -> tuple[str, tuple[str, ...]]:
    """``statement`` with its ``%(name)s`` placeholders as PostgreSQL's ``$n`` (a name used again
    gets its first number; ``%%`` becomes ``%``) and the names in ``$n`` order: the text psycopg
    itself sends for it (tests/memories/test_search_prepared.py compares them), converted once
    per statement text and process.

    Why: psycopg converts a statement's placeholders on every execute and remembers the result
    only for statements up to 4,096 characters (``psycopg._queries.MAX_CACHED_STATEMENT_LENGTH``);
    the hybrid statement is longer (about 4,500 characters with no filter), so every search paid
    a regular-expression pass over its whole text. Its text depends only on the mode, the plan
    and the filters used, so a process holds a handful of them (256 at most here)."""
    names: dict[str, str] = {}

    def number(match: re.Match[str]) -> str:
        name = match.group("name")
        if name is None:
            if match.group(0) == "%%":
                return "%"
            raise psycopg.ProgrammingError(
                f"only %(name)s placeholders are allowed: {statement[match.start() :][:20]!r}"
            )
        return names.setdefault(name, f"${len(names) + 1}")

    text = _PLACEHOLDER.sub(number, statement)
    return text, tuple(names)


class _PreparedSearchCursor(psycopg.RawCursor[tuple[Any, ...]]):
    """A cursor whose statements go to PostgreSQL with their values apart (server-side binding)
    and prepared on the connection (psycopg's per-connection statement cache, by the statement's
    text and the values' types). It takes the statement as Django's cursors do (``%(name)s``
    placeholders, a mapping of values) and hands psycopg the ``$n`` text converted once
    (:func:`_positional`), through psycopg's raw cursor, which sends a text as it is."""

    def execute(  # type: ignore[override]  # takes a mapping, as Django's cursors do
        self, query: str, params: Any = None, *, prepare: bool | None = None, binary: bool | None = None
    ) -> Any:
        if params is not None:
            query, names = _positional(query)
            try:
                params = [params[name] for name in names]
            except KeyError as missing:
                raise psycopg.ProgrammingError(f"query parameter missing: {missing}") from None
        return super().execute(query, params, prepare=True if prepare is None else prepare, binary=binary)

    def _convert_query(self, query: Any, params: Any = None) -> Any:
        # Kept where Django's query log reads the statement (DatabaseOperations.last_executed_query
        # reads ``_query``, which psycopg sets for its client-side cursors only): the log shows
        # the statement with its $n placeholders, the values beside it.
        self._query = super()._convert_query(query, params)
        return self._query


_TIMESTAMPTZ_OID = psycopg.adapters.types["timestamptz"].oid
#: Connections (psycopg's, by identity) already told to plan the search statement generically.
_generic_planned: weakref.WeakSet[Any] = weakref.WeakSet()


def _search_cursor(alias: str, *, generic: bool) -> Any:
    """The search statement's cursor. With ``generic`` (a small namespace's exact plan, and
    statistics under which its generic plan reads the namespace's index:
    :func:`_generic_plan_reads_the_index`) and MNEMO_SEARCH_PREPARED: a statement prepared once
    per connection and planned once, generically (one plan for any values); anything else:
    Django's own cursor (client-side binding: the values inlined, the text parsed and planned
    anew on every search).

    Why: of the statement's 3.6 ms of PostgreSQL CPU at 500 memories, parsing the text (the
    query vector's 4 KB literal among it) and planning took more than half. Its text depends only
    on the mode, the plan and the filters used, so a web process has a handful of them. The
    generic plan of the exact statement is the custom plans' shape (the namespace's live index,
    the word index ANDed with the namespace's), so it costs what their execution did; the
    HNSW statements' generic plan does not know the namespace's size and cost 1.5 times the
    custom plans at 100k (and found other candidates), so they keep theirs (bench/NOTES.md,
    2026-11-26 "prepared search statement"). ``plan_cache_mode`` applies to prepared statements
    only; the other statements prepared (remember's, memories.services) set it for their own
    transaction."""
    conn = connections[alias]
    if not (generic and settings.MNEMO_SEARCH_PREPARED and conn.vendor == "postgresql"):
        return conn.cursor()
    conn.ensure_connection()
    with conn.wrap_database_errors:
        raw = conn.connection
        if raw not in _generic_planned:
            # Outside a transaction the setting holds for the session; inside one a rollback
            # would undo it, so it is set again (it only decides plans, never results).
            with raw.cursor() as setter:
                setter.execute("SET plan_cache_mode = force_generic_plan")
            if raw.autocommit:
                _generic_planned.add(raw)
    return prepared_cursor(alias)


def prepared_cursor(alias: str = "default") -> Any:
    """A cursor on ``alias`` (PostgreSQL) whose statements are prepared once per connection
    (server-side binding, psycopg's per-connection statement cache, by the statement's text and
    the values' types), taking Django's ``%(name)s`` placeholders (:class:`_PreparedSearchCursor`).
    It is Django's wrapper around psycopg's, so query logging, execute wrappers and
    Server-Timing's ``db`` see it as any other. How its statements are planned is the session's
    or the transaction's ``plan_cache_mode`` (search's :func:`_search_cursor`, remember's lock)."""
    conn = connections[alias]
    conn.ensure_connection()
    with conn.wrap_database_errors:
        raw = conn.connection
        if raw.prepare_threshold is None:
            # Django turns psycopg's prepared statements off (None: not even one asked for);
            # this turns them back on for statements that ask (``prepare=True``) and no others:
            # Django's cursors bind client-side, and psycopg never prepares those.
            raw.prepare_threshold = sys.maxsize
        cursor = _PreparedSearchCursor(raw)
        # As Django's own cursors (DatabaseWrapper.create_cursor): dates read in its time zone.
        if conn.timezone != raw.adapters.get_loader(_TIMESTAMPTZ_OID, Format.TEXT).timezone:
            register_tzloader(conn.timezone, cursor)
        conn.validate_thread_sharing()
        # (django-stubs type these methods' argument as Django's wrapper; they take the driver's cursor.)
        return conn.make_debug_cursor(cursor) if conn.queries_logged else conn.make_cursor(cursor)  # type: ignore[arg-type]


def _generic_plan_reads_the_index() -> bool:
    """Whether the exact statement's generic plan reads the namespace through its index: when
    the planner expects the namespace filter to select no more rows than the exact plan's own
    bound (MNEMO_SEARCH_EXACT_MAX), as a custom plan of an exact-plan namespace does. Otherwise
    the statement is planned for its values, as every other (:func:`generic_namespace_rows`)."""
    expected = generic_namespace_rows()
    return expected is not None and expected <= settings.MNEMO_SEARCH_EXACT_MAX


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
    min_score: float = 0.0,
    answerable_check: bool = False,
) -> list[SearchHit]:
    """The ``limit`` most relevant live memories in the namespaces, best first, each with a
    score of at least ``min_score``, and each text once (of several memories with one text, the
    best-scored, then the one stored last: _DISTINCT). With ``answerable_check`` a hybrid search
    answers nothing when its hits do not answer the query at all (:func:`answers_query`; the
    search operation asks for it with the default floor: memories.operations.search).

    ``score`` is a calibrated relevance in [0, 1] (see :class:`Calibration`): comparable across
    queries, above 0.5 when the memory is more likely relevant than not. ``similarity`` (cosine)
    and ``coverage`` (IDF-weighted share of the query's words held) are the arms' own evidence.
    Expired, forgotten and not-yet-embedded memories never appear. ``query_vector`` skips
    embedding the query (a caller that has it already).
    """
    if not namespace_ids or limit <= 0:
        return []
    filters = filters or SearchFilters()
    params: dict[str, Any] = {"k": limit, "min_score": min_score}
    if mode == "hybrid":
        params["recency"] = present_recency(query, mode)
    if mode in ("hybrid", "vector"):
        if query_vector is None:
            params["q"] = query_vector_literal(embedding_text(namespace_ids=namespace_ids, query=query))
        else:
            params["q"] = _vector_literal(query_vector)
    ctes = _search_sql(namespace_ids=namespace_ids, query=query, mode=mode, filters=filters, limit=limit, params=params)
    # The memories' own columns come back in the same query (all but the vector and the tsvector,
    # which nobody reads here).
    sql = (
        f"{ctes}, {_fused(mode)}, {_DISTINCT[mode]}, "
        "top AS (SELECT * FROM distinct_texts WHERE copy = 1 ORDER BY score DESC, id LIMIT %(k)s) "
        f"SELECT {_RESULT_COLUMNS}, top.score, top.cos, top.coverage "
        "FROM top JOIN memories_memory m ON m.id = top.id ORDER BY top.score DESC, m.id"
    )
    alias = router.db_for_read(Memory)  # the replica inside reads_from_replica, when healthy
    started = time.perf_counter()
    generic = search_plan(namespace_ids) == "exact" and _generic_plan_reads_the_index()
    with _search_cursor(alias, generic=generic) as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    add_timing("search-sql", time.perf_counter() - started)
    hits = []
    for m, row in zip(_memories_from_rows(alias, rows), rows, strict=True):
        score_, cos, coverage = row[-3:]
        hits.append(
            SearchHit(
                memory=m,
                score=round(float(score_), 4),
                similarity=None if cos is None else round(float(cos), 4),
                coverage=None if coverage is None else round(float(coverage), 4),
            )
        )
    if hits and mode == "hybrid" and answerable_check and not answers_query(namespace_ids, query, hits):
        return []
    return hits


def query_key_terms(namespace_ids: list[int], query: str) -> answerable.KeyTerms:
    """The query's key terms as the answerability check reads them in these namespaces (the
    stems and common words the search itself cached)."""
    return answerable.key_terms(query, query_terms(query), _lexemes(query.split()), common_lexemes(namespace_ids))


def answers_query(namespace_ids: list[int], query: str, hits: list[SearchHit]) -> bool:
    """Whether a hybrid search's hits answer the query at all (memories/answerable.py): False when
    its top hits hold none (or few) of the query's informative words and score low, as a question
    about something never stored. The query's stems and the namespace's common words are the ones
    the search itself found (cached), so this reads no more than the hits' text."""
    keys = query_key_terms(namespace_ids, query)
    top = hits[: answerable.MODEL.top_k]
    return not answerable.never_stored(answerable.features(keys, [h.memory.text for h in top], top[0].score))


def min_score_or_default(min_score: float | None) -> float:
    """A request's ``min_score``, or MNEMO_SEARCH_MIN_SCORE when it gave none."""
    return settings.MNEMO_SEARCH_MIN_SCORE if min_score is None else min_score


def search_features(
    *, namespace_ids: list[int], query: str, query_vector: list[float], limit: int = 10, mode: SearchMode = "hybrid"
) -> list[tuple[int, float | None, float | None, int | None, int | None]]:
    """Every candidate of a search with its evidence: (id, cosine, coverage, vector rank,
    keyword rank). For the benchmark's fusion and calibration work (bench/retrieval)."""
    params: dict[str, Any] = {"q": _vector_literal(query_vector)}
    ctes = _search_sql(
        namespace_ids=namespace_ids, query=query, mode=mode, filters=SearchFilters(), limit=limit, params=params
    )
    with connection.cursor() as cursor:
        cursor.execute(f"{ctes} SELECT id, cos, coverage, vr, kr FROM feat", params)
        return cursor.fetchall()


def query_word_weights(*, namespace_ids: list[int], query: str) -> tuple[int, list[float]]:
    """The namespace size the keyword arm's IDF is counted against and each of the query's words'
    IDF weight, as the search statement finds them (``wq``). For the benchmark's work on rules
    that adapt to how informative a query's words are (bench/retrieval)."""
    params: dict[str, Any] = {}
    ctes = _search_sql(
        namespace_ids=namespace_ids, query=query, mode="keyword", filters=SearchFilters(), limit=10, params=params
    )
    with connection.cursor() as cursor:
        cursor.execute(f"{ctes} SELECT COALESCE(array_agg(w ORDER BY w DESC), '{{}}') FROM wq", params)
        (weights,) = cursor.fetchone()
    return int(params["n"]), [float(w) for w in weights]


def vector_search(*, namespace_id: int, query: str, limit: int = 5) -> list[VectorHit]:
    """Nearest memories by meaning alone, with their cosine similarity (diagnostics, tests)."""
    params: dict[str, Any] = {"q": _vector_literal(embed_texts([query])[0]), "cand": limit, "k": limit}
    where = _filter_sql([namespace_id], SearchFilters(), params)
    arm = _VECTOR_ARM.format(
        where=where, ann=_ANN_WALK.format(where=where, walked="m.embedding"), exact="", fallback=""
    )
    sql = f"WITH {arm} SELECT memory_id, d FROM vr ORDER BY r LIMIT %(k)s"
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
    count of live memories.

    Each namespace's count is its own subquery over the live-memory index (``memory_ns_live``,
    read without the table once vacuumed): a join of every memory grouped by namespace sorted
    the whole table's rows with the namespaces' columns, 290 ms for 1,000 namespaces of 200k
    memories (docs/benchmarks.md)."""
    from memories import permissions

    permissions.ensure_user_namespace(user)
    writable = permissions.visible_namespaces(user, permissions.WRITE).values("id")
    live = (
        Memory.objects.filter(namespace=OuterRef("pk"), forgotten_at__isnull=True)
        .order_by()
        .values("namespace")
        .annotate(n=Count("*"))
        .values("n")
    )
    return (
        permissions.visible_namespaces(user)
        .select_related("owner")
        .annotate(memory_count=Coalesce(Subquery(live, output_field=IntegerField()), Value(0)))
        .annotate(can_write=Q(id__in=writable))
        .order_by("key")
    )
