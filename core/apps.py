from django.apps import AppConfig


class CoreConfig(AppConfig):
    """What every app and entrance shares: domain errors, input field types, permission
    primitives, command helpers. It imports nothing of the other apps."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "core"

    def ready(self) -> None:
        # Registers the OpenAPI extension of StrictSerializer (additionalProperties: false).
        from core import schema  # noqa: F401
