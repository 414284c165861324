"""Writes to memories: remember, add, update, forget, correct, confirm; embedding and the queue."""

from __future__ import annotations

import atexit
import logging
import os
import re
import threading
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connection, connections, transaction
from django.db.models.sql import InsertQuery
from django.utils import timezone

from core.errors import DatabaseUnavailable, EmbeddingError, InvalidInput, NotFound, SecretRejected
from core.secrets import recheck_secrets, reject_secrets, secret_kind
from memories.embedding import EmbedderUnavailable, embed_with_windows, get_embedder
from memories.models import Memory, MemoryChunk, MemoryEvent, Namespace, Tombstone
from memories.selectors import (
    _generic_plan_reads_the_index,
    _vector_literal,
    note_stored,
    prepared_cursor,
    search_plan,
)
from memories.tags import normalize_tags
from memories.temporal import MAX_CHARS as SUPERSEDE_MAX_CHARS
from memories.temporal import check_validity, contradiction, shape
from memories.vector_field import vector_text

DEDUP_POLICIES = ("insert", "skip_if_near", "ask")
#: remember's ``supersede``: "report" a newer fact's contradicted memories, or also "close" them.
SUPERSEDE_POLICIES = ("report", "close")
#: Nearest memories remember reads in its one candidate query (near-duplicates and superseded).
NEAR_CANDIDATES = 8

# Tokens that carry a number: ids, codes, times, dates, amounts ("TEAM-123", "10am", "$40"): the
# runs between separators that hold a digit, each tried from its first character only (the
# lookbehind) and without backtracking (possessive): "[^sep]*\d[^sep]*" was retried from every
# character of a long run without a digit, which made it quadratic (3.6 s for 16,000 letters).
_SEP = r"\s,;:!?()\[\]{}\"'"
_SPECIFICS = re.compile(rf"(?<![^{_SEP}])[^{_SEP}\d]*+\d[^{_SEP}]*+")


def same_specifics(a: str, b: str) -> bool:
    """Whether two texts name the same numbers and codes.

    Sentence embeddings barely see them: "team ID is TEAM-123" and "team ID is TEAM-456" score
    0.96, "Monday at 10am" and "Tuesday at 3pm" 0.96 (bench/near_duplicate_threshold.py). Two
    texts that differ there are different facts, however close their vectors.
    """

    def specifics(text: str) -> set[str]:
        return {token.strip(".").lower() for token in _SPECIFICS.findall(text)}

    return specifics(a) == specifics(b)


logger = logging.getLogger(__name__)


@transaction.atomic
def embed_queued_memories(*, ids: Iterable[int], fill_to: int = 0) -> int:
    """Embed the given memories that are still ``queued``, in one batch; return how many.

    Idempotent: a row already ``ready`` (or gone) is skipped, so a redelivered or duplicated task
    changes nothing more. Rows are locked while they are embedded, so two workers given the same
    ids embed each row once: the second waits, then finds it ready. If embedding fails the
    transaction rolls back and the rows stay ``queued`` for a retry.

    ``fill_to``: collect other queued rows (oldest first, skipping rows another worker holds)
    until the batch has this many. Under load one task then embeds many memories in one model
    run, and the tasks of the rows it took find them ready and return at once.
    """
    rows = list(
        Memory.objects.select_for_update()
        .filter(id__in=list(ids), status=Memory.Status.QUEUED)
        .only("id", "text", "namespace_id")
        .order_by("id")
    )
    if fill_to > len(rows):
        rows += list(
            Memory.objects.select_for_update(skip_locked=True)
            .filter(status=Memory.Status.QUEUED)
            .exclude(id__in=[row.id for row in rows])
            .only("id", "text", "namespace_id")
            .order_by("updated_at", "id")[: fill_to - len(rows)]
        )
    if not rows:
        return 0
    write_embeddings(rows, embed_with_windows([row.text for row in rows]), model_name=get_embedder().name, queued=True)
    return len(rows)


def write_embeddings(
    rows: list[Memory], results: list[tuple[list[float], list[list[float]]]], *, model_name: str, queued: bool = False
) -> None:
    """Store each row's vector (and its window vectors) and mark it ready: the one place that
    writes embeddings of existing rows (the task, re-embedding). ``queued``: the rows were queued
    (the task), so they become live here (:func:`memories.selectors.note_stored`)."""
    now = timezone.now()
    chunks: list[MemoryChunk] = []
    for row, (vector, windows) in zip(rows, results, strict=True):
        row.embedding, row.embedding_model, row.status, row.error = vector, model_name, Memory.Status.READY, ""
        row.embedded_at = row.updated_at = now
        chunks.extend(
            MemoryChunk(memory_id=row.id, namespace_id=row.namespace_id, position=i, embedding=w)
            for i, w in enumerate(windows)
        )
    # One statement with one vector per row. Django's bulk_update writes a CASE over every row
    # for every column and spent 4 ms of Python per memory building it: more than the embedding
    # itself (worker ingestion 98/s against the embedder's 260/s; docs/benchmarks.md).
    with connection.cursor() as cursor:
        cursor.execute(
            f"""UPDATE {Memory._meta.db_table} m
                   SET embedding = v.embedding::vector, embedding_model = %s, status = %s, error = '',
                       embedded_at = %s, updated_at = %s
                  FROM unnest(%s::bigint[], %s::text[]) AS v(id, embedding)
                 WHERE m.id = v.id""",  # noqa: S608 (the table name is ours)
            [
                model_name,
                Memory.Status.READY,
                now,
                now,
                [row.id for row in rows],
                [vector_text(row.embedding) for row in rows],
            ],
        )
    MemoryChunk.objects.filter(memory_id__in=[row.id for row in rows]).delete()
    MemoryChunk.objects.bulk_create(chunks)
    if queued:  # the rows became live here: the sizes this process counted grow by them
        grown = Counter(row.namespace_id for row in rows)

        def note() -> None:
            for namespace_id, n in grown.items():
                note_stored(namespace_id, n)

        transaction.on_commit(note)


def mark_failed(*, ids: Iterable[int], error: str) -> int:
    """Give up on queued rows after the task's last retry; the error is kept for the event API."""
    return Memory.objects.filter(id__in=list(ids), status=Memory.Status.QUEUED).update(
        status=Memory.Status.FAILED, error=error[:2000], updated_at=timezone.now()
    )


