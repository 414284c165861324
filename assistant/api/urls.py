from django.urls import path

from assistant.api import views

urlpatterns = [
    path("tools", views.ToolListView.as_view(), name="assistant-tools"),
    path("tools/<str:name>/invoke", views.InvokeToolView.as_view(), name="assistant-invoke"),
    path("session", views.SessionView.as_view(), name="assistant-session"),
    path("turns", views.TurnView.as_view(), name="assistant-turns"),
]
