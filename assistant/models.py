"""Agent sessions (the frozen rules block) and processed turns (the post-turn hook's idempotency)."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models


class AssistantSession(models.Model):
    """A session of an agent for a user, and what seed 004 freezes for its lifetime.

    At session start the caller's tools (with their schemas), the pinned ``## Tool-scoped rules``
    block and the whole prompt prefix built from them are computed once and kept here, in the
    database, so every worker process answers a later call with the same session id with the
    same bytes, whatever happened to permissions or rules since; a new session sees the changes.
    Only the memory block after the prefix follows each call's message.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="assistant_sessions")
    agent_name = models.CharField(max_length=200, blank=True, default="")
    tool_rules_block = models.TextField(blank=True, default="")
    tool_rules_snapshot = models.JSONField(default=dict, blank=True)
    # Empty only on rows from before the prefix was frozen: filled once at their next call.
    prompt_prefix = models.TextField(blank=True, default="")
    tools_snapshot = models.JSONField(default=list, blank=True)
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
