"""What every Mnemo management command shares: --quiet, failures as one line and exit 1, and
numeric options checked against their range."""

from __future__ import annotations

from datetime import timedelta
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


#: The longest span an "older than" option takes: a hundred years (datetime arithmetic past year 1
#: overflows, and nothing in Mnemo is older).
LONGEST_SPAN = timedelta(days=36_500)


def in_range(options: dict[str, Any], flag: str, *, minimum: int, maximum: int, unit: str) -> Any:
    """The value of option ``flag`` ("--older-than"), refused with a one-line reason unless
    ``minimum`` <= it <= ``maximum`` (NaN, which argparse's float type takes, fails every
    comparison and so is refused too)."""
    value = options[flag.lstrip("-").replace("-", "_")]
    if not minimum <= value <= maximum:
        raise CommandError(f"{flag} must be from {minimum} to {maximum:,} {unit}.")
    return value
