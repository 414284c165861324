"""purge_expired_memories: free the space of memories expired long ago."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandParser

from core.commands import LONGEST_SPAN, MnemoCommand, in_range
from core.progress import progress
from memories import ops


class Command(MnemoCommand):
    help = (
        "Delete memories that expired more than DAYS days ago. Recall hides a memory the moment it expires; "
        "this only frees space. Tombstones and history are kept. Works in batches that commit on their own, "
        "so it can be stopped and run again. Example: manage.py purge_expired_memories --older-than 30 --dry-run"
    )

    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        parser.add_argument(
            "--older-than", type=int, required=True, metavar="DAYS", help="expired for more than this many days"
        )
        parser.add_argument("--dry-run", action="store_true", help="count what would go, delete nothing")
        parser.add_argument("--batch-size", type=int, default=1000)

    def handle(self, *args: Any, **options: Any) -> None:
        in_range(options, "--older-than", minimum=0, maximum=LONGEST_SPAN.days, unit="days")
        # 0 would read nothing and report "Deleted 0" with expired memories left.
        in_range(options, "--batch-size", minimum=1, maximum=100_000, unit="memories")
        candidates = ops.expired_before(options["older_than"])
        total = candidates.count()
        if options["dry_run"]:
            self.stdout.write(f"Would delete {total} memories expired more than {options['older_than']} days ago.")
            return
        deleted = 0
        with progress("Purging", total, quiet=options["quiet"]) as bar:
            while True:
                ids = list(candidates.order_by("id").values_list("id", flat=True)[: options["batch_size"]])
                if not ids:
                    break
                deleted += ops.purge_batch(ids)
                bar.advance(len(ids))
        self.say(f"Deleted {deleted} expired memories (tombstones and history kept).", options)
