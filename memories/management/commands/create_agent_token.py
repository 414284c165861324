"""create_agent_token USERNAME: the API token an agent sends as ``Authorization: Token …``."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from rest_framework.authtoken.models import Token


class Command(BaseCommand):
    help = (
        "Print the API token of USERNAME, creating the user (without a password) and the token if "
        "needed. --rotate replaces the token (the old one stops working at once); --revoke deletes it."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        group = parser.add_mutually_exclusive_group()
        group.add_argument("--rotate", action="store_true", help="replace the existing token with a new one")
        group.add_argument("--revoke", action="store_true", help="delete the token; the agent can no longer call")

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        username: str = options["username"].strip()
        if not username:
            raise CommandError("USERNAME must not be empty.")
        User = get_user_model()
        if options["revoke"]:
            deleted, _ = Token.objects.filter(user__username=username).delete()
            if not deleted:
                raise CommandError(f"{username} has no token to revoke.")
            self.stdout.write(f"Revoked the token of {username}.")
            return
        user, created = User.objects.get_or_create(username=username)
        if created:
            user.set_unusable_password()
            user.save(update_fields=["password"])
            self.stderr.write(f"Created user {username}.")
        if options["rotate"]:
            Token.objects.filter(user=user).delete()
        token, _ = Token.objects.get_or_create(user=user)
        self.stdout.write(token.key)
