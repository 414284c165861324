"""Contacts, their notes (one of which may be the contact's memory note) and their messages."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.db.models import Q


class Contact(models.Model):
    """A person the user deals with, as a CRM keeps them.

    Who may see or change a contact is a django-guardian object permission on it
    (``contacts.view_contact``, ``contacts.change_contact``), or the model permission for all.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=200)
    email = models.EmailField(blank=True, default="")
    phone = models.CharField(max_length=40, blank=True, default="")
    company = models.CharField(max_length=200, blank=True, default="")
    title = models.CharField(max_length=200, blank=True, default="")
    address = models.TextField(blank=True, default="")
    timezone = models.CharField(max_length=64, blank=True, default="")
    tags = ArrayField(models.CharField(max_length=64), default=list, blank=True)
    #: Whatever else a team tracks about a contact (birthday, account id, ...).
    custom_fields = models.JSONField(default=dict, blank=True)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="contacts"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name

    @property
    def label(self) -> str:
        """How summaries name the contact: its name, or its id when it has none."""
        return self.name or str(self.id)


class ContactNote(models.Model):
    """A note on a contact. A note of kind ``memory`` is the contact's memory note (seed 000):
    preferences, history and context loaded before drafting messages. At most one per contact,
    enforced by the database."""

    class Kind(models.TextChoices):
        NOTE = "note", "note"
        MEMORY = "memory", "memory"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    contact = models.ForeignKey(Contact, on_delete=models.CASCADE, related_name="notes")
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.NOTE)
    body = models.TextField()
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["contact"], condition=Q(kind="memory"), name="contactnote_one_memory_note_per_contact"
            ),
        ]

    def __str__(self) -> str:
        # Read as a heading (the contact page's inline): whose note and how fresh, not its body.
        when = f", updated {self.updated_at:%Y-%m-%d %H:%M} UTC" if self.updated_at else ""
        return f"{self.get_kind_display()} note on {self.contact.name}{when}"


class ContactMessage(models.Model):
    """A message to or from a contact: an SMS, an email or a call log."""

    class Direction(models.TextChoices):
        IN = "in", "in"
        OUT = "out", "out"

    class Channel(models.TextChoices):
        SMS = "sms", "sms"
        EMAIL = "email", "email"
        CALL = "call", "call"

    class Status(models.TextChoices):
        QUEUED = "queued", "queued"
        SENT = "sent", "sent"
        DELIVERED = "delivered", "delivered"
        FAILED = "failed", "failed"
        RECEIVED = "received", "received"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    contact = models.ForeignKey(Contact, on_delete=models.CASCADE, related_name="messages")
    direction = models.CharField(max_length=3, choices=Direction.choices)
    channel = models.CharField(max_length=5, choices=Channel.choices)
    subject = models.CharField(max_length=300, blank=True, default="")
    body = models.TextField(blank=True, default="")
    to_address = models.CharField(max_length=254, blank=True, default="")
    sent_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    error = models.TextField(blank=True, default="")
    sent_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "id"]
        indexes = [models.Index(fields=["contact", "created_at"], name="contactmessage_contact_time")]

    def __str__(self) -> str:
        way = "from" if self.direction == self.Direction.IN else "to"
        when = f", {self.created_at:%Y-%m-%d %H:%M} UTC" if self.created_at else ""
        channel = "SMS" if self.channel == self.Channel.SMS else self.get_channel_display()
        return f"{channel} {way} {self.contact.name}{when}"
