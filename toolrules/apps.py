from django.apps import AppConfig


class ToolrulesConfig(AppConfig):
    name = "toolrules"
    default_auto_field = "django.db.models.BigAutoField"
