"""Tool-scoped rules (seed 004) and tool statistics: what to do, and what happened."""

from __future__ import annotations

import hashlib
import re
import uuid

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.db.models import Q


def rule_fingerprint(rule: str) -> str:
    """Same words, same rule: case, spacing, typographic apostrophes and final punctuation do not
    make a second rule. Only the comparison ignores them: the rule keeps the words as written."""
    normal = re.sub(r"\s+", " ", rule.strip().lower()).rstrip(".!;").replace("\u2019", "'").replace("\u2018", "'")
    return hashlib.sha256(normal.encode()).hexdigest()[:32]


class ToolMemoryRule(models.Model):
    """Guidance the agent must follow when it uses one tool ("never email Sarah").

    Lives in the tool's namespace, ``tool-{tool_name}``; its key is
    ``tool-{tool_name}/rule/{id}``. ``critical`` and ``high`` rules are pinned to the system
    prompt; ``normal`` ones are fetched on demand (``memory_recall``). A rule with an owner binds
    that user's sessions only; one without binds everyone. ``tool_name`` ``global`` holds
    decrees that name no tool.
    """

    class Priority(models.TextChoices):
        CRITICAL = "critical", "critical"
        HIGH = "high", "high"
        NORMAL = "normal", "normal"

    class Source(models.TextChoices):
        USER_EXPLICIT = "user_explicit", "user_explicit"
        POST_TURN = "post_turn", "post_turn"
        PROGRAMMATIC = "programmatic", "programmatic"

    GLOBAL = "global"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4)
    tool_name = models.CharField(max_length=100, db_index=True)
    rule = models.TextField()
    priority = models.CharField(max_length=8, choices=Priority.choices, default=Priority.NORMAL)
    source = models.CharField(max_length=16, choices=Source.choices, default=Source.PROGRAMMATIC)
    tags = ArrayField(models.CharField(max_length=64), default=list, blank=True)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="tool_rules"
    )
    fingerprint = models.CharField(max_length=32, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = "tool rule"
        verbose_name_plural = "tool rules"
        constraints = [
            # The same rule twice for the same tool and owner is one rule.
            models.UniqueConstraint(
                fields=["owner", "tool_name", "fingerprint"], name="toolrule_unique_per_owner", nulls_distinct=False
            ),
        ]
        indexes = [models.Index(fields=["tool_name", "priority"], name="toolrule_tool_priority")]

    def __str__(self) -> str:
        return f"[{self.priority}] {self.tool_name}: {self.rule[:60]}"

    def save(self, *args, **kwargs) -> None:
        self.fingerprint = rule_fingerprint(self.rule)
        super().save(*args, **kwargs)

    @property
    def namespace(self) -> str:
        return f"tool-{self.tool_name}"

    @property
    def key(self) -> str:
        return f"tool-{self.tool_name}/rule/{self.id}"


PRIORITY_ORDER = {"critical": 0, "high": 1, "normal": 2}
PINNED = Q(priority__in=["critical", "high"])


class ToolStatistic(models.Model):
    """What happened when a tool was used, per owner: calls, successes, failures, the last error.

    Keyed ``tool_effectiveness/tool/{name}``, apart from the rules: statistics never write rules
    and rules never write statistics.
    """

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tool_statistics")
    tool_name = models.CharField(max_length=100)
    calls = models.PositiveIntegerField(default=0)
    successes = models.PositiveIntegerField(default=0)
    failures = models.PositiveIntegerField(default=0)
    last_failure_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True, default="")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = "tool statistic"
        verbose_name_plural = "tool statistics"
        constraints = [models.UniqueConstraint(fields=["owner", "tool_name"], name="toolstatistic_unique")]
        ordering = ["tool_name"]

    def __str__(self) -> str:
        return f"{self.key} ({self.owner_id}): {self.successes}/{self.calls}"

    @property
    def key(self) -> str:
        return f"tool_effectiveness/tool/{self.tool_name}"
