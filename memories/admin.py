"""The staff's workplace for memories: find, fix, merge, forget, restore, govern namespaces.

Every change goes through memories.services (history, tombstones, re-embedding after commit),
and every queryset through memories.permissions: a staff user with object permissions only
sees the namespaces granted to them.
"""

from __future__ import annotations

import json
from datetime import timedelta

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.admin.options import IncorrectLookupParameters
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.text import Truncator
from django.utils.translation import ngettext

from core.admin import ObjectPermissionPagesMixin, RestrictedChoicesMixin
from core.display import age_html, moment
from core.errors import MnemoError
from core.secrets import reject_secrets, secret_in
from memories import permissions, selectors, services
from memories.latency import percentile
from memories.models import DuplicateDismissal, Memory, MemoryEvent, Namespace, SearchLatency, Tombstone
from memories.temporal import check_validity


def _can(request: HttpRequest, perm: str, namespace: Namespace | None = None) -> bool:
    if namespace is None:
        return request.user.has_perm(perm) or permissions.visible_namespaces(request.user, perm).exists()
    return permissions.has_namespace_perm(request.user, perm, namespace)


class VisibleNamespaceFilter(admin.SimpleListFilter):
    """By namespace, listing only the namespaces the staff user may see."""

    title = "namespace"
    parameter_name = "namespace"

    def lookups(self, request, model_admin):
        return [(str(ns.id), ns.key) for ns in permissions.visible_namespaces(request.user).order_by("key")]

    def queryset(self, request, queryset):
        value = self.value()
        if not value:
            return queryset
        # A namespace id: anything else is Django's "invalid lookup" (a redirect to ?e=1), not a 500.
        if not (value.isascii() and value.isdigit() and len(value) <= 18):
            raise IncorrectLookupParameters(f"namespace must be a namespace id, not {value[:40]!r}")
        return queryset.filter(namespace_id=int(value))


class TagFilter(admin.SimpleListFilter):
    title = "tag"
    parameter_name = "tag"

    def lookups(self, request, model_admin):
        tags = (
            permissions.visible_memories(request.user).filter(forgotten_at__isnull=True).values_list("tags", flat=True)
        )
        return [(t, t) for t in sorted({tag for row in tags[:5000] for tag in row})][:100]

    def queryset(self, request, queryset):
        return queryset.filter(tags__contains=[self.value()]) if self.value() else queryset


class StatusFilter(admin.SimpleListFilter):
    """By status, forgotten included; with no choice made, forgotten memories are hidden."""

    title = "status"
    parameter_name = "status"
    ALL = "all"

    def lookups(self, request, model_admin):
        return [
            ("ready", "ready"),
            ("queued", "queued"),
            ("failed", "failed"),
            ("forgotten", "forgotten"),
            (self.ALL, "all, forgotten included"),
        ]

    def choices(self, changelist):
        yield {
            "selected": self.value() is None,
            "query_string": changelist.get_query_string(remove=[self.parameter_name]),
            "display": "live (not forgotten)",
        }
        for value, label in self.lookup_choices:
            yield {
                "selected": self.value() == value,
                "query_string": changelist.get_query_string({self.parameter_name: value}),
                "display": label,
            }

    def queryset(self, request, queryset):
        value = self.value()
        if value == self.ALL:
            return queryset
        if value == "forgotten":
            return queryset.filter(forgotten_at__isnull=False)
        queryset = queryset.filter(forgotten_at__isnull=True)
        return queryset.filter(status=value) if value in Memory.Status.values else queryset


class SourceFilter(admin.SimpleListFilter):
    """By source provider (what the agent said the memory came from), as stored."""

    title = "source"
    parameter_name = "source_provider"
    NONE = "-"

    def lookups(self, request, model_admin):
        sources = (
            permissions.visible_memories(request.user)
            .exclude(source_provider="")
            .order_by("source_provider")
            .values_list("source_provider", flat=True)
            .distinct()[:100]
        )
        return [*((source, source) for source in sources), (self.NONE, "none given")]

    def queryset(self, request, queryset):
        if self.value() == self.NONE:
            return queryset.filter(source_provider="")
        return queryset.filter(source_provider=self.value()) if self.value() else queryset


class ExpiredFilter(admin.SimpleListFilter):
    title = "expiry"
    parameter_name = "expired"

    def lookups(self, request, model_admin):
        return [("yes", "expired"), ("no", "not expired")]

    def queryset(self, request, queryset):
        now = timezone.now()
        if self.value() == "yes":
            return queryset.filter(expires_at__lte=now)
        if self.value() == "no":
            return queryset.filter(Q(expires_at__isnull=True) | Q(expires_at__gt=now))
        return queryset


