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
from pathlib import Path

from memories.embedding import MiniLMInt8Embedder


class Wide512Embedder:
    """A model of another width: the guards must refuse it for 384-dimensional columns."""

    name = "wide-512"
    dimensions = 512

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [[1.0] + [0.0] * 511 for _ in texts]


class InterruptedMiniLM(MiniLMInt8Embedder):
    """The real model, interrupted (as by Ctrl-C) on its third batch of a run."""

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


# --- a live Mnemo for tests that call it over HTTP (the Python client's, the integrations') -----


@contextmanager
def live_mnemo_server(log_dir: Path, *, threads: int = 4) -> Iterator[str]:
    """gunicorn serving Mnemo on 127.0.0.1:<free port> against this run's test database (its
    base URL yielded), stopped (its whole process group) on exit. Tasks run in the server's
    process (no broker: the test settings' eager mode), so an asynchronous add is ready as soon
    as its request is answered. The caller's data must be committed for the server to see it."""
    from tests.conftest import ROOT, free_port, wait_for, worker_env

    port = free_port()
    log = log_dir / f"gunicorn-{port}.log"
    env = worker_env("")
    env.pop("CELERY_BROKER_URL", None)
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "1",
            "--threads",
            str(threads),
            "--timeout",
            "120",
        ],
        cwd=ROOT,
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"

    def up() -> bool:
        if process.poll() is not None:
            raise AssertionError(f"gunicorn exited early:\n{log.read_text(errors='replace')}")
        try:
            with urllib.request.urlopen(f"{base}/healthz", timeout=2) as response:  # noqa: S310 (loopback)
                return response.status == 200
        except OSError:
            return False

    try:
        wait_for(up, 90, "gunicorn to answer", interval=0.3)
        yield base
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(10)
