"""ensure_admin: the superuser ``admin`` exists (used by ``make run``)."""

from __future__ import annotations

import os
import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from core.commands import checked_username


class Command(BaseCommand):
    help = (
        "Create the superuser (default 'admin') if it is missing, with the password from "
        "MNEMO_ADMIN_PASSWORD or a random one printed once. An existing user is left unchanged."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--username", default="admin")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            self._ensure(options)
        except CommandError:
            raise
        except Exception as exc:  # noqa: BLE001 - make run shows one line and a way out, not a traceback
            first = (str(exc).strip().splitlines() or [""])[0]
            raise CommandError(
                f"could not check or create the superuser ({exc.__class__.__name__}: {first}). "
                "Run `manage.py mnemo_doctor` to see what is wrong with the database, or create one with "
                "`manage.py createsuperuser`."
            ) from exc

    def _ensure(self, options: dict[str, Any]) -> None:
        User = get_user_model()
        # A name the user table cannot hold is the caller's mistake, not the database's: said as
        # such (a CommandError passes the handler above unchanged).
        username = checked_username(options["username"], flag="--username")
        if User.objects.filter(username=username).exists():
            self.stdout.write(f"Superuser {username!r} exists; password unchanged.")
            return
        password = os.environ.get("MNEMO_ADMIN_PASSWORD") or secrets.token_urlsafe(12)
        User.objects.create_superuser(username=username, email="", password=password)
        if os.environ.get("MNEMO_ADMIN_PASSWORD"):
            self.stdout.write(f"Created superuser {username!r} with the password from MNEMO_ADMIN_PASSWORD.")
        else:
            self.stdout.write(
                self.style.WARNING(
                    f"Created superuser {username!r} with password: {password}\n"
                    "It is shown only this once; change it in the admin."
                )
            )
