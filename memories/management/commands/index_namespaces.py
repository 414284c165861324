"""index_namespaces: give large namespaces an HNSW index of their own, drop those no longer needed."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import CommandError, CommandParser

from core.commands import MnemoCommand
from memories import ops


class Command(MnemoCommand):
    help = (
        "Build an HNSW index of its own for each namespace with at least MNEMO_NAMESPACE_INDEX_MIN_MEMORIES "
        "live memories (its searches then never walk past other namespaces' rows), rebuild one an interrupted "
        "build left invalid, and drop those of namespaces that fell below half of that. Indexes are built "
        "concurrently: the service keeps serving. Beat runs the same every MNEMO_NAMESPACE_INDEX_INTERVAL_SECONDS. "
        "Example: manage.py index_namespaces --dry-run"
    )

    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        parser.add_argument("--dry-run", action="store_true", help="list what would change, change nothing")

    def handle(self, *args: Any, **options: Any) -> None:
        threshold = settings.MNEMO_NAMESPACE_INDEX_MIN_MEMORIES
        if options["dry_run"]:
            plan = ops.namespace_index_plan()
            for action in plan:
                self.say(f"would {action.describe()}", options)
            self.say(f"{len(plan)} change(s) planned (threshold: {threshold:,} live memories).", options)
            return
        done = ops.maintain_namespace_indexes(report=lambda action: self.say(action.describe(), options))
        if done is None:
            raise CommandError("another index_namespaces run is in progress; nothing done.")
        self.say(f"{len(done)} change(s) made (threshold: {threshold:,} live memories).", options)
