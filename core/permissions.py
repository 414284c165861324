"""The one permission layer: every door (REST, gateway tools, JSON-RPC, MCP, admin) gets its
objects here, restricted by the caller. NetBox's shape: ``restrict(queryset, user, action)`` and
one ``get_for_user`` that raises NOT_FOUND or PERMISSION_DENIED.

Core knows no app. Each app registers a ``Policy`` per model in its own ``permissions.py``
(imported by its ``AppConfig.ready``): which django-guardian permission stands for which action on
which object, and through which foreign key a model inherits them (a memory has the permissions
of its namespace, a note those of its contact), or, for owned rows, who owns them. A model without
a policy cannot be fetched through this layer at all: it fails closed.

Actions are ``view``, ``change`` and ``delete``. Rules every policy keeps:
- an inactive (or anonymous) user may do nothing;
- the model permission (``user.has_perm("app.perm")``, what staff grant in the admin) stands for
  the permission on every object; superusers hold everything;
- what a caller may not view does not exist for it: ``get_for_user`` answers NOT_FOUND exactly as
  for a missing row; what it may view but not change/delete answers PERMISSION_DENIED.

Cost: ``get_for_user`` fetches the row with the caller's direct object permissions on it in the
same query (the common case needs no other query), and asks guardian's checker (group
permissions, superusers) only when those do not already allow. One checker per user instance and
permission state serves a whole request (``checker_for``).
"""

from __future__ import annotations

import copy
import time
import uuid
from collections.abc import Iterable, Mapping
from typing import Any, Literal, cast

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.contrib.contenttypes.models import ContentType
from django.contrib.postgres.expressions import ArraySubquery
from django.core.exceptions import ValidationError
from django.db import connections
from django.db.models import CharField, Model, OuterRef, Q, QuerySet
from django.db.models.functions import Cast
from guardian.core import ObjectPermissionChecker
from guardian.shortcuts import get_objects_for_user
from guardian.utils import get_user_obj_perms_model

from core.errors import Forbidden, NotFound

Action = Literal["view", "change", "delete"]
ACTIONS: tuple[str, ...] = ("view", "change", "delete")
User = AbstractBaseUser | AnonymousUser

#: Annotation carrying the caller's direct object permissions (codenames) on a fetched row.
DIRECT_PERMS = "_mnemo_direct_perms"


# --- one checker per request ---------------------------------------------------------------------

_generation = 0
#: get_for_user_remembered's answers: key -> (generation, time.monotonic() of the check, row).
_remembered: dict[tuple[Any, ...], tuple[int, float, Model]] = {}
_REMEMBERED_MAX = 10_000


def permissions_changed(**_: Any) -> None:
    """Who may do what changed (``core.authentication.access_changed``, in this process or, seen
    through the access version, in another): cached checkers are stale from now on."""
    global _generation
    _generation += 1
    _remembered.clear()


def checker_for(user: Any) -> ObjectPermissionChecker:
    """guardian's checker for ``user``, kept on the user instance (a request's user lives as long
    as the request) until any object permission changes."""
    cached = getattr(user, "_mnemo_checker", None)
    if cached is not None and cached[0] == _generation:
        return cached[1]
    checker = ObjectPermissionChecker(user)
    user._mnemo_checker = (_generation, checker)
    return checker


def _active(user: Any) -> bool:
    return bool(user is not None and getattr(user, "is_active", False) and getattr(user, "pk", None) is not None)


def _any_model_perm(user: Any, perms: Iterable[str]) -> bool:
    return any(user.has_perm(perm) for perm in perms)


# --- policies ------------------------------------------------------------------------------------


class Policy:
    """How one model's rows are restricted by the caller. Subclasses implement both sides: the
    queryset filter (lists, searches) and the per-object test (one fetched row)."""

    model: type[Model]

    def restrict(self, queryset: QuerySet, user: Any, action: str) -> QuerySet:
        raise NotImplementedError

    def allows(self, user: Any, obj: Model, action: str) -> bool:
        raise NotImplementedError

    def prepare(self, queryset: QuerySet, user: Any) -> QuerySet:
        """The queryset ``get_for_user`` fetches one row from (a hook for cheap annotations)."""
        return queryset

    def fetch_unique(self, queryset: QuerySet, user: Any, lookup: Mapping[str, Any]) -> Model | None | Any:
        """The row ``prepare(queryset).filter(**lookup).first()`` would give, fetched faster, or
        ``NotImplemented`` where this policy has no faster way for this lookup."""
        return NotImplemented

    def model_perms(self, action: str) -> tuple[str, ...]:
        """Model permissions that grant ``action`` on every row."""
        return ()


