"""Where a worker's CPU goes per memory, and the ingestion rate that leaves on this machine.

The worker-only target compares ingestion with the batched embedder (batches of 64 on every
core). A worker does more than embed: it writes each vector into the HNSW index, and its tasks
run a little Python. This measures, in its own embedded PostgreSQL:

- the embedding's CPU time per memory on one onnxruntime thread (what each of the worker's task
  threads uses) and the batched embedder on all cores (the target's ceiling), on the bench corpus;
- the write (``services.write_embeddings``: one UPDATE with the vectors, the HNSW insertions)
  per memory, into a table that already holds ``--rows`` vectors, the same rows written
  without a vector (what the index costs), and with the namespace's own HNSW index as well;

and prints the most a worker can do on ``os.cpu_count()`` fully busy cores, as a share of the
ceiling.

    .venv/bin/python bench/worker_cost.py [--rows 20000] [--memories 640]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=20_000, help="vectors already in the table")
    parser.add_argument("--memories", type=int, default=640, help="memories embedded and written")
    args = parser.parse_args()
    from bench.standalone import setup_django

    setup_django("mnemo-worker-cost-")
    import numpy as np
    from django.db import connection

    from bench.run import corpus
    from memories.embedding import MiniLMInt8Embedder
    from memories.models import Memory, Namespace
    from memories.services import write_embeddings

    cores = os.cpu_count() or 1
    texts = corpus(args.memories, seed=900)
    batch = 64

    # The embedding: one thread (a worker's task thread) and all cores (the ceiling).
    def per_memory_ms(threads: int) -> tuple[float, float, list[list[float]]]:
        embedder = MiniLMInt8Embedder(threads=threads, batch_size=batch)
        embedder.embed(texts[:8])
        cpu0, wall0 = time.process_time(), time.perf_counter()
        vectors: list[list[float]] = []
        for i in range(0, len(texts), batch):
            vectors += embedder.embed(texts[i : i + batch])
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        return cpu * 1000 / len(texts), wall * 1000 / len(texts), vectors

    one_cpu_ms, one_wall_ms, vectors = per_memory_ms(1)
    _, all_wall_ms, _ = per_memory_ms(0)
    ceiling = 1000 / all_wall_ms

    # A table holding --rows vectors like the bench's (real ones with a little noise).
    ns, _ = Namespace.objects.get_or_create(key="agent:worker-cost", defaults={"kind": "agent"})
    base = np.array(vectors, dtype=np.float32)
    rng = np.random.default_rng(3)
    with connection.cursor() as cursor:
        have = Memory.objects.filter(namespace=ns, status="ready").count()
        for start in range(have, args.rows, 5000):
            n = min(5000, args.rows - start)
            noisy = base[rng.integers(0, len(base), n)] + rng.normal(0, 0.04, (n, base.shape[1])).astype(np.float32)
            noisy /= np.linalg.norm(noisy, axis=1, keepdims=True)
            Memory.objects.bulk_create(
                [
                    Memory(namespace=ns, text=f"filler {start + i}", embedding=v.tolist(), status="ready")
                    for i, v in enumerate(noisy)
                ]
            )
        cursor.execute("VACUUM (ANALYZE) memories_memory")

    def write_ms(with_vectors: bool) -> float:
        rows = Memory.objects.bulk_create(
            [Memory(namespace=ns, text=t, status="queued") for t in texts], batch_size=1000
        )
        timings = []
        for i in range(0, len(rows), batch):
            part = rows[i : i + batch]
            started = time.perf_counter()
            if with_vectors:  # what the worker does
                write_embeddings(part, [(v, []) for v in vectors[i : i + batch]], model_name="cost")
            else:  # the same rows marked ready without a vector: no index entry to make
                Memory.objects.filter(id__in=[row.id for row in part]).update(status="ready", embedding_model="cost")
            timings.append((time.perf_counter() - started) * 1000 / len(part))
        return statistics.median(timings)

    with_index = write_ms(True)
    without = write_ms(False)
    # The same namespace with an HNSW index of its own too (a large namespace: docs/memory-api.md, "Large
    # namespaces"): each vector then goes into two graphs.
    from django.test import override_settings

    from memories import ops

    with override_settings(MNEMO_NAMESPACE_INDEX_MIN_MEMORIES=min(args.rows, 10_000)):
        built = [action.describe() for action in ops.maintain_namespace_indexes() or []]
    with_own_index = write_ms(True)
    per_memory = one_cpu_ms + with_index
    most = cores * 1000 / per_memory
    result = {
        "cores": cores,
        "embedding_cpu_ms_per_memory_one_thread": round(one_cpu_ms, 2),
        "embedding_wall_ms_per_memory_one_thread": round(one_wall_ms, 2),
        "batched_embedder_all_cores_texts_per_s": round(ceiling, 1),
        "write_ms_per_memory_with_vectors": round(with_index, 2),
        "write_ms_per_memory_without_vectors": round(without, 2),
        "write_ms_per_memory_with_vectors_and_own_index": round(with_own_index, 2),
        "own_index": built,
        "most_memories_per_s_on_all_cores": round(most, 1),
        "most_as_share_of_ceiling": round(most / ceiling, 3),
        "table_rows": Memory.objects.count(),
    }
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
