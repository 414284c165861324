"""Memory API routes under /api/v1/."""

from django.urls import path

from memories.api import views

urlpatterns = [
    path("whoami", views.WhoAmIView.as_view(), name="whoami"),
    path("memories", views.MemoryListCreateView.as_view(), name="memory-list"),
    path("memories/remember", views.RememberView.as_view(), name="memory-remember"),
    path("memories/search", views.SearchView.as_view(), name="memory-search"),
    path("memories/events/<uuid:event_id>", views.EventStatusView.as_view(), name="memory-event"),
    path("memories/<int:memory_id>", views.MemoryDetailView.as_view(), name="memory-detail"),
    path("memories/<int:memory_id>/forget", views.ForgetView.as_view(), name="memory-forget"),
    path("memories/<int:memory_id>/correct", views.CorrectView.as_view(), name="memory-correct"),
    path("memories/<int:memory_id>/confirm", views.ConfirmView.as_view(), name="memory-confirm"),
    path("memories/<int:memory_id>/history", views.HistoryView.as_view(), name="memory-history"),
    path("namespaces", views.NamespaceListView.as_view(), name="namespace-list"),
]
