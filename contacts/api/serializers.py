"""Contact API serializers."""

from rest_framework import serializers

from contacts.models import Contact, ContactMessage, ContactNote
from core.api import JSONObjectField, StrictCharField, StrictSerializer


class ContactOutput(serializers.ModelSerializer):
    class Meta:
        model = Contact
        fields = [
            "id",
            "name",
            "email",
            "phone",
            "company",
            "title",
            "address",
            "timezone",
            "tags",
            "custom_fields",
            "created_at",
            "updated_at",
        ]


class ContactInput(StrictSerializer):
    name = StrictCharField(max_length=200)
    email = serializers.EmailField(required=False, allow_blank=True, max_length=254)
    phone = serializers.RegexField(r"^\+?[0-9 ()\-.]{3,39}$", required=False, allow_blank=True, max_length=40)
    company = StrictCharField(required=False, allow_blank=True, max_length=200)
    title = StrictCharField(required=False, allow_blank=True, max_length=200)
    address = StrictCharField(required=False, allow_blank=True)
    timezone = StrictCharField(required=False, allow_blank=True, max_length=64)
    tags = serializers.ListField(child=StrictCharField(max_length=64), required=False)
    custom_fields = JSONObjectField(required=False)


class ContactPatchInput(ContactInput):
    name = StrictCharField(max_length=200, required=False)


class NoteOutput(serializers.ModelSerializer):
    author = serializers.CharField(source="author.username", default=None)

    class Meta:
        model = ContactNote
        fields = ["id", "contact", "kind", "body", "author", "created_at", "updated_at"]


class NoteInput(StrictSerializer):
    body = StrictCharField()


class MessageOutput(serializers.ModelSerializer):
    class Meta:
        model = ContactMessage
        fields = [
            "id",
            "contact",
            "direction",
            "channel",
            "subject",
            "body",
            "to_address",
            "sent_at",
            "status",
            "created_at",
        ]


class MemoryNoteInput(StrictSerializer):
    memory_note = StrictCharField()


class ContactMemoryOutput(serializers.Serializer):
    contact_id = serializers.UUIDField()
    deep_link = serializers.CharField()
    has_memory = serializers.BooleanField()
    note_id = serializers.UUIDField(allow_null=True)
    memory_note = serializers.CharField(allow_null=True)
    updated_at = serializers.CharField(allow_null=True)
