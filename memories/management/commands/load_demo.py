"""load_demo: a small, realistic data set so that a fresh ``make run`` has something to show."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction
from guardian.shortcuts import assign_perm
from rest_framework.authtoken.models import Token

from memories import services
from memories.models import Memory, Namespace

DEMO_MEMORIES = {
    "user:demo": [
        "User prefers email summaries in the morning.",
        "John Smith is the user's manager at Acme Corp.",
        "The user's Linear team ID is TEAM-123.",
        "User is working on the Q4 budget project, due end of month.",
        "User has a standing meeting with Sarah every Monday at 10am.",
        "My son Colby lives in Los Angeles.",
        "User prefers Slack over email for urgent notifications.",
        "User consistently prefers afternoon meetings over morning ones.",
    ],
    "agent:gmail_subagent": [
        "Gmail searches work better with sender:email syntax.",
        "For meeting scheduling, always check the calendar first.",
        "Use bulk operations for more than five todo updates.",
    ],
}


class Command(BaseCommand):
    help = "Load demo users, namespaces and memories. Idempotent: running it again adds nothing."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--quiet", action="store_true", help="print nothing but errors")

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        user, _ = get_user_model().objects.get_or_create(username="demo", defaults={"email": "demo@example.com"})
        token, _ = Token.objects.get_or_create(user=user)
        created: list[int] = []
        for key, texts in DEMO_MEMORIES.items():
            ns, _ = Namespace.objects.get_or_create(
                key=key, defaults={"kind": Namespace.kind_for_key(key), "owner": user}
            )
            # The demo agent reads and writes its skills namespace too.
            assign_perm("view_namespace", user, ns)
            assign_perm("write_namespace", user, ns)
            for text in texts:
                memory, new = Memory.objects.get_or_create(namespace=ns, text=text)
                if new:
                    created.append(memory.id)
        services.enqueue_embedding(ids=created)
        if not options["quiet"]:
            self.stdout.write(f"Demo data: {len(created)} new memories. Demo agent token (user 'demo'): {token.key}")
