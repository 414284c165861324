"""Fusion, calibration and score floor chosen by cross-validation over the two data sets.

Reads the candidates ``features.py`` dumped for each data set (both arms' evidence for every
candidate of every question) and, in numpy, for each way of splitting:

- **in sample**: fitted on a data set, reported on the same data set;
- **out of sample**: fitted on the other data set, reported on this one (the data sets were
  built apart: README.md), and, within one data set, fitted on the even conversations and
  reported on the odd ones and back.

What is fitted, in that order, on the training questions only:

1. the fusion rule: the member of ``RULES`` (a grid over two families: fixed weights,
   ``cos + a·cov + b·cos·√cov``, and keyword weight adapting to the query,
   ``cos + a·peak·cov + b·cos·√cov`` where ``peak`` is how far the best keyword coverage among the
   query's candidates stands above the fifth best) that loses least to either arm in any question
   type (R@5 and R@10; rounded to half a point), then has the best R@5 + R@10;
2. the score's calibration: a logistic regression of "this top-10 result is one of the question's
   evidence turns" on the result's ranking value z and its query's best z (a query whose best
   candidate is weak is less likely answered at all): score = σ(α·z + γ·max z + β);
3. the default floor: the highest score that costs at most ``--floor-cost`` of R@10 on the
   answerable questions.

The arms alone and the rule shipped before are reported next to it.

    .venv/bin/python -m bench.retrieval.crossval /tmp/f-mnemo.json /tmp/f-chat.json [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from memories.recency import asks_about_present

TYPES = ("single-hop", "multi-hop", "temporal", "open-domain", "adversarial")
#: What the default floor may cost on the training questions: at most this share of R@10 (the
#: bound is 2 points out of sample; 1.5 on the training questions gave 2.4 to 2.9 on the chat set).
FLOOR_COST = 0.01
FLOORS = tuple(round(x, 3) for x in np.arange(0.0, 0.6, 0.005))


class Question:
    """One question's candidates as arrays."""

    def __init__(self, raw: dict[str, Any], dataset: str, share: float = 0.05) -> None:
        self.dataset = dataset
        #: MNEMO_SEARCH_COMMON_SHARE when the candidates were found (the vector arm's query)
        self.share = share
        self.conversation = raw["conversation"]
        self.fold = int(raw["conversation"][1:]) % 2
        self.type = raw["type"]
        self.evidence = set(raw["evidence"])
        rows = raw["rows"]
        self.ids = np.array([r[0] for r in rows], dtype=np.int64)
        self.cos = np.array([r[1] if r[1] is not None else 0.0 for r in rows], dtype=float)
        self.cov = np.array([r[2] if r[2] is not None else 0.0 for r in rows], dtype=float)
        self.vr = np.array([r[3] if r[3] is not None else 0 for r in rows], dtype=float)
        self.kr = np.array([r[4] if r[4] is not None else 0 for r in rows], dtype=float)
        self.rel = np.array([i in self.evidence for i in self.ids], dtype=float)
        #: whether the question asks about the present (memories.recency: the hybrid ranking then adds
        #: the candidates' storage rank)
        self.present = asks_about_present(raw.get("question", ""))
        #: (namespace size, the query's words' IDF weights, highest first), when features.py dumped them
        self.idf: tuple[int, list[float]] | None = (int(raw["idf"][0]), list(raw["idf"][1])) if raw.get("idf") else None
        #: per candidate, a key equal for equal texts (load() sets it when the dump holds the texts)
        self.keys: np.ndarray | None = None


def load(path: str) -> list[Question]:
    return from_dump(json.loads(Path(path).read_text()))


def from_dump(raw: dict[str, Any]) -> list[Question]:
    """A features.py dump's questions (the file's contents, or features.dump's result)."""
    qs = [Question(q, raw["dataset"], raw.get("common_share", 0.05)) for q in raw["questions"]]
    if "texts" in raw:
        keys: dict[str, int] = {}
        texts = raw["texts"]
        for q in qs:
            q.keys = np.array([keys.setdefault(texts[str(i)], len(keys)) for i in q.ids.tolist()], dtype=np.int64)
    return qs


def distinct(q: Question, ranked: np.ndarray, value: np.ndarray) -> np.ndarray:
    """``ranked`` with each text once, as search returns it (memories.selectors._DISTINCT): of a
    text's copies the one with the highest ``value``, then the newest (highest id), at the place of
    the text's first copy. Copies of one text tie on both arms' evidence, so in effect the newest
    copy stands where the oldest did. Without the texts (an older dump), ``ranked`` as it is."""
    if q.keys is None:
        return ranked
    best: dict[int, int] = {}
    first: dict[int, int] = {}
    for place, i in enumerate(ranked.tolist()):
        k = int(q.keys[i])
        first.setdefault(k, place)
        if k not in best or (value[i], q.ids[i]) > (value[best[k]], q.ids[best[k]]):
            best[k] = i
    return np.array([best[k] for k in sorted(best, key=first.__getitem__)], dtype=np.int64)


