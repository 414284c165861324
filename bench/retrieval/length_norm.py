"""Keyword coverage normalised by the memory's length, screened as informativeness.py screens.

A long memory holds more of a query's words by chance; BM25 discounts that by the document's
length over the average. Here the shipped rule's coverage (every use of it: the coverage term,
the margin over the runner-up, cos·√cov) is divided by (1 − β + β · len / avg)^p, len the memory's
words and avg the mean over the conversation's dumped candidates (features.py's ``texts``), capped
at 1. Every set is held out in turn, the rule chosen on the others by lodo.py's criterion (least
loss to an arm, then mean R@5 + R@10) and read on it.

    .venv/bin/python -m bench.retrieval.length_norm /tmp/feat > bench/results/lodo-length/<stamp>.txt

(the directory holds features.py dumps f-<set>.json of the seven read sets).
"""

from __future__ import annotations

import json
import re
import sys
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

import numpy as np

from bench.retrieval import crossval as cv
from bench.retrieval import lodo

SETS = ["mnemo", "chat", "assistant", "notes", "team", "life", "family"]
_WORD = re.compile(r"\w+")


def load(directory: str, name: str, lengths: dict[int, np.ndarray]) -> list[cv.Question]:
    """A set's questions; each one's candidates' lengths over the conversation's mean go into
    ``lengths`` (keyed by the question object's id), where the rules read them."""
    path = Path(directory) / f"f-{name}.json"
    raw = json.loads(path.read_text())
    words = {int(k): len(_WORD.findall(v)) for k, v in raw["texts"].items()}
    qs = [q for q in cv.load(str(path)) if q.share == cv.SHARE_NOW]
    ids: dict[str, set[int]] = defaultdict(set)
    for q in qs:
        ids[q.conversation].update(int(i) for i in q.ids)
    mean = {c: float(np.mean([words[i] for i in s])) for c, s in ids.items()}
    for q in qs:
        lengths[id(q)] = np.array([words[int(i)] for i in q.ids], float) / mean[q.conversation]
    return qs


def make(lengths: dict[int, np.ndarray], beta: float, p: float, b: float = 1.5) -> Callable[[cv.Question], np.ndarray]:
    """The shipped rule (a 0.05, m 3, b) on length-normalised coverage."""

    def z(q: cv.Question) -> np.ndarray:
        cov = np.minimum(q.cov / (1 - beta + beta * lengths[id(q)]) ** p, 1.0)
        ru = float(np.partition(cov, -2)[-2]) if len(cov) > 1 else 0.0
        return q.cos + 0.05 * cov + 3 * np.maximum(cov - ru, 0) + b * np.maximum(q.cos, 0) * np.sqrt(np.maximum(cov, 0))

    return z


def main(directory: str) -> None:
    lengths: dict[int, np.ndarray] = {}
    sets = {n: load(directory, n, lengths) for n in SETS}
    rules = {cv.SHIPPED_NOW: cv.RULES[cv.SHIPPED_NOW]}
    for beta in (0.25, 0.5, 0.75, 1.0):
        for p in (0.25, 0.5, 1.0):
            for b in (1.0, 1.5, 2.0):
                rules[f"β {beta} p {p} b {b}"] = make(lengths, beta, p, b)
    lodo.print_screen(lodo.rule_rows(rules, sets), SETS, width=42)


if __name__ == "__main__":
    main(sys.argv[1])
