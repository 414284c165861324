"""Reads of contacts: the memory note in seed 000's shape, notes, messages."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from contacts.models import Contact, ContactMessage, ContactNote


def format_timestamp(value: Any) -> str:
    """Seed 000's timestamps: ``2026-04-02 09:00 UTC``."""
    from datetime import UTC

    return value.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def contact_memory(*, contact: Contact) -> dict[str, Any]:
    """get_contact_memory's output, field for field as seed 000 gives it."""
    note = ContactNote.objects.filter(contact=contact, kind=ContactNote.Kind.MEMORY).first()
    return {
        "contact_id": str(contact.id),
        "deep_link": f"/contacts/{contact.id}",
        "has_memory": note is not None,
        "note_id": str(note.id) if note else None,
        "memory_note": note.body if note else None,
        "updated_at": format_timestamp(note.updated_at) if note else None,
    }


def contact_notes(*, contact: Contact) -> QuerySet[ContactNote]:
    return ContactNote.objects.filter(contact=contact).select_related("author")


def contact_messages(*, contact: Contact, limit: int | None = None) -> QuerySet[ContactMessage]:
    messages = ContactMessage.objects.filter(contact=contact).order_by("-created_at", "id")
    return messages[:limit] if limit else messages