def distinct_arms(qs: list[Question]) -> tuple[dict, dict]:
    """The vector and keyword modes' tables as they ship since 2026-11-27 (each text once);
    ``arms`` is the arms' own candidate order, as the screens before then read them."""
    return (
        table(qs, [distinct(q, arm_order(q, q.vr), q.cos) for q in qs]),
        table(qs, [distinct(q, arm_order(q, q.kr), q.cov) for q in qs]),
    )


# ---- rules: a score per candidate (higher first) ----------------------------------------------


def shipped_before(q: Question) -> np.ndarray:
    return q.cos + 0.15 * q.cov + 0.5 * np.maximum(q.cos, 0) * np.sqrt(np.maximum(q.cov, 0))


def shipped_before_score(q: Question) -> np.ndarray:
    return 1 / (1 + np.exp(-(7.564 * shipped_before(q) - 5.648)))


def order(q: Question, score: np.ndarray) -> np.ndarray:
    return np.lexsort((q.ids, -score))


def arm_order(q: Question, ranks: np.ndarray) -> np.ndarray:
    found = np.nonzero(ranks)[0]
    return found[np.argsort(ranks[found], kind="stable")]


# ---- metrics -----------------------------------------------------------------------------------


def table(qs: list[Question], ranked: list[np.ndarray], kept: list[int] | None = None) -> dict[str, Any]:
    """R@5, R@10, MRR per type and overall over the answerable questions; ``kept`` limits each
    question's results (a floor)."""
    per: dict[str, list[tuple[float, float, float]]] = {}
    for i, (q, idx) in enumerate(zip(qs, ranked, strict=True)):
        if not q.evidence:
            continue
        top = idx[:10] if kept is None else idx[: min(10, kept[i])]
        got = q.ids[top]
        hit = np.isin(got, list(q.evidence))
        n = len(q.evidence)
        first = np.nonzero(hit)[0]
        per.setdefault(q.type, []).append((hit[:5].sum() / n, hit.sum() / n, 1 / (first[0] + 1) if len(first) else 0.0))
    out = {t: _means(v) for t, v in per.items()}
    out["all"] = _means([x for v in per.values() for x in v])
    return out


def _means(rows: list[tuple[float, float, float]]) -> dict[str, float]:
    a = np.array(rows)
    return {"r5": float(a[:, 0].mean()), "r10": float(a[:, 1].mean()), "mrr": float(a[:, 2].mean()), "n": len(rows)}


def floor_effect(qs: list[Question], ranked: list[np.ndarray], probs: list[np.ndarray], floor: float) -> dict:
    """R@10 lost on answerable questions, false hits on never-stored ones, at ``floor``."""
    kept = [int((p[idx[:10]] >= floor).sum()) for p, idx in zip(probs, ranked, strict=True)]
    base = table(qs, ranked)["all"]["r10"]
    cut = table(qs, ranked, kept)["all"]["r10"]
    never = [k for q, k in zip(qs, kept, strict=True) if not q.evidence]
    answerable = [k for q, k in zip(qs, kept, strict=True) if q.evidence]
    return {
        "floor": floor,
        "r10_lost": base - cut,
        "false_hit_rate": float(np.mean([k > 0 for k in never])) if never else math.nan,
        "false_empty_rate": float(np.mean([k == 0 for k in answerable])),
    }


def choose_floor(qs: list[Question], ranked: list[np.ndarray], probs: list[np.ndarray], cost: float) -> float:
    """The highest floor whose R@10 cost on ``qs`` stays within ``cost``."""
    best = 0.0
    for f in FLOORS:
        if floor_effect(qs, ranked, probs, f)["r10_lost"] <= cost:
            best = f
        else:
            break
    return best


# ---- the rules tried: a ranking value per candidate -----------------------------------------


def keyword_peak(q: Question, k: int = 5) -> float:
    """Best keyword coverage among the query's candidates minus the ``k``-th best (the last when
    fewer): near 0 when the query's words are spread over many memories alike, high when a few
    memories hold its informative words and the rest do not."""
    if not len(q.cov):
        return 0.0
    s = np.sort(q.cov)[::-1]
    return float(s[0] - s[min(k, len(s)) - 1])


def rule(a: float, b: float, c: float = 0.0, lam: float = 1.0) -> Callable[[Question], np.ndarray]:
    """z = cos + (a·cov + b·cos·√cov)·(λ + (1 − λ)·peak) + c·peak·cov (memories.selectors.hybrid_ranking)."""

    def z(q: Question) -> np.ndarray:
        peak = keyword_peak(q)
        support = a * q.cov + b * np.maximum(q.cos, 0) * np.sqrt(np.maximum(q.cov, 0))
        return q.cos + support * (lam + (1 - lam) * peak) + c * peak * q.cov

    return z


