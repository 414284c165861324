"""bench/retrieval/lodo.py's pieces on small made-up candidates: the learned rules' features, the
logistic fit's direction, and the offline check of tests/memories/test_search_quality.py's
criteria (which must fail a rule that drops a paraphrase the vector arm keeps)."""

import numpy as np
import pytest

from bench.retrieval import crossval as cv
from bench.retrieval import lodo


def question(kind: str, rows: list[list[float]], evidence: int, conversation: str = "c0") -> cv.Question:
    """rows: [id, cos, cov]; the arms' ranks follow from cos and cov."""
    vr = np.argsort(np.argsort([-r[1] for r in rows])) + 1
    kr = np.argsort(np.argsort([-r[2] for r in rows])) + 1
    raw = {
        "conversation": conversation,
        "type": kind,
        "evidence": [evidence],
        "rows": [[r[0], r[1], r[2], int(v), int(k)] for r, v, k in zip(rows, vr, kr, strict=True)],
    }
    return cv.Question(raw, "made-up")


def test_the_supported_feature_weighs_keywords_by_doubt_and_by_meaning():
    q = question("single-hop", [[1, 0.4, 0.0], [2, 0.1, 0.5], [3, 0.25, 0.5]], evidence=3)
    last = cv.supported_confidence_features(q)[:, -1]
    assert last == pytest.approx([0.0, 0.5 * 0.6 * np.sqrt(0.1), 0.5 * 0.6 * 0.5])
    assert np.array_equal(cv.confidence_features(q)[:, :4], cv.supported_confidence_features(q)[:, :4])


def test_the_fit_learns_which_way_evidence_lies():
    """Half the questions answered by meaning (the evidence has the best cosine, no words), half by
    words (the evidence holds the query's words at a middling cosine, below distractors without
    them): the fitted weights must put the evidence first in both."""
    rng = np.random.default_rng(3)
    train = []
    for i in range(60, 120):
        rows = [[10 * i + j, float(rng.uniform(0.2, 0.4)), float(rng.uniform(0.0, 0.2))] for j in range(5)]
        rows.append([10 * i + 9, float(rng.uniform(0.5, 0.7)), 0.0])
        train.append(question("single-hop", rows, evidence=10 * i + 9))
    for i in range(60):
        rows = [[10 * i + j, float(rng.uniform(0.4, 0.6)), 0.0] for j in range(5)]
        rows.append([10 * i + 9, float(rng.uniform(0.2, 0.35)), float(rng.uniform(0.6, 1.0))])
        train.append(question("single-hop", rows, evidence=10 * i + 9))
    weights = lodo.fit_confidence(train, features=cv.supported_confidence_features)
    assert len(weights) == 4
    rule = cv.supported_confidence_rule(*weights)
    hits = [q.ids[cv.order(q, rule(q))[0]] in q.evidence for q in train]
    assert np.mean(hits) > 0.9
    assert np.mean([q.ids[cv.order(q, q.cos)[0]] in q.evidence for q in train]) == 0.5


def test_the_fixture_check_fails_a_rule_that_drops_a_paraphrase():
    fixture = [
        question("paraphrase", [[1, 0.30, 0.0], [2, 0.12, 0.4], [3, 0.11, 0.4], [4, 0.10, 0.4]], evidence=1),
        question("keyword", [[5, 0.50, 0.2], [6, 0.52, 0.0], [7, 0.1, 0.0]], evidence=5),
    ]
    vector_only = lodo.fixture_check(fixture, lambda q: q.cos)
    assert not vector_only["passes"]  # codes first no more often than the vector arm
    keyword_heavy = lodo.fixture_check(fixture, lambda q: q.cos + 2 * q.cov)
    assert keyword_heavy["paraphrase_top3"] == [0.0, 1.0] and not keyword_heavy["passes"]
    balanced = lodo.fixture_check(fixture, lambda q: q.cos + 0.5 * (q.cov - cv.runner_up(q)).clip(0))
    assert balanced["passes"], balanced


def test_the_fit_refuses_a_negative_cosine_weight():
    """Its weights are scaled so that cos weighs 1: were cos fitted against the evidence, the
    scaling would flip every weight's sign and the rule's order; the fit says so instead."""
    train = [
        question(
            "single-hop", [[10 * i + j, 0.5 + 0.01 * j, 0.0] for j in range(5)] + [[10 * i + 9, 0.2, 0.9]], 10 * i + 9
        )
        for i in range(30)
    ]
    with pytest.raises(ValueError, match="cosine"):
        lodo.fit_confidence(train, features=cv.supported_confidence_features)


def test_the_direct_fit_reads_as_crossval_does_and_its_search_climbs():
    """direct_fit.Packed's one-pass numpy reading equals crossval's per-question one (ties by id),
    and the coordinate search finds weights that put keyword-answered evidence first."""
    from bench.retrieval import direct_fit

    rng = np.random.default_rng(7)
    qs = []
    for i in range(40):
        rows = [[100 * i + j, round(float(rng.uniform(0, 0.8)), 2), float(rng.choice([0, 0.3, 1]))] for j in range(12)]
        qs.append(question(["single-hop", "temporal"][i % 2], rows, evidence=100 * i + int(rng.integers(12))))
    packed = direct_fit.Packed(qs, direct_fit.FEATURES["base"])
    for weights in ([1.0, 0.05, 3.0, 0.5], [1.0, 0.0, 0.0, 0.0], [1.0, 2.0, 0.0, -1.0]):
        w = np.array(weights)
        t = cv.table(qs, [cv.order(q, direct_fit.FEATURES["base"](q) @ w) for q in qs])
        assert packed.read(w) == pytest.approx((t["all"]["r5"], t["all"]["r10"], cv.deficit(t, cv.arms(qs))))
    start = np.array([1.0, 0.0, 0.0, 0.0])
    found = direct_fit.search(lambda w: sum(packed.read(w)[:2]), start)
    assert sum(packed.read(found)[:2]) > sum(packed.read(start)[:2])
