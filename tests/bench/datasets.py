"""Checks every generated retrieval data set's tests share (tests/bench/test_generate_*.py)."""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from types import ModuleType
from typing import Any

from bench.retrieval.generated import render
from tests.bench.test_generate_assistant import RETRIEVAL


def assert_the_seed_gives_the_committed_file(gen: ModuleType, filename: str) -> None:
    """The generator's seed renders ``bench/retrieval/<filename>`` byte for byte; another seed does not."""
    text = render(gen.generate())
    assert hashlib.sha256(text.encode()).hexdigest() == hashlib.sha256((RETRIEVAL / filename).read_bytes()).hexdigest()
    assert render(gen.generate(gen.SEED + 1)) != text


def assert_updates_point_at_the_later_turn(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Each knowledge-update question has the later turn only as evidence; its history question
    (multi-hop, the same conversation) holds the earlier turn, said on an earlier date, then the
    later one. Returns the update questions (each test counts them its own way)."""
    day = {t["id"]: s["date"] for c in data["conversations"] for s in c["sessions"] for t in s["turns"]}
    updates = [q for q in data["questions"] if q["type"] == "knowledge-update"]
    for q in updates:
        (latest,) = q["evidence"]
        history = [
            p["evidence"]
            for p in data["questions"]
            if p["conversation"] == q["conversation"] and p["type"] == "multi-hop" and latest in p["evidence"]
        ]
        assert len(history) == 1 and len(history[0]) == 2 and history[0][1] == latest, q
        assert day[latest] > day[history[0][0]]
    return updates


def turns_by_id(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Every turn of ``data`` by its id, with its session's number."""
    return {
        t["id"]: t | {"session": s["session"]} for c in data["conversations"] for s in c["sessions"] for t in s["turns"]
    }


def assert_questions_as_designed(gen: ModuleType, data: dict[str, Any]) -> None:
    """The questions are the generator's PER_CONVERSATION of each type and NEVER_KINDS of each
    never-stored kind in every conversation, of holdout's types, their ids unique, and evidence
    a small share of the turns (most turns are requests, replies and chatter)."""
    from collections import Counter

    from bench.retrieval import holdout

    counts = Counter(q["type"] for q in data["questions"])
    assert set(counts) == set(holdout.TYPES)
    assert counts == Counter({t: n * gen.CONVERSATIONS for t, n in gen.PER_CONVERSATION.items()}) + Counter(
        {"adversarial": sum(gen.NEVER_KINDS.values()) * gen.CONVERSATIONS}
    )
    assert Counter(q["never"] for q in data["questions"] if "never" in q) == Counter(
        {k: n * gen.CONVERSATIONS for k, n in gen.NEVER_KINDS.items()}
    )
    assert len({q["id"] for q in data["questions"]}) == len(data["questions"])
    evidence = {e for q in data["questions"] for e in q["evidence"]}
    assert len(evidence) < len(turns_by_id(data)) / 10


def assert_evidence_is_said_by_a_user(gen: ModuleType, data: dict[str, Any]) -> None:
    """Every answerable question's evidence is turns of its own conversation said by someone other
    than the assistant (its replies only echo), several only for multi-hop; never-stored questions
    have none and name their kind."""
    owner = {t["id"]: c["id"] for c in data["conversations"] for s in c["sessions"] for t in s["turns"]}
    turn = turns_by_id(data)
    for q in data["questions"]:
        assert bool(q["evidence"]) == (q["type"] != "adversarial"), q
        assert (q.get("never") in gen.NEVER_KINDS) == (q["type"] == "adversarial"), q
        assert all(owner[e] == q["conversation"] for e in q["evidence"]), q
        assert all(turn[e]["speaker"] != gen.ASSISTANT for e in q["evidence"]), q
        assert len(set(q["evidence"])) == len(q["evidence"]), q
        assert (len(q["evidence"]) > 1) == (q["type"] == "multi-hop"), q


def template_pattern(template: str) -> re.Pattern:
    """A question template ("What did {n} say about {thing}?") as a regular expression that matches
    any question written from it."""
    return re.compile("^" + re.sub(r"\\\{[a-z0-9_]+\\\}", ".+", re.escape(template)) + "$")


def assert_half_in_the_turns_words(data: dict[str, Any], pairs: Iterable[Sequence[str]]) -> None:
    """Every question but the open-domain ones (inferences) is written from the first (the turn's
    words) or the second (paraphrased) template of one of ``pairs``, never both; within each
    conversation, each type splits half and half (one apart at most)."""
    patterns = [(template_pattern(a), template_pattern(b)) for a, b in pairs]
    styles: dict[tuple[str, str], Counter] = {}
    for q in data["questions"]:
        if q["type"] == "open-domain":
            continue
        words = any(a.match(q["question"]) for a, _ in patterns)
        paraphrased = any(b.match(q["question"]) for _, b in patterns)
        assert words != paraphrased, q
        styles.setdefault((q["conversation"], q["type"]), Counter())[words] += 1
    assert styles
    for key, count in styles.items():
        assert abs(count[True] - count[False]) <= 1, (key, count)


#: Each generated set's file, by the short name the tests use.
FILES = {
    "mnemo": "conversations.json",
    "chat": "chat.json",
    "assistant": "assistant.json",
    "notes": "notes.json",
    "team": "team.json",
    "life": "life.json",
    "family": "family.json",
    "dev": "dev.json",
    "coach": "coach.json",
}
_TITLES = ("Mrs ", "Mr ", "Ms ", "Miss ", "Dr ", "Grandpa ", "Nana ")


def bare(values: Iterable[str]) -> list[str]:
    """People's names without their titles ("Mrs Gorringe" as "Gorringe", "Grandpa Albion" as "Albion")."""
    return [next((v.removeprefix(t) for t in _TITLES if v.startswith(t)), v) for v in values]


def _first(values: Iterable[Any]) -> list[str]:
    return [v[0] if isinstance(v, tuple) else v for v in values]


def generator_names(name: str) -> list[str]:
    """The names and places a set's generator draws from (people, pets, towns, employers, projects…),
    which no other set may hold: each set's own list, written once for every set's test."""
    from bench.retrieval import generate as mnemo
    from bench.retrieval import generate_assistant as assistant
    from bench.retrieval import generate_chat as chat
    from bench.retrieval import generate_coach as coach
    from bench.retrieval import generate_dev as dev
    from bench.retrieval import generate_family as family
    from bench.retrieval import generate_life as life
    from bench.retrieval import generate_notes as notes
    from bench.retrieval import generate_team as team

    if name == "mnemo":
        return [*_first(mnemo.NAMES), *_first(mnemo.CITIES), *mnemo.PET_NAMES, *mnemo.RELATIVE_NAMES, *mnemo.BANDS,
                *mnemo.BOOKS]  # fmt: skip
    if name == "chat":
        return list(chat.NAMES)
    if name in ("assistant", "notes"):
        g = assistant if name == "assistant" else notes
        extra = [*assistant.CARS] if name == "assistant" else [*notes.PARTNERS, *notes.SCHOOLS]
        return [*g.NAMES, *g.OTHERS, *g.CITIES, *g.EMPLOYERS, *g.DESTINATIONS, *(n for _, n in (*g.PETS, *g.CHILDREN)),
                *extra]  # fmt: skip
    if name == "team":
        return [*team.NAMES, *team.CODENAMES, *team.VENDORS, *_first(team.CUSTOMERS), *_first(team.OFFICES)]
    if name == "life":
        return [*life.NAMES, *life.FEMALE, *life.MALE, *life.PET_NAMES, *_first(life.EMPLOYERS), *life.TOWNS,
                *_first(life.DESTINATIONS), *(b[0] for b in life.BOOKS), *(b[1] for b in life.BOOKS)]  # fmt: skip
    if name == "family":
        f = family
        return [*f.ADULTS, *f.KIDS, *bare(f.ELDERS), *bare(f.TEACHERS), *f.SCHOOLS, *f.FRIENDS, *bare(f.DOCTORS),
                *f.CLEANERS, *f.PLUMBERS, *f.PET_NAMES, *_first(f.EMPLOYERS), *f.TOWNS, *_first(f.DESTINATIONS),
                *f.VENUES, *f.CARS]  # fmt: skip
    if name == "dev":
        return [*dev.DEVELOPERS, *dev.FIRST, *dev.LAST, *_first(dev.COMPANIES), *_first(dev.PROJECT_NAMES)]
    if name == "coach":
        return [*coach.CLIENTS, *coach.FIRST, *coach.LAST, *coach.GYMS, *coach.PLACES]
    raise KeyError(name)


def assert_names_apart(name: str) -> list[str]:
    """Both ways, file by file: set ``name``'s generator names are in no other set's file, and no
    other set's generator names are in its file. And its names are neither one of the lists of the
    sets built before it (FILES is in build order) nor a word of them, as each set's test checked
    when it was built: a later list may hold a word of an earlier one that neither file uses (family's
    unused "Sandpiper Primary" and team's codename Sandpiper), which the files' check covers. Returns
    its names."""
    from tests.bench.test_generate_assistant import clashes

    values = generator_names(name)
    assert values
    assert not clashes(values, tuple(f for other, f in FILES.items() if other != name))
    assert not clashes([v for other in FILES if other != name for v in generator_names(other)], (FILES[name],))
    earlier = [v for other in list(FILES)[: list(FILES).index(name)] for v in generator_names(other)]
    words = {v.lower() for v in values}
    assert not [v for v in earlier if v.lower() in words]
    joined = " ".join(earlier).lower()
    assert not [v for v in values if re.search(r"\b" + re.escape(v.lower()) + r"\b", joined)]
    return values


def fake_holdout_result(name: str) -> dict[str, Any]:
    """A made-up result of the shape holdout.evaluate writes for set ``name`` (no search: the numbers
    are invented)."""
    from bench.retrieval import holdout

    row = {"r5": 0.5, "r10": 0.75, "mrr": 0.5, "n": 2}
    mode = {
        "table": {"single-hop": row, "all": row},
        "table_at_floor": {"single-hop": row, "all": row},
        "silence_rate": 0.0,
        "silence_by_kind": {"never said": 0.0},
        "false_empty_rate": 0.0,
    }
    head = {"conversations": 8, "turns": 10, "questions": 3, "answerable": 2, "floor": 0.01, "common_share": 0.02}
    return {"dataset": name, **head, **{m: mode for m in holdout.MODES}}


def assert_the_loaders_read_it(name: str) -> None:
    """harness finds set ``name`` by its short name and stores a turn as "Speaker: text"; holdout.py
    reads it into a section of its own (retrieval_<name>); every conversation has questions."""
    from bench.retrieval import harness, holdout

    assert harness.DATASETS[name] == RETRIEVAL / FILES[name]
    data = harness.dataset(name)
    turn = data["conversations"][0]["sessions"][0]["turns"][0]
    assert harness.turn_text(turn) == f"{turn['speaker']}: {turn['text']}"
    assert holdout.SECTIONS[name] == f"retrieval_{name}"
    assert {q["conversation"] for q in data["questions"]} == {c["id"] for c in data["conversations"]}


def assert_the_report_renders_it_only_once_read(name: str, heading: str) -> None:
    """With no results file holding retrieval_<name> the report renders nothing for it; once one
    does, its section starts with ``heading`` and has issue 26's bars."""
    from bench.retrieval import bench

    assert not any(heading in line for line in bench.render_sections({}))
    lines = bench.render_sections({f"retrieval_{name}": fake_holdout_result(name)})
    assert lines[0].startswith(heading)
    assert any(line.startswith("Issue 26's bars on this set") for line in lines)


def word_pattern(term: str) -> re.Pattern:
    """``term`` as a whole word (a hyphen binds: "pre-commit" is not "commit"), any case."""
    return re.compile(r"(?<![\w-])" + re.escape(term) + r"(?![\w-])", re.IGNORECASE)


def template_index(question: str, table: Sequence[Sequence[str]]) -> int:
    """The one row of ``table`` whose first or second template wrote ``question``."""
    (index,) = {i for i, row in enumerate(table) for v in row[:2] if template_pattern(v).match(question)}
    return index


def said_nowhere(conversation: dict[str, Any], terms: Sequence[str]) -> bool:
    """No turn of the conversation, anyone's, holds any of ``terms`` as a word."""
    return not any(
        word_pattern(x).search(t["text"]) for s in conversation["sessions"] for t in s["turns"] for x in terms
    )


def assert_never_said_terms_are_nowhere(gen: ModuleType) -> None:
    """Each "never said" question (rows of ``gen.NEVER_SAID``: two wordings, then its key terms)
    holds one of its key terms, and no turn of its conversation holds any."""
    data = gen.generate()
    conv = {c["id"]: c for c in data["conversations"]}
    asked = [q for q in data["questions"] if q.get("never") == "never said"]
    assert len(asked) == gen.NEVER_KINDS["never said"] * gen.CONVERSATIONS
    for q in asked:
        terms = gen.NEVER_SAID[template_index(q["question"], gen.NEVER_SAID)][2]
        assert any(word_pattern(term).search(q["question"]) for term in terms), q
        assert said_nowhere(conv[q["conversation"]], terms), q
