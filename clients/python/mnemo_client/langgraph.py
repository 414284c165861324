"""LangGraph integration: a ``BaseStore`` on Mnemo, and seed 002's memory-learning node.

Install the ``[langchain]`` extra (``pip install "./clients/python[langchain]"``). Everything goes
through the client, so through Mnemo's one permission layer: a namespace the token may not see answers like an empty
one (``get`` → ``None``, ``search`` → ``[]``), and a write to it raises the client's ``NotFound``
(or ``PermissionDenied`` where the token may read but not write).

**How LangGraph namespaces map onto Mnemo** (docs/langchain.md says the same):

- The Mnemo namespace of a tuple is its **first label when that label holds a colon**
  (``("user:alice", "prefs")`` → ``user:alice``; ``("agent:gmail_subagent",)`` →
  ``agent:gmail_subagent``), else the store's ``namespace`` (default: the token's own
  ``user:<username>``). Mnemo namespaces are never created by the store: they exist (a user's own,
  or one staff made and granted) or the write fails.
- One item is one memory. The whole tuple, the key and the value are kept in the memory's
  metadata under ``"langgraph"`` (and the value's top-level scalars as ``"lg.<field>"``, which
  Mnemo's metadata filter reads); its text is what search should match: the value's ``fields``
  (LangGraph's index paths; ``"$"``, the default, is the whole value as JSON).
- Tags make every lookup exact and server-side: ``langgraph`` on every item, ``lg-item-…`` (a
  hash of tuple and key: ``get``, ``put``, ``delete``), ``lg-ns-…`` for each prefix of the tuple
  (``search`` and listing under a prefix) and ``lg-indexed`` on items a query may find
  (``index=False`` leaves it out). The hashes are letters only, so the secret scanner never
  takes them for keys.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import string
from collections.abc import Generator, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.runnables import RunnableConfig, RunnableLambda
from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
)
from langgraph.store.base.embed import get_text_at_path

from mnemo_client.errors import MnemoError, NotFound, PermissionDenied

if TYPE_CHECKING:
    from mnemo_client.client import AsyncMnemoClient, MnemoClient

__all__ = [
    "MnemoStore",
    "item_tag",
    "make_memory_learning_node",
    "memory_learning_node",
    "prefix_tag",
    "skill_text",
    "successful_calls",
]

STORE_TAG = "langgraph"
INDEXED_TAG = "lg-indexed"
METADATA_KEY = "langgraph"
#: Mnemo keeps at most 50 tags on a memory: three fixed ones and one per prefix of the tuple.
MAX_DEPTH = 47
#: Mnemo's search answers at most this many results.
SEARCH_MAX = 100
#: One page of the memory list (Mnemo's maximum).
PAGE = 500


def _letters(text: str, length: int = 26) -> str:
    """A hash of ``text`` in lowercase letters (about 4.7 bits each: 26 of them are 122 bits)."""
    number = int.from_bytes(hashlib.sha256(text.encode()).digest(), "big")
    out = []
    for _ in range(length):
        number, digit = divmod(number, 26)
        out.append(string.ascii_lowercase[digit])
    return "".join(out)


def item_tag(namespace: Sequence[str], key: str) -> str:
    """The tag that finds one item: a hash of its whole tuple and key."""
    return "lg-item-" + _letters(json.dumps(["item", list(namespace), key], ensure_ascii=False))


def prefix_tag(prefix: Sequence[str]) -> str:
    """The tag every item whose tuple starts with ``prefix`` carries."""
    return "lg-ns-" + _letters(json.dumps(["ns", list(prefix)], ensure_ascii=False))


def _now() -> datetime:
    return datetime.now(UTC)


def _as_datetime(value: Any) -> datetime:
    if isinstance(value, datetime):
        return value
    if isinstance(value, str):
        try:
            return datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            pass
    return _now()


# --- LangGraph's filter operators, applied to an item's value --------------------------------------


def _compare(actual: Any, spec: Any) -> bool:
    if isinstance(spec, dict) and spec and all(isinstance(k, str) and k.startswith("$") for k in spec):
        return all(_operator(actual, op, expected) for op, expected in spec.items())
    return actual == spec


def _operator(actual: Any, op: str, expected: Any) -> bool:
    if op == "$eq":
        return actual == expected
    if op == "$ne":
        return actual != expected
    try:
        if op == "$gt":
            return actual > expected
        if op == "$gte":
            return actual >= expected
        if op == "$lt":
            return actual < expected
        if op == "$lte":
            return actual <= expected
    except TypeError:  # a missing field or another type: not a match, as in LangGraph's own stores
        return False
    raise ValueError(f"Unsupported filter operator {op!r} (LangGraph's are $eq, $ne, $gt, $gte, $lt, $lte).")


def _matches(value: Mapping[str, Any], filter: Mapping[str, Any] | None) -> bool:
    if not filter:
        return True
    for key, spec in filter.items():
        actual: Any = value
        for part in str(key).split("."):
            actual = actual.get(part) if isinstance(actual, Mapping) else None
        if not _compare(actual, spec):
            return False
    return True


def _namespace_matches(namespace: tuple[str, ...], conditions: Iterable[MatchCondition] | None) -> bool:
    for condition in conditions or ():
        path = tuple(condition.path)
        if len(path) > len(namespace):
            return False
        part = namespace[: len(path)] if condition.match_type == "prefix" else namespace[len(namespace) - len(path) :]
        if not all(p == "*" or p == n for p, n in zip(path, part, strict=True)):
            return False
    return True


#: Top-level metadata keys holding a copy of the value's top-level scalars, so that the server's
#: metadata filter can read them (it reads top-level keys only).
FIELD_PREFIX = "lg."


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def _field_copies(value: Mapping[str, Any]) -> dict[str, Any]:
    return {FIELD_PREFIX + str(k): v for k, v in value.items() if _is_scalar(v)}


def _server_filter(filter: Mapping[str, Any] | None) -> tuple[dict[str, Any], bool]:
    """The part of a LangGraph filter Mnemo's metadata filter does exactly, and whether that is all
    of it: equality and inequality on top-level fields, ``$gt``/``$lt`` on numbers (PostgreSQL
    orders strings by its collation, Python by code point: those stay with the store)."""
    pushed: dict[str, Any] = {}
    complete = True
    for key, spec in (filter or {}).items():
        key = str(key)
        ops = spec if isinstance(spec, dict) and spec and all(str(k).startswith("$") for k in spec) else {"$eq": spec}
        mapped: dict[str, Any] = {}
        for op, expected in ops.items():
            number = isinstance(expected, int | float) and not isinstance(expected, bool)
            if "." in key or not _is_scalar(expected) or expected is None or isinstance(expected, bool):
                # Dotted paths and containers; None (a missing field is None here, absent there);
                # booleans (JSON true is not 1 there, but True == 1 in Python).
                complete = False
            elif op in ("$eq", "$ne") or (op in ("$gt", "$lt") and number):
                mapped[op[1:]] = expected
            else:
                complete = False
        if mapped:
            pushed[FIELD_PREFIX + key] = mapped
    return pushed, complete


# --- the store ---------------------------------------------------------------------------------------

#: A step of an operation: (client method, positional args, keyword args). The operations are
#: written once, as generators that yield steps; ``batch`` runs them on the sync client and
#: ``abatch`` on the async one, so both do exactly the same calls.
Step = tuple[str, tuple[Any, ...], dict[str, Any]]
Plan = Generator[Step, Any, Any]


def _drive(client: Any, plan: Plan) -> Any:
    """Run ``plan`` on a sync client: each step is a call, its result (or MnemoError) sent back."""
    try:
        step = next(plan)
        while True:
            method, args, kwargs = step
            try:
                result = getattr(client, method)(*args, **kwargs)
            except MnemoError as exc:
                step = plan.throw(exc)
            else:
                step = plan.send(result)
    except StopIteration as stop:
        return stop.value


async def _adrive(client: Any, plan: Plan) -> Any:
    """``_drive`` on an async client."""
    try:
        step = next(plan)
        while True:
            method, args, kwargs = step
            try:
                result = await getattr(client, method)(*args, **kwargs)
            except MnemoError as exc:
                step = plan.throw(exc)
            else:
                step = plan.send(result)
    except StopIteration as stop:
        return stop.value


class MnemoStore(BaseStore):
    """A LangGraph ``BaseStore`` whose items are Mnemo memories (see the module's docstring).

    ``client`` is a ``MnemoClient`` (``batch`` and the sync methods), ``async_client`` an
    ``AsyncMnemoClient`` (``abatch`` and the ``a*`` methods; without one they run the sync client
    in a thread). ``namespace``: the Mnemo namespace of tuples whose first label has no colon
    (default: the token's own). ``fields``: the value paths whose text is searched (default
    ``["$"]``, the whole value). ``min_score``: search leaves out weaker results (default 0:
    the best ``limit`` whatever their score, as LangGraph's own stores do).
    """

    supports_ttl = False

    def __init__(
        self,
        client: MnemoClient | None = None,
        *,
        async_client: AsyncMnemoClient | None = None,
        namespace: str | None = None,
        fields: Sequence[str] | None = None,
        min_score: float = 0.0,
    ) -> None:
        if client is None and async_client is None:
            from mnemo_client import MnemoClient

            client = MnemoClient()
        self.client = client
        self.async_client = async_client
        self.namespace = namespace or None
        self.fields = list(fields) if fields else ["$"]
        self.min_score = min_score
        self._own: str | None = None

    # batch drivers ----------------------------------------------------------------------------

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        if self.client is None:
            raise RuntimeError("MnemoStore was built with an async client only: use abatch / the a* methods.")
        return [_drive(self.client, self._plan(op)) for op in ops]

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        ops = list(ops)
        if self.async_client is None:
            return await asyncio.to_thread(self.batch, ops)
        return [await _adrive(self.async_client, self._plan(op)) for op in ops]

    # the operations, once ---------------------------------------------------------------------

    def _plan(self, op: Op) -> Plan:
        if isinstance(op, GetOp):
            return self._get(op)
        if isinstance(op, PutOp):
            return self._put(op)
        if isinstance(op, SearchOp):
            return self._search(op)
        if isinstance(op, ListNamespacesOp):
            return self._list_namespaces(op)
        raise TypeError(f"Unknown store operation: {op!r}")

    def _own_namespace(self) -> Plan:
        if self._own is None:
            identity = yield ("whoami", (), {})
            self._own = f"user:{identity.username}"
        return self._own

    def _default_namespace(self) -> Plan:
        if self.namespace:
            return self.namespace
        return (yield from self._own_namespace())

    def _mnemo_namespace(self, namespace: tuple[str, ...]) -> Plan:
        """The Mnemo namespace a LangGraph tuple lives in (the module's docstring)."""
        if namespace and ":" in namespace[0]:
            return namespace[0]
        return (yield from self._default_namespace())

    def _memories(self, **filters: Any) -> Plan:
        """Every memory matching the list filters, newest first (all pages)."""
        found: list[Any] = []
        offset = 0
        while True:
            try:
                page = yield ("list_memories", (), {**filters, "limit": PAGE, "offset": offset})
            except NotFound:
                return found
            found.extend(page.results)
            offset += len(page.results)
            if not page.results or not page.next:
                return found

    def _matching(self, namespace: tuple[str, ...], key: str) -> Plan:
        """The memories holding (namespace, key), newest first: one, except after two puts of a
        new key raced (the next put keeps the newest and deletes the others)."""
        mnemo = yield from self._mnemo_namespace(namespace)
        candidates = yield from self._memories(namespace=mnemo, tag=item_tag(namespace, key))
        found = []
        for memory in candidates:  # the record is checked, not only the hash
            record = (memory.metadata or {}).get(METADATA_KEY) or {}
            if tuple(record.get("namespace") or ()) == tuple(namespace) and record.get("key") == key:
                found.append(memory)
        return found

    @staticmethod
    def _fields(memory: Any) -> dict[str, Any]:
        """An item's fields from its memory (the record in its metadata)."""
        record = memory.metadata[METADATA_KEY]
        return {
            "namespace": tuple(record["namespace"]),
            "key": record["key"],
            "value": record.get("value") or {},
            "created_at": _as_datetime(record.get("created_at") or memory.created_at),
            "updated_at": _as_datetime(record.get("updated_at") or getattr(memory, "updated_at", None)),
        }

    def _get(self, op: GetOp) -> Plan:
        found = yield from self._matching(tuple(op.namespace), op.key)
        return Item(**self._fields(found[0])) if found else None

    def _text(self, op: PutOp) -> tuple[str, bool]:
        """The memory's text and whether a query may find it."""
        if op.index is False:
            return f"{'/'.join(op.namespace)}/{op.key}", False
        paths = self.fields if op.index is None else list(op.index)
        texts = [text for path in paths for text in get_text_at_path(op.value, path) if text]
        if not texts:  # nothing at the paths: kept (get, list), not searchable by meaning
            return f"{'/'.join(op.namespace)}/{op.key}", False
        return "\n".join(texts), True

    def _put(self, op: PutOp) -> Plan:
        namespace = tuple(op.namespace)
        if len(namespace) > MAX_DEPTH:
            raise InvalidNamespaceError(f"A Mnemo store namespace has at most {MAX_DEPTH} labels.")
        mnemo = yield from self._mnemo_namespace(namespace)
        found = yield from self._matching(namespace, op.key)
        existing = found[0] if found else None
        for stale in found[1:] if op.value is not None else found:
            yield ("delete_memory", (stale.id,), {})
        if op.value is None:
            return None
        text, indexed = self._text(op)
        now = _now().isoformat()
        record = {
            "namespace": list(namespace),
            "key": op.key,
            "value": dict(op.value),
            "created_at": now,
            "updated_at": now,
        }
        tags = [STORE_TAG, item_tag(namespace, op.key)]
        tags += [prefix_tag(namespace[:n]) for n in range(1, len(namespace) + 1)]
        if indexed:
            tags.append(INDEXED_TAG)
        if existing is None:
            yield (
                "remember",
                (text,),
                {
                    "namespace": mnemo,
                    "tags": tags,
                    "metadata": {METADATA_KEY: record, **_field_copies(op.value)},
                    # The key decides what is the same item, not the meaning: never merged.
                    "dedup_policy": "insert",
                    "source_provider": "langgraph",
                },
            )
            return None
        previous = existing.metadata.get(METADATA_KEY) or {}
        record["created_at"] = previous.get("created_at") or now
        # Other metadata (someone's annotations) is kept; the copies of the value's fields are redone.
        kept = {k: v for k, v in existing.metadata.items() if not k.startswith(FIELD_PREFIX)}
        metadata = {**kept, METADATA_KEY: record, **_field_copies(op.value)}
        fields: dict[str, Any] = {"metadata": metadata, "tags": tags}
        if existing.text != text:  # new text is re-embedded; the same text keeps its vector
            fields["text"] = text
        yield ("update_memory", (existing.id,), fields)
        return None

    def _search(self, op: SearchOp) -> Plan:
        prefix = tuple(op.namespace_prefix)
        mnemo = yield from self._mnemo_namespace(prefix)
        scope = prefix_tag(prefix) if prefix else STORE_TAG
        items: list[SearchItem] = []
        if op.query:
            wanted = op.offset + op.limit
            pushed, complete = _server_filter(op.filter)
            # What the server cannot filter is filtered here, after the search: ask for more.
            count = min(SEARCH_MAX, wanted if complete else wanted * 4)
            try:
                results = yield (
                    "search",
                    (op.query,),
                    {
                        "namespace": mnemo,
                        "limit": max(count, 1),
                        "tags": [scope, INDEXED_TAG],
                        "tags_mode": "all",
                        "metadata": pushed,
                        "min_score": self.min_score,
                    },
                )
            except NotFound:  # a namespace the token may not see holds nothing for it
                return []
            for result in results:
                record = (result.metadata or {}).get(METADATA_KEY)
                if record and _matches(record.get("value") or {}, op.filter):
                    items.append(SearchItem(**self._fields(result), score=result.score))
        else:
            memories = yield from self._memories(namespace=mnemo, tag=scope)
            for memory in memories:
                record = (memory.metadata or {}).get(METADATA_KEY)
                if record and _matches(record.get("value") or {}, op.filter):
                    items.append(SearchItem(**self._fields(memory)))
        return items[op.offset : op.offset + op.limit]

    def _list_namespaces(self, op: ListNamespacesOp) -> Plan:
        default = yield from self._default_namespace()
        memories = yield from self._memories(tag=STORE_TAG)
        found: set[tuple[str, ...]] = set()
        for memory in memories:
            record = (memory.metadata or {}).get(METADATA_KEY) or {}
            namespace = tuple(record.get("namespace") or ())
            if not namespace:
                continue
            # Listed only where get() would find it: a colon label names its Mnemo namespace,
            # anything else lives in this store's default one.
            home = namespace[0] if ":" in namespace[0] else default
            if memory.namespace != home or not _namespace_matches(namespace, op.match_conditions):
                continue
            found.add(namespace[: op.max_depth] if op.max_depth is not None else namespace)
        return sorted(found)[op.offset : op.offset + op.limit]


# --- seed 002's memory learning node -------------------------------------------------------------


def _messages(state: Any) -> list[Any]:
    if isinstance(state, Mapping):
        return list(state.get("messages") or [])
    return list(getattr(state, "messages", None) or [])


def successful_calls(messages: Sequence[Any]) -> list[dict[str, Any]]:
    """The successful tool calls of a run, ``{"name", "arguments"}`` each. A ToolMessage has no
    arguments of its own: they are those of the AIMessage tool call it answers."""
    args_by_call: dict[str, Any] = {}
    for message in messages:
        if isinstance(message, AIMessage):
            for call in message.tool_calls:
                args_by_call[call.get("id") or ""] = call.get("args") or {}
    return [
        {"name": message.name, "arguments": args_by_call.get(message.tool_call_id, {})}
        for message in messages
        if isinstance(message, ToolMessage) and message.status == "success"
    ]


def skill_text(calls: Sequence[Mapping[str, Any]]) -> str:
    """One ``Tool <name> succeeded with args: <JSON, keys sorted>`` line per call: the text
    Mnemo's post-turn hook writes for a subagent's skill."""
    return "\n".join(
        f"Tool {call['name']} succeeded with args: {json.dumps(call['arguments'], sort_keys=True)}" for call in calls
    )


def _learning(state: Any, config: RunnableConfig | None) -> tuple[str, list[dict[str, Any]], str] | None:
    """(agent_name, successful calls, thread) when this run should learn a skill, else None."""
    configurable = (config or {}).get("configurable") or {}
    agent_name = configurable.get("agent_name")
    if not agent_name or "subagent" not in agent_name:  # only subagents learn (seed 002)
        return None
    calls = successful_calls(_messages(state))
    if not calls:
        return None
    return agent_name, calls, str(configurable.get("thread_id") or "langgraph")


def _skill_plan(agent_name: str, calls: list[dict[str, Any]], thread: str) -> Plan:
    """Seed 002: the skill goes to ``agent:<agent_name>``, asynchronously, with metadata
    ``{"type": "skill", "agent": agent_name}``. Mnemo's agent namespaces cannot be squatted: when
    the token may not write the shared one (staff did not create and grant it), the calls go to
    the post-turn hook, which files the same skill in the caller's own ``agent:<name>/<username>``
    exactly as the server does for any agent. Returns where the skill went."""
    namespace = f"agent:{agent_name}"
    try:
        result = yield (
            "add_memory",
            (skill_text(calls),),
            {"namespace": namespace, "metadata": {"type": "skill", "agent": agent_name}, "async_": True},
        )
    except (NotFound, PermissionDenied):
        pass
    else:
        return {"namespace": namespace, "memory_id": result.id, "event_id": result.event_id}
    turn = yield (
        "post_turn",
        (thread, []),
        {"tool_calls": [{**call, "status": "success"} for call in calls], "agent_name": agent_name},
    )
    return turn.skill


def _configured(config: RunnableConfig | None, name: str) -> Any:
    return ((config or {}).get("configurable") or {}).get(name)


def _learn(client: Any, config: RunnableConfig | None, learning: tuple[str, list[dict[str, Any]], str]) -> Any:
    """Run the skill plan on ``client``, else ``configurable["mnemo_client"]``, else a client from
    the environment (closed when done)."""
    client = client if client is not None else _configured(config, "mnemo_client")
    if client is not None:
        return _drive(client, _skill_plan(*learning))
    from mnemo_client import MnemoClient

    with MnemoClient() as own:
        return _drive(own, _skill_plan(*learning))


async def _alearn(client: Any, config: RunnableConfig | None, learning: tuple[str, list[dict[str, Any]], str]) -> Any:
    """``_learn`` on an async client (``configurable["mnemo_async_client"]``, or the environment's)."""
    client = client if client is not None else _configured(config, "mnemo_async_client")
    if client is not None:
        return await _adrive(client, _skill_plan(*learning))
    from mnemo_client import AsyncMnemoClient

    async with AsyncMnemoClient() as own:
        return await _adrive(own, _skill_plan(*learning))


async def memory_learning_node(state: Any, config: RunnableConfig) -> dict:
    """Seed 002's ``memory_learning_node``, ready to add to a graph (an end-of-graph hook).

    For a subagent (``config["configurable"]["agent_name"]`` contains ``subagent``) the successful
    tool calls of the run become one skill memory (``skill_text``) in ``agent:<agent_name>``.
    The client is ``config["configurable"]["mnemo_async_client"]`` or one from ``MNEMO_URL`` /
    ``MNEMO_TOKEN``; ``make_memory_learning_node(client)`` binds one instead. Returns ``{}``."""
    learning = _learning(state, config)
    if learning is not None:
        await _alearn(None, config, learning)
    return {}


def make_memory_learning_node(
    client: MnemoClient | None = None, *, async_client: AsyncMnemoClient | None = None
) -> RunnableLambda:
    """The memory learning node bound to clients, for ``graph.add_node("learn", node)``: it runs in
    ``invoke`` (sync client) and ``ainvoke`` (async client; the sync one in a thread without it).
    Unbound, it takes ``configurable["mnemo_client"]`` / ``["mnemo_async_client"]`` or the environment's."""

    def learn(state: Any, config: RunnableConfig) -> dict:
        learning = _learning(state, config)
        if learning is not None:
            _learn(client, config, learning)
        return {}

    async def alearn(state: Any, config: RunnableConfig) -> dict:
        learning = _learning(state, config)
        if learning is None:
            return {}
        if async_client is None and client is not None:
            await asyncio.to_thread(_learn, client, config, learning)
        else:
            await _alearn(async_client, config, learning)
        return {}

    return RunnableLambda(learn, afunc=alearn, name="memory_learning_node")
