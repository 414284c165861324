"""reembed_memories: embed memories again, in batches, with the current or a named model."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError, CommandParser

from core.commands import MnemoCommand, in_range
from core.progress import progress
from memories import ops
from memories.embedding import EmbedderUnavailable


class Command(MnemoCommand):
    help = (
        "Embed memories again in batches. Without options: every memory not yet embedded by the current "
        "model (MNEMO_EMBEDDER), so after a model change each row records the new model's name. Each batch "
        "commits on its own: Ctrl-C loses nothing, and running it again continues where it stopped. "
        "Example: manage.py reembed_memories --namespace user:alice --batch-size 64"
    )

    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        parser.add_argument("--namespace", help="only this namespace (e.g. user:alice)")
        parser.add_argument("--model", help="embedder to use (a MNEMO_EMBEDDER value); default: the configured one")
        parser.add_argument("--only-missing", action="store_true", help="only memories that have no vector at all")
        parser.add_argument(
            "--all",
            action="store_true",
            dest="every",
            help="every memory, even those the current model's name already embedded (a rerun starts over)",
        )
        parser.add_argument("--batch-size", type=int, default=64, help="memories per batch (default 64)")

    def handle(self, *args: Any, **options: Any) -> None:
        in_range(options, "--batch-size", minimum=1, maximum=10_000, unit="memories")
        # Refused before the embedder loads: a wrong command line costs no model load.
        if options["every"] and options["only_missing"]:
            raise CommandError("--all and --only-missing exclude each other.")
        try:
            embedder = ops.embedder_for(options["model"])
        except EmbedderUnavailable as exc:
            raise CommandError(str(exc)) from exc
        todo = ops.reembed_queryset(
            embedder=embedder,
            namespace=options["namespace"],
            only_missing=options["only_missing"],
            every=options["every"],
        )
        total = todo.count()
        done = 0
        last_id = 0
        with progress(f"Embedding with {embedder.name}", total, quiet=options["quiet"]) as bar:
            while True:
                # Keyset pagination: rows done in earlier batches drop out of ``todo`` anyway.
                ids = list(
                    todo.filter(id__gt=last_id).order_by("id").values_list("id", flat=True)[: options["batch_size"]]
                )
                if not ids:
                    break
                try:
                    done += ops.reembed_batch(embedder=embedder, ids=ids)
                except EmbedderUnavailable as exc:
                    raise CommandError(f"embedding failed after {done} memories: {exc}") from exc
                last_id = ids[-1]
                bar.advance(len(ids))
        self.say(f"Re-embedded {done} memories with {embedder.name}.", options)