class TombstoneNearbyFilter(admin.SimpleListFilter):
    """Memories close in meaning to something forgotten or corrected in their namespace."""

    title = "tombstone nearby"
    parameter_name = "tombstone_nearby"

    def lookups(self, request, model_admin):
        return [("yes", "has a tombstone nearby"), ("no", "no tombstone nearby")]

    def queryset(self, request, queryset):
        if self.value() not in ("yes", "no"):
            return queryset
        from django.conf import settings
        from pgvector.django import CosineDistance

        nearby = (
            Tombstone.objects.filter(namespace_id=OuterRef("namespace_id"), embedding__isnull=False)
            .annotate(distance=CosineDistance("embedding", OuterRef("embedding")))
            .filter(distance__lte=1 - settings.MNEMO_NEAR_DUPLICATE_THRESHOLD)
        )
        queryset = queryset.annotate(tombstone_nearby=Exists(nearby))
        return queryset.filter(tombstone_nearby=self.value() == "yes")


class MemoryForm(forms.ModelForm):
    class Meta:
        model = Memory
        fields = ["text", "tags", "expires_at", "valid_from", "valid_until"]

    def clean_text(self) -> str:
        try:
            return services.validate_text(self.cleaned_data["text"])
        except MnemoError as exc:
            raise ValidationError(exc.message) from exc

    def clean_tags(self) -> list[str]:
        try:
            reject_secrets(tags=self.cleaned_data["tags"])  # before tags are lower-cased
            return services.clean_tags(self.cleaned_data["tags"])
        except MnemoError as exc:
            raise ValidationError(exc.message) from exc

    def clean_expires_at(self):
        # The same rule as update_memory's, here so that a refused edit is a form error, not a
        # "changed successfully" over a change that did not happen.
        value = self.cleaned_data["expires_at"]
        if value is not None and "expires_at" in self.changed_data and value <= timezone.now():
            raise ValidationError("This moment is in the past; a memory must expire in the future.")
        return value

    def clean(self):
        data = super().clean()
        if self.instance.pk and self.instance.forgotten_at is not None and self.changed_data:
            raise ValidationError("This memory was forgotten; restore it from the tombstones before changing it.")
        # update_memory's rule, as a form error (docs/time-aware.md).
        try:
            check_validity(data.get("valid_from"), data.get("valid_until"))
        except MnemoError as exc:
            raise ValidationError(exc.message) from exc
        return data


class ReasonForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), max_length=2000)

    def clean_reason(self) -> str:
        # The reason is kept on the tombstone: a secret is a form error, as forget_memory refuses it.
        message = secret_in(self.cleaned_data["reason"], field="reason")
        if message:
            raise ValidationError(message)
        return self.cleaned_data["reason"]


class ExpiryForm(forms.Form):
    extend_days = forms.IntegerField(
        required=False, min_value=1, max_value=36500, help_text="extend from now by this many days"
    )
    expires_at = forms.DateTimeField(required=False, help_text="or set this moment (YYYY-MM-DD HH:MM, UTC)")
    clear = forms.BooleanField(required=False, help_text="or remove the expiry")

    def clean(self):
        data = super().clean()
        chosen = [bool(data.get("extend_days")), bool(data.get("expires_at")), bool(data.get("clear"))]
        if sum(chosen) != 1:
            raise ValidationError("Choose exactly one: extend, set a moment, or remove the expiry.")
        return data

    def moment(self):
        if self.cleaned_data.get("clear"):
            return None
        if self.cleaned_data.get("extend_days"):
            return timezone.now() + timedelta(days=self.cleaned_data["extend_days"])
        return self.cleaned_data["expires_at"]


def _export_line(memory: Memory) -> str:
    return json.dumps(
        {
            "id": memory.id,
            "namespace": memory.namespace.key,
            "text": memory.text,
            "tags": memory.tags,
            "metadata": memory.metadata,
            "status": memory.status,
            "source_provider": memory.source_provider,
            "importance": memory.importance,
            "capture_mode": memory.capture_mode,
            "session_id": memory.session_id,
            "expires_at": memory.expires_at.isoformat() if memory.expires_at else None,
            "last_confirmed_at": memory.last_confirmed_at.isoformat(),
            "created_at": memory.created_at.isoformat(),
            "event_id": str(memory.event_id),
        },
        ensure_ascii=False,
    )


def _n(count: int, one: str, many: str) -> str:
    """ "1 memory", "3 memories"."""
    return f"{count} {ngettext(one, many, count)}"


def _similarity(a: Memory, b: Memory) -> float | None:
    """Cosine similarity of two memories' vectors (None if one is not embedded yet)."""
    if a.embedding is None or b.embedding is None:
        return None
    import numpy as np

    x, y = np.asarray(a.embedding, dtype=float), np.asarray(b.embedding, dtype=float)
    return round(float(x @ y / (np.linalg.norm(x) * np.linalg.norm(y))), 4)