RULES: dict[str, Callable[[Question], np.ndarray]] = {}
# fixed weights (the rule shipped before is one of them)
for _a in (0.0, 0.15, 0.3, 0.5):
    for _b in (0.25, 0.5, 0.75, 1.0):
        RULES[f"cos + {_a} cov + {_b} cos·√cov"] = rule(_a, _b)
# a keyword term that weighs as much as the query's words single out a few memories
for _c in (0.5, 1.0, 2.0):
    for _b in (0.25, 0.5, 1.0):
        RULES[f"cos + {_c} peak·cov + {_b} cos·√cov"] = rule(0.0, _b, c=_c)
# the whole keyword evidence scaled by the peak, from λ (no peak) to 1
for _a in (0.15, 0.3, 0.6):
    for _b in (0.75, 1.0, 1.5):
        for _lam in (0.25, 0.5):
            RULES[f"cos + ({_a} cov + {_b} cos·√cov)·({_lam} + {1 - _lam} peak)"] = rule(_a, _b, lam=_lam)


def runner_up(q: Question) -> float:
    """The second-best keyword coverage among the query's candidates (0 with fewer than two)."""
    if len(q.cov) < 2:
        return 0.0
    return float(np.partition(q.cov, -2)[-2])


def margin_rule(
    a: float, m: float, b: float, cosine: Callable[[Question], np.ndarray] | None = None
) -> Callable[[Question], np.ndarray]:
    """z = cos + a·cov + m·(cov − runner-up cov)⁺ + b·cos·√cov (memories.selectors.hybrid_ranking):
    the keyword arm's best candidate counts by how far it stands above the second best, so a
    query whose rare words single out one memory puts it first, while words many memories share
    (a speaker's name, "said") move nothing. ``cosine`` replaces the candidates' cosine (a variant's,
    bench/retrieval/two_views.py)."""

    def z(q: Question) -> np.ndarray:
        cos = q.cos if cosine is None else cosine(q)
        excess = np.maximum(q.cov - runner_up(q), 0)
        return cos + a * q.cov + m * excess + b * np.maximum(cos, 0) * np.sqrt(np.maximum(q.cov, 0))

    return z


# the keyword arm's margin over its runner-up (m = 3: past 3 the margin's candidate is first anyway)
for _a in (0.0, 0.05, 0.1, 0.15, 0.2):
    for _b in (0.25, 0.5, 1.0, 1.5):
        RULES[f"cos + {_a} cov + 3 margin + {_b} cos·√cov"] = margin_rule(_a, 3.0, _b)


def best_cos(q: Question) -> float:
    """The best cosine among the query's candidates (0 with none): how sure the vector arm is."""
    return float(q.cos.max()) if len(q.cos) else 0.0


def confidence_features(q: Question) -> np.ndarray:
    """Per candidate: cos, cov, (cov − runner-up cov)⁺, cos⁺·√cov, cov·(1 − best cos) (the keyword
    evidence weighed by how unsure the vector arm is), as columns."""
    excess = np.maximum(q.cov - runner_up(q), 0)
    supported = np.maximum(q.cos, 0) * np.sqrt(np.maximum(q.cov, 0))
    return np.stack([q.cos, q.cov, excess, supported, q.cov * (1 - best_cos(q))], 1)


def confidence_rule(a: float, m: float, b: float, c: float) -> Callable[[Question], np.ndarray]:
    """z = cos + a·cov + m·(cov − runner-up cov)⁺ + b·cos⁺·√cov + c·cov·(1 − best cos)
    (a candidate, not shipped): the keyword evidence counts by how unsure the vector arm is of its
    best candidate; its weights are a logistic fit on the candidates (lodo.py)."""

    def z(q: Question) -> np.ndarray:
        return confidence_features(q) @ np.array([1.0, a, m, b, c])

    return z


def supported_confidence_features(q: Question) -> np.ndarray:
    """As :func:`confidence_features`, with the last column cov·(1 − best cos)·√cos⁺: the keyword
    evidence counts by how unsure the vector arm is, and only as far as the candidate's own
    meaning supports it. The first form lifted memories sharing one of the query's words at a
    cosine of 0.11 above the answer at 0.244 (tests/memories/search_quality.json, "what area of
    the city is their home in"); √cos⁺ leaves such a partial match a third of its weight."""
    excess = np.maximum(q.cov - runner_up(q), 0)
    supported = np.maximum(q.cos, 0) * np.sqrt(np.maximum(q.cov, 0))
    unsure = q.cov * (1 - best_cos(q)) * np.sqrt(np.maximum(q.cos, 0))
    return np.stack([q.cos, q.cov, excess, supported, unsure], 1)


