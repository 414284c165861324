"""LangChain tools on Mnemo: seed 002's ``add_memory`` and ``search_memory``, seed 003's
``remember`` and seed 000's ``get_contact_memory``, sync and async.

Install the ``[langchain]`` extra (``pip install "./clients/python[langchain]"`` from a checkout)::

    from mnemo_client import MnemoClient
    from mnemo_client.langchain import mnemo_tools

    tools = mnemo_tools(MnemoClient())  # MNEMO_URL / MNEMO_TOKEN from the environment
    add_memory, search_memory, remember, get_contact_memory = tools

As in seed 002 the user comes from the run's config, ``config["metadata"]["user_id"]``, never
from the model: the ``config`` parameter is injected by LangChain and is not in the JSON schema
the model sees. A user id is a Mnemo namespace: ``user:abc`` and ``agent:gmail_subagent`` are
used as they are, a bare ``abc`` means ``user:abc``. The token decides what may be read or
written there (Mnemo's permission layer): a namespace it may not use fails the call like a
missing one.

A failure Mnemo reports (``SECRET_REJECTED``, ``NOT_FOUND``, ``INVALID_INPUT``...) is raised as
a ``ToolException`` whose text is the code and message; the tools handle it, so the model reads
``"SECRET_REJECTED (HTTP 422): ..."`` in a ToolMessage of status ``error`` (and seed 002's
memory learning node, which learns from successful calls only, leaves it out).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from dataclasses import asdict, is_dataclass
from typing import TYPE_CHECKING, Annotated, Any

from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool, StructuredTool, ToolException

from mnemo_client.errors import MnemoError

if TYPE_CHECKING:
    from mnemo_client.client import AsyncMnemoClient, MnemoClient

__all__ = ["MISSING_USER", "mnemo_tools", "namespace_for_user"]

#: Seed 002's answer when the run's config names no user.
MISSING_USER = "Error: User ID is required but not found in configuration"

ADD_MEMORY = """Store a memory for the user: a preference, a contact, an id, a fact about their work.
Write it as one specific, self-contained sentence ("User prefers meetings in the afternoon")."""
SEARCH_MEMORY = """Search the user's memories by meaning. Returns the best matches, most relevant first,
each with its relevance score, or "No matching memories found"."""
REMEMBER = """Store a single durable fact (synchronously), with optional tags, provenance and expiry.
Texts shaped like secrets (API keys, tokens, private keys) are refused."""
GET_CONTACT_MEMORY = """Load a contact's saved memory note (preferences, history, context) before drafting a
message to the contact or analysing them. Read-only."""


def namespace_for_user(user_id: str) -> str:
    """The Mnemo namespace of a seed 002 user id: ``user:abc`` / ``agent:x`` as they are, ``abc`` → ``user:abc``."""
    user_id = str(user_id).strip()
    return user_id if ":" in user_id else f"user:{user_id}"


def _user_namespace(config: RunnableConfig | None) -> str | None:
    user_id = ((config or {}).get("metadata") or {}).get("user_id")
    return namespace_for_user(user_id) if user_id else None


def _plain(value: Any) -> Any:
    """A client result as JSON-ready data (``raw`` is the object as the server sent it)."""
    raw = getattr(value, "raw", None)
    if isinstance(raw, dict) and raw:
        return raw
    if is_dataclass(value) and not isinstance(value, type):
        return {k: v for k, v in asdict(value).items() if k not in ("raw", "extra")}
    return value


def _json(value: Any) -> str:
    return json.dumps(_plain(value), ensure_ascii=False, default=str)


class _Tools:
    """The four tools' bodies, bound to a sync client and (optionally) an async one."""

    def __init__(self, client: Any, async_client: Any, *, async_mode: bool, limit_max: int) -> None:
        self.client = client
        self.async_client = async_client
        self.async_mode = async_mode
        self.limit_max = limit_max

    async def _acall(self, method: str, *args: Any, **kwargs: Any) -> Any:
        try:
            if self.async_client is not None:
                return await getattr(self.async_client, method)(*args, **kwargs)
            return await asyncio.to_thread(getattr(self.client, method), *args, **kwargs)
        except MnemoError as exc:
            raise ToolException(str(exc)) from exc

    def _call(self, method: str, *args: Any, **kwargs: Any) -> Any:
        if self.client is None:
            raise ToolException("These Mnemo tools were built with an async client only: call them with ainvoke.")
        try:
            return getattr(self.client, method)(*args, **kwargs)
        except MnemoError as exc:
            raise ToolException(str(exc)) from exc

    # add_memory (seed 002) --------------------------------------------------------------------

    def _add_args(self, content: str, metadata: dict | None, config: RunnableConfig) -> dict[str, Any] | None:
        namespace = _user_namespace(config)
        if namespace is None:
            return None
        return {"metadata": metadata or {}, "namespace": namespace, "async_": self.async_mode}

    @staticmethod
    def _added(result: Any) -> str:
        if not result:
            return "Failed to store memory"
        if result.status == "queued" and result.event_id:
            return f"Memory queued for processing (Event ID: {result.event_id}, Status: {result.status})"
        return f"Memory stored successfully with ID: {result.id}"

    def add_memory(
        self,
        config: RunnableConfig,
        content: Annotated[str, "Memory content to store"],
        metadata: Annotated[dict | None, "Additional metadata"] = None,
    ) -> str:
        kwargs = self._add_args(content, metadata, config)
        if kwargs is None:
            return MISSING_USER
        return self._added(self._call("add_memory", content, **kwargs))

    async def aadd_memory(
        self,
        config: RunnableConfig,
        content: Annotated[str, "Memory content to store"],
        metadata: Annotated[dict | None, "Additional metadata"] = None,
    ) -> str:
        kwargs = self._add_args(content, metadata, config)
        if kwargs is None:
            return MISSING_USER
        return self._added(await self._acall("add_memory", content, **kwargs))

    # search_memory (seed 002) -----------------------------------------------------------------

    def _limit(self, limit: int) -> int:
        # Mnemo answers at most 100 results; a model asking for more gets the most there is.
        return max(1, min(int(limit), self.limit_max))

    def search_memory(
        self,
        config: RunnableConfig,
        query: Annotated[str, "Query string to search for"],
        limit: Annotated[int, "Maximum number of results to return"] = 5,
    ) -> str:
        namespace = _user_namespace(config)
        if namespace is None:
            return MISSING_USER
        # The server renders seed 002's string ("Found the following memories: ..."), the same
        # one its own search_memory tool answers.
        return self._call("search_text", query, namespace=namespace, limit=self._limit(limit))

    async def asearch_memory(
        self,
        config: RunnableConfig,
        query: Annotated[str, "Query string to search for"],
        limit: Annotated[int, "Maximum number of results to return"] = 5,
    ) -> str:
        namespace = _user_namespace(config)
        if namespace is None:
            return MISSING_USER
        return await self._acall("search_text", query, namespace=namespace, limit=self._limit(limit))

    # remember (seed 003) ----------------------------------------------------------------------

    @staticmethod
    def _remember_args(config: RunnableConfig, fields: Mapping[str, Any]) -> dict[str, Any]:
        kwargs = {name: value for name, value in fields.items() if value is not None}
        # Seed 003 names no user: the run's user when the config has one, else the token's own namespace.
        namespace = _user_namespace(config)
        if namespace is not None:
            kwargs["namespace"] = namespace
        return kwargs

    def remember(
        self,
        config: RunnableConfig,
        text: Annotated[str, "The fact to remember (up to MAX_TEXT_CHARS characters, 16000 by default)"],
        tags: Annotated[list[str] | None, "Tags; normalized to lowercase canonical forms"] = None,
        source_provider: Annotated[str | None, "Name of the LLM or client that produced this memory"] = None,
        importance: Annotated[float | None, "0-1, default 0.5"] = None,
        capture_mode: Annotated[str | None, '"explicit" (the user asked) or "inferred" (you decided)'] = None,
        session_id: Annotated[str | None, "Opaque conversation identifier, stored as-is"] = None,
        dedup_policy: Annotated[str | None, '"insert", "skip_if_near" or "ask" (default)'] = None,
        expires_at: Annotated[str | None, "ISO 8601: recall excludes the memory after this date"] = None,
        last_confirmed_at: Annotated[str | None, "ISO 8601: when the fact was last verified as true"] = None,
    ) -> str:
        fields = dict(locals())
        del fields["self"], fields["config"], fields["text"]
        return _json(self._call("remember", text, **self._remember_args(config, fields)))

    async def aremember(
        self,
        config: RunnableConfig,
        text: Annotated[str, "The fact to remember (up to MAX_TEXT_CHARS characters, 16000 by default)"],
        tags: Annotated[list[str] | None, "Tags; normalized to lowercase canonical forms"] = None,
        source_provider: Annotated[str | None, "Name of the LLM or client that produced this memory"] = None,
        importance: Annotated[float | None, "0-1, default 0.5"] = None,
        capture_mode: Annotated[str | None, '"explicit" (the user asked) or "inferred" (you decided)'] = None,
        session_id: Annotated[str | None, "Opaque conversation identifier, stored as-is"] = None,
        dedup_policy: Annotated[str | None, '"insert", "skip_if_near" or "ask" (default)'] = None,
        expires_at: Annotated[str | None, "ISO 8601: recall excludes the memory after this date"] = None,
        last_confirmed_at: Annotated[str | None, "ISO 8601: when the fact was last verified as true"] = None,
    ) -> str:
        fields = dict(locals())
        del fields["self"], fields["config"], fields["text"]
        return _json(await self._acall("remember", text, **self._remember_args(config, fields)))

    # get_contact_memory (seed 000) ------------------------------------------------------------

    def get_contact_memory(self, contact_id: Annotated[str, "uuid — the contact whose memory to retrieve"]) -> str:
        return _json(self._call("get_contact_memory", contact_id))

    async def aget_contact_memory(
        self, contact_id: Annotated[str, "uuid — the contact whose memory to retrieve"]
    ) -> str:
        return _json(await self._acall("get_contact_memory", contact_id))


