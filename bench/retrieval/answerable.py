"""The answerability check (memories/answerable.py) fitted and reported out of sample.

Two steps:

``prepare`` (Django, the benchmark database ``features.py`` filled): for every question of a
features file, the shipped hybrid ranking and calibrated score of its candidates (crossval's numpy
replica: ``SHIPPED_NOW``, ``SHIPPED_CALIBRATION``), its key terms as the product finds them
(``memories.selectors.query_terms`` minus the namespace's ``common_lexemes``, named ones marked),
and which key terms each of its top 10 hits holds (``memories.answerable.hit_words``). Written to
a JSON file, so that the fitting needs no database.

``crossval`` (numpy): the model's features at each top k, a logistic regression of "never
stored" on them fitted on the training questions of each split (the other data set; the other
half of the conversations, both ways: crossval.splits), its threshold the highest silence that
costs at most ``--cost`` of R@10 on the training questions (on top of the default floor), then
reported on the held-out questions: share of never-stored questions silenced, R@10 lost on the
answerable ones (against the same searches with the floor alone, and against no floor), false
empties, per question type.

    .venv/bin/python -m bench.retrieval.answerable prepare --data-dir /tmp/mnemo-ret --features /tmp/f-mnemo.json \
        --dataset mnemo --out /tmp/a-mnemo.json
    .venv/bin/python -m bench.retrieval.answerable crossval /tmp/a-mnemo.json /tmp/a-chat.json --json out.json
    .venv/bin/python -m bench.retrieval.answerable holdout /tmp/a-assistant.json --json out.json  # frozen MODEL
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import numpy as np

from bench.retrieval import crossval


def prepare(data_dir: str, features_path: str, dataset: str) -> dict[str, Any]:
    from bench.retrieval import harness

    harness.setup_django(Path(data_dir))
    from memories import answerable, selectors

    data = harness.dataset(dataset)
    namespaces = harness.load(data)
    raw = json.loads(Path(features_path).read_text())
    texts = {int(k): v for k, v in raw["texts"].items()}
    rule = crossval.RULES[crossval.SHIPPED_NOW]
    cal = crossval.SHIPPED_CALIBRATION
    out = []
    for rq, q in zip(raw["questions"], crossval.load(features_path), strict=True):
        ranked, probs = crossval.scored([q], rule, cal)
        idx = ranked[0][:10]
        ns = namespaces[rq["conversation"]]
        query = rq["question"]
        keys = answerable.key_terms(
            query,
            selectors.query_terms(query),
            selectors._lexemes(query.split()),
            selectors.common_lexemes([ns]),
        )
        hits = []
        for i in idx:
            words = answerable.hit_words([texts[int(q.ids[i])]])
            hits.append([t for t in keys.terms if answerable.found(t, words)])
        out.append(
            {
                "id": rq["id"],
                "conversation": rq["conversation"],
                "type": rq["type"],
                "never": rq.get("never"),
                "question": query,
                "evidence": [int(x) for x in rq["evidence"]],
                "top": [int(q.ids[i]) for i in idx],
                "scores": [float(probs[0][i]) for i in idx],
                "cos": [float(q.cos[i]) for i in idx],
                "cov": [float(q.cov[i]) for i in idx],
                "z": [float(x) for x in rule(q)[idx]],
                "key": list(keys.terms),
                "named": sorted(keys.named),
                "found": hits,
            }
        )
    return {"dataset": dataset, "questions": out}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("--data-dir", required=True)
    p.add_argument("--features", required=True)
    p.add_argument("--dataset", required=True)
    p.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    if args.cmd == "prepare":
        Path(args.out).write_text(json.dumps(prepare(args.data_dir, args.features, args.dataset)))


if __name__ == "__main__":
    main()
