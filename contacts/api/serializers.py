"""Contact API serializers."""

from rest_framework import serializers

from contacts.models import Contact, ContactMessage, ContactNote
from core.api import StrictSerializer
from core.fields import (
    LONG_TEXT,
    BooleanField,
    BoundedIntegerField,
    EmailField,
    JSONObjectField,
    RegexField,
    TagListField,
    TextField,
    Unscanned,
    UUIDField,
)


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
    name = TextField(max_length=200)
    email = EmailField(required=False, allow_blank=True, max_length=254)
    phone = RegexField(r"^\+?[0-9 ()\-.]{3,39}$", required=False, allow_blank=True, max_length=40)
    company = TextField(required=False, allow_blank=True, max_length=200)
    title = TextField(required=False, allow_blank=True, max_length=200)
    address = TextField(required=False, allow_blank=True, max_length=1000)
    timezone = TextField(required=False, allow_blank=True, max_length=64)
    tags = TagListField(required=False)
    custom_fields = JSONObjectField(required=False)


class ContactPatchInput(ContactInput):
    name = TextField(max_length=200, required=False)


class NoteOutput(serializers.ModelSerializer):
    author = serializers.CharField(source="author.username", default=None, allow_null=True)

    class Meta:
        model = ContactNote
        fields = ["id", "contact", "kind", "body", "author", "created_at", "updated_at"]


class NoteInput(StrictSerializer):
    body = TextField(max_length=LONG_TEXT)


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
    memory_note = TextField(max_length=LONG_TEXT)


# --- the contact tools' contracts (seed 000) -------------------------------------------------------


class ContactRefInput(StrictSerializer):
    """``get_contact_details`` and ``get_contact_memory``: the contact, by id."""

    contact_id = UUIDField(help_text="uuid — the contact")


class ContactMemoryInput(StrictSerializer):
    """``get_contact_memory`` (seed 000): ``{"contact_id": "uuid — the contact whose memory to retrieve"}``."""

    contact_id = UUIDField(help_text="uuid — the contact whose memory to retrieve")


class ContactMessagesInput(ContactRefInput):
    """``get_contact_messages``: the contact and how many recent messages."""

    limit = BoundedIntegerField(required=False, default=20, min_value=1, max_value=100)


class SendSmsInput(ContactRefInput):
    """``send_sms``: preview with ``confirmed=false`` (the default), send with ``true``."""

    body = TextField(max_length=1600, unscanned=Unscanned.OUTBOUND)
    confirmed = BooleanField(
        required=False, default=False, help_text="false (default): preview only, nothing is sent; true: send it"
    )


class SendEmailInput(SendSmsInput):
    """``send_email``: like ``send_sms``, with a subject."""

    subject = TextField(required=False, allow_blank=True, default="", max_length=300, unscanned=Unscanned.OUTBOUND)
    body = TextField(max_length=50_000, unscanned=Unscanned.OUTBOUND)


class ContactMemoryOutput(serializers.Serializer):
    contact_id = serializers.UUIDField()
    deep_link = serializers.CharField()
    has_memory = serializers.BooleanField()
    note_id = serializers.UUIDField(allow_null=True)
    memory_note = serializers.CharField(allow_null=True)
    updated_at = serializers.CharField(allow_null=True)