def send_to_queue(ids: list[int]) -> bool:
    """Publish one embedding task for ``ids`` now; False (and a warning) if the broker is away.

    A failed publish loses nothing: the rows are ``queued`` in the database and the sweeper
    sends them again.
    """
    from memories.tasks import embed_memories

    try:
        if settings.CELERY_TASK_ALWAYS_EAGER:
            # No broker: run here and now (apply_async would still reach for a producer).
            embed_memories.apply(args=[ids], throw=True)
            return True
        embed_memories.apply_async(
            args=[ids],
            retry=True,
            retry_policy={"max_retries": 1, "interval_start": 0.2, "interval_step": 0.2, "interval_max": 0.5},
        )
    except Exception as exc:  # kombu raises several kinds here; any of them means "not sent"
        if settings.CELERY_TASK_ALWAYS_EAGER:
            logger.warning("in-process embedding of %s failed (%s); the rows stay queued", ids, exc)
        else:
            logger.warning("broker unavailable (%s); %d memories stay queued for the sweeper", exc, len(ids))
        return False
    return True


class _Publisher:
    """Publishes the embedding tasks of committed rows from a thread of its own in this process.

    A request that added memories hands their ids over and answers at once: the broker's round
    trips are not in its time, and ids that arrive while a publish is in flight (concurrent
    add_memory requests) go out together in the next message, one task for several rows (at
    most ``MNEMO_EMBED_BATCH_SIZE``), so the worker takes, runs and finds ready fewer tasks.
    Nothing is lost that was not already covered: the rows are committed ``queued`` before
    their ids get here, and ids still waiting when the process dies are sent again by the
    sweeper, as a failed publish's are. The thread is started on first use in each process (a
    forked worker gets its own).

    Before a publish the thread lingers up to ``MNEMO_PUBLISH_LINGER_MS`` for more ids (a full
    batch or :meth:`flush` ends it at once): under concurrent adds a message then carries several
    rows, and each message costs the web process a publish (celery's message, the broker's
    INSERT) and the worker a task (its trace, transaction and row lookups). The linger is a small
    part of what a queued memory waits anyway (the worker polls the broker every
    ``MNEMO_BROKER_POLL_SECONDS`` when idle).
    """

    def __init__(self) -> None:
        self._pending: list[int] = []
        self._busy = False
        self._hurry = False
        self._cond = threading.Condition()
        self._pid = 0

    def add(self, ids: list[int]) -> None:
        with self._cond:
            if self._pid != os.getpid():  # first use here, or a fork: the thread is not ours
                self._pid, self._pending, self._busy = os.getpid(), [], False
                threading.Thread(target=self._run, name="mnemo-publisher", daemon=True).start()
            self._pending.extend(ids)
            self._cond.notify()

    def _run(self) -> None:
        while True:
            with self._cond:
                self._busy = False
                self._cond.notify_all()
                while not self._pending:
                    self._cond.wait()
                size = max(1, settings.MNEMO_EMBED_BATCH_SIZE)
                deadline = time.monotonic() + settings.MNEMO_PUBLISH_LINGER_MS / 1000
                while len(self._pending) < size and not self._hurry:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        break
                    self._cond.wait(left)
                batch, self._pending = self._pending[:size], self._pending[size:]
                self._busy = True
            try:
                send_to_queue(batch)
            finally:
                # Eager mode (no broker) embeds here, on this thread's own database connection:
                # closed, not left open for the life of the process.
                connections.close_all()

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until every id handed over was published (tests, shutdown); False on timeout."""
        deadline = time.monotonic() + timeout
        with self._cond:
            self._hurry = True  # no lingering for more ids: send what is there
            self._cond.notify_all()
            try:
                while (self._pending or self._busy) and self._pid == os.getpid():
                    left = deadline - time.monotonic()
                    if left <= 0:
                        return False
                    self._cond.wait(left)
            finally:
                self._hurry = False
        return True


publisher = _Publisher()


def _publisher_after_fork() -> None:
    # The parent's thread may have held the lock at the fork: the child starts clean.
    publisher._cond = threading.Condition()
    publisher._pid, publisher._hurry = 0, False


os.register_at_fork(after_in_child=_publisher_after_fork)
atexit.register(publisher.flush, 5.0)  # a clean stop sends what is waiting; a kill leaves it to the sweeper


def enqueue_embedding(*, ids: list[int]) -> None:
    """Send ``ids`` to the embedding task once the current transaction commits: through the
    process's publisher thread (:class:`_Publisher`), or, without a broker (eager mode), here
    and now."""
    if not ids:
        return
    if settings.CELERY_TASK_ALWAYS_EAGER:
        transaction.on_commit(lambda: send_to_queue(list(ids)))
    else:
        transaction.on_commit(lambda: publisher.add(list(ids)))


def requeue_stale_memories(*, older_than: timedelta | None = None) -> int:
    """The sweeper: send again every memory left ``queued`` longer than ``older_than``.

    Their ``updated_at`` is touched so that one sweep does not resend what the previous one just
    sent. Returns how many rows were sent (or tried: a broker still down leaves them for later).
    """
    if older_than is None:
        older_than = timedelta(seconds=settings.MNEMO_REQUEUE_AFTER_SECONDS)
    now = timezone.now()
    stale = list(
        Memory.objects.filter(status=Memory.Status.QUEUED, updated_at__lt=now - older_than)
        .order_by("id")
        .values_list("id", flat=True)
    )
    size = settings.MNEMO_EMBED_BATCH_SIZE
    for start in range(0, len(stale), size):
        batch = stale[start : start + size]
        Memory.objects.filter(id__in=batch, status=Memory.Status.QUEUED).update(updated_at=now)
        send_to_queue(batch)
    return len(stale)


# --- the memory API's writes ----------------------------------------------------------------------


@dataclass(frozen=True)
class Near:
    """A memory or tombstone close to a new text."""

    id: int
    text: str
    similarity: float
    extra: dict[str, Any]


@dataclass(frozen=True)
class RememberResult:
    memory_id: int
    message: str
    near_duplicates: list[Near] | None
    previously_corrected: list[Near]
    #: Live memories the new one contradicts (extra: old_values, new_values, closed, valid_until).
    supersedes: list[Near] = dataclass_field(default_factory=list)


def validate_text(text: str, *, field: str = "text") -> str:
    """The checks every memory text passes before anything is stored."""
    if not isinstance(text, str) or not text.strip():
        raise InvalidInput(f"{field} must be a non-empty string.")
    if "\x00" in text:
        raise InvalidInput(f"{field} must not contain NUL characters.")
    limit = settings.MAX_TEXT_CHARS
    if len(text) > limit:
        raise InvalidInput(f"{field} is {len(text)} characters long; the limit is {limit} (MAX_TEXT_CHARS).")
    kind = secret_kind(text)  # the contract scanned it already: then a lookup
    if kind:
        raise SecretRejected(f"{field} looks like a secret ({kind}); it was not stored.")
    return text


def clean_tags(tags: list[str] | None) -> list[str]:
    try:
        return normalize_tags(tags or [])
    except ValueError as exc:
        raise InvalidInput(f"tags: {exc}") from exc


def _embed_one(text: str) -> tuple[list[float], list[list[float]], str]:
    try:
        [(vector, windows)] = embed_with_windows([text])
    except EmbedderUnavailable as exc:
        raise EmbeddingError(f"The text could not be embedded: {exc}") from exc
    return vector, windows, get_embedder().name


def _set_lock_timeout() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT set_config('lock_timeout', %s, true)", [f"{settings.MNEMO_DB_LOCK_TIMEOUT_MS}ms"])


def _lock_namespace(namespace_id: int, *, no_key: bool = False, plan_cache_mode: str = "") -> None:
    """Lock the namespace's row until the transaction ends, the transaction's lock timeout set in
    the same statement (one round trip where ``_set_lock_timeout`` and the ORM's lock took two):
    ``set_config`` is computed as the row is read, before the row lock is waited for, so the wait
    is bounded by ``MNEMO_DB_LOCK_TIMEOUT_MS`` as before. ``no_key``: FOR NO KEY UPDATE.
    ``plan_cache_mode``: set for the transaction too (how :func:`_candidates`' prepared statement
    is planned; the session's own setting, which search may have set, comes back at its end), and
    this statement prepared as well (parsed and planned once per connection: one primary-key
    lookup whatever the values)."""
    table, mode = Namespace._meta.db_table, "NO KEY UPDATE" if no_key else "UPDATE"
    # Named placeholders: the prepared cursor takes only those (memories.selectors._positional).
    settings_sql = "set_config('lock_timeout', %(timeout)s, true)"
    params: dict[str, Any] = {"timeout": f"{settings.MNEMO_DB_LOCK_TIMEOUT_MS}ms", "id": namespace_id}
    if plan_cache_mode:
        settings_sql += ", set_config('plan_cache_mode', %(plans)s, true)"
        params["plans"] = plan_cache_mode
    sql = f"SELECT {settings_sql} FROM {table} WHERE id = %(id)s FOR {mode}"  # noqa: S608 (ours)
    with prepared_cursor() if plan_cache_mode else connection.cursor() as cursor:
        cursor.execute(sql, params)


def _near(table: str, *, namespace_id: int, vector: list[float], threshold: float, limit: int = 5) -> list[tuple]:
    """Rows of ``table`` in the namespace with cosine similarity ≥ threshold, nearest first."""
    # Live now: a fact whose validity ended (superseded, or remembered as past) is history, neither
    # a duplicate of a new memory nor superseded by it.
    live = (
        "AND t.status = 'ready' AND t.forgotten_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > now())"
        " AND (t.valid_until IS NULL OR t.valid_until > now())"
        if table == "memories_memory"
        else ""
    )
    extra = ", t.reason, t.kind, t.replaced_by_id, t.memory_id, t.created_at" if table == "memories_tombstone" else ""
    columns = f"t.id, t.text, t.embedding <=> %(q)s::vector AS distance{extra}"
    # The k nearest first (what the HNSW index is fast at), the threshold after: with the
    # distance in the WHERE clause an iterative index scan would walk the whole index looking for
    # near rows that usually do not exist.
    sql = f"""
        SELECT * FROM (
            SELECT {columns} FROM {table} t
             WHERE t.namespace_id = %(ns)s AND t.embedding IS NOT NULL {live}
             ORDER BY t.embedding <=> %(q)s::vector
             LIMIT %(k)s
        ) nearest
        WHERE distance <= %(max_distance)s
        ORDER BY distance
    """  # noqa: S608 (table and column names are ours, values are parameters)
    with connection.cursor() as cursor:
        cursor.execute(
            sql, {"q": _vector_literal(vector), "ns": namespace_id, "max_distance": 1 - threshold, "k": limit}
        )
        return cursor.fetchall()


def _insert_ready(
    *,
    namespace: Namespace,
    text: str,
    vector: list[float],
    windows: list[list[float]],
    model: str,
    **fields: Any,
) -> Memory:
    now = timezone.now()
    memory = Memory.objects.create(
        namespace=namespace,
        text=text,
        embedding=vector,
        embedding_model=model,
        status=Memory.Status.READY,
        embedded_at=now,
        **fields,
    )
    MemoryChunk.objects.bulk_create(
        MemoryChunk(memory=memory, namespace=namespace, position=i, embedding=w) for i, w in enumerate(windows)
    )
    return memory


def _insert_remembered(
    *,
    event: dict[str, Any] | None,
    namespace: Namespace,
    text: str,
    vector: list[float],
    windows: list[list[float]],
    model: str,
    **fields: Any,
) -> Memory:
    """remember's write: the ready row, its window vectors and (``event``: actor, new_text and
    the data) its ``add`` event, in one statement (:func:`_insert_with_event`)."""
    now = timezone.now()
    memory = Memory(
        namespace=namespace,
        text=text,
        embedding=vector,
        embedding_model=model,
        status=Memory.Status.READY,
        embedded_at=now,
        **fields,
    )
    return _insert_with_event(memory, namespace=namespace, windows=windows, event=event)


def _insert_with_event(
    memory: Memory, *, namespace: Namespace, windows: list[list[float]], event: dict[str, Any] | None
) -> Memory:
    """The new row ``memory``, its window vectors and (``event``: actor, new_text and the data)
    its ``add`` event, in one statement, where ``Memory.objects.create``, the chunks' and
    ``_event``'s inserts took one round trip each (and, in a transaction, its BEGIN and COMMIT
    two more). The row's INSERT is the one ``Memory.objects.create`` sends (Django's own
    compiler: the fields' defaults, ``auto_now`` and value preparation), without its Python
    around it (no signals are connected to these models); one statement is also all or nothing,
    in autocommit as in a transaction."""
    meta = Memory._meta
    query = InsertQuery(Memory)
    query.insert_values(
        [f for f in meta.local_concrete_fields if not f.generated and f is not meta.auto_field], [memory]
    )
    compiler = query.get_compiler(connection=connection)
    compiler.returning_fields = [meta.pk]
    [(insert_sql, insert_params)] = compiler.as_sql()
    sql, params = [f"WITH m AS ({insert_sql})"], list(insert_params)
    if windows:
        chunk = MemoryChunk._meta.get_field("embedding")
        sql.append(
            f""", c AS (INSERT INTO {MemoryChunk._meta.db_table} (memory_id, namespace_id, position, embedding)
                    SELECT m.id, %s, w.position - 1, w.embedding::vector
                      FROM m, unnest(%s::text[]) WITH ORDINALITY AS w(embedding, position))"""
        )
        params += [namespace.pk, [chunk.get_db_prep_save(w, connection) for w in windows]]
    if event is not None:
        actor, new_text = event.pop("actor"), event.pop("new_text")
        data = MemoryEvent._meta.get_field("data").get_db_prep_save(event, connection)
        sql.append(
            f""", e AS (INSERT INTO {MemoryEvent._meta.db_table}
                        (memory_id, event_type, old_text, new_text, actor_id, data, created_at)
                    SELECT m.id, %s, '', %s, %s, %s, %s FROM m)"""
        )
        params += [MemoryEvent.Type.ADD, new_text, getattr(actor, "pk", None), data, timezone.now()]
    sql.append(" SELECT id FROM m")
    with connection.cursor() as cursor:
        cursor.execute("".join(sql), params)  # noqa: S608 (table and column names are ours)
        memory.pk = cursor.fetchone()[0]
    memory._state.adding, memory._state.db = False, connection.alias
    return memory


def _event(memory: Memory, event_type: str, *, actor: Any, old_text: str = "", new_text: str = "", **data: Any) -> None:
    MemoryEvent.objects.create(
        memory=memory, event_type=event_type, actor=actor, old_text=old_text, new_text=new_text, data=data
    )


def remember(
    *,
    actor: Any,
    namespace: Namespace,
    text: str,
    tags: list[str] | None = None,
    source_provider: str = "",
    importance: float = 0.5,
    capture_mode: str = "",
    session_id: str = "",
    dedup_policy: str = "ask",
    expires_at: datetime | None = None,
    last_confirmed_at: datetime | None = None,
    metadata: dict[str, Any] | None = None,
    valid_from: datetime | None = None,
    valid_until: datetime | None = None,
    supersede: str = "report",
) -> RememberResult:
    """Seed 003's ``remember``: validate, embed, check near-duplicates and tombstones, insert.

    Embedding happens before the transaction (nothing is written if it fails). The namespace row
    is locked for the check-then-insert, so two concurrent ``skip_if_near`` calls with the same
    text store one memory, not two.

    Time (docs/time-aware.md): ``valid_from`` / ``valid_until`` bound when the fact holds
    (``valid_until`` is ``expires_at`` when only that is given). One candidate query finds both
    the near-duplicates and the live memories the new one contradicts (``supersedes``); with
    ``supersede="close"`` those are closed (:func:`close_superseded`).
    """
    validate_text(text)
    # Scanned by the contract already when called from an entrance: then lookups (core.secrets).
    recheck_secrets(tags=tags, metadata=metadata, source_provider=source_provider, session_id=session_id)
    tags = clean_tags(tags)
    now = timezone.now()
    if expires_at is not None and expires_at <= now:
        raise InvalidInput("expires_at is in the past; a memory must expire in the future.")
    if dedup_policy not in DEDUP_POLICIES:
        raise InvalidInput(f"dedup_policy must be one of {', '.join(DEDUP_POLICIES)}.")
    if supersede not in SUPERSEDE_POLICIES:
        raise InvalidInput(f"supersede must be one of {', '.join(SUPERSEDE_POLICIES)}.")
    if valid_until is None and expires_at is not None:
        valid_until = expires_at
    check_validity(valid_from, valid_until)
    vector, windows, model = _embed_one(text)
    plan_cache_mode = _candidates_plan(namespace.pk)
    try:
        with transaction.atomic():
            # NO KEY UPDATE: two remembers in one namespace still wait for each other, but a write
            # that only references the namespace (a forgetting's tombstone, an add_memory row)
            # does not wait for it. It must not: a forgetting holds its memory's row and then
            # needs the namespace's key-share lock, while remember, holding the namespace, may
            # wait for that memory's row to close it (close_superseded): a deadlock with FOR UPDATE.
            _lock_namespace(namespace.pk, no_key=True, plan_cache_mode=plan_cache_mode)
            # One statement for every candidate: the memories (only when a policy reads them) and
            # the tombstones; it used to be two round trips.
            rows, tombstones = _candidates(
                namespace_id=namespace.pk,
                vector=vector,
                memories=dedup_policy != "insert" or supersede == "close",
                prepared=bool(plan_cache_mode),
            )
            near, superseded = _near_and_superseded(text, rows)
            if dedup_policy == "insert":
                near = []
            corrected = [
                Near(
                    id=r[0],
                    text=r[1],
                    similarity=_similarity(r[2]),
                    extra={
                        "reason": r[3],
                        "kind": r[4],
                        "replaced_by": r[5],
                        "memory_id": r[6],
                        "forgotten_at": r[7],
                    },
                )
                for r in tombstones
                if same_specifics(text, r[1])
            ]
            if dedup_policy == "skip_if_near" and near:
                return RememberResult(near[0].id, "Already remembered", near, corrected, superseded)
            # The add event goes in the insert's own statement, unless memories are closed first:
            # their ``superseded`` events come before it, and it lists the ones that were closed.
            closing = supersede == "close" and bool(superseded)
            time_data: dict[str, Any] = {}
            if superseded and not closing:
                time_data = {"supersedes": [], "contradicts": [n.id for n in superseded]}
            memory = _insert_remembered(
                event=None if closing else {"actor": actor, "new_text": text, "via": "remember", **time_data},
                namespace=namespace,
                text=text,
                vector=vector,
                windows=windows,
                model=model,
                tags=tags,
                source_provider=source_provider,
                importance=importance,
                capture_mode=capture_mode,
                session_id=session_id,
                expires_at=expires_at,
                last_confirmed_at=last_confirmed_at or now,
                metadata=metadata or {},
                created_by=actor,
                valid_from=valid_from,
                valid_until=valid_until,
            )
            if closing:
                superseded = close_superseded(actor=actor, memory=memory, candidates=superseded)
                time_data["supersedes"] = [n.id for n in superseded if n.extra["closed"]]
                time_data["contradicts"] = [n.id for n in superseded if not n.extra["closed"]]
                _event(memory, MemoryEvent.Type.ADD, actor=actor, new_text=text, via="remember", **time_data)
    except DatabaseError as exc:
        raise DatabaseUnavailable(f"The memory was not stored: {exc.__class__.__name__}.") from exc
    # The namespace's size this process counted grows with it (a burst of remembers, then a
    # search: selectors.note_stored). Not on_commit: inside a caller's transaction the count is
    # ahead by one until that commits, which only matters as much as one memory does.
    note_stored(namespace.pk)
    return RememberResult(memory.id, "Ok", near if dedup_policy == "ask" else None, corrected, superseded)


def _candidates_plan(namespace_id: int) -> str:
    """How :func:`_candidates`' statement is planned: "" (not prepared: Django's cursor, the values
    inlined, as every statement but search's) without MNEMO_SEARCH_PREPARED or off PostgreSQL;
    else prepared, and planned once for any values ("force_generic_plan") where search's exact
    statement is (a namespace of at most MNEMO_SEARCH_EXACT_MAX memories, and statistics under
    which the planner expects no more than that from a namespace filter: memories.selectors
    ``_generic_plan_reads_the_index``), for its values otherwise ("force_custom_plan": the plans
    of before, without parsing the text again).

    Why: the statement's text holds the new vector's 4 KB literal four times; parsed and planned
    per remember it cost 0.74 ms of PostgreSQL CPU at 500 memories, prepared 0.51 (custom plans)
    or 0.31 (the generic plan), the same rows (bench/NOTES.md, 2026-11-26 "remember's SQL")."""
    if not settings.MNEMO_SEARCH_PREPARED or connection.vendor != "postgresql":
        return ""
    generic = search_plan([namespace_id]) == "exact" and _generic_plan_reads_the_index()
    return "force_generic_plan" if generic else "force_custom_plan"


def _candidates(
    *, namespace_id: int, vector: list[float], memories: bool, prepared: bool = False
) -> tuple[list[tuple], list[tuple]]:
    """remember's one candidate statement: the namespace's live memories nearest ``vector``
    (NEAR_CANDIDATES of them, cosine ≥ the lowest of MNEMO_NEAR_DUPLICATE_THRESHOLD and the
    MNEMO_SUPERSEDE_* thresholds; none when ``memories`` is false) and its tombstones (5, cosine ≥
    MNEMO_NEAR_DUPLICATE_THRESHOLD): the rows :func:`_near` reads for each, in one round trip.
    Memory rows: (id, text, distance); tombstone rows as :func:`_near` gives them."""
    duplicate = settings.MNEMO_NEAR_DUPLICATE_THRESHOLD
    lowest = min(duplicate, settings.MNEMO_SUPERSEDE_THRESHOLD, settings.MNEMO_SUPERSEDE_CHANGE_THRESHOLD)
    # Each arm keeps _near's shape (the k nearest by the index's order, the threshold after) in
    # its own parenthesised ORDER BY ... LIMIT, so each is planned as before; the tombstone
    # arm's columns type the memory arm's NULLs. Live now, as _near: a fact whose validity ended is
    # neither a duplicate of a new memory nor superseded by it.
    sql = """
        SELECT * FROM (
            (SELECT 'm' AS arm, t.id, t.text, t.embedding <=> %(q)s::vector AS distance,
                    NULL AS reason, NULL AS kind, NULL AS replaced_by_id, NULL AS memory_id, NULL AS created_at
               FROM memories_memory t
              WHERE t.namespace_id = %(ns)s AND t.embedding IS NOT NULL AND t.status = 'ready'
                AND t.forgotten_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > now())
                AND (t.valid_until IS NULL OR t.valid_until > now())
              ORDER BY t.embedding <=> %(q)s::vector
              LIMIT %(k_memories)s)
            UNION ALL
            (SELECT 't' AS arm, t.id, t.text, t.embedding <=> %(q)s::vector AS distance,
                    t.reason, t.kind, t.replaced_by_id, t.memory_id, t.created_at
               FROM memories_tombstone t
              WHERE t.namespace_id = %(ns)s AND t.embedding IS NOT NULL
              ORDER BY t.embedding <=> %(q)s::vector
              LIMIT 5)
        ) nearest
        WHERE distance <= CASE arm WHEN 'm' THEN %(max_memory)s ELSE %(max_tombstone)s END
        ORDER BY arm, distance
    """
    params = {
        "q": _vector_literal(vector),
        "ns": namespace_id,
        "k_memories": NEAR_CANDIDATES if memories else 0,
        "max_memory": 1 - lowest,
        "max_tombstone": 1 - duplicate,
    }
    with prepared_cursor() if prepared else connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    return [r[1:4] for r in rows if r[0] == "m"], [r[1:] for r in rows if r[0] == "t"]


def _near_and_superseded(text: str, rows: list[tuple]) -> tuple[list[Near], list[Near]]:
    """remember's candidate memories (:func:`_candidates`), read two ways: the near-duplicates of
    ``text`` (cosine ≥ MNEMO_NEAR_DUPLICATE_THRESHOLD and the same numbers and codes) and the live
    memories it contradicts (memories.temporal.contradiction; MNEMO_SUPERSEDE_*). A memory the new
    text contradicts is a changed fact, never a duplicate of it (so skip_if_near does not drop it)."""
    duplicate = settings.MNEMO_NEAR_DUPLICATE_THRESHOLD
    plain, change = settings.MNEMO_SUPERSEDE_THRESHOLD, settings.MNEMO_SUPERSEDE_CHANGE_THRESHOLD
    near, superseded = [], []
    new = shape(text) if rows and len(text) <= SUPERSEDE_MAX_CHARS else None  # read once for every candidate
    for row_id, row_text, distance in rows:
        similarity = _similarity(distance)
        found = (
            None
            if new is None
            else contradiction(row_text, new, similarity=similarity, threshold=plain, change_threshold=change)
        )
        if found is not None:
            extra: dict[str, Any] = {"old_values": found.old_values, "new_values": found.new_values}
            extra |= {"closed": False, "valid_until": None}
            superseded.append(Near(id=row_id, text=row_text, similarity=similarity, extra=extra))
        elif similarity >= duplicate and same_specifics(text, row_text):
            near.append(Near(id=row_id, text=row_text, similarity=similarity, extra={}))
    return near[:5], superseded


def close_superseded(*, actor: Any, memory: Memory, candidates: list[Near]) -> list[Near]:
    """Close the validity of the memories ``memory`` supersedes: ``valid_until`` = its
    ``valid_from`` (or now, which then becomes the new one's ``valid_from``); history records it
    on both (``superseded`` on the old one, with ``superseded_by``; the new one's ``add`` lists
    ``supersedes``). Returns ``candidates`` with ``closed`` and ``valid_until`` set.

    Under the rows' locks, as every write of a memory (:func:`_locked`), taken in id order and
    read again: a memory forgotten, closed or changed meanwhile is decided on as it is now. Not
    closed (reported only): one whose validity starts at or after the closing moment, or ended
    before it; and nothing when the new fact itself ended already (a fact about the past
    supersedes no current one).
    """
    now = timezone.now()
    close_at = memory.valid_from or now
    if memory.valid_until is not None and memory.valid_until <= max(close_at, now):
        return candidates
    _set_lock_timeout()
    locked = {
        row.pk: row
        for row in Memory.objects.select_for_update(of=("self",))
        .filter(pk__in=[c.id for c in candidates])
        .order_by("id")
    }
    result = []
    for candidate in candidates:
        old = locked.get(candidate.id)
        if (
            old is None
            or old.forgotten_at is not None
            or (old.valid_from is not None and old.valid_from >= close_at)
            or (old.valid_until is not None and old.valid_until <= close_at)
        ):
            result.append(candidate)
            continue
        previous = old.valid_until
        old.valid_until = close_at
        old.save(update_fields=["valid_until", "updated_at"])
        _event(
            old,
            MemoryEvent.Type.SUPERSEDED,
            actor=actor,
            old_text=old.text,
            new_text=memory.text,
            superseded_by=memory.pk,
            valid_until=close_at.isoformat(),
            old_valid_until=_plain(previous),
            similarity=candidate.similarity,
            old_values=candidate.extra["old_values"],
            new_values=candidate.extra["new_values"],
        )
        extra = {**candidate.extra, "closed": True, "valid_until": close_at}
        result.append(Near(id=candidate.id, text=candidate.text, similarity=candidate.similarity, extra=extra))
    if memory.valid_from is None and any(n.extra["closed"] for n in result):
        # The new fact holds from where the old one stopped: recall as of an earlier moment finds
        # the old fact alone, not both.
        memory.valid_from = close_at
        memory.save(update_fields=["valid_from", "updated_at"])
    return result


def _similarity(distance: float) -> float:
    return round(max(0.0, min(1.0, 1.0 - float(distance))), 4)


def add_memory(
    *,
    actor: Any,
    namespace: Namespace,
    content: str,
    metadata: dict[str, Any] | None = None,
    run_async: bool = True,
    valid_from: datetime | None = None,
    valid_until: datetime | None = None,
) -> Memory:
    """Seed 002's ``add_memory``: store now, embed later (or now, with ``run_async=False``).

    Async: the row is committed ``queued`` with its event id before anything else, and the
    embedding task is sent after the commit; a broker that is down leaves it for the sweeper.
    It takes a validity (``valid_from`` / ``valid_until``) but supersedes nothing: only
    ``remember`` compares a new fact with the stored ones (docs/time-aware.md).
    """
    validate_text(content, field="content")
    check_validity(valid_from, valid_until)
    # Its tags, source_provider and session_id included. Scanned by the contract already when
    # called from an entrance (its JSONObjectField): then lookups of texts found clean (core.secrets);
    # any other caller's texts are scanned here.
    recheck_secrets(metadata=metadata)
    metadata = dict(metadata or {})
    raw_tags = metadata.get("tags", [])
    if isinstance(raw_tags, str):
        raw_tags = [raw_tags]
    if not isinstance(raw_tags, list) or not all(isinstance(t, str) for t in raw_tags):
        raise InvalidInput("metadata.tags must be a list of strings.")
    tags = clean_tags(raw_tags)
    capture_mode = metadata.get("capture_mode", "")
    if capture_mode not in ("", *Memory.CaptureMode.values):
        raise InvalidInput("metadata.capture_mode must be 'explicit' or 'inferred'.")
    fields: dict[str, Any] = {
        "tags": tags,
        "metadata": metadata,
        "created_by": actor,
        "capture_mode": capture_mode,
        "source_provider": str(metadata.get("source_provider", ""))[:200],
        "session_id": str(metadata.get("session_id", ""))[:255],
        "valid_from": valid_from,
        "valid_until": valid_until,
    }
    try:
        if run_async:
            # The queued row and its event in one statement, committed by itself (autocommit; in a
            # caller's transaction, with it): no BEGIN, second INSERT and COMMIT round trips.
            # The task is sent after the commit (at once in autocommit: Django runs an on_commit
            # callback outside a transaction immediately).
            memory = _insert_with_event(
                Memory(namespace=namespace, text=content, **fields),
                namespace=namespace,
                windows=[],
                event={"actor": actor, "new_text": content, "via": "add_memory"},
            )
            enqueue_embedding(ids=[memory.id])
            return memory
        vector, windows, model = _embed_one(content)
        with transaction.atomic():
            memory = _insert_ready(
                namespace=namespace, text=content, vector=vector, windows=windows, model=model, **fields
            )
            _event(memory, MemoryEvent.Type.ADD, actor=actor, new_text=content, via="add_memory")
        return memory
    except DatabaseError as exc:
        raise DatabaseUnavailable(f"The memory was not stored: {exc.__class__.__name__}.") from exc


_UPDATABLE = {
    "text",
    "tags",
    "expires_at",
    "metadata",
    "importance",
    "source_provider",
    "capture_mode",
    "session_id",
    "valid_from",
    "valid_until",
}


def _locked(memory_id: int) -> Memory:
    """The memory's row as it is now, locked until the transaction ends.

    Every write of a memory starts here (inside its transaction) and decides on what it reads
    here, never on the copy its caller read earlier: a second write of the same row waits for the
    first to commit and then reads its result (PostgreSQL re-reads a row it waited for), so two
    writes never both act on the state before the other. Waiting is bounded by
    ``MNEMO_DB_LOCK_TIMEOUT_MS`` (then ``DATABASE_ERROR``).
    """
    _set_lock_timeout()
    try:
        return Memory.objects.select_related("namespace").select_for_update(of=("self",)).get(pk=memory_id)
    except Memory.DoesNotExist:
        raise NotFound(f"Memory {memory_id} not found.") from None


def _refuse_unless_live(memory: Memory, *, doing: str) -> None:
    """Refuse a write to a memory that was forgotten, deleted, corrected or merged away.

    Such a memory is on record, not in use: changing, confirming, correcting, forgetting or
    merging it again answers ``INVALID_INPUT`` saying what happened to it and, for a correction or
    merge, which memory replaced it (``details``: ``memory_id``, ``state``, ``replaced_by``).
    """
    if memory.forgotten_at is None:
        return
    tombstone = Tombstone.objects.filter(memory_id=memory.pk).order_by("-created_at", "-id").first()
    state = tombstone.kind if tombstone else Tombstone.Kind.FORGOTTEN
    replaced_by = tombstone.replaced_by_id if tombstone else None
    replaced = f" (replaced by memory {replaced_by})" if replaced_by else ""
    raise InvalidInput(
        f"Memory {memory.pk} was {state}{replaced}; it cannot be {doing}: only a live memory can "
        "(staff can restore it).",
        details={"memory_id": memory.pk, "state": state, "replaced_by": replaced_by},
    )


@transaction.atomic
def update_memory(*, actor: Any, memory: Memory, **changes: Any) -> Memory:
    """Change a memory's fields. New text is validated and re-embedded after the commit.

    The row is locked and read again first: a memory forgotten or deleted meanwhile is refused,
    and only the fields whose value changed are written, so a caller's stale copy never puts back
    what another write changed (a forgetting above all). Returns the row as written.
    """
    unknown = set(changes) - _UPDATABLE
    if unknown:
        raise InvalidInput(f"cannot change {', '.join(sorted(unknown))}.")
    if "text" in changes:
        validate_text(changes["text"])
    reject_secrets(**{f: changes[f] for f in ("tags", "metadata", "source_provider", "session_id") if f in changes})
    if "tags" in changes:
        changes["tags"] = clean_tags(changes["tags"])
    if changes.get("expires_at") is not None and changes["expires_at"] <= timezone.now():
        raise InvalidInput("expires_at is in the past; a memory must expire in the future.")
    memory = _locked(memory.pk)
    _refuse_unless_live(memory, doing="changed")
    # A valid_until that was the expiry (remember copies it) follows a new expiry; an open one stays
    # open (the expiry alone ends recall: selectors._validity_sql).
    if (
        "expires_at" in changes
        and "valid_until" not in changes
        and memory.valid_until is not None
        and memory.valid_until == memory.expires_at
    ):
        changes["valid_until"] = changes["expires_at"]
    # The interval as it will be, from the locked row: checked before anything is written.
    check_validity(changes.get("valid_from", memory.valid_from), changes.get("valid_until", memory.valid_until))
    old_text = memory.text
    changed = [field for field, value in changes.items() if _plain(getattr(memory, field)) != _plain(value)]
    # Old and new value of every other field that changed, so history reads "tags: a → a, b".
    values = {
        field: {"old": _plain(getattr(memory, field)), "new": _plain(changes[field])}
        for field in changed
        if field != "text"
    }
    for field in changed:
        setattr(memory, field, changes[field])
    text_changed = "text" in changed
    written = [*changed, "updated_at"]
    if text_changed:
        memory.status = Memory.Status.QUEUED
        memory.error = ""
        written += ["status", "error"]
    memory.save(update_fields=written)
    _event(
        memory,
        MemoryEvent.Type.UPDATE,
        actor=actor,
        old_text=old_text if text_changed else "",
        new_text=memory.text if text_changed else "",
        fields=sorted(changes),
        changes=values,
    )
    if text_changed:
        enqueue_embedding(ids=[memory.id])
    return memory


@transaction.atomic
def forget_memory(
    *,
    actor: Any,
    memory: Memory,
    reason: str = "",
    kind: str = Tombstone.Kind.FORGOTTEN,
    replaced_by: Memory | None = None,
) -> Tombstone:
    """Take a memory out of recall and leave a tombstone with its text, embedding and reason.

    ``kind`` "deleted" is ``DELETE /memories/{id}``. A memory forgotten already (by a concurrent
    call too) is refused, so it has one tombstone and one forgetting in its history.
    """
    reject_secrets(reason=reason)
    memory = _locked(memory.pk)
    _refuse_unless_live(memory, doing="deleted" if kind == Tombstone.Kind.DELETED else "forgotten")
    return _forget_locked(
        memory, actor=actor, reason=reason, kind=kind, replaced_by=replaced_by, event_type=MemoryEvent.Type.FORGET
    )


def _forget_locked(
    memory: Memory,
    *,
    actor: Any,
    reason: str,
    kind: str,
    replaced_by: Memory | None,
    event_type: str,
    new_text: str = "",
) -> Tombstone:
    """Forget a live memory whose row this transaction holds (:func:`_locked`): its tombstone and
    its history event (forget, correct or merge), written together."""
    memory.forgotten_at = timezone.now()
    memory.save(update_fields=["forgotten_at", "updated_at"])
    tombstone = Tombstone.objects.create(
        memory=memory,
        namespace_id=memory.namespace_id,
        text=memory.text,
        embedding=memory.embedding,
        kind=kind,
        reason=reason,
        replaced_by=replaced_by,
        created_by=actor,
    )
    _event(
        memory,
        event_type,
        actor=actor,
        old_text=memory.text,
        new_text=new_text,
        reason=reason,
        kind=kind,
        tombstone_id=tombstone.pk,
        replaced_by=replaced_by.pk if replaced_by else None,
    )
    return tombstone


def correct_memory(*, actor: Any, memory: Memory, text: str, reason: str = "") -> tuple[Memory, Tombstone]:
    """Replace a memory by a corrected one; the old one becomes a tombstone pointing to it.

    The new text is embedded before the transaction; inside it the old row is locked and read
    again, so of two concurrent corrections (or a correction and a deletion) one wins and the
    other is refused: a memory has at most one live correction. The correction takes the old
    memory's fields as they are then, not as the caller read them.
    """
    validate_text(text)
    reject_secrets(reason=reason)
    _refuse_unless_live(memory, doing="corrected")  # the caller's copy: no embedding for a memory already gone
    vector, windows, model = _embed_one(text)
    try:
        with transaction.atomic():
            old = _locked(memory.pk)
            _refuse_unless_live(old, doing="corrected")
            new = _insert_ready(
                namespace=old.namespace,
                text=text,
                vector=vector,
                windows=windows,
                model=model,
                tags=old.tags,
                source_provider=old.source_provider,
                importance=old.importance,
                capture_mode=old.capture_mode,
                session_id=old.session_id,
                expires_at=old.expires_at,
                metadata=old.metadata,
                created_by=actor,
            )
            _event(new, MemoryEvent.Type.ADD, actor=actor, new_text=text, corrects=old.pk)
            tombstone = _forget_locked(
                old,
                actor=actor,
                reason=reason,
                kind=Tombstone.Kind.CORRECTED,
                replaced_by=new,
                event_type=MemoryEvent.Type.CORRECT,
                new_text=text,
            )
    except DatabaseError as exc:
        raise DatabaseUnavailable(f"The correction was not stored: {exc.__class__.__name__}.") from exc
    return new, tombstone


@transaction.atomic
def confirm_memory(*, actor: Any, memory: Memory) -> Memory:
    """The fact was checked and still holds: ``last_confirmed_at`` = now (a live memory only)."""
    memory = _locked(memory.pk)
    _refuse_unless_live(memory, doing="confirmed")
    memory.last_confirmed_at = timezone.now()
    memory.save(update_fields=["last_confirmed_at", "updated_at"])
    _event(memory, MemoryEvent.Type.CONFIRM, actor=actor)
    return memory


#: Capture modes from weakest to strongest: a fact the user stated beats one that was inferred.
_CAPTURE_STRENGTH = {"": 0, Memory.CaptureMode.INFERRED: 1, Memory.CaptureMode.EXPLICIT: 2}


@transaction.atomic
def merge_memories(*, actor: Any, keep: Memory, drop: Memory) -> Tombstone:
    """Keep one memory, tombstone the other with reason "merged" pointing at the one kept.

    The kept memory takes what the dropped one knew: the union of both memories' tags, the
    stronger capture mode (explicit > inferred > none) and the higher importance. Its text stays
    as it is. Both histories record the merge; the kept one's event lists what it gained
    (``changes``: old → new of tags, capture mode, importance). Both must be live.
    """
    if keep.pk == drop.pk:
        raise InvalidInput("a memory cannot be merged into itself.")
    # Both rows, locked in id order: two merges of one pair in opposite directions would otherwise
    # each hold one row and wait for the other (a deadlock). Decisions use the locked rows.
    locked = {pk: _locked(pk) for pk in sorted((keep.pk, drop.pk))}
    keep, drop = locked[keep.pk], locked[drop.pk]
    if keep.namespace_id != drop.namespace_id:
        raise InvalidInput("only memories of the same namespace can be merged.")
    _refuse_unless_live(keep, doing="merged into")
    _refuse_unless_live(drop, doing="merged")
    gained = {
        "tags": clean_tags([*keep.tags, *drop.tags]),
        "capture_mode": max(keep.capture_mode, drop.capture_mode, key=lambda m: _CAPTURE_STRENGTH.get(m, 0)),
        "importance": max(keep.importance, drop.importance),
    }
    changes = {
        field: {"old": _plain(getattr(keep, field)), "new": _plain(value)}
        for field, value in gained.items()
        if _plain(getattr(keep, field)) != _plain(value)
    }
    tombstone = _forget_locked(
        drop,
        actor=actor,
        reason="merged",
        kind=Tombstone.Kind.MERGED,
        replaced_by=keep,
        event_type=MemoryEvent.Type.MERGE,
    )
    if changes:
        for field in changes:
            setattr(keep, field, gained[field])
        keep.save(update_fields=[*changes, "updated_at"])
    _event(
        keep,
        MemoryEvent.Type.MERGE,
        actor=actor,
        old_text=drop.text,
        merged=drop.pk,
        tombstone_id=tombstone.pk,
        changes=changes,
    )
    return tombstone


def _plain(value: Any) -> Any:
    """A field value as history stores it (JSON): datetimes as ISO text, lists as lists."""
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, list | tuple):
        return list(value)
    return value


@transaction.atomic
def restore_memory(*, actor: Any, tombstone: Tombstone) -> Memory:
    """Bring a forgotten memory back to recall; the tombstone goes, history records it.

    The memory's row is locked, then the tombstone's (the order forgetting writes them in), and
    both are read again: a memory restored meanwhile, by a concurrent restore too, is refused.
    """
    if tombstone.memory_id is None:
        raise InvalidInput("the memory of this tombstone was purged; it cannot be restored.")
    memory = _locked(tombstone.memory_id)
    current = Tombstone.objects.select_for_update().filter(pk=tombstone.pk, memory_id=memory.pk).first()
    if current is None or memory.forgotten_at is None:
        raise InvalidInput(
            f"Memory {memory.pk} is not forgotten under this tombstone (restored already?); nothing to restore.",
            details={"memory_id": memory.pk, "state": "live" if memory.forgotten_at is None else "forgotten"},
        )
    memory.forgotten_at = None
    memory.save(update_fields=["forgotten_at", "updated_at"])
    _event(
        memory,
        MemoryEvent.Type.RESTORE,
        actor=actor,
        new_text=memory.text,
        reason=current.reason,
        kind=current.kind,
    )
    current.delete()
    return memory


def reembed_memories(*, ids: list[int]) -> int:
    """Queue memories for embedding again (after a model change, or by hand); after commit."""
    with transaction.atomic():
        count = Memory.objects.filter(id__in=ids).update(
            status=Memory.Status.QUEUED, error="", updated_at=timezone.now()
        )
        enqueue_embedding(ids=list(ids))
    return count


def _locked_live(ids: list[int]) -> list[Memory]:
    """The live memories among ``ids``, locked in id order (two bulk writes never deadlock) and
    read as they are once locked: one forgotten meanwhile drops out (PostgreSQL re-checks the
    condition on a row it waited for)."""
    _set_lock_timeout()
    return list(Memory.objects.select_for_update().filter(id__in=ids, forgotten_at__isnull=True).order_by("id"))


@transaction.atomic
def confirm_memories(*, actor: Any, ids: list[int]) -> int:
    """Confirm the live memories among ``ids`` (the admin's action); forgotten ones are skipped."""
    now = timezone.now()
    memories = _locked_live(ids)
    for memory in memories:
        memory.last_confirmed_at = now
        memory.save(update_fields=["last_confirmed_at", "updated_at"])
        _event(memory, MemoryEvent.Type.CONFIRM, actor=actor)
    return len(memories)


@transaction.atomic
def set_expiry(*, actor: Any, ids: list[int], expires_at: datetime | None) -> int:
    """Set (or clear, with None) the expiry of the live memories among ``ids``; forgotten ones are
    skipped, a past moment is refused."""
    if expires_at is not None and expires_at <= timezone.now():
        raise InvalidInput("expires_at is in the past; a memory must expire in the future.")
    memories = _locked_live(ids)
    for memory in memories:
        old = memory.expires_at
        memory.expires_at = expires_at
        memory.save(update_fields=["expires_at", "updated_at"])
        _event(
            memory,
            MemoryEvent.Type.UPDATE,
            actor=actor,
            fields=["expires_at"],
            old_expires_at=old.isoformat() if old else None,
            new_expires_at=expires_at.isoformat() if expires_at else None,
        )
    return len(memories)
