"""The embedded PostgreSQL: pgvector works, processes share one server, the last one out stops it."""

import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import psutil
import pytest
from django.db import connection

from tests.conftest import ROOT, wait_for


@pytest.mark.django_db
def test_pgvector_cosine_distance_works():
    with connection.cursor() as cursor:
        cursor.execute("SELECT '[1,2]'::vector <=> '[1,3]'")
        distance = cursor.fetchone()[0]
        cursor.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
        version = cursor.fetchone()[0]
    assert distance == pytest.approx(1 - 7 / (5**0.5 * 10**0.5), abs=1e-6)
    assert tuple(int(p) for p in version.split(".")[:2]) >= (0, 8)


# A process that attaches to the embedded server, prints the server's pid and start time, then
# waits for a line on stdin (or sleeps) before exiting normally.
CLIENT = textwrap.dedent(
    """
    import os, sys, django
    django.setup()
    from django.db import connection
    with connection.cursor() as c:
        c.execute("SELECT pg_postmaster_start_time()::text")
        started = c.fetchone()[0]
    from config.embedded_pg import ensure_server
    print(ensure_server(os.environ["MNEMO_DATA_DIR"]).pid, started, flush=True)
    if len(sys.argv) > 1:
        import time; time.sleep(float(sys.argv[1]))
    else:
        sys.stdin.readline()
    """
)


def _env(data_dir):
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "MNEMO_TEST_DATA_DIR_OWNER"}}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings.local",
            "MNEMO_DATA_DIR": str(data_dir),
            "PYTHONPATH": str(ROOT),
        }
    )
    return env


def _postgres_running(pgdata) -> bool:
    for proc in psutil.process_iter(["name", "cmdline"]):
        if proc.info["name"] == "postgres" and str(pgdata) in " ".join(proc.info["cmdline"] or []):
            return True
    return False


def test_processes_started_together_share_one_server_and_the_last_stops_it(tmp_path):
    data = tmp_path / "data"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", CLIENT],
            env=_env(data),
            cwd=ROOT,
            text=True,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for _ in range(3)
    ]
    lines = [p.stdout.readline().strip() for p in procs]
    assert all(lines), [p.stderr.read() for p in procs if p.poll() is not None]
    assert len(set(lines)) == 1, f"expected one server, got {lines}"
    # Two leave: the server stays up for the third.
    for p in procs[:2]:
        p.communicate("\n", timeout=30)
    assert _postgres_running(data / "pgdata")
    procs[2].communicate("\n", timeout=30)
    wait_for(lambda: not _postgres_running(data / "pgdata"), 30, "the embedded server to stop")


def test_a_killed_holder_does_not_keep_the_server_alive(tmp_path):
    data = tmp_path / "data"
    holder = subprocess.Popen(
        [sys.executable, "-c", CLIENT, "300"],
        env=_env(data),
        cwd=ROOT,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    first = holder.stdout.readline().strip()
    assert first, holder.stderr.read()
    holder.send_signal(signal.SIGKILL)  # no atexit: its pid stays in the holders' list
    holder.wait(10)
    pids = json.loads((data / "pgdata" / ".handle_pids.json").read_text())
    assert holder.pid in pids
    second = subprocess.run(
        [sys.executable, "-c", CLIENT, "0"],
        env=_env(data),
        cwd=ROOT,
        text=True,
        capture_output=True,
        timeout=60,
    )
    assert second.returncode == 0, second.stderr
    assert second.stdout.strip() == first  # it attached to the orphaned server, did not start another
    wait_for(lambda: not _postgres_running(data / "pgdata"), 30, "the embedded server to stop")
    time.sleep(0.1)


# A holder whose child attached before it did (as Celery's beat, forked by the worker before the
# worker's first connection): the child is still alive when the holder exits normally.
FORKS_FIRST = textwrap.dedent(
    """
    import json, os, sys, time
    from pathlib import Path
    from config.embedded_pg import ensure_server
    data = os.environ["MNEMO_DATA_DIR"]
    child = os.fork()
    if child == 0:
        ensure_server(data)
        time.sleep(120)
        os._exit(0)
    handles = Path(data) / "pgdata" / ".handle_pids.json"
    while not (handles.exists() and child in json.loads(handles.read_text() or "[]")):
        time.sleep(0.1)
    ensure_server(data)
    print(child, flush=True)
    """
)


def test_a_holders_own_child_does_not_keep_the_server_alive_after_it(tmp_path):
    data = tmp_path / "data"
    # (Not run(): the child keeps the output pipe open.)
    parent = subprocess.Popen(
        [sys.executable, "-c", FORKS_FIRST], env=_env(data), cwd=ROOT, text=True, stdout=subprocess.PIPE
    )
    child = int(parent.stdout.readline().strip() or 0)
    parent.wait(60)
    try:
        assert parent.returncode == 0 and child
        assert psutil.pid_exists(child)  # still attached when its parent left
        wait_for(lambda: not _postgres_running(data / "pgdata"), 30, "the embedded server to stop")
    finally:
        if child and psutil.pid_exists(child):
            os.kill(child, signal.SIGKILL)
        for proc in psutil.process_iter(["name", "cmdline"]):
            if proc.info["name"] == "postgres" and str(data / "pgdata") in " ".join(proc.info["cmdline"] or []):
                proc.send_signal(signal.SIGINT)


ATTACH = textwrap.dedent(
    """
    import os
    from config.embedded_pg import EmbeddedServerError, ensure_server
    try:
        print(ensure_server(os.environ["MNEMO_DATA_DIR"]).pid, flush=True)
    except EmbeddedServerError as exc:
        print("refused:", exc, flush=True)
    """
)


def test_a_child_of_the_supervisor_attaches_without_holding_and_never_starts_the_server(tmp_path):
    """make run's children (MNEMO_EMBEDDED_PG_PGDATA names their folder) only attach."""
    data = tmp_path / "data"
    env = dict(_env(data), MNEMO_EMBEDDED_PG_PGDATA=str(data / "pgdata"), MNEMO_EMBEDDED_PG_SUPERVISOR="1")
    run = subprocess.run([sys.executable, "-c", ATTACH], env=env, cwd=ROOT, text=True, capture_output=True, timeout=60)
    assert run.stdout.startswith("refused: the embedded PostgreSQL in"), run.stdout + run.stderr
    assert not _postgres_running(data / "pgdata")

    holder = subprocess.Popen(
        [sys.executable, "-c", CLIENT],
        env=_env(data),
        cwd=ROOT,
        text=True,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    try:
        server_pid = holder.stdout.readline().split()[0]
        run = subprocess.run(
            [sys.executable, "-c", ATTACH], env=env, cwd=ROOT, text=True, capture_output=True, timeout=60
        )
        assert run.stdout.strip() == server_pid, run.stderr
        assert json.loads((data / "pgdata" / ".handle_pids.json").read_text()) == [holder.pid]
        assert _postgres_running(data / "pgdata")  # the attached child left; the server is not its to stop
    finally:
        holder.communicate("\n", timeout=30)
    wait_for(lambda: not _postgres_running(data / "pgdata"), 30, "the embedded server to stop")
