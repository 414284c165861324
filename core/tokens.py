"""API tokens: making, listing and revoking them (services and selectors; the check of a key on
each request is ``core.authentication``'s).

A key is ``mnemo_`` followed by 43 URL-safe characters (32 random bytes). Only its SHA-256 is
stored: the key itself has 256 random bits, so no dictionary or brute force reaches it from the
digest, and a plain hash (no server pepper) keeps every token valid across a ``SECRET_KEY``
rotation. Its first ``PREFIX_LENGTH`` characters are stored in clear to find the row and to tell
tokens apart in lists; for a key converted from DRF's authtoken (40 hex digits) that leaves 112
secret bits.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from core.errors import InvalidInput
from core.fields import text_problem
from core.models import ApiToken
from core.permissions import restrict
from core.secrets import reject_secrets

KEY_PREFIX = "mnemo_"
PREFIX_LENGTH = 12
#: Longer keys are refused before they are hashed (every key Mnemo made is far shorter).
MAX_KEY_LENGTH = 200
#: Live (not revoked) tokens one user may hold: enough for many agents, bounded all the same.
MAX_LIVE_TOKENS = 100


def token_digest(key: str) -> str:
    """The stored form of ``key``."""
    return hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()


def new_key() -> str:
    return KEY_PREFIX + secrets.token_urlsafe(32)


@dataclass(frozen=True)
class IssuedToken:
    """A new token and its clear-text key: the only moment the key exists outside the caller."""

    token: ApiToken
    key: str


def assign_new_key(token: ApiToken) -> str:
    """Give an unsaved token a new key (its prefix and digest); returns the key."""
    key = new_key()
    token.prefix = key[:PREFIX_LENGTH]
    token.digest = token_digest(key)
    return key


#: The most requests per minute a token's limit may allow, wherever it is set (API, admin, command).
MAX_RATE_LIMIT = 1_000_000
#: A token name's longest (its column's).
NAME_MAX_LENGTH: int = ApiToken._meta.get_field("name").max_length  # type: ignore[assignment]


def check_rate_limit(rate_limit_per_minute: int | None) -> None:
    """A token's limit, wherever it is set or changed: none, or 1 to ``MAX_RATE_LIMIT``."""
    if rate_limit_per_minute is not None and not 1 <= rate_limit_per_minute <= MAX_RATE_LIMIT:
        raise InvalidInput(f"rate_limit_per_minute: must be from 1 to {MAX_RATE_LIMIT:,}, or none.")


def check_new_token(
    *, user: Any, name: str, expires_at: datetime | None, rate_limit_per_minute: int | None = None
) -> None:
    """What a new token must satisfy, wherever it is made (API, admin, commands): INVALID_INPUT
    for a blank or too long name, a past expiry, a limit out of range or a user already holding
    ``MAX_LIVE_TOKENS`` live tokens; SECRET_REJECTED for a name shaped like a secret."""
    if not name.strip():
        raise InvalidInput("name: must not be blank.")
    if len(name.strip()) > NAME_MAX_LENGTH:
        raise InvalidInput(f"name: at most {NAME_MAX_LENGTH} characters.")
    problem = text_problem(name)
    if problem:
        raise InvalidInput(f"name: {problem}.")
    check_rate_limit(rate_limit_per_minute)
    reject_secrets(name=name)
    if expires_at is not None and expires_at <= timezone.now():
        raise InvalidInput("expires_at: must be in the future.")
    if ApiToken.objects.filter(user_id=user.pk, revoked_at__isnull=True).count() >= MAX_LIVE_TOKENS:
        raise InvalidInput(f"A user holds at most {MAX_LIVE_TOKENS} live tokens: revoke one first.")


@transaction.atomic
def issue_token(
    *,
    user: Any,
    name: str,
    expires_at: datetime | None = None,
    rate_limit_per_minute: int | None = None,
    made_with: ApiToken | None = None,
) -> IssuedToken:
    """A new token for ``user`` (checked by ``check_new_token``).

    ``made_with``: the token the request came with. The new token may not reach further than it:
    without an expiry or limit of its own it takes that token's, and asking for a later expiry or
    a higher limit is INVALID_INPUT (an expiring, rate-limited agent cannot mint itself a token
    that is neither)."""
    if made_with is not None and made_with.expires_at is not None:
        if expires_at is None:
            expires_at = made_with.expires_at
        elif expires_at > made_with.expires_at:
            raise InvalidInput("expires_at: may not be later than that of the token this request came with.")
    if made_with is not None and made_with.rate_limit_per_minute is not None:
        if rate_limit_per_minute is None:
            rate_limit_per_minute = made_with.rate_limit_per_minute
        elif rate_limit_per_minute > made_with.rate_limit_per_minute:
            raise InvalidInput(
                "rate_limit_per_minute: may not be higher than that of the token this request came with."
            )
    # The user's row serialises concurrent creations, so that the count of live tokens is exact.
    list(get_user_model()._default_manager.select_for_update().filter(pk=user.pk).values_list("pk", flat=True))
    check_new_token(user=user, name=name, expires_at=expires_at, rate_limit_per_minute=rate_limit_per_minute)
    token = ApiToken(user=user, name=name.strip(), expires_at=expires_at, rate_limit_per_minute=rate_limit_per_minute)
    key = assign_new_key(token)
    token.save()
    return IssuedToken(token=token, key=key)


@transaction.atomic
def revoke_token(*, token: ApiToken) -> ApiToken:
    """Revoke ``token`` (again: nothing changes). It stops working in every process at once: its
    save moves the access version (``core.authentication``)."""
    locked = ApiToken.objects.select_for_update().get(pk=token.pk)
    if locked.revoked_at is None:
        locked.revoked_at = timezone.now()
        locked.save(update_fields=["revoked_at"])
    return locked


def tokens_of(*, user: Any) -> QuerySet[ApiToken]:
    """The caller's own live tokens (expired ones included: they say when they ran out), newest
    first. Revoked tokens are gone for their owner; staff still see them in the admin."""
    return restrict(ApiToken, user, "view").filter(user_id=user.pk, revoked_at__isnull=True)
