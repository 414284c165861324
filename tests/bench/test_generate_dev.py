"""The eighth retrieval data set (bench/retrieval/generate_dev.py): the committed file is what the
seed gives, a developer and a coding assistant talk over 24 to 34 dated sessions, its questions
point at the developer's turns of their own conversation, knowledge updates at the later turn, the
never-stored traps hold what they claim, no turn looks like a secret to Mnemo, its names stay apart
from the seven other sets (both ways), and the loaders and the report read it. Structural checks
only: nothing here searches it (it is kept unread, in reserve, for bench/retrieval/holdout.py to
judge a candidate rule registered before it is read)."""

import re
from collections import Counter

from bench.retrieval import generate_dev as gen
from tests.bench.datasets import (
    assert_evidence_is_said_by_a_user,
    assert_half_in_the_turns_words,
    assert_names_apart,
    assert_never_said_terms_are_nowhere,
    assert_questions_as_designed,
    assert_the_loaders_read_it,
    assert_the_report_renders_it_only_once_read,
    assert_the_seed_gives_the_committed_file,
    assert_updates_point_at_the_later_turn,
    template_index,
    template_pattern,
    turns_by_id,
    word_pattern,
)

PROJECTS = [name for name, _ in gen.PROJECT_NAMES]


def _projects_in(text: str) -> set[str]:
    return {p for p in PROJECTS if re.search(r"\b" + p + r"\b", text)}


def test_the_same_seed_gives_the_committed_file():
    assert_the_seed_gives_the_committed_file(gen, "dev.json")


def test_its_shape():
    """10 developers, each with the assistant, 24 to 34 dated sessions, 3,000 to 5,000 turns in
    all; short requests and replies mixed with the facts; the questions of holdout.TYPES in the
    counts the generator names, 400 to 500 of them, 100 never stored."""
    data = gen.generate()
    assert len(data["conversations"]) == gen.CONVERSATIONS
    assert len({c["speakers"][0] for c in data["conversations"]}) == gen.CONVERSATIONS
    for c in data["conversations"]:
        assert len(c["speakers"]) == 2 and c["speakers"][1] == gen.ASSISTANT
        assert 24 <= len(c["sessions"]) <= 34
        dates = [s["date"] for s in c["sessions"]]
        assert dates == sorted(set(dates))  # one session a day, in order
        for s in c["sessions"]:
            for i, t in enumerate(s["turns"], 1):
                assert t["id"] == f"{c['id']}:D{s['session']}:{i}" and t["speaker"] in c["speakers"]
        assert {t["speaker"] for s in c["sessions"] for t in s["turns"]} == set(c["speakers"])
    turns = [t for c in data["conversations"] for s in c["sessions"] for t in s["turns"]]
    assert 3000 <= len(turns) <= 5000
    words = [len(t["text"].split()) for t in turns]
    assert sum(w <= 7 for w in words) / len(words) > 0.3  # "Lunch, back in an hour", "Got it."
    assert sum(w >= 15 for w in words) / len(words) > 0.08  # the facts and the longer answers
    assert 0.4 < sum(t["speaker"] == gen.ASSISTANT for t in turns) / len(turns) < 0.5
    assert_questions_as_designed(gen, data)
    counts = Counter(q["type"] for q in data["questions"])
    assert 400 <= sum(counts.values()) <= 500 and counts["adversarial"] == 100


def test_every_evidence_id_is_the_developers_turn_of_its_conversation():
    assert_evidence_is_said_by_a_user(gen, gen.generate())


def test_every_project_fact_names_its_project():
    """A question that names a project has evidence naming that project (one fact, one project):
    the same attribute of another project is in another turn."""
    data = gen.generate()
    turn = turns_by_id(data)
    for q in data["questions"]:
        named = _projects_in(q["question"])
        for e in q["evidence"]:
            said = _projects_in(turn[e]["text"])
            assert len(said) <= 1, turn[e]
            assert not named or said <= named, (q, turn[e])


