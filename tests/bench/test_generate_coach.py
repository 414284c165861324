"""The ninth retrieval data set (bench/retrieval/generate_coach.py): the committed file is what the
seed gives, a client and an AI coach talk over 20 to 30 dated sessions, its questions point at the
client's turns of their own conversation, a measurement's history holds every value's turn in
order and its update question the latest only, questions "in a month" name one turn, the
never-stored traps hold what they claim, no turn looks like a secret to Mnemo, its names stay
apart from the eight other sets (both ways), and the loaders and the report read it. Structural
checks only: nothing here searches it (it is kept unread, in reserve, for
bench/retrieval/holdout.py to judge a candidate rule registered before it is read)."""

import re
from collections import Counter
from datetime import date

from bench.retrieval import generate_coach as gen
from tests.bench.datasets import (
    assert_evidence_is_said_by_a_user,
    assert_half_in_the_turns_words,
    assert_names_apart,
    assert_never_said_terms_are_nowhere,
    assert_questions_as_designed,
    assert_the_loaders_read_it,
    assert_the_report_renders_it_only_once_read,
    assert_the_seed_gives_the_committed_file,
    said_nowhere,
    template_index,
    template_pattern,
    turns_by_id,
    word_pattern,
)

#: a measurement's value in its turn: a number not part of a word ("1RM", "5k"), with its unit if any
VALUE = re.compile(r"(?<![\w.])\d[\d,.:/]*(?![\w])(?: (?:kg|bpm|km|hours|steps|mg|micrograms)\b)?")


def _value(text: str) -> str:
    return VALUE.findall(text)[0].rstrip(".,:/")


def _number(value: str) -> float:
    """A value as a number to order by: seconds for a time, the systolic for a blood pressure."""
    head = value.split()[0].replace(",", "")
    if ":" in head:
        minutes, seconds = head.split(":")
        return 60 * int(minutes) + int(seconds)
    return float(head.split("/")[0])


def _metric(question: str, table: str) -> str | None:
    """The measurement whose ``table`` questions (either wording) ``question`` is, if any."""
    rows = {m: spec[table] if isinstance(spec[table], list) else [spec[table]] for m, spec in gen.METRICS.items()}
    found = {m for m, pairs in rows.items() for pair in pairs for v in pair if template_pattern(v).match(question)}
    assert len(found) <= 1, (question, found)
    return next(iter(found), None)


def _histories(data: dict) -> dict[tuple[str, str], list[str]]:
    """Each conversation's measurement histories: (conversation, metric) -> evidence, in order."""
    out = {}
    for q in data["questions"]:
        if q["type"] == "multi-hop" and (m := _metric(q["question"], "history_q")):
            assert (q["conversation"], m) not in out, q
            out[q["conversation"], m] = q["evidence"]
    return out


def test_the_same_seed_gives_the_committed_file():
    assert_the_seed_gives_the_committed_file(gen, "coach.json")


def test_its_shape():
    """10 clients, each with the coach, 20 to 30 dated sessions, 300 to 500 turns each and 3,000 to
    5,000 in all; short chatter mixed with the facts and wordy answers; the questions of
    holdout.TYPES in the counts the generator names, 490 of them, 100 never stored."""
    data = gen.generate()
    assert len(data["conversations"]) == gen.CONVERSATIONS
    assert len({c["speakers"][0] for c in data["conversations"]}) == gen.CONVERSATIONS
    for c in data["conversations"]:
        assert len(c["speakers"]) == 2 and c["speakers"][1] == gen.ASSISTANT
        assert 20 <= len(c["sessions"]) <= 30
        dates = [s["date"] for s in c["sessions"]]
        assert dates == sorted(set(dates)) and all(d.startswith("2026-") for d in dates)
        for s in c["sessions"]:
            for i, t in enumerate(s["turns"], 1):
                assert t["id"] == f"{c['id']}:D{s['session']}:{i}" and t["speaker"] in c["speakers"]
        assert {t["speaker"] for s in c["sessions"] for t in s["turns"]} == set(c["speakers"])
        assert 300 <= sum(len(s["turns"]) for s in c["sessions"]) <= 500
    turns = [t for c in data["conversations"] for s in c["sessions"] for t in s["turns"]]
    assert 3000 <= len(turns) <= 5000
    words = [len(t["text"].split()) for t in turns]
    assert sum(w <= 7 for w in words) / len(words) > 0.3  # "Running late today", "Noted."
    assert sum(w >= 15 for w in words) / len(words) > 0.08  # the facts and the wordy answers
    assert 0.4 < sum(t["speaker"] == gen.ASSISTANT for t in turns) / len(turns) < 0.5
    assert_questions_as_designed(gen, data)
    counts = Counter(q["type"] for q in data["questions"])
    assert sum(counts.values()) == 490 and counts["adversarial"] == 100


