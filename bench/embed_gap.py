"""Why a search's query embedding costs more inside the web process than alone (issue 25): in the
peers run (bench/results/peers/2026-11-26T111105-peers.json) Server-Timing ``embed`` p50 was
5.99 ms against 3.42 ms of CPU for the same embedding measured alone, query after query.

Conditions: each embedding right after the previous one ("back to back", what ``embedding_cpu``
measures), after a sleep, after a spin in Python (the core busy, almost no memory touched), after
reading 256 MB (more than the model's float weights: what Mem0's torch model does to the caches
between two of Mnemo's searches), and beside another process reading 256 MB over and over. They
come in blocks of ``BLOCK`` questions, in turn, the order reversed every other pass (ABBA).

1. Over HTTP on the ``make run`` stack (bench/peers/run.py's Stack, query-vector cache off as in
   the peers run, one conversation remembered), searches at concurrency 1 (Server-Timing ``embed``;
   ``embed-cpu`` too where a server reports its thread's CPU), alternating with the same query
   embedded in this process under the same condition: the web process against a process of its
   own at the same moments.
2. In this process, each embedder of ``--embedders`` (one thread, as a web process embeds) under
   every condition: thread CPU and wall per embedding.

    .venv/bin/python bench/embed_gap.py [--rounds 3] [--embedders minilm-int8,minilm-int8-rowwise] [--no-http]

Writes bench/results/embed-gap/<date>.json.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "embed-gap"
DATA = ROOT / "bench" / "retrieval" / "conversations.json"
sys.path.insert(0, str(ROOT))

#: Bytes read by a sweep: more than the model's float32 weights (~90 MB) and a few times a core's
#: L2, as a second transformer (Mem0's torch model) reads between two searches.
SWEEP_BYTES = 256 * 1024 * 1024
#: A pause between two embeddings: about what comes between two of Mnemo's searches in the peers
#: run at concurrency 1 (the search's own statement and Django, the client, Mem0's search: ~17 ms).
PAUSE_S = 0.02
#: Questions in a row under one condition.
BLOCK = 10


def spin(seconds: float) -> None:
    """Busy in Python for ``seconds``: the core stays awake, almost no memory is touched."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


class Sweeper:
    """Another process reading ``SWEEP_BYTES`` over and over while ``on`` (the other core's
    memory-heavy work: on this machine, another test run's benchmark), idle (1 ms sleeps) while off."""

    def __init__(self) -> None:
        import multiprocessing

        context = multiprocessing.get_context("spawn")
        self.flag, self.stop = context.Event(), context.Event()
        self.process = context.Process(target=_sweep_while, args=(self.flag, self.stop), daemon=True)
        self.process.start()

    def on(self) -> None:
        self.flag.set()

    def off(self) -> None:
        self.flag.clear()

    def for_condition(self, condition: str) -> None:
        """On for the condition that runs beside it, off for every other."""
        if condition == "beside_a_sweeping_process":
            self.on()
        else:
            self.off()

    def close(self) -> None:
        self.stop.set()
        self.process.join(10)


def _sweep_while(flag: Any, stop: Any) -> None:
    import numpy as np

    buffer = np.ones(SWEEP_BYTES // 8)
    while not stop.is_set():
        if flag.is_set():
            buffer.sum()
        else:
            time.sleep(0.001)


def summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "n": len(values),
        "p50_ms": round(statistics.median(ordered), 3),
        "p90_ms": round(ordered[int(0.9 * (len(ordered) - 1))], 3),
        "mean_ms": round(statistics.fmean(ordered), 3),
    }


def blocks(names: list[Any], questions: list[str], rounds: int) -> list[tuple[Any, list[str]]]:
    """The conditions in blocks of ``BLOCK`` questions, in turn, the order reversed every other
    pass (ABBA), ``rounds`` times over the questions: within a block a condition's embeddings
    follow each other, so "back to back" is what a loop of embeddings measures."""
    out = []
    for r in range(rounds):
        for b, start in enumerate(range(0, len(questions), BLOCK)):
            order = names if (r + b) % 2 == 0 else names[::-1]
            out += [(name, questions[start : start + BLOCK]) for name in order]
    return out


def timed_embed(embedder: Any, query: str, cpu: list[float], wall: list[float]) -> None:
    """Embed ``query`` alone; its thread CPU and wall time (ms) appended to ``cpu`` and ``wall``."""
    c0, w0 = time.thread_time(), time.perf_counter()
    embedder.embed([query])
    cpu.append((time.thread_time() - c0) * 1000)
    wall.append((time.perf_counter() - w0) * 1000)


