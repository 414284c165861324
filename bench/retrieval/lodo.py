"""Leave one data set out (issue 26): would a fusion rule chosen on the other data sets hold on the one left out?

Reads the candidates that ``features.py`` dumped for each data set (one file per set, the shipped
common-word share), ranks every question with every rule of ``crossval.RULES`` plus three
rank/normalisation families tried alongside (reciprocal-rank fusion, min-max and z-score
normalised sums), and reports, per data set, each rule's R@5 / R@10 and its largest loss to an arm
(any type, R@5 or R@10: ``crossval.deficit``). Then, for each data set held out in turn, the rule
the screen's criterion picks on the others (smallest worst loss, rounded to half a point,
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


def fit_confidence(
    train: list[cv.Question],
    l2: float = 1e-2,
    features: Callable[[cv.Question], np.ndarray] = cv.confidence_features,
) -> tuple[float, ...]:
    """A learned rule's weights (a, m, b, c of ``crossval.confidence_rule`` by default) fitted on
    ``train``: a logistic regression of "this candidate is evidence" on ``features`` (each
    question's candidates weighted 1 / their number, so every question counts the same; a small
    ridge), scaled so that cos weighs 1 (only the order matters; the calibration is fitted
    afterwards, as for every rule)."""
    xs, ys, ws = [], [], []
    for q in train:
        if not q.evidence or not len(q.ids):
            continue
        f = features(q)
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
    if beta[0] <= 0:  # scaling by it would reverse the order the fit found
        raise ValueError(f"the fitted cosine weight is {beta[0]:.3g}: the rule cannot be scaled to cos = 1")
    return tuple(float(w) for w in (beta[1:-1] / beta[0]).round(3))


#: The learned rules: their features and the rule their weights make (fitted per fold).
LEARNED: dict[str, tuple[Callable[[cv.Question], np.ndarray], Callable[..., Callable[[cv.Question], np.ndarray]]]] = {
    "confidence": (cv.confidence_features, cv.confidence_rule),
    "supported confidence": (cv.supported_confidence_features, cv.supported_confidence_rule),
}


def fixture_check(fixture: list[cv.Question], rule: Callable[[cv.Question], np.ndarray]) -> dict[str, Any]:
    """tests/memories/test_search_quality.py's criteria, offline, on the fixture's candidates
    (``features.py --dataset quality``): the expected memory's rank in the top 20 (99 if not
    there) under ``rule`` and under the vector arm alone; ``passes`` when every assertion of the
    test would hold (hybrid top 3 ≥ 90 %; paraphrases' top 3 ≥ the vector arm's; keyword and name
    queries first more often than the vector arm, top 3 as often, none ranked lower)."""

    def rank(q: cv.Question, score: np.ndarray) -> int:
        found = list(q.ids[cv.order(q, score)[:20]])
        (expected,) = q.evidence
        return found.index(expected) + 1 if expected in found else 99

    hybrid = [rank(q, rule(q)) for q in fixture]
    vector = [rank(q, q.cos) for q in fixture]
    para = [i for i, q in enumerate(fixture) if q.type == "paraphrase"]
    named = [i for i, q in enumerate(fixture) if q.type != "paraphrase"]

    def share(ranks: list[int], among: list[int], within: int) -> float:
        return float(np.mean([ranks[i] <= within for i in among]))

    every = list(range(len(fixture)))
    out = {
        "top3": share(hybrid, every, 3),
        "paraphrase_top3": [share(hybrid, para, 3), share(vector, para, 3)],
        "named_first": [share(hybrid, named, 1), share(vector, named, 1)],
        "named_top3": [share(hybrid, named, 3), share(vector, named, 3)],
        "named_below_vector": [i for i in named if hybrid[i] > vector[i]],
    }
    out["passes"] = bool(
        out["top3"] >= 0.9
        and out["paraphrase_top3"][0] >= out["paraphrase_top3"][1]
        and out["named_first"][0] > out["named_first"][1]
        and out["named_top3"][0] >= out["named_top3"][1]
        and not out["named_below_vector"]
    )
    return out


def candidates() -> dict[str, Callable[[cv.Question], np.ndarray]]:
    """crossval's grid (the shipped rule among them) and the families tried beside it."""
    # (not the learned rules: their weights were fitted on every set; lodo fits them per fold)
    out = {name: rule for name, rule in cv.RULES.items() if name not in cv.FITTED_ON_ALL}
    for w in (0.5, 0.75, 1.0):
        for k in (10.0, 60.0):
            out[f"rrf {w}·keyword, k={k:g}"] = _rrf(w, k)
    for how in ("minmax", "zscore"):
        for w in (0.3, 0.5, 0.75, 1.0):
            out[f"{how} cos + {w} {how} cov"] = _normalised(w, how)
    return out


