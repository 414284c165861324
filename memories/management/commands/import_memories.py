"""import_memories: JSON Lines (or a Mem0 export, or Mem0's pgvector table) in, each line checked like remember."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.db import DatabaseError

from core.commands import MnemoCommand, in_range
from core.errors import MnemoError
from core.progress import progress
from memories import mem0_import, ops
from memories.embedding import EmbedderUnavailable


def _n(count: int, one: str, many: str = "") -> str:
    return f"{count} {one if count == 1 else (many or one + 's')}"


class Command(MnemoCommand):
    help = (
        "Import memories from a JSON Lines file (as export_memories writes). Each line is checked like "
        "remember (secrets rejected, length, tags normalized); a rejected line is reported with its number and "
        "the import goes on. Texts are embedded in batches. Lines carrying an event_id that is already in the "
        "database are skipped, so an interrupted import can be run again without duplicates. Exits 1 if any "
        "line was rejected. Example: manage.py import_memories alice.jsonl --dedup-policy skip_if_near. "
        "From Mem0 (docs/mem0.md): --format mem0 reads Memory.get_all's JSON, --format mem0-pgvector reads Mem0's "
        "pgvector table (the source is then a connection string, --table the collection), --mem0-history its "
        "history (history.db or JSON); Mem0's ids are kept in metadata (mem0_id), re-imports skip them."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        parser.add_argument(
            "file",
            help="a JSON Lines file; a relative name not found here is looked for in MNEMO_DATA_DIR/exports/ "
            "(--format mem0: Mem0's get_all JSON; --format mem0-pgvector: a PostgreSQL connection string)",
        )
        parser.add_argument(
            "--format",
            choices=["jsonl", "mem0", "mem0-pgvector"],
            default="jsonl",
            help="jsonl (default: what export_memories writes), mem0 (Mem0 OSS get_all output: "
            '{"results": [...]} or a list), mem0-pgvector (Mem0\'s pgvector table)',
        )
        parser.add_argument("--table", default="mem0", help="mem0-pgvector: the table (Mem0's collection_name)")
        parser.add_argument(
            "--mem0-history",
            help="Mem0's history: its SQLite database (~/.mem0/history.db) or JSON (Memory.history rows)",
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
        in_range(options, "--batch-size", minimum=1, maximum=10_000, unit="lines")
        report = ops.ImportReport()
        events = None
        deleted = 0
        unit = "line"
        if options["format"] == "jsonl":
            path = str(ops.resolve_import_path(options["file"]))
            try:
                with open(path, encoding="utf-8") as handle:
                    lines: list[Any] = list(enumerate(handle, start=1))
            except OSError as exc:
                raise CommandError(f"cannot read {path}: {exc.strerror}.") from exc
            except UnicodeDecodeError as exc:
                raise CommandError(f"{path} is not UTF-8 text (byte {exc.start}).") from exc
        else:
            unit = "item"
            try:
                source = self._mem0_source(options)
            except MnemoError as exc:
                raise CommandError(exc.message) from exc
            mem0_lines = mem0_import.Mem0Lines(source, namespace=options["namespace"])
            lines = list(mem0_lines.lines(report))
            events = mem0_lines.events
            deleted = source.deleted()
        try:
            embedder = ops.embedder_for(None)
        except EmbedderUnavailable as exc:
            raise CommandError(str(exc)) from exc
        try:
            with progress("Importing", len(lines), quiet=options["quiet"]) as bar:
                ops.import_lines(
                    lines,
                    namespace=options["namespace"],
                    dedup_policy=options["dedup_policy"],
                    embedder=embedder,
                    batch_size=options["batch_size"],
                    report=report,
                    on_progress=bar.advance,
                    events=events,
                )
        except DatabaseError as exc:
            # Each batch is one transaction: the failed one left nothing, the ones before it are
            # committed, and a rerun skips them (their event ids are in the database).
            raise CommandError(
                f"database error ({exc.__class__.__name__}): the batch being written was rolled back; "
                f"{report.imported} memories imported before it are kept. Run the import again to continue."
            ) from exc
        for line, code, reason in sorted(report.rejected):
            self.stderr.write(f"{unit} {line}: rejected ({code}): {reason}")
        if deleted:
            self.say(f"{_n(deleted, 'memory', 'memories')} deleted in Mem0 (history only): skipped.", options)
        summary = (
            f"Imported {_n(report.imported, 'memory', 'memories')} and {_n(report.tombstones, 'tombstone')}; "
            f"{_n(report.already, 'memory', 'memories')} and {_n(report.tombstones_already, 'tombstone')} "
            "already present, "
            f"{report.skipped_near} skipped as near-duplicates, "
            f"{report.near_reported} imported next to a near-duplicate, {len(report.rejected)} rejected."
        )
        self.say(summary, options)
        if report.rejected:
            raise CommandError(f"{len(report.rejected)} {unit}s rejected (see above); the others were imported.")

    def _mem0_source(self, options: dict[str, Any]) -> mem0_import.Mem0Source:
        if options["format"] == "mem0":
            items = mem0_import.read_export(ops.resolve_import_path(options["file"]))
        else:
            items = mem0_import.read_pgvector(options["file"], options["table"])
        history = {}
        if options["mem0_history"]:
            path = Path(options["mem0_history"]).expanduser()
            try:
                history = mem0_import.read_history(path)
            except OSError as exc:
                raise CommandError(f"cannot read {path}: {exc.strerror}.") from exc
        return mem0_import.Mem0Source(items=items, history=history)