def local_embedder(spec: str) -> Any:
    """An embedder of this process, on one thread as in a web process (config/gunicorn.py), warm."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    import django

    django.setup()
    from django.conf import settings

    from memories.embedding import build_embedder

    settings.MNEMO_EMBEDDER_THREADS = 1
    embedder = build_embedder(spec)
    embedder.embed(["warm up", "the model"])
    return embedder


def in_process(questions: list[str], rounds: int, embedders: list[str]) -> dict[str, Any]:
    """Each embedder's embedding per query under each condition, in this process: the embedders
    and conditions in alternating blocks (``blocks``)."""
    import numpy as np

    models = {spec: local_embedder(spec) for spec in embedders}
    sweep_buffer = np.ones(SWEEP_BYTES // 8)
    before: dict[str, Callable[[], Any]] = {
        "back_to_back": lambda: None,
        "after_sleep_1ms": lambda: time.sleep(0.001),
        "after_sleep_20ms": lambda: time.sleep(PAUSE_S),
        "after_spin_20ms": lambda: spin(PAUSE_S),
        "after_sweep_256mb": lambda: float(sweep_buffer.sum()),
        "beside_a_sweeping_process": lambda: None,
    }
    cells = [(spec, condition) for condition in before for spec in embedders]
    cpu: dict[tuple[str, str], list[float]] = {cell: [] for cell in cells}
    wall: dict[tuple[str, str], list[float]] = {cell: [] for cell in cells}
    sweeper = Sweeper()
    try:
        for (spec, condition), block in blocks(cells, questions, rounds):
            sweeper.for_condition(condition)
            for query in block:
                before[condition]()
                timed_embed(models[spec], query, cpu[spec, condition], wall[spec, condition])
    finally:
        sweeper.close()
    return {
        spec: {
            condition: {
                "cpu": summary(cpu[spec, condition]),
                "wall": summary(wall[spec, condition]),
                "cpu_ratio_to_back_to_back": round(
                    statistics.median(cpu[spec, condition]) / statistics.median(cpu[spec, "back_to_back"]), 2
                ),
            }
            for condition in before
        }
        for spec in embedders
    }


def over_http(conversation: dict[str, Any], questions: list[str], rounds: int, python: str) -> dict[str, Any]:
    """Server-Timing ``embed`` of c1 searches on the make run stack, by what came before each, in
    blocks alternating with the same query embedded in this process under the same condition (so
    the web process and a process of its own are compared at the same moments)."""
    import numpy as np

    from bench.peers.run import Mnemo, Stack, turn_text

    embedder = local_embedder("minilm-int8")
    work = Path(tempfile.mkdtemp(prefix="mnemo-embed-gap-"))
    os.environ["MNEMO_QUERY_VECTOR_CACHE"] = "0"  # every search embeds its query, as in the peers run
    stack = Stack(python, work)
    sweeper = None
    try:
        key = f"agent:peers-{conversation['id']}"
        mnemo = Mnemo(stack, stack.side("setup", "--namespaces", key)["token"])
        turns = [turn for session in conversation["sessions"] for turn in session["turns"]]
        for turn in turns:
            mnemo.add(conversation["id"], turn_text(turn), {"dia_id": turn["id"]})
        sweep_buffer = np.ones(SWEEP_BYTES // 8)
        before: dict[str, Callable[[], Any]] = {
            "back_to_back": lambda: None,
            "after_sleep_20ms": lambda: time.sleep(PAUSE_S),
            "after_sweep_256mb": lambda: float(sweep_buffer.sum()),
            "beside_a_sweeping_process": lambda: None,
        }
        sweeper = Sweeper()
        for query in questions[:10]:  # warm the worker this connection reaches
            mnemo.search(conversation["id"], query)
        names = [f"{where}_{name}" for name in before for where in ("web", "here")]
        wall: dict[str, list[float]] = {name: [] for name in names}
        cpu: dict[str, list[float]] = {name: [] for name in names}
        for name, block in blocks(names, questions, rounds):
            where, condition = name.split("_", 1)
            sweeper.for_condition(condition)
            for query in block:
                before[condition]()
                if where == "here":
                    timed_embed(embedder, query, cpu[name], wall[name])
                    continue
                ok, _ = mnemo.search(conversation["id"], query)
                timing = mnemo.client.server_timing
                if ok and "embed" in timing:
                    wall[name].append(timing["embed"])
                    if "embed-cpu" in timing:  # the embedding thread's CPU, where the server reports it
                        cpu[name].append(timing["embed-cpu"])
        return {
            "memories": len(turns),
            **{
                name: {"wall": summary(wall[name]), **({"cpu": summary(cpu[name])} if cpu[name] else {})}
                for name in names
            },
        }
    finally:
        if sweeper is not None:
            sweeper.close()
        stack.stop()


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--questions", type=int, default=120)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--embedders", default="minilm-int8")
    parser.add_argument("--no-http", action="store_true")
    parser.add_argument("--python", default=sys.executable, help="the Python the stack runs with")
    args = parser.parse_args(argv)
    data = json.loads(DATA.read_text())
    conversation = data["conversations"][0]
    questions = [q["question"] for q in data["questions"] if q["conversation"] == conversation["id"]]
    questions = questions[: args.questions]
    results: dict[str, Any] = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "cpus": os.cpu_count(),
        "load_average_start": [round(x, 2) for x in os.getloadavg()],
        "questions": len(questions),
        "rounds": args.rounds,
    }
    if not args.no_http:  # first: the stack's web workers are not this process
        results["http_c1"] = over_http(conversation, questions, args.rounds, args.python)
        print(json.dumps({"http_c1": results["http_c1"]}), flush=True)
    results["in_process"] = in_process(questions, args.rounds, [e for e in args.embedders.split(",") if e])
    results["load_average_end"] = [round(x, 2) for x in os.getloadavg()]
    RESULTS.mkdir(parents=True, exist_ok=True)
    output = RESULTS / f"{results['date'][:19].replace(':', '')}.json"
    output.write_text(json.dumps(results, indent=2) + "\n")
    print(json.dumps(results["in_process"], indent=1))
    print(f"results: {output}")
    return results


if __name__ == "__main__":
    main()
