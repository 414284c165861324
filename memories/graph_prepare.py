"""Derive the configured embedder's graph in a child Python, before the serving processes start.

Why a child: deriving a graph (onnxruntime's optimisation of the shipped file, then the integer
recipe) holds up to about 1 GB, and a process that derived keeps about 300 MB of it afterwards
(the allocator does not hand the freed memory back). ``make run``'s supervisor, which lives as
long as the server, held 613 MB after deriving in process, and each gunicorn worker started
without a prepared cache peaked at 1 GB deriving for itself (bench/NOTES.md, 2026-11-29). A child
that derives, writes the cache and exits gives all of it back; the processes then load the graph
from the cache (about 320 MB each).

Only the standard library here: gunicorn's arbiter imports this without setting Django up.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: What the child runs: the configured embedder's ``prepare`` (an embedder of one's own may have
#: none: "none"), its answer on the last line of its output.
_CHILD = (
    "import django\n"
    "django.setup()\n"
    "from django.conf import settings\n"
    "from memories.embedding import build_embedder\n"
    "prepare = getattr(build_embedder(settings.MNEMO_EMBEDDER), 'prepare', None)\n"
    "print(prepare() if prepare else 'none')\n"
)


def prepare_in_child(env: Mapping[str, str] | None = None, *, timeout: float = 900) -> str:
    """Run the embedder's ``prepare`` in a child Python with this process's environment plus
    ``env``; its answer: "cache" (the graph was there), "derived" (derived now, cached), "shipped"
    (nothing to derive) or "none" (an embedder without ``prepare``). Raises ``RuntimeError`` with
    the child's last line of error when it fails (the processes then derive for themselves, as
    they always could)."""
    child_env = {**os.environ, **(env or {})}
    child_env.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    result = subprocess.run(
        [sys.executable, "-c", _CHILD], cwd=ROOT, env=child_env, capture_output=True, text=True, timeout=timeout
    )
    lines = result.stdout.strip().splitlines()
    if result.returncode != 0 or not lines:
        errors = result.stderr.strip().splitlines()
        raise RuntimeError(errors[-1] if errors else f"the child exited with {result.returncode}")
    return lines[-1].strip()
