"""Who may see and change which namespace: the one place where memory permissions are decided.

Object permissions are django-guardian's, per namespace: ``memories.view_namespace`` (list, get,
search) and ``memories.write_namespace`` (add, remember, update, forget, correct). A user holding
the permission on the model (staff granted it in the admin) has it on every namespace.

What a caller may not see does not exist for it: a namespace or memory without view permission
answers NOT_FOUND, exactly like a missing one; one it may see but not change answers
PERMISSION_DENIED.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import transaction
from django.db.models import QuerySet
from guardian.core import ObjectPermissionChecker
from guardian.shortcuts import assign_perm, get_objects_for_user

from core.errors import Forbidden, NotFound
from memories.models import Memory, Namespace

VIEW = "memories.view_namespace"
WRITE = "memories.write_namespace"


def own_namespace_key(user: AbstractUser) -> str:
    return f"user:{user.get_username()}"


def has_namespace_perm(
    user: AbstractUser, perm: str, namespace: Namespace, checker: ObjectPermissionChecker | None = None
) -> bool:
    """``perm`` on this namespace, by object permission (asked first: the common case, one query
    for all of a user's permissions on it, cached in ``checker``) or by model permission."""
    if not user.is_active:
        return False
    checker = checker or ObjectPermissionChecker(user)
    return bool(checker.has_perm(perm.split(".", 1)[1], namespace) or user.has_perm(perm))


def visible_namespaces(user: AbstractUser, perm: str = VIEW) -> QuerySet[Namespace]:
    """Namespaces on which ``user`` holds ``perm``, by object or by model permission."""
    return get_objects_for_user(user, perm, klass=Namespace, accept_global_perms=True, with_superuser=True)


def visible_memories(user: AbstractUser) -> QuerySet[Memory]:
    """Every memory in a namespace ``user`` may view (the base queryset of all memory reads)."""
    return Memory.objects.filter(namespace__in=visible_namespaces(user)).select_related("namespace")


def ensure_user_namespace(user: AbstractUser) -> Namespace:
    """``user:<username>``, created (owned by the user, who may view and write it) if missing.

    An existing namespace is returned as it is: permissions staff changed on it stay changed.
    """
    key = own_namespace_key(user)
    namespace = Namespace.objects.filter(key=key).first()  # the common case: one query
    if namespace is not None:
        return namespace
    with transaction.atomic():
        namespace, created = Namespace.objects.get_or_create(
            key=key, defaults={"kind": Namespace.Kind.USER, "owner": user}
        )
        if created:
            assign_perm("view_namespace", user, namespace)
            assign_perm("write_namespace", user, namespace)
    return namespace


def resolve_namespace(user: AbstractUser, key: str | None, *, write: bool) -> Namespace:
    """The namespace a call names (default: the caller's own), checked for view or write."""
    if not key or key == own_namespace_key(user):
        return ensure_user_namespace(user)
    namespace = Namespace.objects.filter(key=key).first()
    checker = ObjectPermissionChecker(user)
    if namespace is None or not has_namespace_perm(user, VIEW, namespace, checker):
        raise NotFound(f"Namespace {key!r} not found.")
    if write and not has_namespace_perm(user, WRITE, namespace, checker):
        raise Forbidden(f"You may read namespace {key!r} but not write to it.")
    return namespace


def get_memory(user: AbstractUser, memory_id: int, *, write: bool = False) -> Memory:
    """The memory ``memory_id`` if ``user`` may see it (and change it, with ``write``)."""
    memory = Memory.objects.select_related("namespace").filter(id=memory_id).first()
    checker = ObjectPermissionChecker(user)
    if memory is None or not has_namespace_perm(user, VIEW, memory.namespace, checker):
        raise NotFound(f"Memory {memory_id} not found.")
    if write and not has_namespace_perm(user, WRITE, memory.namespace, checker):
        raise Forbidden(f"You may read memory {memory_id} but not change it.")
    return memory