def supported_confidence_rule(a: float, m: float, b: float, c: float) -> Callable[[Question], np.ndarray]:
    """z = cos + a·cov + m·(cov − runner-up cov)⁺ + b·cos⁺·√cov + c·cov·(1 − best cos)·√cos⁺
    (:func:`supported_confidence_features`); weights fitted as the confidence rule's (lodo.py)."""

    def z(q: Question) -> np.ndarray:
        return supported_confidence_features(q) @ np.array([1.0, a, m, b, c])

    return z


#: Fitted by ``bench.retrieval.lodo`` on all five data sets' candidates (a weighted logistic fit,
#: scaled so that cos weighs 1); every data set's held-out numbers come from fits without it. A
#: candidate, not shipped: it loses a paraphrase the shipped rule keeps in the top 3 on
#: tests/memories/search_quality.json (bench/NOTES.md, 2026-11-26).
CONFIDENCE_WEIGHTS = (-0.636, 0.453, 0.264, 1.806)
CONFIDENCE_RULE = "cos − 0.636 cov + 0.453 margin + 0.264 cos·√cov + 1.806 cov·(1 − best cos)"
RULES[CONFIDENCE_RULE] = confidence_rule(*CONFIDENCE_WEIGHTS)
#: Fitted the same way with supported_confidence_features on the five first sets. A candidate, not
#: shipped: read once on the sixth (life.json), its R@5 + R@10 was 1.189 against the shipped rule's
#: 1.200 and it lost 5 points to the vector arm in one type where the shipped rule loses none
#: (bench/NOTES.md, 2026-11-27: the rule written down before the reading).
SUPPORTED_WEIGHTS = (0.113, 0.585, -0.407, 1.868)
SUPPORTED_RULE = "cos + 0.113 cov + 0.585 margin − 0.407 cos·√cov + 1.868 cov·(1 − best cos)·√cos"
RULES[SUPPORTED_RULE] = supported_confidence_rule(*SUPPORTED_WEIGHTS)
#: Rules whose weights were fitted on every data set: no split's screen may pick them.
FITTED_ON_ALL = (CONFIDENCE_RULE, SUPPORTED_RULE)

SHIPPED_BEFORE = "cos + 0.15 cov + 0.5 cos·√cov"
#: The rule shipped from 2026-11-26T01 to this change (memories.selectors before the margin rule).
SHIPPED_FIXED = "cos + 0.5 cov + 0.25 cos·√cov"


def arms(qs: list[Question]) -> tuple[dict, dict]:
    return table(qs, [arm_order(q, q.vr) for q in qs]), table(qs, [arm_order(q, q.kr) for q in qs])


def deficit(t: dict[str, Any], arm_tables: tuple[dict, ...]) -> float:
    """The largest margin by which an arm beats ``t`` in any type, at R@5 or R@10."""
    return max(
        (a[c][m] - t[c][m] for a in arm_tables for c in a if c in t for m in ("r5", "r10")),
        default=0.0,
    )


def select_rule(train: list[Question]) -> tuple[float, str]:
    """The common-word share and the rule that lose least to an arm (in any type of any data set
    of ``train``, rounded to half a point), then have the best mean R@5 + R@10 over those data sets."""
    best: tuple[tuple[float, float], float, str] | None = None
    for share in sorted({q.share for q in train}):
        sub = [q for q in train if q.share == share]
        parts = {d: [q for q in sub if q.dataset == d] for d in sorted({q.dataset for q in sub})}
        arm_tables = {d: arms(qs) for d, qs in parts.items()}
        for name, rule in RULES.items():
            worst, total = 0.0, 0.0
            for d, qs in parts.items():
                t = table(qs, [order(q, rule(q)) for q in qs])
                worst = max(worst, deficit(t, arm_tables[d]))
                total += t["all"]["r5"] + t["all"]["r10"]
            key = (round(worst / DEFICIT_STEP) * DEFICIT_STEP, -total / len(parts))
            if best is None or key < best[0]:
                best = (key, share, name)
    assert best is not None
    return best[1], best[2]


def top10(qs: list[Question], rule: Callable[[Question], np.ndarray]) -> list[tuple[np.ndarray, np.ndarray]]:
    """Each question's ranking and its values z, in ranked order."""
    out = []
    for q in qs:
        z = rule(q)
        idx = order(q, z)
        out.append((idx, z[idx]))
    return out


