"""Where a remember request's CPU goes inside Django (issue 25), the way bench/web_split.py splits
search: Django's WSGI handler called in this process (no server), thread-CPU timers wrapped around
the pieces (a nested piece is counted inside its parent too), medians over many requests of the
per-request CPU, on an embedded PostgreSQL in its own folder with a namespace of ``--memories``
memories. Every request is POST /api/v1/memories/remember with a new text in the corpus's shape,
``dedup_policy`` "ask", a tag, a source and a small metadata object (so every scanned field of
the contract has something to scan).

    .venv/bin/python bench/remember_split.py [--memories 500] [--requests 400] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

#: (module, qualified name) of every piece timed.
TARGETS = [
    ("config.observability", "RequestObservabilityMiddleware.__call__"),
    ("rest_framework.views", "APIView.dispatch"),
    ("rest_framework.views", "APIView.initial"),
    ("rest_framework.views", "APIView.perform_authentication"),
    ("rest_framework.views", "APIView.check_permissions"),
    ("rest_framework.views", "APIView.finalize_response"),
    ("memories.api.views", "RememberView.post"),
    ("core.api", "check"),
    ("rest_framework.request", "Request._load_data_and_files"),
    ("core.api", "StrictSerializer.get_fields"),
    ("rest_framework.serializers", "Serializer.to_internal_value"),
    ("core.secrets", "reject_secrets"),
    ("core.secrets", "find_secret"),
    ("core.fields", "Scanned.run_validation"),
    ("memories.operations", "remember"),
    ("memories.permissions", "resolve_namespace"),
    ("memories.services", "remember"),
    ("memories.services", "validate_text"),
    ("memories.services", "clean_tags"),
    ("memories.services", "_embed_one"),
    ("memories.services", "_lock_namespace"),
    ("memories.services", "_candidates"),
    ("memories.services", "_vector_literal"),
    ("memories.services", "_near_and_superseded"),
    ("memories.services", "same_specifics"),
    ("memories.services", "_insert_remembered"),
    ("django.db.backends.utils", "CursorWrapper.execute"),
    ("django.db.backends.base.base", "BaseDatabaseWrapper.commit"),
    ("memories.api.serializers", "remember_body"),
    ("django.template.response", "SimpleTemplateResponse.render"),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--memories", type=int, default=500)
    parser.add_argument("--requests", type=int, default=400)
    parser.add_argument("--json", default="", help="write the per-piece medians here")
    args = parser.parse_args()
    os.environ["MNEMO_EMBEDDER_THREADS"] = "1"  # as in a web process (config/gunicorn.py); thread CPU sees it all
    from bench.standalone import seeded_namespace, setup_django

    setup_django("mnemo-remember-split-", DJANGO_DEBUG="false", DJANGO_ALLOWED_HOSTS="127.0.0.1")
    from django.core.wsgi import get_wsgi_application
    from django.test import override_settings

    from bench.run import corpus
    from bench.wsgi_calls import post, remember_body, time_piece

    _, token, _ = seeded_namespace(args.memories)
    app = get_wsgi_application()
    acc: dict[str, float] = {}
    calls: dict[str, int] = {}
    for module, qualified in TARGETS:
        time_piece(acc, module, qualified, calls=calls)
    base = corpus(args.requests * 2 + 50, seed=7)

    def one(i: int) -> None:
        post(
            app,
            "/api/v1/memories/remember",
            remember_body(base[i % len(base)], i, source="remember_split"),
            token,
            expect="201",
        )

    per_request: dict[str, list[float]] = {}
    with override_settings(MNEMO_TOKEN_CACHE_SECONDS=60):
        for i in range(30):  # warm: caches, prototypes, the embedder's session
            one(10**6 + i)
        for i in range(args.requests):
            acc.clear()
            calls.clear()
            started = time.thread_time()
            one(i)
            per_request.setdefault("whole WSGI call", []).append(time.thread_time() - started)
            for module, qualified in TARGETS:
                key = f"{module}.{qualified}"
                per_request.setdefault(key, []).append(acc.get(key, 0.0))
                per_request.setdefault(f"{key} calls", []).append(calls.get(key, 0))
    out: dict[str, Any] = {}
    # What is neither the embedding nor the SQL (the driver's CPU included): the request's own.
    sql = ("django.db.backends.utils.CursorWrapper.execute", "django.db.backends.base.base.BaseDatabaseWrapper.commit")
    per_request["rest (whole - embedding - SQL)"] = [
        whole - per_request["memories.services._embed_one"][i] - sum(per_request[k][i] for k in sql)
        for i, whole in enumerate(per_request["whole WSGI call"])
    ]
    for key in ("whole WSGI call", "rest (whole - embedding - SQL)"):
        values = per_request[key]
        out[key] = {
            "median_ms": round(statistics.median(values) * 1e3, 3),
            "mean_ms": round(statistics.fmean(values) * 1e3, 3),
        }
        print(f"{key}: median {out[key]['median_ms']:.3f} ms CPU, mean {out[key]['mean_ms']:.3f}")
    for module, qualified in TARGETS:
        key = f"{module}.{qualified}"
        values = per_request[key]
        n = statistics.fmean(per_request[f"{key} calls"])
        out[key] = {
            "median_ms": round(statistics.median(values) * 1e3, 3),
            "mean_ms": round(statistics.fmean(values) * 1e3, 3),
            "calls": round(n, 2),
        }
        print(f"  {key:70s} {out[key]['median_ms']:7.3f} ms (mean {out[key]['mean_ms']:.3f}, {n:.1f} calls)")
    if args.json:
        meta = {"requests": args.requests, "memories": args.memories, "load_average_1m": os.getloadavg()[0]}
        Path(args.json).write_text(json.dumps({**meta, "pieces": out}, indent=1) + "\n")


if __name__ == "__main__":
    main()
