"""Who may see and change which contact, on core's permission layer.

Per contact, django-guardian's ``contacts.view_contact``, ``contacts.change_contact`` and
``contacts.delete_contact`` (or the model permission, for every contact). Notes and messages carry
the permissions of their contact: seen by who may view it, written by who may change it. The
model permission ``contacts.view_contactnote`` stands for seed 000's ``ContactNote:Collection:List``
(needed on top, to list notes or read the memory note). A contact the caller may not view answers
NOT_FOUND exactly like one that does not exist.
"""

from __future__ import annotations

import uuid

from django.contrib.auth.models import AbstractUser
from django.db.models import QuerySet

from contacts.models import Contact, ContactMessage, ContactNote
from core import permissions as layer

VIEW = "contacts.view_contact"
CHANGE = "contacts.change_contact"
DELETE = "contacts.delete_contact"
ADD = "contacts.add_contact"
LIST_NOTES = "contacts.view_contactnote"
CONTACT_PERMS = {"view": VIEW, "change": CHANGE, "delete": DELETE}
#: Deleting a note or a message changes its contact.
CHILD_PERMS = {"view": VIEW, "change": CHANGE, "delete": CHANGE}
_ACTION = {VIEW: "view", CHANGE: "change", DELETE: "delete"}

layer.register(layer.GuardianPolicy(Contact, CONTACT_PERMS))
layer.register(layer.GuardianPolicy(ContactNote, CHILD_PERMS, via="contact"))
layer.register(layer.GuardianPolicy(ContactMessage, CHILD_PERMS, via="contact"))


def visible_contacts(user: AbstractUser, perm: str = VIEW) -> QuerySet[Contact]:
    return layer.restrict(Contact, user, _ACTION[perm])


def can_view_contacts(user: AbstractUser) -> bool:
    """The gate of get_contact_details (and half of get_contact_memory's): any contact viewable."""
    return layer.can_any(user, Contact, "view")


def can_list_contact_notes(user: AbstractUser) -> bool:
    return bool(user.is_active and user.has_perm(LIST_NOTES))


def can_create_contacts(user: AbstractUser) -> bool:
    return bool(user.is_active and user.has_perm(ADD))


def has_contact_perm(user: AbstractUser, perm: str, contact: Contact) -> bool:
    return layer.allows(user, contact, _ACTION[perm])


def check_contact_access(user: AbstractUser, contact_id: uuid.UUID | str, *, perm: str = VIEW) -> Contact:
    """The contact, if ``user`` may view it (and hold ``perm`` on it); NOT_FOUND otherwise.

    An id that is not a UUID, a contact that does not exist and one the caller may not view all
    answer the same.
    """
    action = _ACTION[perm]
    return layer.get_for_user(
        Contact,
        user,
        action,
        pk=layer.parse_uuid(contact_id),
        not_found=f"Contact {contact_id} not found.",
        denied=f"You may view contact {contact_id} but not {action} it.",
    )
