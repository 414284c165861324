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


def test_two_views_mix_the_whole_questions_cosine_into_the_shipped_rule(tmp_path):
    import json

    from bench.retrieval import two_views

    q = question("single-hop", [[1, 0.6, 0.0], [2, 0.2, 0.0]], evidence=2)
    # the dump and the cached vectors: memory 2 is the whole question's direction
    (tmp_path / "f-s.json").write_text(
        json.dumps({"dataset": "s", "questions": [{"id": "q1", "question": "x", "conversation": "c0"}], "texts": {}})
    )
    np.savez(tmp_path / "v-s.npz", ids=np.array([1, 2]), v=np.stack([unit(1, 0, 0), unit(0, 1, 0)]))
    np.save(tmp_path / "q-s.npy", np.stack([unit(0, 1, 0)]))
    full: dict[int, np.ndarray] = {}
    two_views.whole_question_cosines(str(tmp_path), "s", [q], full)
    assert full[id(q)] == pytest.approx([0.0, 1.0])
    assert two_views.mixed(full, 0.0)(q) == pytest.approx(cluster.SHIPPED(q))
    assert cv.order(q, two_views.mixed(full, 0.5)(q))[0] == 1  # the whole question's memory first now


def test_the_shipped_replica_adds_the_storage_rank_only_for_a_question_about_the_present():
    rows = [[30, 0.5, 0.0, 1, 0], [10, 0.5, 0.0, 2, 0], [20, 0.5, 0.0, 3, 0]]

    def asked(text: str) -> cv.Question:
        return cv.Question(
            {"conversation": "c0", "type": "knowledge-update", "evidence": [30], "rows": rows, "question": text}, "x"
        )

    now, plain = asked("Where does Ana live now?"), asked("Where does Ana live?")
    assert now.present and not plain.present
    shipped = cv.RULES[cv.SHIPPED_PRESENT]
    assert shipped(now) - cv.RULES[cv.SHIPPED_NOW](now) == pytest.approx([0.2, 0.0, 0.1])
    assert shipped(plain) == pytest.approx(cv.RULES[cv.SHIPPED_NOW](plain))
    assert cv.order(now, shipped(now))[0] == 0  # the newest first
