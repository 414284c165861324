"""The bench replica of "each text once" (crossval.distinct, from_dump's text keys) against the
product's rule (memories.selectors._DISTINCT: best score, then the newest copy), and the
pre-registered judgement's checks (bench/retrieval/diversity.py) on made-up candidates."""

import json

import numpy as np

from bench.retrieval import crossval as cv
from bench.retrieval import diversity


def dump(rows: list[tuple[int, float, float, str]], evidence: list[int]) -> dict:
    """A features.py dump of one question: rows (id, cos, cov, text); arms' ranks from cos, cov."""
    vr = np.argsort(np.argsort([-r[1] for r in rows])) + 1
    kr = np.argsort(np.argsort([-r[2] for r in rows])) + 1
    return {
        "dataset": "made-up",
        "common_share": cv.SHARE_NOW,
        "questions": [
            {
                "conversation": "c0",
                "type": "single-hop",
                "question": "What is the tortoise called?",
                "evidence": evidence,
                "rows": [[r[0], r[1], r[2], int(v), int(k)] for r, v, k in zip(rows, vr, kr, strict=True)],
            }
        ],
        "texts": {str(r[0]): r[3] for r in rows},
    }


ROWS = [
    (1, 0.60, 0.5, "Humphrey is the tortoise."),
    (2, 0.50, 0.4, "The shelter is wooden."),
    (3, 0.60, 0.5, "Humphrey is the tortoise."),  # a later copy of 1: ties it exactly
    (4, 0.45, 0.3, "The cats ignore it."),
    (5, 0.60, 0.5, "Humphrey is the tortoise."),
]


def test_each_text_once_at_its_place_the_newest_copy():
    (q,) = cv.from_dump(dump(ROWS, evidence=[4]))
    z = cv.RULES[cv.SHIPPED_PRESENT](q)
    ranked = cv.order(q, z)
    assert q.ids[ranked].tolist() == [1, 3, 5, 2, 4]  # the copies tie, by id
    assert q.ids[cv.distinct(q, ranked, z)].tolist() == [5, 2, 4]
    # the evidence 4 moves from 5th to 3rd; the shipped replica reads the same
    ranked_all, _ = cv.shipped_scored([q])
    assert q.ids[ranked_all[0]].tolist() == [5, 2, 4]


def test_a_better_scored_copy_wins_over_a_newer_one():
    (q,) = cv.from_dump(dump(ROWS, evidence=[4]))
    value = np.array([0.9, 0.5, 0.6, 0.3, 0.6])  # the oldest copy scores best
    assert q.ids[cv.distinct(q, np.arange(5), value)].tolist() == [1, 2, 4]


def test_without_texts_nothing_is_collapsed(tmp_path):
    raw = dump(ROWS, evidence=[4])
    del raw["texts"]
    path = tmp_path / "f.json"
    path.write_text(json.dumps(raw))
    (q,) = cv.load(str(path))
    assert q.keys is None
    assert cv.distinct(q, np.arange(5), np.zeros(5)).tolist() == [0, 1, 2, 3, 4]


def test_the_arms_as_shipped_collapse_too():
    (q,) = cv.from_dump(dump(ROWS, evidence=[4]))
    vector, keyword = cv.distinct_arms([q])
    raw_vector, _ = cv.arms([q])
    # evidence 4 is last of five in the vector arm's own order, third of three once collapsed
    assert raw_vector["all"]["r5"] == 1.0 and raw_vector["all"]["mrr"] == 0.2
    assert vector["all"]["mrr"] == 1 / 3 and keyword["all"]["mrr"] == 1 / 3


def test_the_judgement_fails_a_rule_that_loses(tmp_path, monkeypatch):
    """judge's checks can fail: with a shipped order that the collapse makes worse (made up: the
    evidence is the oldest copy, and a better-scored newer copy replaces it), it does not ship."""
    rows = [
        (1, 0.60, 0.5, "Humphrey is the tortoise."),
        (2, 0.50, 0.4, "The shelter is wooden."),
        (3, 0.61, 0.5, "Humphrey is the tortoise."),
    ]
    raw = dump(rows, evidence=[1])
    (tmp_path / "f-made-up.json").write_text(json.dumps(raw))
    np.savez(tmp_path / "v-made-up.npz", ids=np.array([1, 2, 3]), v=np.eye(3, 384, dtype=np.float32))
    result = diversity.judge(str(tmp_path), "made-up")
    assert result["shipped"]["all"]["r10"] == 1.0 and result["distinct"]["all"]["r10"] == 0.0
    assert not result["ships"]
