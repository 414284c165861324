"""The admin as one more entrance to the one door: admin classes get their rows, their choice
fields and their object-permission pages through ``core.permissions``.

- ``PermissionLayerAdminMixin``: the changelist is ``restrict(…, "view")``, each object's view /
  change / delete needs the model permission (Django's gate for the section) **and** the layer's
  answer for that very object, and every foreign-key choice offers only objects the staff user may
  change (so a form can never point a row at an object they cannot change).
- ``ObjectPermissionPagesMixin``: guardian's "Object permissions" pages, made safe. A staff user
  may open them for an object only if they may change **that object** and hold guardian's own right
  to manage object permissions (``guardian.change_userobjectpermission``; for groups also
  ``guardian.change_groupobjectpermission``); superusers may always. An object they may not view
  is a 404 there as everywhere, one they may view but not manage a 403. They grant and revoke only
  permissions they hold on that object themselves, among the few that mean something for the model
  (``object_permission_choices``), and they find the person by username or email address.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.core.exceptions import BadRequest, PermissionDenied, ValidationError
from django.db.models import Model
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from guardian.admin import GuardedModelAdminMixin
from guardian.forms import GroupObjectPermissionsForm, UserObjectPermissionsForm
from guardian.shortcuts import get_groups_with_perms, get_users_with_perms

from core import permissions as layer
from core import tokens
from core.errors import MnemoError
from core.fields import text_problem
from core.models import ApiToken
from core.secrets import SecretScanningForm

MANAGE_USER_PERMS = "guardian.change_userobjectpermission"
MANAGE_GROUP_PERMS = "guardian.change_groupobjectpermission"


class StorableQueryMiddleware:
    """The admin's (and the staff pages') query strings hold only storable text.

    A changelist filter or search passes its value to SQL untouched, and PostgreSQL refuses a
    NUL in text with an error raised only when the page renders its rows: ``?tag=%00`` and
    ``?source_provider=%00`` were 500s. Such a parameter (name or value) is a 400 here, for every
    admin page and filter at once, Django's own included. The API and /rpc are left to their
    contracts, which answer the same input with the error envelope and a message per field.
    """

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith(("/api/", "/rpc")):
            for key, values in request.GET.lists():
                if any(text_problem(text) for text in (key, *values)):
                    raise BadRequest("A query parameter holds a NUL character or invalid Unicode.")
        return self.get_response(request)


def _staff(request: HttpRequest) -> bool:
    return bool(request.user.is_active and request.user.is_staff)


class RestrictedChoicesMixin:
    """Foreign-key choices offer only objects the staff user may change."""

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        related = db_field.related_model
        if "queryset" not in kwargs and layer.has_policy(related):
            kwargs["queryset"] = layer.restrict(related, request.user, "change")
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class PermissionLayerAdminMixin(RestrictedChoicesMixin):
    """Rows, per-object rights and foreign-key choices of an admin class, from the layer."""

    def get_queryset(self, request):
        return layer.restrict(super().get_queryset(request), request.user, "view")

    def has_view_permission(self, request, obj=None):
        if not (_staff(request) and super().has_view_permission(request, None)):
            return False
        return obj is None or layer.allows(request.user, obj, "view")

    def has_change_permission(self, request, obj=None):
        if not (_staff(request) and super().has_change_permission(request, None)):
            return False
        return obj is None or layer.allows(request.user, obj, "change")

    def has_delete_permission(self, request, obj=None):
        if not (_staff(request) and super().has_delete_permission(request, None)):
            return False
        return obj is None or layer.allows(request.user, obj, "delete")


class PersonForm(forms.Form):
    """Whom to manage: found by username (any case) or email address, never by a raw id."""

    user = forms.CharField(
        label="Username",
        max_length=254,
        help_text="The person's username (as on their user page, e.g. alice) or email address.",
        widget=forms.TextInput(attrs={"autocomplete": "off", "placeholder": "username or email"}),
    )

    def clean_user(self) -> Any:
        text = self.cleaned_data["user"].strip()
        users = get_user_model()._default_manager
        field = get_user_model().USERNAME_FIELD
        for lookup in ({field: text}, {f"{field}__iexact": text}, {"email__iexact": text}):
            found = list(users.filter(**lookup)[:2])
            if len(found) == 1:
                return found[0]
        raise ValidationError("There is no user with this username or email address.")


class GroupNameForm(forms.Form):
    group = forms.CharField(label="Group name", max_length=150, help_text="The name of the group, as in Groups.")

    def clean_group(self) -> Group:
        group = Group.objects.filter(name=self.cleaned_data["group"].strip()).first()
        if group is None:
            raise ValidationError("There is no group with this name.")
        return group


def _limited(base: type[forms.Form], allowed: list[str]) -> type[forms.Form]:
    """guardian's per-user (or per-group) form offering only ``allowed``, as checkboxes."""

    class LimitedForm(base):  # type: ignore[valid-type, misc]
        def get_obj_perms_field_choices(self):
            names = dict(super().get_obj_perms_field_choices())
            return [(codename, names[codename]) for codename in allowed if codename in names]

        def get_obj_perms_field_widget(self):
            return forms.CheckboxSelectMultiple

    return LimitedForm