def test_dates_are_in_the_turns():
    """Releases are dated ahead, absolutely ("on 14 May") mostly and relative to the session ("next
    Thursday") at times; errors and changes are dated in the past ("yesterday", "on 3 May")."""
    data = gen.generate()
    text = {i: t["text"] for i, t in turns_by_id(data).items()}
    months = "|".join(gen.MONTHS)
    temporal = [text[q["evidence"][0]] for q in data["questions"] if q["type"] == "temporal"]
    releases = [t for t in temporal if re.search(r"\bv\d+\.\d+\.0\b", t)]
    absolute = [t for t in releases if re.search(rf"\bon \d{{1,2}} ({months})\b", t)]
    assert 0 < len(absolute) < len(releases)
    past = [t for t in temporal if t not in releases]
    assert past and any(re.search(rf"\bon \d{{1,2}} ({months})\b", t) for t in past)
    assert any(re.search(r"\b(yesterday|this morning|last week)\b", t) for t in past)


def test_multi_hop_spans_turns():
    """A history question's two turns are said in different sessions; the others hold two projects'
    turns, both projects named in the question."""
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
        else:
            assert _projects_in(a["text"]) | _projects_in(b["text"]) == _projects_in(q["question"]), q
            assert len(_projects_in(q["question"])) == 2, q
    assert kinds[True] == gen.UPDATES_PER_DEVELOPER * gen.CONVERSATIONS and kinds[False] > 0


def test_knowledge_updates_point_at_the_later_turn():
    """Each change is asked (the later turn only as evidence); its history question (multi-hop)
    holds the earlier turn, said on an earlier date, then the later one; the later turn does not
    name the old value."""
    data = gen.generate()
    updates = assert_updates_point_at_the_later_turn(data)
    assert len({q["evidence"][0] for q in updates}) == gen.CONVERSATIONS * gen.UPDATES_PER_DEVELOPER
    old_slots = {"lver": ["lver"], "tool": ["tool", "lock"], "port": ["port"], "ci": ["ci", "cipath"],
                 "deploy": ["dep"], "editor": ["editor"], "oncall": ["oday"], "lead": ["lead", "lead_f"]}  # fmt: skip
    assert set(old_slots) == set(gen.CHANGING)
    for x, olds in old_slots.items():
        for template in gen.CHANGING[x][2]:
            for old in olds:
                assert "{" + old + "}" not in template, (template, old)


def _pairs() -> list[tuple[str, str]]:
    """Every question template's two wordings: (in the turns' words, paraphrased)."""
    tables = (gen.SINGLE, gen.BEFORE, gen.HISTORY, gen.AGGREGATE, gen.TEMPORAL)
    pairs = [v for table in tables for v in table.values()]
    pairs += [v for variants in gen.UPDATE.values() for v in variants] + [p[2] for p in gen.PREFERENCES]
    pairs += [v[:2] for v in gen.NEVER_SAID] + [s[2] for s in gen.SUGGESTIONS]
    return pairs


def test_half_of_each_type_is_in_the_turns_words():
    """Every question but the open-domain ones (inferences) is the first (the turn's words) or the
    second (paraphrased) wording of its template; for each developer, each type splits half and half."""
    assert_half_in_the_turns_words(gen.generate(), _pairs())


def test_identifiers_are_asked_verbatim():
    """Some questions carry an identifier exactly as its turn has it (a port, a path, an
    environment variable, a database or repo name, an error, a version): keyword matching finds
    them; an embedding has to carry them."""
    data = gen.generate()
    turn = turns_by_id(data)
    identifier = re.compile(r"[\w./@-]*(?:\d|_|/|\.[a-z])[\w./@-]*")
    verbatim = []
    for q in data["questions"]:
        found = [x for x in identifier.findall(q["question"]) if len(x) > 2]
        if q["evidence"] and any(x.rstrip("?.") in turn[q["evidence"][-1]]["text"] for x in found):
            verbatim.append(q)
    assert len(verbatim) >= 40
    assert {q["type"] for q in verbatim} >= {"single-hop", "temporal"}


