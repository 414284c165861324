"""The web process's CPU per request, layer by layer (issue 25): one gunicorn/uvicorn worker
serving bench/web_layers_app.py (config.asgi's application with two floors in front), one client
at a time, CPU of the web process per request (psutil), rounds alternating the layers:

- ``asgi floor``: uvicorn (uvloop, httptools) answering by itself;
- ``wsgi floor``: a bare WSGI app behind a2wsgi as it comes, and behind config.wsgi_bridge (the
  bridge Django's requests take);
- ``django /healthz``: Django's handler, every middleware, URL resolution, a JsonResponse;
- ``search keyword`` / ``search hybrid (cached vector)``: the whole search request.

    .venv/bin/python bench/web_layers.py --data-dir /tmp/mnemo-retrieval [--rounds 5] [--requests 300]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", required=True)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--output")
    args = parser.parse_args()
    import psutil

    from bench import run as bench
    from bench.retrieval import harness

    env = bench.Env(Path(args.data_dir))
    data = harness.dataset()
    harness.load(data, progress=False)
    token = env.token("bench-web-layers")
    for c in data["conversations"]:
        bench._grant(env, "bench-web-layers", harness.NAMESPACE_PREFIX + c["id"])
    port = bench.free_port()
    env.spawn(
        [bench.PY, "-m", "gunicorn", "-c", "config/gunicorn.py", "bench.web_layers_app:application"],
        {"MNEMO_BIND": f"127.0.0.1:{port}", "MNEMO_WEB_WORKERS": "1", "MNEMO_SERVER_TIMING": "true"},
        log=f"web-layers-{port}",
    )
    bench.wait_port(port)
    bench.wait_ready(port)
    web = [p for popen in env.processes for p in (psutil.Process(popen.pid), *psutil.Process(popen.pid).children())]
    questions = random.Random(11).sample(data["questions"], args.requests)
    search = [
        {"query": q["question"], "namespace": harness.NAMESPACE_PREFIX + q["conversation"], "limit": 10}
        for q in questions
    ]
    layers = {
        "asgi floor": [("GET", "/_floor/asgi", None)] * args.requests,
        "wsgi floor (a2wsgi)": [("GET", "/_floor/wsgi", None)] * args.requests,
        "wsgi floor (config.wsgi_bridge)": [("GET", "/_floor/bridge", None)] * args.requests,
        "django /healthz": [("GET", "/healthz", None)] * args.requests,
        "search keyword": [("POST", "/api/v1/memories/search", {**b, "mode": "keyword"}) for b in search],
        "search hybrid (cached vector)": [("POST", "/api/v1/memories/search", b) for b in search],
    }
    client = bench.Client(port, token)
    for calls in layers.values():  # warm: every query vector cached, every path met once
        for call in calls:
            client.call(*call)

    def cpu() -> float:
        return sum(p.cpu_times().user + p.cpu_times().system for p in web)

    rounds: dict[str, list[float]] = {name: [] for name in layers}
    for _ in range(args.rounds):
        for name, calls in layers.items():
            before = cpu()
            for call in calls:
                status, _, _ = client.call(*call)
                assert status < 400, (name, status)
            rounds[name].append((cpu() - before) * 1000 / len(calls))
    result = {
        name: {"web_cpu_ms_median": round(statistics.median(v), 3), "rounds": [round(x, 3) for x in v]}
        for name, v in rounds.items()
    }
    print(json.dumps(result, indent=1))
    if args.output:
        Path(args.output).write_text(json.dumps(result, indent=1))
    env.stop_all()


if __name__ == "__main__":
    main()
