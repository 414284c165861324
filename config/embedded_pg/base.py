"""A Django database backend: PostgreSQL, reached through the embedded server.

It is the stock ``django.db.backends.postgresql`` backend, except that before its first
connection it starts (or attaches to) the embedded server and points the connection at its
socket. Starting lazily means a process that never touches the database never starts PostgreSQL.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.backends.postgresql import base

from config.embedded_pg import ensure_database, ensure_server


class DatabaseWrapper(base.DatabaseWrapper):
    """PostgreSQL over the embedded server's unix socket."""

    _database_ready: set[str] = set()

    def get_connection_params(self) -> dict[str, Any]:
        server = ensure_server(settings.MNEMO_DATA_DIR, cleanup=settings.MNEMO_EMBEDDED_CLEANUP)
        primary = settings.MNEMO_EMBEDDED_DB_NAME
        if primary not in self._database_ready:
            ensure_database(server, primary)
            self._database_ready.add(primary)
        params = super().get_connection_params()
        params["host"] = server.socket_dir
        params.setdefault("user", "postgres")
        return params
