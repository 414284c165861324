"""bench/retrieval/cluster.py's second-stage rules on made-up candidates: what each adds to the
shipped ranking value, and that the feedback leaves a candidate's similarity to itself out."""

import numpy as np
import pytest

from bench.retrieval import cluster
from bench.retrieval import crossval as cv
from tests.bench.test_lodo import question


def unit(*xs: float) -> np.ndarray:
    v = np.array(xs, dtype=float)
    return v / np.linalg.norm(v)


def test_feedback_adds_the_mean_cosine_to_the_other_top_hits():
    q = question("single-hop", [[1, 0.6, 0.0], [2, 0.5, 0.0], [3, 0.45, 0.0]], evidence=3)
    vectors = {id(q): np.stack([unit(1, 0, 0), unit(1, 1, 0), unit(0, 0, 1)])}
    base = cluster.SHIPPED(q)
    got = cluster.feedback(vectors, k=2, gamma=1.0)(q) - base
    # the top 2 are ids 1 and 2: each gets its cosine to the other; id 3 the mean over both
    assert got == pytest.approx([np.sqrt(0.5), np.sqrt(0.5), 0.0])


def test_adjacency_lifts_the_memory_stored_next_to_a_strong_one():
    q = question("single-hop", [[5, 0.8, 0.0], [6, 0.2, 0.0], [9, 0.3, 0.0]], evidence=6)
    base = cluster.SHIPPED(q)
    got = cluster.adjacency(1.0)(q)
    assert got[1] - base[1] == pytest.approx(base[0])  # 6 sits next to 5
    assert got[2] == pytest.approx(base[2])  # 9 has no neighbour among the candidates
    assert cv.order(q, got)[1] == 1  # and now ranks above 9


def test_recency_adds_the_rank_by_age():
    q = question("knowledge-update", [[30, 0.5, 0.0], [10, 0.5, 0.0], [20, 0.5, 0.0]], evidence=30)
    got = cluster.recency(0.1)(q) - cluster.SHIPPED(q)
    assert got == pytest.approx([0.1, 0.0, 0.05])
