"""Contact API serializers."""

from rest_framework import serializers

from config.api import StrictSerializer
from contacts.models import Contact, ContactMessage, ContactNote


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
    name = serializers.CharField(max_length=200)
    email = serializers.EmailField(required=False, allow_blank=True)
    phone = serializers.RegexField(r"^\+?[0-9 ()\-.]{3,39}$", required=False, allow_blank=True, max_length=40)
    company = serializers.CharField(required=False, allow_blank=True, max_length=200)
    title = serializers.CharField(required=False, allow_blank=True, max_length=200)
    address = serializers.CharField(required=False, allow_blank=True)
    timezone = serializers.CharField(required=False, allow_blank=True, max_length=64)
    tags = serializers.ListField(child=serializers.CharField(max_length=64), required=False)
    custom_fields = serializers.DictField(required=False)


class ContactPatchInput(ContactInput):
    name = serializers.CharField(max_length=200, required=False)


class NoteOutput(serializers.ModelSerializer):
    author = serializers.CharField(source="author.username", default=None)

    class Meta:
        model = ContactNote
        fields = ["id", "contact", "kind", "body", "author", "created_at", "updated_at"]


class NoteInput(StrictSerializer):
    body = serializers.CharField()


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
    memory_note = serializers.CharField()


class ContactMemoryOutput(serializers.Serializer):
    contact_id = serializers.UUIDField()
    deep_link = serializers.CharField()
    has_memory = serializers.BooleanField()
    note_id = serializers.UUIDField(allow_null=True)
    memory_note = serializers.CharField(allow_null=True)
    updated_at = serializers.CharField(allow_null=True)
