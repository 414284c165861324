"""Two views of the query: the whole question's cosine beside the vector arm's (issue 26).

The vector arm embeds the question without its namespace's common words (speakers' names, but
also a topic many memories share: ``selectors.embedding_text``). A second vector of the whole
question, embedded in the same onnxruntime run, gives every candidate a second cosine,
``cos_full``. Here it is added to the shipped rule's ranking value (z + λ · cos_full, z + λ ·
cos_full · √coverage, or mixed into the cosine) over the statement's own candidates, and every
set is held out in turn as cluster.py screens. Then what the second vector costs: one query
against the query and its stripped form in one run, one thread, each call after a 20 ms pause
(as a search's embedding comes), interleaved, CPU medians of the rounds.

    .venv/bin/python -m bench.retrieval.two_views /tmp/feat > bench/results/lodo-cluster/<stamp>-two-views.txt

(the directory holds features.py dumps f-<set>.json of the seven read sets; the questions' whole
vectors are cached beside them as q-<set>.npy, the candidates' as cluster.py's v-<set>.npz).
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from bench.retrieval import cluster, lodo
from bench.retrieval import crossval as cv

Rule = Callable[[cv.Question], np.ndarray]


def whole_question_cosines(directory: str, name: str, qs: list[cv.Question], into: dict[int, np.ndarray]) -> None:
    """Each question's candidates' cosines to the whole question's vector, into ``into`` (``qs``
    in the dump's order, as ``crossval.load`` reads it)."""
    by_memory = cluster.candidate_vectors(directory, name)
    questions = json.loads((Path(directory) / f"f-{name}.json").read_text())["questions"]
    cache = Path(directory) / f"q-{name}.npy"
    if cache.exists():
        vectors = np.load(cache)
    else:
        from memories.embedding import embed_texts

        vectors = np.asarray(embed_texts([q["question"] for q in questions]), dtype=np.float32)
        np.save(cache, vectors)
    for q, vector in zip(qs, vectors, strict=True):
        candidates = np.stack([by_memory[int(i)] for i in q.ids]) if len(q.ids) else np.zeros((0, 384))
        into[id(q)] = candidates @ vector


def mixed(full: dict[int, np.ndarray], mu: float) -> Rule:
    """The shipped fusion rule with its cosine (1 − μ) · cos + μ · cos_full."""
    return cv.margin_rule(*cv.SHIPPED_WEIGHTS, cosine=lambda q: (1 - mu) * q.cos + mu * full[id(q)])


def embedding_cost(rounds: int = 5, questions: int = 200, pause: float = 0.02) -> tuple[float, float]:
    """Median CPU ms of embedding a query alone and with its stripped form in the same run."""
    from bench.run import corpus
    from memories.embedding import get_embedder

    embedder = get_embedder()
    texts = [" ".join(t.split()[:9]) + "?" for t in corpus(questions, seed=5)]
    one, two = [], []
    for r in range(rounds):
        a, b = [], []
        for i, text in enumerate(texts):
            for arm in (0, 1) if (i + r) % 2 else (1, 0):
                batch = [text] if arm == 0 else [text, " ".join(text.split()[1:])]
                time.sleep(pause)
                started = time.process_time()
                embedder.embed(batch)
                (a if arm == 0 else b).append(time.process_time() - started)
        one.append(statistics.median(a) * 1000)
        two.append(statistics.median(b) * 1000)
    return statistics.median(one), statistics.median(two)


def main(directory: str) -> None:
    # One intra-op thread, as a web process embeds a query (config/gunicorn.py).
    os.environ.setdefault("MNEMO_EMBEDDER_THREADS", "1")
    cluster.setup_django()
    full: dict[int, np.ndarray] = {}
    sets: dict[str, list[cv.Question]] = {}
    for n in cluster.SETS:
        sets[n] = cv.load(str(Path(directory) / f"f-{n}.json"))
        whole_question_cosines(directory, n, sets[n], full)
    rules: dict[str, Rule] = {cv.SHIPPED_NOW: cluster.SHIPPED}
    for lam in (0.02, 0.05, 0.1, 0.25, 0.5):
        rules[f"z + {lam} cos_full"] = lambda q, lam=lam: cluster.SHIPPED(q) + lam * full[id(q)]
    for lam in (0.1, 0.25, 0.5):
        rules[f"z + {lam} cos_full·√cov"] = lambda q, lam=lam: (
            cluster.SHIPPED(q) + lam * np.maximum(full[id(q)], 0) * np.sqrt(np.maximum(q.cov, 0))
        )
    for mu in (0.1, 0.25):
        rules[f"cos := {1 - mu:g} cos + {mu} cos_full"] = mixed(full, mu)
    lodo.print_screen(lodo.rule_rows(rules, sets), cluster.SETS, width=40)
    one, two = embedding_cost()
    print(
        f"query embedding CPU, one text {one:.2f} ms, the query and its stripped form in one run "
        f"{two:.2f} ms ({two / one:.2f}×)"
    )


if __name__ == "__main__":
    main(sys.argv[1])
