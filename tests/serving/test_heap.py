"""The collector in the long-lived processes (config/heap.py): a web worker, once gunicorn's
post_worker_init has run, and the Celery worker, once it is ready, have frozen what start-up made
(so a full collection no longer traverses it); MNEMO_GC_FREEZE=false leaves CPython's collector
as it is. Each case runs in a process of its own: freezing this test process would keep its
garbage."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import ROOT
from tests.support import server_env

# config.asgi as gunicorn loads it (Django set up, the bridge and the MCP app imported), then the
# hook gunicorn calls in each worker before its first request.
WEB = """
import gc, json, runpy
import config.asgi
before = gc.get_freeze_count()
runpy.run_path("config/gunicorn.py")["post_worker_init"](None)
print(json.dumps({"before": before, "after": gc.get_freeze_count(), "threshold": gc.get_threshold()}))
"""

# The Celery app as the worker loads it, then the signal the worker sends when it is up.
CELERY = """
import gc, json
import django
django.setup()
from celery.signals import worker_ready
from config.celery import app
before = gc.get_freeze_count()
worker_ready.send(sender=None)
print(json.dumps({"before": before, "after": gc.get_freeze_count(), "threshold": gc.get_threshold()}))
"""


def run(script: str, **extra: str) -> dict:
    env = server_env(MNEMO_WARM_EMBEDDER="false", **extra)
    env.pop("MNEMO_GC_FREEZE", None)
    env.pop("MNEMO_GC_THRESHOLD0", None)
    env.update(extra)
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("script", [WEB, CELERY], ids=["web worker", "celery worker"])
def test_a_warm_process_freezes_what_start_up_made(script):
    out = run(script)
    assert out["before"] == 0
    # Django, DRF and the URLconf alone are tens of thousands of tracked objects.
    assert out["after"] > 20_000


@pytest.mark.parametrize("script", [WEB, CELERY], ids=["web worker", "celery worker"])
def test_freezing_can_be_turned_off(script):
    out = run(script, MNEMO_GC_FREEZE="false")
    assert out["after"] == 0
