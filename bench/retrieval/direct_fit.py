"""Fit a fusion rule's weights to R@5 + R@10 directly, each data set held out in turn (issue 26).

lodo.py fits the learned rules by a logistic regression of "this candidate is evidence", which is
not what R@k rewards. Here the weights are found by coordinate search (steps 0.5, 0.2, 0.05 from
the shipped rule's weights, cos fixed at 1) on the other data sets' candidates and read on the one
held out, with two objectives: the mean R@5 + R@10 over the training sets, and the worst training
set's gain over the shipped rule (minimax); both less twice the largest loss to an arm in any type.
The rule is z = features · w for one of three feature sets: ``base`` (cos, cov, margin, cos⁺·√cov:
the shipped rule's family), ``confidence`` (+ cov·(1 − best cos)) and ``supported`` (+ cov·(1 −
best cos)·√cos⁺). The weights found on every set are checked against the search-quality fixture
offline (lodo.fixture_check).

    .venv/bin/python -m bench.retrieval.direct_fit /tmp/f-{mnemo,chat,assistant,notes,team,life}.json \
        --fixture /tmp/f-quality.json [--json out.json]
"""

from __future__ import annotations

import argparse
import functools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from bench.retrieval import crossval as cv
from bench.retrieval import lodo

FEATURES: dict[str, Callable[[cv.Question], np.ndarray]] = {
    "base": lambda q: cv.confidence_features(q)[:, :4],
    "confidence": cv.confidence_features,
    "supported": cv.supported_confidence_features,
}
#: The shipped rule's weights on the base features (memories.selectors._RANKING).
SHIPPED = (1.0, 0.05, 3.0, 0.5)
STEPS = (0.5, 0.2, 0.05)


class Packed:
    """One data set's answerable questions as padded arrays: a rule's top 10 in one numpy pass
    (the same order as crossval.order: score, then id)."""

    def __init__(self, qs: list[cv.Question], features: Callable[[cv.Question], np.ndarray]) -> None:
        qs = [q for q in qs if q.evidence and len(q.ids)]
        width, dims = max(len(q.ids) for q in qs), features(qs[0]).shape[1]
        self.f = np.zeros((len(qs), width, dims))
        self.ids = np.full((len(qs), width), np.iinfo(np.int64).max)
        self.rel = np.zeros((len(qs), width))
        self.pad = np.ones((len(qs), width), dtype=bool)
        for i, q in enumerate(qs):
            n = len(q.ids)
            self.f[i, :n], self.ids[i, :n], self.rel[i, :n], self.pad[i, :n] = features(q), q.ids, q.rel, False
        self.evidence = np.array([len(q.evidence) for q in qs], dtype=float)
        self.types = np.array([q.type for q in qs])
        self.arms = cv.arms(qs)

    def read(self, w: np.ndarray) -> tuple[float, float, float]:
        """R@5, R@10 and the largest loss to an arm in any type (crossval.deficit)."""
        z = np.where(self.pad, -np.inf, self.f @ w)
        top = np.lexsort((self.ids, -z), axis=-1)[:, :10]
        hit = np.take_along_axis(self.rel, top, axis=1)
        r5, r10 = hit[:, :5].sum(1) / self.evidence, hit.sum(1) / self.evidence
        table: dict[str, Any] = {t: {"r5": r5[self.types == t].mean(), "r10": r10[self.types == t].mean()}
                                 for t in set(self.types)}  # fmt: skip
        return float(r5.mean()), float(r10.mean()), cv.deficit(table, self.arms)


def search(objective: Callable[[np.ndarray], float], start: np.ndarray) -> np.ndarray:
    """Coordinate search: each weight but cos's moved by ± step while the objective improves."""
    w, best = start.copy(), objective(start)
    for step in STEPS:
        improved = True
        while improved:
            improved = False
            for j in range(1, len(w)):
                for d in (-step, step):
                    trial = w.copy()
                    trial[j] += d
                    value = objective(trial)
                    if value > best + 1e-9:
                        best, w, improved = value, trial, True
    return w


Reads = dict[str, tuple[float, float, float]]


def _linear(q: cv.Question, *, features: Callable[[cv.Question], np.ndarray], w: np.ndarray) -> np.ndarray:
    return features(q) @ w


def mean_objective(w: np.ndarray, *, packed: dict[str, Packed], shipped: Reads, among: list[str]) -> float:
    """Mean R@5 + R@10 over ``among``, less twice the largest loss to an arm there."""
    reads = [packed[n].read(w) for n in among]
    return float(np.mean([r5 + r10 for r5, r10, _ in reads])) - 2 * max(0.0, max(x for *_, x in reads))


def minimax_objective(w: np.ndarray, *, packed: dict[str, Packed], shipped: Reads, among: list[str]) -> float:
    """The worst set's R@5 + R@10 gain over the shipped rule, less twice the largest loss to an arm."""
    reads = {n: packed[n].read(w) for n in among}
    gain = min(r[0] + r[1] - shipped[n][0] - shipped[n][1] for n, r in reads.items())
    return gain - 2 * max(0.0, max(r[2] for r in reads.values()))


def run(sets: dict[str, list[cv.Question]], fixture: list[cv.Question] | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for fname, features in FEATURES.items():
        packed = {n: Packed(qs, features) for n, qs in sets.items()}
        dims = next(iter(packed.values())).f.shape[2]
        start = np.array(SHIPPED + (0.0,) * (dims - len(SHIPPED)))
        shipped = {n: p.read(start) for n, p in packed.items()}

        for oname, objective in (("mean", mean_objective), ("minimax", minimax_objective)):
            held: dict[str, Any] = {}
            for n in sets:
                train = [m for m in sets if m != n]
                w = search(functools.partial(objective, packed=packed, shipped=shipped, among=train), start)
                held[n] = {"weights": [round(float(x), 3) for x in w], "read": packed[n].read(w)}
            on_all = search(functools.partial(objective, packed=packed, shipped=shipped, among=list(sets)), start)
            reads = [h["read"] for h in held.values()]
            out[f"{fname} / {oname}"] = {
                "held_out": held,
                "mean_r5": float(np.mean([r[0] for r in reads])),
                "mean_r10": float(np.mean([r[1] for r in reads])),
                "largest_loss": float(max(r[2] for r in reads)),
                "on_all": [round(float(x), 3) for x in on_all],
                "fixture": lodo.fixture_check(fixture, functools.partial(_linear, features=features, w=on_all))
                if fixture
                else None,
            }
        out.setdefault("shipped", {
            "mean_r5": float(np.mean([r[0] for r in shipped.values()])),
            "mean_r10": float(np.mean([r[1] for r in shipped.values()])),
            "largest_loss": float(max(r[2] for r in shipped.values())),
        })  # fmt: skip
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("features", nargs="+", help="features.py dumps, one per data set")
    parser.add_argument("--fixture", help="features.py --dataset quality")
    parser.add_argument("--json", help="write the result here")
    args = parser.parse_args(argv)
    sets = {}
    for path in args.features:
        qs = cv.load(path)
        sets[qs[0].dataset] = qs
    result = run(sets, cv.load(args.fixture) if args.fixture else None)
    for name, r in result.items():
        fixture = r.get("fixture")
        verdict = "" if fixture is None else f", fixture {'passes' if fixture['passes'] else 'fails'}"
        print(
            f"{name}: held-out mean R@5 {r['mean_r5']:.3f}, R@10 {r['mean_r10']:.3f}, "
            f"largest loss {r['largest_loss']:+.3f}{verdict}"
        )
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
