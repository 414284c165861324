"""What a request of the maximum text size costs: ``remember`` and a session message.

Runs requests through Django's full stack in process (middleware, DRF, token authentication,
permissions, serializers, the services, the embedding, the SQL) against an embedded PostgreSQL in
its own folder, with the embedder on one thread as in a web process (config/gunicorn.py). The
texts are the worst shapes known for the text passes other than the secret scanner (which has
its own benchmark, bench/secret_scanner.py), each at the maximum size its field accepts
(MAX_TEXT_CHARS for ``remember``, LONG_TEXT for a session message): one token per character
(``*``: 16,000 tokens, 83 windows before the embedder read at most MNEMO_EMBED_MAX_WINDOWS),
runs that made patterns backtrack (one long word, spaces, digit runs), decree words, tags,
combining marks, and many distinct words, which the keyword side of search turned into thousands
of scans. Each ``remember`` of a shape after the first finds its earlier copies as near
duplicates, so the near-duplicate check compares the text with them too. The namespace holds
``--memories`` memories made of the words the distinct-words message uses, so that the keyword
side has candidates for every word.

Reported per shape: the median over ``--runs`` requests of the wall time and of the process's CPU
time (the embedder's threads included; not PostgreSQL's, another process). Results go to
bench/results/text-limits/<time>.json; bench/report.py puts the newest in docs/benchmarks.md
("Text passes and request size").

    .venv/bin/python bench/text_limits.py [--runs 5] [--memories 1000]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import string
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
RESULTS = ROOT / "bench" / "results" / "text-limits"
#: The target: every request of the maximum size answers within this (the issue's, on this machine).
TARGET_SECONDS = 1.0


def vocabulary(size: int = 3000, seed: int = 11) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(5, 9))) for _ in range(size)]


def shapes(n: int) -> dict[str, str]:
    """The worst inputs known, each exactly ``n`` characters."""

    def fill(unit: str) -> str:
        return (unit * (n // len(unit) + 1))[:n]

    rng = random.Random(5)
    words = vocabulary()
    return {
        "`*` (one token a character)": fill("*"),
        "one word": fill("a"),
        "`a ` (one-letter words)": fill("a "),
        "`x`, spaces, `x`": "x" + " " * (n - 2) + "x",
        "digit runs `1-`": fill("1-"),
        "codes `x1 `": fill("x1 "),
        "punctuation": fill("!?.,;:-"),
        "`#tag` runs": fill("#tag"),
        "combining marks": fill("e\u0301\u0302\u0303"),
        "decrees `never email bob and `": fill("never email bob and "),
        "distinct words": " ".join(rng.choice(words) for _ in range(n // 4))[:n],
    }


#: What the same requests cost before the caps (commit b3e7337, the same machine under load,
#: in process through the test client, one request each; pyinstrument).
BEFORE = (
    "Before (commit b3e7337, one request each, the machine under a similar load): `remember` of 16,000 `*` "
    "15.9 s, punctuation 13.6 s, `don't ` 12.5 s, distinct words 9.6 s, `a ` 6.8 s; a session message of "
    "16,000 `*` 36 s, distinct words 17 s. pyinstrument put all but a few milliseconds of each in the model, "
    "which read every window of the text (83 for 16,000 `*`). Apart from the model: the near-duplicate "
    "check's pattern for numbers and codes took 3.6 s on a 16,000-letter word, decree capture 8 s on a run "
    "of 16,000 spaces, the rule e-mail finder 3.9 s on a 16,000-letter word (quadratic backtracking), and "
    "the keyword side of search 11 s for a query of 285 words found in a namespace of 2,000 memories (every "
    "distinct word of a query was scanned and tested on every candidate)."
)


def median_ms(samples: list[float]) -> float:
    return round(statistics.median(samples) * 1000, 1)


def measure(call: Any, runs: int) -> dict[str, Any]:
    """Median wall and CPU time of ``runs`` calls; each must answer 2xx."""
    wall, cpu = [], []
    for _ in range(runs):
        c, w = time.process_time(), time.perf_counter()
        response = call()
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
        assert 200 <= response.status_code < 300, (response.status_code, response.content[:300])
    return {"wall_ms": median_ms(wall), "cpu_ms": median_ms(cpu), "max_wall_ms": round(max(wall) * 1000, 1)}


def machine() -> dict[str, Any]:
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown"
    return {
        "cores": os.cpu_count(),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "commit": commit,
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "load_average_1m": round(os.getloadavg()[0], 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--memories", type=int, default=1000)
    parser.add_argument("--output", help="the results file (default: bench/results/text-limits/<time>.json)")
    args = parser.parse_args()
    from bench.standalone import setup_django

    setup_django(
        "mnemo-text-limits-",
        DJANGO_DEBUG="false",
        DJANGO_ALLOWED_HOSTS="testserver",
        MNEMO_EMBEDDER_THREADS=os.environ.get("MNEMO_EMBEDDER_THREADS", "1"),
    )
    from django.conf import settings
    from django.db import connection
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    from core.fields import LONG_TEXT
    from memories.embedding import embed_texts, get_embedder
    from memories.models import Memory
    from memories.permissions import ensure_user_namespace
    from tests.factories import UserFactory

    user = UserFactory()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    namespace = ensure_user_namespace(user)
    rng = random.Random(7)
    words = vocabulary()
    texts = [" ".join(rng.choice(words) for _ in range(rng.randint(8, 30))) for _ in range(args.memories)]
    vectors = embed_texts(texts)
    model = get_embedder().name
    Memory.objects.bulk_create(
        Memory(namespace=namespace, text=t, embedding=v, embedding_model=model, status="ready")
        for t, v in zip(texts, vectors, strict=True)
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE memories_memory")
    client.post("/api/v1/memories/remember", {"text": "warm up"}, format="json")  # the model, the caches

    results: dict[str, Any] = {
        "machine": machine(),
        "settings": {
            "MAX_TEXT_CHARS": settings.MAX_TEXT_CHARS,
            "LONG_TEXT": LONG_TEXT,
            "MNEMO_EMBED_MAX_WINDOWS": settings.MNEMO_EMBED_MAX_WINDOWS,
            "MNEMO_KEYWORD_MAX_TERMS": settings.MNEMO_KEYWORD_MAX_TERMS,
            "MNEMO_EMBEDDER_THREADS": settings.MNEMO_EMBEDDER_THREADS,
            "memories_in_namespace": args.memories,
            "runs": args.runs,
        },
        "remember": {},
        "session": {},
    }
    for name, text in shapes(settings.MAX_TEXT_CHARS).items():
        body = {"text": text, "dedup_policy": "ask"}
        results["remember"][name] = measure(
            lambda body=body: client.post("/api/v1/memories/remember", body, format="json"), args.runs
        )
        print(f"remember {name}: {results['remember'][name]}", flush=True)
    for name, text in shapes(LONG_TEXT).items():
        body = {"message": text}
        results["session"][name] = measure(
            lambda body=body: client.post("/api/v1/assistant/session", body, format="json"), args.runs
        )
        print(f"session {name}: {results['session'][name]}", flush=True)
    results["machine"]["load_average_1m_after"] = round(os.getloadavg()[0], 2)
    output = Path(args.output) if args.output else RESULTS / f"{datetime.now(UTC):%Y-%m-%dT%H%M%S}.json"
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    print(f"wrote {output}")
    print("\n".join(render_section(results)))


def render_section(results: dict[str, Any]) -> list[str]:
    """The "Text passes and request size" section of docs/benchmarks.md."""
    m, s = results["machine"], results["settings"]
    worst = {kind: max(results[kind].items(), key=lambda item: item[1]["wall_ms"]) for kind in ("remember", "session")}
    lines = [
        "## Text passes and request size",
        "",
        f"Measured by `bench/text_limits.py` (commit {m['commit']}, {m['date']}; {m['cores']} cores, "
        f"{m['platform']}, Python {m['python']}; load average {m['load_average_1m']} before, "
        f"{m['load_average_1m_after']} after: the machine is shared, read the CPU column). Requests through "
        "Django's full stack in process against an embedded PostgreSQL, the embedder on one thread as in a web "
        f"process; each text at the maximum size of its field (`remember`: MAX_TEXT_CHARS = {s['MAX_TEXT_CHARS']}; "
        f"session message: {s['LONG_TEXT']} characters), in a namespace of {s['memories_in_namespace']} memories "
        "made of the words of the distinct-words text; medians of "
        f"{s['runs']} requests (each `remember` after the first also finds its earlier copies as near duplicates). "
        "CPU is the web process's (the embedder's threads included, PostgreSQL's not). Caps in force: "
        f"MNEMO_EMBED_MAX_WINDOWS = {s['MNEMO_EMBED_MAX_WINDOWS']}, MNEMO_KEYWORD_MAX_TERMS = "
        f"{s['MNEMO_KEYWORD_MAX_TERMS']}. Target: each answers within {TARGET_SECONDS:g} s.",
        "",
        "| text (maximum size) | `remember` wall / CPU ms | session message wall / CPU ms |",
        "|---|---|---|",
    ]
    for name in results["remember"]:
        r, q = results["remember"][name], results["session"].get(name)
        session = f"{q['wall_ms']} / {q['cpu_ms']}" if q else "—"
        lines.append(f"| {name} | {r['wall_ms']} / {r['cpu_ms']} | {session} |")
    verdicts = []
    for kind, (name, numbers) in worst.items():
        ok = numbers["wall_ms"] <= TARGET_SECONDS * 1000
        verdicts.append(f"{kind}: worst median {numbers['wall_ms']} ms ({name}) — {'met' if ok else 'NOT met'}")
    lines += ["", "Target (median ≤ 1 s): " + "; ".join(verdicts) + ".", "", BEFORE, ""]
    return lines


def newest_section() -> list[str]:
    """The section for the newest results, or nothing when there are none."""
    from bench.report import newest_results_section

    return newest_results_section(RESULTS, render_section)


if __name__ == "__main__":
    main()
