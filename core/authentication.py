"""Token authentication with a short per-process memory of tokens already checked.

DRF's ``TokenAuthentication`` reads the token and its user from the database on every request:
for a search that is a round trip and a model load before any work starts. Agents send the same
token many times a second, so each process remembers a checked token for
``MNEMO_TOKEN_CACHE_SECONDS`` (default 5). The price, documented in the README: a revoked token
or a deactivated user keeps working for at most that long in a process that saw it. The lookup
always reads the primary, so a token created a moment ago works at once even with a replica.
"""

from __future__ import annotations

import threading
import time

from django.conf import settings
from rest_framework.authentication import TokenAuthentication
from rest_framework.exceptions import AuthenticationFailed

_MAX_ENTRIES = 10_000
_cache: dict[str, tuple[float, object, object]] = {}
_lock = threading.Lock()
_signals_connected = False


class CachedTokenAuthentication(TokenAuthentication):
    """``Authorization: Token <key>``, with checked tokens remembered briefly (see module doc)."""

    def authenticate_credentials(self, key: str):
        ttl = settings.MNEMO_TOKEN_CACHE_SECONDS
        if not _signals_connected:
            _connect_signals()
        now = time.monotonic()
        if ttl > 0:
            hit = _cache.get(key)
            if hit is not None and hit[0] > now:
                return hit[1], hit[2]
        model = self.get_model()
        try:
            token = model.objects.using("default").select_related("user").get(key=key)
        except model.DoesNotExist as exc:
            raise AuthenticationFailed("Invalid token.") from exc
        if not token.user.is_active:
            raise AuthenticationFailed("User inactive or deleted.")
        if ttl > 0:
            with _lock:
                if len(_cache) >= _MAX_ENTRIES:
                    _cache.clear()
                _cache[key] = (now + ttl, token.user, token)
        return token.user, token


def forget_cached_tokens() -> None:
    """Drop every remembered token (tests; a process that just revoked one)."""
    with _lock:
        _cache.clear()


def _evict_token(sender, instance, **kwargs) -> None:
    # This process forgets a deleted or replaced token at once; other processes within the TTL.
    with _lock:
        _cache.pop(getattr(instance, "key", ""), None)


def _evict_user(sender, instance, **kwargs) -> None:
    with _lock:
        for key in [k for k, (_, user, _) in _cache.items() if getattr(user, "pk", None) == instance.pk]:
            _cache.pop(key, None)


def _connect_signals() -> None:
    global _signals_connected
    _signals_connected = True
    from django.contrib.auth import get_user_model
    from django.db.models.signals import post_delete, post_save
    from rest_framework.authtoken.models import Token

    post_delete.connect(_evict_token, sender=Token, dispatch_uid="mnemo-token-cache-delete")
    post_save.connect(_evict_token, sender=Token, dispatch_uid="mnemo-token-cache-save")
    post_save.connect(_evict_user, sender=get_user_model(), dispatch_uid="mnemo-token-cache-user")
    post_delete.connect(_evict_user, sender=get_user_model(), dispatch_uid="mnemo-token-cache-user-delete")
