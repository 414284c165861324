"""factory_boy factories shared by the suite."""

import factory
from django.contrib.auth import get_user_model

from memories.models import Memory, Namespace


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.com")


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
