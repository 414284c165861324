#!/usr/bin/env python
"""``make run`` and ``make dev``: prepare the database, then run the web server and a Celery worker.

One supervisor process:
1. starts the embedded PostgreSQL (when ``DATABASE_URL`` is unset) and is its only holder for the
   whole run: the children attach to it without holding it (config/embedded_pg: they never start,
   count or stop it). A server left running by an earlier run whose supervisor died is stopped
   first (a log line says so);
2. migrates, collects static files, creates the admin and the demo data (in process);
3. starts gunicorn with uvicorn workers (``--dev``: Django's runserver, autoreload and DEBUG on)
   and one Celery worker that also runs beat (the sweeper's schedule, exactly once), each in a
   session of its own and set to get SIGTERM should the supervisor die (even by SIGKILL);
4. on Ctrl-C, SIGTERM or SIGHUP sends SIGTERM to both, gives them ``CHILD_GRACE`` seconds, then
   SIGKILLs what is left of their process groups (a beat whose worker was SIGKILLed, say), and
   stops the embedded PostgreSQL with ``pg_ctl``: within 40 s in all. If a child dies on its
   own, the rest are stopped the same way and the exit code says so.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
# The stop's budget, inside the 40 s promised (docs/serving.md, "Stopping"): the children get CHILD_GRACE
# seconds from SIGTERM to SIGKILL (gunicorn's own graceful timeout is 20 s; a Celery task still
# running then is given back to the queue, or swept again), what is left of their process groups
# LEFTOVER_GRACE more, and PostgreSQL the rest of STOP_BUDGET (at least DATABASE_MIN) for a fast
# shutdown, after which it is shut down at once (crash-safe: it replays its WAL at the next start).
STOP_BUDGET = 32.0
CHILD_GRACE = 20.0
LEFTOVER_GRACE = 3.0
DATABASE_MIN = 4.0
PR_SET_PDEATHSIG = 1


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
        # A session of its own: a terminal's Ctrl-C reaches only us, and we stop the children
        # (and then the database) ourselves; its process group is how we find all of it later.
        self.children[name] = subprocess.Popen(
            argv, cwd=ROOT, env=env, start_new_session=True, preexec_fn=_die_with(os.getpid())
        )

    def watch(self) -> int:
        """Wait for a stop signal or a child's death; 0 on a requested stop (main() then stops
        everything)."""
        while not self.stopping:
            for name, child in self.children.items():
                code = child.poll()
                if code is not None:
                    print(f"mnemo: {name} exited with code {code}; stopping the rest", file=sys.stderr, flush=True)
                    self.stopping = True
                    return code or 1
            time.sleep(0.2)
        return 0

    def stop_all(self) -> None:
        """SIGTERM to every child's process group (the web first), SIGKILL after ``CHILD_GRACE``;
        then nothing of their trees may be left (a beat orphaned by a SIGKILLed worker, a
        gunicorn worker orphaned by its arbiter)."""
        trees = [proc for child in self.children.values() for proc in _descendants(child.pid)]
        order = sorted(self.children.items(), key=lambda item: item[0] != "web")
        for _, child in order:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(child.pid, signal.SIGTERM)
        deadline = time.monotonic() + CHILD_GRACE
        for name, child in order:
            try:
                child.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                print(f"mnemo: {name} did not stop in {CHILD_GRACE:.0f}s; killing it", file=sys.stderr, flush=True)
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(child.pid, signal.SIGKILL)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    child.wait(2)
        groups = {child.pid for child in self.children.values()}
        _end(_leftovers(groups, trees))


def _die_with(supervisor: int):
    """For the child, before it runs its command: SIGTERM when the supervisor dies, even by
    SIGKILL (Linux's parent-death signal), so a killed supervisor leaves only the database, which
    the next start stops. A no-op where prctl does not exist."""

    def preexec() -> None:
        try:
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
        except (OSError, AttributeError):
            return
        if os.getppid() != supervisor:  # it died before prctl took effect
            os.kill(os.getpid(), signal.SIGTERM)

    return preexec


def _descendants(pid: int) -> list:
    import psutil

    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.Error:
        return []


def _leftovers(groups: set[int], known: list) -> list:
    """Live processes of the children's process groups, and of their trees as seen before the
    stop (psutil's Process knows its start time: a reused pid is not mistaken for one of them)."""
    import psutil

    found = {}
    for proc in [*known, *psutil.process_iter()]:
        try:
            if proc.pid == os.getpid() or not proc.is_running() or proc.status() == psutil.STATUS_ZOMBIE:
                continue
            if proc in known or os.getpgid(proc.pid) in groups:
                found[proc.pid] = proc
        except (psutil.Error, OSError):
            continue
    return list(found.values())


def _end(procs: list) -> None:
    """SIGTERM, then SIGKILL after ``LEFTOVER_GRACE``, to processes that outlived their parent."""
    import psutil

    if not procs:
        return
    print(
        f"mnemo: stopping {len(procs)} process(es) left by the children: {[p.pid for p in procs]}",
        file=sys.stderr,
        flush=True,
    )
    for proc in procs:
        with contextlib.suppress(psutil.Error):
            proc.terminate()
    _, alive = psutil.wait_procs(procs, timeout=LEFTOVER_GRACE)
    for proc in alive:
        with contextlib.suppress(psutil.Error):
            proc.kill()
    psutil.wait_procs(alive, timeout=2)


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

    embedded = None
    if settings.MNEMO_EMBEDDED_DB:
        from config.embedded_pg import EmbeddedServerError, start_supervised, stop_supervised, supervised_env

        try:
            embedded = start_supervised(settings.MNEMO_DATA_DIR)
        except EmbeddedServerError as exc:
            print(f"mnemo: {exc}", file=sys.stderr, flush=True)
            return 1
    try:
        return serve(args, supervisor, supervised_env(embedded) if embedded else {})
    finally:
        # Whatever ended the run (a signal, a child's death, an error while preparing): the
        # children are gone by now, and the database goes last, stopped by us who started it.
        started = time.monotonic()
        supervisor.stop_all()
        if embedded is not None:
            stop_supervised(max(DATABASE_MIN, STOP_BUDGET - (time.monotonic() - started)))
            print("mnemo: stopped (web, worker, database)", flush=True)


def _say_if_other_model_vectors() -> None:
    """After MNEMO_EMBEDDER changes (or its default does, issue 25), stored memories still carry
    the old model's vectors: search keeps working as far as the two models agree, and
    ``reembed_memories`` (batched, resumable) makes them the current model's. Said, not done here:
    on a large database it takes minutes, and the server should not wait for it."""
    from django.conf import settings

    from memories.embedding import EmbedderUnavailable, build_embedder
    from memories.ops import other_model_vectors

    try:
        name = build_embedder(settings.MNEMO_EMBEDDER).name  # its name only: the model is not loaded
    except EmbedderUnavailable:
        return  # the web process reports it (health, 503)
    others = other_model_vectors(name)
    if others:
        print(
            f"mnemo: {sum(others.values())} memories carry vectors of another model "
            f"({', '.join(sorted(others))}), not {name}: run `.venv/bin/python manage.py reembed_memories` "
            "(batched, resumable) so that search compares vectors of one model.",
            flush=True,
        )


def _prepare_embedder() -> None:
    """Derive the configured embedder's graph once, before the web processes and the worker
    start: on a first start each of them would derive it at the same moment (the default's takes
    about 9 s of one core on a 2-core Zen 3), and later starts load it from the cache in half a
    second. In a child Python (memories/graph_prepare.py): deriving holds up to 1 GB, which this
    supervisor, alive as long as the server, would otherwise keep a good part of. A failure is
    said and left to the processes, which report it as they always did."""
    from django.conf import settings

    from memories.graph_prepare import prepare_in_child

    started = time.monotonic()
    try:
        source = prepare_in_child(
            {
                "MNEMO_EMBEDDER": str(settings.MNEMO_EMBEDDER),
                "MNEMO_EMBED_CACHE_DIR": str(settings.MNEMO_EMBED_CACHE_DIR),
                "MNEMO_EMBED_FUSED": "true" if settings.MNEMO_EMBED_FUSED else "false",
            }
        )
    except (RuntimeError, OSError, subprocess.TimeoutExpired) as exc:
        print(f"mnemo: the embedding model's graph could not be prepared ({exc})", flush=True)
        return
    if source == "derived":
        print(
            f"mnemo: derived the embedding model's graph in {time.monotonic() - started:.1f} s "
            f"(once; kept in {settings.MNEMO_EMBED_CACHE_DIR})",
            flush=True,
        )


def serve(args: argparse.Namespace, supervisor: Supervisor, database_env: dict[str, str]) -> int:
    """Prepare the database, start the children and watch them until a stop."""
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connections

    if supervisor.stopping:
        return 0
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
        _say_if_other_model_vectors()
        _prepare_embedder()
    finally:
        connections.close_all()
    if supervisor.stopping:
        return 0

    # The children attach to our database without holding it (database_env: config/embedded_pg).
    env = dict(os.environ, PYTHONPATH=str(ROOT), HOST=args.host, PORT=str(args.port), **database_env)
    env["MNEMO_EMBEDDER_PREPARED"] = "1"  # done above: gunicorn's on_starting need not do it again
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
    # Each child's database connections say whose they are in pg_stat_activity (application_name;
    # libpq reads PGAPPNAME), unless one was given: the web's, the worker's, the broker's alike.
    if not args.no_worker:
        supervisor.start("worker", worker, {"PGAPPNAME": "mnemo-worker", **env})
    supervisor.start("web", web, {"PGAPPNAME": "mnemo-web", **env})
    mode = "development server" if args.dev else "gunicorn"
    print(
        f"Mnemo on http://{args.host}:{args.port}/ ({mode}; admin: /admin/, API docs: /api/docs/, "
        f"worker: {'off' if args.no_worker else 'on'}). Ctrl-C stops it.",
        flush=True,
    )
    return supervisor.watch()


if __name__ == "__main__":
    sys.exit(main())
