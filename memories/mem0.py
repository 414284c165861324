"""Mem0 and Mnemo: how Mem0's ids, records and history map onto namespaces, memories and events.

Shared by the two Mem0 doors: ``import_memories --format mem0 | mem0-pgvector`` (an export of Mem0
OSS 2.x, or its pgvector table) and the Mem0-compatible REST entrance that mem0ai's
``MemoryClient`` talks to (``memories.api.mem0_compat``). Neither validates anything here: a Mem0
record or request body is *translated* into the fields of Mnemo's own contract (ImportLineInput,
AddMemoryInput, SearchInput, MemoryPatchInput, MemoryFilter), which validates and scans it.

The mapping, in one place:

- ``user_id`` → namespace ``user:<user_id>``; without one, ``agent_id`` → ``agent:<agent_id>``.
  The other Mem0 entity ids (``agent_id`` next to a ``user_id``, ``run_id``, ``app_id``) are
  kept in the memory's metadata as ``mem0_agent_id``, ``mem0_run_id``, ``mem0_app_id``.
- An imported memory keeps Mem0's id as ``metadata.mem0_id`` and its hash as ``mem0_hash`` (and
  ``mem0_actor_id`` / ``mem0_role`` where Mem0 had them); its import event id is derived from the
  Mem0 id (``import_event_id``), so importing the same memory again finds it and skips it.
- Mem0's history events ADD / UPDATE / DELETE are Mnemo's add / update / forget.
"""

from __future__ import annotations

import hashlib
import uuid
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from memories.models import Memory, MemoryEvent

#: Mem0 entity ids kept in metadata (the one that names the namespace is not repeated there).
ENTITY_KEYS = ("user_id", "agent_id", "run_id", "app_id")
#: Metadata keys Mnemo writes for Mem0 and reads back into Mem0's top-level fields.
SYSTEM_PREFIX = "mem0_"
#: uuid5 namespace of import event ids: the same Mem0 id always gives the same event id.
EVENT_NAMESPACE = uuid.UUID("6d1f1e0a-8f3c-5c2e-9a55-3b0c9e7d0a27")

#: Mem0 history event → Mnemo history event.
EVENT_FROM_MEM0 = {"ADD": MemoryEvent.Type.ADD, "UPDATE": MemoryEvent.Type.UPDATE, "DELETE": MemoryEvent.Type.FORGET}
#: Mnemo history event → the Mem0 event a client expects ("NONE": Mem0's "nothing changed").
EVENT_TO_MEM0 = {
    MemoryEvent.Type.ADD: "ADD",
    MemoryEvent.Type.RESTORE: "ADD",
    MemoryEvent.Type.UPDATE: "UPDATE",
    MemoryEvent.Type.FORGET: "DELETE",
    MemoryEvent.Type.CORRECT: "DELETE",
    MemoryEvent.Type.MERGE: "DELETE",
    MemoryEvent.Type.CONFIRM: "NONE",
}
#: Mnemo status → Mem0's event status.
STATUS_TO_MEM0 = {Memory.Status.QUEUED: "PENDING", Memory.Status.READY: "SUCCEEDED", Memory.Status.FAILED: "FAILED"}


def import_event_id(mem0_id: Any) -> uuid.UUID:
    """The event id an imported Mem0 memory gets: the same Mem0 id, the same event id."""
    return uuid.uuid5(EVENT_NAMESPACE, f"mem0:{mem0_id}")


def namespace_key(ids: dict[str, Any]) -> Any:
    """The namespace Mem0's ids name: ``user:<user_id>``, else ``agent:<agent_id>``, else "" (the
    caller's own). A non-string id is returned as is, for the contract to refuse."""
    for key, prefix in (("user_id", "user:"), ("agent_id", "agent:")):
        value = ids.get(key)
        if value is None:
            continue
        return f"{prefix}{value}" if isinstance(value, str) else value
    return ""


def entity_metadata(ids: dict[str, Any]) -> dict[str, Any]:
    """The Mem0 ids that do not name the namespace, as ``mem0_<id>`` metadata keys."""
    named = "user_id" if ids.get("user_id") is not None else ("agent_id" if ids.get("agent_id") is not None else None)
    return {f"{SYSTEM_PREFIX}{key}": ids[key] for key in ENTITY_KEYS if key != named and ids.get(key) is not None}


def expiry(expiration_date: Any) -> Any:
    """Mem0's ``expiration_date`` (a day; the memory lives through it) as Mnemo's ``expires_at``
    (the next midnight, UTC). Anything else is returned as is, for the contract to judge."""
    if isinstance(expiration_date, str) and len(expiration_date) == 10:
        try:
            day = date.fromisoformat(expiration_date)
        except ValueError:
            return expiration_date
        return datetime.combine(day + timedelta(days=1), time(0), tzinfo=UTC).isoformat()
    return expiration_date


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def memory_body(memory: Memory) -> dict[str, Any]:
    """A memory as Mem0's API answers one: ``id``, ``memory``, ``hash``, ``metadata``,
    ``categories``, ``created_at``, ``updated_at`` and the entity ids, plus Mnemo's namespace and
    status. ``id`` is Mnemo's (a string, as Mem0's are); an imported memory's Mem0 id is in
    ``metadata.mem0_id``."""
    metadata = dict(memory.metadata or {})
    key = memory.namespace.key
    body: dict[str, Any] = {
        "id": str(memory.id),
        "memory": memory.text,
        "hash": metadata.get(f"{SYSTEM_PREFIX}hash") or hashlib.md5(memory.text.encode()).hexdigest(),  # noqa: S324 (Mem0's content hash, not security)
        "metadata": metadata or None,
        "categories": list(memory.tags),
        "created_at": _iso(memory.created_at),
        "updated_at": _iso(memory.updated_at),
        "expiration_date": (memory.expires_at - timedelta(days=1)).date().isoformat() if memory.expires_at else None,
        "user_id": key.split(":", 1)[1] if key.startswith("user:") else None,
        "agent_id": key.split(":", 1)[1] if key.startswith("agent:") else None,
        "run_id": None,
        "app_id": None,
        "namespace": key,
        "status": STATUS_TO_MEM0.get(memory.status, memory.status),
    }
    for entity in ENTITY_KEYS:
        stored = metadata.get(f"{SYSTEM_PREFIX}{entity}")
        if stored is not None and body[entity] is None:
            body[entity] = stored
    return body


def history_body(event: MemoryEvent, *, memory: Memory) -> dict[str, Any]:
    """One history event as Mem0's ``history`` answers it (the columns of its history table)."""
    data = event.data or {}
    when = _iso(event.created_at)
    kind = EVENT_TO_MEM0.get(event.event_type, event.event_type.upper())
    return {
        "id": str(event.id),
        "memory_id": str(memory.id),
        "old_memory": event.old_text or None,
        "new_memory": event.new_text or None,
        "event": kind,
        "created_at": when,
        "updated_at": when,
        "is_deleted": kind == "DELETE",
        "actor_id": data.get("mem0_actor_id") or (event.actor.get_username() if event.actor else None),
        "role": data.get("mem0_role"),
        "metadata": data,
    }
