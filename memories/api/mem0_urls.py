"""The Mem0 entrance's routes, at the paths mem0ai's MemoryClient (2.2.1) calls: mounted at the
site's root, so ``MemoryClient(api_key=<token>, host=<Mnemo URL>)`` needs nothing else."""

from django.urls import path

from memories.api import mem0_compat as views

urlpatterns = [
    path("v1/ping/", views.PingView.as_view(), name="mem0-ping"),
    path("v3/memories/", views.ListView.as_view(), name="mem0-list"),
    path("v3/memories/add/", views.AddView.as_view(), name="mem0-add"),
    path("v3/memories/search/", views.SearchView.as_view(), name="mem0-search"),
    path("v1/memories/<str:memory_id>/", views.MemoryView.as_view(), name="mem0-memory"),
    path("v1/memories/<str:memory_id>/history/", views.HistoryView.as_view(), name="mem0-history"),
]
