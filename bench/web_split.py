"""Where a search request's CPU goes inside Django (issue 25): Django's WSGI handler called
directly in this process (no server, no a2wsgi: bench/web_layers.py measures those), on the
retrieval benchmark's data, with thread-CPU timers wrapped around the pieces (a nested piece is
counted inside its parent too). The query vector is cached after the first pass, as on a server
asked again.

    .venv/bin/python bench/web_split.py /tmp/mnemo-retrieval {keyword|hybrid} [requests]
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

#: (module, qualified name) of every piece timed.
TARGETS = [
    ("rest_framework.views", "APIView.dispatch"),
    ("rest_framework.views", "APIView.initial"),
    ("rest_framework.views", "APIView.perform_authentication"),
    ("core.authentication", "_read_version"),
    ("rest_framework.views", "APIView.finalize_response"),
    ("memories.api.views", "SearchView.post"),
    ("core.api", "validated"),
    ("rest_framework.request", "Request._load_data_and_files"),
    ("memories.operations", "search"),
    ("memories.permissions", "resolve_namespace"),
    ("memories.selectors", "search_memories"),
    ("django.db.backends.utils", "CursorWrapper.execute"),
    ("memories.selectors", "_memories_from_rows"),
    ("memories.api.serializers", "search_results"),
    ("django.template.response", "SimpleTemplateResponse.render"),
]


def main() -> None:
    from bench import run as bench
    from bench.retrieval import harness
    from bench.wsgi_calls import post, time_piece

    env = bench.Env(Path(sys.argv[1]))
    mode = sys.argv[2]
    requests = int(sys.argv[3]) if len(sys.argv) > 3 else 2000
    data = harness.dataset()
    harness.load(data, progress=False)
    token = env.token("bench-web-layers")
    for c in data["conversations"]:
        bench._grant(env, "bench-web-layers", harness.NAMESPACE_PREFIX + c["id"])
    from django.core.wsgi import get_wsgi_application

    app = get_wsgi_application()
    acc: dict[str, float] = {}
    keys = [time_piece(acc, module, qualified) for module, qualified in TARGETS]
    extra = {"mode": mode} if mode != "hybrid" else {}
    bodies = [
        json.dumps(
            {"query": q["question"], "namespace": harness.NAMESPACE_PREFIX + q["conversation"], "limit": 10, **extra}
        ).encode()
        for q in random.Random(11).sample(data["questions"], 200)
    ]

    def one(body: bytes) -> None:
        post(app, "/api/v1/memories/search", body, token, expect="200")

    for body in bodies:  # warm: every query vector cached
        one(body)
    acc.clear()
    started = time.thread_time()
    for i in range(requests):
        one(bodies[i % len(bodies)])
    total = time.thread_time() - started
    print(f"{mode}: the whole WSGI call {total * 1e3 / requests:.3f} ms CPU per request")
    for (_, qualified), key in zip(TARGETS, keys, strict=True):
        print(f"  {qualified:45s} {acc.get(key, 0) * 1e3 / requests:.3f}")


if __name__ == "__main__":
    main()
