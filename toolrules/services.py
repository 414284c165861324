"""Tool rules: put, delete, list, the pinned prompt block; tool statistics."""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractUser
from django.db import IntegrityError, transaction
from django.db.models import Case, F, IntegerField, QuerySet, Value, When
from django.template.loader import render_to_string
from django.utils import timezone

from core.errors import Forbidden, InvalidInput
from core.secrets import redact, reject_secrets
from memories.tags import normalize_tags
from toolrules import permissions
from toolrules.models import ToolMemoryRule, ToolStatistic, rule_fingerprint

_PRIORITY_RANK = Case(
    When(priority="critical", then=Value(0)),
    When(priority="high", then=Value(1)),
    default=Value(2),
    output_field=IntegerField(),
)


def ordered(queryset: QuerySet[ToolMemoryRule]) -> QuerySet[ToolMemoryRule]:
    """Priority (critical, high, normal), then freshness (newest update first), then id."""
    return queryset.annotate(priority_rank=_PRIORITY_RANK).order_by("priority_rank", "-updated_at", "id")


def serialize_rule(rule: ToolMemoryRule) -> dict[str, Any]:
    """A rule as every interface shows it: the seed's fields, RFC 3339 timestamps, key, owner."""
    return {
        "id": str(rule.id),
        "key": rule.key,
        "tool_name": rule.tool_name,
        "rule": rule.rule,
        "priority": rule.priority,
        "source": rule.source,
        "tags": list(rule.tags),
        "owner": rule.owner.get_username() if rule.owner_id and rule.owner else None,
        "created_at": rule.created_at.isoformat(),
        "updated_at": rule.updated_at.isoformat(),
    }


def _clean(tool_name: str, rule: str, priority: str, source: str, tags: list[str] | None) -> tuple[str, str, list[str]]:
    tool_name = (tool_name or "").strip()
    if not tool_name or len(tool_name) > 100 or any(c.isspace() for c in tool_name) or "/" in tool_name:
        raise InvalidInput("tool_name must be a tool's name: 1 to 100 characters, no spaces or slashes.")
    rule = (rule or "").strip()
    if not rule or "\x00" in rule or len(rule) > 4000:
        raise InvalidInput("rule must be 1 to 4000 characters of text.")
    if priority not in ToolMemoryRule.Priority.values:
        raise InvalidInput("priority must be critical, high or normal.")
    if source not in ToolMemoryRule.Source.values:
        raise InvalidInput("source must be user_explicit, post_turn or programmatic.")
    # Rules are pinned into system prompts: whatever their source (REST, RPC, capture), a rule
    # carrying a secret is refused, never stored.
    reject_secrets(tool_name=tool_name, rule=rule, tags=tags)
    try:
        clean_tags = normalize_tags(tags or [])
    except ValueError as exc:
        raise InvalidInput(f"tags: {exc}") from exc
    return tool_name, rule, clean_tags


@transaction.atomic
def put_rule(
    *,
    actor: AbstractUser,
    tool_name: str,
    rule: str,
    priority: str = "normal",
    source: str = "programmatic",
    tags: list[str] | None = None,
    rule_id: uuid.UUID | str | None = None,
    binds_everyone: bool = False,
) -> tuple[ToolMemoryRule, bool]:
    """Upsert a rule; ``(rule, created)``.

    With ``rule_id``: that rule is updated (or created with that id, so replays keep the id).
    Without: a rule with the same words for the same tool and owner is updated rather than
    duplicated. ``binds_everyone`` (no owner) needs the model permission.
    """
    tool_name, text, clean_tags = _clean(tool_name, rule, priority, source, tags)
    if binds_everyone and not permissions.can_manage_global_rules(actor):
        raise Forbidden("Only staff may set a rule that binds everyone.")
    owner = None if binds_everyone else actor
    fields = {"tool_name": tool_name, "rule": text, "priority": priority, "source": source, "tags": clean_tags}
    existing: ToolMemoryRule | None = None
    if rule_id is not None:
        try:
            rule_id = uuid.UUID(str(rule_id))
        except ValueError as exc:
            raise InvalidInput("id must be a UUID.") from exc
        existing = ToolMemoryRule.objects.select_for_update().filter(pk=rule_id).first()
        if existing is not None:
            # Someone else's rule is not found, whatever its id; a global one needs staff.
            permissions.get_rule(actor, rule_id, write=True)
    same_words = (
        ToolMemoryRule.objects.select_for_update()
        .filter(
            owner=owner if existing is None else existing.owner, tool_name=tool_name, fingerprint=rule_fingerprint(text)
        )
        .first()
    )
    if existing is None and same_words is not None and rule_id is not None:
        raise InvalidInput(f"rule {same_words.id} of this tool already says this; put with that id instead.")
    if existing is not None and same_words is not None and same_words.pk != existing.pk:
        raise InvalidInput(f"rule {same_words.id} of this tool already says this; delete one of the two first.")
    existing = existing or same_words
    if existing is not None:
        for field, value in fields.items():
            setattr(existing, field, value)
        existing.save()
        return existing, False
    try:
        with transaction.atomic():
            created = ToolMemoryRule(owner=owner, **fields)
            if rule_id is not None:
                created.id = rule_id
            created.save(force_insert=True)
            return created, True
    except IntegrityError:  # the same rule written at the same moment by another request
        same = ToolMemoryRule.objects.get(owner=owner, tool_name=tool_name, fingerprint=rule_fingerprint(text))
        return same, False


