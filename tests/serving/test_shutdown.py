"""Clean shutdown: every way a process holding the embedded PostgreSQL is stopped ends with the
server stopped once its last holder is gone. Real processes, real signals."""

from __future__ import annotations

import signal
import subprocess
import sys

import psutil
import pytest

from tests.conftest import ROOT, free_port, wait_for
from tests.serving.support import http, postgres_processes, start_stack, user_env, wait_gone

# Real servers boot slowly on a busy machine.
pytestmark = pytest.mark.timeout(900)

FAST = {"MNEMO_WARM_EMBEDDER": "false", "MNEMO_WEB_WORKERS": "1"}


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP], ids=lambda s: s.name)
def test_a_signal_to_make_run_stops_web_worker_and_database(tmp_path, signum):
    stack = start_stack(tmp_path, demo=False, **FAST)
    try:
        children = stack.children()
        assert postgres_processes(stack.pgdata)
        stack.signal(signum)
        assert stack.process.wait(90) == 0, stack.output()[-3000:]
        wait_for(lambda: not any(c.is_running() and c.status() != "zombie" for c in children), 30, "children")
        wait_gone(stack.pgdata)
    finally:
        stack.stop()


def _default_signals() -> None:
    # Started as a shell or a supervisor starts a command: SIGHUP and SIGINT at their defaults. A
    # suite run under nohup would otherwise hand down "ignore SIGHUP", and one started in the
    # background of a shell without job control (`cmd &` in a script) "ignore SIGINT" (Python then
    # never raises KeyboardInterrupt), which the command rightly keeps.
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _spawn(argv: list[str], data_dir, log, **extra) -> subprocess.Popen:
    env = user_env(data_dir, DJANGO_SETTINGS_MODULE="config.settings.local", **extra)
    return subprocess.Popen(
        argv, cwd=ROOT, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT, preexec_fn=_default_signals
    )


def test_sigterm_to_gunicorn_stops_the_database(tmp_path):
    port = free_port()
    log = tmp_path / "gunicorn.log"
    proc = _spawn(
        [sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.py", "config.asgi:application"],
        tmp_path / "data",
        log,
        MNEMO_BIND=f"127.0.0.1:{port}",
        **FAST,
    )
    try:
        # /readyz touches the database (503 without migrations, but the worker has attached).
        wait_for(lambda: _answers(f"http://127.0.0.1:{port}/readyz"), 180, "gunicorn to answer", interval=0.5)
        assert postgres_processes(tmp_path / "data" / "pgdata")
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(60) == 0
        wait_gone(tmp_path / "data" / "pgdata")
    finally:
        _cleanup(proc, tmp_path / "data" / "pgdata")


def test_sigterm_to_the_celery_worker_stops_the_database(tmp_path):
    log = tmp_path / "worker.log"
    proc = _spawn(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--without-mingle",
            "--beat",
            "--loglevel=INFO",
            f"--schedule={tmp_path / 'beat-schedule'}",
        ],
        tmp_path / "data",
        log,
        MNEMO_SWEEP_INTERVAL_SECONDS="20",  # beat's first tick once the worker made the queue tables
    )
    try:
        wait_for(lambda: " ready." in log.read_text(), 280, "the worker to be ready", interval=0.5)
        assert postgres_processes(tmp_path / "data" / "pgdata")  # the database broker started it
        # Beat has sent the sweeper and the worker took it (it fails: no migrations here). Beat,
        # forked before the worker first connected, attached on its own and counted as a holder;
        # the worker, exiting, drops it (a holder's own children go with it).
        wait_for(lambda: f"{SWEEP}[" in log.read_text(), 120, "beat's sweeper to reach the worker", interval=0.5)
        proc.send_signal(signal.SIGTERM)
        proc.wait(60)
        wait_gone(tmp_path / "data" / "pgdata", timeout=40)
    finally:
        _cleanup(proc, tmp_path / "data" / "pgdata")


SWEEP = "Task memories.tasks.requeue_stale_memories"

HOLD = (
    "from django.db import connection; connection.ensure_connection(); print('attached', flush=True); "
    "import time; time.sleep(600)"
)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP], ids=lambda s: s.name)
def test_a_signal_to_a_management_command_stops_the_database(tmp_path, signum):
    log = tmp_path / "command.log"
    proc = _spawn([sys.executable, "manage.py", "shell", "-c", HOLD], tmp_path / "data", log)
    try:
        wait_for(lambda: "attached" in log.read_text(), 120, "the command to attach", interval=0.2)
        proc.send_signal(signum)
        proc.wait(60)
        wait_gone(tmp_path / "data" / "pgdata")
    finally:
        _cleanup(proc, tmp_path / "data" / "pgdata")


def test_the_last_holder_stops_the_database_even_after_another_was_sigkilled(tmp_path):
    data = tmp_path / "data"
    first = _spawn([sys.executable, "manage.py", "shell", "-c", HOLD], data, tmp_path / "a.log")
    second = _spawn([sys.executable, "manage.py", "shell", "-c", HOLD], data, tmp_path / "b.log")
    try:
        for name in ("a.log", "b.log"):
            wait_for(lambda n=name: "attached" in (tmp_path / n).read_text(), 120, f"{name} to attach")
        first.send_signal(signal.SIGKILL)  # no exit handlers: it stays in the holders' list
        first.wait(10)
        second.send_signal(signal.SIGTERM)
        second.wait(60)
        wait_gone(data / "pgdata")
    finally:
        _cleanup(first, data / "pgdata")
        _cleanup(second, data / "pgdata")


def _answers(url: str) -> bool:
    try:
        status, _, _ = http("GET", url, timeout=30)
        return status in (200, 503)
    except OSError:
        return False


def _cleanup(proc: subprocess.Popen, pgdata) -> None:
    if proc.poll() is None:
        for child in psutil.Process(proc.pid).children(recursive=True):  # Celery's beat
            child.kill()
        proc.kill()
        proc.wait(10)
    for server in postgres_processes(pgdata):
        server.send_signal(signal.SIGINT)
