"""``MnemoClient`` (sync) and ``AsyncMnemoClient`` (async): the transport, retries and helpers
around the operations of ``_operations.py``."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator
from types import TracebackType
from typing import Any, Self, TypeVar

import httpx2 as httpx

from mnemo_client._async_operations import AsyncOperations
from mnemo_client._core import RETRY_STATUSES, Call, RetryPolicy, answer, default_headers, page_params, resolve_config
from mnemo_client._operations import SyncOperations
from mnemo_client.errors import MnemoError, TransportError
from mnemo_client.models import Contact, Event, Memory

T = TypeVar("T")

__all__ = ["AsyncMnemoClient", "MnemoClient"]

_PENDING = "queued"


class _Settings:
    def __init__(
        self,
        base_url: str | None,
        token: str | None,
        *,
        timeout: float,
        max_retries: int,
        backoff: float,
        max_backoff: float,
    ) -> None:
        self.base_url, token = resolve_config(base_url, token)
        self.headers = default_headers(token)
        self.timeout = timeout
        self.retry = RetryPolicy(max_retries=max(0, max_retries), backoff=backoff, max_backoff=max_backoff)

    def attempts(self, call: Call[Any]) -> int:
        return self.retry.max_retries + 1 if call.retryable else 1

    def http_kwargs(self, transport: Any) -> dict[str, Any]:
        """The arguments of the httpx2 client (sync or async) that carries the calls."""
        return {"base_url": self.base_url, "headers": self.headers, "timeout": self.timeout, "transport": transport}

    def wait_before_retry(self, attempt: int, attempts: int, response: httpx.Response | None) -> float | None:
        """Seconds to wait before trying again after try ``attempt`` (0-based) of ``attempts``
        answered ``response`` (None: a connection error), or None when that answer is final."""
        if attempt + 1 >= attempts:
            return None
        if response is None:
            return self.retry.delay(attempt, None) or 0.0
        return self.retry.delay(attempt, response) if response.status_code in RETRY_STATUSES else None


def _transport_error(call: Call[Any], exc: Exception) -> TransportError:
    return TransportError(f"{call.method} {call.url} got no answer: {type(exc).__name__}: {exc}")


class MnemoClient(SyncOperations):
    """A synchronous client for Mnemo's HTTP API.

    ``base_url`` defaults to ``MNEMO_URL`` (else ``http://127.0.0.1:8000``), ``token`` to
    ``MNEMO_TOKEN`` (a :class:`~mnemo_client.errors.ConfigurationError` when neither is set).
    Calls that are safe to repeat are retried up to ``max_retries`` times on a connection error,
    429, 502, 503 or 504, with exponential backoff and jitter (``Retry-After`` is honoured);
    others never are (see the module ``mnemo_client._operations``). ``transport`` is an httpx2
    transport, for tests and special networks.
    """

    def __init__(
        self,
        base_url: str | None = None,
        token: str | None = None,
        *,
        timeout: float = 30.0,
        max_retries: int = 3,
        backoff: float = 0.5,
        max_backoff: float = 8.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self._settings = _Settings(
            base_url, token, timeout=timeout, max_retries=max_retries, backoff=backoff, max_backoff=max_backoff
        )
        self._http = httpx.Client(**self._settings.http_kwargs(transport))

    @property
    def base_url(self) -> str:
        return self._settings.base_url

    def _send(self, call: Call[T]) -> T:
        attempts = self._settings.attempts(call)
        kwargs = call.request_kwargs()
        for attempt in range(attempts):
            try:
                response = self._http.request(call.method, call.url, **kwargs)
            except httpx.TransportError as exc:
                wait = self._settings.wait_before_retry(attempt, attempts, None)
                if wait is None:
                    raise _transport_error(call, exc) from exc
                time.sleep(wait)
                continue
            wait = self._settings.wait_before_retry(attempt, attempts, response)
            if wait is None:
                return answer(response, call)
            time.sleep(wait)
        raise AssertionError("unreachable")  # pragma: no cover

    # --- helpers built on the operations ---

    def iter_memories(self, **filters: Any) -> Iterator[Memory]:
        """Every memory ``list_memories(**filters)`` would list, page after page."""
        page = self.list_memories(**filters)
        while True:
            yield from page.results
            params = page_params(page.next)
            if params is None:
                return
            page = self.list_memories(**{**filters, **params})

    def iter_contacts(self) -> Iterator[Contact]:
        """Every contact the caller may view, page after page."""
        page = self.list_contacts()
        while True:
            yield from page.results
            params = page_params(page.next)
            if params is None:
                return
            page = self.list_contacts(limit=int(params.get("limit", 50)), offset=int(params.get("offset", 0)))

    def wait_for_event(self, event_id: str, *, timeout: float = 30.0, interval: float = 0.2) -> Event:
        """Poll ``get_event`` until the add is no longer queued (``ready`` or ``failed``); a
        :class:`MnemoError` with code ``TIMEOUT`` when it still is after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            event = self.get_event(event_id)
            if event.status != _PENDING:
                return event
            if time.monotonic() >= deadline:
                raise MnemoError(f"Event {event_id} is still {event.status} after {timeout} s.", code="TIMEOUT")
            time.sleep(interval)

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


class AsyncMnemoClient(AsyncOperations):
    """The asynchronous twin of :class:`MnemoClient`: the same methods, awaited."""

    def __init__(
        self,
        base_url: str | None = None,
        token: str | None = None,
        *,
        timeout: float = 30.0,
        max_retries: int = 3,
        backoff: float = 0.5,
        max_backoff: float = 8.0,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self._settings = _Settings(
            base_url, token, timeout=timeout, max_retries=max_retries, backoff=backoff, max_backoff=max_backoff
        )
        self._http = httpx.AsyncClient(**self._settings.http_kwargs(transport))

    @property
    def base_url(self) -> str:
        return self._settings.base_url

    async def _send(self, call: Call[T]) -> T:
        attempts = self._settings.attempts(call)
        kwargs = call.request_kwargs()
        for attempt in range(attempts):
            try:
                response = await self._http.request(call.method, call.url, **kwargs)
            except httpx.TransportError as exc:
                wait = self._settings.wait_before_retry(attempt, attempts, None)
                if wait is None:
                    raise _transport_error(call, exc) from exc
                await asyncio.sleep(wait)
                continue
            wait = self._settings.wait_before_retry(attempt, attempts, response)
            if wait is None:
                return answer(response, call)
            await asyncio.sleep(wait)
        raise AssertionError("unreachable")  # pragma: no cover

    async def iter_memories(self, **filters: Any) -> AsyncIterator[Memory]:
        """Every memory ``list_memories(**filters)`` would list, page after page."""
        page = await self.list_memories(**filters)
        while True:
            for memory in page.results:
                yield memory
            params = page_params(page.next)
            if params is None:
                return
            page = await self.list_memories(**{**filters, **params})

    async def iter_contacts(self) -> AsyncIterator[Contact]:
        """Every contact the caller may view, page after page."""
        page = await self.list_contacts()
        while True:
            for contact in page.results:
                yield contact
            params = page_params(page.next)
            if params is None:
                return
            page = await self.list_contacts(limit=int(params.get("limit", 50)), offset=int(params.get("offset", 0)))

    async def wait_for_event(self, event_id: str, *, timeout: float = 30.0, interval: float = 0.2) -> Event:
        """Poll ``get_event`` until the add is no longer queued (``ready`` or ``failed``)."""
        deadline = time.monotonic() + timeout
        while True:
            event = await self.get_event(event_id)
            if event.status != _PENDING:
                return event
            if time.monotonic() >= deadline:
                raise MnemoError(f"Event {event_id} is still {event.status} after {timeout} s.", code="TIMEOUT")
            await asyncio.sleep(interval)

    async def close(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()
