"""bench/peers/run.py's ``--async-conversations 0`` means no async section (``ids[-0:]`` was all
of them), and the peers report renders a run without one."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def test_zero_async_conversations_take_none():
    # In a child process: bench/peers/run.py installs an audit hook (no connection leaves the machine).
    code = (
        "import json; from bench.peers.run import async_conversations as a; "
        "ids = ['c0', 'c1', 'c2']; print(json.dumps([a(ids, 0), a(ids, 1), a(ids, 2), a(ids, 9)]))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == [[], ["c2"], ["c1", "c2"], ["c0", "c1", "c2"]]


def test_the_report_renders_a_run_without_the_async_section():
    from bench.peers.report import newest, render_section

    run = json.loads(newest().read_text())
    whole = render_section(run)
    run.pop("add_async")
    without = render_section(run)
    rows = ("| Mnemo `add_memory` (async", "- Mnemo `add_memory`:", "- CPU per memory written")
    assert all(any(line.startswith(row) for line in whole) for row in rows)
    assert not any(line.startswith(rows) for line in without)
