"""Starting the real ``make run`` stack (scripts/serve.py) and the embedded server's processes."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import psutil
import psycopg

from tests.conftest import ROOT, free_port, wait_for

# Variables of the test run that must not leak into a stack started as a user would start it.
_TEST_ONLY = ("DATABASE_URL", "DATABASE_REPLICA_URL", "CELERY_BROKER_URL", "CELERY_QUEUE", "DJANGO_SETTINGS_MODULE")


def user_env(data_dir: Path, **extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in _TEST_ONLY and not k.startswith(("MNEMO_TEST_", "PROMETHEUS_", "DJANGO_"))
    }
    env.update({"MNEMO_DATA_DIR": str(data_dir), "PYTHONPATH": str(ROOT), "MNEMO_LOG_LEVEL": "INFO"})
    env.update(extra)
    return env


def postgres_processes(pgdata: Path) -> list[psutil.Process]:
    found = []
    for proc in psutil.process_iter(["name", "cmdline"]):
        try:
            if proc.info["name"] == "postgres" and str(pgdata) in " ".join(proc.info["cmdline"] or []):
                found.append(proc)
        except psutil.Error:
            continue
    return found


def http(method: str, url: str, body: dict | None = None, token: str | None = None, headers=None, timeout=60):
    """(status, parsed JSON or text, headers) of one request."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Token {token}")
    for key, value in (headers or {}).items():
        request.add_header(key, value)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status, raw, hdrs = response.status, response.read(), response.headers
    except urllib.error.HTTPError as exc:
        status, raw, hdrs = exc.code, exc.read(), exc.headers
    text = raw.decode("utf-8", "replace")
    try:
        return status, json.loads(text), hdrs
    except ValueError:
        return status, text, hdrs


@dataclass
class Stack:
    """A running ``scripts/serve.py``: gunicorn (uvicorn workers), a Celery worker with beat."""

    process: subprocess.Popen
    data_dir: Path
    port: int
    log: Path
    token: str = ""
    extra: dict = field(default_factory=dict)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pgdata(self) -> Path:
        return self.data_dir / "pgdata"

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def children(self) -> list[psutil.Process]:
        try:
            return psutil.Process(self.process.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            return []

    def sql(self, query: str, params=(), dbname: str = "mnemo"):
        with psycopg.connect(host=str(self.pgdata), user="postgres", dbname=dbname, autocommit=True) as conn:
            return conn.execute(query, params).fetchall()

    def signal(self, signum: int) -> None:
        self.process.send_signal(signum)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(60)
            except subprocess.TimeoutExpired:
                for child in self.children():
                    child.kill()
                self.process.kill()
                self.process.wait(10)
        for proc in postgres_processes(self.pgdata):
            proc.send_signal(signal.SIGINT)  # a failed test must not leave a server behind


def start_stack(
    tmp_path: Path, *, demo: bool = True, timeout: float = 240, new_session: bool = False, **extra: str
) -> Stack:
    data_dir = tmp_path / "data"
    port = free_port()
    log = tmp_path / "serve.log"
    runs = 1
    while log.exists():  # a second start on the same folder keeps a log of its own
        runs += 1
        log = tmp_path / f"serve-{runs}.log"
    argv = [sys.executable, "scripts/serve.py", "--port", str(port)]
    if not demo:
        argv.append("--no-demo")
    env = user_env(data_dir, **{"MNEMO_WEB_WORKERS": "2", **extra})
    process = subprocess.Popen(
        argv, cwd=ROOT, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT, start_new_session=new_session
    )
    stack = Stack(process=process, data_dir=data_dir, port=port, log=log, extra=extra)

    def up() -> bool:
        if process.poll() is not None:
            raise AssertionError(f"serve.py exited early ({process.returncode}):\n{stack.output()[-4000:]}")
        try:
            status, _, _ = http("GET", f"{stack.url}/readyz", timeout=30)
        except OSError:
            return False
        worker_ready = " ready." in stack.output() or "--no-worker" in argv
        return status == 200 and worker_ready

    try:
        wait_for(up, timeout, "the make run stack to serve", interval=0.5)
    except BaseException:
        stack.stop()
        raise
    match = re.search(r"Demo agent token \(user 'demo'\): (mnemo_[A-Za-z0-9_-]+)", stack.output())
    stack.token = match.group(1) if match else ""
    return stack


def wait_gone(pgdata: Path, timeout: float = 120) -> None:
    wait_for(lambda: not postgres_processes(pgdata), timeout, "the embedded PostgreSQL to stop", interval=0.2)


def wait_ready_event(stack: Stack, event_id: str, timeout: float = 60) -> dict:
    result: dict = {}

    def ready() -> bool:
        status, body, _ = http("GET", f"{stack.url}/api/v1/memories/events/{event_id}", token=stack.token)
        assert status == 200, body
        result.update(body)
        return body["status"] == "ready"

    wait_for(ready, timeout, f"event {event_id} to be ready", interval=0.2)
    return result


def sleep_briefly() -> None:
    time.sleep(0.5)
