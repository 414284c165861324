"""GENERATED from _operations.py by clients/python/scripts/generate_async.py: do not edit.

The async twin of every operation (see _operations.py for the retry rules).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any, TypeVar

from mnemo_client._core import UNSET, Call, _given, _Unset, compact
from mnemo_client.models import (
    AddMemoryResult,
    Contact,
    ContactMemory,
    ContactMessage,
    ContactNote,
    CorrectResult,
    Event,
    HistoryEvent,
    Identity,
    Memory,
    Namespace,
    Page,
    RememberResult,
    Rule,
    RulesPrompt,
    SearchResult,
    Session,
    Token,
    Tombstone,
    Tool,
    ToolInvocation,
    ToolStatistic,
    TurnResult,
)

T = TypeVar("T")
M = TypeVar("M", Memory, Contact)

_Time = datetime | str


def _search_body(query: str, **values: Any) -> dict[str, Any]:
    """``search`` and ``search_text``'s body (one place, so the two cannot differ)."""
    tags = values.pop("tags", None)
    return compact(query=query, tags=list(tags) if tags is not None else None, **values)


def _page(model: type[M]) -> Any:
    def parse(body: Any) -> Page[M]:
        return Page(
            results=[model.from_dict(item) for item in body.get("results", [])],
            count=int(body.get("count", 0)),
            next=body.get("next"),
            previous=body.get("previous"),
        )

    return parse


def _list(model: Any, key: str | None = None) -> Any:
    def parse(body: Any) -> list[Any]:
        items = body.get(key, []) if key is not None else body
        return [model.from_dict(item) for item in items or []]

    return parse


def _none(body: Any) -> None:
    return None


def _tombstone(body: Any) -> Tombstone:
    return Tombstone.from_dict(body.get("tombstone") or {})


def _search_results(body: Any) -> list[SearchResult]:
    return [SearchResult.from_dict(item) for item in body.get("results") or []]


def _search_text(body: Any) -> str:
    return str(body.get("text", ""))


def _token(body: Any) -> Token:
    return Token.from_dict(body)


def _memory_filters(filters: Mapping[str, Any]) -> dict[str, Any]:
    """``list_memories`` filters: the API's query names (``tags`` given as one tag is ``tag``)."""
    params = dict(filters)
    if "tags" in params and "tag" not in params:
        tags = params.pop("tags")
        params["tag"] = tags[0] if isinstance(tags, list | tuple) and tags else tags
    return {k: v for k, v in params.items() if v is not None}