def _tool(name: str, description: str, func: Any, coroutine: Any) -> StructuredTool:
    return StructuredTool.from_function(
        func=func,
        coroutine=coroutine,
        name=name,
        description=description,
        # A ToolException becomes the tool's answer (status "error"), not a crashed run.
        handle_tool_error=True,
    )


def mnemo_tools(
    client: MnemoClient | None = None,
    *,
    async_client: AsyncMnemoClient | None = None,
    async_mode: bool = True,
    contacts: bool | None = None,
) -> list[BaseTool]:
    """``[add_memory, search_memory, remember, get_contact_memory]`` as LangChain tools.

    ``client``: a ``MnemoClient`` (``invoke``); ``async_client``: an ``AsyncMnemoClient``
    (``ainvoke``; without one the sync client runs in a thread). With neither, a ``MnemoClient``
    from ``MNEMO_URL`` / ``MNEMO_TOKEN``. ``async_mode``: ``add_memory`` queues the memory and
    answers with its event id (seed 002's default) or, ``False``, stores it before answering.
    ``contacts``: include ``get_contact_memory``; ``None`` (default) asks Mnemo, which registers
    it only for a token that may view contacts and their notes (seed 000's gate).
    """
    if client is None and async_client is None:
        from mnemo_client import MnemoClient

        client = MnemoClient()
    body = _Tools(client, async_client, async_mode=async_mode, limit_max=100)
    tools: list[BaseTool] = [
        _tool("add_memory", ADD_MEMORY, body.add_memory, body.aadd_memory),
        _tool("search_memory", SEARCH_MEMORY, body.search_memory, body.asearch_memory),
        _tool("remember", REMEMBER, body.remember, body.aremember),
    ]
    if contacts is None:
        if client is None:
            raise ValueError("contacts=None asks Mnemo which tools the token has: pass a sync client, or contacts=.")
        contacts = any(tool.name == "get_contact_memory" for tool in client.list_tools())
    if contacts:
        tools.append(_tool("get_contact_memory", GET_CONTACT_MEMORY, body.get_contact_memory, body.aget_contact_memory))
    return tools
