"""The third retrieval data set (bench/retrieval/generate_assistant.py, issue 26): the committed file
is what the seed gives, every evidence id is a user turn of its own conversation, and its
vocabulary stays apart from the two data sets search was tuned on."""

import hashlib
import re

import pytest

from bench.retrieval import generate_assistant as gen
from bench.retrieval.generated import render
from tests.conftest import ROOT

RETRIEVAL = ROOT / "bench" / "retrieval"


def test_the_same_seed_gives_the_committed_file():
    text = render(gen.generate())
    assert (
        hashlib.sha256(text.encode()).hexdigest()
        == hashlib.sha256((RETRIEVAL / "assistant.json").read_bytes()).hexdigest()
    )
    assert render(gen.generate(gen.SEED + 1)) != text


def test_every_evidence_id_is_a_user_turn_of_its_conversation():
    data = gen.generate()
    speaker = {
        t["id"]: (c["id"], t["speaker"]) for c in data["conversations"] for s in c["sessions"] for t in s["turns"]
    }
    types = {q["type"] for q in data["questions"]}
    assert types == {
        "single-hop",
        "multi-hop",
        "temporal",
        "open-domain",
        "adversarial",
        "knowledge-update",
        "preference",
    }
    for q in data["questions"]:
        assert bool(q["evidence"]) == (q["type"] != "adversarial"), q
        assert (q.get("never") in ("never said", "someone else's", "assistant only")) == (q["type"] == "adversarial")
        for e in q["evidence"]:
            assert speaker[e][0] == q["conversation"] and speaker[e][1] != gen.ASSISTANT, q


def test_knowledge_updates_point_at_the_later_turn():
    data = gen.generate()
    session = {t["id"]: s["session"] for c in data["conversations"] for s in c["sessions"] for t in s["turns"]}
    for q in data["questions"]:
        if q["type"] == "knowledge-update":
            (latest,) = q["evidence"]
            before = [
                p for p in data["questions"] if p["conversation"] == q["conversation"] and p["type"] == "multi-hop"
            ]
            history = next(p["evidence"] for p in before if latest in p["evidence"] and len(p["evidence"]) == 2)
            assert session[latest] > session[history[0]]


def clashes(values: list[str], files: tuple[str, ...]) -> list[str]:
    """The ``values`` (names, places) found as whole words in any of the data set ``files``."""
    others = " ".join((RETRIEVAL / f).read_text().lower() for f in files)
    return [v for v in values if re.search(r"\b" + re.escape(v.lower().removeprefix("the ")) + r"\b", others)]


def test_its_names_and_places_are_not_in_the_other_data_sets():
    values = [*gen.NAMES, *gen.OTHERS, *gen.CITIES, *gen.EMPLOYERS, *gen.DESTINATIONS]
    values += [name for _, name in (*gen.PETS, *gen.CHILDREN)]  # (species or relation, name)
    # the later sets (notes.json, team.json, life.json, family.json, dev.json, coach.json): checked both ways
    assert not clashes(
        values,
        (
            "conversations.json",
            "chat.json",
            "notes.json",
            "team.json",
            "life.json",
            "family.json",
            "dev.json",
            "coach.json",
        ),
    )


def test_the_holdout_replica_uses_what_ships():
    """crossval.holdout must read the hold-out with the shipped calibration and floor (no refit)."""
    from django.conf import settings

    from bench.retrieval import crossval
    from memories import selectors

    cal = selectors.CALIBRATION["hybrid"]
    assert (cal.alpha, cal.gamma, cal.beta) == crossval.SHIPPED_CALIBRATION
    assert settings.MNEMO_SEARCH_MIN_SCORE == crossval.SHIPPED_FLOOR
    assert settings.MNEMO_SEARCH_COMMON_SHARE == crossval.SHARE_NOW


def test_the_replica_ranks_as_the_product_does():
    """crossval's shipped rule (the numpy replica every data set is read with) computes the same
    ranking value as memories.selectors.hybrid_ranking, the statement's, on any candidates."""
    import numpy as np

    from bench.retrieval import crossval
    from memories import selectors

    rng = np.random.default_rng(26)
    for _ in range(50):
        n = int(rng.integers(1, 30))
        rows = [
            [i, float(rng.uniform(-0.2, 0.9)), float(rng.choice([0.0, rng.uniform(0, 1)])), i + 1, None]
            for i in range(n)
        ]
        q = crossval.Question({"conversation": "c1", "type": "single-hop", "evidence": [], "rows": rows}, "mnemo")
        second = selectors.runner_up([r[2] for r in rows])
        expected = [selectors.hybrid_ranking(r[1], r[2], second) for r in rows]
        assert crossval.RULES[crossval.SHIPPED_NOW](q) == pytest.approx(expected, abs=1e-12)
