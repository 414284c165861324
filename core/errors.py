"""Domain errors and the one place that turns every API error into Mnemo's error envelope.

Every error answer has the same shape: ``{"ok": false, "error": {"code": "...", "message": "..."}}``
with the seeds' codes (INVALID_INPUT, SECRET_REJECTED, EMBEDDING_ERROR, DATABASE_ERROR, ...).
Services raise the domain errors below; views never build error bodies themselves.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DatabaseError
from django.http import Http404, HttpRequest, JsonResponse
from rest_framework import exceptions as drf_exceptions
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from core.observability import request_id

logger = logging.getLogger(__name__)


class MnemoError(Exception):
    """A domain error with a seed error code and an HTTP status."""

    code: str = "INTERNAL_ERROR"
    http_status: int = status.HTTP_500_INTERNAL_SERVER_ERROR

    def __init__(self, message: str, *, details: Any = None) -> None:
        super().__init__(message)
        self.message = message
        self.details = details


class InvalidInput(MnemoError):
    code = "INVALID_INPUT"
    http_status = status.HTTP_400_BAD_REQUEST


class SecretRejected(MnemoError):
    code = "SECRET_REJECTED"
    http_status = status.HTTP_400_BAD_REQUEST


class EmbeddingError(MnemoError):
    code = "EMBEDDING_ERROR"
    http_status = status.HTTP_503_SERVICE_UNAVAILABLE


class DatabaseUnavailable(MnemoError):
    code = "DATABASE_ERROR"
    http_status = status.HTTP_503_SERVICE_UNAVAILABLE


class NotFound(MnemoError):
    code = "NOT_FOUND"
    http_status = status.HTTP_404_NOT_FOUND


class Forbidden(MnemoError):
    code = "PERMISSION_DENIED"
    http_status = status.HTTP_403_FORBIDDEN


class RuleViolation(MnemoError):
    """A critical tool rule forbids this call (seed 004's hard constraints, enforced)."""

    code = "RULE_VIOLATION"
    http_status = status.HTTP_403_FORBIDDEN


def error_body(code: str, message: str, details: Any = None) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": message}
    if details is not None:
        error["details"] = details
    # The request's id (also in X-Request-ID and in every log line of the request), so a caller
    # can quote it and ops can find what happened.
    rid = request_id.get()
    if rid is not None and settings.MNEMO_ERROR_REQUEST_ID:
        error["request_id"] = rid
    return {"ok": False, "error": error}


def _first_message(detail: Any) -> str:
    """A one-line human message out of DRF's nested validation detail."""
    if isinstance(detail, dict):
        for field, value in detail.items():
            inner = _first_message(value)
            return inner if field == "non_field_errors" else f"{field}: {inner}"
    if isinstance(detail, list) and detail:
        return _first_message(detail[0])
    return str(detail)


_DRF_CODES: list[tuple[type[Exception], str]] = [
    (drf_exceptions.ValidationError, "INVALID_INPUT"),
    (drf_exceptions.ParseError, "INVALID_INPUT"),
    (drf_exceptions.UnsupportedMediaType, "INVALID_INPUT"),
    (drf_exceptions.NotAuthenticated, "UNAUTHENTICATED"),
    (drf_exceptions.AuthenticationFailed, "UNAUTHENTICATED"),
    (drf_exceptions.PermissionDenied, "PERMISSION_DENIED"),
    (drf_exceptions.NotFound, "NOT_FOUND"),
    (drf_exceptions.MethodNotAllowed, "METHOD_NOT_ALLOWED"),
    (drf_exceptions.NotAcceptable, "NOT_ACCEPTABLE"),
    (drf_exceptions.Throttled, "THROTTLED"),
]


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's EXCEPTION_HANDLER: domain errors, DRF errors and database failures, one shape."""
    if isinstance(exc, MnemoError):
        return Response(error_body(exc.code, exc.message, exc.details), status=exc.http_status)
    if isinstance(exc, DjangoValidationError):
        exc = drf_exceptions.ValidationError(detail=exc.messages)
    if isinstance(exc, DatabaseError):
        logger.exception("database error in %s", context.get("view"))
        return Response(
            error_body("DATABASE_ERROR", "The database is unavailable or refused the write; nothing was changed."),
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
        )
    if isinstance(exc, Http404):
        exc = drf_exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = drf_exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    code = next((c for cls, c in _DRF_CODES if isinstance(exc, cls)), "ERROR")
    detail = getattr(exc, "detail", str(exc))
    details = detail if isinstance(exc, drf_exceptions.ValidationError) else None
    response.data = error_body(code, _first_message(detail), details)
    return response


def json_not_found(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    """handler404 and the /api/ catch-all: unknown routes answer JSON, never an HTML page."""
    return JsonResponse(error_body("NOT_FOUND", f"No route for {request.path}."), status=404)


def json_server_error(request: HttpRequest) -> JsonResponse:
    return JsonResponse(error_body("INTERNAL_ERROR", "Internal server error."), status=500)
