"""Second-stage reorderings of the search's own candidates, screened as length_norm.py screens.

The shipped statement finds 50 to 95 candidates per question (both arms' union) and its top 10
holds 10 to 17 points less of the evidence than the whole pool does (``pool`` below), so a
reordering of the pool that needs no model could lift R@10. Three families that cost no second
embedding, each added to the shipped rule's ranking value z:

- **pseudo-relevance feedback (cluster)**: + γ · the candidate's mean cosine to the top k by z
  (itself left out): a candidate like the best ones rises (Rocchio's query moved toward the top
  hits, restricted to the pool). The candidates' vectors are the product's embedder's vectors of
  their texts (features.py's ``texts``), as stored;
- **adjacency**: + γ · the best z of the candidates stored just before and after it (the
  memory ids next to it: the turns around it in a conversation), the first round's
  "neighbouring turns" rule, now read out of sample;
- **recency**: + γ · the candidate's rank by id among the pool, newest 1 (a knowledge update
  prefers the later statement).

Every set is held out in turn, the rule chosen on the others by lodo.py's criterion (least loss
to an arm, then mean R@5 + R@10) and read on it.

    .venv/bin/python -m bench.retrieval.cluster /tmp/feat > bench/results/lodo-cluster/<stamp>.txt

(the directory holds features.py dumps f-<set>.json of the seven read sets; the candidates'
vectors are cached beside them as v-<set>.npz).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

from bench.retrieval import crossval as cv
from bench.retrieval import lodo

SETS = ["mnemo", "chat", "assistant", "notes", "team", "life", "family"]
Rule = Callable[[cv.Question], np.ndarray]


def setup_django() -> None:
    """Django's settings, for the product's embedder (no database is touched)."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    django.setup()


def candidate_vectors(directory: str, name: str) -> dict[int, np.ndarray]:
    """Every dumped candidate's vector, by memory id, from the product's embedder (no database)."""
    cache = Path(directory) / f"v-{name}.npz"
    if cache.exists():
        stored = np.load(cache)
        return dict(zip(stored["ids"].tolist(), stored["v"], strict=True))
    setup_django()
    from memories.embedding import embed_texts

    texts = json.loads((Path(directory) / f"f-{name}.json").read_text())["texts"]
    ids = sorted(int(k) for k in texts)
    vectors = np.asarray(embed_texts([texts[str(i)] for i in ids]), dtype=np.float32)
    np.savez(cache, ids=np.array(ids), v=vectors)
    return dict(zip(ids, vectors, strict=True))


def load(directory: str, name: str, vectors: dict[int, np.ndarray]) -> list[cv.Question]:
    """A set's questions; each one's candidates' vectors go into ``vectors`` (keyed by the
    question object's id), where the rules read them."""
    by_memory = candidate_vectors(directory, name)
    qs = [q for q in cv.load(str(Path(directory) / f"f-{name}.json")) if q.share == cv.SHARE_NOW]
    for q in qs:
        vectors[id(q)] = np.stack([by_memory[int(i)] for i in q.ids]) if len(q.ids) else np.zeros((0, 384))
    return qs


#: The fusion rule alone, what shipped when these screens ran (2026-11-27); a question about the
#: present has since added recency (crossval.SHIPPED_PRESENT, present.py).
SHIPPED = cv.RULES[cv.SHIPPED_NOW]


def feedback(vectors: dict[int, np.ndarray], k: int, gamma: float) -> Rule:
    """z + γ · mean cosine to the top k by z, the candidate itself left out (k ≥ 2)."""

    def z(q: cv.Question) -> np.ndarray:
        base = SHIPPED(q)
        if len(base) < 2:
            return base
        top = cv.order(q, base)[:k]
        sims = vectors[id(q)] @ vectors[id(q)][top].T
        sims[top, np.arange(len(top))] = 0.0
        counts = np.full(len(base), float(len(top)))
        counts[top] -= 1
        return base + gamma * sims.sum(axis=1) / np.maximum(counts, 1)

    return z


def adjacency(gamma: float) -> Rule:
    """z + γ · the best z (at least 0) of the candidates whose ids are next to it."""

    def z(q: cv.Question) -> np.ndarray:
        base = SHIPPED(q)
        at = {int(i): j for j, i in enumerate(q.ids)}
        near = [max([base[at[i + d]] for d in (-1, 1) if i + d in at] or [0.0]) for i in q.ids.tolist()]
        return base + gamma * np.maximum(np.array(near), 0)

    return z


def recency(gamma: float) -> Rule:
    """z + γ · the candidate's rank by id among the pool (oldest 0, newest 1)."""

    def z(q: cv.Question) -> np.ndarray:
        base = SHIPPED(q)
        if len(base) < 2:
            return base
        return base + gamma * np.argsort(np.argsort(q.ids)) / (len(q.ids) - 1)

    return z


def main(directory: str) -> None:
    vectors: dict[int, np.ndarray] = {}
    sets = {n: load(directory, n, vectors) for n in SETS}
    print("the shipped rule's top 10 against its whole pool (share of the evidence; answerable questions):")
    for n, qs in sets.items():
        answerable = [q for q in qs if q.evidence]
        t = cv.table(answerable, [cv.order(q, SHIPPED(q)) for q in answerable])
        pool = np.mean([len(q.evidence & set(q.ids.tolist())) / len(q.evidence) for q in answerable])
        size = np.median([len(q.ids) for q in answerable])
        print(f"  {n:9s} R@10 {t['all']['r10']:.3f}, pool {pool:.3f} (median {size:.0f} candidates)")
    rules: dict[str, Rule] = {cv.SHIPPED_NOW: SHIPPED}
    for k in (2, 3, 5):
        for gamma in (0.05, 0.1, 0.2, 0.4):
            rules[f"feedback k {k} γ {gamma}"] = feedback(vectors, k, gamma)
    for gamma in (0.05, 0.1, 0.2):
        rules[f"adjacency γ {gamma}"] = adjacency(gamma)
    for gamma in (0.01, 0.02, 0.05, 0.1):
        rules[f"recency γ {gamma}"] = recency(gamma)
    lodo.print_screen(lodo.rule_rows(rules, sets), SETS, width=40)


if __name__ == "__main__":
    main(sys.argv[1])
