from django.urls import path

from toolrules.api import views

urlpatterns = [
    path("tool-rules", views.RuleListView.as_view(), name="toolrule-list"),
    path("tool-rules/prompt", views.RulesForPromptView.as_view(), name="toolrule-prompt"),
    path("tool-rules/statistics", views.StatisticsView.as_view(), name="toolrule-statistics"),
    path("tool-rules/<str:rule_id>", views.RuleDetailView.as_view(), name="toolrule-detail"),
]
