from django.apps import AppConfig


class ToolrulesConfig(AppConfig):
    name = "toolrules"
    verbose_name = "Tool rules"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from toolrules import permissions  # noqa: F401  (registers the permission policies)
