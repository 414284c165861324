"""The memory table's GIN indexes with their pending list bounded at 64 kB
(``gin_pending_list_limit``; memories.models says why), set in place: ALTER INDEX takes a lock
that lets reads and writes go on, where Django's own operations for a changed index would drop it
and build it again, blocking writes for as long as a large table takes. The entries already
pending (up to PostgreSQL's 4 MB) are merged at once (``gin_clean_pending_list``), so no search
reads them and no write pays their merge."""

from django.contrib.postgres.indexes import GinIndex
from django.db import migrations

INDEXES = ("memory_search_vector_gin", "memory_tags_gin", "memory_metadata_gin")


def _sql(limit: bool) -> list[str]:
    if not limit:
        return [f"ALTER INDEX {name} RESET (gin_pending_list_limit)" for name in INDEXES]
    return [f"ALTER INDEX {name} SET (gin_pending_list_limit = 64)" for name in INDEXES] + [
        f"SELECT gin_clean_pending_list('{name}'::regclass)" for name in INDEXES
    ]


class Migration(migrations.Migration):
    dependencies = [("memories", "0006_temporal_validity")]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunSQL(_sql(limit=True), reverse_sql=_sql(limit=False))],
            state_operations=[
                migrations.RemoveIndex(model_name="memory", name="memory_search_vector_gin"),
                migrations.RemoveIndex(model_name="memory", name="memory_tags_gin"),
                migrations.RemoveIndex(model_name="memory", name="memory_metadata_gin"),
                migrations.AddIndex(
                    model_name="memory",
                    index=GinIndex(fields=["search_vector"], name="memory_search_vector_gin", gin_pending_list_limit=64),
                ),
                migrations.AddIndex(
                    model_name="memory",
                    index=GinIndex(fields=["tags"], name="memory_tags_gin", gin_pending_list_limit=64),
                ),
                migrations.AddIndex(
                    model_name="memory",
                    index=GinIndex(
                        fields=["metadata"],
                        name="memory_metadata_gin",
                        opclasses=["jsonb_path_ops"],
                        gin_pending_list_limit=64,
                    ),
                ),
            ],
        )
    ]
