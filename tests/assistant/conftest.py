"""Callers with neither, one, or both of get_contact_memory's permissions, and a contact."""

import pytest
from django.contrib.auth.models import Permission
from guardian.shortcuts import assign_perm
from rest_framework.test import APIClient

from contacts import services as contact_services
from tests.factories import UserFactory, token_for


def client_for(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user)}")
    return client


@pytest.fixture
def owner(db):
    user = UserFactory(username="owner")
    user.user_permissions.add(Permission.objects.get(codename="add_contact"))
    return user


@pytest.fixture
def jane(owner):
    return contact_services.create_contact(
        actor=owner, name="Jane Doe", phone="+1 415 555 0100", email="jane@example.com", company="Acme"
    )


@pytest.fixture
def other_contact(owner):
    return contact_services.create_contact(actor=owner, name="Bob Roe", phone="+1 415 555 0199")


@pytest.fixture
def nobody(db):
    """Neither permission."""
    return UserFactory(username="nobody")


@pytest.fixture
def viewer(jane):
    """Can view Jane, may not list contact notes."""
    user = UserFactory(username="viewer")
    assign_perm("view_contact", user, jane)
    return user


@pytest.fixture
def notes_only(db):
    """May list contact notes, can view no contact."""
    user = UserFactory(username="notesonly")
    user.user_permissions.add(Permission.objects.get(codename="view_contactnote"))
    return user


@pytest.fixture
def both(jane):
    """Can view Jane and list contact notes: get_contact_memory is registered."""
    user = UserFactory(username="both")
    assign_perm("view_contact", user, jane)
    user.user_permissions.add(Permission.objects.get(codename="view_contactnote"))
    return user
