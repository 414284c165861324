"""Django set up in a bench script's own process, on an embedded PostgreSQL in its own folder."""

from __future__ import annotations

import os
import tempfile
from typing import Any


def setup_django(prefix: str, **environ: str) -> None:
    """Settings for a quiet local process (no access log, an in-memory broker), ``environ`` on
    top, ``MNEMO_DATA_DIR`` a new folder unless given; then ``django.setup()`` and migrations."""
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings.local",
            "MNEMO_LOG_LEVEL": "WARNING",
            "MNEMO_ACCESS_LOG": "false",
            "CELERY_BROKER_URL": "memory://",
            **environ,
        }
    )
    os.environ.setdefault("MNEMO_DATA_DIR", tempfile.mkdtemp(prefix=prefix))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def seeded_namespace(memories: int, seed: int = 42) -> tuple[Any, str, Any]:
    """A new user, its token and its namespace holding ``memories`` ready memories of the bench
    corpus (embedded by the configured embedder), the table analysed: what the in-process
    profiles (bench/profile_search.py, bench/profile_remember.py) start from. Call it after
    :func:`setup_django`."""
    from django.db import connection

    import memories.embedding as embedding
    from bench.run import corpus
    from memories.models import Memory
    from memories.permissions import ensure_user_namespace
    from tests.factories import UserFactory, token_for

    user = UserFactory()
    token = token_for(user)
    namespace = ensure_user_namespace(user)
    texts = corpus(memories, seed=seed)
    vectors = embedding.embed_texts(texts)
    Memory.objects.bulk_create(
        [
            Memory(namespace=namespace, text=t, embedding=v, embedding_model="minilm", status="ready")
            for t, v in zip(texts, vectors, strict=True)
        ]
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE memories_memory")
    return user, token, namespace
