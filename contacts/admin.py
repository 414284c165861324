"""Contacts in the admin: guardian's object-permission pages, the memory note edited inline,
messages shown."""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.utils.html import format_html
from django.utils.text import Truncator

from contacts import permissions
from contacts.models import Contact, ContactMessage, ContactNote
from core import permissions as layer
from core.admin import ObjectPermissionPagesMixin, PermissionLayerAdminMixin
from core.display import moment
from core.secrets import SecretScanningForm


class MemoryNoteFormSet(forms.BaseInlineFormSet):
    """The inline of the contact's one memory note: saves with kind 'memory'."""

    def get_queryset(self):
        return super().get_queryset().filter(kind=ContactNote.Kind.MEMORY)

    def save_new(self, form, commit=True):
        form.instance.kind = ContactNote.Kind.MEMORY
        return super().save_new(form, commit=commit)


class MemoryNoteInline(admin.StackedInline):
    model = ContactNote
    form = SecretScanningForm
    formset = MemoryNoteFormSet
    fields = ["body", "author", "updated_at"]
    readonly_fields = ["author", "updated_at"]
    max_num = 1
    extra = 1
    verbose_name = "memory note"
    verbose_name_plural = "memory note (what the assistant loads before writing to or about this contact)"

    def has_view_permission(self, request, obj=None):
        return permissions.can_list_contact_notes(request.user)

    def has_add_permission(self, request, obj=None):
        return self.has_change_permission(request, obj)

    def has_change_permission(self, request, obj=None):
        return permissions.can_list_contact_notes(request.user) and (
            obj is None or permissions.has_contact_perm(request.user, permissions.CHANGE, obj)
        )

    def has_delete_permission(self, request, obj=None):
        return self.has_change_permission(request, obj)


def message_state(message: ContactMessage) -> str:
    """An inbound message was received, whatever its status column says."""
    return "received" if message.direction == ContactMessage.Direction.IN else message.status


def message_way(message: ContactMessage) -> str:
    arrow = "from contact" if message.direction == ContactMessage.Direction.IN else "to contact"
    return f"{message.get_channel_display()} {arrow}"


class MessageInline(admin.TabularInline):
    model = ContactMessage
    fields = ["when", "way", "state", "subject", "body"]
    readonly_fields = fields
    extra = 0
    can_delete = False
    ordering = ["-created_at"]

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    @admin.display(description="when")
    def when(self, message: ContactMessage) -> str:
        return moment(message.created_at)

    @admin.display(description="message")
    def way(self, message: ContactMessage) -> str:
        return message_way(message)

    @admin.display(description="status")
    def state(self, message: ContactMessage) -> str:
        return message_state(message)


@admin.register(Contact)
class ContactAdmin(ObjectPermissionPagesMixin, admin.ModelAdmin):
    form = SecretScanningForm  # notes, address, custom_fields …: a secret is a form error
    object_permission_choices = ("view_contact", "change_contact", "delete_contact")
    list_display = ["name", "email", "phone", "company", "has_memory_note", "updated"]
    search_fields = ["name", "email", "phone", "company"]
    inlines = [MemoryNoteInline, MessageInline]

    def get_queryset(self, request):
        return permissions.visible_contacts(request.user)

    def has_module_permission(self, request):
        return request.user.is_active and request.user.is_staff and permissions.can_view_contacts(request.user)

    def has_view_permission(self, request, obj=None):
        if obj is None:
            return self.has_module_permission(request)
        return request.user.is_staff and permissions.has_contact_perm(request.user, permissions.VIEW, obj)

    def has_change_permission(self, request, obj=None):
        if obj is None:
            return request.user.is_staff and layer.can_any(request.user, Contact, "change")
        return request.user.is_staff and permissions.has_contact_perm(request.user, permissions.CHANGE, obj)

    def has_delete_permission(self, request, obj=None):
        if obj is None:
            return request.user.is_staff and layer.can_any(request.user, Contact, "delete")
        return request.user.is_staff and permissions.has_contact_perm(request.user, permissions.DELETE, obj)

    def save_formset(self, request, form, formset, change):
        instances = formset.save(commit=False)
        for instance in instances:
            if isinstance(instance, ContactNote) and not instance.author_id:
                instance.author = request.user
            instance.save()
        for deleted in formset.deleted_objects:
            deleted.delete()

    @admin.display(boolean=True, description="memory note")
    def has_memory_note(self, contact: Contact) -> bool:
        return contact.notes.filter(kind=ContactNote.Kind.MEMORY).exists()

    @admin.display(description="updated", ordering="updated_at")
    def updated(self, contact: Contact) -> str:
        return moment(contact.updated_at)


class ContactChildAdmin(PermissionLayerAdminMixin, admin.ModelAdmin):
    """Notes and messages: listed for the contacts the staff user may view, written only onto
    contacts they may change (the contact choice offers no other), with the model permission."""

    def get_readonly_fields(self, request, obj=None):
        # A row never moves to another contact.
        return [*super().get_readonly_fields(request, obj), *(["contact"] if obj is not None else [])]

    def has_add_permission(self, request):
        return bool(
            request.user.is_active
            and request.user.is_staff
            and super().has_add_permission(request)
            and layer.can_any(request.user, Contact, "change")
        )


@admin.register(ContactNote)
class ContactNoteAdmin(ContactChildAdmin):
    form = SecretScanningForm
    list_display = ["contact", "kind", "short_body", "author", "updated"]
    list_filter = ["kind"]
    search_fields = ["body", "contact__name"]
    fields = ["contact", "kind", "body", "author", "created_at", "updated_at"]
    # The memory note (one per contact) is edited on its contact's page; here new notes are plain
    # notes, so no form can run into the one-memory-note constraint (whose error would tell that a
    # memory note exists).
    readonly_fields = ["kind", "author", "created_at", "updated_at"]

    def has_view_permission(self, request, obj=None):
        # Seed 000's ContactNote:Collection:List (the model permission) and the contact itself.
        return permissions.can_list_contact_notes(request.user) and super().has_view_permission(request, obj)

    def save_model(self, request, obj, form, change):
        if not change:
            obj.kind = ContactNote.Kind.NOTE
            obj.author = request.user
        super().save_model(request, obj, form, change)

    @admin.display(description="body")
    def short_body(self, note: ContactNote) -> str:
        return format_html('<span title="{}">{}</span>', note.body, Truncator(note.body).chars(120))

    @admin.display(description="updated", ordering="updated_at")
    def updated(self, note: ContactNote) -> str:
        return moment(note.updated_at)


@admin.register(ContactMessage)
class ContactMessageAdmin(ContactChildAdmin):
    list_display = ["when", "contact", "way", "state", "to_address", "short_body"]
    list_filter = ["direction", "channel", "status"]
    search_fields = ["body", "contact__name", "to_address"]

    @admin.display(description="when", ordering="created_at")
    def when(self, message: ContactMessage) -> str:
        return moment(message.created_at)

    @admin.display(description="message", ordering="channel")
    def way(self, message: ContactMessage) -> str:
        return message_way(message)

    @admin.display(description="status", ordering="status")
    def state(self, message: ContactMessage) -> str:
        return message_state(message)

    @admin.display(description="body")
    def short_body(self, message: ContactMessage) -> str:
        return format_html('<span title="{}">{}</span>', message.body, Truncator(message.body).chars(80))
