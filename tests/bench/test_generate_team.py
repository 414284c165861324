"""The fifth retrieval data set (bench/retrieval/generate_team.py): the committed file is what the
seed gives, its questions point at turns of their own team's channel, knowledge updates at the
later turn, its vocabulary stays apart from the four other sets (both ways), and the loaders and
the report read it. Structural checks only: nothing here searches it (it stays unread until a new
search choice is judged on it)."""

import re
from collections import Counter

from bench.retrieval import generate_team as gen
from bench.retrieval import holdout
from tests.bench.datasets import (
    assert_half_in_the_turns_words,
    assert_names_apart,
    assert_the_loaders_read_it,
    assert_the_report_renders_it_only_once_read,
    assert_the_seed_gives_the_committed_file,
    assert_updates_point_at_the_later_turn,
)


def test_the_same_seed_gives_the_committed_file():
    assert_the_seed_gives_the_committed_file(gen, "team.json")


def test_its_shape():
    """8 team channels of 3 to 5 members, 15 to 20 dated sessions and 250 to 450 turns each,
    speaker-prefixed; 400 to 500 questions of holdout.TYPES; most turns are filler."""
    data = gen.generate()
    assert len(data["conversations"]) == gen.TEAMS
    for c in data["conversations"]:
        assert 3 <= len(c["speakers"]) <= 5 and 15 <= len(c["sessions"]) <= 20
        assert 250 <= sum(len(s["turns"]) for s in c["sessions"]) <= 450
        dates = [s["date"] for s in c["sessions"]]
        assert dates == sorted(set(dates))  # one session a day, in order
        for s in c["sessions"]:
            for i, t in enumerate(s["turns"], 1):
                assert t["id"] == f"{c['id']}:D{s['session']}:{i}" and t["speaker"] in c["speakers"]
    counts = Counter(q["type"] for q in data["questions"])
    assert set(counts) == set(holdout.TYPES) and 400 <= sum(counts.values()) <= 500
    assert Counter(q["never"] for q in data["questions"] if "never" in q) == Counter(
        {k: n * gen.TEAMS for k, n in gen.NEVER_KINDS.items()}
    )
    assert len({q["id"] for q in data["questions"]}) == len(data["questions"])
    turns = sum(len(s["turns"]) for c in data["conversations"] for s in c["sessions"])
    evidence = {e for q in data["questions"] for e in q["evidence"]}
    assert len(evidence) < turns / 5


def test_every_evidence_id_is_a_turn_of_its_team():
    data = gen.generate()
    owner = {t["id"]: c["id"] for c in data["conversations"] for s in c["sessions"] for t in s["turns"]}
    for q in data["questions"]:
        assert bool(q["evidence"]) == (q["type"] != "adversarial"), q
        assert (q.get("never") in gen.NEVER_KINDS) == (q["type"] == "adversarial"), q
        assert all(owner[e] == q["conversation"] for e in q["evidence"]), q
        assert len(set(q["evidence"])) == len(q["evidence"]), q
        assert (len(q["evidence"]) > 1) == (q["type"] == "multi-hop"), q


def test_knowledge_updates_point_at_the_later_turn():
    """Each update's question has the later turn only as evidence; the history question (multi-hop)
    holds the earlier turn, said on an earlier date, and the later one."""
    data = gen.generate()
    updates = assert_updates_point_at_the_later_turn(data)
    assert len({q["evidence"][0] for q in updates}) == gen.TEAMS * 3  # a deadline, an owner and a vendor per team


def test_half_of_each_type_is_in_the_turns_words():
    """Every question but the open-domain ones (inferences) is the first (the turns' words) or the
    second (paraphrased) wording of its template; in each team, each type splits half and half."""
    pairs = [v for table in (gen.SINGLE, gen.BEFORE, gen.HISTORY, gen.AGGREGATE, gen.TEMPORAL) for v in table.values()]
    pairs += [v for variants in gen.UPDATE.values() for v in variants] + [p[3] for p in gen.PREFERENCES]
    pairs += [*gen.NEVER_SAID, *gen.NEARBY]
    assert_half_in_the_turns_words(gen.generate(), pairs)


def _states(turn: str, attribute: str, project: str) -> bool:
    """Whether a turn (lower case) that names ``project`` states its ``attribute``."""
    if project not in turn:
        return False
    if attribute in ("blocker", "decision"):
        items = gen.BLOCKERS if attribute == "blocker" else gen.DECISIONS
        return any(t.format(p=project).lower() in turn for item in items for t in item[1:3])
    pattern = {
        "budget": r"\b\d+k\b",
        "ticket": r"\b[a-z]+-\d{4}\b",
        "customer": "|".join(re.escape(c.lower()) for c, _ in gen.CUSTOMERS),
        "office": "|".join(re.escape(o[0].lower()) for o in gen.OFFICES),
        "codename": "|".join(re.escape(k.lower()) for k in gen.CODENAMES),
    }[attribute]
    return re.search(pattern, turn) is not None


def test_other_projects_attributes_are_stated_for_another_project_only():
    """An "other project's" question asks an attribute no turn states for its project, which
    another project of the same team has (the keyword trap)."""
    data = gen.generate()
    turns = {c["id"]: [t["text"].lower() for s in c["sessions"] for t in s["turns"]] for c in data["conversations"]}
    asked = [q for q in data["questions"] if q.get("never") == "other project's"]
    assert len(asked) == gen.NEVER_KINDS["other project's"] * gen.TEAMS
    for q in asked:
        ((attribute, project),) = [
            (x, p) for x, variants in gen.SINGLE.items() for v in variants for p in gen.PROJECT_NAMES
            if v.format(p=p) == q["question"]
        ]  # fmt: skip
        mine = turns[q["conversation"]]
        assert not any(_states(t, attribute, project) for t in mine), q
        others = {p for p in gen.PROJECT_NAMES if p != project and any(p in t for t in mine)}
        assert any(_states(t, attribute, p) for t in mine for p in others), q


def test_its_names_and_places_are_not_in_the_other_data_sets():
    """Both ways: this set's names, codenames, vendors, customers and offices are in none of the
    four other data sets (nor in their generators' lists), and theirs are not in this one (life.json,
    family.json and dev.json came later and are checked too)."""
    assert_names_apart("team")


def test_the_loaders_read_it():
    """harness stores a turn as "Speaker: text"; holdout.py reads it with --dataset team into a
    section of its own (retrieval_team), and features.py takes it by name."""
    assert_the_loaders_read_it("team")


def test_the_report_renders_it_only_once_read():
    """No results file holds retrieval_team yet: the report renders nothing for it; once one does,
    its section has a heading of its own and issue 26's bars."""
    assert_the_report_renders_it_only_once_read("team", "### Retrieval on the fifth data set: work teams' channels")
