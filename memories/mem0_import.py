"""Reading Mem0 for ``import_memories --format mem0 | mem0-pgvector``: Mem0 OSS 2.x's ``get_all``
output (or its pgvector table) and its history, as import lines.

Each Mem0 memory becomes one import line of ``import_memories`` (``ImportLineInput``, the
contract of ``remember`` plus what an export carries), so it is checked, scanned and written
exactly like every other import line; it is re-embedded with Mnemo's model (Mem0's vectors are
never read). What is kept (``memories.mem0``): Mem0's id (``metadata.mem0_id``), hash, entity
ids, actor and role, ``created_at``, ``expiration_date`` (as ``expires_at``), ``categories`` (as
tags), and its history: each Mem0 history row becomes a history event of the memory with its time
(ADD → add, UPDATE → update with old and new text, DELETE → forget), written in the memory's own
transaction. Mem0's history texts are scanned by the one scanner like the memory's: a secret in
an old version refuses the whole line.

**Idempotent.** The line's event id is derived from the Mem0 id (``mem0.import_event_id``):
importing the same memory again finds it and counts it as already present.

**Deleted Mem0 memories are skipped, not tombstoned.** Mem0 removes a deleted memory from its
vector store and keeps only history rows (old text, DELETE), which name no user or agent: there
is no namespace to put a tombstone in, and its text would come back in ``previously_corrected``
answers of whichever namespace was guessed. They are counted (``deleted``) and left out.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.errors import InvalidInput, MnemoError
from core.fields import parse_aware_datetime, text_problem
from core.secrets import reject_secrets
from memories import mem0, services
from memories.models import Memory, MemoryEvent

#: Keys of a Mem0 ``get_all`` item (MemoryItem and the payload keys Mem0 promotes), besides
#: ``metadata``. Any other key is refused: the line would lose it.
ITEM_KEYS = frozenset(
    {
        "id",
        "memory",
        "hash",
        "metadata",
        "score",
        "created_at",
        "updated_at",
        "user_id",
        "agent_id",
        "run_id",
        "app_id",
        "actor_id",
        "role",
        "attributed_to",
        "expiration_date",
        "categories",
    }
)
#: Payload keys of Mem0's pgvector rows that are not metadata (Mem0's get_all leaves them out).
PAYLOAD_CORE = frozenset({"data", "hash", "created_at", "updated_at", "text_lemmatized", "attributed_to"})
PROMOTED = ("user_id", "agent_id", "run_id", "actor_id", "role", "attributed_to", "expiration_date")
HISTORY_KEYS = ("id", "memory_id", "old_memory", "new_memory", "event", "created_at", "updated_at", "is_deleted")


@dataclass
class Mem0Source:
    """What was read: the memories (Mem0's get_all items), history rows by Mem0 memory id."""

    items: list[Any]
    history: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    def deleted(self) -> int:
        """Memories Mem0 deleted: history without a memory (skipped, see the module's doc)."""
        present = {str(item.get("id")) for item in self.items if isinstance(item, dict)}
        return sum(1 for memory_id in self.history if memory_id not in present)


# --- reading ------------------------------------------------------------------------------------------------


def _json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise MnemoError(f"cannot read {path}: {exc.strerror}.") from exc
    except (UnicodeDecodeError, ValueError) as exc:
        raise MnemoError(f"{path} is not a JSON file ({exc}).") from exc


def read_export(path: Path) -> list[Any]:
    """The memories of a Mem0 export: ``Memory.get_all``'s ``{"results": [...]}`` or a bare list."""
    data = _json(path)
    if isinstance(data, dict) and isinstance(data.get("results"), list):
        return data["results"]
    if isinstance(data, list):
        return data
    raise MnemoError(f"{path}: a Mem0 export is {{'results': [...]}} (Memory.get_all) or a list of memories.")


def read_history(path: Path) -> dict[str, list[dict[str, Any]]]:
    """Mem0's history by memory id, from its SQLite history database (``~/.mem0/history.db``,
    table ``history``) or from JSON: a list of ``Memory.history`` rows, or ``{memory_id: rows}``."""
    with path.open("rb") as handle:
        sqlite = handle.read(16) == b"SQLite format 3\x00"
    if sqlite:
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            rows = connection.execute(f"SELECT {', '.join(HISTORY_KEYS)}, actor_id, role FROM history").fetchall()
        except sqlite3.Error as exc:
            raise MnemoError(f"{path}: no Mem0 history table ({exc}).") from exc
        finally:
            connection.close()
        records = [dict(zip((*HISTORY_KEYS, "actor_id", "role"), row, strict=True)) for row in rows]
    else:
        data = _json(path)
        if isinstance(data, dict):
            records = [row for rows in data.values() if isinstance(rows, list) for row in rows]
        elif isinstance(data, list):
            records = data
        else:
            raise MnemoError(f"{path}: Mem0 history is a list of Memory.history rows or {{memory_id: rows}}.")
    grouped: dict[str, list[dict[str, Any]]] = {}
    for row in records:
        if isinstance(row, dict) and row.get("memory_id") is not None:
            grouped.setdefault(str(row["memory_id"]), []).append(row)
    return grouped


def read_pgvector(dsn: str, table: str) -> list[dict[str, Any]]:
    """The memories of Mem0's pgvector vector store (``mem0.vector_stores.pgvector``: a table named
    after the collection, ``id uuid, vector vector(n), payload jsonb``), formatted as Mem0's own
    ``get_all`` formats them (expired ones included). The vectors are not read."""
    import psycopg
    from psycopg import sql

    try:
        with psycopg.connect(dsn, connect_timeout=10) as connection, connection.cursor() as cursor:
            cursor.execute(sql.SQL("SELECT id, payload FROM {} ORDER BY id").format(sql.Identifier(table)))
            rows = cursor.fetchall()
    except psycopg.Error as exc:
        raise MnemoError(f"cannot read the Mem0 table {table!r}: {str(exc).strip()}") from exc
    items = []
    for memory_id, payload in rows:
        payload = payload if isinstance(payload, dict) else {}
        item: dict[str, Any] = {
            "id": str(memory_id),
            "memory": payload.get("data", ""),
            "hash": payload.get("hash"),
            "created_at": payload.get("created_at"),
            "updated_at": payload.get("updated_at"),
        }
        item.update({key: payload[key] for key in PROMOTED if key in payload})
        extra = {k: v for k, v in payload.items() if k not in PAYLOAD_CORE and k not in PROMOTED}
        if extra:
            item["metadata"] = extra
        items.append(item)
    return items


# --- translating ----------------------------------------------------------------------------------------------


def import_line(item: Any, *, namespace: str | None) -> dict[str, Any]:
    """A Mem0 memory as an ``import_memories`` line (ImportLineInput's fields), which the line's
    contract then checks: only the shape is looked at here."""
    if not isinstance(item, dict):
        raise InvalidInput("a Mem0 memory is a JSON object")
    unknown = sorted(str(key) for key in item if key not in ITEM_KEYS)
    if unknown:
        raise InvalidInput(f"unknown Mem0 field(s): {', '.join(k[:60] for k in unknown[:10])}")
    mem0_id = item.get("id")
    if not isinstance(mem0_id, str | int) or isinstance(mem0_id, bool) or not str(mem0_id).strip():
        raise InvalidInput("a Mem0 memory needs its id")
    key = namespace or mem0.namespace_key(item)
    if not key:
        raise InvalidInput("no user_id or agent_id to name a namespace (give one with --namespace)")
    metadata = item.get("metadata")
    metadata = {} if metadata is None else metadata
    if isinstance(metadata, dict):
        kept = {"mem0_id": str(mem0_id), **mem0.entity_metadata(item)}
        for name in ("hash", "actor_id", "role", "attributed_to"):
            if item.get(name) is not None:
                kept[f"mem0_{name}"] = item[name]
        if namespace:  # the ids that would have named the namespace are kept too
            kept.update({f"mem0_{k}": item[k] for k in ("user_id", "agent_id") if item.get(k) is not None})
        metadata = {**metadata, **kept}
    line: dict[str, Any] = {
        "type": "memory",
        "event_id": str(mem0.import_event_id(mem0_id)),
        "namespace": key,
        "text": item.get("memory"),
        "metadata": metadata,
        "created_at": item.get("created_at"),
        "updated_at": item.get("updated_at"),
        "capture_mode": "inferred",  # Mem0 extracts its memories with an LLM
        "source_provider": "mem0",
    }
    if item.get("expiration_date") is not None:
        line["expires_at"] = mem0.expiry(item["expiration_date"])
    if item.get("categories") is not None:
        line["tags"] = item["categories"]
    return line


def _time(value: Any, *, what: str) -> Any:
    if value in (None, ""):
        return None
    if not isinstance(value, str):
        raise InvalidInput(f"{what}: a time is an ISO 8601 string")
    try:
        return parse_aware_datetime(value)
    except ValueError as exc:
        raise InvalidInput(f"{what}: {exc}") from exc


def history_events(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Mem0 history rows as the fields of Mnemo history events, oldest first: each row's event,
    texts (checked and scanned like a memory's text) and time. Refuses the line (INVALID_INPUT,
    SECRET_REJECTED) if one row cannot be kept."""
    events = []
    for index, row in enumerate(rows):
        where = f"history[{index}]"
        kind = mem0.EVENT_FROM_MEM0.get(row.get("event")) if isinstance(row.get("event"), str) else None
        if kind is None:
            raise InvalidInput(f"{where}.event: one of {', '.join(mem0.EVENT_FROM_MEM0)}")
        texts = {}
        for name in ("old_memory", "new_memory"):
            value = row.get(name)
            if value is not None and not isinstance(value, str):
                raise InvalidInput(f"{where}.{name}: a string or null")
            problem = text_problem(value or "")
            if problem:
                raise InvalidInput(f"{where}.{name} {problem}")
            texts[name] = services.validate_text(value, field=f"{where}.{name}") if value else ""
        extra = {k: row.get(k) for k in ("actor_id", "role") if row.get(k) is not None}
        reject_secrets(**{f"{where}.{k}": v for k, v in {**texts, **extra}.items()})
        created = _time(row.get("created_at"), what=f"{where}.created_at")
        updated = _time(row.get("updated_at"), what=f"{where}.updated_at")
        # Mem0 writes the memory's creation time on every row; an update's own time is updated_at.
        when = created if kind == MemoryEvent.Type.ADD else (updated or created)
        events.append(
            {
                "event_type": kind,
                "old_text": texts["old_memory"],
                "new_text": texts["new_memory"],
                "created_at": when,
                "data": {
                    "via": "mem0-import",
                    "mem0_history_id": str(row.get("id")) if row.get("id") is not None else None,
                    **{f"mem0_{k}": v for k, v in extra.items()},
                },
            }
        )
    return sorted(events, key=lambda e: (e["created_at"] is None, e["created_at"] or 0))


class Mem0Lines:
    """The import lines of a Mem0 source and, for ``ops.import_lines``, each memory's events."""

    def __init__(self, source: Mem0Source, *, namespace: str | None) -> None:
        self.source = source
        self.namespace = namespace
        self.events_by_id: dict[str, list[dict[str, Any]]] = {}

    def lines(self, report: Any) -> Iterable[tuple[int, dict[str, Any]]]:
        """(item number, import line) for each memory. An item that cannot be a line is reported
        as rejected at its number (``report``, the import's ImportReport) and left out."""
        seen: dict[str, tuple[int, Any]] = {}
        for number, item in enumerate(self.source.items, start=1):
            try:
                line = import_line(item, namespace=self.namespace)
                mem0_id = line["metadata"]["mem0_id"] if isinstance(line["metadata"], dict) else None
                # The same memory twice (listed by get_all for its user and for its agent) is
                # counted once; two different items with one id would share an event id, and the
                # batch's insert would fail whole.
                if line["event_id"] in seen:
                    first, earlier = seen[line["event_id"]]
                    if earlier != item:
                        raise InvalidInput(f"the same Mem0 id as item {first}, with other content")
                    report.already += 1
                    continue
                seen[line["event_id"]] = (number, item)
                rows = self.source.history.get(str(mem0_id), [])
                self.events_by_id[str(mem0_id)] = history_events(rows) if rows else []
            except MnemoError as exc:
                report.rejected.append((number, exc.code, exc.message))
                continue
            yield number, line

    def events(self, record: dict[str, Any], line: int, memory: Memory) -> list[MemoryEvent]:
        """The memory's Mem0 history as Mnemo events; without any, one add event at its creation."""
        rows = self.events_by_id.get(str((record.get("metadata") or {}).get("mem0_id")), [])
        if not rows:
            rows = [
                {
                    "event_type": MemoryEvent.Type.ADD,
                    "old_text": "",
                    "new_text": memory.text,
                    "created_at": memory.created_at,  # Mem0's, when the item had one
                    "data": {"via": "mem0-import", "item": line},
                }
            ]
        return [MemoryEvent(memory=memory, **row) for row in rows]
