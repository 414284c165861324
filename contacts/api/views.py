"""Contact API views: thin; permissions come from contacts.permissions only."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import generics, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from contacts import permissions, selectors, services
from contacts.api import serializers as s
from contacts.models import Contact
from core.api import validated
from core.errors import Forbidden


def _require_note_listing(request: Request) -> None:
    if not permissions.can_list_contact_notes(request.user):
        raise Forbidden("You may not list contact notes (contacts.view_contactnote).")


class ContactListView(generics.ListAPIView):
    """Contacts the caller may view; POST creates one (model permission contacts.add_contact)."""

    serializer_class = s.ContactOutput

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Contact.objects.none()
        return permissions.visible_contacts(self.request.user)

    @extend_schema(request=s.ContactInput, responses={201: s.ContactOutput})
    def post(self, request: Request) -> Response:
        if not permissions.can_create_contacts(request.user):
            raise Forbidden("You may not create contacts.")
        contact = services.create_contact(actor=request.user, **validated(s.ContactInput, request))
        return Response(s.ContactOutput(contact).data, status=status.HTTP_201_CREATED)


class ContactDetailView(APIView):
    @extend_schema(responses=s.ContactOutput)
    def get(self, request: Request, contact_id: str) -> Response:
        contact = permissions.check_contact_access(request.user, contact_id)
        return Response(s.ContactOutput(contact).data)

    @extend_schema(request=s.ContactPatchInput, responses=s.ContactOutput)
    def patch(self, request: Request, contact_id: str) -> Response:
        contact = permissions.check_contact_access(request.user, contact_id, perm=permissions.CHANGE)
        contact = services.update_contact(contact=contact, **validated(s.ContactPatchInput, request))
        return Response(s.ContactOutput(contact).data)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, contact_id: str) -> Response:
        contact = permissions.check_contact_access(request.user, contact_id, perm=permissions.DELETE)
        contact.delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


class ContactNotesView(APIView):
    @extend_schema(responses=s.NoteOutput(many=True))
    def get(self, request: Request, contact_id: str) -> Response:
        contact = permissions.check_contact_access(request.user, contact_id)
        _require_note_listing(request)
        return Response(s.NoteOutput(selectors.contact_notes(contact=contact), many=True).data)

    @extend_schema(request=s.NoteInput, responses={201: s.NoteOutput})
    def post(self, request: Request, contact_id: str) -> Response:
        contact = permissions.check_contact_access(request.user, contact_id, perm=permissions.CHANGE)
        note = services.add_note(actor=request.user, contact=contact, body=validated(s.NoteInput, request)["body"])
        return Response(s.NoteOutput(note).data, status=status.HTTP_201_CREATED)


class ContactMessagesView(APIView):
    @extend_schema(responses=s.MessageOutput(many=True))
    def get(self, request: Request, contact_id: str) -> Response:
        contact = permissions.check_contact_access(request.user, contact_id)
        return Response(s.MessageOutput(selectors.contact_messages(contact=contact), many=True).data)


class ContactMemoryView(APIView):
    """The contact's memory note, exactly as the get_contact_memory tool answers."""

    @extend_schema(responses=s.ContactMemoryOutput)
    def get(self, request: Request, contact_id: str) -> Response:
        contact = permissions.check_contact_access(request.user, contact_id)
        _require_note_listing(request)
        return Response(selectors.contact_memory(contact=contact))

    @extend_schema(request=s.MemoryNoteInput, responses=s.ContactMemoryOutput)
    def put(self, request: Request, contact_id: str) -> Response:
        contact = permissions.check_contact_access(request.user, contact_id, perm=permissions.CHANGE)
        # The answer shows the note like GET does: whoever manages notes must be able to list them.
        _require_note_listing(request)
        body = validated(s.MemoryNoteInput, request)["memory_note"]
        services.set_memory_note(actor=request.user, contact=contact, body=body)
        return Response(selectors.contact_memory(contact=contact))
