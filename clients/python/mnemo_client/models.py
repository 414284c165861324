"""Typed results: stdlib dataclasses built from the API's JSON.

Every model keeps what the server sent: ``raw`` is the whole object as received and ``extra``
the fields this client does not know yet, so a server that adds fields never breaks an older
client (and the new fields are still readable). Timestamps are ``datetime`` (timezone-aware).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import Any, Generic, Self, TypeVar

T = TypeVar("T")

__all__ = [
    "AddMemoryResult",
    "Contact",
    "ContactMemory",
    "ContactMessage",
    "ContactNote",
    "CorrectResult",
    "Event",
    "HistoryEvent",
    "Identity",
    "Memory",
    "Namespace",
    "Page",
    "RememberResult",
    "Rule",
    "RulesPrompt",
    "SearchResult",
    "Session",
    "Supersession",
    "Token",
    "Tombstone",
    "Tool",
    "ToolInvocation",
    "ToolStatistic",
    "TurnResult",
]


def parse_datetime(value: Any) -> datetime | None:
    """An ISO 8601 timestamp from the API (``None`` stays ``None``; a value that does not parse
    is returned as ``None`` rather than failing the whole result)."""
    if value is None or isinstance(value, datetime):
        return value
    try:
        return datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        return None


def _f(default: Any = None, *, conv: Callable[[Any], Any] | None = None, key: str | None = None) -> Any:
    """A model field: its default, how its JSON value is converted, and its JSON name when that
    is not a valid Python name (a tool's ``class``)."""
    metadata: dict[str, Any] = {}
    if conv is not None:
        metadata["conv"] = conv
    if key is not None:
        metadata["key"] = key
    if isinstance(default, list | dict):
        factory = type(default)
        return field(default_factory=factory, metadata=metadata)
    return field(default=default, metadata=metadata)


def _dt() -> Any:
    return _f(None, conv=parse_datetime)


def _list_of(model: Any) -> Callable[[Any], Any]:
    return lambda items: [model.from_dict(item) for item in items or []]


@dataclass(kw_only=True)
class Model:
    """Base of every result: ``raw`` (the object as sent) and ``extra`` (fields unknown to this client)."""

    raw: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    extra: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        data = dict(data)
        kwargs: dict[str, Any] = {}
        known: set[str] = set()
        for f in fields(cls):
            if f.name in ("raw", "extra"):
                continue
            key = f.metadata.get("key", f.name)
            known.add(key)
            if key in data:
                value = data[key]
                conv = f.metadata.get("conv")
                kwargs[f.name] = conv(value) if conv is not None and value is not None else value
        kwargs["raw"] = data
        kwargs["extra"] = {k: v for k, v in data.items() if k not in known}
        return cls(**kwargs)

    def __getitem__(self, key: str) -> Any:
        """``result["field"]``: any field as sent, known to this client or not."""
        return self.raw[key]


@dataclass(kw_only=True)
class Identity(Model):
    """Who the token belongs to (``whoami``)."""

    username: str = ""


@dataclass(kw_only=True)
class Memory(Model):
    """One stored memory. ``valid_from``/``valid_until``: when the fact held (``None``: open at
    that end; ``valid_until`` is exclusive), see docs/time-aware.md."""

    id: int = 0
    namespace: str = ""
    text: str = ""
    tags: list[str] = _f([])
    metadata: dict[str, Any] = _f({})
    status: str | None = None
    event_id: str | None = None
    source_provider: str | None = None
    importance: float | None = None
    capture_mode: str | None = None
    session_id: str | None = None
    expires_at: datetime | None = _dt()
    valid_from: datetime | None = _dt()
    valid_until: datetime | None = _dt()
    last_confirmed_at: datetime | None = _dt()
    created_at: datetime | None = _dt()
    updated_at: datetime | None = _dt()
    created_by: str | None = None
    embedding_model: str | None = None
    forgotten_at: datetime | None = _dt()


@dataclass(kw_only=True)
class SearchResult(Model):
    """One search hit, best first: ``score`` is the fused rank score, ``similarity`` the cosine
    similarity and ``keyword_coverage`` the share of the query's words found; ``valid_from`` and
    ``valid_until`` as on ``Memory``."""

    id: int = 0
    text: str = ""
    score: float = 0.0
    similarity: float | None = None
    keyword_coverage: float | None = None
    tags: list[str] = _f([])
    metadata: dict[str, Any] = _f({})
    created_at: datetime | None = _dt()
    last_confirmed_at: datetime | None = _dt()
    valid_from: datetime | None = _dt()
    valid_until: datetime | None = _dt()


@dataclass(kw_only=True)
class Supersession(Model):
    """A live memory the remembered one contradicts (same subject, another value): ``old_values``
    it says that the new one drops, ``new_values`` the new one says instead. ``closed`` when
    ``supersede="close"`` ended its validity, at ``valid_until``."""

    memory_id: int = 0
    text: str = ""
    similarity: float = 0.0
    old_values: list[str] = _f([])
    new_values: list[str] = _f([])
    closed: bool = False
    valid_until: datetime | None = _dt()


@dataclass(kw_only=True)
class RememberResult(Model):
    """Seed 003 ``remember``: ``message`` is ``"Ok"`` when stored; otherwise it says why not
    (a near duplicate under ``dedup_policy``: see ``near_duplicates``). ``supersedes``: the live
    memories the new one contradicts (closed ones with ``supersede="close"``)."""

    ok: bool = True
    memory_id: int | None = None
    message: str = ""
    near_duplicates: list[dict[str, Any]] = _f([])
    previously_corrected: list[dict[str, Any]] = _f([])
    supersedes: list[Supersession] = _f([], conv=_list_of(Supersession))

    @property
    def stored(self) -> bool:
        return self.message == "Ok"


@dataclass(kw_only=True)
class AddMemoryResult(Model):
    """Seed 002 ``add_memory``: the memory's id and the event to follow (``status`` ``queued``
    when asynchronous); ``message`` is the seed's confirmation string."""

    ok: bool = True
    id: int = 0
    event_id: str = ""
    status: str = ""
    message: str = ""


@dataclass(kw_only=True)
class Event(Model):
    """Where an asynchronous add stands: ``queued``, ``ready`` or ``failed`` (with ``error``)."""

    ok: bool = True
    event_id: str = ""
    status: str = ""
    memory_id: int | None = None
    error: str | None = None


@dataclass(kw_only=True)
class HistoryEvent(Model):
    """One change of a memory (add, update, forget, correct, confirm, ...), oldest first."""

    id: int = 0
    memory: int | None = None
    event_type: str = ""
    old_text: str | None = None
    new_text: str | None = None
    actor: str | None = None
    data: Any = None
    created_at: datetime | None = _dt()


@dataclass(kw_only=True)
class Tombstone(Model):
    """What remains of a forgotten, corrected or deleted memory (out of recall)."""

    id: int = 0
    memory: int | None = None
    namespace: str | None = None
    text: str = ""
    kind: str | None = None
    reason: str | None = None
    replaced_by: int | None = None
    created_at: datetime | None = _dt()


@dataclass(kw_only=True)
class CorrectResult(Model):
    """A correction: the new memory and the tombstone of the old one."""

    ok: bool = True
    memory: Memory = _f(None, conv=Memory.from_dict)
    tombstone: Tombstone = _f(None, conv=Tombstone.from_dict)


@dataclass(kw_only=True)
class Namespace(Model):
    """A namespace the caller may read (``can_write``: whether it may write there too)."""

    key: str = ""
    kind: str | None = None
    owner: str | None = None
    can_write: bool = False
    memory_count: int = 0
    created_at: datetime | None = _dt()


@dataclass(kw_only=True)
class Contact(Model):
    id: str = ""
    name: str = ""
    email: str | None = None
    phone: str | None = None
    company: str | None = None
    title: str | None = None
    address: str | None = None
    timezone: str | None = None
    tags: list[str] = _f([])
    custom_fields: dict[str, Any] = _f({})
    created_at: datetime | None = _dt()
    updated_at: datetime | None = _dt()


@dataclass(kw_only=True)
class ContactNote(Model):
    id: int = 0
    contact: str | None = None
    kind: str | None = None
    body: str = ""
    author: str | None = None
    created_at: datetime | None = _dt()
    updated_at: datetime | None = _dt()


@dataclass(kw_only=True)
class ContactMessage(Model):
    id: int = 0
    contact: str | None = None
    direction: str | None = None
    channel: str | None = None
    subject: str | None = None
    body: str | None = None
    to_address: str | None = None
    sent_at: datetime | None = _dt()
    status: str | None = None
    created_at: datetime | None = _dt()


@dataclass(kw_only=True)
class ContactMemory(Model):
    """A contact's memory note, exactly as the ``get_contact_memory`` tool answers."""

    contact_id: str = ""
    deep_link: str | None = None
    has_memory: bool = False
    note_id: int | None = None
    memory_note: str | None = None
    updated_at: datetime | None = _dt()


@dataclass(kw_only=True)
class Tool(Model):
    """A tool registered for the caller, with the JSON schema of its arguments."""

    name: str = ""
    description: str = ""
    input_schema: dict[str, Any] = _f({})
    ui_label: str | None = None
    direction: str | None = None
    tool_class: str | None = _f(None, key="class")


@dataclass(kw_only=True)
class ToolInvocation(Model):
    ok: bool = True
    result: Any = None
    summary: str = ""


@dataclass(kw_only=True)
class Rule(Model):
    """A tool rule (seed 004)."""

    id: str = ""
    key: str = ""
    tool_name: str = ""
    rule: str = ""
    priority: str = ""
    source: str = ""
    tags: list[str] = _f([])
    owner: str | None = None
    created_at: datetime | None = _dt()
    updated_at: datetime | None = _dt()


@dataclass(kw_only=True)
class Session(Model):
    """A started (or resumed) assistant session: tools, system prompt and pinned tool rules."""

    ok: bool = True
    session_id: str = ""
    tools: list[Tool] = _f([], conv=_list_of(Tool))
    system_prompt: str = ""
    tool_rules: Any = None


@dataclass(kw_only=True)
class TurnResult(Model):
    """What the post-turn hook kept (``replayed``: this turn had been posted before; nothing changed)."""

    ok: bool = True
    session_id: str = ""
    turn: str = ""
    memories: dict[str, Any] = _f({})
    rules: list[Rule] = _f([], conv=_list_of(Rule))
    observations: list[Rule] = _f([], conv=_list_of(Rule))
    rejected: list[dict[str, Any]] = _f([])
    statistics: list[str] = _f([])
    skill: dict[str, Any] | None = None
    replayed: bool = False


@dataclass(kw_only=True)
class RulesPrompt(Model):
    """The pinned Markdown block of tool rules for a prompt, and its snapshot."""

    markdown: str = ""
    snapshot: Any = None


@dataclass(kw_only=True)
class ToolStatistic(Model):
    key: str = ""
    tool_name: str = ""
    calls: int = 0
    successes: int = 0
    failures: int = 0
    last_failure_at: datetime | None = _dt()
    last_error: str | None = None


@dataclass(kw_only=True)
class Token(Model):
    """An API token; ``key`` is set only in the answer that created it (it is never shown again)."""

    id: int = 0
    name: str = ""
    prefix: str = ""
    created_at: datetime | None = _dt()
    expires_at: datetime | None = _dt()
    last_used_at: datetime | None = _dt()
    rate_limit_per_minute: int | None = None
    key: str | None = None


@dataclass
class Page(Generic[T]):
    """One page of a paginated list: ``count`` in all, ``next``/``previous`` page URLs."""

    results: list[T]
    count: int = 0
    next: str | None = None
    previous: str | None = None

    def __iter__(self) -> Any:
        return iter(self.results)

    def __len__(self) -> int:
        return len(self.results)
