"""import_memories: JSON Lines in, each line checked like remember."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError, CommandParser

from core.commands import MnemoCommand
from core.progress import progress
from memories import ops
from memories.embedding import EmbedderUnavailable


def _n(count: int, one: str, many: str = "") -> str:
    return f"{count} {one if count == 1 else (many or one + 's')}"


class Command(MnemoCommand):
    help = (
        "Import memories from a JSON Lines file (as export_memories writes). Each line is checked like "
        "remember (secrets rejected, length, tags normalized); a rejected line is reported with its number and "
        "the import goes on. Texts are embedded in batches. Lines carrying an event_id that is already in the "
        "database are skipped, so an interrupted import can be run again without duplicates. Exits 1 if any "
        "line was rejected. Example: manage.py import_memories alice.jsonl --dedup-policy skip_if_near"
    )

    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        parser.add_argument(
            "file", help="a JSON Lines file; a relative name not found here is looked for in MNEMO_DATA_DIR/exports/"
        )
        parser.add_argument("--namespace", help="import every line into this namespace instead of its own")
        parser.add_argument(
            "--dedup-policy",
            choices=["insert", "skip_if_near", "ask"],
            default="insert",
            help="insert (default), skip_if_near (skip lines near an existing memory), ask "
            "(insert, and count the near ones)",
        )
        parser.add_argument("--batch-size", type=int, default=64)

    def handle(self, *args: Any, **options: Any) -> None:
        path = str(ops.resolve_import_path(options["file"]))
        try:
            with open(path, encoding="utf-8") as handle:
                lines = list(enumerate(handle, start=1))
        except OSError as exc:
            raise CommandError(f"cannot read {path}: {exc.strerror}.") from exc
        except UnicodeDecodeError as exc:
            raise CommandError(f"{path} is not UTF-8 text (byte {exc.start}).") from exc
        try:
            embedder = ops.embedder_for(None)
        except EmbedderUnavailable as exc:
            raise CommandError(str(exc)) from exc
        report = ops.ImportReport()
        with progress("Importing", len(lines), quiet=options["quiet"]) as bar:
            ops.import_lines(
                lines,
                namespace=options["namespace"],
                dedup_policy=options["dedup_policy"],
                embedder=embedder,
                batch_size=max(1, options["batch_size"]),
                report=report,
                on_progress=bar.advance,
            )
        for line, code, reason in report.rejected:
            self.stderr.write(f"line {line}: rejected ({code}): {reason}")
        summary = (
            f"Imported {_n(report.imported, 'memory', 'memories')} and {_n(report.tombstones, 'tombstone')}; "
            f"{_n(report.already, 'memory', 'memories')} and {_n(report.tombstones_already, 'tombstone')} "
            "already present, "
            f"{report.skipped_near} skipped as near-duplicates, "
            f"{report.near_reported} imported next to a near-duplicate, {len(report.rejected)} rejected."
        )
        self.say(summary, options)
        if report.rejected:
            raise CommandError(f"{len(report.rejected)} lines rejected (see above); the others were imported.")
