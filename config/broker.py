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

A publish and a take are one statement each, in autocommit, with the queue's id remembered
(``QUEUE_ID_SECONDS``): kombu's session looked the queue row up, then inserted (or deleted) and
committed, four round trips to PostgreSQL where one does, on every add_memory request and every
message a worker takes (bench/peers: on a loaded 2-core machine each round trip waits for the
database process to be scheduled).
"""

from __future__ import annotations

import os
import threading
import time
from queue import Empty
from typing import Any

from kombu.transport import TRANSPORT_ALIASES
from kombu.transport.sqlalchemy import Channel as SQLAlchemyChannel
from kombu.transport.sqlalchemy import Transport as SQLAlchemyTransport
from kombu.utils.encoding import bytes_to_str
from kombu.utils.json import dumps, loads
from sqlalchemy import delete, func, insert, select
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError

# Options kombu's virtual transport reads itself; everything else goes to create_engine().
_NOT_ENGINE_OPTIONS = {"polling_interval", "visibility_timeout"}
#: How long a queue's id is used before it is read again. Queue rows are made once and never
#: deleted by kombu; a queue table made anew by hand (a dropped broker database) is found again
#: within this time by a worker, and at once by a publisher (its insert fails on the key).
QUEUE_ID_SECONDS = 60.0
_queue_ids: dict[tuple[object, str], tuple[int, float]] = {}
_queue_ids_lock = threading.Lock()


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

    def _queue_id(self, queue: str, *, fresh: bool = False) -> int:
        """The queue row's id: looked up (or made) once per ``QUEUE_ID_SECONDS`` per engine."""
        engine, _ = self._open()
        key = (engine, queue)
        with _queue_ids_lock:
            known = _queue_ids.get(key)
        if known is not None and not fresh and time.monotonic() - known[1] < QUEUE_ID_SECONDS:
            return known[0]
        try:
            queue_id = self._get_or_create(queue).id  # read before the commit expires the row
        finally:
            self.session.commit()  # and leaves no transaction open: the connection goes back
        with _queue_ids_lock:
            _queue_ids[key] = (queue_id, time.monotonic())
        return queue_id

    def _new_queue(self, queue, **kwargs):
        """Declaring a queue (every publish does): the cached lookup, which commits. kombu's own
        left its SELECT's transaction open until the next publish committed it; a publish that
        no longer uses the session would leave the connection idle in a transaction."""
        self._queue_id(queue)

    def _size(self, queue):
        """Visible messages of the queue (a queue's declaration asks), in autocommit: kombu's count
        left its transaction open for the next publish to commit (see ``_new_queue``)."""
        message = self.message_cls
        query = select(func.count()).where(message.queue_id == self._queue_id(queue), message.visible.is_(True))
        with self._autocommit() as conn:
            return conn.execute(query).scalar_one()

    def _autocommit(self):
        """A pooled connection of the channel's engine in autocommit: one statement, one round trip."""
        engine, _ = self._open()
        return engine.connect().execution_options(isolation_level="AUTOCOMMIT")

    def _put(self, queue, payload, **kwargs):
        """One INSERT (the columns kombu's ORM writes: a visible message of version 1, no time)."""
        table = self.message_cls.__table__
        body = dumps(payload)
        for fresh in (False, True):
            row = {"queue_id": self._queue_id(queue, fresh=fresh), "payload": body, "visible": True, "version": 1}
            try:
                with self._autocommit() as conn:
                    conn.execute(insert(table).values(**row))
                return
            except IntegrityError:
                if fresh:  # the queue row is gone even after a fresh look: not ours to hide
                    raise

    def _get(self, queue):
        """Take the oldest visible message: one DELETE … RETURNING, its row chosen with SKIP LOCKED."""
        message = self.message_cls
        oldest = (
            select(message.id)
            .where(message.queue_id == self._queue_id(queue), message.visible.is_(True))
            .order_by(message.sent_at, message.id)
            .limit(1)
            .with_for_update(skip_locked=True)
            .scalar_subquery()
        )
        with self._autocommit() as conn:
            payload = conn.execute(
                delete(message).where(message.id == oldest).returning(message.payload)
            ).scalar_one_or_none()
        if payload is None:
            raise Empty()
        return loads(bytes_to_str(payload))


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
    global _queue_ids_lock
    for engine, _ in list(SQLAlchemyChannel._engines.values()):
        engine.dispose(close=False)
    SQLAlchemyChannel._engines.clear()
    _queue_ids.clear()
    _queue_ids_lock = threading.Lock()  # another thread may have held it at the fork


os.register_at_fork(after_in_child=_forget_engines_after_fork)


def install() -> None:
    """Make ``sqla+`` URLs use this transport in this process (kombu looks aliases up by name)."""
    TRANSPORT_ALIASES["sqla"] = "config.broker:Transport"
    TRANSPORT_ALIASES["sqlalchemy"] = "config.broker:Transport"