def test_every_evidence_id_is_the_clients_turn_of_its_conversation():
    assert_evidence_is_said_by_a_user(gen, gen.generate())


def test_a_history_holds_every_value_in_order():
    """Each client has five measurement histories (weight and dose, three more), every one asked:
    two to six of the client's turns on different sessions, in date order, each with its own value,
    the values moving one way (a PB only improves); the coach's echo of a value is never evidence."""
    data = gen.generate()
    turn = turns_by_id(data)
    day = {t["id"]: s["date"] for c in data["conversations"] for s in c["sessions"] for t in s["turns"]}
    histories = _histories(data)
    assert len(histories) == gen.CONVERSATIONS * (2 + gen.MORE_SERIES)
    lengths = Counter()
    for (cid, m), evidence in histories.items():
        assert 2 <= len(evidence) <= 6, (cid, m)
        assert [day[e] for e in evidence] == sorted({day[e] for e in evidence}), (cid, m)
        values = [_value(turn[e]["text"]) for e in evidence]
        assert len(set(values)) == len(values), values
        if m != "dose":
            numbers = [_number(v) for v in values]
            assert numbers in (sorted(numbers), sorted(numbers, reverse=True)), (m, values)
        lengths[m, len(evidence)] += 1
    assert {m for m, _ in lengths} == set(gen.METRICS)
    assert any(m == "weight" and k >= 5 for m, k in lengths)  # weight logged up to six times


def test_knowledge_updates_point_at_the_latest_turn():
    """Each update question has one turn as evidence: the last of its measurement's history (every
    history is asked at least once); the latest turn names none of the earlier values."""
    data = gen.generate()
    turn = turns_by_id(data)
    histories = _histories(data)
    latest = {evidence[-1]: key for key, evidence in histories.items()}
    updates = [q for q in data["questions"] if q["type"] == "knowledge-update"]
    for q in updates:
        (e,) = q["evidence"]
        assert e in latest, q
        assert latest[e] == (q["conversation"], _metric(q["question"], "now_q")), q
    assert {q["evidence"][0] for q in updates} == set(latest)
    for evidence in histories.values():
        last = turn[evidence[-1]]["text"]
        for e in evidence[:-1]:
            assert not re.search(r"(?<![\w.])" + re.escape(_value(turn[e]["text"])) + r"(?![\w])", last), last


def test_a_month_names_one_turn():
    """A question about a value "in March" has as evidence the one turn of that measurement said in
    a session of March; a question about the first value, the history's first turn."""
    data = gen.generate()
    day = {t["id"]: date.fromisoformat(s["date"]) for c in data["conversations"] for s in c["sessions"]
           for t in s["turns"]}  # fmt: skip
    histories = _histories(data)
    asked = Counter()
    for q in data["questions"]:
        if m := _metric(q["question"], "month_q"):
            (e,) = q["evidence"]
            month = next(i for i, name in enumerate(gen.MONTHS, 1) if re.search(rf"\b{name}\b", q["question"]))
            history = histories[q["conversation"], m]
            assert e in history and day[e].month == month, q
            assert [day[h].month for h in history].count(month) == 1, q
            asked["month"] += 1
        if m := _metric(q["question"], "first_q"):
            assert q["evidence"] == histories[q["conversation"], m][:1], q
            asked["first"] += 1
    assert asked["month"] >= 10 and asked["first"] >= 10


def test_temporal_questions_ask_when():
    """Temporal questions ask when: a measurement's value (its turn, dated by its session), the race
    (dated ahead in the turn, "on 7 April") or the injury (dated in the past, "yesterday")."""
    data = gen.generate()
    turn = turns_by_id(data)
    months = "|".join(gen.MONTHS)
    kinds = Counter()
    for q in data["questions"]:
        if q["type"] != "temporal":
            continue
        assert q["question"].startswith(("When ", "On what date ")), q
        text = turn[q["evidence"][0]]["text"]
        if m := _metric(q["question"], "when_q"):
            assert _value(text).split()[0] in q["question"], (q, text)  # the unit may be paraphrased
            kinds[m] += 1
        elif "race" in q["question"] or re.search(r"\b(Marathon|Mile|Trail|Fell)\b", q["question"]):
            assert re.search(rf"\bon \d{{1,2}} ({months})\b", text), text
            kinds["race"] += 1
        else:
            assert re.search(rf"\b(yesterday|this morning|on Saturday|at the weekend|last night|on \d{{1,2}} "
                             rf"({months}))\b", text), text  # fmt: skip
            kinds["injury"] += 1
    assert len(kinds) >= 5