class GuardianPolicy(Policy):
    """django-guardian object permissions on a guarded model (``perms``: action → ``app.codename``).

    With ``via`` (a foreign-key path such as ``"namespace"`` or ``"memory__namespace"``) the rows
    of ``model`` carry the permissions of the object at the end of that path.
    """

    def __init__(self, model: type[Model], perms: Mapping[str, str], *, via: str | None = None) -> None:
        self.model = model
        self.perms = dict(perms)
        self.via = via
        self._statements: dict[str, tuple[str, list[str]]] = {}
        self._converter_cache: dict[str, list[tuple[int, Any, list[Any]]]] = {}
        guarded = model
        for name in via.split("__") if via else []:
            guarded = cast("type[Model]", guarded._meta.get_field(name).related_model)
        self.guarded: type[Model] = guarded

    def perm(self, action: str) -> str:
        try:
            return self.perms[action]
        except KeyError:
            raise ValueError(f"{self.model.__name__} has no {action!r} permission") from None

    def model_perms(self, action: str) -> tuple[str, ...]:
        return (self.perm(action),)

    def target(self, obj: Model) -> Model:
        for name in self.via.split("__") if self.via else []:
            obj = getattr(obj, name)
        return obj

    def restrict(self, queryset: QuerySet, user: Any, action: str) -> QuerySet:
        perm = self.perm(action)
        if not _active(user):
            return queryset.none()
        if user.is_superuser or user.has_perm(perm):
            return queryset
        guarded = get_objects_for_user(user, perm, klass=self.guarded, accept_global_perms=False)
        if self.via:
            return queryset.filter(**{f"{self.via}__in": guarded})
        return queryset.filter(pk__in=guarded.values("pk"))

    def prepare(self, queryset: QuerySet, user: Any) -> QuerySet:
        if not _active(user):
            return queryset
        perms_model: Any = get_user_obj_perms_model(cast(Any, self.guarded))  # a class or an instance
        if not any(f.name == "object_pk" for f in perms_model._meta.get_fields()):
            return queryset  # direct foreign-key permission tables: the checker answers
        ref = OuterRef(f"{self.via}_id" if self.via and "__" not in self.via else (self.via or "pk"))
        direct = perms_model.objects.filter(
            user_id=user.pk,
            content_type=ContentType.objects.get_for_model(self.guarded),
            object_pk=Cast(ref, output_field=CharField()),
        ).values("permission__codename")
        return queryset.annotate(**{DIRECT_PERMS: ArraySubquery(direct)})

    def fetch_unique(self, queryset: QuerySet, user: Any, lookup: Mapping[str, Any]) -> Model | None | Any:
        """One guarded row by a unique column, with the caller's direct permissions on it, in
        one precompiled statement (what ``prepare`` + ``filter`` + ``first`` run).

        Why: the namespace of every remember, add and search is fetched this way, and building
        and compiling that queryset cost 1.2 ms of the 1.8 ms the lookup took
        (docs/benchmarks.md); the statement is the same every time but for three values. Only
        a plain queryset of the guarded model itself, one unique field, a generic permission
        table: anything else goes through the ORM as before."""
        if self.via or len(lookup) != 1 or not _active(user) or not _is_plain(queryset):
            return NotImplemented
        [(name, value)] = lookup.items()
        try:
            field: Any = self.model._meta.pk if name == "pk" else self.model._meta.get_field(name)
        except Exception:  # not a field name: the ORM raises the error it always did
            return NotImplemented
        if not (field.concrete and (field.unique or field.primary_key)) or field.is_relation:
            return NotImplemented
        statement = self._unique_statement(field)
        if statement is None:
            return NotImplemented
        sql, names = statement
        connection = connections[queryset.db]
        value = field.get_db_prep_value(value, connection, prepared=False)
        internal = field.get_internal_type()
        if internal in connection.ops.integer_field_ranges:  # out of range matches no row (as in the ORM)
            low, high = connection.ops.integer_field_range(internal)
            if (low is not None and value < low) or (high is not None and value > high):
                return None
        content_type = ContentType.objects.get_for_model(self.guarded)
        with connection.cursor() as cursor:
            cursor.execute(sql, [user.pk, content_type.pk, value])
            row = cursor.fetchone()
        if row is None:
            return None
        values = list(row[:-1])
        for i, column, converters in self._converters(connection):
            for convert in converters:
                values[i] = convert(values[i], column, connection)
        obj = self.model.from_db(queryset.db, names, values)
        setattr(obj, DIRECT_PERMS, list(row[-1]))
        return obj

    def _converters(self, connection: Any) -> list[tuple[int, Any, list[Any]]]:
        """The converters the ORM applies to each fetched column (a JSONField's text to a
        dict), for the columns that have any: found once per database connection alias."""
        cached = self._converter_cache.get(connection.alias)
        if cached is None:
            cached = []
            for i, field in enumerate(self.model._meta.concrete_fields):
                column = field.get_col(self.model._meta.db_table)
                converters = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
                if converters:
                    cached.append((i, column, converters))
            self._converter_cache[connection.alias] = cached
        return cached

    def _unique_statement(self, field: Any) -> tuple[str, list[str]] | None:
        key = field.attname
        cached = self._statements.get(key)
        if cached is not None:
            return cached
        perms_model: Any = get_user_obj_perms_model(cast(Any, self.guarded))
        if not any(f.name == "object_pk" for f in perms_model._meta.get_fields()):
            return None
        meta = self.model._meta
        fields = meta.concrete_fields
        perms_table = perms_model._meta.db_table
        permission_table = perms_model._meta.get_field("permission").related_model._meta.db_table
        columns = ", ".join(f't."{f.column}"' for f in fields)
        sql = (
            f'SELECT {columns}, ARRAY(SELECT p."codename" FROM "{perms_table}" u '
            f'JOIN "{permission_table}" p ON p."id" = u."permission_id" '
            f'WHERE u."user_id" = %s AND u."content_type_id" = %s AND u."object_pk" = (t."{meta.pk.column}")::varchar) '
            f'FROM "{meta.db_table}" t WHERE t."{field.column}" = %s'
        )
        self._statements[key] = (sql, [f.attname for f in fields])
        return self._statements[key]

    def allows(self, user: Any, obj: Model, action: str) -> bool:
        perm = self.perm(action)
        if not _active(user):
            return False
        codename = perm.split(".", 1)[1]
        direct = getattr(obj, DIRECT_PERMS, None)
        if direct is not None and codename in direct:
            return True  # the common case, answered by the query that fetched the row
        target = self.target(obj)
        return bool(checker_for(user).has_perm(codename, target) or user.has_perm(perm))


