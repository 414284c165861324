"""Recency for questions about the present (issue 26), screened on the seven read sets and judged
on dev.json as bench/NOTES.md pre-registered it (2026-11-27).

A query asking about the present (``Question.present``, memories.recency: "current", "now", "at
present", "these days"...) gets z' = z + γ · r over the statement's candidates, z the fusion rule's
ranking value and r a candidate's rank in storage order (memory id) among them, 0 for the oldest and
1 for the newest; any other query is ranked by the fusion rule alone. "shipped" in the output is
the fusion rule alone, what shipped when the candidate was judged; with γ 0.2 the candidate has
shipped since (crossval.SHIPPED_PRESENT).

    .venv/bin/python -m bench.retrieval.present screen /tmp/feat > bench/results/lodo-present/<stamp>.txt
    .venv/bin/python -m bench.retrieval.present judge /tmp/feat/f-dev.json > bench/results/lodo-present/<stamp>-dev.txt

(``screen`` reads features.py dumps f-<set>.json of the seven read sets; ``judge`` one dump.)
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

from bench.retrieval import cluster, lodo
from bench.retrieval import crossval as cv

Rule = Callable[[cv.Question], np.ndarray]
GAMMA = cv.PRESENT_RECENCY


def present(gamma: float) -> Rule:
    """The shipped fusion rule + γ · storage rank among the candidates, for a question about the
    present (``Question.present``: memories.recency, the pre-registered list)."""
    return cv.present_rule(cluster.SHIPPED, gamma)


def knowledge_update(qs: list[cv.Question], rule: Rule) -> str:
    t = cv.table(qs, [cv.order(q, rule(q)) for q in qs])
    ku = t.get("knowledge-update")
    return "none" if ku is None else f"{ku['r5']:.3f} / {ku['r10']:.3f} (n={ku['n']})"


def screen(directory: str) -> None:
    sets = {n: cv.load(str(Path(directory) / f"f-{n}.json")) for n in cluster.SETS}
    rules: dict[str, Rule] = {cv.SHIPPED_NOW: cluster.SHIPPED}
    for gamma in (0.02, 0.05, 0.1, 0.2, 0.4):
        rules[f"present, γ {gamma}"] = present(gamma)
    print("cued questions (answerable; of them knowledge-update):")
    for n, qs in sets.items():
        answerable = [q for q in qs if q.evidence]
        ku = [q for q in answerable if q.type == "knowledge-update"]
        print(
            f"  {n:9s} {sum(q.present for q in answerable)} of {len(answerable)}; "
            f"{sum(q.present for q in ku)} of {len(ku)}"
        )
    lodo.print_screen(lodo.rule_rows(rules, sets), cluster.SETS, width=40)
    print("knowledge-update R@5 / R@10, shipped → γ 0.2:")
    for n, qs in sets.items():
        print(f"  {n:9s} {knowledge_update(qs, cluster.SHIPPED)} → {knowledge_update(qs, present(GAMMA))}")


def judge(path: str) -> None:
    """The pre-registered decision on one dump (dev.json's)."""
    qs = cv.load(path)
    answerable = [q for q in qs if q.evidence]
    arms = cv.arms(qs)
    rules = {"shipped": cluster.SHIPPED, f"present, γ {GAMMA}": present(GAMMA)}
    rows = {}
    for name, rule in rules.items():
        t = cv.table(qs, [cv.order(q, rule(q)) for q in qs])
        worst = cv.deficit(t, arms)
        rows[name] = (round(worst / cv.DEFICIT_STEP) * cv.DEFICIT_STEP, t["all"]["r5"] + t["all"]["r10"])
        print(
            f"{name:16s} R@5 {t['all']['r5']:.3f} R@10 {t['all']['r10']:.3f} MRR {t['all']['mrr']:.3f}; "
            f"largest loss to an arm {worst:.3f} (rounded {rows[name][0]:.3f}); knowledge-update "
            f"{knowledge_update(qs, rule)}"
        )
        for kind, cell in sorted(t.items()):
            if kind != "all":
                print(f"    {kind:17s} {cell['r5']:.3f} / {cell['r10']:.3f} / {cell['mrr']:.3f} (n={cell['n']})")
    count = sum(q.present for q in answerable)
    print(f"cued answerable questions: {count} of {len(answerable)}")
    (loss_c, sum_c), (loss_s, sum_s) = rows[f"present, γ {GAMMA}"], rows["shipped"]
    if count < 20:
        print("verdict: fewer than 20 cued questions, the read says nothing; nothing ships")
    elif loss_c <= loss_s and sum_c >= sum_s:
        print("verdict: ships (largest loss no larger, R@5 + R@10 no lower)")
    else:
        print("verdict: does not ship")


if __name__ == "__main__":
    {"screen": screen, "judge": judge}[sys.argv[1]](sys.argv[2])
