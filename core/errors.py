"""Domain errors and the one place that turns every API error into Mnemo's error envelope.

Every error answer has the same shape: ``{"ok": false, "error": {"code": "...", "message": "..."}}``
with the seeds' codes (INVALID_INPUT, SECRET_REJECTED, EMBEDDING_ERROR, DATABASE_ERROR, ...).
Services raise the domain errors below; views never build error bodies themselves.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, RequestDataTooBig, SuspiciousOperation
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DatabaseError
from django.http import Http404, HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
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


class PayloadTooLarge(MnemoError):
    code = "PAYLOAD_TOO_LARGE"
    http_status = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE


class RateLimited(MnemoError):
    """The caller's token made its requests of this minute (``retry_after``: seconds to wait)."""

    code = "RATE_LIMITED"
    http_status = status.HTTP_429_TOO_MANY_REQUESTS

    def __init__(self, message: str, *, retry_after: int, details: Any = None) -> None:
        super().__init__(message, details=details)
        self.retry_after = retry_after


def _printable(value: Any) -> Any:
    """Error details echo the input: lone surrogates in it would make the answer itself fail to
    encode (a 500). They are shown as U+FFFD. Walks with a stack, whatever the depth."""
    if isinstance(value, str):
        return value.encode("utf-8", "replace").decode("utf-8")
    if not isinstance(value, dict | list):
        return value
    root: Any = {} if isinstance(value, dict) else []
    stack: list[tuple[Any, Any]] = [(value, root)]
    while stack:
        source, target = stack.pop()
        pairs = source.items() if isinstance(source, dict) else enumerate(source)
        for key, item in pairs:
            if isinstance(item, dict | list):
                copy: Any = {} if isinstance(item, dict) else []
                stack.append((item, copy))
                item = copy
            elif isinstance(item, str):
                item = item.encode("utf-8", "replace").decode("utf-8")
            if isinstance(target, dict):
                target[_printable(str(key))] = item
            else:
                target.append(item)
    return root


def error_body(code: str, message: str, details: Any = None) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": _printable(message)}
    if details is not None:
        error["details"] = _printable(details)
    # The request's id (also in X-Request-ID and in every log line of the request), so a caller
    # can quote it and ops can find what happened.
    rid = request_id.get()
    if rid is not None and settings.MNEMO_ERROR_REQUEST_ID:
        error["request_id"] = rid
    return {"ok": False, "error": error}


def first_message(detail: Any) -> str:
    """A one-line human message out of DRF's nested validation detail (iterative: details of a
    deep input are deep too)."""
    prefix: list[str] = []
    for _ in range(50):
        if isinstance(detail, dict) and detail:
            field, detail = next(iter(detail.items()))
            if field != "non_field_errors":
                prefix.append(str(field))
        elif isinstance(detail, list) and detail:
            detail = detail[0]
        else:
            break
    message = str(detail)
    return f"{'.'.join(prefix)}: {message}" if prefix else message


_first_message = first_message


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
    (drf_exceptions.Throttled, "RATE_LIMITED"),
]


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's EXCEPTION_HANDLER: domain errors, DRF errors and database failures, one shape."""
    if isinstance(exc, MnemoError):
        headers = {"Retry-After": str(exc.retry_after)} if isinstance(exc, RateLimited) else None
        return Response(error_body(exc.code, exc.message, exc.details), status=exc.http_status, headers=headers)
    if isinstance(exc, RequestDataTooBig):
        exc = PayloadTooLarge(f"The request body is larger than the limit of {_upload_limit()} bytes.")
        return Response(error_body(exc.code, exc.message), status=exc.http_status)
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
    response.data = error_body(code, first_message(detail), details)
    return response


def _upload_limit() -> int:
    from django.conf import settings

    return int(settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 0)


@csrf_exempt
def json_not_found(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    """handler404 and the /api/ catch-all: unknown routes answer JSON, never an HTML page, with
    any method (CSRF-exempt: a POST to an unknown route is a 404, not a CSRF failure page)."""
    return JsonResponse(error_body("NOT_FOUND", f"No route for {request.path}."), status=404)


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith(("/api/", "/rpc"))


def json_bad_request(request: HttpRequest, exception: Exception | None = None) -> Any:
    """handler400: under /api/ and /rpc, the envelope (413 for a body over the upload limit);
    elsewhere (the admin) Django's own page."""
    if not _is_api(request):
        from django.views.defaults import bad_request

        return bad_request(request, exception)  # type: ignore[arg-type]
    if isinstance(exception, RequestDataTooBig):
        message = f"The request body is larger than the limit of {_upload_limit()} bytes."
        return JsonResponse(error_body("PAYLOAD_TOO_LARGE", message), status=413)
    message = str(exception) if isinstance(exception, SuspiciousOperation) else "Bad request."
    return JsonResponse(error_body("INVALID_INPUT", message), status=400)


def json_permission_denied(request: HttpRequest, exception: Exception | None = None) -> Any:
    """handler403 and CSRF failures: JSON under /api/ and /rpc, Django's page elsewhere."""
    if not _is_api(request):
        from django.views.defaults import permission_denied

        return permission_denied(request, exception)  # type: ignore[arg-type]
    return JsonResponse(error_body("PERMISSION_DENIED", "Permission denied."), status=403)


def csrf_failure(request: HttpRequest, reason: str = "") -> Any:
    """CSRF_FAILURE_VIEW: the envelope under /api/ and /rpc (session-authenticated writes without
    a CSRF token), Django's page elsewhere."""
    if not _is_api(request):
        from django.views.csrf import csrf_failure as default

        return default(request, reason)
    return JsonResponse(error_body("PERMISSION_DENIED", f"CSRF check failed: {reason}"), status=403)


def json_server_error(request: HttpRequest) -> JsonResponse:
    return JsonResponse(error_body("INTERNAL_ERROR", "Internal server error."), status=500)