class OwnerPolicy(Policy):
    """Rows owned by one user (``owner_field``): the owner may do everything with them.

    ``shared_when_unowned``: rows without owner are seen by everyone (and changed only by holders
    of the model permission). ``perms``: action → model permissions granting it on every row.
    ``private``: not even superusers act on another user's rows (an agent's session).
    """

    def __init__(
        self,
        model: type[Model],
        *,
        owner_field: str = "owner",
        shared_when_unowned: bool = False,
        perms: Mapping[str, tuple[str, ...]] | None = None,
        private: bool = False,
    ) -> None:
        self.model = model
        self.private = private
        self.owner_field = owner_field
        self.shared_when_unowned = shared_when_unowned
        self.perms = dict(perms or {})

    def model_perms(self, action: str) -> tuple[str, ...]:
        return self.perms.get(action, ())

    def _all(self, user: Any, action: str) -> bool:
        if self.private:
            return False
        return bool(user.is_superuser or _any_model_perm(user, self.model_perms(action)))

    def restrict(self, queryset: QuerySet, user: Any, action: str) -> QuerySet:
        if not _active(user):
            return queryset.none()
        if self._all(user, action):
            return queryset
        visible = Q(**{f"{self.owner_field}_id": user.pk})
        if self.shared_when_unowned and action == "view":
            visible |= Q(**{f"{self.owner_field}__isnull": True})
        return queryset.filter(visible)

    def allows(self, user: Any, obj: Model, action: str) -> bool:
        if not _active(user):
            return False
        owner_id = getattr(obj, f"{self.owner_field}_id")
        if owner_id == user.pk or self._all(user, action):
            return True
        return owner_id is None and self.shared_when_unowned and action == "view"


_POLICIES: dict[type[Model], Policy] = {}


def _concrete(model: type[Model]) -> type[Model]:
    """The model whose policy decides for ``model`` (a proxy model shares its concrete model's)."""
    return cast("type[Model]", model._meta.concrete_model)


def register(policy: Policy) -> Policy:
    """Make ``policy`` the one that decides for its model (apps call it from permissions.py)."""
    _POLICIES[_concrete(policy.model)] = policy
    return policy


def policy_for(model: type[Model]) -> Policy:
    try:
        return _POLICIES[_concrete(model)]
    except KeyError:
        raise LookupError(f"no permission policy is registered for {model._meta.label}") from None


def has_policy(model: type[Model]) -> bool:
    return _concrete(model) in _POLICIES


# --- the primitives ------------------------------------------------------------------------------


def _is_plain(queryset: QuerySet) -> bool:
    """A queryset that is all of its model's rows: no filter, join, annotation, slice or
    deferred field (what ``Model.objects.all()`` is)."""
    query = queryset.query
    return (
        not query.where
        and not query.select_related
        and not query.annotations
        and not query.extra
        and query.low_mark == 0
        and query.high_mark is None
        and query.deferred_loading == (frozenset(), True)
        and not query.distinct
        and not cast(Any, queryset)._prefetch_related_lookups
        and queryset._result_cache is None
    )


