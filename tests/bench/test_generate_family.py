"""The seventh retrieval data set (bench/retrieval/generate_family.py): the committed file is what
the seed gives, a household's members and the assistant talk over 15 to 25 dated sessions, its
questions point at the members' turns of their own household, knowledge updates at the later turn,
the never-stored traps hold what they claim, its vocabulary stays apart from the six other sets
(both ways), and the loaders and the report read it. Structural checks only: nothing here searches
it (it was read once, by bench/retrieval/holdout.py, to judge a candidate rule)."""

import re
from collections import Counter

from bench.retrieval import generate_family as gen
from tests.bench.datasets import (
    assert_evidence_is_said_by_a_user,
    assert_half_in_the_turns_words,
    assert_names_apart,
    assert_questions_as_designed,
    assert_the_loaders_read_it,
    assert_the_report_renders_it_only_once_read,
    assert_the_seed_gives_the_committed_file,
    assert_updates_point_at_the_later_turn,
    template_pattern,
    turns_by_id,
)


def test_the_same_seed_gives_the_committed_file():
    assert_the_seed_gives_the_committed_file(gen, "family.json")


def test_its_shape():
    """9 households of 3 to 5 members and the assistant, 15 to 25 dated sessions each, every member
    and the assistant speaking; short requests and medium statements mixed; the questions of
    holdout.TYPES in the counts the generator names."""
    data = gen.generate()
    assert len(data["conversations"]) == gen.CONVERSATIONS
    for c in data["conversations"]:
        assert 4 <= len(c["speakers"]) <= 6 and c["speakers"][-1] == gen.ASSISTANT
        assert 15 <= len(c["sessions"]) <= 25
        dates = [s["date"] for s in c["sessions"]]
        assert dates == sorted(set(dates))  # one session a day, in order
        for s in c["sessions"]:
            for i, t in enumerate(s["turns"], 1):
                assert t["id"] == f"{c['id']}:D{s['session']}:{i}" and t["speaker"] in c["speakers"]
        assert {t["speaker"] for s in c["sessions"] for t in s["turns"]} == set(c["speakers"])
    turns = [t for c in data["conversations"] for s in c["sessions"] for t in s["turns"]]
    words = [len(t["text"].split()) for t in turns]
    assert sum(w <= 7 for w in words) / len(words) > 0.3  # "Add oat milk to the shopping list", "Done."
    assert sum(w >= 15 for w in words) / len(words) > 0.08  # the facts and the chatter
    assert 0.35 < sum(t["speaker"] == gen.ASSISTANT for t in turns) / len(turns) < 0.5
    assert_questions_as_designed(gen, data)


def test_every_evidence_id_is_a_members_turn_of_its_conversation():
    assert_evidence_is_said_by_a_user(gen, gen.generate())


def test_dates_and_times_are_in_the_turns():
    """Appointments carry a time; events are dated absolutely ("on 14 March") mostly, relative to
    the session ("next Tuesday", "tomorrow") at times."""
    data = gen.generate()
    text = {i: t["text"] for i, t in turns_by_id(data).items()}
    temporal = [text[q["evidence"][0]] for q in data["questions"] if q["type"] == "temporal"]
    months = "|".join(gen.MONTHS)
    absolute = [t for t in temporal if re.search(rf"\b(on|from) \d{{1,2}} ({months})?\b", t)]
    assert 0 < len(absolute) < len(temporal)
    appointments = [t for t in text.values() if " appointment with " in t or "appointment in the calendar" in t]
    assert appointments and all(re.search(r"\bat \d{1,2}:\d\d\b", t) for t in appointments)


def test_multi_hop_spans_turns():
    """A history question's two turns are said in different sessions; the others hold two members'
    turns, both members named in the question."""
    data = gen.generate()
    turn = turns_by_id(data)
    history = [template_pattern(t) for v in gen.HISTORY.values() for t in v]
    kinds: Counter = Counter()
    for q in data["questions"]:
        if q["type"] != "multi-hop":
            continue
        is_history = any(p.match(q["question"]) for p in history)
        kinds[is_history] += 1
        a, b = (turn[e] for e in q["evidence"])
        if is_history:
            assert a["session"] < b["session"], q
    assert kinds[True] == gen.UPDATES_PER_HOUSEHOLD * gen.CONVERSATIONS and kinds[False] > 0


def test_knowledge_updates_point_at_the_later_turn():
    """Each change is asked (the later turn only as evidence); its history question (multi-hop)
    holds the earlier turn, said on an earlier date, then the later one; the later turn does not
    name the old value."""
    data = gen.generate()
    turn = turns_by_id(data)
    updates = assert_updates_point_at_the_later_turn(data)
    assert len({q["evidence"][0] for q in updates}) == gen.CONVERSATIONS * gen.UPDATES_PER_HOUSEHOLD
    # the later turns' templates never name the old value
    old_slots = {"teacher": "teacher", "club": "day", "job": "e", "car": "car"}
    later = [(gen.CHANGING[x][2], old) for x, old in old_slots.items()] + [(gen.CAR_NEW, "colour")]
    later += [(gen.PLUMBER_NEW, "plumber"), (gen.CLEANER_MOVED, "cday")]
    for templates, old in later:
        for t in templates:
            assert "{" + old + "}" not in (" ".join(t) if isinstance(t, tuple) else t), (t, old)
    assert turn


