"""The sixth retrieval data set (bench/retrieval/generate_life.py): the committed file is what the
seed gives, two friends talk in long turns over 18 to 28 dated sessions, its questions point at
turns of their own conversation, knowledge updates at the later turn, its vocabulary stays apart
from the five other sets (both ways), and the loaders and the report read it. Structural checks
only: nothing here searches it (it was read once, by bench/retrieval/holdout.py, to judge a
candidate rule)."""

import re
import statistics
from collections import Counter

from bench.retrieval import generate_life as gen
from bench.retrieval import holdout
from tests.bench.datasets import (
    assert_half_in_the_turns_words,
    assert_names_apart,
    assert_the_loaders_read_it,
    assert_the_report_renders_it_only_once_read,
    assert_the_seed_gives_the_committed_file,
    assert_updates_point_at_the_later_turn,
    template_pattern,
)


def test_the_same_seed_gives_the_committed_file():
    assert_the_seed_gives_the_committed_file(gen, "life.json")


def test_its_shape():
    """10 conversations of two friends, 18 to 28 dated sessions and 300 to 650 turns each,
    speaker-prefixed, mostly 15 to 45 words long; 400 to 550 questions of holdout.TYPES."""
    data = gen.generate()
    assert len(data["conversations"]) == gen.CONVERSATIONS
    for c in data["conversations"]:
        assert len(c["speakers"]) == 2 and 18 <= len(c["sessions"]) <= 28
        assert 300 <= sum(len(s["turns"]) for s in c["sessions"]) <= 650
        dates = [s["date"] for s in c["sessions"]]
        assert dates == sorted(set(dates))  # one session a day, in order
        for s in c["sessions"]:
            for i, t in enumerate(s["turns"], 1):
                assert t["id"] == f"{c['id']}:D{s['session']}:{i}" and t["speaker"] in c["speakers"]
        assert {t["speaker"] for s in c["sessions"] for t in s["turns"]} == set(c["speakers"])
    words = [len(t["text"].split()) for c in data["conversations"] for s in c["sessions"] for t in s["turns"]]
    assert 20 <= statistics.median(words) <= 35
    assert sum(15 <= w <= 45 for w in words) / len(words) > 0.9
    counts = Counter(q["type"] for q in data["questions"])
    assert set(counts) == set(holdout.TYPES) and 400 <= sum(counts.values()) <= 550
    assert counts == Counter({t: n * gen.CONVERSATIONS for t, n in gen.PER_CONVERSATION.items()}) + Counter(
        {"adversarial": sum(gen.NEVER_KINDS.values()) * gen.CONVERSATIONS}
    )
    assert Counter(q["never"] for q in data["questions"] if "never" in q) == Counter(
        {k: n * gen.CONVERSATIONS for k, n in gen.NEVER_KINDS.items()}
    )
    assert len({q["id"] for q in data["questions"]}) == len(data["questions"])
    turns = len(words)
    evidence = {e for q in data["questions"] for e in q["evidence"]}
    assert len(evidence) < turns / 10  # most turns are chatter


def test_dates_are_said_relative_to_the_session():
    """Most temporal questions' evidence says its date relative to the session ("last Saturday",
    "in three weeks"), some absolutely ("on 14 May")."""
    data = gen.generate()
    text = {t["id"]: t["text"] for c in data["conversations"] for s in c["sessions"] for t in s["turns"]}
    temporal = [text[q["evidence"][0]] for q in data["questions"] if q["type"] == "temporal"]
    months = "|".join(gen.MONTHS)
    absolute = [t for t in temporal if re.search(rf"\bon \d{{1,2}} ({months})\b", t)]
    assert 0 < len(absolute) < len(temporal) / 2


def test_every_evidence_id_is_a_turn_of_its_conversation():
    data = gen.generate()
    owner = {t["id"]: c["id"] for c in data["conversations"] for s in c["sessions"] for t in s["turns"]}
    for q in data["questions"]:
        assert bool(q["evidence"]) == (q["type"] != "adversarial"), q
        assert (q.get("never") in gen.NEVER_KINDS) == (q["type"] == "adversarial"), q
        assert all(owner[e] == q["conversation"] for e in q["evidence"]), q
        assert len(set(q["evidence"])) == len(q["evidence"]), q
        assert (len(q["evidence"]) > 1) == (q["type"] == "multi-hop"), q


