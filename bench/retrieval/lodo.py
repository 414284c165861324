"""Leave one data set out (issue 26): would a fusion rule chosen on four data sets hold on the fifth?

Reads the candidates that ``features.py`` dumped for each data set (one file per set, the shipped
common-word share), ranks every question with every rule of ``crossval.RULES`` plus three
rank/normalisation families tried alongside (reciprocal-rank fusion, min-max and z-score
normalised sums), and reports, per data set, each rule's R@5 / R@10 and its largest loss to an arm
(any type, R@5 or R@10: ``crossval.deficit``). Then, for each data set held out in turn, the rule
the screen's criterion picks on the four others (smallest worst loss, rounded to half a point,
then best mean R@5 + R@10) and how that rule does on the held-out set, beside the shipped rule
(``crossval.SHIPPED_NOW``).
Nothing is fitted on a held-out set; the ranking needs no calibration.

    .venv/bin/python -m bench.retrieval.lodo /tmp/f-mnemo.json /tmp/f-chat.json /tmp/f-assistant.json \
        /tmp/f-notes.json /tmp/f-team.json --json bench/results/lodo/<stamp>.json
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from bench.retrieval import crossval as cv


def _rrf(w: float, k: float) -> Callable[[cv.Question], np.ndarray]:
    def z(q: cv.Question) -> np.ndarray:
        v = np.where(q.vr > 0, 1 / (k + q.vr), 0.0)
        kw = np.where(q.kr > 0, 1 / (k + q.kr), 0.0)
        return v + w * kw + 1e-6 * q.cos  # the cosine only breaks ties

    return z


def _normalised(w: float, how: str) -> Callable[[cv.Question], np.ndarray]:
    def scale(x: np.ndarray) -> np.ndarray:
        if how == "minmax":
            return (x - x.min()) / (x.max() - x.min() + 1e-9)
        return (x - x.mean()) / (x.std() + 1e-6)

    def z(q: cv.Question) -> np.ndarray:
        return scale(q.cos) + w * scale(q.cov)

    return z


def fit_confidence(train: list[cv.Question], l2: float = 1e-2) -> tuple[float, float, float, float]:
    """The confidence rule's weights (a, m, b, c of ``crossval.confidence_rule``) fitted on
    ``train``: a logistic regression of "this candidate is evidence" on
    ``crossval.confidence_features`` (each question's candidates weighted 1 / their number, so
    every question counts the same; a small ridge), scaled so that cos weighs 1 (only the order
    matters; the calibration is fitted afterwards, as for every rule)."""
    xs, ys, ws = [], [], []
    for q in train:
        if not q.evidence or not len(q.ids):
            continue
        f = cv.confidence_features(q)
        xs.append(np.hstack([f, np.ones((len(f), 1))]))
        ys.append(q.rel)
        ws.append(np.full(len(f), 1 / len(f)))
    x, y, w = np.concatenate(xs), np.concatenate(ys), np.concatenate(ws)
    beta = np.zeros(x.shape[1])
    ridge = l2 * np.eye(len(beta))
    ridge[-1, -1] = 0.0  # no penalty on the intercept
    for _ in range(100):
        p = 1 / (1 + np.exp(-(x @ beta)))
        step = np.linalg.solve((x * (w * p * (1 - p))[:, None]).T @ x + ridge, x.T @ (w * (p - y)) + ridge @ beta)
        beta -= step
        if np.abs(step).max() < 1e-10:
            break
    a, m, b, c = (beta[1:5] / beta[0]).round(3)
    return float(a), float(m), float(b), float(c)


def candidates() -> dict[str, Callable[[cv.Question], np.ndarray]]:
    """crossval's grid (the shipped rule among them) and the families tried beside it."""
    # (not the confidence rule: its weights were fitted on all five sets; lodo fits it per fold)
    out = {name: rule for name, rule in cv.RULES.items() if name != cv.CONFIDENCE_RULE}
    for w in (0.5, 0.75, 1.0):
        for k in (10.0, 60.0):
            out[f"rrf {w}·keyword, k={k:g}"] = _rrf(w, k)
    for how in ("minmax", "zscore"):
        for w in (0.3, 0.5, 0.75, 1.0):
            out[f"{how} cos + {w} {how} cov"] = _normalised(w, how)
    return out


def evaluate(sets: dict[str, list[cv.Question]]) -> dict[str, Any]:
    arm_tables = {n: cv.arms(qs) for n, qs in sets.items()}
    per: dict[str, dict[str, dict[str, float]]] = {}
    for name, rule in candidates().items():
        per[name] = {}
        for n, qs in sets.items():
            t = cv.table(qs, [cv.order(q, rule(q)) for q in qs])
            per[name][n] = {"worst_loss": cv.deficit(t, arm_tables[n]), "r5": t["all"]["r5"], "r10": t["all"]["r10"]}
    names = list(sets)

    def key(rule: str, among: list[str]) -> tuple[float, float]:
        worst = max(per[rule][n]["worst_loss"] for n in among)
        return (
            round(worst / cv.DEFICIT_STEP) * cv.DEFICIT_STEP,
            -float(np.mean([per[rule][n]["r5"] + per[rule][n]["r10"] for n in among])),
        )

    held_out = {}
    for held in names:
        train = [n for n in names if n != held]
        chosen = min(per, key=lambda r: key(r, train))
        held_out[held] = {"chosen": chosen, "train_worst_loss": key(chosen, train)[0], **per[chosen][held]}
    on_all = min(per, key=lambda r: key(r, names))
    # the confidence rule: its weights fitted on the four others, read on the held-out set
    learned = {}
    for held in names:
        weights = fit_confidence([q for n in names if n != held for q in sets[n]])
        qs = sets[held]
        rule = cv.confidence_rule(*weights)
        t = cv.table(qs, [cv.order(q, rule(q)) for q in qs])
        # the calibration fitted without the held-out set too; the floor as it ships
        train = [q for n in names if n != held for q in sets[n]]
        ranked, probs = cv.scored(qs, rule, cv.fit_calibration(train, rule))
        learned[held] = {
            "floor": cv.floor_effect(qs, ranked, probs, cv.SHIPPED_FLOOR),
            "weights": weights,
            "r5": t["all"]["r5"],
            "r10": t["all"]["r10"],
            "worst_loss": cv.deficit(t, arm_tables[held]),
            "table": t,
        }
    return {
        "rules": per,
        "held_out": held_out,
        "chosen_on_all": on_all,
        "confidence_held_out": learned,
        "confidence_on_all": fit_confidence([q for n in names for q in sets[n]]),
        "shipped": cv.SHIPPED_NOW,
        "datasets": names,
    }


