"""The live-memory index that the namespace list counts from (built without locking writes)."""

from django.contrib.postgres.operations import AddIndexConcurrently
from django.db import migrations, models


class Migration(migrations.Migration):
    # CREATE INDEX CONCURRENTLY cannot run in a transaction; remember keeps writing meanwhile.
    atomic = False

    dependencies = [
        ("memories", "0004_admin_labels_and_search_latency"),
    ]

    operations = [
        AddIndexConcurrently(
            model_name="memory",
            index=models.Index(
                condition=models.Q(("forgotten_at__isnull", True)), fields=["namespace"], name="memory_ns_live"
            ),
        ),
    ]
