"""The memory operations as every entrance runs them, from their contract's validated data.

The REST views and the gateway tools (and any other entrance) validate with the same serializer
(``memories.api.serializers``) and then call these, so an argument added to a contract reaches
the service the same way from every door.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings

from memories import permissions, selectors, services
from memories.models import Memory


def remember(*, user: Any, data: dict[str, Any]) -> services.RememberResult:
    """Seed 003's ``remember`` from ``RememberInput`` data."""
    fields = dict(data)
    namespace = permissions.resolve_namespace(user, fields.pop("namespace", ""), write=True)
    return services.remember(actor=user, namespace=namespace, **fields)


def add_memory(*, user: Any, data: dict[str, Any]) -> Memory:
    """Seed 002's ``add_memory`` from ``AddMemoryInput`` data."""
    namespace = permissions.resolve_namespace(user, data.get("namespace", ""), write=True)
    return services.add_memory(
        actor=user,
        namespace=namespace,
        content=data["content"],
        metadata=data.get("metadata") or {},
        run_async=data.get("async", True),
        valid_from=data.get("valid_from"),
        valid_until=data.get("valid_until"),
    )


def search(*, user: Any, data: dict[str, Any]) -> tuple[Any, list[selectors.SearchHit]]:
    """Seed 002's ``search_memory`` from ``SearchInput`` data: (namespace, hits)."""
    # The own namespace is a default, not an exemption: checked like any other.
    namespace = permissions.resolve_namespace(user, data.get("namespace") or "", write=False)
    hits = selectors.search_memories(
        namespace_ids=[namespace.id],
        query=data["query"],
        limit=data.get("limit", 5),
        mode=data.get("mode", "hybrid"),
        min_score=selectors.min_score_or_default(data.get("min_score")),
        # Part of the default floor: a caller who sets min_score (0: the top k whatever they are)
        # gets exactly that cut.
        answerable_check=settings.MNEMO_ANSWERABLE_CHECK and data.get("min_score") is None,
        filters=selectors.SearchFilters(
            tags=services.clean_tags(data.get("tags") or []),
            tags_mode=data.get("tags_mode", "any"),
            metadata=data.get("metadata") or {},
            created_after=data.get("created_after"),
            created_before=data.get("created_before"),
            as_of=data.get("as_of"),
        ),
    )
    return namespace, hits