def fit_calibration(qs: list[Question], rule: Callable[[Question], np.ndarray]) -> tuple[float, float, float]:
    """(α, γ, β) of σ(α·z + γ·max z + β) on every question's top 10."""
    xs, ys = [], []
    for q, (idx, z) in zip(qs, top10(qs, rule), strict=True):
        for i in range(min(10, len(idx))):
            xs.append((z[i], z[0], 1.0))
            ys.append(q.rel[idx[i]])
    x, y = np.array(xs), np.array(ys)
    w = np.array([1.0, 0.0, 0.0])
    for _ in range(100):
        p = 1 / (1 + np.exp(-(x @ w)))
        step = np.linalg.solve((x * (p * (1 - p))[:, None]).T @ x + 1e-6 * np.eye(3), x.T @ (p - y))
        w -= step
        if np.abs(step).max() < 1e-10:
            break
    return float(w[0]), float(w[1]), float(w[2])


def scored(qs: list[Question], rule: Callable[[Question], np.ndarray], cal: tuple[float, float, float]) -> tuple:
    """Rankings and calibrated scores (per candidate, in candidate order) of ``qs``."""
    ranked, probs = [], []
    for q in qs:
        z = rule(q)
        ranked.append(order(q, z))
        top = z.max() if len(z) else 0.0
        probs.append(1 / (1 + np.exp(-(cal[0] * z + cal[1] * top + cal[2]))))
    return ranked, probs


def reliability(qs: list[Question], ranked: list[np.ndarray], probs: list[np.ndarray]) -> list[dict[str, Any]]:
    """Predicted score band against the share of top-10 results that are evidence."""
    bands: dict[int, list[float]] = {}
    for q, idx, p in zip(qs, ranked, probs, strict=True):
        for i in idx[:10]:
            bands.setdefault(min(int(p[i] * 5), 4), []).append(q.rel[i])
    return [
        {"band": f"{b / 5:.1f}–{(b + 1) / 5:.1f}", "results": len(v), "relevant": round(float(np.mean(v)), 3)}
        for b, v in sorted(bands.items())
    ]


# ---- the cross-validation ------------------------------------------------------------------------


def fit(train: list[Question], floor_cost: float, rule: str | None = None) -> dict[str, Any]:
    """The rule (``select_rule``'s, unless given), then the calibration and the floor, on ``train``."""
    if rule is None:
        share, rule = select_rule(train)
    else:
        share = max({q.share for q in train}, key=lambda s: (s == SHARE_NOW, s))
    train = [q for q in train if q.share == share]
    cal = fit_calibration(train, RULES[rule])
    ranked, probs = scored(train, RULES[rule], cal)
    return {"share": share, "rule": rule, "calibration": cal, "floor": choose_floor(train, ranked, probs, floor_cost)}


def report(test: list[Question], fitted: dict[str, Any]) -> dict[str, Any]:
    test = [q for q in test if q.share == fitted["share"]]
    ranked, probs = scored(test, RULES[fitted["rule"]], fitted["calibration"])
    return {
        "fitted": fitted,
        "arms": arms(test),
        "table": table(test, ranked),
        "floor": floor_effect(test, ranked, probs, fitted["floor"]),
        "reliability": reliability(test, ranked, probs),
    }


#: Losses to an arm smaller than this count as none when a rule is selected.
DEFICIT_STEP = 0.005

#: Floors whose out-of-sample cost and catch are tabled (a caller's min_score).
TRADE_OFF = (0.01, 0.015, 0.03, 0.05, 0.08, 0.1, 0.15, 0.2)

#: The common-word share search used before (MNEMO_SEARCH_COMMON_SHARE): the arms' rows use it.
SHARE_BEFORE = 0.05
#: MNEMO_SEARCH_COMMON_SHARE now (a rule given to ``fit`` is reported with it when it was dumped).
SHARE_NOW = 0.02


def splits(every: list[Question]) -> dict[str, tuple[list[Question], list[Question]]]:
    """The out-of-sample splits: (training questions, held-out questions) per split."""
    out = {}
    for name in sorted({q.dataset for q in every}):
        others = [q for q in every if q.dataset != name]
        if others:
            out[f"fitted on the other data set → {name}"] = (others, [q for q in every if q.dataset == name])
    for k in (0, 1):
        train = [q for q in every if q.fold != k]
        test = [q for q in every if q.fold == k]
        if train and test:
            out[f"fitted on {'odd' if k == 0 else 'even'} conversations → {'even' if k == 0 else 'odd'}"] = (
                train,
                test,
            )
    return out


