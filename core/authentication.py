"""The one check of an API key, for every entrance: REST (``ApiTokenAuthentication``), the
gateway tools (REST), JSON-RPC at /rpc, MCP over HTTP and ``mcp_stdio --token`` all call
``authenticate_key``.

A key is found by its prefix and accepted when its SHA-256 equals the stored digest (compared in
constant time), the token is neither revoked nor expired and its user is active. A token with a
rate limit counts each request in its own row (one UPDATE, the same counter for every process);
over the limit the request is refused with RATE_LIMITED (429, ``Retry-After``).

**Caching, and why a revocation still applies at once everywhere.** Looking the token and its
user up costs a query and a model load per request, so each process keeps a checked token, its
user (with the permissions Django and guardian cached on it) for ``MNEMO_TOKEN_CACHE_SECONDS``.
What keeps that honest is the access version (``core.models.AccessVersion``): every change of who
may do what (object and model permissions, group membership and group permissions, a user saved
or deleted, a token changed, revoked or deleted) moves it, after its transaction commits, through
the signal receivers below. Each request reads the version first (one indexed one-row read) and
uses only cache entries loaded under that same version: a change committed in any process is seen
by the next request of every process. The process that makes a change also drops its own caches
at once. Writes that bypass Django's signals (raw SQL, ``QuerySet.update`` of users) are seen
within ``MNEMO_TOKEN_CACHE_SECONDS``; ``access_changed()`` announces one by hand.

``last_used_at`` is written at most once a minute per token (the UPDATE only matches an older
value; each process also remembers when it last wrote it), never once per request.
"""

from __future__ import annotations

import hmac
import threading
import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import connections, transaction
from django.utils import timezone
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

#: How often (seconds) a token's ``last_used_at`` is written at most.
LAST_USED_EVERY = 60
_MAX_ENTRIES = 10_000


@dataclass
class _Entry:
    """A checked token as one process remembers it."""

    token: Any
    user: Any
    version: int  # the access version read before the token was loaded
    loaded: float  # time.monotonic() of the load
    touched: float  # time.monotonic() when last_used_at was last known to be fresh
    expires: float | None  # expires_at as a POSIX timestamp


_cache: dict[str, _Entry] = {}
_lock = threading.Lock()
_seen_version: int | None = None


class ApiTokenAuthentication(TokenAuthentication):
    """DRF's ``Authorization: Token <key>`` header, checked by ``authenticate_key``."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        from core.errors import RateLimited  # not at import: core.errors loads DRF, DRF loads this class

        try:
            return authenticate_key(key)
        except RateLimited as exc:
            # DRF handles only its own exceptions during authentication; Throttled carries the
            # wait into Retry-After, and core.errors answers it as RATE_LIMITED.
            raise exceptions.Throttled(wait=exc.retry_after, detail=exc.message) from exc


def authenticate_key(key: str) -> tuple[Any, Any]:
    """(user, token) for an API key. ``AuthenticationFailed`` for an unknown, revoked or expired
    key or an inactive user; ``RateLimited`` over the token's limit."""
    from core.tokens import MAX_KEY_LENGTH, token_digest

    if not isinstance(key, str) or not key or len(key) > MAX_KEY_LENGTH:
        raise exceptions.AuthenticationFailed("Invalid token.")
    digest = token_digest(key)
    ttl = settings.MNEMO_TOKEN_CACHE_SECONDS
    now = time.monotonic()
    entry: _Entry | None = None
    version = 0
    if ttl > 0:
        version = _current_version()
        entry = _cache.get(digest)
        if entry is not None and (entry.version != version or now - entry.loaded >= ttl):
            entry = None
    if entry is None:
        entry = _load(key, digest, version, now)
        if ttl > 0:
            with _lock:
                if len(_cache) >= _MAX_ENTRIES:
                    _cache.clear()
                _cache[digest] = entry
    if entry.expires is not None and time.time() >= entry.expires:
        raise exceptions.AuthenticationFailed("Token expired.")
    if entry.token.rate_limit_per_minute is not None:
        _count_request(entry, now)
    elif now - entry.touched >= LAST_USED_EVERY:
        _touch(entry, now)
    return entry.user, entry.token


def _load(key: str, digest: str, version: int, now: float) -> _Entry:
    from core.models import ApiToken
    from core.tokens import PREFIX_LENGTH

    # The primary, always: a token made a moment ago works at once even with a replica.
    candidates = ApiToken.objects.using("default").select_related("user")
    found = None
    for token in candidates.filter(prefix=key[:PREFIX_LENGTH], revoked_at__isnull=True):
        if hmac.compare_digest(token.digest, digest):
            found = token
    if found is None:
        raise exceptions.AuthenticationFailed("Invalid token.")
    if not found.user.is_active:
        raise exceptions.AuthenticationFailed("User inactive or deleted.")
    expires = found.expires_at.timestamp() if found.expires_at is not None else None
    if expires is not None and time.time() >= expires:
        raise exceptions.AuthenticationFailed("Token expired.")
    age = None if found.last_used_at is None else (timezone.now() - found.last_used_at).total_seconds()
    touched = now - age if age is not None and age >= 0 else now - LAST_USED_EVERY
    return _Entry(token=found, user=found.user, version=version, loaded=now, touched=touched, expires=expires)


def _touch(entry: _Entry, now: float) -> None:
    from core.models import ApiToken

    table = ApiToken._meta.db_table
    with connections["default"].cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET last_used_at = now() WHERE id = %s "
            f"AND (last_used_at IS NULL OR last_used_at < now() - interval '{LAST_USED_EVERY} seconds')",
            [entry.token.pk],
        )
    entry.touched = now


