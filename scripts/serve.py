#!/usr/bin/env python
"""``make run`` and ``make dev``: prepare the database, then run the web server and a Celery worker.

One supervisor process:
1. holds the embedded PostgreSQL (when ``DATABASE_URL`` is unset) for the whole run, so the
   preparation commands and the servers share one server start;
2. migrates, collects static files, creates the admin and the demo data (in process);
3. starts gunicorn with uvicorn workers (``--dev``: Django's runserver, autoreload and DEBUG on)
   and one Celery worker that also runs beat (the sweeper's schedule, exactly once);
4. on Ctrl-C, SIGTERM or SIGHUP stops them (web first, then the worker), waits, and exits; as the
   last holder it then stops the embedded PostgreSQL. If a child dies on its own, the rest are
   stopped too and the exit code says so.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dev", action="store_true", help="Django's runserver (autoreload, DEBUG on)")
    parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    parser.add_argument("--port", default=os.environ.get("PORT", "8000"))
    parser.add_argument("--no-worker", action="store_true", help="no Celery worker (tasks wait in the queue)")
    parser.add_argument("--no-demo", action="store_true", help="skip the demo data")
    return parser.parse_args()


class Supervisor:
    def __init__(self) -> None:
        self.children: dict[str, subprocess.Popen] = {}
        self.stopping = False
        self.signal_received: int | None = None

    def on_signal(self, signum: int, frame: object) -> None:
        self.signal_received = signum
        self.stopping = True

    def start(self, name: str, argv: list[str], env: dict[str, str]) -> None:
        # A session of its own: a terminal's Ctrl-C reaches only us, and we stop the children in
        # order (web first, so no request is cut off by a missing worker or database).
        self.children[name] = subprocess.Popen(argv, cwd=ROOT, env=env, start_new_session=True)

    def watch(self) -> int:
        """Wait for a stop signal or a child's death; 0 on a requested stop."""
        while not self.stopping:
            for name, child in self.children.items():
                code = child.poll()
                if code is not None:
                    print(f"mnemo: {name} exited with code {code}; stopping the rest", file=sys.stderr, flush=True)
                    self.stopping = True
                    self.stop_all()
                    return code or 1
            time.sleep(0.2)
        self.stop_all()
        return 0

    def stop_all(self, timeout: float = 30.0) -> None:
        for name in ("web", "worker"):
            child = self.children.get(name)
            if child is None or child.poll() is not None:
                continue
            try:
                os.killpg(child.pid, signal.SIGTERM)
            except ProcessLookupError:
                continue
            try:
                child.wait(timeout)
            except subprocess.TimeoutExpired:
                print(f"mnemo: {name} did not stop in {timeout:.0f}s; killing it", file=sys.stderr, flush=True)
                os.killpg(child.pid, signal.SIGKILL)
                child.wait(10)


def main() -> int:
    args = parse_args()
    os.chdir(ROOT)
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    # make run serves like production: DEBUG off unless asked for; make dev: on.
    os.environ.setdefault("DJANGO_DEBUG", "true" if args.dev else "false")

    supervisor = Supervisor()
    for signum in STOP_SIGNALS:
        signal.signal(signum, supervisor.on_signal)

    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connections

    if settings.MNEMO_EMBEDDED_DB:
        from config.embedded_pg import ensure_server

        ensure_server(settings.MNEMO_DATA_DIR, cleanup=settings.MNEMO_EMBEDDED_CLEANUP)

    # prometheus-client's multiprocess mode: every process writes its metrics under this folder,
    # /metrics adds them up. A fresh folder per run (old processes' files would count again).
    metrics_dir = Path(os.environ.get("PROMETHEUS_MULTIPROC_DIR") or settings.MNEMO_DATA_DIR / "metrics")
    shutil.rmtree(metrics_dir, ignore_errors=True)
    metrics_dir.mkdir(parents=True, exist_ok=True)
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(metrics_dir)

    try:
        call_command("migrate", interactive=False, verbosity=0)
        if not args.dev:
            call_command("collectstatic", interactive=False, verbosity=0)
        call_command("ensure_admin")
        if not args.no_demo:
            call_command("load_demo")
    finally:
        connections.close_all()
    if supervisor.stopping:
        return 0

    env = dict(os.environ, PYTHONPATH=str(ROOT), HOST=args.host, PORT=str(args.port))
    python = sys.executable
    if args.dev:
        web = [python, "manage.py", "runserver", f"{args.host}:{args.port}"]
    else:
        web = [python, "-m", "gunicorn", "-c", "config/gunicorn.py", "config.asgi:application"]
    worker = [
        python,
        "-m",
        "celery",
        "-A",
        "config",
        "worker",
        "--beat",  # the sweeper's schedule: one beat, here
        f"--schedule={settings.MNEMO_DATA_DIR / 'celerybeat-schedule'}",
        # The pool and concurrency come from the settings (CELERY_WORKER_POOL: threads, a task per core).
        "--without-mingle",
        "--without-gossip",
        f"--queues={settings.CELERY_TASK_DEFAULT_QUEUE}",
        f"--loglevel={os.environ.get('MNEMO_LOG_LEVEL', 'INFO')}",
        "--hostname=mnemo@%h",
    ]
    if settings.CELERY_TASK_ALWAYS_EAGER:
        args.no_worker = True  # CELERY_BROKER_URL=memory://: tasks run inside the web process
    if not args.no_worker:
        supervisor.start("worker", worker, env)
    supervisor.start("web", web, env)
    mode = "development server" if args.dev else "gunicorn"
    print(
        f"Mnemo on http://{args.host}:{args.port}/ ({mode}; admin: /admin/, API docs: /api/docs/, "
        f"worker: {'off' if args.no_worker else 'on'}). Ctrl-C stops it.",
        flush=True,
    )
    return supervisor.watch()


if __name__ == "__main__":
    sys.exit(main())
