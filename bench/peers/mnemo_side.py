"""The peers bench's helper on Mnemo's side, run with Mnemo's own Python (bench/peers/run.py runs
in .venv-peers, which has no Django): it attaches to the running ``make run`` stack's embedded
PostgreSQL (as the stack's children do) and answers with one JSON line.

    python bench/peers/mnemo_side.py setup --namespaces agent:peers-c0,agent:peers-c1
        a user with an API token and write access to each namespace: {"token": ..., "namespaces": {...}}
    python bench/peers/mnemo_side.py embed-cpu < queries.json
        the query embedding's CPU in this process, one thread, as the web process embeds a query
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def setup_django() -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    os.environ.setdefault("MNEMO_EMBEDDER_THREADS", "1")  # as gunicorn's web processes embed (config/gunicorn.py)
    import django

    django.setup()


def setup(namespaces: list[str]) -> dict:
    from django.contrib.auth import get_user_model
    from guardian.shortcuts import assign_perm

    from core.tokens import issue_token
    from memories.models import Namespace

    user, _ = get_user_model().objects.get_or_create(username="bench-peers")
    made = {}
    for key in namespaces:
        ns, _ = Namespace.objects.get_or_create(key=key, defaults={"kind": "agent"})
        assign_perm("view_namespace", user, ns)
        assign_perm("write_namespace", user, ns)
        made[key] = ns.id
    return {"token": issue_token(user=user, name=f"peers-{time.time_ns()}").key, "namespaces": made}


def embed_cpu(queries: list[str]) -> dict:
    """Each query embedded alone (search's ``embedding_text`` of a one-namespace search), its CPU
    time on this thread: what one search's embedding costs the machine."""
    from memories.embedding import embed_texts

    embed_texts(queries[:8])  # load and warm up
    cpu, wall = [], []
    for query in queries:
        c0, w0 = time.thread_time(), time.perf_counter()
        embed_texts([query])
        cpu.append((time.thread_time() - c0) * 1000)
        wall.append((time.perf_counter() - w0) * 1000)
    cpu.sort()
    wall.sort()
    return {
        "n": len(queries),
        "cpu_p50_ms": round(cpu[len(cpu) // 2], 2),
        "cpu_mean_ms": round(sum(cpu) / len(cpu), 2),
        "wall_p50_ms": round(wall[len(wall) // 2], 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=["setup", "embed-cpu"])
    parser.add_argument("--namespaces", default="")
    args = parser.parse_args()
    setup_django()
    if args.command == "setup":
        result = setup([k for k in args.namespaces.split(",") if k])
    else:
        result = embed_cpu(json.load(sys.stdin))
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
