"""Who a rule binds and who may change it, on core's permission layer.

A rule with an owner binds that user and is theirs to change; a rule without one binds everyone
and only holders of the model permission (staff) may create, change or delete it. Holders of the
model permissions see (``view_toolmemoryrule``) or change (``change_toolmemoryrule``) every rule,
as the admin shows them. Other users' rules do not exist for a caller: NOT_FOUND. Tool statistics
are their owner's.
"""

from __future__ import annotations

import uuid

from django.contrib.auth.models import AbstractUser
from django.db.models import Q, QuerySet

from core import permissions as layer
from toolrules.models import ToolMemoryRule, ToolStatistic

VIEW_ALL = "toolrules.view_toolmemoryrule"
CHANGE_GLOBAL = "toolrules.change_toolmemoryrule"
DELETE_ALL = "toolrules.delete_toolmemoryrule"

layer.register(
    layer.OwnerPolicy(
        ToolMemoryRule,
        shared_when_unowned=True,
        perms={"view": (VIEW_ALL, CHANGE_GLOBAL), "change": (CHANGE_GLOBAL,), "delete": (DELETE_ALL, CHANGE_GLOBAL)},
    )
)
layer.register(
    layer.OwnerPolicy(
        ToolStatistic,
        perms={"view": ("toolrules.view_toolstatistic",), "change": (), "delete": ("toolrules.delete_toolstatistic",)},
    )
)


def binding_rules(user: AbstractUser) -> QuerySet[ToolMemoryRule]:
    """The rules that bind ``user``: their own and everyone's (what its prompt and lists show,
    whatever more staff may see)."""
    return ToolMemoryRule.objects.filter(Q(owner=user) | Q(owner__isnull=True))


def can_manage_global_rules(user: AbstractUser) -> bool:
    return bool(user.is_active and user.has_perm(CHANGE_GLOBAL))


def get_rule(
    user: AbstractUser, rule_id: uuid.UUID | str, *, tool_name: str | None = None, write: bool = False
) -> ToolMemoryRule:
    queryset = ToolMemoryRule.objects.all()
    if tool_name is not None:
        queryset = queryset.filter(tool_name=tool_name)
    return layer.get_for_user(
        queryset,
        user,
        "change" if write else "view",
        pk=layer.parse_uuid(rule_id),
        not_found=f"Rule {rule_id} not found" + (f" for tool {tool_name!r}." if tool_name else "."),
        denied="Only staff may change a rule that binds everyone.",
    )