def _queryset(queryset_or_model: QuerySet | type[Model]) -> QuerySet:
    if isinstance(queryset_or_model, QuerySet):
        return queryset_or_model
    return queryset_or_model._default_manager.all()


def restrict(queryset_or_model: QuerySet | type[Model], user: Any, action: str = "view") -> QuerySet:
    """The rows ``user`` may ``action``: the base of every list, search and admin page."""
    queryset = _queryset(queryset_or_model)
    return policy_for(queryset.model).restrict(queryset, user, action)


def allows(user: Any, obj: Model, action: str = "view") -> bool:
    """May ``user`` ``action`` this one object?"""
    return policy_for(type(obj)).allows(user, obj, action)


def can_any(user: Any, model: type[Model], action: str = "view") -> bool:
    """Does ``user`` hold ``action`` on the model, or on at least one of its rows? (Whether a
    door, an admin section or a tool is offered at all.)"""
    if not _active(user):
        return False
    policy = policy_for(model)
    if isinstance(policy, GuardianPolicy) and user.is_superuser:
        return True
    if _any_model_perm(user, policy.model_perms(action)):
        return True
    return restrict(model, user, action).exists()


def get_for_user(
    queryset_or_model: QuerySet | type[Model],
    user: Any,
    action: str = "view",
    *,
    not_found: str,
    denied: str | None = None,
    **lookup: Any,
) -> Any:
    """The one row matching ``lookup`` if ``user`` may ``action`` it.

    NOT_FOUND (``not_found``) when there is no such row, the lookup is malformed (a bad UUID) or
    the caller may not view it; PERMISSION_DENIED (``denied``) when it may view but not ``action``.
    """
    queryset = _queryset(queryset_or_model)
    policy = policy_for(queryset.model)
    try:
        obj = policy.fetch_unique(queryset, user, lookup)
        if obj is NotImplemented:
            obj = policy.prepare(queryset, user).filter(**lookup).first()
    except (ValueError, TypeError, ValidationError, OverflowError):
        obj = None
    if obj is None or not policy.allows(user, obj, "view"):
        raise NotFound(not_found)
    if action != "view" and not policy.allows(user, obj, action):
        raise Forbidden(denied or f"You may see this {queryset.model._meta.verbose_name} but not {action} it.")
    return obj


# --- remembered answers ---------------------------------------------------------------------------


def get_for_user_remembered(model: type[Model], user: Any, action: str = "view", **kwargs: Any) -> Any:
    """``get_for_user`` for a row that names a permission scope (a namespace), with the allowed
    answer remembered per process: each search otherwise spent a round trip and about 1 ms of CPU
    (PostgreSQL's and Django's) asking again what the previous one was told (bench/NOTES.md).

    A remembered answer is used only while nothing changed who may do what: it is dropped when
    ``permissions_changed`` runs (this process's own changes at once, another process's with the
    next token-authenticated request here, which reads the access version first:
    ``core.authentication``), and after ``MNEMO_TOKEN_CACHE_SECONDS`` in any case, the bound the
    token cache keeps for writes that bypass the signals. With that setting 0, or in a process that
    has not read the access version, nothing is remembered. Refusals are never remembered: they
    are asked again each time. Callers get their own copy of the row; the model's saves and
    deletes must move the access version (the app connects them), so a renamed or deleted row is
    not answered from here."""
    from django.conf import settings

    from core import authentication

    ttl = settings.MNEMO_TOKEN_CACHE_SECONDS
    pk = getattr(user, "pk", None)
    # A process that never read the access version (a management command, a session-only
    # entrance) would not see another process's change: it asks every time.
    if ttl <= 0 or authentication._seen_version is None or pk is None or not _active(user):
        return get_for_user(model, user, action, **kwargs)
    lookup = {k: v for k, v in kwargs.items() if k not in ("not_found", "denied")}
    key = (model._meta.label, pk, action, tuple(sorted(lookup.items())))
    now = time.monotonic()
    found = _remembered.get(key)
    if found is not None and found[0] == _generation and now - found[1] < ttl:
        return copy.copy(found[2])
    generation = _generation  # read before asking: a change meanwhile makes the answer stale at once
    obj = get_for_user(model, user, action, **kwargs)
    if len(_remembered) >= _REMEMBERED_MAX:
        _remembered.clear()
    _remembered[key] = (generation, now, copy.copy(obj))
    return obj


def parse_uuid(value: Any) -> uuid.UUID | None:
    """A UUID out of a path or argument, or None (which then answers like a missing row)."""
    try:
        return uuid.UUID(str(value))
    except (ValueError, AttributeError, TypeError):
        return None
