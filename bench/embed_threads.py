"""One query embedding on one onnxruntime thread against two (issue 25): what an idle second core
would buy a search at low load.

A web process embeds on one intra-op thread (config/gunicorn.py): under load the other core is
busy with other requests and PostgreSQL, and onnxruntime's default pool (a thread per core,
spinning between runs) burned 20 ms of CPU per query. The arm measured here spins only within a
run and stops when the run returns (``session.force_spinning_stop``), so a query costs its own
CPU and nothing after. Both arms run the same graph (the shipped one, fused, as ``minilm-int8``
ships) in one process, interleaved question by question with the order alternating, each call
after ``--pause-ms`` of sleep (a search's embedding follows a pause: bench/embed_gap.py). Per
round the medians of wall and process CPU time; then the medians of the rounds. The vectors of the
two arms are compared number by number.

    .venv/bin/python bench/embed_threads.py [--rounds 5] [--questions 200] [--pause-ms 20] [--out FILE.json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results" / "embedder"


def two_thread_arm(threads: int) -> Any:
    """minilm-int8 as it ships, its session replaced by one with ``threads`` intra-op threads that
    spin within a run and stop when it returns."""
    import onnxruntime as ort

    from memories.embedding import MiniLMInt8Embedder

    embedder = MiniLMInt8Embedder(threads=1)
    embedder._load()
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.log_severity_level = 3
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.add_session_config_entry("session.intra_op.allow_spinning", "1")
    options.add_session_config_entry("session.force_spinning_stop", "1")
    embedder._session = ort.InferenceSession(
        embedder._model(), sess_options=options, providers=["CPUExecutionProvider"]
    )
    return embedder


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--questions", type=int, default=200)
    parser.add_argument("--pause-ms", type=float, default=20.0)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--out")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    import django

    django.setup()
    import numpy as np

    from memories.embedding import MiniLMInt8Embedder

    data = json.loads((ROOT / "bench" / "retrieval" / "chat.json").read_text())
    questions = [q["question"] for q in data["questions"][: args.questions]]
    arms = {"1 thread": MiniLMInt8Embedder(threads=1), f"{args.threads} threads": two_thread_arm(args.threads)}
    for embedder in arms.values():
        embedder.embed(["warm up", *questions[:5]])
    rounds: list[dict[str, dict[str, float]]] = []
    largest_difference = 0.0
    for r in range(args.rounds):
        wall: dict[str, list[float]] = {k: [] for k in arms}
        cpu: dict[str, list[float]] = {k: [] for k in arms}
        for i, q in enumerate(questions):
            order = list(arms) if (i + r) % 2 == 0 else list(reversed(arms))
            vectors = []
            for name in order:
                time.sleep(args.pause_ms / 1000)
                c0, w0 = time.process_time(), time.perf_counter()
                vectors.append(np.array(arms[name].embed([q])[0]))
                wall[name].append(time.perf_counter() - w0)
                cpu[name].append(time.process_time() - c0)
            largest_difference = max(largest_difference, float(np.abs(vectors[0] - vectors[1]).max()))
        rounds.append(
            {
                k: {"wall_ms": 1000 * statistics.median(wall[k]), "cpu_ms": 1000 * statistics.median(cpu[k])}
                for k in arms
            }
        )
    summary = {
        k: {m: round(statistics.median(rd[k][m] for rd in rounds), 3) for m in ("wall_ms", "cpu_ms")} for k in arms
    }
    one, more = summary["1 thread"], summary[f"{args.threads} threads"]
    result = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "cpus": os.cpu_count(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "questions": len(questions),
        "pause_ms": args.pause_ms,
        "rounds": rounds,
        "median_of_rounds": summary,
        "wall_ratio": round(one["wall_ms"] / more["wall_ms"], 3),
        "cpu_ratio": round(more["cpu_ms"] / one["cpu_ms"], 3),
        "largest_difference": largest_difference,
    }
    for k, v in summary.items():
        print(f"{k:10s} wall {v['wall_ms']:.2f} ms, CPU {v['cpu_ms']:.2f} ms (medians of {args.rounds} rounds)")
    print(
        f"wall 1 thread ÷ {args.threads}: {result['wall_ratio']}×; CPU {args.threads} ÷ 1: {result['cpu_ratio']}×; "
        f"largest difference between the vectors {largest_difference:.1e}"
    )
    out = Path(args.out) if args.out else RESULTS / f"{datetime.now(UTC).strftime('%Y-%m-%dT%H%M%S')}-threads.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1) + "\n")
    print(f"wrote {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}")
    return result


if __name__ == "__main__":
    main()
