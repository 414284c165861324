"""The fourth retrieval data set (bench/retrieval/generate_notes.py, issue 26): the committed file is
what the seed gives, its questions point at notes of their own user, knowledge updates at the later
note, its vocabulary stays apart from the three other sets, and the loaders read it."""

import hashlib

import pytest

from bench.retrieval import generate_notes as gen
from bench.retrieval import harness, holdout
from bench.retrieval.generated import render
from tests.bench.test_generate_assistant import RETRIEVAL, clashes


def test_the_same_seed_gives_the_committed_file():
    text = render(gen.generate())
    assert (
        hashlib.sha256(text.encode()).hexdigest() == hashlib.sha256((RETRIEVAL / "notes.json").read_bytes()).hexdigest()
    )
    assert render(gen.generate(gen.SEED + 1)) != text


def test_every_evidence_id_is_a_note_of_its_user():
    data = gen.generate()
    owner = {t["id"]: c["id"] for c in data["conversations"] for s in c["sessions"] for t in s["turns"]}
    assert {q["type"] for q in data["questions"]} == {
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
        assert (q.get("never") in ("never said", "someone else's", "nearby attribute")) == (q["type"] == "adversarial")
        assert all(owner[e] == q["conversation"] for e in q["evidence"]), q
    # notes, not dialogue: no speaker, and most of them task logs with no fact in them
    turns = [t for c in data["conversations"] for s in c["sessions"] for t in s["turns"]]
    assert all(set(t) == {"id", "text"} for t in turns)
    evidence = {e for q in data["questions"] for e in q["evidence"]}
    assert len(evidence) < len(turns) / 5


def test_knowledge_updates_point_at_the_later_note():
    data = gen.generate()
    day = {t["id"]: s["date"] for c in data["conversations"] for s in c["sessions"] for t in s["turns"]}
    updates = [q for q in data["questions"] if q["type"] == "knowledge-update"]
    assert updates
    for q in updates:
        (latest,) = q["evidence"]
        history = [
            p["evidence"]
            for p in data["questions"]
            if p["conversation"] == q["conversation"] and p["type"] == "multi-hop" and latest in p["evidence"]
        ]
        assert len(history) == 1 and len(history[0]) == 2, q
        assert day[latest] > day[history[0][0]]


def test_its_names_and_places_are_not_in_the_other_data_sets():
    values = [*gen.NAMES, *gen.PARTNERS, *gen.OTHERS, *gen.CITIES, *gen.EMPLOYERS, *gen.DESTINATIONS, *gen.SCHOOLS]
    values += [name for _, name in (*gen.PETS, *gen.CHILDREN)]  # (species or relation, name)
    # the later sets (team.json, life.json, family.json, dev.json, coach.json) came later: checked both ways
    assert not clashes(
        values,
        (
            "conversations.json",
            "chat.json",
            "assistant.json",
            "team.json",
            "life.json",
            "family.json",
            "dev.json",
            "coach.json",
        ),
    )


def test_the_loaders_read_it():
    """harness stores a note as it is (a dialogue turn as "Speaker: text"); holdout.py reads it
    with --dataset notes into a section of its own, which the report renders."""
    assert harness.DATASETS["notes"] == RETRIEVAL / "notes.json"
    data = harness.dataset("notes")
    note = data["conversations"][0]["sessions"][0]["turns"][0]
    assert harness.turn_text(note) == note["text"]
    assert harness.turn_text({"id": "x", "speaker": "Ana", "text": "Hi"}) == "Ana: Hi"
    assert holdout.SECTIONS == {
        "assistant": "retrieval_holdout",
        "notes": "retrieval_notes",
        "team": "retrieval_team",
        "life": "retrieval_life",
        "family": "retrieval_family",
        "dev": "retrieval_dev",
        "coach": "retrieval_coach",
    }


def test_the_bars_name_the_cells_an_arm_wins():
    row = {"r5": 0.5, "r10": 0.7, "mrr": 0.5, "n": 1}
    tables = {
        "hybrid": {"single-hop": row, "all": row},
        "vector": {"single-hop": row | {"r10": 0.8}, "all": row},
        "keyword": {"single-hop": row, "all": row | {"r5": 0.4}},
    }
    b = holdout.bars(tables)
    assert b["losses"] == ["vector single-hop r10 (+0.100)"]
    assert not b["arms_ok"] and not b["r10_ok"]
    assert holdout.bars({m: {"all": row | {"r10": 0.72}} for m in holdout.MODES}) == {
        "arms_ok": True,
        "losses": [],
        "r10": 0.72,
        "r10_ok": True,
    }


@pytest.mark.django_db
def test_loading_forgets_what_it_counted_while_filling():
    """A namespace's size cached by remember while it filled must not reach the first searches
    (they would count its common words over its first few memories)."""
    from memories import selectors

    selectors._stats_cache[("size", 10**9)] = (selectors._clock() + 3600, 5)
    harness.load({"conversations": []})
    assert ("size", 10**9) not in selectors._stats_cache
