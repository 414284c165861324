"""/metrics decides by the client's address, and the client's address is the connection's peer:
X-Forwarded-For is believed only from the proxies named in MNEMO_TRUSTED_PROXIES (issue 24: the
server believed it from anyone on loopback). Against gunicorn with ``config/gunicorn.py``, the
configuration ``make run`` serves with."""

from __future__ import annotations

import runpy
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import httpx2
import pytest

from tests.conftest import ROOT, free_port
from tests.support import live_mnemo_server, server_env

FORGED = {"X-Forwarded-For": "203.0.113.9"}


def test_the_server_trusts_no_proxy_unless_told(monkeypatch):
    monkeypatch.delenv("MNEMO_TRUSTED_PROXIES", raising=False)
    assert runpy.run_path(str(ROOT / "config" / "gunicorn.py"))["forwarded_allow_ips"] == ""
    monkeypatch.setenv("MNEMO_TRUSTED_PROXIES", "10.0.0.2,10.1.0.0/16")
    assert runpy.run_path(str(ROOT / "config" / "gunicorn.py"))["forwarded_allow_ips"] == "10.0.0.2,10.1.0.0/16"


@contextmanager
def gunicorn(tmp_path, **extra: str) -> Iterator[str]:
    """gunicorn -c config/gunicorn.py (one worker, no warm-up) on a free port, on the test database."""
    port = free_port()
    env = server_env(
        MNEMO_BIND=f"127.0.0.1:{port}",
        MNEMO_WEB_WORKERS="1",
        MNEMO_WARM_EMBEDDER="false",
        MNEMO_METRICS_ALLOW_NETWORKS="127.0.0.1/32",
        MNEMO_METRICS_TOKEN="",
    )
    env.pop("MNEMO_TRUSTED_PROXIES", None)
    env.update(extra)
    command = [sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.py", "config.asgi:application"]
    command += ["--control-socket", str(tmp_path / f"gunicorn-{port}.ctl")]
    with live_mnemo_server(tmp_path, command=command, port=port, env=env) as server:
        yield server.base


@pytest.mark.django_db
def test_a_forwarded_for_header_from_an_untrusted_peer_is_ignored(tmp_path):
    with gunicorn(tmp_path) as base:
        assert httpx2.get(f"{base}/metrics", timeout=10).status_code == 200
        # The peer is loopback (allowed) whatever the header claims: it names no address the
        # server believes, so it can neither open nor close /metrics for anyone.
        assert httpx2.get(f"{base}/metrics", headers=FORGED, timeout=10).status_code == 200


@pytest.mark.django_db
def test_a_forwarded_for_header_from_a_trusted_proxy_names_the_client(tmp_path):
    with gunicorn(tmp_path, MNEMO_TRUSTED_PROXIES="127.0.0.1") as base:
        assert httpx2.get(f"{base}/metrics", timeout=10).status_code == 200
        forwarded = httpx2.get(f"{base}/metrics", headers=FORGED, timeout=10)
        assert forwarded.status_code == 404 and forwarded.json()["error"]["code"] == "NOT_FOUND"