def test_half_of_each_type_is_in_the_turns_words():
    """Every question but the open-domain ones (inferences) is the first (the turn's words) or the
    second (paraphrased) wording of its template; in each household, each type splits half and half."""
    tables = (gen.SINGLE, gen.BEFORE, gen.HISTORY, gen.AGGREGATE, gen.TEMPORAL, gen.OTHER)
    pairs = [v for table in tables for v in table.values() if v[1] != "{allergyq}"]
    pairs += [v for variants in gen.UPDATE.values() for v in variants] + [p[2] for p in gen.PREFERENCES]
    pairs += [*gen.NEVER_SAID, *(s[1] for s in gen.SUGGESTIONS)]
    # the allergy's paraphrase is the allergy's own question
    pairs += [("What is {n} allergic to?", a[1]) for a in gen.ALLERGIES]
    assert_half_in_the_turns_words(gen.generate(), pairs)


def _members(c: dict) -> list[str]:
    return [n for n in c["speakers"] if n != gen.ASSISTANT]


def _names_in(text: str, members: list[str]) -> set[str]:
    return {n for n in members if re.search(r"\b" + re.escape(n) + r"\b", text)}


def test_other_members_attributes_are_the_other_members_only():
    """An "other member's" question asks a member about another's club, appointment (its doctor) or
    car: no member's turn with that word names the asked member, or is the asked member's own
    without naming someone else; some member's turn holds it."""
    data = gen.generate()
    conv = {c["id"]: c for c in data["conversations"]}
    marks = {c[0]: c[0] for c in gen.CLUBS} | {c[1]: c[0] for c in gen.CLUBS}  # a club or its paraphrase
    marks |= {m: m for m in (*gen.DOCTORS, *gen.CARS)}
    asked = [q for q in data["questions"] if q.get("never") == "other member's"]
    assert len(asked) == gen.NEVER_KINDS["other member's"] * gen.CONVERSATIONS
    for q in asked:
        c = conv[q["conversation"]]
        members = _members(c)
        (who,) = [n for n in members if n in q["question"]]
        (mark,) = {m for w, m in marks.items() if re.search(r"\b" + re.escape(w) + r"\b", q["question"])}
        said = [
            t
            for s in c["sessions"]
            for t in s["turns"]
            if t["speaker"] != gen.ASSISTANT and re.search(r"\b" + re.escape(mark) + r"\b", t["text"])
        ]
        assert said, q
        for t in said:
            named = _names_in(t["text"], members)
            assert who not in named, (q, t)
            assert t["speaker"] != who or named - {who}, (q, t)


def test_assistant_only_suggestions_are_never_taken_up():
    """An "assistant only" question asks about a thing only the assistant suggested: its words are in
    an assistant's turn of the household and in no member's turn; the suggestion's venue is named
    nowhere else in the household."""
    data = gen.generate()
    conv = {c["id"]: c for c in data["conversations"]}
    asked = [q for q in data["questions"] if q.get("never") == "assistant only"]
    assert len(asked) == gen.NEVER_KINDS["assistant only"] * gen.CONVERSATIONS
    marks = {"tennis camp": 0, "Sunday roast": 1, "pottery painting": 2, "climbing": 3, "forest school": 4,
             "theatre workshop": 5}  # fmt: skip
    for q in asked:
        (j,) = {i for i, s in enumerate(gen.SUGGESTIONS) for v in s[1] if template_pattern(v).match(q["question"])}
        (mark,) = [m for m, i in marks.items() if i == j]
        turns = [t for s in conv[q["conversation"]]["sessions"] for t in s["turns"]]
        by = {t["speaker"] for t in turns if mark.lower() in t["text"].lower()}
        assert by == {gen.ASSISTANT}, q
        suggestion = next(t["text"] for t in turns if mark.lower() in t["text"].lower())
        (venue,) = [v for v in gen.VENUES if v in suggestion]
        assert sum(venue in t["text"] for t in turns) == 1


def test_its_names_and_places_are_not_in_the_other_data_sets():
    """Both ways: this set's members, teachers, schools, friends, doctors, cleaners, plumbers, pets,
    employers, towns, destinations, venues and cars are in none of the six other data sets (nor
    their generators' lists), and theirs are not in this one; the eighth (dev.json) came later and is
    checked here too."""
    assert_names_apart("family")


def test_the_loaders_read_it():
    """harness stores a turn as "Speaker: text" (the assistant's as "Assistant: text"); holdout.py
    reads it with --dataset family into a section of its own (retrieval_family), and features.py
    takes it by name."""
    assert_the_loaders_read_it("family")


def test_the_report_renders_it_only_once_read():
    """No results file holds retrieval_family yet: the report renders nothing for it; once one does,
    its section has a heading of its own and issue 26's bars."""
    assert_the_report_renders_it_only_once_read(
        "family", "### Retrieval on the seventh data set: a household assistant"
    )