def test_never_said_terms_are_nowhere_in_the_conversation():
    """A "never said" question's key terms (in either wording) are in no turn of its conversation,
    the developer's or the assistant's."""
    assert_never_said_terms_are_nowhere(gen)


def test_other_projects_extras_are_the_other_projects_only():
    """An "other project's" question asks about a project's extra (a RabbitMQ queue, a cron job, a
    LaunchDarkly flag, an S3 bucket, a webhooks path, a gRPC port) that another project of the
    developer has: the word that marks it is in the owner's turn, and in no turn that names the
    asked project."""
    data = gen.generate()
    conv = {c["id"]: c for c in data["conversations"]}
    asked = [q for q in data["questions"] if q.get("never") == "other project's"]
    assert len(asked) == gen.NEVER_KINDS["other project's"] * gen.CONVERSATIONS
    extras = [v[3] for v in gen.EXTRAS.values()]
    marks = [v[2] for v in gen.EXTRAS.values()]
    for q in asked:
        mark = marks[template_index(q["question"], extras)]
        (who,) = _projects_in(q["question"])
        turns = [t for s in conv[q["conversation"]]["sessions"] for t in s["turns"]]
        said = [t for t in turns if t["speaker"] != gen.ASSISTANT and word_pattern(mark).search(t["text"])]
        assert said, q
        for t in turns:
            assert not (word_pattern(mark).search(t["text"]) and who in _projects_in(t["text"])), (q, t)


def test_assistant_only_suggestions_are_never_taken_up():
    """An "assistant only" question asks about a tool only the assistant suggested: its word is in
    one assistant's turn of the conversation and in no other turn, and the developer declines."""
    data = gen.generate()
    conv = {c["id"]: c for c in data["conversations"]}
    asked = [q for q in data["questions"] if q.get("never") == "assistant only"]
    assert len(asked) == gen.NEVER_KINDS["assistant only"] * gen.CONVERSATIONS
    for q in asked:
        mark, suggestion, _ = gen.SUGGESTIONS[template_index(q["question"], [s[2] for s in gen.SUGGESTIONS])]
        turns = [t for s in conv[q["conversation"]]["sessions"] for t in s["turns"]]
        (i,) = [i for i, t in enumerate(turns) if word_pattern(mark).search(t["text"])]
        assert turns[i]["speaker"] == gen.ASSISTANT and template_pattern(suggestion).match(turns[i]["text"]), q
        assert _projects_in(turns[i]["text"]) == _projects_in(q["question"]), q
        assert turns[i + 1]["speaker"] != gen.ASSISTANT and turns[i + 1]["text"] in gen.DECLINES


def test_no_turn_looks_like_a_secret():
    """Mnemo refuses to store credentials: the keys are named (``QHL_STRIPE_SECRET_KEY``), never
    given, and no turn trips the secret scanner, so every turn can be stored through remember."""
    from core.secrets import secret_kind

    data = gen.generate()
    assert not [t for t in turns_by_id(data).values() if secret_kind(t["text"])]


def test_its_names_are_not_in_the_other_data_sets():
    """Both ways: this set's developers, teammates, companies and projects are in none of the seven
    other data sets (nor their generators' lists), and theirs are not in this one."""
    assert_names_apart("dev")


def test_the_loaders_read_it():
    """harness stores a turn as "Speaker: text" (the assistant's as "Assistant: text"); holdout.py
    reads it with --dataset dev into a section of its own (retrieval_dev), and features.py takes it
    by name."""
    assert_the_loaders_read_it("dev")


def test_the_report_renders_it_only_once_read():
    """No results file holds retrieval_dev (it is unread): the report renders nothing for it; once
    one does, its section has a heading of its own and issue 26's bars."""
    assert_the_report_renders_it_only_once_read(
        "dev", "### Retrieval on the eighth data set: a developer's coding assistant"
    )
