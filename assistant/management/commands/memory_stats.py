"""memory_stats: what is stored, per namespace, and the rules per tool."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import CommandParser
from django.db.models import Count
from rich.console import Console
from rich.table import Table

from core.commands import MnemoCommand
from memories import ops
from toolrules.models import ToolMemoryRule


def rules_per_tool() -> list[dict[str, Any]]:
    rows = ToolMemoryRule.objects.values("tool_name", "priority").annotate(n=Count("id")).order_by("tool_name")
    table: dict[str, dict[str, int]] = {}
    for row in rows:
        table.setdefault(row["tool_name"], {"critical": 0, "high": 0, "normal": 0})[row["priority"]] = row["n"]
    return [{"tool_name": name, **counts} for name, counts in table.items()]


class Command(MnemoCommand):
    help = (
        "A table per namespace: memories by status, the queued backlog and its oldest age, expired, forgotten, "
        "tombstones, embedding models in use; then rules per tool. --json prints the same as JSON. "
        "Example: manage.py memory_stats --json"
    )

    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        parser.add_argument("--json", action="store_true", help="machine-readable output")

    def handle(self, *args: Any, **options: Any) -> None:
        namespaces, rules = ops.namespace_stats(), rules_per_tool()
        if options["json"]:
            self.stdout.write(json.dumps({"namespaces": namespaces, "rules": rules}, indent=2))
            return
        console = Console(file=self.stdout, width=160)
        table = Table(title="Memories per namespace")
        for column in (
            "namespace",
            "ready",
            "queued",
            "oldest queued",
            "failed",
            "expired",
            "forgotten",
            "tombstones",
            "models",
        ):
            table.add_column(column, justify="left" if column in ("namespace", "models") else "right")
        for row in namespaces:
            age = row["oldest_queued_seconds"]
            table.add_row(
                row["namespace"],
                str(row["ready"]),
                str(row["queued"]),
                "—" if age is None else f"{age}s",
                str(row["failed"]),
                str(row["expired"]),
                str(row["forgotten"]),
                str(row["tombstones"]),
                ", ".join(row["embedding_models"]) or "—",
            )
        console.print(table)
        rules_table = Table(title="Tool rules per tool")
        for column in ("tool", "critical", "high", "normal"):
            rules_table.add_column(column, justify="left" if column == "tool" else "right")
        for row in rules:
            rules_table.add_row(row["tool_name"], str(row["critical"]), str(row["high"]), str(row["normal"]))
        console.print(rules_table)
