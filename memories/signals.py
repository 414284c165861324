"""Every user gets a namespace of their own, ``user:<username>``, with view and write on it."""

from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="memories.user_namespace")
def create_user_namespace(sender, instance, created: bool, raw: bool = False, **kwargs) -> None:
    if created and not raw:
        from memories.permissions import ensure_user_namespace

        ensure_user_namespace(instance)