Rows = dict[str, dict[str, dict[str, float]]]


def rule_rows(rules: dict[str, Callable[[cv.Question], np.ndarray]], sets: dict[str, list[cv.Question]]) -> Rows:
    """Per rule and data set: R@5, R@10 and the largest loss to an arm (``crossval.deficit``)."""
    arm_tables = {n: cv.arms(qs) for n, qs in sets.items()}
    per: Rows = {}
    for name, rule in rules.items():
        per[name] = {}
        for n, qs in sets.items():
            t = cv.table(qs, [cv.order(q, rule(q)) for q in qs])
            per[name][n] = {"worst_loss": cv.deficit(t, arm_tables[n]), "r5": t["all"]["r5"], "r10": t["all"]["r10"]}
    return per


def criterion(per: Rows, rule: str, among: list[str]) -> tuple[float, float]:
    """The screen's criterion (lower is better): the rule's largest loss to an arm over ``among``,
    rounded to half a point, then its mean R@5 + R@10 there, negated."""
    worst = max(per[rule][n]["worst_loss"] for n in among)
    return (
        round(worst / cv.DEFICIT_STEP) * cv.DEFICIT_STEP,
        -float(np.mean([per[rule][n]["r5"] + per[rule][n]["r10"] for n in among])),
    )


def choose(per: Rows, among: list[str]) -> str:
    """The rule the criterion picks on the data sets ``among``."""
    return min(per, key=lambda r: criterion(per, r, among))


def print_screen(per: Rows, names: list[str], width: int) -> None:
    """A screen's report (length_norm.py, cluster.py): the ten best rules in sample by the
    criterion, then each set held out in turn with the rule the criterion picks on the others,
    read on it beside the shipped rule, the procedure's held-out means, and the pick on all."""

    def row(r: str, n: str) -> tuple[float, float, float]:
        return per[r][n]["worst_loss"], per[r][n]["r5"], per[r][n]["r10"]

    print("in sample, best 10 by the criterion (mean R@5, R@10, largest loss to an arm; per set R@5/R@10):")
    for r in sorted(per, key=lambda r: criterion(per, r, names))[:10]:
        cells = " ".join(f"{n} {row(r, n)[1]:.3f}/{row(r, n)[2]:.3f}" for n in names)
        r5, r10 = np.mean([row(r, n)[1] for n in names]), np.mean([row(r, n)[2] for n in names])
        print(f"  {r:{width}s} {r5:.3f} {r10:.3f} {max(row(r, n)[0] for n in names):.3f}  {cells}")
    held_out = []
    for held in names:
        chosen = choose(per, [n for n in names if n != held])
        got, ship = row(chosen, held), row(cv.SHIPPED_NOW, held)
        held_out.append(got)
        print(
            f"held out {held:9s} chose {chosen:{width}s} {got[1]:.3f}/{got[2]:.3f} (loss {got[0]:.3f}); "
            f"shipped {ship[1]:.3f}/{ship[2]:.3f} (loss {ship[0]:.3f})"
        )
    print(
        f"the procedure held out: mean R@5 {np.mean([h[1] for h in held_out]):.3f}, "
        f"R@10 {np.mean([h[2] for h in held_out]):.3f}, largest loss {max(h[0] for h in held_out):.3f}"
    )
    print("pick on all seven:", choose(per, names))


def evaluate(sets: dict[str, list[cv.Question]], fixture: list[cv.Question] | None = None) -> dict[str, Any]:
    arm_tables = {n: cv.arms(qs) for n, qs in sets.items()}
    per = rule_rows(candidates(), sets)
    names = list(sets)

    held_out = {}
    for held in names:
        train = [n for n in names if n != held]
        chosen = choose(per, train)
        held_out[held] = {"chosen": chosen, "train_worst_loss": criterion(per, chosen, train)[0], **per[chosen][held]}
    on_all = choose(per, names)
    # the learned rules: their weights fitted on the others, read on the held-out set
    learned: dict[str, Any] = {}
    every = [q for n in names for q in sets[n]]
    for family, (features, make) in LEARNED.items():
        folds = {}
        for held in names:
            train = [q for n in names if n != held for q in sets[n]]
            weights = fit_confidence(train, features=features)
            qs = sets[held]
            rule = make(*weights)
            t = cv.table(qs, [cv.order(q, rule(q)) for q in qs])
            # the calibration fitted without the held-out set too; the floor as it ships
            ranked, probs = cv.scored(qs, rule, cv.fit_calibration(train, rule))
            folds[held] = {
                "floor": cv.floor_effect(qs, ranked, probs, cv.SHIPPED_FLOOR),
                "weights": weights,
                "r5": t["all"]["r5"],
                "r10": t["all"]["r10"],
                "worst_loss": cv.deficit(t, arm_tables[held]),
                "table": t,
            }
        weights_all = fit_confidence(every, features=features)
        learned[family] = {
            "held_out": folds,
            "on_all": weights_all,
            "fixture": fixture_check(fixture, make(*weights_all)) if fixture else None,
        }
    return {
        "rules": per,
        "held_out": held_out,
        "chosen_on_all": on_all,
        "learned": learned,
        "shipped_fixture": fixture_check(fixture, cv.RULES[cv.SHIPPED_NOW]) if fixture else None,
        "shipped": cv.SHIPPED_NOW,
        "datasets": names,
    }


