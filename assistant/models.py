"""Agent sessions (the frozen rules block) and processed turns (the post-turn hook's idempotency)."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models


class AssistantSession(models.Model):
    """A session of an agent for a user. The pinned ``## Tool-scoped rules`` block is computed
    once, at session start, and kept here: the seed's "frozen for the session". A later call with
    the same session id gets the same block even if rules change; a new session sees them."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="assistant_sessions")
    agent_name = models.CharField(max_length=200, blank=True, default="")
    tool_rules_block = models.TextField(blank=True, default="")
    tool_rules_snapshot = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"session {self.id} of {self.user_id}"


class ProcessedTurn(models.Model):
    """One post-turn hook call, kept with its answer so that a retried post changes nothing."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    session_id = models.CharField(max_length=255)
    turn_key = models.CharField(max_length=128)
    response = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "session_id", "turn_key"], name="processedturn_unique"),
        ]

    def __str__(self) -> str:
        return f"turn {self.turn_key} of session {self.session_id}"
