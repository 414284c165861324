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