def _pairs() -> list[tuple[str, str]]:
    """Every question template's two wordings: (in the turns' words, paraphrased)."""
    pairs = [*gen.SINGLE.values(), *gen.TEMPORAL.values(), *(v for _, v in gen.PAIRS)]
    for spec in gen.METRICS.values():
        pairs += [spec[x] for x in ("first_q", "month_q", "history_q", "when_q")] + spec["now_q"]
        pairs.append(spec["other"][:2])
    pairs += [p[2] for p in gen.PREFERENCES] + [v[:2] for v in gen.NEVER_SAID] + [s[2] for s in gen.SUGGESTIONS]
    return pairs


def test_half_of_each_type_is_in_the_turns_words():
    """Every question but the open-domain ones (inferences) is the first (the turn's words) or the
    second (paraphrased) wording of its template; for each client, each type splits half and half."""
    assert_half_in_the_turns_words(gen.generate(), _pairs())


def test_never_said_terms_are_nowhere_in_the_conversation():
    """A "never said" question's key terms (in either wording) are in no turn of its conversation,
    the client's or the coach's."""
    assert_never_said_terms_are_nowhere(gen)


def test_other_metrics_are_near_a_measurement_never_given():
    """An "other metric" question asks the near neighbour of one of the client's measurements (the
    deadlift beside the squat, the 10k beside the 5k): the client gives that measurement (its
    history is asked), and the neighbour's terms are in no turn of the conversation."""
    data = gen.generate()
    conv = {c["id"]: c for c in data["conversations"]}
    histories = _histories(data)
    asked = [q for q in data["questions"] if q.get("never") == "other metric"]
    assert len(asked) == gen.NEVER_KINDS["other metric"] * gen.CONVERSATIONS
    others = [spec["other"] for spec in gen.METRICS.values()]
    for q in asked:
        m = list(gen.METRICS)[template_index(q["question"], others)]
        assert (q["conversation"], m) in histories, q
        terms = gen.METRICS[m]["other"][2]
        assert any(word_pattern(term).search(q["question"]) for term in terms), q
        assert said_nowhere(conv[q["conversation"]], terms), q


def test_coach_only_suggestions_are_never_taken_up():
    """A "coach only" question asks about something only the coach suggested: its words are in one
    coach's turn of the conversation and in no other turn, and the client declines."""
    data = gen.generate()
    conv = {c["id"]: c for c in data["conversations"]}
    asked = [q for q in data["questions"] if q.get("never") == "coach only"]
    assert len(asked) == gen.NEVER_KINDS["coach only"] * gen.CONVERSATIONS
    for q in asked:
        mark, suggestion, _ = gen.SUGGESTIONS[template_index(q["question"], [s[2] for s in gen.SUGGESTIONS])]
        turns = [t for s in conv[q["conversation"]]["sessions"] for t in s["turns"]]
        (i,) = [i for i, t in enumerate(turns) if word_pattern(mark).search(t["text"])]
        assert turns[i]["speaker"] == gen.ASSISTANT and turns[i]["text"] == suggestion, q
        assert turns[i + 1]["speaker"] != gen.ASSISTANT and turns[i + 1]["text"] in gen.DECLINES


def test_no_turn_looks_like_a_secret():
    """Mnemo refuses to store credentials: no turn trips the secret scanner (doses, blood pressures
    and times included), so every turn can be stored through remember."""
    from core.secrets import secret_kind

    data = gen.generate()
    assert not [t for t in turns_by_id(data).values() if secret_kind(t["text"])]


def test_its_names_are_not_in_the_other_data_sets():
    """Both ways: this set's clients, partners, physios, doctors, gyms and places (races, routes) are
    in none of the eight other data sets (nor their generators' lists), and theirs are not in this
    one."""
    assert_names_apart("coach")


def test_the_loaders_read_it():
    """harness stores a turn as "Speaker: text" (the coach's as "Coach: text"); holdout.py reads it
    with --dataset coach into a section of its own (retrieval_coach), and features.py takes it by
    name."""
    assert_the_loaders_read_it("coach")


def test_the_report_renders_it_only_once_read():
    """No results file holds retrieval_coach (it is unread): the report renders nothing for it; once
    one does, its section has a heading of its own and issue 26's bars."""
    assert_the_report_renders_it_only_once_read(
        "coach", "### Retrieval on the ninth data set: a fitness coach's clients"
    )
