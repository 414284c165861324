"""Who may see and change which contact: the one place contact permissions are decided.

Per contact, django-guardian's ``contacts.view_contact`` and ``contacts.change_contact`` (or the
model permission, for every contact). The model permission ``contacts.view_contactnote`` stands
for seed 000's ``ContactNote:Collection:List``. A contact the caller may not view answers
NOT_FOUND exactly like one that does not exist.
"""

from __future__ import annotations

import uuid

from django.contrib.auth.models import AbstractUser
from django.db.models import QuerySet
from guardian.shortcuts import get_objects_for_user

from contacts.models import Contact
from core.errors import Forbidden, NotFound

VIEW = "contacts.view_contact"
CHANGE = "contacts.change_contact"
DELETE = "contacts.delete_contact"
LIST_NOTES = "contacts.view_contactnote"


def visible_contacts(user: AbstractUser, perm: str = VIEW) -> QuerySet[Contact]:
    return get_objects_for_user(user, perm, klass=Contact, accept_global_perms=True, with_superuser=True)


def can_view_contacts(user: AbstractUser) -> bool:
    """The gate of get_contact_details (and half of get_contact_memory's): any contact viewable."""
    return bool(user.is_active and (user.has_perm(VIEW) or visible_contacts(user).exists()))


def can_list_contact_notes(user: AbstractUser) -> bool:
    return bool(user.is_active and user.has_perm(LIST_NOTES))


def has_contact_perm(user: AbstractUser, perm: str, contact: Contact) -> bool:
    return bool(user.is_active and (user.has_perm(perm) or user.has_perm(perm, contact)))


def check_contact_access(user: AbstractUser, contact_id: uuid.UUID | str, *, perm: str = VIEW) -> Contact:
    """The contact, if ``user`` may view it (and hold ``perm`` on it); NOT_FOUND otherwise.

    An id that is not a UUID, a contact that does not exist and one the caller may not view all
    answer the same.
    """
    try:
        key = uuid.UUID(str(contact_id))
    except ValueError:
        key = None
    contact = Contact.objects.filter(pk=key).first() if key else None
    if contact is None or not has_contact_perm(user, VIEW, contact):
        raise NotFound(f"Contact {contact_id} not found.")
    if perm != VIEW and not has_contact_perm(user, perm, contact):
        raise Forbidden(f"You may view contact {contact_id} but not {perm.split('.')[1].split('_')[0]} it.")
    return contact
