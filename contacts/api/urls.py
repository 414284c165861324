from django.urls import path

from contacts.api import views

urlpatterns = [
    path("contacts", views.ContactListView.as_view(), name="contact-list"),
    path("contacts/<str:contact_id>", views.ContactDetailView.as_view(), name="contact-detail"),
    path("contacts/<str:contact_id>/notes", views.ContactNotesView.as_view(), name="contact-notes"),
    path("contacts/<str:contact_id>/messages", views.ContactMessagesView.as_view(), name="contact-messages"),
    path("contacts/<str:contact_id>/memory", views.ContactMemoryView.as_view(), name="contact-memory"),
]
