"""mnemo_doctor: is this installation able to do its work? Each check printed; exit 1 on any failure."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from config import health
from core.commands import MnemoCommand
from memories.models import EMBEDDING_DIMENSIONS

#: Indexes Mnemo's queries rely on: (name, access method).
INDEXES = [
    ("memory_embedding_hnsw", "hnsw"),
    ("memorychunk_embedding_hnsw", "hnsw"),
    ("tombstone_embedding_hnsw", "hnsw"),
    ("memory_search_vector_gin", "gin"),
    ("memory_tags_gin", "gin"),
    ("memory_metadata_gin", "gin"),
]
VECTOR_COLUMNS = [
    ("memories_memory", "embedding"),
    ("memories_memorychunk", "embedding"),
    ("memories_tombstone", "embedding"),
]


def check_pgvector_version() -> str:
    detail = health.check_pgvector()
    version = tuple(int(part) for part in detail.split()[-1].split(".")[:2])
    if version < (0, 8):
        raise RuntimeError(f"{detail}: Mnemo needs 0.8 or newer (iterative index scans)")
    return detail


def check_indexes() -> str:
    with connection.cursor() as cursor:
        cursor.execute(
            """SELECT c.relname, am.amname, i.indisvalid, i.indisready
                 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam
                WHERE c.relname = ANY(%s)""",
            [[name for name, _ in INDEXES]],
        )
        found = {row[0]: row[1:] for row in cursor.fetchall()}
    problems = []
    for name, method in INDEXES:
        if name not in found:
            problems.append(f"{name} is missing")
        elif found[name][0] != method:
            problems.append(f"{name} is {found[name][0]}, not {method}")
        elif not (found[name][1] and found[name][2]):
            problems.append(f"{name} is invalid (rebuild it: REINDEX INDEX {name})")
    if problems:
        raise RuntimeError("; ".join(problems))
    return f"{len(INDEXES)} indexes present and valid"


def check_dimensions() -> str:
    detail = health.check_embedder()
    with connection.cursor() as cursor:
        cursor.execute(
            """SELECT c.relname, format_type(a.atttypid, a.atttypmod)
                 FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
                WHERE (c.relname, a.attname) IN (('memories_memory', 'embedding'), ('memories_memorychunk',
                       'embedding'), ('memories_tombstone', 'embedding'))"""
        )
        types = dict(cursor.fetchall())
    expected = f"vector({EMBEDDING_DIMENSIONS})"
    wrong = {table: kind for table, kind in types.items() if kind != expected}
    if wrong or len(types) != len(VECTOR_COLUMNS):
        raise RuntimeError(f"embedding columns should be {expected}: {wrong or 'some are missing'}")
    from memories.embedding import cpu_has_vnni, embedder_advice, get_embedder
    from memories.ops import other_model_vectors

    others = other_model_vectors(get_embedder().name)
    stale = (
        f"; {sum(others.values())} memories carry another model's vectors "
        f"({', '.join(f'{name}: {n}' for name, n in sorted(others.items()))}): run manage.py reembed_memories"
        if others
        else ""
    )
    return f"{detail}; columns are {expected}{stale}{embedder_advice(settings.MNEMO_EMBEDDER, cpu_has_vnni())}"


def check_migrations() -> str:
    executor = MigrationExecutor(connection)
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    if plan:
        names = ", ".join(f"{m.app_label}.{m.name}" for m, _ in plan[:5])
        raise RuntimeError(f"{len(plan)} migrations not applied ({names}…): run manage.py migrate")
    return "all applied"


def check_broker() -> str:
    return health.check_broker()


CHECKS: list[tuple[str, Callable[[], str]]] = [
    ("database", health.check_database),
    ("postgresql", health.check_postgres_version),
    ("pgvector", check_pgvector_version),
    ("migrations", check_migrations),
    ("indexes", check_indexes),
    ("embedder", check_dimensions),
    ("broker", check_broker),
    ("replica", health.check_replica),
]


class Command(MnemoCommand):
    help = (
        "Check the installation: database and pgvector version, migrations applied, every index Mnemo relies "
        "on present and valid (HNSW, GIN), the embedder loads and its dimension matches the columns, the broker "
        "answers (when CELERY_BROKER_URL is set). Prints each check; exits 1 if any fails."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        failed = []
        for name, check in CHECKS:
            try:
                detail = check()
            except Exception as exc:  # a doctor reports every failure, it does not stop at the first
                failed.append(name)
                self.stdout.write(self.style.ERROR(f"✗ {name}: {type(exc).__name__}: {exc}"))
            else:
                if not options["quiet"]:
                    self.stdout.write(self.style.SUCCESS(f"✓ {name}: {detail}"))
        if failed:
            raise CommandError(f"{len(failed)} checks failed: {', '.join(failed)}.")
        self.say(f"Mnemo is healthy (settings: {settings.SETTINGS_MODULE}).", options)
