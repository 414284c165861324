from django.apps import AppConfig


class AssistantConfig(AppConfig):
    name = "assistant"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from assistant import permissions  # noqa: F401  (registers the permission policies)
