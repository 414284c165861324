"""Django set up in a bench script's own process, on an embedded PostgreSQL in its own folder."""

from __future__ import annotations

import os
import tempfile


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