class AsyncOperations:
    """The API's operations (async); a client supplies ``_send`` (one call, with its retry policy)."""

    async def _send(self, call: Call[T]) -> T:  # pragma: no cover - supplied by the client
        raise NotImplementedError

    # --- operations (generated into _async_operations.py from here) ---

    # memories ----------------------------------------------------------------------------------

    async def whoami(self) -> Identity:
        """Who the token belongs to."""
        return await self._send(Call("whoami", Identity.from_dict))

    async def remember(
        self,
        text: str,
        *,
        tags: Sequence[str] | None = None,
        namespace: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        dedup_policy: str | None = None,
        expires_at: _Time | None = None,
        source_provider: str | None = None,
        importance: float | None = None,
        capture_mode: str | None = None,
        session_id: str | None = None,
        last_confirmed_at: _Time | None = None,
        valid_from: _Time | None = None,
        valid_until: _Time | None = None,
        supersede: str | None = None,
        **extra: Any,
    ) -> RememberResult:
        """Seed 003 ``remember``: store one durable fact, synchronously (never retried).

        ``dedup_policy``: ``insert``, ``skip_if_near`` or ``ask``; ``capture_mode``: ``explicit`` or
        ``inferred``. ``valid_from``/``valid_until``: when the fact holds (``valid_until``
        exclusive; open when not given). ``supersede``: ``report`` (the default: contradicted live
        memories are listed in ``supersedes``) or ``close`` (their validity also ends; see
        docs/time-aware.md). Fields this client does not name yet pass through ``**extra``."""
        body = compact(
            text=text,
            tags=list(tags) if tags is not None else None,
            namespace=namespace,
            metadata=metadata,
            dedup_policy=dedup_policy,
            expires_at=expires_at,
            source_provider=source_provider,
            importance=importance,
            capture_mode=capture_mode,
            session_id=session_id,
            last_confirmed_at=last_confirmed_at,
            valid_from=valid_from,
            valid_until=valid_until,
            supersede=supersede,
            **extra,
        )
        return await self._send(Call("remember", RememberResult.from_dict, body=body))

    async def add_memory(
        self,
        content: str,
        *,
        metadata: Mapping[str, Any] | None = None,
        namespace: str | None = None,
        async_: bool = True,
        valid_from: _Time | None = None,
        valid_until: _Time | None = None,
        **extra: Any,
    ) -> AddMemoryResult:
        """Seed 002 ``add_memory`` (never retried). With ``async_`` (JSON field ``async``) the
        memory is embedded in the background: follow ``event_id`` with ``get_event`` or
        ``wait_for_event``. ``valid_from``/``valid_until`` as for ``remember`` (nothing is superseded)."""
        body = compact(
            content=content,
            metadata=metadata,
            namespace=namespace,
            valid_from=valid_from,
            valid_until=valid_until,
            **extra,
        )
        body["async"] = async_
        return await self._send(Call("add_memory", AddMemoryResult.from_dict, body=body))

    async def get_event(self, event_id: str) -> Event:
        """Where an asynchronous add stands: ``queued``, ``ready`` or ``failed``."""
        return await self._send(Call("get_event", Event.from_dict, path={"event_id": event_id}))

    async def search(
        self,
        query: str,
        *,
        namespace: str | None = None,
        limit: int = 5,
        mode: str | None = None,
        min_score: float | None = None,
        tags: Sequence[str] | None = None,
        tags_mode: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        created_after: _Time | None = None,
        created_before: _Time | None = None,
        as_of: _Time | None = None,
        **extra: Any,
    ) -> list[SearchResult]:
        """Seed 002 ``search_memory``: the best memories first (``mode``: ``hybrid``, ``vector``
        or ``keyword``; ``tags_mode``: ``any`` or ``all``). ``min_score``: leave out weaker results;
        ``None`` is the server's default floor with its answerability check (no result for a
        question about people and things the namespace never heard of), ``0`` the best ``limit``
        whatever they are. ``as_of``: the memories valid at that moment (default: now);
        ``created_after``/``created_before`` filter on when Mnemo stored a memory instead. A read:
        retried when safe."""
        body = _search_body(
            query,
            namespace=namespace,
            limit=limit,
            mode=mode,
            min_score=min_score,
            tags=tags,
            tags_mode=tags_mode,
            metadata=metadata,
            created_after=created_after,
            created_before=created_before,
            as_of=as_of,
            **extra,
        )
        return await self._send(Call("search", _search_results, body=body, idempotent=True))

    async def search_text(
        self,
        query: str,
        *,
        namespace: str | None = None,
        limit: int = 5,
        mode: str | None = None,
        min_score: float | None = None,
        tags: Sequence[str] | None = None,
        tags_mode: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        created_after: _Time | None = None,
        created_before: _Time | None = None,
        as_of: _Time | None = None,
        **extra: Any,
    ) -> str:
        """The search as seed 002's one string: ``"Found the following memories:\\n\\n1. ... (score: 0.87)\\n\\n"``
        or ``"No matching memories found"``. Takes ``search``'s parameters."""
        body = _search_body(
            query,
            namespace=namespace,
            limit=limit,
            mode=mode,
            min_score=min_score,
            tags=tags,
            tags_mode=tags_mode,
            metadata=metadata,
            created_after=created_after,
            created_before=created_before,
            as_of=as_of,
            **extra,
        )
        body["format"] = "text"
        return await self._send(Call("search", _search_text, body=body, idempotent=True))

    async def get_memory(self, memory_id: int) -> Memory:
        return await self._send(Call("get_memory", Memory.from_dict, path={"memory_id": memory_id}))

    async def list_memories(
        self,
        *,
        namespace: str | None = None,
        status: str | None = None,
        tag: str | None = None,
        capture_mode: str | None = None,
        source_provider: str | None = None,
        session_id: str | None = None,
        created_after: _Time | None = None,
        created_before: _Time | None = None,
        include_forgotten: bool | None = None,
        include_expired: bool | None = None,
        limit: int | None = None,
        offset: int | None = None,
        **filters: Any,
    ) -> Page[Memory]:
        """One page of the memories the caller may see, newest first (``iter_memories`` follows every page)."""
        params = _memory_filters(
            dict(
                namespace=namespace,
                status=status,
                tag=tag,
                capture_mode=capture_mode,
                source_provider=source_provider,
                session_id=session_id,
                created_after=created_after,
                created_before=created_before,
                include_forgotten=include_forgotten,
                include_expired=include_expired,
                limit=limit,
                offset=offset,
                **filters,
            )
        )
        return await self._send(Call("list_memories", _page(Memory), params=params))

    async def update_memory(
        self,
        memory_id: int,
        *,
        text: str | _Unset = UNSET,
        tags: Sequence[str] | _Unset = UNSET,
        metadata: Mapping[str, Any] | _Unset = UNSET,
        importance: float | _Unset = UNSET,
        expires_at: _Time | None | _Unset = UNSET,
        valid_from: _Time | None | _Unset = UNSET,
        valid_until: _Time | None | _Unset = UNSET,
        source_provider: str | _Unset = UNSET,
        capture_mode: str | _Unset = UNSET,
        session_id: str | _Unset = UNSET,
        **fields: Any,
    ) -> Memory:
        """Change the given fields of a memory (the others keep their values); new text is
        re-embedded. ``None`` is sent as JSON null: it clears ``expires_at``, ``valid_from`` or
        ``valid_until`` (the interval is checked as the memory would end up). Not retried."""
        body = _given(
            text=text,
            tags=tags if tags is UNSET or tags is None else list(tags),
            metadata=metadata,
            importance=importance,
            expires_at=expires_at,
            valid_from=valid_from,
            valid_until=valid_until,
            source_provider=source_provider,
            capture_mode=capture_mode,
            session_id=session_id,
            **fields,
        )
        return await self._send(Call("update_memory", Memory.from_dict, path={"memory_id": memory_id}, body=body))

    async def delete_memory(self, memory_id: int) -> Tombstone:
        """Delete a memory: out of recall, kept as a tombstone of kind ``deleted``."""
        return await self._send(Call("delete_memory", _tombstone, path={"memory_id": memory_id}))

    async def forget(self, memory_id: int, reason: str | None = None) -> Tombstone:
        """Forget a memory: out of recall, kept as a tombstone with the reason."""
        body = compact(reason=reason)
        return await self._send(Call("forget", _tombstone, path={"memory_id": memory_id}, body=body))

    async def correct(self, memory_id: int, text: str, reason: str | None = None) -> CorrectResult:
        """Replace a memory by a corrected one; the old one becomes a tombstone pointing to it."""
        body = compact(text=text, reason=reason)
        return await self._send(Call("correct", CorrectResult.from_dict, path={"memory_id": memory_id}, body=body))

    async def confirm(self, memory_id: int) -> Memory:
        """The fact still holds: its ``last_confirmed_at`` becomes now."""
        return await self._send(Call("confirm", Memory.from_dict, path={"memory_id": memory_id}))

    async def history(self, memory_id: int) -> list[HistoryEvent]:
        """Every add, update, forget, correct and confirm of a memory, oldest first."""
        return await self._send(Call("history", _list(HistoryEvent, "events"), path={"memory_id": memory_id}))

    async def list_namespaces(self) -> list[Namespace]:
        """The namespaces the caller may read, and whether it may write them."""
        return await self._send(Call("list_namespaces", _list(Namespace)))

    # contacts ----------------------------------------------------------------------------------

    async def list_contacts(self, *, limit: int | None = None, offset: int | None = None) -> Page[Contact]:
        """One page of the contacts the caller may view (``iter_contacts`` follows every page)."""
        params = compact(limit=limit, offset=offset)
        return await self._send(Call("list_contacts", _page(Contact), params=params))

    async def create_contact(
        self,
        name: str,
        *,
        email: str | None = None,
        phone: str | None = None,
        company: str | None = None,
        title: str | None = None,
        address: str | None = None,
        timezone: str | None = None,
        tags: Sequence[str] | None = None,
        custom_fields: Mapping[str, Any] | None = None,
        **extra: Any,
    ) -> Contact:
        """Create a contact (the caller needs the ``contacts.add_contact`` permission). Not retried."""
        body = compact(
            name=name,
            email=email,
            phone=phone,
            company=company,
            title=title,
            address=address,
            timezone=timezone,
            tags=list(tags) if tags is not None else None,
            custom_fields=custom_fields,
            **extra,
        )
        return await self._send(Call("create_contact", Contact.from_dict, body=body))

    async def get_contact(self, contact_id: str) -> Contact:
        return await self._send(Call("get_contact", Contact.from_dict, path={"contact_id": contact_id}))

    async def update_contact(self, contact_id: str, **fields: Any) -> Contact:
        """Change a contact's fields (``name``, ``email``, ``phone``, ``tags``, ...). Not retried."""
        return await self._send(Call("update_contact", Contact.from_dict, path={"contact_id": contact_id}, body=fields))

    async def delete_contact(self, contact_id: str) -> None:
        await self._send(Call("delete_contact", _none, path={"contact_id": contact_id}))

    async def list_contact_notes(self, contact_id: str) -> list[ContactNote]:
        return await self._send(Call("list_contact_notes", _list(ContactNote), path={"contact_id": contact_id}))

    async def add_contact_note(self, contact_id: str, body: str) -> ContactNote:
        """Add a note to a contact (scanned for secrets like every stored text). Not retried."""
        return await self._send(
            Call("add_contact_note", ContactNote.from_dict, path={"contact_id": contact_id}, body={"body": body})
        )

    async def list_contact_messages(self, contact_id: str) -> list[ContactMessage]:
        """The messages sent to and received from a contact (sending one is a tool: ``invoke_tool``)."""
        return await self._send(Call("list_contact_messages", _list(ContactMessage), path={"contact_id": contact_id}))

    async def get_contact_memory(self, contact_id: str) -> ContactMemory:
        """The contact's memory note, as the ``get_contact_memory`` tool answers."""
        return await self._send(Call("get_contact_memory", ContactMemory.from_dict, path={"contact_id": contact_id}))

    async def set_contact_memory(self, contact_id: str, memory_note: str) -> ContactMemory:
        """Replace the contact's memory note (a PUT: retried when safe)."""
        return await self._send(
            Call(
                "set_contact_memory",
                ContactMemory.from_dict,
                path={"contact_id": contact_id},
                body={"memory_note": memory_note},
            )
        )

    # assistant ---------------------------------------------------------------------------------

    async def list_tools(self) -> list[Tool]:
        """The tools registered for the caller, with their input schemas."""
        return await self._send(Call("list_tools", _list(Tool, "tools")))

    async def invoke_tool(self, name: str, arguments: Mapping[str, Any] | None = None) -> ToolInvocation:
        """Run one tool with its arguments (never retried: a tool may write or send a message)."""
        body = {"arguments": dict(arguments or {})}
        return await self._send(Call("invoke_tool", ToolInvocation.from_dict, path={"name": name}, body=body))

    async def session(
        self, *, message: str | None = None, agent_name: str | None = None, session_id: str | None = None
    ) -> Session:
        """Start a session (or resume ``session_id``): tools, system prompt and pinned tool rules.
        ``message`` picks the memories of the prompt's last block. Retried only when resuming."""
        body = compact(message=message, agent_name=agent_name, session_id=session_id)
        return await self._send(Call("session", Session.from_dict, body=body, idempotent=session_id is not None))

    async def post_turn(
        self,
        session_id: str,
        messages: Iterable[Mapping[str, Any]],
        *,
        tool_calls: Iterable[Mapping[str, Any]] | None = None,
        agent_name: str | None = None,
        turn_index: int | None = None,
        **extra: Any,
    ) -> TurnResult:
        """The post-turn hook: ``messages`` are ``{"role", "content"}``, ``tool_calls`` are
        ``{"name", "arguments", "status", "error"}``. Retried when safe: the server keeps each turn
        once (a repeat answers ``replayed=True`` and changes nothing)."""
        body = compact(
            session_id=session_id,
            messages=[dict(m) for m in messages],
            tool_calls=[dict(c) for c in tool_calls] if tool_calls is not None else None,
            agent_name=agent_name,
            turn_index=turn_index,
            **extra,
        )
        return await self._send(Call("post_turn", TurnResult.from_dict, body=body, idempotent=True))

    # tool rules --------------------------------------------------------------------------------

    async def list_rules(self, *, tool_name: str | None = None) -> list[Rule]:
        return await self._send(Call("list_rules", _list(Rule), params=compact(tool_name=tool_name)))

    async def create_rule(
        self,
        tool_name: str,
        rule: str,
        *,
        priority: str | None = None,
        source: str | None = None,
        tags: Sequence[str] | None = None,
        id: str | None = None,
        binds_everyone: bool | None = None,
        **extra: Any,
    ) -> Rule:
        """Create a tool rule, or replace the rule ``id`` (an upsert: retried only with an ``id``).
        ``priority``: ``critical``, ``high`` or ``normal``."""
        body = compact(
            tool_name=tool_name,
            rule=rule,
            priority=priority,
            source=source,
            tags=list(tags) if tags is not None else None,
            id=id,
            binds_everyone=binds_everyone,
            **extra,
        )
        return await self._send(Call("create_rule", Rule.from_dict, body=body, idempotent=id is not None))

    async def get_rule(self, rule_id: str) -> Rule:
        return await self._send(Call("get_rule", Rule.from_dict, path={"rule_id": rule_id}))

    async def update_rule(self, rule_id: str, **fields: Any) -> Rule:
        """Change a rule's ``tool_name``, ``rule``, ``priority``, ``source`` or ``tags`` (a PUT of the
        given fields; the others keep their values)."""
        return await self._send(Call("update_rule", Rule.from_dict, path={"rule_id": rule_id}, body=fields))

    async def delete_rule(self, rule_id: str) -> None:
        await self._send(Call("delete_rule", _none, path={"rule_id": rule_id}))

    async def rules_prompt(self, tools: Sequence[str] | str | None = None) -> RulesPrompt:
        """The Markdown block of tool rules to pin in a prompt (for ``tools``, or all)."""
        names = ",".join(tools) if tools is not None and not isinstance(tools, str) else tools
        return await self._send(Call("rules_prompt", RulesPrompt.from_dict, params=compact(tools=names)))

    async def rule_statistics(self) -> list[ToolStatistic]:
        """The caller's tool statistics (calls, successes, failures, last error per tool)."""
        return await self._send(Call("rule_statistics", _list(ToolStatistic)))

    # tokens ------------------------------------------------------------------------------------

    async def list_tokens(self) -> list[Token]:
        """The caller's live tokens (never their keys)."""
        return await self._send(Call("list_tokens", _list(Token)))

    async def create_token(
        self, name: str, *, expires_at: _Time | None = None, rate_limit_per_minute: int | None = None
    ) -> Token:
        """A new token for the caller; its ``key`` is in this answer only. Not retried."""
        body = compact(name=name, expires_at=expires_at, rate_limit_per_minute=rate_limit_per_minute)
        return await self._send(Call("create_token", _token, body=body))

    async def revoke_token(self, token_id: int) -> None:
        """Revoke a token: it stops working at once, in every server process."""
        await self._send(Call("revoke_token", _none, path={"token_id": token_id}))

    # --- end of operations ---
