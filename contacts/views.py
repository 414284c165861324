"""The contact page that seed 000's ``deep_link`` (``/contacts/{id}``) points to."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse

from contacts import permissions
from contacts.models import Contact, ContactNote
from core.errors import NotFound


def contact_page(request: HttpRequest, contact_id: str) -> HttpResponse:
    """Staff go to the contact's admin page; another signed-in user who may view the contact gets
    a read-only page; a contact the user may not view is a 404 exactly like a missing one."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path(), reverse("admin:login"))
    try:
        contact = permissions.check_contact_access(request.user, contact_id)
    except NotFound:
        raise Http404("No such contact.") from None
    contact_admin = admin.site._registry.get(Contact)
    if contact_admin is not None and contact_admin.has_view_permission(request, contact):
        return HttpResponseRedirect(reverse("admin:contacts_contact_change", args=[contact.pk]))
    note = (
        contact.notes.filter(kind=ContactNote.Kind.MEMORY).first()
        if permissions.can_list_contact_notes(request.user)
        else None
    )
    context = {"contact": contact, "note": note, "messages_": contact.messages.order_by("-created_at")[:20]}
    return render(request, "contacts/contact.html", context)