class ObjectPermissionPagesMixin(RestrictedChoicesMixin, GuardedModelAdminMixin):
    """guardian's object-permission pages, gated per object (see the module docstring)."""

    #: The codenames these pages show and grant; the model's other permissions mean nothing here.
    object_permission_choices: tuple[str, ...] = ()

    # --- who may do what ---------------------------------------------------------------------------

    def can_manage_permissions(self, request: HttpRequest, obj: Model, *, groups: bool = False) -> bool:
        user = request.user
        if not _staff(request):
            return False
        if user.is_superuser:
            return True
        rights = [MANAGE_USER_PERMS, MANAGE_GROUP_PERMS] if groups else [MANAGE_USER_PERMS]
        return all(user.has_perm(right) for right in rights) and layer.allows(user, obj, "change")

    def grantable_permissions(self, request: HttpRequest, obj: Model) -> list[str]:
        """What this staff user may hand out on ``obj``: what they hold on it themselves."""
        user = request.user
        if user.is_superuser:
            return list(self.object_permission_choices)
        checker = layer.checker_for(user)
        app = obj._meta.app_label
        return [c for c in self.object_permission_choices if checker.has_perm(c, obj) or user.has_perm(f"{app}.{c}")]

    def _managed_object(self, request: HttpRequest, object_pk: str, *, groups: bool = False) -> Model:
        try:
            obj = self.get_queryset(request).filter(pk=unquote(object_pk)).first()
        except (ValueError, ValidationError):
            obj = None
        if obj is None:
            raise Http404("No such object.")
        if not self.can_manage_permissions(request, obj, groups=groups):
            raise PermissionDenied
        return obj

    def _meaningful(self, perms: Any) -> list[str]:
        return [p for p in perms if p in self.object_permission_choices]

    # --- the pages ---------------------------------------------------------------------------------

    def get_obj_perms_base_context(self, request, obj):
        context = super().get_obj_perms_base_context(request, obj)
        model_perms = Permission.objects.filter(
            content_type__app_label=obj._meta.app_label,
            content_type__model=obj._meta.model_name,
            codename__in=self.object_permission_choices,
        )
        order = {c: i for i, c in enumerate(self.object_permission_choices)}
        context["model_perms"] = sorted(model_perms, key=lambda p: order[p.codename])
        context["has_change_permission"] = self.has_change_permission(request, obj)
        return context

    def get_obj_perms_user_select_form(self, request):
        return PersonForm

    def get_obj_perms_group_select_form(self, request):
        return GroupNameForm

    def _url(self, name: str, *args: Any) -> str:
        opts = self.model._meta
        return reverse(f"{self.admin_site.name}:{opts.app_label}_{opts.model_name}_{name}", args=args)

    def obj_perms_manage_view(self, request, object_pk):
        obj = self._managed_object(request, object_pk)
        user_form, group_form = PersonForm(), GroupNameForm()
        if request.method == "POST" and "submit_manage_user" in request.POST:
            user_form = PersonForm(request.POST)
            if user_form.is_valid():
                return redirect(self._url("permissions_manage_user", obj.pk, user_form.cleaned_data["user"].pk))
        elif request.method == "POST" and "submit_manage_group" in request.POST:
            self._managed_object(request, object_pk, groups=True)
            group_form = GroupNameForm(request.POST)
            if group_form.is_valid():
                return redirect(self._url("permissions_manage_group", obj.pk, group_form.cleaned_data["group"].pk))
        users = get_users_with_perms(obj, attach_perms=True, with_group_users=False)
        groups = get_groups_with_perms(obj, attach_perms=True)
        context = self.get_obj_perms_base_context(request, obj)
        rows = [(u, self._meaningful(p)) for u, p in users.items()]
        context["users_perms"] = OrderedDict(sorted(((u, p) for u, p in rows if p), key=lambda row: str(row[0])))
        rows = [(g, self._meaningful(p)) for g, p in groups.items()]
        context["groups_perms"] = OrderedDict(sorted(((g, p) for g, p in rows if p), key=lambda row: row[0].name))
        context["user_form"], context["group_form"] = user_form, group_form
        request.current_app = self.admin_site.name
        return render(request, self.get_obj_perms_manage_template(), context)

    def _manage(self, request, obj, whom, base_form, template, url_name) -> HttpResponse:
        form = _limited(base_form, self.grantable_permissions(request, obj))(whom, obj, request.POST or None)
        if request.method == "POST" and form.is_valid():
            form.save_obj_perms()
            messages.success(request, "Permissions saved.")
            return redirect(self._url(url_name, obj.pk, whom.pk))
        context = self.get_obj_perms_base_context(request, obj)
        context["form"] = form
        request.current_app = self.admin_site.name
        return render(request, template, context | self._whom_context(whom, obj))

    def _whom_context(self, whom: Any, obj: Model) -> dict[str, Any]:
        if isinstance(whom, Group):
            return {"group_obj": whom}
        return {"user_obj": whom}

    def obj_perms_manage_user_view(self, request, object_pk, user_id):
        obj = self._managed_object(request, object_pk)
        whom = get_user_model()._default_manager.filter(pk=user_id).first() if str(user_id).isdigit() else None
        if whom is None:
            raise Http404("No such user.")
        return self._manage(
            request,
            obj,
            whom,
            UserObjectPermissionsForm,
            self.get_obj_perms_manage_user_template(),
            "permissions_manage_user",
        )

    def obj_perms_manage_group_view(self, request, object_pk, group_id):
        obj = self._managed_object(request, object_pk, groups=True)
        whom = Group.objects.filter(pk=group_id).first() if str(group_id).isdigit() else None
        if whom is None:
            raise Http404("No such group.")
        return self._manage(
            request,
            obj,
            whom,
            GroupObjectPermissionsForm,
            self.get_obj_perms_manage_group_template(),
            "permissions_manage_group",
        )


