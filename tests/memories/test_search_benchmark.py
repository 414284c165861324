"""A slice of our conversational retrieval benchmark (bench/retrieval) as a regression guard:
one conversation stored turn by turn through `remember`, its questions searched in each mode.
The whole benchmark runs in `make bench` (docs/benchmarks.md)."""

import pytest

from bench.retrieval import harness
from memories import selectors

pytestmark = pytest.mark.django_db


def test_hybrid_never_ranks_below_its_arms_on_the_slice():
    data = harness.dataset()
    namespaces = harness.load(data, conversations=["c0"])
    floor = selectors.min_score_or_default(None)
    quiet = 0.15  # docs/benchmarks.md: the floor for callers who prefer silence
    result = harness.evaluate(data, namespaces, min_scores=(floor, quiet))
    assert result["answerable"] >= 70  # the slice is big enough to mean something
    hybrid, keyword, vector = (result[m]["table"] for m in ("hybrid", "keyword", "vector"))
    for kind in [*harness.TYPES, "all"]:
        assert hybrid[kind]["r10"] >= keyword[kind]["r10"], (kind, hybrid[kind], keyword[kind])
        assert hybrid[kind]["r5"] >= keyword[kind]["r5"], (kind, hybrid[kind], keyword[kind])
    assert hybrid["all"]["r10"] > keyword["all"]["r10"] and hybrid["all"]["mrr"] > keyword["all"]["mrr"]
    # Against the vector arm: on the whole benchmark hybrid is ahead in every type
    # (docs/benchmarks.md); on this one-conversation slice they are within one question's share
    # at R@10.
    assert hybrid["all"]["r10"] >= vector["all"]["r10"] - 0.01
    # the default floor costs little: it keeps the answers found (docs/benchmarks.md: at most 2
    # points of R@10 out of sample); a quiet floor drops most questions about things never said
    gate = result["hybrid"]["min_score"][str(floor)]
    assert gate["false_empty_rate"] <= 0.02 and gate["answer_lost_rate"] <= 0.05, gate
    quiet_gate = result["hybrid"]["min_score"][str(quiet)]
    assert quiet_gate["false_hit_rate"] <= 0.5, quiet_gate
