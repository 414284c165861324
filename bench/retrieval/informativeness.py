"""Fusion rules that adapt to how informative the query's words are, screened as lodo.py screens.

Each query's words' IDF weights and the namespace size come from ``features.py`` (``idf``): the
rarity of its rarest word (its IDF over the IDF of a word in one memory) and the concentration of
its weight (the rarest word's share of the total). The shipped rule's coverage, margin and
cos·√cov weights are made linear in either; every set is held out in turn, the rule chosen on the
others by lodo.py's criterion (least loss to an arm, then mean R@5 + R@10) and read on it.

    .venv/bin/python -m bench.retrieval.informativeness /tmp/feat > bench/results/lodo-informativeness/<stamp>.txt

(the directory holds features.py dumps f-<set>.json of the seven read sets and f-quality.json).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable

import numpy as np

from bench.retrieval import crossval as cv
from bench.retrieval import lodo

SETS = ["mnemo", "chat", "assistant", "notes", "team", "life", "family"]


def rarity(q: cv.Question) -> float:
    """The rarest word's IDF over the IDF of a word in one memory of the namespace."""
    assert q.idf is not None, "features.py dumps without idf: dump again"
    n, w = q.idf
    return (w[0] / math.log((n + 1) / 1.5)) if w else 0.0


def conc(q: cv.Question) -> float:
    """The rarest word's share of the query's IDF weight."""
    assert q.idf is not None, "features.py dumps without idf: dump again"
    n, w = q.idf
    return (w[0] / sum(w)) if w and sum(w) > 0 else 0.0


INFO: dict[str, Callable[[cv.Question], float]] = {"rarity": rarity, "conc": conc}


def make(
    a0: float, a1: float, m0: float, m1: float, b0: float, b1: float, info: str
) -> Callable[[cv.Question], np.ndarray]:
    """z = cos + (a0 + a1·x)·cov + (m0 + m1·x)·margin + (b0 + b1·x)·cos·√cov, x the query's ``info``."""

    f = INFO[info]

    def z(q: cv.Question) -> np.ndarray:
        x = f(q)
        ex = np.maximum(q.cov - cv.runner_up(q), 0)
        return (
            q.cos
            + (a0 + a1 * x) * q.cov
            + (m0 + m1 * x) * ex
            + (b0 + b1 * x) * np.maximum(q.cos, 0) * np.sqrt(np.maximum(q.cov, 0))
        )

    return z


def main(directory: str) -> None:
    sets = {d: [q for q in cv.load(f"{directory}/f-{d}.json") if q.share == cv.SHARE_NOW] for d in SETS}
    fixture = cv.load(f"{directory}/f-quality.json")
    rules = {cv.SHIPPED_NOW: cv.RULES[cv.SHIPPED_NOW], cv.SHIPPED_MARGIN: cv.RULES[cv.SHIPPED_MARGIN]}
    for info in INFO:
        for b1 in (-1.0, -0.5, 0.5, 1.0, 2.0):
            for b0 in (1.0, 1.5):
                rules[f"b {b0}{b1:+} {info}"] = make(0.05, 0, 3, 0, b0, b1, info)
        for m1 in (-2.0, 2.0, 4.0):
            rules[f"m 3{m1:+} {info}"] = make(0.05, 0, 3, m1, 1.5, 0, info)
        for a1 in (0.1, 0.2, 0.4):
            rules[f"a 0.05+{a1} {info}"] = make(0.05, a1, 3, 0, 1.5, 0, info)
        for b1 in (0.5, 1.0):
            for a1 in (0.1, 0.2):
                rules[f"a 0.05+{a1}, b 1.0+{b1} {info}"] = make(0.05, a1, 3, 0, 1.0, b1, info)

    per = lodo.rule_rows(rules, sets)

    def row(r: str, n: str) -> tuple[float, float, float]:
        return per[r][n]["worst_loss"], per[r][n]["r5"], per[r][n]["r10"]

    print("in-sample per rule (mean R5, R10, worst):")
    for r in sorted(per, key=lambda r: lodo.criterion(per, r, SETS))[:15]:
        r5, r10 = np.mean([row(r, n)[1] for n in SETS]), np.mean([row(r, n)[2] for n in SETS])
        print(f"  {r:40s} {r5:.3f} {r10:.3f} {max(row(r, n)[0] for n in SETS):.3f}")
    ho = []
    for held in SETS:
        c = lodo.choose(per, [n for n in SETS if n != held])
        ho.append(row(c, held))
        got, shipped = row(c, held), row(cv.SHIPPED_NOW, held)
        print(
            f"held {held:9s} chose {c:40s} {got[1]:.3f}/{got[2]:.3f} worst {got[0]:.3f}  "
            f"shipped {shipped[1]:.3f}/{shipped[2]:.3f}"
        )
    print(
        "procedure held-out mean",
        np.mean([h[1] for h in ho]).round(3),
        np.mean([h[2] for h in ho]).round(3),
        "worst",
        max(h[0] for h in ho),
    )
    best = lodo.choose(per, SETS)
    print("pick on all:", best, lodo.fixture_check(fixture, rules[best]))


if __name__ == "__main__":
    main(sys.argv[1])