def test_multi_hop_spans_sessions():
    """A multi-hop question's evidence turns of one friend (a relative named in one session and their
    news in another, an update's history) are said in different sessions; the others are the two
    friends' turns, one each."""
    data = gen.generate()
    where = {
        t["id"]: (s["session"], t["speaker"]) for c in data["conversations"] for s in c["sessions"] for t in s["turns"]
    }
    kinds: Counter = Counter()
    for q in data["questions"]:
        if q["type"] == "multi-hop":
            (s0, who0), (s1, who1) = (where[e] for e in q["evidence"])
            assert s0 != s1 if who0 == who1 else True, q
            kinds[who0 == who1] += 1
    assert kinds[True] >= 3 * gen.CONVERSATIONS and kinds[False] > 0


def test_knowledge_updates_point_at_the_later_turn():
    """Each update's question has the later turn only as evidence; the history question (multi-hop)
    holds the earlier turn, said on an earlier date, and the later one."""
    data = gen.generate()
    updates = assert_updates_point_at_the_later_turn(data)
    assert len({q["evidence"][0] for q in updates}) == gen.CONVERSATIONS * 2  # a job change and a move each


def test_half_of_each_type_is_in_the_turns_words():
    """Every question but the open-domain ones (inferences) is the first (the turn's words) or the
    second (paraphrased) wording of its template; in each conversation, each type splits half and half."""
    pairs = [v for table in (gen.SINGLE, gen.BEFORE, gen.HISTORY, gen.AGGREGATE, gen.TEMPORAL) for v in table.values()]
    pairs += [v for variants in gen.UPDATE.values() for v in variants] + [p[2] for p in gen.PREFERENCES]
    pairs += [*gen.NEVER_SAID, *(v for _, v in gen.NEARBY), *(news[1] for news in gen.NEWS)]
    assert_half_in_the_turns_words(gen.generate(), pairs)


def test_other_friends_attributes_are_the_other_friends_only():
    """An "other friend's" question asks one friend an attribute only the other friend states (in
    the other's words): no turn of the asked friend holds its template's words, the other's does."""
    data = gen.generate()
    by = {
        c["id"]: {n: " ".join(t["text"] for s in c["sessions"] for t in s["turns"] if t["speaker"] == n)
                  for n in c["speakers"]}
        for c in data["conversations"]
    }  # fmt: skip
    marks = {"pet": "adopted", "book": "halfway through", "fitness": "training for", "purchase": "finally bought",
             "language": "evening classes in"}  # fmt: skip
    asked = [q for q in data["questions"] if q.get("never") == "other friend's"]
    assert len(asked) == gen.NEVER_KINDS["other friend's"] * gen.CONVERSATIONS
    for q in asked:
        (x,) = {x for x in gen.EXTRAS for v in gen.SINGLE[x] if template_pattern(v).match(q["question"])}
        (who,) = [n for n in by[q["conversation"]] if n in q["question"]]
        (other,) = [n for n in by[q["conversation"]] if n != who]
        assert marks[x] not in by[q["conversation"]][who].lower(), q
        assert marks[x] in by[q["conversation"]][other].lower(), q


def test_its_names_and_places_are_not_in_the_other_data_sets():
    """Both ways: this set's names, relatives, pets, employers, towns, destinations, titles and
    authors are in none of the five other data sets (nor their generators' lists), and theirs are
    not in this one; the seventh (family.json) and the eighth (dev.json) came later and are checked
    here too."""
    assert_names_apart("life")


def test_the_loaders_read_it():
    """harness stores a turn as "Speaker: text"; holdout.py reads it with --dataset life into a
    section of its own (retrieval_life), and features.py takes it by name."""
    assert_the_loaders_read_it("life")


def test_the_report_renders_it_only_once_read():
    """No results file holds retrieval_life yet: the report renders nothing for it; once one does,
    its section has a heading of its own and issue 26's bars."""
    assert_the_report_renders_it_only_once_read("life", "### Retrieval on the sixth data set: two friends' long chats")
