"""export_memories: JSON Lines, one memory per line, every field."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser

from core.commands import MnemoCommand
from core.fields import text_problem
from core.progress import progress
from memories import ops
from memories.models import Namespace


class Command(MnemoCommand):
    help = (
        'Export memories as JSON Lines (one JSON object per line, every field; "type": "memory"), to '
        '--output or standard output. --include-tombstones adds the tombstones ("type": "tombstone"); '
        "--with-embeddings adds the vectors, so an import with the same model needs no embedding. A file is "
        "written to a temporary name and renamed when complete. "
        "Example: manage.py export_memories --namespace user:alice --output alice.jsonl "
        "(writes var/exports/alice.jsonl)"
    )

    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        parser.add_argument("--namespace", help="only this namespace")
        parser.add_argument("--include-tombstones", action="store_true")
        parser.add_argument("--with-embeddings", action="store_true", help="include the embedding vectors")
        parser.add_argument(
            "--output",
            help="file to write (default: standard output); a relative name goes to MNEMO_DATA_DIR/exports/ "
            "(var/exports/ by default, which git ignores), an absolute path is used as it is",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        key = options["namespace"]
        # A key with a NUL is in no namespace (and PostgreSQL refuses to compare one).
        if key and (text_problem(key) or not Namespace.objects.filter(key=key).exists()):
            raise CommandError(f"no namespace {options['namespace']!r}; `manage.py memory_stats` lists them.")
        records = ops.export_records(
            namespace=options["namespace"],
            include_tombstones=options["include_tombstones"],
            with_embeddings=options["with_embeddings"],
        )
        total = ops.count_export(namespace=options["namespace"], include_tombstones=options["include_tombstones"])
        if not options["output"]:
            for record in records:
                self.stdout.write(json.dumps(record, ensure_ascii=False))
            return
        target = ops.export_path(options["output"])
        if target.is_relative_to(ops.exports_dir()):
            target.parent.mkdir(parents=True, exist_ok=True)  # the data folder's own: made on first use
        if not target.parent.exists():
            raise CommandError(f"cannot write {target}: folder {target.parent} does not exist.")
        fd, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
        written = 0
        try:
            with (
                os.fdopen(fd, "w", encoding="utf-8") as out,
                progress("Exporting", total, quiet=options["quiet"], stream=sys.stderr) as bar,
            ):
                for record in records:
                    out.write(json.dumps(record, ensure_ascii=False) + "\n")
                    written += 1
                    bar.advance()
            os.replace(temporary, target)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        self.say(f"Exported {written} records to {target}.", options)
