"""Services behind the ops commands: re-embedding, purging, export and import, statistics.

Each works in batches that commit on their own, so an interrupted run keeps what it finished
and a rerun continues: re-embedding skips rows the target model already embedded, purging finds
only what is still there, and import skips lines whose event id it already imported.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.db.models import Count, Min, Q, QuerySet
from django.utils import timezone

from core.api import check
from core.errors import InvalidInput, MnemoError
from core.fields import text_problem
from core.parsers import loads
from core.secrets import reject_secrets
from memories import services
from memories.api.serializers import ImportLineInput, ImportTombstoneInput
from memories.embedding import Embedder, EmbedderUnavailable, build_embedder, embed_with_windows
from memories.models import EMBEDDING_DIMENSIONS, Memory, MemoryChunk, MemoryEvent, Namespace, Tombstone
from memories.selectors import forget_namespace_stats, own_index_name, own_index_vector, own_indexes
from memories.temporal import check_validity
from memories.vector_field import exact_floats, vector_text

# --- re-embedding ---------------------------------------------------------------------------------


def embedder_for(spec: str | None) -> Embedder:
    """The embedder a command uses: the configured one, or ``spec``; its width must fit the column."""
    embedder = build_embedder(spec or settings.MNEMO_EMBEDDER)
    if embedder.dimensions != EMBEDDING_DIMENSIONS:
        raise EmbedderUnavailable(
            f"{embedder.name} gives {embedder.dimensions}-dimensional vectors; the embedding columns hold "
            f"{EMBEDDING_DIMENSIONS}"
        )
    return embedder


def reembed_queryset(
    *, embedder: Embedder, namespace: str | None, only_missing: bool, every: bool = False
) -> QuerySet[Memory]:
    """What a re-embedding run still has to do: rows without a vector (``only_missing``), rows
    not embedded by this model yet (the default: finished rows drop out, so a rerun continues), or
    ``every`` row (vectors of this model's name made another way: before 2026-11-29 the integer
    embedders' products saturated on a CPU without VNNI; a rerun starts over)."""
    rows = Memory.objects.all()
    if namespace:
        rows = rows.filter(namespace__key=namespace)
    if every:
        return rows
    if only_missing:
        return rows.filter(embedding__isnull=True)
    return rows.filter(Q(embedding__isnull=True) | ~Q(embedding_model=embedder.name))


def other_model_vectors(model_name: str) -> dict[str, int]:
    """Memories whose vector another model made, by that model's name. Search compares them with
    query vectors of ``model_name``; until ``reembed_memories`` redoes them, that works only as
    far as the two models agree (bench/NOTES.md, issue 25: the int8 graphs' vectors, cosine 0.98
    or more). One grouped count, for the doctor and ``make run`` to say so."""
    rows = (
        Memory.objects.filter(embedding__isnull=False)
        .exclude(embedding_model=model_name)
        .order_by()
        .values("embedding_model")
        .annotate(n=Count("id"))
    )
    return {row["embedding_model"] or "(unknown)": row["n"] for row in rows}


@transaction.atomic
def reembed_batch(*, embedder: Embedder, ids: list[int]) -> int:
    """Embed these rows with ``embedder`` and record its name, all or nothing."""
    rows = list(Memory.objects.select_for_update().filter(id__in=ids).only("id", "text", "namespace_id"))
    if not rows:
        return 0
    services.write_embeddings(rows, embed_with_windows([r.text for r in rows], embedder), model_name=embedder.name)
    return len(rows)


# --- purging ----------------------------------------------------------------------------------------


def expired_before(days: int) -> QuerySet[Memory]:
    return Memory.objects.filter(expires_at__lt=timezone.now() - timedelta(days=days))


@transaction.atomic
def purge_batch(ids: list[int]) -> int:
    """Delete these memories; their tombstones and history stay (they do not depend on the row)."""
    deleted, _ = Memory.objects.filter(id__in=ids).delete()
    return len(ids) if deleted else 0


# --- export ---------------------------------------------------------------------------------------------


def exports_dir() -> Path:
    """Where export files go unless an absolute path is given: inside the data folder, which git
    ignores, never in the project folder."""
    return Path(settings.MNEMO_DATA_DIR) / "exports"


def export_path(output: str) -> Path:
    """An export's file: an absolute path as it is, a relative name under :func:`exports_dir`."""
    path = Path(output).expanduser()
    return path if path.is_absolute() else exports_dir() / path


def resolve_import_path(name: str) -> Path:
    """An import's file: as given if it exists, else the same relative name in :func:`exports_dir`
    (so ``import_memories backup.jsonl`` finds what ``export_memories --output backup.jsonl`` wrote)."""
    problem = text_problem(name)
    if problem:  # a NUL made the file system's own check raise a ValueError
        raise InvalidInput(f"the file name {problem}.")
    path = Path(name).expanduser()
    if path.exists() or path.is_absolute():
        return path
    candidate = exports_dir() / path
    return candidate if candidate.exists() else path


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def memory_record(memory: Memory, *, with_embedding: bool) -> dict[str, Any]:
    record: dict[str, Any] = {
        "type": "memory",
        "id": memory.id,
        "event_id": str(memory.event_id),
        "namespace": memory.namespace.key,
        "text": memory.text,
        "tags": memory.tags,
        "metadata": memory.metadata,
        "source_provider": memory.source_provider,
        "importance": memory.importance,
        "capture_mode": memory.capture_mode,
        "session_id": memory.session_id,
        "status": memory.status,
        "expires_at": _iso(memory.expires_at),
        "valid_from": _iso(memory.valid_from),
        "valid_until": _iso(memory.valid_until),
        "last_confirmed_at": _iso(memory.last_confirmed_at),
        "created_at": _iso(memory.created_at),
        "updated_at": _iso(memory.updated_at),
        "forgotten_at": _iso(memory.forgotten_at),
        "created_by": memory.created_by.get_username() if memory.created_by else None,
        "embedding_model": memory.embedding_model,
    }
    if with_embedding and memory.embedding is not None:
        record["embedding"] = exact_floats(memory.embedding)
    return record


def tombstone_record(tombstone: Tombstone, *, with_embedding: bool) -> dict[str, Any]:
    record: dict[str, Any] = {
        "type": "tombstone",
        "id": tombstone.id,
        "memory_id": tombstone.memory_id,
        "namespace": tombstone.namespace.key,
        "text": tombstone.text,
        "kind": tombstone.kind,
        "reason": tombstone.reason,
        "replaced_by": tombstone.replaced_by_id,
        "created_at": _iso(tombstone.created_at),
    }
    if with_embedding and tombstone.embedding is not None:
        record["embedding"] = exact_floats(tombstone.embedding)
    return record


def export_records(
    *, namespace: str | None, include_tombstones: bool, with_embeddings: bool, batch_size: int = 500
) -> Iterator[dict[str, Any]]:
    memories = Memory.objects.select_related("namespace", "created_by").order_by("id")
    tombstones = Tombstone.objects.select_related("namespace").order_by("id")
    if namespace:
        memories, tombstones = memories.filter(namespace__key=namespace), tombstones.filter(namespace__key=namespace)
    for memory in memories.iterator(chunk_size=batch_size):
        yield memory_record(memory, with_embedding=with_embeddings)
    if include_tombstones:
        for tombstone in tombstones.iterator(chunk_size=batch_size):
            yield tombstone_record(tombstone, with_embedding=with_embeddings)


def count_export(*, namespace: str | None, include_tombstones: bool) -> int:
    memories, tombstones = Memory.objects.all(), Tombstone.objects.all()
    if namespace:
        memories, tombstones = memories.filter(namespace__key=namespace), tombstones.filter(namespace__key=namespace)
    return memories.count() + (tombstones.count() if include_tombstones else 0)


# --- import -----------------------------------------------------------------------------------------------


@dataclass
class ImportReport:
    imported: int = 0
    already: int = 0
    skipped_near: int = 0
    near_reported: int = 0
    tombstones: int = 0
    tombstones_already: int = 0
    rejected: list[tuple[int, str, str]] = field(default_factory=list)  # (line, code, reason)


@dataclass
class _Pending:
    line: int
    record: dict[str, Any]
    namespace: Namespace


def parse_line(raw: str, line: int) -> dict[str, Any]:
    try:
        record = loads(raw)
    except json.JSONDecodeError as exc:
        raise InvalidInput(f"not JSON ({exc.msg} at column {exc.colno})") from exc
    except ValueError as exc:
        raise InvalidInput(f"not JSON ({exc})") from exc
    if not isinstance(record, dict):
        raise InvalidInput("a line must be a JSON object")
    return record


def _namespace(key: str, cache: dict[str, Namespace]) -> Namespace:
    if key not in cache:
        cache[key], _ = Namespace.objects.get_or_create(key=key, defaults={"kind": Namespace.kind_for_key(key)})
    return cache[key]


def _validated(record: dict[str, Any], line: int) -> dict[str, Any]:
    """The same contract as ``remember`` (``ImportLineInput`` extends ``RememberInput`` with what
    an export writes), then the same checks as its service: text (length, secrets), tags."""
    data = check(ImportLineInput, record)
    text = services.validate_text(data["text"])
    # Every other string the line stores, before tags are lower-cased (keys are case-sensitive).
    reject_secrets(
        tags=data["tags"],
        metadata=data["metadata"],
        source_provider=data["source_provider"],
        session_id=data["session_id"],
        embedding_model=data["embedding_model"],
    )
    tags = services.clean_tags(data["tags"] or [])
    embedding = _checked_embedding(data["embedding"])
    check_validity(data["valid_from"], data["valid_until"])
    return {
        "text": text,
        "tags": tags,
        "valid_from": data["valid_from"],
        "valid_until": data["valid_until"],
        "importance": float(data["importance"]),
        "capture_mode": data["capture_mode"] or "",
        "metadata": data["metadata"] or {},
        "source_provider": data["source_provider"] or "",
        "session_id": data["session_id"] or "",
        "expires_at": data["expires_at"],
        "last_confirmed_at": data["last_confirmed_at"] or timezone.now(),
        "created_at": data["created_at"],
        "forgotten_at": data["forgotten_at"],
        "event_id": data["event_id"],
        "embedding": embedding,
        "embedding_model": data["embedding_model"] or "",
    }


def import_lines(
    lines: Iterable[tuple[int, str | dict[str, Any]]],
    *,
    namespace: str | None,
    dedup_policy: str,
    embedder: Embedder,
    batch_size: int,
    report: ImportReport,
    on_progress: Any = None,
    events: EventsFor | None = None,
) -> ImportReport:
    """Import JSON Lines (line number, text, or a record already parsed). Every memory line is
    validated like ``remember``; a rejected line is reported with its number and the import goes
    on. Lines are embedded in batches (a line whose embedding came from the same model is used as
    is). ``events`` gives each imported memory its history (default: one add event, now); it is
    written in the memory's own transaction."""
    if dedup_policy not in services.DEDUP_POLICIES:
        raise InvalidInput(f"dedup policy must be one of {', '.join(services.DEDUP_POLICIES)}")
    cache: dict[str, Namespace] = {}
    old_to_new: dict[int, int] = {}
    pending: list[tuple[_Pending, dict[str, Any]]] = []
    tombstones: list[tuple[int, dict[str, Any]]] = []

    def flush() -> None:
        if pending:
            _import_batch(
                pending,
                embedder=embedder,
                dedup_policy=dedup_policy,
                report=report,
                old_to_new=old_to_new,
                events=events or _import_event,
            )
            pending.clear()

    for number, raw in lines:
        if isinstance(raw, str) and not raw.strip():
            continue
        try:
            record = raw if isinstance(raw, dict) else parse_line(raw, number)
            kind = record.get("type", "memory")
            if kind == "tombstone":
                tombstones.append((number, record))
                continue
            if kind != "memory":
                raise InvalidInput(f"unknown type {kind!r}")
            key = namespace or record.get("namespace")
            if not isinstance(key, str) or not key.strip():
                raise InvalidInput("no namespace (give one in the line or with --namespace)")
            reject_secrets(namespace=key)  # a line's namespace becomes a stored key
            fields = _validated(record, number)
            if fields["event_id"] and Memory.objects.filter(event_id=fields["event_id"]).exists():
                report.already += 1
                if isinstance(record.get("id"), int):
                    old_to_new[record["id"]] = Memory.objects.only("id").get(event_id=fields["event_id"]).id
                continue
            pending.append((_Pending(number, record, _namespace(key.strip(), cache)), fields))
        except MnemoError as exc:
            report.rejected.append((number, getattr(exc, "code", "INVALID_INPUT"), exc.message))
        if on_progress:
            on_progress(1)
        if len(pending) >= batch_size:
            flush()
    flush()
    for number, record in tombstones:
        try:
            if _import_tombstone(record, namespace=namespace, cache=cache, old_to_new=old_to_new):
                report.tombstones += 1
            else:
                report.tombstones_already += 1
        except MnemoError as exc:
            report.rejected.append((number, exc.code, exc.message))
        if on_progress:
            on_progress(1)
    return report


#: (the line's record, its line number, the new memory) → the memory's history events, unsaved.
EventsFor = Callable[[dict[str, Any], int, Memory], list[MemoryEvent]]


def _import_event(record: dict[str, Any], line: int, memory: Memory) -> list[MemoryEvent]:
    return [
        MemoryEvent(
            memory=memory, event_type=MemoryEvent.Type.ADD, new_text=memory.text, data={"via": "import", "line": line}
        )
    ]


def _multi_window(texts: list[str], embedder: Embedder) -> set[int]:
    """The indexes of the texts ``embedder`` cuts into more than one window. An export carries a
    memory's vector but not its window vectors, so these are embedded again on import (the same
    model gives the same vector) and keep the window vectors that let vector search find a detail
    at their end. Only texts longer than a window in characters are tokenized: a token covers at
    least one character."""
    window_ids, window = getattr(embedder, "window_ids", None), getattr(embedder, "WINDOW", None)
    if window_ids is None or window is None:
        return set()
    longer = [i for i, text in enumerate(texts) if len(text) > window]
    if not longer:
        return set()
    return {i for i, windows in zip(longer, window_ids([texts[i] for i in longer]), strict=True) if len(windows) > 1}


def _checked_embedding(embedding: list[float] | None) -> list[float] | None:
    """An import line's vector as the columns take it: EMBEDDING_DIMENSIONS numbers, each within
    float32's range (a larger one, which JSON and the contract allow, would fail the whole
    batch's statement instead of this line alone)."""
    if embedding is None:
        return None
    if len(embedding) != EMBEDDING_DIMENSIONS:
        raise InvalidInput(f"embedding must be a list of {EMBEDDING_DIMENSIONS} numbers")
    try:
        vector_text(embedding)  # the columns' own conversion
    except ValueError as exc:
        raise InvalidInput(f"embedding: {exc} within float32's range") from exc
    return embedding


def _import_batch(
    pending, *, embedder: Embedder, dedup_policy: str, report: ImportReport, old_to_new, events: EventsFor
) -> None:
    windowed = _multi_window([f["text"] for _, f in pending], embedder)
    need = [
        i
        for i, (_, f) in enumerate(pending)
        if f["embedding"] is None or f["embedding_model"] != embedder.name or i in windowed
    ]
    computed = embed_with_windows([pending[i][1]["text"] for i in need], embedder) if need else []
    vectors = {i: result for i, result in zip(need, computed, strict=True)}
    threshold = settings.MNEMO_NEAR_DUPLICATE_THRESHOLD
    now = timezone.now()
    kept: list[tuple[_Pending, dict[str, Any], Memory, list[list[float]]]] = []
    with transaction.atomic():
        for index, (item, fields) in enumerate(pending):
            vector, windows = vectors.get(index, (fields["embedding"], []))
            if dedup_policy != "insert":
                # Checked against what is stored, this batch's earlier lines included: they are
                # written one by one below when a policy needs them.
                near = [
                    row
                    for row in services._near(
                        "memories_memory", namespace_id=item.namespace.pk, vector=vector, threshold=threshold
                    )
                    if services.same_specifics(fields["text"], row[1])
                ]
                if near and dedup_policy == "skip_if_near":
                    report.skipped_near += 1
                    continue
                if near:
                    report.near_reported += 1
            memory = Memory(
                namespace=item.namespace,
                text=fields["text"],
                tags=fields["tags"],
                metadata=fields["metadata"],
                importance=fields["importance"],
                capture_mode=fields["capture_mode"],
                source_provider=fields["source_provider"],
                session_id=fields["session_id"],
                expires_at=fields["expires_at"],
                valid_from=fields["valid_from"],
                valid_until=fields["valid_until"],
                last_confirmed_at=fields["last_confirmed_at"],
                forgotten_at=fields["forgotten_at"],
                embedding=vector,
                embedding_model=embedder.name,
                status=Memory.Status.READY,
                embedded_at=now,
                **({"event_id": fields["event_id"]} if fields["event_id"] else {}),
            )
            if dedup_policy != "insert":
                memory.save(force_insert=True)
            kept.append((item, fields, memory, windows))
        if dedup_policy == "insert":
            Memory.objects.bulk_create([memory for _, _, memory, _ in kept])  # one statement a batch
        # created_at is set on insert; an exported one is put back afterwards.
        dated = [(memory, fields["created_at"]) for _, fields, memory, _ in kept if fields["created_at"]]
        for memory, created_at in dated:
            memory.created_at = created_at
        if dated:
            Memory.objects.bulk_update([memory for memory, _ in dated], ["created_at"])
        MemoryChunk.objects.bulk_create(
            MemoryChunk(memory=memory, namespace=item.namespace, position=i, embedding=w)
            for item, _, memory, windows in kept
            for i, w in enumerate(windows)
        )
        history = [event for item, _, memory, _ in kept for event in events(item.record, item.line, memory)]
        # An event's time is set on insert; one the source recorded is put back afterwards.
        recorded = [(event, event.created_at) for event in history if event.created_at]
        MemoryEvent.objects.bulk_create(history)
        for event, created_at in recorded:
            event.created_at = created_at
        if recorded:
            MemoryEvent.objects.bulk_update([event for event, _ in recorded], ["created_at"])
    for item, _, memory, _ in kept:
        if isinstance(item.record.get("id"), int):
            old_to_new[item.record["id"]] = memory.pk
    report.imported += len(kept)


def _import_tombstone(record: dict[str, Any], *, namespace: str | None, cache, old_to_new) -> bool:
    """Write the tombstone of this line; False if an earlier run already did (nothing written)."""
    record = check(ImportTombstoneInput, record)
    key = namespace or record["namespace"]
    text = record["text"]
    if not key or not text:
        raise InvalidInput("a tombstone needs a namespace and a text")
    embedding = _checked_embedding(record["embedding"])
    memory_id = old_to_new.get(record["memory_id"])
    kind = record["kind"]
    reason = record["reason"] or ""
    # A tombstone's text comes back in previously_corrected answers: scanned like a memory's.
    reject_secrets(namespace=key, text=text, reason=reason)
    target = _namespace(key, cache)
    # The same tombstone again (a rerun): of the same memory, or, for one whose memory is gone,
    # the same namespace, text, kind and reason.
    same = (
        Tombstone.objects.filter(memory_id=memory_id, text=text)
        if memory_id
        else Tombstone.objects.filter(memory__isnull=True, namespace=target, text=text, kind=kind, reason=reason)
    )
    if same.exists():
        return False
    Tombstone.objects.create(
        memory_id=memory_id,
        namespace=target,
        text=text,
        embedding=embedding,
        kind=kind,
        reason=reason,
        replaced_by_id=old_to_new.get(record["replaced_by"]),
    )
    return True


# --- statistics -----------------------------------------------------------------------------------------


def namespace_stats() -> list[dict[str, Any]]:
    now = timezone.now()
    rows = []
    for ns in Namespace.objects.order_by("key"):
        memories = Memory.objects.filter(namespace=ns)
        by_status = dict(memories.order_by().values_list("status").annotate(n=Count("id")))
        oldest = memories.filter(status=Memory.Status.QUEUED).aggregate(t=Min("updated_at"))["t"]
        rows.append(
            {
                "namespace": ns.key,
                "kind": ns.kind,
                "ready": by_status.get("ready", 0),
                "queued": by_status.get("queued", 0),
                "failed": by_status.get("failed", 0),
                "oldest_queued_seconds": round((now - oldest).total_seconds()) if oldest else None,
                "expired": memories.filter(expires_at__lte=now).count(),
                "forgotten": memories.filter(forgotten_at__isnull=False).count(),
                "tombstones": Tombstone.objects.filter(namespace=ns).count(),
                "embedding_models": sorted(
                    m
                    for m in memories.exclude(embedding_model="")
                    .order_by()
                    .values_list("embedding_model", flat=True)
                    .distinct()
                ),
            }
        )
    return rows


# --- indexes of large namespaces ------------------------------------------------------------------

# An index build holds this advisory lock: beat's run and a manual one never build the same
# index twice at once (the second one finds the lock taken and does nothing).
_INDEX_LOCK = 7_384_001


@dataclass(frozen=True)
class IndexAction:
    """One change to the namespaces' own HNSW indexes (selectors.OWN_INDEX_PREFIX)."""

    kind: str  # "create", "rebuild" (an invalid one left by an interrupted build) or "drop"
    index: str
    namespace_id: int
    memories: int
    seconds: float = 0.0

    def describe(self) -> str:
        took = f" in {self.seconds:.1f} s" if self.seconds else ""
        return f"{self.kind} {self.index} (namespace {self.namespace_id}, {self.memories:,} live memories){took}"


def namespace_index_plan() -> list[IndexAction]:
    """What index_namespaces would do now: an index for each namespace of at least
    MNEMO_NAMESPACE_INDEX_MIN_MEMORIES live memories that lacks one, a rebuild of any invalid one
    still wanted, and a drop of those whose namespace fell below half of that (or is gone)."""
    threshold = settings.MNEMO_NAMESPACE_INDEX_MIN_MEMORIES
    sizes: dict[int, int] = {}
    if threshold > 0:
        rows = (
            Memory.objects.filter(status=Memory.Status.READY, forgotten_at__isnull=True)
            .values("namespace_id")
            .annotate(n=Count("id"))
            .filter(n__gte=max(1, threshold // 2))
        )
        sizes = {row["namespace_id"]: row["n"] for row in rows}
    existing = own_indexes()
    actions = []
    for namespace_id, valid in sorted(existing.items()):
        kept = namespace_id in sizes
        kind = "drop" if not kept else ("rebuild" if not valid else "")
        if kind:
            actions.append(IndexAction(kind, own_index_name(namespace_id), namespace_id, sizes.get(namespace_id, 0)))
    for namespace_id, n in sorted(sizes.items()):
        if n >= threshold and namespace_id not in existing:
            actions.append(IndexAction("create", own_index_name(namespace_id), namespace_id, n))
    return actions


def _build_index(namespace_id: int) -> None:
    # The table's own HNSW index has the same parameters (memories/models.py). CONCURRENTLY:
    # writes to the namespace go on while it is built; search uses it once it is valid.
    with connection.cursor() as cursor:
        cursor.execute("SELECT set_config('maintenance_work_mem', %s, false)", [settings.MNEMO_INDEX_BUILD_MEMORY])
        try:
            cursor.execute(
                f"CREATE INDEX CONCURRENTLY IF NOT EXISTS {own_index_name(namespace_id)} ON memories_memory "
                f"USING hnsw (({own_index_vector()}) vector_cosine_ops) WITH (m = 16, ef_construction = 64) "
                f"WHERE namespace_id = {int(namespace_id)} AND forgotten_at IS NULL"
            )
        finally:
            # A pooled connection goes back as it came; on a broken one, the build's error is the news.
            with contextlib.suppress(DatabaseError):
                cursor.execute("RESET maintenance_work_mem")


def maintain_namespace_indexes(*, report: Any = None) -> list[IndexAction] | None:
    """Carry out namespace_index_plan(), one index at a time, each action reported (``report``)
    as it finishes. None when another run holds the lock (nothing done)."""
    if connection.in_atomic_block:
        raise MnemoError("namespace indexes are built outside a transaction (CREATE INDEX CONCURRENTLY)")
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s)", [_INDEX_LOCK])
        if not cursor.fetchone()[0]:
            return None
    done = []
    try:
        for action in namespace_index_plan():
            started = time.monotonic()
            if action.kind in ("drop", "rebuild"):
                with connection.cursor() as cursor:
                    cursor.execute(f"DROP INDEX CONCURRENTLY IF EXISTS {own_index_name(action.namespace_id)}")
            if action.kind in ("create", "rebuild"):
                _build_index(action.namespace_id)
            finished = IndexAction(**{**action.__dict__, "seconds": time.monotonic() - started})
            done.append(finished)
            if report is not None:
                report(finished)
    finally:
        # A lost connection took its session's lock with it; its error is the one to report.
        with contextlib.suppress(DatabaseError), connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s)", [_INDEX_LOCK])
        forget_namespace_stats()  # this process searches with the new indexes at once; others within a minute
    return done
