"""factory_boy factories shared by the suite: one per model, plus ``grant`` for object permissions."""

from __future__ import annotations

from typing import Any

import factory
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from guardian.shortcuts import assign_perm

from assistant.models import AssistantSession
from contacts.models import Contact, ContactMessage, ContactNote
from memories.models import Memory, MemoryEvent, Namespace, Tombstone
from toolrules.models import ToolMemoryRule, ToolStatistic


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.com")


class GroupFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Group
        django_get_or_create = ("name",)

    name = factory.Sequence(lambda n: f"group{n}")


class NamespaceFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Namespace
        django_get_or_create = ("key",)

    key = factory.Sequence(lambda n: f"user:ns{n}")
    kind = factory.LazyAttribute(lambda ns: Namespace.kind_for_key(ns.key))


class MemoryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Memory

    namespace = factory.SubFactory(NamespaceFactory)
    text = factory.Sequence(lambda n: f"Fact number {n} about the user.")
    status = Memory.Status.QUEUED


class TombstoneFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tombstone

    memory = factory.SubFactory(MemoryFactory)
    namespace = factory.LazyAttribute(lambda t: t.memory.namespace)
    text = factory.LazyAttribute(lambda t: t.memory.text)
    reason = "no longer true"


class MemoryEventFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = MemoryEvent

    memory = factory.SubFactory(MemoryFactory)
    event_type = MemoryEvent.Type.ADD
    new_text = factory.LazyAttribute(lambda e: e.memory.text)


class ContactFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Contact

    name = factory.Sequence(lambda n: f"Contact {n}")
    email = factory.Sequence(lambda n: f"contact{n}@example.com")
    phone = factory.Sequence(lambda n: f"+1 415 555 {n % 10000:04d}")


class ContactNoteFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ContactNote

    contact = factory.SubFactory(ContactFactory)
    kind = ContactNote.Kind.NOTE
    body = factory.Sequence(lambda n: f"Note number {n}.")


class ContactMessageFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ContactMessage

    contact = factory.SubFactory(ContactFactory)
    direction = ContactMessage.Direction.IN
    channel = ContactMessage.Channel.SMS
    body = factory.Sequence(lambda n: f"Message number {n}.")


class ToolMemoryRuleFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ToolMemoryRule

    tool_name = "send_email"
    rule = factory.Sequence(lambda n: f"Always sign emails with variant {n}.")
    priority = ToolMemoryRule.Priority.NORMAL


class ToolStatisticFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ToolStatistic

    owner = factory.SubFactory(UserFactory)
    tool_name = factory.Sequence(lambda n: f"tool_{n}")
    calls = 1
    successes = 1


class AssistantSessionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = AssistantSession

    user = factory.SubFactory(UserFactory)


def grant(user_or_group: Any, *perms: str, obj: Any = None) -> None:
    """Object permissions (``obj``) or, without ``obj``, model permissions (``app.codename``)."""
    for perm in perms:
        if obj is not None:
            assign_perm(perm, user_or_group, obj)
            continue
        app, codename = perm.split(".", 1)
        permission = Permission.objects.get(content_type__app_label=app, codename=codename)
        if isinstance(user_or_group, Group):
            user_or_group.permissions.add(permission)
        else:
            user_or_group.user_permissions.add(permission)


_keys: dict[tuple[int, str], str] = {}


def token_for(user: Any, *, name: str = "test", **options: Any) -> str:
    """The clear-text key of an API token of ``user`` (hashed at rest, made by the same service as
    the API's): the one way tests get a key. Like the ``get_or_create`` it replaces, asking again
    gives the same key while its token is live (rolled back or revoked: a new one). ``options``
    (``expires_at``, ``rate_limit_per_minute``) always make a new token."""
    from core.models import ApiToken
    from core.tokens import issue_token, token_digest

    memo = (user.pk, name)
    key = _keys.get(memo)
    if options or key is None or not ApiToken.objects.filter(digest=token_digest(key), revoked_at=None).exists():
        key = issue_token(user=user, name=name, **options).key
        if not options:
            _keys[memo] = key
    return key