def render(result: dict[str, Any]) -> list[str]:
    per, names, shipped = result["rules"], result["datasets"], result["shipped"]
    lines = [
        "| held out | rule chosen on the others | its worst loss there "
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
    for family, learned in result["learned"].items():
        lines += [
            "",
            f"The {family} rule (`crossval.{family.replace(' ', '_')}_rule`), its weights fitted on the other sets:",
            "",
            "| held out | weights a / m / b / c fitted without it | R@5 / R@10 / worst loss to an arm "
            "| floor's R@10 cost / never-stored silenced | shipped rule |",
            "|---|---|---|---|---|",
        ]
        for n in names:
            h, s = learned["held_out"][n], per[shipped][n]
            weights = " / ".join(f"{w:g}" for w in h["weights"])
            lines.append(
                f"| {n} | {weights} | {h['r5']:.3f} / {h['r10']:.3f} / {h['worst_loss']:+.3f} "
                f"| {h['floor']['r10_lost']:.3f} / {1 - h['floor']['false_hit_rate']:.2f} "
                f"| {s['r5']:.3f} / {s['r10']:.3f} / {s['worst_loss']:+.3f} |"
            )
        folds = learned["held_out"].values()
        lines += [
            "",
            f"Held-out mean over the {len(names)}: R@5 {np.mean([h['r5'] for h in folds]):.3f}, "
            f"R@10 {np.mean([h['r10'] for h in folds]):.3f}, largest worst loss "
            f"{max(h['worst_loss'] for h in folds):+.3f} (shipped rule: "
            f"{np.mean([per[shipped][n]['r5'] for n in names]):.3f}, "
            f"{np.mean([per[shipped][n]['r10'] for n in names]):.3f}, "
            f"{max(per[shipped][n]['worst_loss'] for n in names):+.3f}). "
            f"Fitted on all {len(names)}: {' / '.join(f'{w:g}' for w in learned['on_all'])}."
            + (f" With these weights: {_fixture_line(learned['fixture'])}" if learned.get("fixture") else ""),
        ]
    if result.get("shipped_fixture"):
        lines += ["", f"The shipped rule: {_fixture_line(result['shipped_fixture'])}"]
    return lines


def _fixture_line(f: dict[str, Any]) -> str:
    return (
        "On tests/memories/search_quality.json (offline, on the candidates `features.py --dataset quality` dumped): "
        f"top 3 {f['top3']:.1%}, paraphrases' top 3 {f['paraphrase_top3'][0]:.1%} against the vector arm's "
        f"{f['paraphrase_top3'][1]:.1%}, codes and names first {f['named_first'][0]:.1%} against "
        f"{f['named_first'][1]:.1%}: {'passes' if f['passes'] else 'fails'} the test's criteria."
    )


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
        f"`bench/retrieval/lodo.py` on the candidates `features.py` dumped from the {len(result['datasets'])} "
        f"data sets (`{files[-1].name}`): each set held out in turn, a rule chosen or fitted on the others "
        "and read on it (R@5 / R@10 over the answerable questions; worst loss: the largest margin by "
        "which the vector or the keyword arm alone beats it in any question type at R@5 or R@10). "
        "First the fixed-weight grid (crossval.py's, with reciprocal-rank and normalised sums), "
        "picked by the screen's criterion; then the learned rules (candidates, not shipped), their "
        f"weights fitted on the others, with the default floor ({cv.SHIPPED_FLOOR}) on a calibration fitted "
        "without the held-out set.",
        "",
        *render(result),
    ]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("features", nargs="+", help="features.py dumps, one per data set")
    parser.add_argument("--json", help="write the result here")
    parser.add_argument("--fixture", help="features.py --dataset quality: the search-quality test's fixture")
    args = parser.parse_args(argv)
    sets: dict[str, list[cv.Question]] = {}
    for path in args.features:
        qs = cv.load(path)
        sets[qs[0].dataset] = qs
    fixture = cv.load(args.fixture) if args.fixture else None
    result = evaluate(sets, fixture) | {"date": datetime.now(UTC).isoformat(timespec="seconds")}
    print("\n".join(render(result)))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
