"""Tool rules in the admin, with the prompt preview: the pinned block exactly as an agent gets it."""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.template.response import TemplateResponse
from django.urls import path
from django.utils.html import format_html
from django.utils.text import Truncator

from core.admin import PermissionLayerAdminMixin
from core.display import moment
from core.secrets import SecretScanningForm
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
    form = SecretScanningForm  # a rule is pinned into prompts: one carrying a secret is a form error
    list_display = ["tool_name", "priority", "source", "rule_text", "binds", "updated"]
    list_filter = ["tool_name", "priority", "source"]
    search_fields = ["rule", "tool_name", "owner__username"]
    ordering = ["tool_name", "priority", "-updated_at"]
    fields = ["id", "tool_name", "rule", "priority", "source", "tags", "owner", "created_at", "updated_at"]
    readonly_fields = ["id", "created_at", "updated_at"]
    change_list_template = "admin/toolrules/toolmemoryrule/change_list.html"

    @admin.display(description="rule", ordering="rule")
    def rule_text(self, rule: ToolMemoryRule) -> str:
        return format_html('<span title="{}">{}</span>', rule.rule, Truncator(rule.rule).chars(140))

    @admin.display(description="binds", ordering="owner__username")
    def binds(self, rule: ToolMemoryRule) -> str:
        return rule.owner.username if rule.owner_id else "everyone"

    @admin.display(description="updated", ordering="updated_at")
    def updated(self, rule: ToolMemoryRule) -> str:
        return moment(rule.updated_at)

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
    list_display = ["tool_name", "owner", "calls", "successes", "failures", "last_failure", "short_error"]
    list_filter = ["tool_name"]
    readonly_fields = [f.name for f in ToolStatistic._meta.fields]

    @admin.display(description="last failure", ordering="last_failure_at")
    def last_failure(self, statistic: ToolStatistic) -> str:
        return moment(statistic.last_failure_at)

    @admin.display(description="last error")
    def short_error(self, statistic: ToolStatistic) -> str:
        return format_html(
            '<span title="{}">{}</span>', statistic.last_error, Truncator(statistic.last_error).chars(80)
        )

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
