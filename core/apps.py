from django.apps import AppConfig


class CoreConfig(AppConfig):
    """What every app and entrance shares: domain errors, input field types, permission
    primitives, command helpers, API tokens. It imports nothing of the other apps."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "core"

    def ready(self) -> None:
        # Registers the OpenAPI extension of StrictSerializer (additionalProperties: false).
        from core import schema  # noqa: F401
        from core.authentication import connect_signals
        from core.models import ApiToken
        from core.permissions import OwnerPolicy, register

        # Cached callers (a token's user with its checkers and permission caches) must not
        # outlive a change of who may do what, in this process or any other.
        connect_signals()
        # A token is its owner's; holders of the model permissions (staff in the admin) act on all.
        register(
            OwnerPolicy(
                ApiToken,
                owner_field="user",
                perms={
                    "view": ("core.view_apitoken",),
                    "change": ("core.change_apitoken",),
                    "delete": ("core.delete_apitoken",),
                },
            )
        )