def delete_rule(*, actor: AbstractUser, tool_name: str, rule_id: uuid.UUID | str) -> None:
    permissions.get_rule(actor, rule_id, tool_name=tool_name, write=True).delete()


def list_rules(*, user: AbstractUser, tool_name: str | None = None) -> list[ToolMemoryRule]:
    rules = permissions.binding_rules(user).select_related("owner")
    if tool_name:
        rules = rules.filter(tool_name=tool_name)
    return list(ordered(rules))


@dataclass(frozen=True)
class PromptRules:
    markdown: str
    snapshot: dict[str, Any]


def rules_for_prompt(*, user: AbstractUser, tools: list[str] | None = None) -> PromptRules:
    """Seed 004's pinned block: every critical and high rule binding ``user``, per tool.

    ``## Tool-scoped rules``, then per tool ``### `send_email``` and one line per rule, the rule's
    text as the user wrote it (``- [critical] never email Sarah at sarah@example.com.`` for the
    sentence "never email Sarah at sarah@example.com."), critical before high. Normal rules
    stay out (``memory_recall`` fetches them). ``tools`` narrows it to those tools (rules that
    name no tool, ``global``, always come). Empty markdown when there is nothing to pin.
    """
    rules = ordered(permissions.binding_rules(user).filter(priority__in=["critical", "high"]))
    if tools is not None:
        rules = rules.filter(tool_name__in=[*tools, ToolMemoryRule.GLOBAL])
    by_tool: dict[str, list[ToolMemoryRule]] = {}
    for rule in rules.select_related("owner"):
        by_tool.setdefault(rule.tool_name, []).append(rule)
    names = sorted(name for name in by_tool if name != ToolMemoryRule.GLOBAL)
    if ToolMemoryRule.GLOBAL in by_tool:
        names.append(ToolMemoryRule.GLOBAL)
    sections = [
        {"tool_name": name, "lines": [_line(rule) for rule in by_tool[name]], "rules": by_tool[name]} for name in names
    ]
    markdown = render_to_string("toolrules/rules_block.md", {"sections": sections}).strip() if sections else ""
    snapshot = {
        "tools": [
            {"tool_name": section["tool_name"], "rules": [serialize_rule(r) for r in section["rules"]]}
            for section in sections
        ],
        "count": sum(len(section["rules"]) for section in sections),
    }
    return PromptRules(markdown=markdown + "\n" if markdown else "", snapshot=snapshot)


# What str.splitlines() breaks on: a list item is one line, so a break inside a rule is a space.
_LINE_BREAKS = re.compile(r"[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]+")


def _line(rule: ToolMemoryRule) -> str:
    """``- [priority] `` and then the rule exactly as stored: no period added, no case changed
    ("Do not run rm -rf /" stays a command). The one change: a line break, which would end the
    list item (and could forge a ``### `tool``` heading), is rendered as a space."""
    return f"- [{rule.priority}] {_LINE_BREAKS.sub(' ', rule.rule.strip())}"


def record_tool_calls(*, user: AbstractUser, calls: list[dict[str, Any]]) -> None:
    """Add one turn's tool calls to the caller's statistics (never to rules)."""
    now = timezone.now()
    for call in calls:
        stat, _ = ToolStatistic.objects.select_for_update().get_or_create(owner=user, tool_name=call["name"])
        failed = call["status"] == "error"
        ToolStatistic.objects.filter(pk=stat.pk).update(
            calls=F("calls") + 1,
            successes=F("successes") + (0 if failed else 1),
            failures=F("failures") + (1 if failed else 0),
            # A failing tool's error may quote a credential; the statistic keeps it redacted.
            **({"last_failure_at": now, "last_error": redact(str(call.get("error") or ""))[:2000]} if failed else {}),
            updated_at=now,
        )


def statistics_for(*, user: AbstractUser) -> list[dict[str, Any]]:
    """The caller's tool statistics, keyed ``tool_effectiveness/tool/{name}``."""
    return [
        {
            "key": stat.key,
            "tool_name": stat.tool_name,
            "calls": stat.calls,
            "successes": stat.successes,
            "failures": stat.failures,
            "last_failure_at": stat.last_failure_at.isoformat() if stat.last_failure_at else None,
            "last_error": stat.last_error,
        }
        for stat in ToolStatistic.objects.filter(owner=user)
    ]
