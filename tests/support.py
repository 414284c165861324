"""Test helpers: embedders for the ops commands' guards (never used where search quality is measured),
and a live Mnemo server for tests that call it over HTTP."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from memories.embedding import MiniLMRowInt8Embedder


class Wide512Embedder:
    """A model of another width: the guards must refuse it for 384-dimensional columns."""

    name = "wide-512"
    dimensions = 512

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [[1.0] + [0.0] * 511 for _ in texts]


class InterruptedMiniLM(MiniLMRowInt8Embedder):
    """The real (default) model, interrupted (as by Ctrl-C) on its third batch of a run."""

    calls = 0

    def embed_windows(self, texts):
        type(self).calls += 1
        if type(self).calls == 3:
            raise KeyboardInterrupt
        return super().embed_windows(texts)


class UnreachableSmsBackend:
    """An SMS provider that is down."""

    def send_messages(self, messages):
        raise ConnectionError("SMS provider unreachable")


# --- a live Mnemo for tests that call it over HTTP (the Python client's, the integrations', the docs') ----


def server_env(**extra: str) -> dict[str, str]:
    """The environment of a server process on this run's test database (as ``worker_env``), without a
    broker: tasks run in the server's process (the test settings' eager mode), so an asynchronous add
    is ready as soon as its request is answered. ``extra`` is added on top."""
    from tests.conftest import worker_env

    env = worker_env("")
    env.pop("CELERY_BROKER_URL", None)
    env.update(extra)
    return env


@dataclass
class LiveServer:
    """A server process serving Mnemo on 127.0.0.1:``port`` (its own process group), and its log."""

    name: str
    port: int
    process: subprocess.Popen
    log: Path

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def url(self) -> str:
        """The MCP endpoint."""
        return f"{self.base}/mcp"

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)


def gunicorn_command(port: int, log_dir: Path, *, asgi: bool = False, workers: int = 1, threads: int = 4) -> list[str]:
    """``python -m gunicorn`` on 127.0.0.1:``port``: WSGI (``config.wsgi``, ``threads`` threads a worker)
    or, with ``asgi``, production's uvicorn worker on ``config.asgi:application`` (``/mcp`` answers
    too). The control socket goes to ``log_dir``, so parallel runs do not share one."""
    app = ["config.asgi:application", "-k", "uvicorn_worker.UvicornWorker"] if asgi else ["config.wsgi"]
    return [
        sys.executable,
        "-m",
        "gunicorn",
        *app,
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        str(workers),
        *([] if asgi else ["--threads", str(threads)]),
        "--timeout",
        "120",
        "--control-socket",
        str(log_dir / f"gunicorn-{port}.ctl"),
    ]


@contextmanager
def live_mnemo_server(
    log_dir: Path,
    *,
    asgi: bool = False,
    workers: int = 1,
    threads: int = 4,
    env: dict[str, str] | None = None,
    port: int | None = None,
    command: Sequence[str] | None = None,
    name: str = "gunicorn",
) -> Iterator[LiveServer]:
    """Mnemo served on 127.0.0.1:<free port> against this run's test database, answering
    ``/healthz`` when yielded, stopped (its whole process group) on exit. By default gunicorn
    (``gunicorn_command``: WSGI, or ASGI with ``asgi``) in ``server_env()``; a caller that needs
    another server names its ``command`` (and the ``port`` it binds, chosen beforehand), or another
    ``env`` (e.g. with ``MNEMO_URL`` for the docs' samples). Its output goes to
    ``log_dir/<name>-<port>.log``. The caller's data must be committed for the server to see it."""
    from tests.conftest import ROOT, free_port, wait_for

    port = free_port() if port is None else port
    log = log_dir / f"{name}-{port}.log"
    if command is None:
        command = gunicorn_command(port, log_dir, asgi=asgi, workers=workers, threads=threads)
    process = subprocess.Popen(
        list(command),
        cwd=ROOT,
        env=server_env() if env is None else env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    server = LiveServer(name=name, port=port, process=process, log=log)

    def up() -> bool:
        if process.poll() is not None:
            raise AssertionError(f"{name} exited early:\n{server.output()}")
        try:
            with urllib.request.urlopen(f"{server.base}/healthz", timeout=2) as response:  # noqa: S310 (loopback)
                return response.status == 200
        except OSError:
            return False

    try:
        wait_for(up, 90, f"{name} to answer", interval=0.3)
        yield server
    finally:
        server.stop()
