"""Typed exceptions for Mnemo's error envelope.

Every error answer of the API has one shape::

    {"ok": false, "error": {"code": "INVALID_INPUT", "message": "...", "details": {...}, "request_id": "..."}}

``raise_for_envelope`` turns it into the subclass of :class:`MnemoError` registered for its code
(an unknown code still raises :class:`MnemoError`, with the code as sent). Failures below HTTP
(refused connection, timeout) raise :class:`TransportError`, also a :class:`MnemoError`, so one
``except MnemoError`` catches everything the client raises about a call.
"""

from __future__ import annotations

import email.utils
import time
from typing import Any

__all__ = [
    "AuthenticationFailed",
    "ConfigurationError",
    "DatabaseError",
    "EmbeddingError",
    "HTTPError",
    "InternalError",
    "InvalidInput",
    "MethodNotAllowed",
    "MnemoError",
    "NotAcceptable",
    "NotFound",
    "PayloadTooLarge",
    "PermissionDenied",
    "RateLimited",
    "RuleViolation",
    "SecretRejected",
    "TransportError",
    "error_class_for",
]


class MnemoError(Exception):
    """An error answered by Mnemo (or met on the way to it).

    ``code`` is the seed's error code (``INVALID_INPUT``, ``SECRET_REJECTED``, ...), ``message``
    the server's one-line explanation, ``details`` its structured details (a validation error's
    per-field messages), ``status_code`` the HTTP status (``None`` for a transport failure) and
    ``request_id`` the id to quote when asking an operator what happened.
    """

    code: str = "ERROR"

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        details: Any = None,
        status_code: int | None = None,
        request_id: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.details = details
        self.status_code = status_code
        self.request_id = request_id

    def __str__(self) -> str:
        status = f" (HTTP {self.status_code})" if self.status_code is not None else ""
        return f"{self.code}{status}: {self.message}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code!r}, message={self.message!r}, status_code={self.status_code!r})"


class InvalidInput(MnemoError):
    """400: the input broke the operation's contract (a bad field, an unknown field, a bad value)."""

    code = "INVALID_INPUT"


class SecretRejected(MnemoError):
    """400: the text carries something that looks like a secret (an API key, a password); nothing was stored."""

    code = "SECRET_REJECTED"


class AuthenticationFailed(MnemoError):
    """401: no token, an unknown, expired or revoked token."""

    code = "UNAUTHENTICATED"


class PermissionDenied(MnemoError):
    """403: the token's user may not do this."""

    code = "PERMISSION_DENIED"


class RuleViolation(MnemoError):
    """403: a critical tool rule forbids this call."""

    code = "RULE_VIOLATION"


class NotFound(MnemoError):
    """404: no such object for this caller (a foreign object answers exactly like a missing one)."""

    code = "NOT_FOUND"


class MethodNotAllowed(MnemoError):
    """405: the route does not take this HTTP method."""

    code = "METHOD_NOT_ALLOWED"


class NotAcceptable(MnemoError):
    """406: the server cannot answer in the format asked for."""

    code = "NOT_ACCEPTABLE"


class PayloadTooLarge(MnemoError):
    """413: the request body is larger than the server's upload limit."""

    code = "PAYLOAD_TOO_LARGE"


class RateLimited(MnemoError):
    """429: the token made its requests of this minute; ``retry_after`` is the wait in seconds."""

    code = "RATE_LIMITED"

    def __init__(self, message: str, *, retry_after: float | None = None, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.retry_after = retry_after


class EmbeddingError(MnemoError):
    """503: the embedding model failed; nothing was changed."""

    code = "EMBEDDING_ERROR"


class DatabaseError(MnemoError):
    """503: the database is unavailable or refused the write; nothing was changed."""

    code = "DATABASE_ERROR"


class InternalError(MnemoError):
    """500: a server error (the server logged it under ``request_id``)."""

    code = "INTERNAL_ERROR"


class HTTPError(MnemoError):
    """An error status without Mnemo's envelope (a proxy's 502 page, say): ``code`` is ``HTTP_<status>``."""

    code = "HTTP_ERROR"


class TransportError(MnemoError):
    """The request did not get an answer: connection refused, reset, timed out (after any retries)."""

    code = "TRANSPORT_ERROR"


class ConfigurationError(MnemoError, ValueError):
    """The client cannot be built as asked (no token given and none in ``MNEMO_TOKEN``)."""

    code = "CONFIGURATION_ERROR"


_BY_CODE: dict[str, type[MnemoError]] = {
    cls.code: cls
    for cls in (
        InvalidInput,
        SecretRejected,
        AuthenticationFailed,
        PermissionDenied,
        RuleViolation,
        NotFound,
        MethodNotAllowed,
        NotAcceptable,
        PayloadTooLarge,
        RateLimited,
        EmbeddingError,
        DatabaseError,
        InternalError,
    )
}


def error_class_for(code: str) -> type[MnemoError]:
    """The exception class of a server error code (``MnemoError`` for a code this client does not know)."""
    return _BY_CODE.get(code, MnemoError)


def parse_retry_after(value: str | None) -> float | None:
    """``Retry-After`` as seconds: either a number of seconds or an HTTP date."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def error_from_response(status_code: int, body: Any, headers: Any) -> MnemoError:
    """The typed exception for an error answer (``body``: its decoded JSON, or ``None``)."""
    retry_after = parse_retry_after(headers.get("retry-after")) if headers is not None else None
    error = body.get("error") if isinstance(body, dict) else None
    if isinstance(error, dict) and isinstance(error.get("code"), str):
        code = error["code"]
        message = str(error.get("message", ""))
        kwargs: dict[str, Any] = {
            "code": code,
            "details": error.get("details"),
            "status_code": status_code,
            "request_id": error.get("request_id"),
        }
        cls = error_class_for(code)
        if cls is RateLimited:
            return RateLimited(message, retry_after=retry_after, **kwargs)
        return cls(message, **kwargs)
    if status_code == 429:
        return RateLimited("Too many requests.", retry_after=retry_after, status_code=status_code)
    message = f"HTTP {status_code} without an error envelope."
    return HTTPError(message, code=f"HTTP_{status_code}", status_code=status_code)
