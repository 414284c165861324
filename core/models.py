"""What core stores: API tokens (hashed) and the access version every process checks its caches
against."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class ApiToken(models.Model):
    """One named API token of one user, stored as the SHA-256 of its secret.

    The clear-text key (``mnemo_`` + 43 random URL-safe characters, or a converted DRF key of 40
    hex digits) is shown once, when the token is made, and never stored. ``prefix`` (its first
    ``core.tokens.PREFIX_LENGTH`` characters) finds the candidate rows and tells tokens apart in
    lists; ``digest`` decides (compared in constant time). A revoked token keeps its row, so that
    staff can see what existed and when it was last used; it never authenticates again.

    ``rate_window`` and ``rate_count`` are the per-minute counter of a token with
    ``rate_limit_per_minute``: one row update per request, shared by every process.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=100)
    prefix = models.CharField(max_length=16, db_index=True, editable=False)
    digest = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(null=True, blank=True, help_text="Empty: the token never expires.")
    last_used_at = models.DateTimeField(null=True, blank=True, editable=False)
    revoked_at = models.DateTimeField(null=True, blank=True, editable=False)
    rate_limit_per_minute = models.PositiveIntegerField(
        null=True, blank=True, help_text="Requests per minute this token may make; empty: no limit."
    )
    rate_window = models.BigIntegerField(default=0, editable=False)
    rate_count = models.PositiveIntegerField(default=0, editable=False)

    class Meta:
        verbose_name = "API token"
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["user"], condition=Q(revoked_at__isnull=True), name="core_token_live_user")]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"


class AccessVersion(models.Model):
    """One row whose ``version`` grows whenever who may do what changes: an object or model
    permission, a group membership, a user's status, a token's revocation. Each process reads it
    once per authenticated request and drops what it cached about callers when it moved
    (``core.authentication``)."""

    id = models.PositiveSmallIntegerField(primary_key=True, default=1)
    version = models.BigIntegerField(default=0)

    def __str__(self) -> str:
        return f"access version {self.version}"