#: How history names the fields it shows.
FIELD_LABELS = {
    "text": "text",
    "tags": "tags",
    "expires_at": "expires",
    "metadata": "metadata",
    "importance": "importance",
    "source_provider": "source",
    "capture_mode": "capture mode",
    "session_id": "session",
    "valid_from": "valid from",
    "valid_until": "valid until",
}


def _show(value) -> str:
    if value in (None, "", [], {}):
        return "—"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    if isinstance(value, str) and len(value) >= 19 and value[4] == "-" and value[10] == "T":
        return value[:16].replace("T", " ")  # an ISO moment, to the minute
    return str(value)


def describe_event(event: MemoryEvent) -> list[tuple[str, str, str | None]]:
    """What a history event did, as (what, old, new) rows; new None means a plain note.

    Reads every generation of event data: old update events only name the fields they changed.
    """
    data = event.data or {}
    rows: list[tuple[str, str, str | None]] = []
    if event.event_type == MemoryEvent.Type.ADD:
        via = data.get("via") or (f"correction of #{data['corrects']}" if data.get("corrects") else "")
        rows.append(("added", via and f"via {via}", None))
        if event.new_text:
            rows.append(("text", "", event.new_text))
        if data.get("supersedes"):
            rows.append(("supersedes", ", ".join(f"#{i}" for i in data["supersedes"]), None))
        if data.get("contradicts"):
            rows.append(("contradicts (left open)", ", ".join(f"#{i}" for i in data["contradicts"]), None))
        return rows
    if event.event_type == MemoryEvent.Type.SUPERSEDED:
        rows.append((f"superseded by #{data.get('superseded_by')}", event.new_text, None))
        rows.append(("valid until", _show(data.get("old_valid_until")), _show(data.get("valid_until"))))
        return rows
    if event.old_text and event.new_text and event.old_text != event.new_text:
        rows.append(("text", event.old_text, event.new_text))
    changes = data.get("changes") or {}
    for field, change in changes.items():
        rows.append((FIELD_LABELS.get(field, field), _show(change.get("old")), _show(change.get("new"))))
    if "old_expires_at" in data or "new_expires_at" in data:
        rows.append(("expires", _show(data.get("old_expires_at")), _show(data.get("new_expires_at"))))
    if event.event_type == MemoryEvent.Type.UPDATE and not rows:
        named = ", ".join(FIELD_LABELS.get(f, f) for f in data.get("fields", []))
        rows.append(("changed", named or "nothing", None))
    if event.event_type == MemoryEvent.Type.MERGE:
        if data.get("merged"):
            rows.insert(0, (f"took in #{data['merged']}", event.old_text, None))
        elif data.get("replaced_by"):
            rows.insert(0, (f"merged into #{data['replaced_by']}", "", None))
            rows = [r for r in rows if r[0] != "text"]
    if event.event_type in (MemoryEvent.Type.FORGET, MemoryEvent.Type.CORRECT, MemoryEvent.Type.RESTORE):
        if data.get("reason"):
            rows.append(("reason", data["reason"], None))
        if event.event_type == MemoryEvent.Type.CORRECT and event.new_text:
            rows.append(("replaced by", f"#{data.get('replaced_by')}: {event.new_text}", None))
    return rows


class ReadOnlyForViewersMixin:
    """A read-only page for staff who may view some namespace: history and timings."""

    def has_module_permission(self, request):
        return request.user.is_active and request.user.is_staff and _can(request, permissions.VIEW)

    def has_view_permission(self, request, obj=None):
        return self.has_module_permission(request)

    def has_change_permission(self, request, obj=None):
        return False

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class NamespaceScopedAdmin(RestrictedChoicesMixin, admin.ModelAdmin):
    """Admin of objects that live in a namespace: seen by staff who may view that namespace."""

    def has_module_permission(self, request):
        return request.user.is_active and request.user.is_staff and _can(request, permissions.VIEW)

    def has_view_permission(self, request, obj=None):
        if not (request.user.is_active and request.user.is_staff):
            return False
        return _can(request, permissions.VIEW, obj.namespace if obj else None)


