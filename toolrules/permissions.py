"""Who a rule binds and who may change it: the one place tool-rule permissions are decided.

A rule with an owner binds that user and is theirs to change; a rule without one binds everyone
and only holders of the model permission (staff) may create, change or delete it. Other users'
rules do not exist for a caller: NOT_FOUND.
"""

from __future__ import annotations

import uuid

from django.contrib.auth.models import AbstractUser
from django.db.models import Q, QuerySet

from core.errors import Forbidden, NotFound
from toolrules.models import ToolMemoryRule

CHANGE_GLOBAL = "toolrules.change_toolmemoryrule"


def binding_rules(user: AbstractUser) -> QuerySet[ToolMemoryRule]:
    """The rules that bind ``user``: their own and everyone's."""
    return ToolMemoryRule.objects.filter(Q(owner=user) | Q(owner__isnull=True))


def can_manage_global_rules(user: AbstractUser) -> bool:
    return bool(user.is_active and user.has_perm(CHANGE_GLOBAL))


def get_rule(
    user: AbstractUser, rule_id: uuid.UUID | str, *, tool_name: str | None = None, write: bool = False
) -> ToolMemoryRule:
    try:
        key = uuid.UUID(str(rule_id))
    except ValueError:
        key = None
    queryset = binding_rules(user)
    if tool_name is not None:
        queryset = queryset.filter(tool_name=tool_name)
    rule = queryset.filter(pk=key).first() if key else None
    if rule is None:
        raise NotFound(f"Rule {rule_id} not found" + (f" for tool {tool_name!r}." if tool_name else "."))
    if write and rule.owner_id is None and not can_manage_global_rules(user):
        raise Forbidden("Only staff may change a rule that binds everyone.")
    return rule
