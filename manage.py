#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    from django.core.management import execute_from_command_line

    if len(sys.argv) > 1 and sys.argv[1] == "runserver":
        # The reloader's parent process holds the embedded database too, so a code reload
        # (which restarts only the child) does not stop and restart PostgreSQL.
        from django.conf import settings

        if settings.MNEMO_EMBEDDED_DB:
            from config.embedded_pg import ensure_server

            ensure_server(settings.MNEMO_DATA_DIR, cleanup=settings.MNEMO_EMBEDDED_CLEANUP)
    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
