"""requeue_stale_memories: the sweeper, by hand."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.management.base import CommandParser

from core.commands import LONGEST_SPAN, MnemoCommand, in_range
from memories import services


class Command(MnemoCommand):
    help = (
        "Send memories that stayed queued longer than MINUTES to the embedding task again (what Celery beat's "
        "sweeper does every minute). Safe to run any time: the task skips what is already embedded. "
        "Example: manage.py requeue_stale_memories --older-than 10"
    )

    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        parser.add_argument(
            "--older-than",
            type=float,
            metavar="MINUTES",
            default=settings.MNEMO_REQUEUE_AFTER_SECONDS / 60,
            help="queued for longer than this (default: MNEMO_REQUEUE_AFTER_SECONDS)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        minutes = int(LONGEST_SPAN.total_seconds() // 60)
        in_range(options, "--older-than", minimum=0, maximum=minutes, unit="minutes")
        count = services.requeue_stale_memories(older_than=timedelta(minutes=options["older_than"]))
        self.say(f"Sent {count} queued memories to the embedding task again.", options)