@admin.register(Memory)
class MemoryAdmin(NamespaceScopedAdmin):
    form = MemoryForm
    # The text takes the width; the rest of a memory is on its change page.
    list_display = ["text_cell", "namespace", "status_badge", "tag_list", "age"]
    list_display_links = ["text_cell"]
    list_filter = [
        StatusFilter,
        VisibleNamespaceFilter,
        TagFilter,
        "capture_mode",
        SourceFilter,
        ExpiredFilter,
        TombstoneNearbyFilter,
    ]
    search_fields = ["text"]
    search_help_text = "Full-text search over the memory text (English stemming: 'meeting' finds 'meetings')."
    ordering = ["-created_at"]
    list_per_page = 50
    readonly_fields = [
        "namespace",
        "status_badge",
        "embedding_model",
        "event_id",
        "source_provider",
        "importance",
        "capture_mode",
        "session_id",
        "metadata",
        "last_confirmed_at",
        "created_by",
        "created_at",
        "updated_at",
        "forgotten_at",
    ]
    fieldsets = [
        (None, {"fields": ["text", "tags", "expires_at"]}),
        ("When it holds (docs/time-aware.md)", {"fields": ["valid_from", "valid_until"]}),
        (
            "Where it lives and where it came from",
            {"fields": ["namespace", "status_badge", "source_provider", "capture_mode", "importance", "session_id"]},
        ),
        (
            "Record",
            {
                "fields": [
                    "created_at",
                    "created_by",
                    "updated_at",
                    "last_confirmed_at",
                    "forgotten_at",
                    "event_id",
                    "embedding_model",
                    "metadata",
                ]
            },
        ),
    ]
    actions = ["reembed", "confirm", "forget_with_reason", "change_expiry", "export_jsonl"]
    change_form_template = "admin/memories/memory/change_form.html"
    change_list_template = "admin/memories/memory/change_list.html"

    # --- permissions: memories.permissions decides -------------------------------------------

    def has_change_permission(self, request, obj=None):
        if not (request.user.is_active and request.user.is_staff):
            return False
        return _can(request, permissions.WRITE, obj.namespace if obj else None)

    def has_add_permission(self, request):
        return False  # memories come from agents (remember, add_memory) and imports

    def has_delete_permission(self, request, obj=None):
        return False  # nothing is deleted here: forget (a tombstone) instead

    def get_queryset(self, request):
        return permissions.visible_memories(request.user).select_related("namespace", "created_by")

    def get_search_results(self, request, queryset, search_term):
        if not search_term.strip():
            return queryset, False
        from django.contrib.postgres.search import SearchQuery

        query = SearchQuery(search_term, config="english", search_type="websearch")
        return queryset.filter(Q(search_vector=query) | Q(text__icontains=search_term)), False

    def _writable(self, request, queryset: QuerySet[Memory]) -> list[int]:
        writable = permissions.visible_namespaces(request.user, permissions.WRITE)
        return list(queryset.filter(namespace__in=writable).values_list("id", flat=True))

    # --- columns ---------------------------------------------------------------------------------

    @admin.display(description="text", ordering="text")
    def text_cell(self, memory: Memory) -> str:
        # Cut at a word for the list; the whole text is the tooltip (and the change page).
        return format_html(
            '<span class="mnemo-text" title="{}">{}</span>', memory.text, Truncator(memory.text).chars(160)
        )

    @admin.display(description="status", ordering="status")
    def status_badge(self, memory: Memory) -> str:
        colours = {"ready": "#2e7d32", "queued": "#ef6c00", "failed": "#c62828"}
        label = "forgotten" if memory.forgotten_at else memory.status
        colour = "#757575" if memory.forgotten_at else colours.get(memory.status, "#333")
        return format_html('<span class="mnemo-status" style="color:{};font-weight:bold">{}</span>', colour, label)

    @admin.display(description="tags")
    def tag_list(self, memory: Memory) -> str:
        return format_html_join(" ", '<span class="mnemo-tag">{}</span>', ((t,) for t in memory.tags)) or "—"

    @admin.display(description="age", ordering="created_at")
    def age(self, memory: Memory) -> str:
        return age_html(memory.created_at)

    # --- editing ---------------------------------------------------------------------------------

    def save_model(self, request, obj, form, change):
        original = Memory.objects.get(pk=obj.pk)
        editable = {"text", "tags", "expires_at", "valid_from", "valid_until"}
        changes = {f: form.cleaned_data[f] for f in form.changed_data if f in editable}
        if not changes:
            return
        try:
            services.update_memory(actor=request.user, memory=original, **changes)
        except MnemoError as exc:
            self.message_user(request, exc.message, messages.ERROR)
            return
        if "text" in changes:
            self.message_user(
                request,
                "The text changed: the memory is being re-embedded by the embedding task (status 'queued' until "
                "it is done).",
                messages.INFO,
            )

    def get_readonly_fields(self, request, obj=None):
        if obj is not None and obj.forgotten_at is not None:
            # forgotten: nothing to edit
            return ["text", "tags", "expires_at", "valid_from", "valid_until", *self.readonly_fields]
        return self.readonly_fields

    def change_view(self, request, object_id, form_url="", extra_context=None):
        from django.conf import settings

        memory = self.get_object(request, object_id)
        extra = dict(extra_context or {})
        if memory is not None:
            can_write = self.has_change_permission(request, memory)
            live = memory.forgotten_at is None
            threshold = settings.MNEMO_MERGE_MIN_SIMILARITY
            extra["mnemo_history"] = [
                (event, describe_event(event))
                for event in MemoryEvent.objects.filter(memory_id=memory.pk).select_related("actor")
            ]
            extra["mnemo_neighbours"] = [
                (neighbour, similarity, similarity >= threshold)
                for neighbour, similarity in selectors.nearest_neighbours(memory=memory, limit=5)
            ]
            extra["mnemo_merge_threshold"] = threshold
            extra["mnemo_can_merge"] = can_write and live
            extra["mnemo_can_forget"] = can_write and live
            extra["mnemo_tombstone"] = None if live else memory.tombstones.order_by("-created_at").first()
            extra["mnemo_can_restore"] = can_write and extra["mnemo_tombstone"] is not None
            if not live:
                # A forgotten memory is on record, not in use: its page shows it, it edits nothing.
                extra.update(show_save=False, show_save_and_continue=False, show_save_and_add_another=False)
        return super().change_view(request, object_id, form_url, extra_context=extra)

    # --- actions ---------------------------------------------------------------------------------

    @admin.action(description="Re-embed selected memories")
    def reembed(self, request, queryset):
        ids = self._writable(request, queryset)
        services.reembed_memories(ids=ids)
        self.message_user(request, f"{_n(len(ids), 'memory', 'memories')} queued for embedding.", messages.SUCCESS)

    @admin.action(description="Confirm selected memories (last confirmed = now)")
    def confirm(self, request, queryset):
        count = services.confirm_memories(actor=request.user, ids=self._writable(request, queryset))
        self.message_user(request, f"{_n(count, 'memory', 'memories')} confirmed.", messages.SUCCESS)

    @admin.action(description="Forget selected memories (with a reason)…")
    def forget_with_reason(self, request, queryset):
        ids = self._writable(request, queryset.filter(forgotten_at__isnull=True))
        form = ReasonForm(request.POST if "apply" in request.POST else None)
        if "apply" in request.POST and form.is_valid():
            forgotten = 0
            for memory in Memory.objects.filter(id__in=ids).order_by("id"):
                try:
                    services.forget_memory(actor=request.user, memory=memory, reason=form.cleaned_data["reason"])
                    forgotten += 1
                except MnemoError as exc:  # forgotten by someone else since the list was shown
                    self.message_user(request, exc.message, messages.WARNING)
            self.message_user(
                request,
                f"{_n(forgotten, 'memory', 'memories')} forgotten; "
                + ngettext("it is listed under tombstones.", "they are listed under tombstones.", forgotten),
                messages.SUCCESS,
            )
            return None
        return self._intermediate(
            request,
            queryset.filter(id__in=ids),
            form,
            "forget_with_reason",
            "Forget these memories?",
            "They leave recall at once and are kept as tombstones with your reason.",
        )

    @admin.action(description="Extend or set the expiry of selected memories…")
    def change_expiry(self, request, queryset):
        ids = self._writable(request, queryset)
        form = ExpiryForm(request.POST if "apply" in request.POST else None)
        if "apply" in request.POST and form.is_valid():
            try:
                count = services.set_expiry(actor=request.user, ids=ids, expires_at=form.moment())
            except MnemoError as exc:
                self.message_user(request, exc.message, messages.ERROR)
                return None
            self.message_user(request, f"Expiry changed on {_n(count, 'memory', 'memories')}.", messages.SUCCESS)
            return None
        return self._intermediate(
            request,
            queryset.filter(id__in=ids),
            form,
            "change_expiry",
            "Change the expiry of these memories?",
            "Recall hides a memory from the moment it expires.",
        )

    @admin.action(description="Export selected memories as JSON Lines")
    def export_jsonl(self, request, queryset):
        lines = "\n".join(_export_line(m) for m in queryset.select_related("namespace").order_by("id"))
        response = HttpResponse(lines + "\n", content_type="application/x-ndjson")
        response["Content-Disposition"] = 'attachment; filename="memories.jsonl"'
        return response

    def _intermediate(self, request, queryset, form, action, title, explanation):
        context = {
            **self.admin_site.each_context(request),
            "title": title,
            "explanation": explanation,
            "queryset": queryset,
            "form": form,
            "action": action,
            "action_checkbox_name": ACTION_CHECKBOX_NAME,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/memories/memory/action_confirmation.html", context)

    # --- merge and duplicates review -----------------------------------------------------------

    def get_urls(self):
        custom = [
            path(
                "<int:keep_id>/merge/<int:drop_id>/",
                self.admin_site.admin_view(self.merge_view),
                name="memories_memory_merge",
            ),
            path("duplicates/", self.admin_site.admin_view(self.duplicates_view), name="memories_memory_duplicates"),
            path("<int:pk>/forget/", self.admin_site.admin_view(self.forget_view), name="memories_memory_forget"),
            path("<int:pk>/restore/", self.admin_site.admin_view(self.restore_view), name="memories_memory_restore"),
        ]
        return custom + super().get_urls()

    def merge_view(self, request, keep_id: int, drop_id: int):
        from django.conf import settings

        keep = get_object_or_404(self.get_queryset(request), pk=keep_id)
        drop = get_object_or_404(self.get_queryset(request), pk=drop_id)
        if not (self.has_change_permission(request, keep) and self.has_change_permission(request, drop)):
            raise PermissionDenied
        similarity = _similarity(keep, drop)
        threshold = settings.MNEMO_MERGE_MIN_SIMILARITY
        if similarity is None or similarity < threshold:
            shown = "unknown (not embedded yet)" if similarity is None else f"{similarity:.3f}"
            self.message_user(
                request,
                f"Memories {keep.pk} and {drop.pk} are not close enough to merge: similarity {shown}, "
                f"merge needs at least {threshold} (MNEMO_MERGE_MIN_SIMILARITY). Forget one instead if it is wrong.",
                messages.ERROR,
            )
            return HttpResponseRedirect(reverse("admin:memories_memory_change", args=[keep.pk]))
        if request.method == "POST":
            try:
                services.merge_memories(actor=request.user, keep=keep, drop=drop)
            except MnemoError as exc:
                self.message_user(request, exc.message, messages.ERROR)
            else:
                self.message_user(
                    request,
                    f"Memory {drop.pk} was merged into {keep.pk} (tombstone reason 'merged').",
                    messages.SUCCESS,
                )
            return HttpResponseRedirect(reverse("admin:memories_memory_change", args=[keep.pk]))
        context = {
            **self.admin_site.each_context(request),
            "title": "Merge these memories?",
            "keep": keep,
            "drop": drop,
            "similarity": similarity,
            "merged_tags": services.clean_tags([*keep.tags, *drop.tags]),
            "opts": self.model._meta,
            "original": keep,
        }
        return TemplateResponse(request, "admin/memories/memory/merge_confirmation.html", context)

    def _writable_memory(self, request, pk: int) -> Memory:
        memory = get_object_or_404(self.get_queryset(request), pk=pk)
        if not self.has_change_permission(request, memory):
            raise PermissionDenied
        return memory

    def forget_view(self, request, pk: int):
        """The change page's "Forget…" button: ask for a reason, then forget this one memory."""
        memory = self._writable_memory(request, pk)
        change_url = reverse("admin:memories_memory_change", args=[memory.pk])
        if memory.forgotten_at is not None:
            self.message_user(request, f"Memory {memory.pk} is already forgotten.", messages.WARNING)
            return HttpResponseRedirect(change_url)
        form = ReasonForm(request.POST if request.method == "POST" else None)
        if request.method == "POST" and form.is_valid():
            try:
                services.forget_memory(actor=request.user, memory=memory, reason=form.cleaned_data["reason"])
            except MnemoError as exc:
                self.message_user(request, exc.message, messages.ERROR)
            else:
                self.message_user(
                    request, f"Memory {memory.pk} forgotten; it is kept as a tombstone.", messages.SUCCESS
                )
            return HttpResponseRedirect(change_url)
        return self._one_confirmation(
            request,
            memory,
            form,
            f"Forget memory {memory.pk}?",
            "It leaves recall at once and is kept as a tombstone with your reason; it can be restored.",
            "Yes, forget it",
        )

    def restore_view(self, request, pk: int):
        """The change page's "Restore…" button on a forgotten memory: back to recall."""
        memory = self._writable_memory(request, pk)
        change_url = reverse("admin:memories_memory_change", args=[memory.pk])
        tombstone = memory.tombstones.order_by("-created_at").first()
        if memory.forgotten_at is None or tombstone is None:
            self.message_user(request, f"Memory {memory.pk} is not forgotten; nothing to restore.", messages.WARNING)
            return HttpResponseRedirect(change_url)
        if request.method == "POST":
            try:
                services.restore_memory(actor=request.user, tombstone=tombstone)
            except MnemoError as exc:
                self.message_user(request, exc.message, messages.ERROR)
            else:
                self.message_user(request, f"Memory {memory.pk} restored to recall.", messages.SUCCESS)
            return HttpResponseRedirect(change_url)
        return self._one_confirmation(
            request,
            memory,
            None,
            f"Restore memory {memory.pk}?",
            f"It was {tombstone.kind}"
            + (f" ({tombstone.reason})" if tombstone.reason else "")
            + ". It comes back to recall; its tombstone goes; history records it.",
            "Yes, restore it",
        )

    def _one_confirmation(self, request, memory, form, title, explanation, confirm_label):
        context = {
            **self.admin_site.each_context(request),
            "title": title,
            "explanation": explanation,
            "memory": memory,
            "form": form,
            "confirm_label": confirm_label,
            "opts": self.model._meta,
            "original": memory,
        }
        return TemplateResponse(request, "admin/memories/memory/one_confirmation.html", context)

    def duplicates_view(self, request):
        from django.conf import settings

        if not self.has_view_permission(request):
            raise PermissionDenied
        namespace_ids = list(permissions.visible_namespaces(request.user).values_list("id", flat=True))
        if request.method == "POST":
            return self._act_on_duplicates(request)
        clusters = selectors.duplicate_clusters(
            namespace_ids=namespace_ids, threshold=settings.MNEMO_NEAR_DUPLICATE_THRESHOLD
        )
        context = {
            **self.admin_site.each_context(request),
            "title": "Near-duplicate memories",
            "clusters": clusters,
            "threshold": settings.MNEMO_NEAR_DUPLICATE_THRESHOLD,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/memories/memory/duplicates.html", context)

    def _act_on_duplicates(self, request):
        chosen = request.POST.getlist("cluster")
        action = request.POST.get("do")
        if action not in ("merge", "dismiss") or not chosen:
            self.message_user(request, "Choose clusters and merge or dismiss.", messages.WARNING)
            return HttpResponseRedirect(reverse("admin:memories_memory_duplicates"))
        if action == "merge" and request.POST.get("confirmed") != "yes":
            context = {
                **self.admin_site.each_context(request),
                "title": "Merge these clusters?",
                "clusters": [self._members(request, c) for c in chosen],
                "chosen": chosen,
                "opts": self.model._meta,
            }
            return TemplateResponse(request, "admin/memories/memory/duplicates_confirmation.html", context)
        done = 0
        for cluster in chosen:
            members = self._members(request, cluster)
            if len(members) < 2 or not all(self.has_change_permission(request, m) for m in members):
                continue
            if action == "merge":
                keep = members[0]  # the oldest
                try:
                    for other in members[1:]:
                        services.merge_memories(actor=request.user, keep=keep, drop=other)
                except MnemoError as exc:  # a member was forgotten or merged by someone else meanwhile
                    self.message_user(request, exc.message, messages.WARNING)
                    continue
            else:
                # Every pair of the group: otherwise two of its members would come back as a group.
                for i, first in enumerate(members):
                    for second in members[i + 1 :]:
                        a, b = sorted([first.pk, second.pk])
                        DuplicateDismissal.objects.get_or_create(
                            memory_a_id=a, memory_b_id=b, defaults={"dismissed_by": request.user}
                        )
            done += 1
        verb = "merged (each into its oldest memory)" if action == "merge" else "dismissed"
        self.message_user(request, f"{_n(done, 'cluster', 'clusters')} {verb}.", messages.SUCCESS)
        return HttpResponseRedirect(reverse("admin:memories_memory_duplicates"))

    def _members(self, request, cluster: str) -> list[Memory]:
        ids = [int(i) for i in cluster.split(",") if i.isdigit()]
        return list(
            self.get_queryset(request).filter(id__in=ids, forgotten_at__isnull=True).order_by("created_at", "id")
        )


@admin.register(Tombstone)
class TombstoneAdmin(NamespaceScopedAdmin):
    list_display = ["short_text", "namespace", "kind", "short_reason", "replacement", "created_by", "when"]
    list_filter = ["kind"]
    search_fields = ["text", "reason"]
    readonly_fields = ["memory", "namespace", "text", "kind", "reason", "replaced_by", "created_by", "created_at"]
    fields = readonly_fields
    actions = ["restore"]

    def has_change_permission(self, request, obj=None):
        return False  # read-only; restore is the one thing done to a tombstone

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def get_queryset(self, request):
        return Tombstone.objects.filter(namespace__in=permissions.visible_namespaces(request.user)).select_related(
            "namespace", "replaced_by", "created_by"
        )

    @admin.display(description="text")
    def short_text(self, tombstone: Tombstone) -> str:
        return format_html(
            '<span class="mnemo-text" title="{}">{}</span>', tombstone.text, Truncator(tombstone.text).chars(120)
        )

    @admin.display(description="reason", ordering="reason")
    def short_reason(self, tombstone: Tombstone) -> str:
        return format_html('<span title="{}">{}</span>', tombstone.reason, Truncator(tombstone.reason).chars(80))

    @admin.display(description="when", ordering="created_at")
    def when(self, tombstone: Tombstone) -> str:
        return moment(tombstone.created_at)

    @admin.display(description="replaced by")
    def replacement(self, tombstone: Tombstone) -> str:
        if tombstone.replaced_by_id is None:
            return "—"
        url = reverse("admin:memories_memory_change", args=[tombstone.replaced_by_id])
        return format_html('<a href="{}">#{}</a>', url, tombstone.replaced_by_id)

    def get_actions(self, request):
        actions = super().get_actions(request)
        if not _can(request, permissions.WRITE):
            actions.pop("restore", None)
        return actions

    @admin.action(description="Restore selected memories to recall…")
    def restore(self, request, queryset):
        writable = permissions.visible_namespaces(request.user, permissions.WRITE)
        queryset = queryset.filter(namespace__in=writable)
        if "apply" in request.POST:
            restored, failed = 0, []
            for tombstone in queryset:
                try:
                    services.restore_memory(actor=request.user, tombstone=tombstone)
                    restored += 1
                except MnemoError as exc:
                    failed.append(f"#{tombstone.pk}: {exc.message}")
            self.message_user(request, f"{_n(restored, 'memory', 'memories')} restored to recall.", messages.SUCCESS)
            for failure in failed:
                self.message_user(request, failure, messages.ERROR)
            return None
        context = {
            **self.admin_site.each_context(request),
            "title": "Restore these memories?",
            "explanation": "They come back to recall; their tombstones go; history records it.",
            "queryset": queryset,
            "form": None,
            "action": "restore",
            "action_checkbox_name": ACTION_CHECKBOX_NAME,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/memories/memory/action_confirmation.html", context)


@admin.register(Namespace)
class NamespaceAdmin(ObjectPermissionPagesMixin, admin.ModelAdmin):
    """Namespaces, and (Object permissions) who may view or write each one."""

    object_permission_choices = ("view_namespace", "write_namespace")

    # --- permissions: seen by who may view the namespace; edited with the model permission -------

    def has_module_permission(self, request):
        return request.user.is_active and request.user.is_staff and _can(request, permissions.VIEW)

    def has_view_permission(self, request, obj=None):
        return request.user.is_active and request.user.is_staff and _can(request, permissions.VIEW, obj)

    list_display = ["key", "kind", "owner", "created_at"]
    list_filter = ["kind"]
    search_fields = ["key"]
    readonly_fields = ["created_at"]

    def get_queryset(self, request):
        return permissions.visible_namespaces(request.user)


@admin.register(MemoryEvent)
class MemoryEventAdmin(ReadOnlyForViewersMixin, admin.ModelAdmin):
    """History, read-only."""

    list_display = ["when", "memory_link", "event_type", "actor", "summary"]
    list_filter = ["event_type"]

    @admin.display(description="when", ordering="created_at")
    def when(self, event: MemoryEvent) -> str:
        return moment(event.created_at)

    @admin.display(description="memory", ordering="memory_id")
    def memory_link(self, event: MemoryEvent) -> str:
        url = reverse("admin:memories_memory_change", args=[event.memory_id])
        return format_html('<a href="{}">#{}</a>', url, event.memory_id)

    @admin.display(description="what")
    def summary(self, event: MemoryEvent) -> str:
        parts = [
            f"{what}: {old} → {new}" if new is not None else f"{what} {old}".strip()
            for what, old, new in describe_event(event)
        ]
        return Truncator("; ".join(parts)).chars(160)

    def get_queryset(self, request):
        visible = permissions.visible_memories(request.user).values("id")
        return MemoryEvent.objects.filter(memory_id__in=visible).select_related("actor")


@admin.register(SearchLatency)
class SearchLatencyAdmin(ReadOnlyForViewersMixin, admin.ModelAdmin):
    """Search durations per minute (the staff home page's chart), read-only."""

    list_display = ["when", "count", "mean", "slowest", "p95"]
    date_hierarchy = "minute"

    @admin.display(description="minute", ordering="minute")
    def when(self, row: SearchLatency) -> str:
        return moment(row.minute)

    @admin.display(description="mean")
    def mean(self, row: SearchLatency) -> str:
        return f"{row.total_ms / row.count:.1f} ms" if row.count else "—"

    @admin.display(description="slowest", ordering="max_ms")
    def slowest(self, row: SearchLatency) -> str:
        return f"{row.max_ms:.1f} ms"

    @admin.display(description="95th percentile")
    def p95(self, row: SearchLatency) -> str:
        value = percentile(list(row.buckets), 0.95)
        return "—" if value is None else f"≤ {value:.0f} ms"