def screen(every: list[Question], exclude: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """Every rule's out-of-sample standing: in each split, on each data set's held-out questions, the
    largest margin by which an arm beats it (any type, R@5 or R@10), and its mean R@5 + R@10 and MRR
    over those held-out tables. A rule's ranking needs no fitting (the calibration only scores), so
    this is each rule as it would rank the held-out questions whichever split chose it; the rule
    shipped is the best one that loses to no arm in any of them (``choose_rule``)."""
    qs = [q for q in every if q.share == SHARE_NOW] or every
    parts = []
    for split, (_, test) in splits(qs).items():
        for d in sorted({q.dataset for q in test}):
            sub = [q for q in test if q.dataset == d]
            parts.append((split, d, sub, arms(sub)))
    out = []
    for name, rule in RULES.items():
        if name in exclude:
            continue
        worst, total, mrr, losses = 0.0, 0.0, 0.0, []
        for split, d, sub, arm_tables in parts:
            t = table(sub, [order(q, rule(q)) for q in sub])
            lost = deficit(t, arm_tables)
            if lost > 1e-9:
                losses.append(f"{split}: {d} {lost:.3f}")
            worst = max(worst, lost)
            total += t["all"]["r5"] + t["all"]["r10"]
            mrr += t["all"]["mrr"]
        out.append(
            {"rule": name, "worst": worst, "r5+r10": total / len(parts), "mrr": mrr / len(parts), "losses": losses}
        )
    out.sort(key=lambda r: (r["worst"] > 1e-9, -r["r5+r10"]))
    return out


def choose_rule(screened: list[dict[str, Any]]) -> str:
    """The best mean R@5 + R@10 among the rules that lose to no arm anywhere out of sample (or, if
    none does, the smallest worst loss)."""
    holding = [r for r in screened if r["worst"] <= 1e-9]
    if holding:
        return holding[0]["rule"]
    return min(screened, key=lambda r: (r["worst"], -r["r5+r10"]))["rule"]


def crossvalidate(every: list[Question], floor_cost: float) -> dict[str, Any]:
    """Per data set: the arms, the rule shipped before, and the fitted choices: in sample (fitted on
    every question of both data sets), fitted on the other half of the conversations (of both data
    sets: even against odd, both ways) and fitted on the other data set alone."""
    # (the learned rules, fitted by lodo.py on all five data sets, are not screened here: their
    # weights saw every split's held-out questions; lodo.py reads them each set held out)
    screened = screen(every, exclude=FITTED_ON_ALL)
    chosen = choose_rule(screened)
    in_sample = fit(every, floor_cost, chosen)
    # (a run over one conversation per data set, make bench --quick, has no odd half)
    halves = {
        k: fit([q for q in every if q.fold != k], floor_cost, chosen)
        for k in (0, 1)
        if any(q.fold == k for q in every) and any(q.fold != k for q in every)
    }
    out: dict[str, Any] = {}
    for name in sorted({q.dataset for q in every}, key=lambda n: n != "mnemo"):
        mine = [q for q in every if q.dataset == name]
        # the rule shipped before ran with SHARE_BEFORE (a quick run dumps the configured share only)
        qs = [q for q in mine if q.share == SHARE_BEFORE] or [q for q in mine if q.share == in_sample["share"]]
        # the arms as search runs them now (the common-word share fitted in sample)
        vector, keyword = arms([q for q in mine if q.share == in_sample["share"]])
        before = RULES[SHIPPED_BEFORE]
        ranked, probs = scored(qs, before, (7.564, 0.0, -5.648))
        entry: dict[str, Any] = {
            "questions": len(qs),
            "answerable": sum(1 for q in qs if q.evidence),
            "vector arm": {"table": vector},
            "keyword arm": {"table": keyword},
            "shipped before": {
                "arms": arms(qs),
                "table": table(qs, ranked),
                "floor": floor_effect(qs, ranked, probs, 0.06),
            },
            "in sample": report(mine, in_sample),
            "other data set": report(mine, fit([q for q in every if q.dataset != name], floor_cost, chosen)),
        }
        # the rule shipped before this one, calibrated in sample, on the same questions
        fixed = [q for q in mine if q.share == in_sample["share"]]
        if SHIPPED_FIXED in RULES:
            fitted_fixed = fit([q for q in every if q.share == in_sample["share"]], floor_cost, SHIPPED_FIXED)
            entry["shipped 2026-11-26"] = report(fixed, fitted_fixed)
        # the two halves' reports merged into one table over the whole data set
        mq, mr, mk, mp = [], [], [], []
        for k, fitted in halves.items():
            test = [q for q in mine if q.fold == k and q.share == fitted["share"]]
            ranked, probs = scored(test, RULES[fitted["rule"]], fitted["calibration"])
            mq += test
            mr += ranked
            mp += probs
            mk += [int((p[i[:10]] >= fitted["floor"]).sum()) for p, i in zip(probs, ranked, strict=True)]
        if not mq:
            out[name] = entry
            continue
        base, cut = table(mq, mr), table(mq, mr, mk)
        never = [k for q, k in zip(mq, mk, strict=True) if not q.evidence]
        answerable = [k for q, k in zip(mq, mk, strict=True) if q.evidence]
        entry["other conversations"] = {
            "fitted": list(halves.values()),
            "arms": arms(mq),
            "table": base,
            "floor": {
                "floor": [f["floor"] for f in halves.values()],
                "r10_lost": base["all"]["r10"] - cut["all"]["r10"],
                "false_hit_rate": float(np.mean([k > 0 for k in never])) if never else math.nan,
                "false_empty_rate": float(np.mean([k == 0 for k in answerable])),
            },
        }
        # what other floors would cost and catch, on the same held-out halves
        entry["floors"] = [floor_effect(mq, mr, mp, f) for f in TRADE_OFF]
        out[name] = entry
    out["screen"] = screened
    return out


#: What ships (memories.selectors: _RANKING["hybrid"], CALIBRATION["hybrid"], MNEMO_SEARCH_MIN_SCORE).
SHIPPED_NOW = "cos + 0.05 cov + 3 margin + 1.5 cos·√cov"
#: Its weights (a, m, b) for ``margin_rule``, for screens that vary the cosine it reads.
SHIPPED_WEIGHTS = (0.05, 3.0, 1.5)
#: The rule shipped from 2026-11-26 (the margin rule) to 2026-11-27 (b 0.5 -> 1.5, read on family.json).
SHIPPED_MARGIN = "cos + 0.05 cov + 3 margin + 0.5 cos·√cov"
SHIPPED_CALIBRATION = (3.249, -1.181, -3.235)
#: MNEMO_SEARCH_PRESENT_RECENCY: since 2026-11-27 a query about the present adds this times each
#: candidate's storage rank among the candidates (pre-registered, read on dev.json: bench/NOTES.md).
PRESENT_RECENCY = 0.2


def present_rule(base: Callable[[Question], np.ndarray], weight: float) -> Callable[[Question], np.ndarray]:
    """``base`` + ``weight`` × the candidate's rank by id among the candidates (0 the oldest, 1 the
    newest), for a question about the present (memories.selectors._TIME_RANK ranks by valid_from,
    else by when stored: the benchmarks store every turn in order and date none, so by id)."""

    def z(q: Question) -> np.ndarray:
        value = base(q)
        if not q.present or len(value) < 2:
            return value
        return value + weight * np.argsort(np.argsort(q.ids)) / (len(q.ids) - 1)

    return z


#: What ships end to end: the fusion rule and, for a question about the present, the recency.
SHIPPED_PRESENT = f"{SHIPPED_NOW} + {PRESENT_RECENCY} storage rank if about the present"
RULES[SHIPPED_PRESENT] = present_rule(RULES[SHIPPED_NOW], PRESENT_RECENCY)
SHIPPED_FLOOR = 0.005


def shipped_scored(qs: list[Question]) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """``scored`` with the shipped rule and calibration, each text once as search returns it (a
    copy scores what its text scores)."""
    ranked, probs = scored(qs, RULES[SHIPPED_PRESENT], SHIPPED_CALIBRATION)
    return [distinct(q, idx, RULES[SHIPPED_PRESENT](q)) for q, idx in zip(qs, ranked, strict=True)], probs


def holdout(test: list[Question]) -> dict[str, Any]:
    """The shipped rule, calibration and floor on a data set none of them saw, as they ship: no
    fitting of any kind (the true hold-out of issue 26: bench/retrieval/generate_assistant.py)."""
    test = [q for q in test if q.share == SHARE_NOW]
    ranked, probs = shipped_scored(test)
    kept = [int((p[idx[:10]] >= SHIPPED_FLOOR).sum()) for p, idx in zip(probs, ranked, strict=True)]
    return {
        "fitted": {
            "rule": SHIPPED_PRESENT,
            "share": SHARE_NOW,
            "calibration": SHIPPED_CALIBRATION,
            "floor": SHIPPED_FLOOR,
        },
        "arms": distinct_arms(test),
        "table": table(test, ranked),
        "table_at_floor": table(test, ranked, kept),
        "floor": floor_effect(test, ranked, probs, SHIPPED_FLOOR),
        "reliability": reliability(test, ranked, probs),
    }


def fmt(t: dict[str, Any]) -> str:
    return " | ".join(f"{t[c]['r5']:.3f} / {t[c]['r10']:.3f}" if c in t else "—" for c in (*TYPES, "all"))


ROWS = (
    "vector arm",
    "keyword arm",
    "shipped before",
    "shipped 2026-11-26",
    "in sample",
    "other data set",
    "other conversations",
)


def render(result: dict[str, Any]) -> list[str]:
    """Markdown tables (docs/benchmarks.md through bench/report.py)."""
    lines = [
        "| data set | fitted on | rule | " + " | ".join((*TYPES, "all")) + " | loses to an arm |",
        "|---|---|---|" + "---|" * (len(TYPES) + 2),
    ]
    for name, entry in datasets(result).items():
        for row in ROWS:
            if row not in entry:
                continue
            e = entry[row]
            # each row against the arms on the same questions, found with the same common-word share
            arm_tables = e.get("arms") or (entry["vector arm"]["table"], entry["keyword arm"]["table"])
            fitted = e.get("fitted")
            rule = (
                "—"
                if row in ("vector arm", "keyword arm")
                else f"{SHIPPED_BEFORE}; share {SHARE_BEFORE}"
                if row == "shipped before"
                else " / ".join(sorted({f"{f['rule']}; share {f['share']}" for f in fitted}))
                if isinstance(fitted, list)
                else f"{fitted['rule']}; share {fitted['share']}"
            )
            t = e["table"]
            losses = [
                f"{c} {m}" for a in arm_tables for c in a for m in ("r5", "r10") if c in t and a[c][m] > t[c][m] + 1e-9
            ]
            flag = "—" if row in ("vector arm", "keyword arm") else ", ".join(sorted(set(losses))) or "none"
            lines.append(f"| {name} | {row} | {rule} | {fmt(t)} | {flag} |")
    lines += [
        "",
        "| data set | fitted on | floor | R@10 lost | false hits (never stored) | false empties (answerable) |",
        "|---|---|---|---|---|---|",
    ]
    for name, entry in datasets(result).items():
        for row in ("shipped before", "in sample", "other data set", "other conversations"):
            if row not in entry:
                continue
            f = entry[row]["floor"]
            floor = f["floor"] if not isinstance(f["floor"], list) else " / ".join(f"{x:.3f}" for x in f["floor"])
            floor = f"{floor:.3f}" if isinstance(floor, float) else floor
            lines.append(
                f"| {name} | {row} | {floor} | {f['r10_lost']:.3f} | {f['false_hit_rate']:.3f} | "
                f"{f['false_empty_rate']:.3f} |"
            )
    lines += [
        "",
        "Other floors (a request's `min_score`, or `MNEMO_SEARCH_MIN_SCORE`), out of sample (fitted on the other "
        "conversations): R@10 lost on answerable questions / false hits on questions about things never stored.",
        "",
        "| data set | " + " | ".join(f"{f}" for f in TRADE_OFF) + " |",
        "|---|" + "---|" * len(TRADE_OFF),
    ]
    for name, entry in datasets(result).items():
        cells = [f"{f['r10_lost']:.3f} / {f['false_hit_rate']:.3f}" for f in entry.get("floors", [])]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    if "screen" in result:
        lines += [
            "",
            "Every rule's ranking on the held-out questions of every split (the other data set; the other "
            "half of the conversations, both ways): the largest margin by which an arm beats it in any type "
            "at R@5 or R@10, and its mean R@5 + R@10 and MRR. Shipped: the best that loses nowhere (first row).",
            "",
            "| rule | largest loss to an arm | mean R@5 + R@10 | mean MRR | where it loses |",
            "|---|---|---|---|---|",
        ]
        for r in result["screen"][:12]:
            lines.append(
                f"| {r['rule']} | {r['worst']:.3f} | {r['r5+r10']:.3f} | {r['mrr']:.3f} | "
                f"{'; '.join(r['losses']) or 'nowhere'} |"
            )
    return lines


def datasets(result: dict[str, Any]) -> dict[str, Any]:
    """The per-data-set entries of a result (not its rule screen)."""
    return {k: v for k, v in result.items() if k != "screen"}


def jsonable(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: jsonable(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [jsonable(v) for v in x]
    if isinstance(x, np.floating | np.integer):
        return x.item()
    return x


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("features", nargs="+", help="files written by features.py")
    parser.add_argument("--floor-cost", type=float, default=FLOOR_COST)
    parser.add_argument("--json", help="write the result here (bench/results/...-crossval.json)")
    parser.add_argument("--holdout", action="store_true", help="report the shipped rule on these files, no fitting")
    args = parser.parse_args(argv)
    if args.holdout:
        result = jsonable(holdout([q for path in args.features for q in load(path)]))
        print(json.dumps({k: result[k] for k in ("table", "table_at_floor", "floor")}, indent=1))
        if args.json:
            Path(args.json).write_text(json.dumps({"kind": "retrieval-holdout", "result": result}, indent=1) + "\n")
        return
    every = [q for path in args.features for q in load(path)]
    result = jsonable(crossvalidate(every, args.floor_cost))
    print("\n".join(render(result)))
    for name, entry in datasets(result).items():
        for row in ("in sample", "other data set"):
            print(name, row, entry[row]["fitted"], entry[row]["reliability"])
        print(name, "other conversations", entry["other conversations"]["fitted"])
    if args.json:
        Path(args.json).write_text(json.dumps({"kind": "retrieval-crossval", "result": result}, indent=1) + "\n")


if __name__ == "__main__":
    main()
