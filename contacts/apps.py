from django.apps import AppConfig


class ContactsConfig(AppConfig):
    name = "contacts"
    verbose_name = "Contacts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from contacts import permissions  # noqa: F401  (registers the permission policies)
