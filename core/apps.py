from django.apps import AppConfig


class CoreConfig(AppConfig):
    """What every app and entrance shares: domain errors, input field types, permission
    primitives, command helpers. It imports nothing of the other apps."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "core"

    def ready(self) -> None:
        # Registers the OpenAPI extension of StrictSerializer (additionalProperties: false).
        from django.db.models.signals import m2m_changed, post_delete, post_save
        from guardian.utils import get_group_obj_perms_model, get_user_obj_perms_model

        from core import schema  # noqa: F401
        from core.permissions import permissions_changed

        # A checker cached for a request must not outlive a change of object permissions.
        for model in {get_user_obj_perms_model(), get_group_obj_perms_model()}:
            post_save.connect(permissions_changed, sender=model, dispatch_uid=f"core.perms.save.{model._meta.label}")
            post_delete.connect(permissions_changed, sender=model, dispatch_uid=f"core.perms.del.{model._meta.label}")
        m2m_changed.connect(permissions_changed, dispatch_uid="core.perms.m2m")
