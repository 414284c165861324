"""Core's routes under /api/v1/: the caller's API tokens."""

from django.urls import path

from core import token_views

urlpatterns = [
    path("tokens", token_views.TokenListView.as_view(), name="token-list"),
    path("tokens/<int:token_id>", token_views.TokenDetailView.as_view(), name="token-detail"),
]
