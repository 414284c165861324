"""The sentence views of bench/retrieval/sentences.py (a screen, not shipped): what a view is, and
that the mixed cosine only ever lifts a candidate by a share of what its best sentence adds."""

import numpy as np

from bench.retrieval import crossval as cv
from bench.retrieval import sentences


def test_a_turn_of_several_sentences_gets_one_view_per_sentence_with_its_speaker():
    text = "Ana: Ugh, I know the feeling. I took up roller derby last week. Right, I should make dinner now."
    assert sentences.views(text) == [
        "Ana: Ugh, I know the feeling.",
        "Ana: I took up roller derby last week.",
        "Ana: Right, I should make dinner now.",
    ]


def test_one_sentence_or_short_fragments_give_no_views():
    assert sentences.views("User prefers email summaries in the morning.") == []
    # "Ha, same." has fewer than MIN_WORDS words: one real sentence is left, so no views
    assert sentences.views("Bo: Ha, same. My sister moved to Lyon in the spring.") == []
    assert sentences.views("No speaker here at all. But two sentences of four words.") == [
        "No speaker here at all.",
        "But two sentences of four words.",
    ]


def test_the_mixed_cosine_lifts_by_a_share_and_never_lowers():
    q = cv.Question(
        {
            "conversation": "c0",
            "type": "single-hop",
            "evidence": [2],
            "rows": [[1, 0.5, 0.0, 1, 0], [2, 0.4, 0.0, 2, 0]],
        },
        "made-up",
    )

    class FakeViews:
        sent = {id(q): np.array([0.3, 0.8])}

    got = sentences.mixed(FakeViews(), 0.5)(q)  # type: ignore[arg-type]
    assert np.allclose(got, [0.5, 0.6])