def _count_request(entry: _Entry, now: float) -> None:
    """One more request in the token's current minute (the database's clock, so that every
    process and machine counts in the same minute); RATE_LIMITED past the limit."""
    from core.errors import RateLimited
    from core.models import ApiToken

    table = ApiToken._meta.db_table
    with connections["default"].cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} AS t SET "
            "rate_count = CASE WHEN t.rate_window = c.minute THEN t.rate_count + 1 ELSE 1 END, "
            "rate_window = c.minute, "
            "last_used_at = CASE WHEN t.last_used_at IS NULL "
            f"OR t.last_used_at < c.at - interval '{LAST_USED_EVERY} seconds' THEN c.at ELSE t.last_used_at END "
            "FROM (SELECT now() AS at, floor(extract(epoch FROM now()) / 60)::bigint AS minute) AS c "
            "WHERE t.id = %s AND t.revoked_at IS NULL "
            "RETURNING t.rate_count, ceil((c.minute + 1) * 60 - extract(epoch FROM c.at))::int",
            [entry.token.pk],
        )
        row = cursor.fetchone()
    if row is None:  # revoked or deleted since it was cached
        raise exceptions.AuthenticationFailed("Invalid token.")
    entry.touched = now
    count, retry_after = row
    limit = entry.token.rate_limit_per_minute
    if count > limit:
        raise RateLimited(
            f"This token may make {limit} requests per minute; try again in {max(1, retry_after)} s.",
            retry_after=max(1, retry_after),
        )


# --- the access version --------------------------------------------------------------------------

_VERSION_SQL = "SELECT version FROM core_accessversion WHERE id = 1"


def _current_version() -> int:
    """The access version (one indexed read of one row); this process's caches of callers are
    dropped when it moved since the last request."""
    global _seen_version
    version = _read_version()
    if version != _seen_version:
        _seen_version = version
        _forget_local()
    return version


def _read_version() -> int:
    """One simple-protocol query on libpq's connection (Django's error handling all the same).

    Why not a Django cursor: this read is in every request, and through Django's cursor and
    psycopg's (extended protocol: parse, bind, describe, execute) it cost 130-240 µs on the
    loaded 2-core machine where a plain ``PQexec`` costs 65 µs (bench/auth_cost.py). A read
    outside any transaction psycopg may have begun changes nothing psycopg keeps track of."""
    connection = connections["default"]
    connection.ensure_connection()
    with connection.wrap_database_errors:
        pgconn = getattr(connection.connection, "pgconn", None)
        if pgconn is None:  # another driver: the ordinary way
            with connection.cursor() as cursor:
                cursor.execute(_VERSION_SQL)
                row = cursor.fetchone()
            return int(row[0]) if row else 0
        from psycopg import errors, pq

        result = pgconn.exec_(_VERSION_SQL.encode())
        if result.status != pq.ExecStatus.TUPLES_OK:
            raise errors.error_from_result(result)
        value = result.get_value(0, 0) if result.ntuples else None
        return int(value) if value is not None else 0


def _bump_version() -> None:
    from core.models import AccessVersion

    table = AccessVersion._meta.db_table
    with connections["default"].cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (id, version) VALUES (1, 1) "
            f"ON CONFLICT (id) DO UPDATE SET version = {table}.version + 1"
        )


def _forget_local() -> None:
    from core.permissions import permissions_changed

    forget_cached_tokens()
    permissions_changed()


def forget_cached_tokens() -> None:
    """Drop every token this process remembers (tests; a change made around the signals)."""
    with _lock:
        _cache.clear()


def access_changed(**_: Any) -> None:
    """Who may do what changed: this process forgets its callers now, every process with the next
    request after the change commits (the access version moves once per transaction)."""
    _forget_local()
    connection = transaction.get_connection("default")
    if connection.in_atomic_block and any(entry[1] is _bump_version for entry in connection.run_on_commit):
        return
    # robust: a failed bump must not turn a committed change into an error (the TTL still bounds it)
    transaction.on_commit(_bump_version, using="default", robust=True)


def _user_saved(sender: Any, instance: Any, created: bool, update_fields: Any = None, **kwargs: Any) -> None:
    # A login only writes last_login; a new user is in nobody's cache.
    if created or (update_fields is not None and set(update_fields) <= {"last_login"}):
        return
    access_changed()


def _token_saved(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
    if not created:
        access_changed()


def _m2m_changed(sender: Any, action: str, **kwargs: Any) -> None:
    if action.startswith("post_"):
        access_changed()


def connect_signals() -> None:
    """Connect the receivers that move the access version (``CoreConfig.ready``)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group, Permission
    from django.db.models.signals import m2m_changed, post_delete, post_save
    from guardian.utils import get_group_obj_perms_model, get_user_obj_perms_model

    from core.models import ApiToken

    user_model = get_user_model()
    for model in {get_user_obj_perms_model(), get_group_obj_perms_model()}:
        label = model._meta.label
        post_save.connect(access_changed, sender=model, dispatch_uid=f"core.access.save.{label}")
        post_delete.connect(access_changed, sender=model, dispatch_uid=f"core.access.delete.{label}")
    for through in (user_model.groups.through, user_model.user_permissions.through, Group.permissions.through):
        m2m_changed.connect(_m2m_changed, sender=through, dispatch_uid=f"core.access.m2m.{through._meta.label}")
    post_save.connect(_user_saved, sender=user_model, dispatch_uid="core.access.user.save")
    post_save.connect(_token_saved, sender=ApiToken, dispatch_uid="core.access.token.save")
    for model in (user_model, Group, Permission, ApiToken):
        post_delete.connect(access_changed, sender=model, dispatch_uid=f"core.access.delete.{model._meta.label}")
