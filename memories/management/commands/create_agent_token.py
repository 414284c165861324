"""create_agent_token USERNAME: a new API token for an agent (``Authorization: Token …``).

Only a token's hash is stored, so the key is printed once, when it is made. ``--rotate`` revokes
the user's live tokens of that name first; ``--revoke`` only revokes (all of the user's live
tokens, or those of ``--name``).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils import timezone

from core.commands import LONGEST_SPAN, checked_username, in_range
from core.errors import MnemoError
from core.models import ApiToken
from core.tokens import issue_token, revoke_token


class Command(BaseCommand):
    help = (
        "Make a new API token for USERNAME (creating the user, without a password, if needed) and print it: "
        "it is shown only this once. --rotate revokes the user's live tokens of that name first; --revoke "
        "revokes the user's live tokens (those of --name only, if given) and makes none."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--name", help='the token\'s name (default "default")')
        parser.add_argument("--expires-in-days", type=int, help="the token stops working after this many days")
        parser.add_argument("--rate-limit", type=int, help="requests per minute the token may make")
        group = parser.add_mutually_exclusive_group()
        group.add_argument("--rotate", action="store_true", help="revoke the live tokens of this name, then make one")
        group.add_argument("--revoke", action="store_true", help="revoke the user's live tokens; make none")

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        username = checked_username(options["username"], flag="USERNAME")
        name = options["name"]
        User = get_user_model()
        if options["revoke"]:
            live = ApiToken.objects.filter(user__username=username, revoked_at__isnull=True)
            if name is not None:
                live = live.filter(name=name)
            revoked = [revoke_token(token=token) for token in live]
            if not revoked:
                raise CommandError(f"{username} has no live token to revoke.")
            self.stdout.write(f"Revoked {len(revoked)} token(s) of {username}.")
            return
        name = name if name is not None else "default"
        days = in_range(options, "--expires-in-days", minimum=1, maximum=LONGEST_SPAN.days, unit="days")
        user, created = User.objects.get_or_create(username=username)
        if created:
            user.set_unusable_password()
            user.save(update_fields=["password"])
        if options["rotate"]:
            for token in ApiToken.objects.filter(user=user, name=name, revoked_at__isnull=True):
                revoke_token(token=token)
        try:
            issued = issue_token(
                user=user,
                name=name,
                expires_at=timezone.now() + timedelta(days=days) if days is not None else None,
                rate_limit_per_minute=options["rate_limit"],
            )
        except MnemoError as exc:  # the user made above is rolled back with it (transaction.atomic)
            raise CommandError(exc.message) from exc
        if created:
            self.stderr.write(f"Created user {username}.")
        self.stdout.write(issued.key)
