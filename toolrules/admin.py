"""Tool rules in the admin, with the prompt preview: the pinned block exactly as an agent gets it."""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.template.response import TemplateResponse
from django.urls import path

from core.admin import PermissionLayerAdminMixin
from toolrules.models import ToolMemoryRule, ToolStatistic
from toolrules.services import rules_for_prompt


class PreviewForm(forms.Form):
    user = forms.ModelChoiceField(
        queryset=get_user_model().objects.order_by("username"),
        required=True,
        help_text="whose session to preview: their rules and everyone's",
    )


@admin.register(ToolMemoryRule)
class ToolMemoryRuleAdmin(PermissionLayerAdminMixin, admin.ModelAdmin):
    list_display = ["tool_name", "priority", "source", "rule", "owner", "updated_at"]
    list_filter = ["tool_name", "priority", "source"]
    search_fields = ["rule", "tool_name", "owner__username"]
    ordering = ["tool_name", "priority", "-updated_at"]
    fields = ["id", "tool_name", "rule", "priority", "source", "tags", "owner", "created_at", "updated_at"]
    readonly_fields = ["id", "created_at", "updated_at"]
    change_list_template = "admin/toolrules/toolmemoryrule/change_list.html"

    def get_urls(self):
        return [
            path(
                "prompt-preview/",
                self.admin_site.admin_view(self.preview_view),
                name="toolrules_toolmemoryrule_preview",
            ),
            *super().get_urls(),
        ]

    def preview_view(self, request):
        if not self.has_view_permission(request):
            raise PermissionDenied
        form = PreviewForm(request.GET or None)
        preview = None  # not "block": inside {% block %} Django's own `block` variable would hide it
        if form.is_valid():
            preview = rules_for_prompt(user=form.cleaned_data["user"])
        context = {
            **self.admin_site.each_context(request),
            "title": "Prompt preview: pinned tool rules",
            "form": form,
            "preview": preview,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/toolrules/toolmemoryrule/preview.html", context)


@admin.register(ToolStatistic)
class ToolStatisticAdmin(PermissionLayerAdminMixin, admin.ModelAdmin):
    list_display = ["tool_name", "owner", "calls", "successes", "failures", "last_failure_at", "last_error"]
    list_filter = ["tool_name"]
    readonly_fields = [f.name for f in ToolStatistic._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
