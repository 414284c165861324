"""Who may see and change which namespace, on core's permission layer.

Object permissions are django-guardian's, per namespace: ``memories.view_namespace`` (list, get,
search) and ``memories.write_namespace`` (add, remember, update, forget, correct). A user holding
the permission on the model (staff granted it in the admin) has it on every namespace. Memories,
their tombstones, chunks and history carry the permissions of their namespace.

What a caller may not see does not exist for it: a namespace or memory without view permission
answers NOT_FOUND, exactly like a missing one; one it may see but not change answers
PERMISSION_DENIED.

The caller's own namespace, ``user:<username>``, is only a default: it is created with both
permissions for a new user, and from then on it is checked like any other. Revoked is revoked.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import transaction
from django.db.models import QuerySet
from django.db.models.signals import post_delete, post_save
from guardian.shortcuts import assign_perm

from core import permissions as layer
from core.authentication import access_changed
from core.errors import NotFound
from memories.models import Memory, MemoryChunk, MemoryEvent, Namespace, Tombstone

VIEW = "memories.view_namespace"
WRITE = "memories.write_namespace"
#: action → permission on the namespace. Deleting a memory is forgetting it: a write.
NAMESPACE_PERMS = {"view": VIEW, "change": WRITE, "delete": WRITE}
_ACTION = {VIEW: "view", WRITE: "change"}

layer.register(layer.GuardianPolicy(Namespace, NAMESPACE_PERMS))
for _model, _via in ((Memory, "namespace"), (Tombstone, "namespace"), (MemoryChunk, "namespace")):
    layer.register(layer.GuardianPolicy(_model, NAMESPACE_PERMS, via=_via))
layer.register(layer.GuardianPolicy(MemoryEvent, NAMESPACE_PERMS, via="memory__namespace"))


def _namespace_changed(sender: type[Namespace], instance: Namespace, created: bool = False, **_: object) -> None:
    # A namespace renamed, given away or deleted changes who may reach what under its key: the
    # access version moves, and every process forgets the answers it remembered
    # (core.permissions.get_for_user_remembered).
    if not created:
        access_changed()


post_save.connect(_namespace_changed, sender=Namespace, dispatch_uid="memories.namespace.access.save")
post_delete.connect(_namespace_changed, sender=Namespace, dispatch_uid="memories.namespace.access.delete")


def own_namespace_key(user: AbstractUser) -> str:
    return f"user:{user.get_username()}"


def has_namespace_perm(user: AbstractUser, perm: str, namespace: Namespace) -> bool:
    """``perm`` (VIEW or WRITE) on this namespace, by object or by model permission."""
    return layer.allows(user, namespace, _ACTION[perm])


def visible_namespaces(user: AbstractUser, perm: str = VIEW) -> QuerySet[Namespace]:
    """Namespaces on which ``user`` holds ``perm``, by object or by model permission."""
    return layer.restrict(Namespace, user, _ACTION[perm])


def visible_memories(user: AbstractUser) -> QuerySet[Memory]:
    """Every memory in a namespace ``user`` may view (the base queryset of all memory reads)."""
    return layer.restrict(Memory, user, "view").select_related("namespace")


def can_view_any_namespace(user: AbstractUser, perm: str = VIEW) -> bool:
    return layer.can_any(user, Namespace, _ACTION[perm])


def ensure_user_namespace(user: AbstractUser) -> Namespace:
    """``user:<username>``, created (owned by the user, who may view and write it) if missing.

    An existing namespace is returned as it is: permissions staff changed on it stay changed, and
    this function grants nothing on it (callers that act in it go through ``resolve_namespace``).
    """
    key = own_namespace_key(user)
    namespace = Namespace.objects.filter(key=key).first()  # the common case: one query
    if namespace is not None:
        return namespace
    namespace, _ = create_owned_namespace(user, key, kind=Namespace.Kind.USER)
    return namespace


def create_owned_namespace(user: AbstractUser, key: str, *, kind: str) -> tuple[Namespace, bool]:
    """The namespace ``key``, created owned by ``user`` with view and write on it if missing
    (created: True). An existing one is returned as it is, and nothing is granted on it."""
    with transaction.atomic():
        namespace, created = Namespace.objects.get_or_create(key=key, defaults={"kind": kind, "owner": user})
        if created:
            assign_perm("view_namespace", user, namespace)
            assign_perm("write_namespace", user, namespace)
    return namespace, created


def get_namespace(user: AbstractUser, key: str, *, write: bool) -> Namespace:
    """The namespace ``key``, checked for view (and write): NOT_FOUND / PERMISSION_DENIED."""
    return layer.get_for_user_remembered(
        Namespace,
        user,
        "change" if write else "view",
        key=key,
        not_found=f"Namespace {key!r} not found.",
        denied=f"You may read namespace {key!r} but not write to it.",
    )


def resolve_namespace(user: AbstractUser, key: str | None, *, write: bool) -> Namespace:
    """The namespace a call names (default: the caller's own), checked for view or write.

    The own namespace is checked like any other; it is only created here, for a user who never
    had one (then with both permissions).
    """
    own = own_namespace_key(user)
    key = key or own
    try:
        return get_namespace(user, key, write=write)
    except NotFound:
        if key == own and user.is_active and not Namespace.objects.filter(key=key).exists():
            return ensure_user_namespace(user)
        raise


def get_memory(user: AbstractUser, memory_id: int, *, write: bool = False) -> Memory:
    """The memory ``memory_id`` if ``user`` may see it (and change it, with ``write``)."""
    return layer.get_for_user(
        Memory.objects.select_related("namespace"),
        user,
        "change" if write else "view",
        id=memory_id,
        not_found=f"Memory {memory_id} not found.",
        denied=f"You may read memory {memory_id} but not change it.",
    )


def get_memory_by_event(user: AbstractUser, event_id: object) -> Memory:
    """The memory of an asynchronous add's event: a foreign event answers exactly like a missing
    one, and neither names the memory's id."""
    return layer.get_for_user(
        Memory.objects.select_related("namespace"),
        user,
        "view",
        event_id=layer.parse_uuid(event_id),
        not_found=f"Event {event_id} not found.",
    )
