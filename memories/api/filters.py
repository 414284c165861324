"""Filters of the memory list endpoint (django-filter), with the shared input rules: bounded
text, tags refused (never truncated) beyond 64 characters, timestamps read like every other door
(naive = UTC, within PostgreSQL's and Python's range)."""

from __future__ import annotations

from typing import Any

import django_filters
from django import forms
from django.db.models import Q, QuerySet
from django.utils import timezone
from rest_framework import serializers

from core.fields import TAG_MAX_LENGTH, parse_aware_datetime, text_problem
from memories.api.serializers import NAMESPACE_MAX
from memories.models import Memory
from memories.tags import normalize_tag


class AwareDateTimeFormField(forms.CharField):
    def to_python(self, value: Any) -> Any:
        value = super().to_python(value)
        if value in self.empty_values:
            return None
        try:
            return parse_aware_datetime(value)
        except ValueError as exc:
            raise forms.ValidationError(f"Timestamp {exc}.") from exc


class AwareDateTimeFilter(django_filters.Filter):
    field_class = AwareDateTimeFormField


class TextFormField(forms.CharField):
    def to_python(self, value: Any) -> Any:
        value = super().to_python(value)
        problem = text_problem(value or "")
        if problem:
            raise forms.ValidationError(f"This value {problem}.")
        return value


class TextFilter(django_filters.CharFilter):
    field_class = TextFormField


class StrictBooleanFormField(forms.CharField):
    """``true`` or ``false`` (django-filter's own would also read "null", "unknown", "2"…)."""

    def to_python(self, value: Any) -> Any:
        value = super().to_python(value)
        if value in self.empty_values:
            return None
        if value not in ("true", "false"):
            raise forms.ValidationError("Must be true or false.")
        return value == "true"


class StrictBooleanFilter(django_filters.BooleanFilter):
    field_class = StrictBooleanFormField


class MemoryFilter(django_filters.FilterSet):
    namespace = TextFilter(field_name="namespace__key", max_length=NAMESPACE_MAX)
    status = django_filters.ChoiceFilter(choices=Memory.Status.choices)
    tag = TextFilter(method="filter_tag", max_length=200)
    capture_mode = django_filters.ChoiceFilter(choices=Memory.CaptureMode.choices)
    source_provider = TextFilter(max_length=200)
    session_id = TextFilter(max_length=255, strip=False)  # stored as sent (seed 003): matched as sent
    created_after = AwareDateTimeFilter(field_name="created_at", lookup_expr="gte")
    created_before = AwareDateTimeFilter(field_name="created_at", lookup_expr="lt")
    include_forgotten = StrictBooleanFilter(method="filter_forgotten")
    include_expired = StrictBooleanFilter(method="filter_expired")

    class Meta:
        model = Memory
        fields: list[str] = []

    def filter_tag(self, queryset: QuerySet[Memory], name: str, value: str) -> QuerySet[Memory]:
        tag = normalize_tag(value)
        if len(tag) > TAG_MAX_LENGTH:
            # Longer than any stored tag can be: it matches nothing (the varchar cast would
            # have cut it to 64 characters and matched a different tag).
            return queryset.none()
        return queryset.filter(tags__contains=[tag])

    def filter_forgotten(self, queryset: QuerySet[Memory], name: str, value: bool) -> QuerySet[Memory]:
        return queryset  # applied in filter_queryset, where its default (false) is known too

    def filter_expired(self, queryset: QuerySet[Memory], name: str, value: bool) -> QuerySet[Memory]:
        return queryset

    #: Typed parameters: present but empty is an error, not "no filter" (the schema says so).
    NOT_EMPTY = ("status", "capture_mode", "created_after", "created_before", "include_forgotten", "include_expired")

    def filter_queryset(self, queryset: QuerySet[Memory]) -> QuerySet[Memory]:
        empty = [name for name in self.NOT_EMPTY if self.data.get(name) == ""]
        if empty:
            raise serializers.ValidationError({name: ["This value may not be empty."] for name in empty})
        queryset = super().filter_queryset(queryset)
        if not self.form.cleaned_data.get("include_forgotten"):
            queryset = queryset.filter(forgotten_at__isnull=True)
        if not self.form.cleaned_data.get("include_expired"):
            queryset = queryset.filter(Q(expires_at__isnull=True) | Q(expires_at__gt=timezone.now()))
        return queryset
