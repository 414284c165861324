"""What every Mnemo management command shares: --quiet, and failures as one line and exit 1."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError

from core.errors import MnemoError


class MnemoCommand(BaseCommand):
    """A command whose domain and database errors end it with a one-line reason and exit 1."""

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--quiet", action="store_true", help="print nothing but errors (no progress bar)")

    def execute(self, *args: Any, **options: Any) -> Any:
        try:
            return super().execute(*args, **options)
        except MnemoError as exc:
            raise CommandError(exc.message) from exc
        except DatabaseError as exc:
            raise CommandError(f"database error: {str(exc).strip().splitlines()[0]}") from exc

    def say(self, message: str, options: dict[str, Any]) -> None:
        if not options.get("quiet"):
            self.stdout.write(message)
