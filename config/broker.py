"""The default broker: kombu's SQLAlchemy transport on Mnemo's own PostgreSQL.

Why this broker: ``make run`` must run a real Celery worker with nothing else installed. The
database Mnemo needs anyway can carry the queue: SQLAlchemy is a pure wheel, the messages are
rows, and the worker polls for them. Two changes to kombu's transport, both here:

- a message is *deleted* when a worker takes it (kombu marks it invisible and keeps it forever,
  so the table would only grow), with ``SKIP LOCKED`` so that several workers never wait on
  each other. Either way a message taken by a worker that is then SIGKILLed is gone from the
  broker; the memory row it carried is still ``queued`` and the sweeper
  (``requeue_stale_memories``) sends it again. A worker stopped by SIGTERM gives its unacked
  messages back first (kombu restores them).
- with the embedded PostgreSQL the URL names no host: the socket is found (and the broker
  database created) when the first connection is made, like the Django backend does.

Transport options that are not SQLAlchemy engine arguments (``polling_interval``) are taken out
before the engine is made.
"""

from __future__ import annotations

import os
from queue import Empty
from typing import Any

from kombu.transport import TRANSPORT_ALIASES
from kombu.transport.sqlalchemy import Channel as SQLAlchemyChannel
from kombu.transport.sqlalchemy import Transport as SQLAlchemyTransport
from kombu.utils.encoding import bytes_to_str
from kombu.utils.json import loads
from sqlalchemy import delete, select
from sqlalchemy.engine import make_url

# Options kombu's virtual transport reads itself; everything else goes to create_engine().
_NOT_ENGINE_OPTIONS = {"polling_interval", "visibility_timeout"}


class Channel(SQLAlchemyChannel):
    """kombu's SQLAlchemy channel: delete-on-take with SKIP LOCKED, embedded socket lookup."""

    def _engine_from_config(self):
        from sqlalchemy import create_engine

        conninfo = self.connection.client
        options: dict[str, Any] = {
            k: v
            for k, v in conninfo.transport_options.items()
            if k
            not in _NOT_ENGINE_OPTIONS
            | {
                "queue_tablename",
                "message_tablename",
                "callback",
                "errback",
                "max_retries",
                "interval_start",
                "interval_step",
                "interval_max",
                "retry_errors",
            }
        }
        url = make_url(conninfo.hostname)
        if not url.host and not url.query.get("host"):
            url = _embedded_url(url)
        return create_engine(url, **options)

    def _get(self, queue):
        obj = self._get_or_create(queue)
        message = self.message_cls
        try:
            oldest = (
                select(message.id)
                .where(message.queue_id == obj.id, message.visible.is_(True))
                .order_by(message.sent_at, message.id)
                .limit(1)
                .with_for_update(skip_locked=True)
                .scalar_subquery()
            )
            payload = self.session.execute(
                delete(message).where(message.id == oldest).returning(message.payload)
            ).scalar_one_or_none()
            if payload is None:
                raise Empty()
            return loads(bytes_to_str(payload))
        finally:
            self.session.commit()


class Transport(SQLAlchemyTransport):
    """The transport behind ``sqla+postgresql+psycopg://`` URLs in Mnemo's processes."""

    Channel = Channel


def _embedded_url(url):
    """Point a host-less PostgreSQL URL at the embedded server's socket (starting it if needed)."""
    from django.conf import settings

    if not getattr(settings, "MNEMO_EMBEDDED_DB", False):
        return url
    from config.embedded_pg import ensure_database, ensure_server

    server = ensure_server(settings.MNEMO_DATA_DIR, cleanup=settings.MNEMO_EMBEDDED_CLEANUP)
    ensure_database(server, url.database or "postgres")
    return url.update_query_dict({"host": server.socket_dir})


def _forget_engines_after_fork() -> None:
    # A forked child (Celery's embedded beat) must not share the parent's pooled connections:
    # drop them without closing the parent's sockets; the child opens its own.
    for engine, _ in list(SQLAlchemyChannel._engines.values()):
        engine.dispose(close=False)
    SQLAlchemyChannel._engines.clear()


os.register_at_fork(after_in_child=_forget_engines_after_fork)


def install() -> None:
    """Make ``sqla+`` URLs use this transport in this process (kombu looks aliases up by name)."""
    TRANSPORT_ALIASES["sqla"] = "config.broker:Transport"
    TRANSPORT_ALIASES["sqlalchemy"] = "config.broker:Transport"