def render(result: dict[str, Any]) -> list[str]:
    per, names, shipped = result["rules"], result["datasets"], result["shipped"]
    lines = [
        "| held out | rule chosen on the other four | its worst loss there "
        "| held out: R@5 / R@10 / worst loss to an arm | shipped rule, on it |",
        "|---|---|---|---|---|",
    ]
    for n in names:
        h, s = result["held_out"][n], per[shipped][n]
        lines.append(
            f"| {n} | `{h['chosen']}` | {h['train_worst_loss']:.3f} "
            f"| {h['r5']:.3f} / {h['r10']:.3f} / {h['worst_loss']:+.3f} "
            f"| {s['r5']:.3f} / {s['r10']:.3f} / {s['worst_loss']:+.3f} |"
        )
    best = result["chosen_on_all"]
    lines += [
        "",
        f"Chosen on all {len(names)} (in sample): `{best}`; per set R@5 / R@10 / worst loss, beside the shipped rule:",
        "",
    ]
    lines += ["| data set | " + f"`{best}`" + " | shipped rule |", "|---|---|---|"]
    for n in names:
        b, s = per[best][n], per[shipped][n]
        lines.append(
            f"| {n} | {b['r5']:.3f} / {b['r10']:.3f} / {b['worst_loss']:+.3f} "
            f"| {s['r5']:.3f} / {s['r10']:.3f} / {s['worst_loss']:+.3f} |"
        )
    lines += [
        "",
        "The confidence rule (`crossval.confidence_rule`), its weights fitted on the four other sets:",
        "",
        "| held out | weights a / m / b / c fitted without it | R@5 / R@10 / worst loss to an arm "
        "| floor's R@10 cost / never-stored silenced | shipped rule |",
        "|---|---|---|---|---|",
    ]
    for n in names:
        h, s = result["confidence_held_out"][n], per[shipped][n]
        weights = " / ".join(f"{w:g}" for w in h["weights"])
        lines.append(
            f"| {n} | {weights} | {h['r5']:.3f} / {h['r10']:.3f} / {h['worst_loss']:+.3f} "
            f"| {h['floor']['r10_lost']:.3f} / {1 - h['floor']['false_hit_rate']:.2f} "
            f"| {s['r5']:.3f} / {s['r10']:.3f} / {s['worst_loss']:+.3f} |"
        )
    mean = np.mean([result["confidence_held_out"][n]["r10"] for n in names])
    lines += [
        "",
        f"Held-out R@10, mean over the five: {mean:.3f} "
        f"(shipped rule {np.mean([per[shipped][n]['r10'] for n in names]):.3f}).",
        f"Fitted on all five: {' / '.join(f'{w:g}' for w in result['confidence_on_all'])}.",
    ]
    return lines


RESULTS = Path(__file__).resolve().parent.parent / "results" / "lodo"


def newest_section() -> list[str]:
    """docs/benchmarks.md's "Leave one data set out" section: the newest bench/results/lodo/ file."""
    files = sorted(RESULTS.glob("*.json"))
    if not files:
        return []
    result = json.loads(files[-1].read_text())
    return [
        "### Retrieval: leave one data set out (issue 26)",
        "",
        f"`bench/retrieval/lodo.py` on the candidates `features.py` dumped from the five data sets "
        f"(`{files[-1].name}`): each set held out in turn, a rule chosen or fitted on the four others "
        "and read on it (R@5 / R@10 over the answerable questions; worst loss: the largest margin by "
        "which the vector or the keyword arm alone beats it in any question type at R@5 or R@10). "
        "First the fixed-weight grid (crossval.py's, with reciprocal-rank and normalised sums), "
        "picked by the screen's criterion; then the confidence rule (a candidate, not shipped), its "
        "weights fitted on the four others, with the default floor (0.01) on a calibration fitted without "
        "the held-out set.",
        "",
        *render(result),
    ]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("features", nargs="+", help="features.py dumps, one per data set")
    parser.add_argument("--json", help="write the result here")
    args = parser.parse_args(argv)
    sets: dict[str, list[cv.Question]] = {}
    for path in args.features:
        qs = cv.load(path)
        sets[qs[0].dataset] = qs
    result = evaluate(sets) | {"date": datetime.now(UTC).isoformat(timespec="seconds")}
    print("\n".join(render(result)))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
