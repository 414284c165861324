"""Filters of the memory list endpoint (django-filter)."""

import django_filters
from django.db.models import Q, QuerySet
from django.utils import timezone

from memories.models import Memory


class MemoryFilter(django_filters.FilterSet):
    namespace = django_filters.CharFilter(field_name="namespace__key")
    status = django_filters.ChoiceFilter(choices=Memory.Status.choices)
    tag = django_filters.CharFilter(field_name="tags", lookup_expr="contains", method="filter_tag")
    capture_mode = django_filters.ChoiceFilter(choices=Memory.CaptureMode.choices)
    source_provider = django_filters.CharFilter()
    session_id = django_filters.CharFilter(strip=False)  # stored as sent (seed 003): matched as sent
    created_after = django_filters.IsoDateTimeFilter(field_name="created_at", lookup_expr="gte")
    created_before = django_filters.IsoDateTimeFilter(field_name="created_at", lookup_expr="lt")
    include_forgotten = django_filters.BooleanFilter(method="filter_forgotten")
    include_expired = django_filters.BooleanFilter(method="filter_expired")

    class Meta:
        model = Memory
        fields: list[str] = []

    def filter_tag(self, queryset: QuerySet[Memory], name: str, value: str) -> QuerySet[Memory]:
        from memories.tags import normalize_tag

        return queryset.filter(tags__contains=[normalize_tag(value)])

    def filter_forgotten(self, queryset: QuerySet[Memory], name: str, value: bool) -> QuerySet[Memory]:
        return queryset  # applied in filter_queryset, where its default (false) is known too

    def filter_expired(self, queryset: QuerySet[Memory], name: str, value: bool) -> QuerySet[Memory]:
        return queryset

    def filter_queryset(self, queryset: QuerySet[Memory]) -> QuerySet[Memory]:
        queryset = super().filter_queryset(queryset)
        if not self.form.cleaned_data.get("include_forgotten"):
            queryset = queryset.filter(forgotten_at__isnull=True)
        if not self.form.cleaned_data.get("include_expired"):
            queryset = queryset.filter(Q(expires_at__isnull=True) | Q(expires_at__gt=timezone.now()))
        return queryset