# --- API tokens ----------------------------------------------------------------------------------


class ApiTokenForm(SecretScanningForm):
    """A token's name, expiry and limit; a new token is checked like one made over the API."""

    class Meta:
        model = ApiToken
        fields = ["user", "name", "expires_at", "rate_limit_per_minute"]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        try:
            if self.instance.pk is None and data.get("user") is not None and not self.errors:
                tokens.check_new_token(
                    user=data["user"],
                    name=data.get("name", ""),
                    expires_at=data.get("expires_at"),
                    rate_limit_per_minute=data.get("rate_limit_per_minute"),
                )
            else:  # a token re-limited here: the API's bound, not the column's 2,147,483,647
                tokens.check_rate_limit(data.get("rate_limit_per_minute"))
        except MnemoError as exc:
            raise ValidationError(exc.message) from exc
        return data


@admin.register(ApiToken)
class ApiTokenAdmin(PermissionLayerAdminMixin, admin.ModelAdmin):
    """Every user's tokens for staff holding the model permissions: made here (the key is shown
    once, on the page that follows), renamed, re-limited, revoked. Never their keys."""

    form = ApiTokenForm
    list_display = ["name", "prefix", "user", "created_at", "expires_at", "last_used_at", "revoked_at"]
    list_filter = [("revoked_at", admin.EmptyFieldListFilter)]
    search_fields = ["name", "prefix", "user__username"]
    list_select_related = ["user"]
    raw_id_fields = ["user"]
    actions = ["revoke_selected"]

    def get_fields(self, request, obj=None):
        if obj is None:
            return ["user", "name", "expires_at", "rate_limit_per_minute"]
        return [
            "user",
            "name",
            "prefix",
            "created_at",
            "expires_at",
            "last_used_at",
            "revoked_at",
            "rate_limit_per_minute",
        ]

    def get_readonly_fields(self, request, obj=None):
        return ["user", "prefix", "created_at", "last_used_at", "revoked_at"] if obj is not None else []

    def get_search_results(self, request, queryset, search_term):
        # PostgreSQL text cannot hold NUL: such a search matches nothing (instead of a 500).
        if "\x00" in search_term:
            return queryset.none(), False
        return super().get_search_results(request, queryset, search_term)

    def save_model(self, request, obj, form, change):
        if change:
            super().save_model(request, obj, form, change)
            return
        # A new token is made by the one service the API and the commands use (its checks under
        # the user's row lock, the name as stored); the form's object becomes that row.
        issued = tokens.issue_token(
            user=obj.user, name=obj.name, expires_at=obj.expires_at, rate_limit_per_minute=obj.rate_limit_per_minute
        )
        for field in ApiToken._meta.concrete_fields:
            setattr(obj, field.attname, getattr(issued.token, field.attname))
        obj._state.adding, obj._state.db = False, issued.token._state.db
        request._mnemo_new_token_key = issued.key  # shown by response_add, once

    def response_add(self, request, obj, post_url_continue=None):
        key = getattr(request, "_mnemo_new_token_key", None)
        if key is None:
            return super().response_add(request, obj, post_url_continue)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "token": obj,
            "key": key,
            "title": f"Token {obj.name} for {obj.user}",
        }
        response = render(request, "admin/core/apitoken/created.html", context)
        response["Cache-Control"] = "no-store"  # the key must not stay in any cache
        return response

    @admin.action(description="Revoke the selected tokens", permissions=["change"])
    def revoke_selected(self, request, queryset):
        revoked = 0
        for token in queryset.filter(revoked_at__isnull=True):
            if layer.allows(request.user, token, "change"):
                tokens.revoke_token(token=token)
                revoked += 1
        messages.success(request, f"Revoked {revoked} token(s); they stopped working at once.")
