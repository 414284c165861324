"""What every Mnemo management command shares: --quiet, failures as one line and exit 1, numeric
options checked against their range, and user names checked before they reach the database."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError

from core.errors import MnemoError
from core.fields import text_problem


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
    comparison and so is refused too). An option left out (None) is left to its command."""
    value = options[flag.lstrip("-").replace("-", "_")]
    if value is not None and not minimum <= value <= maximum:
        raise CommandError(f"{flag} must be from {minimum} to {maximum:,} {unit}.")
    return value


def checked_username(value: str, *, flag: str) -> str:
    """A user name given on the command line, stripped: refused with a one-line reason when it is
    empty, holds a NUL or is longer than the user table's column (each a database error before),
    and, for a user not yet there (about to be made), when Django's own username validator
    refuses it (letters, digits and @.+-_ only). An existing user's name is taken as stored."""
    User = get_user_model()
    field = User._meta.get_field(User.USERNAME_FIELD)
    name = value.strip()
    if not name:
        raise CommandError(f"{flag} must not be empty.")
    problem = text_problem(name)
    if problem is None and field.max_length is not None and len(name) > field.max_length:
        problem = f"is {len(name)} characters long; the limit is {field.max_length}"
    if problem:
        raise CommandError(f"{flag} {problem}.")
    if not User._default_manager.filter(**{User.USERNAME_FIELD: name}).exists():
        try:
            field.run_validators(name)
        except ValidationError as exc:
            raise CommandError(f"{flag}: {' '.join(exc.messages)}") from exc
    return name
