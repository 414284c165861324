"""Writes to contacts: contacts, notes, the memory note, outbound SMS and email."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractUser
from django.core.mail import EmailMessage
from django.db import IntegrityError, transaction
from django.utils import timezone
from guardian.shortcuts import assign_perm

from contacts.models import Contact, ContactMessage, ContactNote
from contacts.sms import SmsMessage, get_sms_backend
from core.errors import InvalidInput
from core.secrets import reject_secrets

CONTACT_FIELDS = {"name", "email", "phone", "company", "title", "address", "timezone", "tags", "custom_fields"}


@transaction.atomic
def create_contact(*, actor: AbstractUser, **fields: Any) -> Contact:
    """A new contact; its creator may view, change and delete it."""
    reject_secrets(**fields)  # every field, custom_fields at any depth
    contact = Contact.objects.create(owner=actor, **fields)
    for perm in ("view_contact", "change_contact", "delete_contact"):
        assign_perm(perm, actor, contact)
    return contact


def update_contact(*, contact: Contact, **fields: Any) -> Contact:
    unknown = set(fields) - CONTACT_FIELDS
    if unknown:
        raise InvalidInput(f"cannot change {', '.join(sorted(unknown))}.")
    reject_secrets(**fields)
    for field, value in fields.items():
        setattr(contact, field, value)
    contact.save()
    return contact


def add_note(*, actor: AbstractUser, contact: Contact, body: str) -> ContactNote:
    if not body.strip():
        raise InvalidInput("body must not be empty.")
    reject_secrets(body=body)
    return ContactNote.objects.create(contact=contact, kind=ContactNote.Kind.NOTE, body=body, author=actor)


@transaction.atomic
def set_memory_note(*, actor: AbstractUser, contact: Contact, body: str) -> ContactNote:
    """Set or replace the contact's memory note (there is at most one)."""
    if not body.strip():
        raise InvalidInput("memory_note must not be empty.")
    reject_secrets(memory_note=body)  # loaded into prompts before messages to this contact
    Contact.objects.select_for_update().filter(pk=contact.pk).first()  # one writer at a time
    note = ContactNote.objects.filter(contact=contact, kind=ContactNote.Kind.MEMORY).first()
    if note is None:
        try:
            with transaction.atomic():
                return ContactNote.objects.create(
                    contact=contact, kind=ContactNote.Kind.MEMORY, body=body, author=actor
                )
        except IntegrityError:  # created meanwhile by a writer that did not lock (admin)
            note = ContactNote.objects.get(contact=contact, kind=ContactNote.Kind.MEMORY)
    note.body = body
    note.author = actor
    note.save(update_fields=["body", "author", "updated_at"])
    return note


@dataclass(frozen=True)
class Outbound:
    """What send_sms / send_email answer: a preview, or the message that was sent."""

    contact: Contact
    channel: str
    to: str
    body: str
    subject: str
    confirmed: bool
    message: ContactMessage | None


def _deliver(
    *,
    actor: AbstractUser,
    contact: Contact,
    channel: str,
    to: str,
    subject: str,
    body: str,
    send: Callable[[ContactMessage], Any],
) -> ContactMessage:
    """Record an outbound message, hand it to its channel, and record how that went."""
    message = ContactMessage.objects.create(
        contact=contact,
        direction=ContactMessage.Direction.OUT,
        channel=channel,
        subject=subject,
        body=body,
        to_address=to,
        sent_by=actor,
    )
    try:
        send(message)
    except Exception as exc:  # the provider failed: the row says so, the caller is told
        message.status, message.error = ContactMessage.Status.FAILED, str(exc)[:2000]
    else:
        message.status, message.sent_at = ContactMessage.Status.SENT, timezone.now()
    message.save(update_fields=["status", "error", "sent_at"])
    return message


def send_sms(*, actor: AbstractUser, contact: Contact, body: str, confirmed: bool) -> Outbound:
    """Seed 000's send_sms: ``confirmed=false`` previews and sends nothing; ``true`` records an
    outbound message and hands it to the SMS backend."""
    if not body.strip():
        raise InvalidInput("body must not be empty.")
    if not contact.phone:
        raise InvalidInput(f"{contact.label} has no phone number.")
    if not confirmed:
        return Outbound(contact, "sms", contact.phone, body, "", False, None)
    message = _deliver(
        actor=actor,
        contact=contact,
        channel=ContactMessage.Channel.SMS,
        to=contact.phone,
        subject="",
        body=body,
        send=lambda m: get_sms_backend().send_messages([SmsMessage(to=contact.phone, body=body, message_id=str(m.id))]),
    )
    return Outbound(contact, "sms", contact.phone, body, "", True, message)


def send_email(*, actor: AbstractUser, contact: Contact, subject: str, body: str, confirmed: bool) -> Outbound:
    """The same preview/confirm contract, delivered through Django's ``EMAIL_BACKEND``."""
    if not body.strip():
        raise InvalidInput("body must not be empty.")
    if not contact.email:
        raise InvalidInput(f"{contact.label} has no email address.")
    if not confirmed:
        return Outbound(contact, "email", contact.email, body, subject, False, None)
    message = _deliver(
        actor=actor,
        contact=contact,
        channel=ContactMessage.Channel.EMAIL,
        to=contact.email,
        subject=subject,
        body=body,
        send=lambda m: EmailMessage(subject=subject, body=body, to=[contact.email]).send(),
    )
    return Outbound(contact, "email", contact.email, body, subject, True, message)
