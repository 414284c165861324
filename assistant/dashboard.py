"""Reads for the staff home page: what Mnemo holds and how it is doing, scoped to what the staff
user may see, each figure with the admin list that shows the same rows."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.core.cache import cache
from django.db.models import Count, Min
from django.urls import reverse
from django.utils import timezone

from core.permissions import restrict
from memories import latency
from memories import permissions as memory_permissions
from memories import selectors as memory_selectors
from memories.latency import percentile
from memories.models import LATENCY_BOUNDS_MS, MemoryEvent, SearchLatency, Tombstone
from toolrules.models import ToolMemoryRule

#: Days of recent activity the page counts (from midnight UTC, so the admin's date filter matches).
ACTIVITY_DAYS = 7
#: Near-duplicate clusters are costly to find on a large table: counted at most this often.
CLUSTERS_CACHE_SECONDS = 300


@dataclass
class Figure:
    """One number on the page and the admin list behind it."""

    label: str
    value: Any
    url: str
    note: str = ""


@dataclass
class Home:
    namespaces: list[Figure]
    queue: list[Figure]
    oldest_queued: datetime | None
    activity: list[Figure]
    activity_since: datetime
    activity_by_day: list[tuple[str, int]]
    clusters: Figure
    rules: list[Figure]
    latency: dict[str, Any] = field(default_factory=dict)


def _url(name: str, **query: Any) -> str:
    url = reverse(name)
    return f"{url}?{urlencode(query)}" if query else url


def home(*, user: Any, now: datetime | None = None) -> Home:
    now = now or timezone.now()
    memories = memory_permissions.visible_memories(user)
    namespaces = memory_permissions.visible_namespaces(user)
    memory_list = "admin:memories_memory_changelist"

    live = memories.filter(forgotten_at__isnull=True)
    per_namespace = (
        live.order_by()
        .values("namespace_id", "namespace__key")
        .annotate(n=Count("id"))
        .order_by("-n", "namespace__key")
    )
    namespace_figures = [
        Figure(row["namespace__key"], row["n"], _url(memory_list, namespace=row["namespace_id"]))
        for row in per_namespace
    ]

    by_status = dict(live.order_by().values_list("status").annotate(n=Count("id")))
    queue = [
        Figure(status, by_status.get(status, 0), _url(memory_list, status=status))
        for status in ("queued", "failed", "ready")
    ]
    oldest_queued = live.filter(status="queued").aggregate(t=Min("updated_at"))["t"]

    # Activity from midnight UTC ACTIVITY_DAYS - 1 days ago: a whole-day window is what the
    # admin's date filter can show, so a figure and its list count the same rows.
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    since = midnight - timedelta(days=ACTIVITY_DAYS - 1)
    day = since.isoformat()
    events = MemoryEvent.objects.filter(memory_id__in=memories.values("id"), created_at__gte=since)
    event_list = "admin:memories_memoryevent_changelist"
    counts = dict(events.order_by().values_list("event_type").annotate(n=Count("id")))
    merged = Tombstone.objects.filter(namespace__in=namespaces, kind=Tombstone.Kind.MERGED, created_at__gte=since)
    # Rules through the one permission layer, like the memories above: the rules this staff user may see.
    rules_seen = restrict(ToolMemoryRule, user, "view")
    captured = rules_seen.filter(
        created_at__gte=since, source__in=[ToolMemoryRule.Source.USER_EXPLICIT, ToolMemoryRule.Source.POST_TURN]
    )
    rule_list = "admin:toolrules_toolmemoryrule_changelist"
    activity = [
        Figure("added", counts.get("add", 0), _url(event_list, event_type="add", created_at__gte=day)),
        Figure("forgotten", counts.get("forget", 0), _url(event_list, event_type="forget", created_at__gte=day)),
        Figure(
            "merged",
            merged.count(),
            _url("admin:memories_tombstone_changelist", kind="merged", created_at__gte=day),
            "memories merged into another",
        ),
        Figure(
            "rules captured",
            captured.count(),
            _url(rule_list, created_at__gte=day, source__in="user_explicit,post_turn"),
            "decrees and repeated failures turned into tool rules",
        ),
    ]
    added_per_day = dict(
        events.filter(event_type="add").order_by().values_list("created_at__date").annotate(n=Count("id"))
    )
    activity_by_day = [
        ((since + timedelta(days=i)).strftime("%a %d"), added_per_day.get((since + timedelta(days=i)).date(), 0))
        for i in range(ACTIVITY_DAYS)
    ]

    namespace_ids = sorted(namespaces.values_list("id", flat=True))
    key = f"mnemo:home:clusters:{','.join(map(str, namespace_ids))}"
    clusters = cache.get(key)
    if clusters is None:
        clusters = len(
            memory_selectors.duplicate_clusters(
                namespace_ids=namespace_ids, threshold=settings.MNEMO_NEAR_DUPLICATE_THRESHOLD
            )
        )
        cache.set(key, clusters, CLUSTERS_CACHE_SECONDS)
    cluster_figure = Figure(
        "near-duplicate clusters", clusters, reverse("admin:memories_memory_duplicates"), "waiting for review"
    )

    by_priority = dict(rules_seen.order_by().values_list("priority").annotate(n=Count("id")))
    rules = [
        Figure(priority, by_priority.get(priority, 0), _url(rule_list, priority=priority))
        for priority in ToolMemoryRule.Priority.values
    ]
    return Home(
        namespaces=namespace_figures,
        queue=queue,
        oldest_queued=oldest_queued,
        activity=activity,
        activity_since=since,
        activity_by_day=activity_by_day,
        clusters=cluster_figure,
        rules=rules,
        latency=search_latency(now=now),
    )


def search_latency(*, now: datetime, minutes: int = 60) -> dict[str, Any]:
    """The last ``minutes`` of searches: count, mean, p50/p95 (bucket bounds), max, per minute."""
    latency.flush()  # this process's last second of searches too
    start = now.replace(second=0, microsecond=0) - timedelta(minutes=minutes - 1)
    rows = list(SearchLatency.objects.filter(minute__gte=start).order_by("minute"))
    buckets = [0] * (len(LATENCY_BOUNDS_MS) + 1)
    for row in rows:
        for index, count in enumerate(row.buckets[: len(buckets)]):
            buckets[index] += count
    count = sum(row.count for row in rows)
    total = sum(row.total_ms for row in rows)
    by_minute = {row.minute: row for row in rows}
    series = []
    for i in range(minutes):
        minute = start + timedelta(minutes=i)
        row = by_minute.get(minute)
        series.append((minute.strftime("%H:%M"), round(row.total_ms / row.count, 1) if row and row.count else 0))
    return {
        "count": count,
        "mean_ms": round(total / count, 1) if count else None,
        "p50_ms": percentile(buckets, 0.5),
        "p95_ms": percentile(buckets, 0.95),
        "max_ms": round(max((row.max_ms for row in rows), default=0), 1) if count else None,
        "series": series,
        "since": start,
        "url": _url("admin:memories_searchlatency_changelist", minute__gte=start.isoformat()),
    }
