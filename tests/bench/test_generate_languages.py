"""The languages data set (bench/retrieval/generate_languages.py): the committed file is what the seed
gives, its four languages are translations of one another turn for turn and question for question,
each question's evidence turn holds its answer in that language, and the section the benchmark
writes renders. Structural checks only: bench/retrieval/multilingual.py searches it."""

import random
import re

import pytest

from bench.retrieval import generate_languages as gen
from bench.retrieval import harness, languages, multilingual
from bench.retrieval.languages import en
from tests.bench.datasets import assert_the_seed_gives_the_committed_file

DATA = gen.generate()


def test_the_same_seed_gives_the_committed_file():
    assert_the_seed_gives_the_committed_file(gen, "languages.json")
    assert harness.DATASETS["languages"].name == "languages.json"


@pytest.mark.parametrize("module", gen.LANGUAGES[1:], ids=lambda m: m.CODE)
def test_each_language_has_every_wording_english_has(module):
    assert languages.check(module, en, set(gen.PROPER)) == []
    # translated, not copied: no chatter line and no question template as in English
    assert not set(module.FILLER) & set(en.FILLER)
    assert all(module.FACTS[k]["ask"] != en.FACTS[k]["ask"] for k in en.FACTS)


def test_the_check_finds_what_a_module_lacks():
    """languages.check can fail: a slot short of a value, a lost fact kind, a form no value has."""

    class Broken:
        SLOTS = {**en.SLOTS, "pet": en.SLOTS["pet"][:-1]}
        FACTS = {k: v for k, v in en.FACTS.items() if k != "book"} | {
            "pet": en.FACTS["pet"] | {"echo": "{pet[le]} {nowhere}"}
        }
        FILLER = en.FILLER[:-1]

    problems = " | ".join(languages.check(Broken, en, set(gen.PROPER)))  # type: ignore[arg-type]
    for expected in ("slot pet", "fact kinds ['book']", "filler lines", "{nowhere}", "no form 'le'"):
        assert expected in problems


def test_the_languages_are_parallel():
    """Conversation en<i> and xx<i> have the same speakers, sessions, dates and turn ids (the prefix
    aside), each turn by the same speaker; the questions too, with the same evidence."""
    by_lang: dict[str, list] = {}
    for c in DATA["conversations"]:
        by_lang.setdefault(c["language"], []).append(c)
    assert list(by_lang) == [m.CODE for m in gen.LANGUAGES]
    assert all(len(cs) == gen.CONVERSATIONS for cs in by_lang.values())

    def shape(conv):
        return [
            (s["session"], s["date"], [(t["id"].split(":", 1)[1], t["speaker"]) for t in s["turns"]])
            for s in conv["sessions"]
        ]

    for code, convs in by_lang.items():
        for mine, english in zip(convs, by_lang["en"], strict=True):
            assert mine["id"] == code + english["id"][2:] and mine["speakers"] == english["speakers"]
            assert shape(mine) == shape(english)
    qs = {code: [q for q in DATA["questions"] if q["language"] == code] for code in by_lang}
    for mine in qs.values():
        assert [(q["id"][2:], q["fact"], q["wording"], [e[2:] for e in q["evidence"]]) for q in mine] == [
            (q["id"][2:], q["fact"], q["wording"], [e[2:] for e in q["evidence"]]) for q in qs["en"]
        ]
    assert len(qs["en"]) == gen.CONVERSATIONS * 2 * gen.FACTS_PER_SPEAKER * 2
    every = [t["text"] for c in DATA["conversations"] for s in c["sessions"] for t in s["turns"]]
    every += [q["question"] for q in DATA["questions"]]
    assert not [t for t in every if "{" in t or "}" in t]  # every placeholder filled


def _forms(value) -> list[str]:
    return list(value.values()) if isinstance(value, dict) else [value]


def test_each_evidence_turn_holds_the_answer_and_is_said_by_the_person_asked_about():
    """Replaying the skeleton: each fact's two questions point at the turn its speaker says it in,
    and that turn, in every language, holds the answer (a form of the slot's value, or the name)."""
    shape = gen.skeleton(random.Random(gen.SEED))
    turns = {t["id"]: t for c in DATA["conversations"] for s in c["sessions"] for t in s["turns"]}
    for module in gen.LANGUAGES:
        qs = iter(q for q in DATA["questions"] if q["language"] == module.CODE)
        for conv in shape:
            for fact in conv["facts"]:
                answer = gen.ANSWER[fact["kind"]]
                values = gen.fill(module, fact, fact["speaker"], "")
                for _ in gen.WORDINGS:
                    q = next(qs)
                    (evidence,) = q["evidence"]
                    turn = turns[evidence]
                    assert turn["speaker"] == fact["speaker"]
                    assert q["told"] == ("direct", "indirect")[fact["say"]]
                    text = turn["text"].lower()
                    assert any(form.lower() in text for form in _forms(values[answer])), (q, turn)
                    if answer in gen.PROPER:  # never the question's own words (names aside)
                        assert values[answer].lower() not in q["question"].lower(), q
        assert next(qs, None) is None


def test_the_keyword_wording_shares_words_with_the_fact_and_the_paraphrase_fewer():
    """On average the question in the fact's words shares more of its words with the evidence
    turn than the paraphrase does, in every language (the split the section reports)."""
    turns = {t["id"]: t["text"] for c in DATA["conversations"] for s in c["sessions"] for t in s["turns"]}

    def shared(q) -> float:
        words = set(re.findall(r"\w{4,}", q["question"].lower()))
        return len(words & set(re.findall(r"\w{4,}", turns[q["evidence"][0]].lower()))) / max(len(words), 1)

    def mean(values: list[float]) -> float:
        return sum(values) / len(values)

    for module in gen.LANGUAGES:
        mine = [q for q in DATA["questions"] if q["language"] == module.CODE]
        keyword = [shared(q) for q in mine if q["wording"] == "keyword"]
        paraphrase = [shared(q) for q in mine if q["wording"] == "paraphrase"]
        assert mean(keyword) > mean(paraphrase) + 0.05, module.CODE
        # and most when the fact was told directly, in the words the keyword question reuses
        direct = [shared(q) for q in mine if q["wording"] == "keyword" and q["told"] == "direct"]
        indirect = [shared(q) for q in mine if q["wording"] == "keyword" and q["told"] == "indirect"]
        assert mean(direct) > mean(indirect) + 0.05, module.CODE
        assert 0.4 < len(direct) / len(keyword) < 0.6  # half and half


def test_the_section_renders_every_language_and_the_cross_lingual_rows():
    row = {"r5": 0.5, "r10": 0.6, "mrr": 0.4, "n": 320, "p50_ms": 3.0}
    by_mode = {m: row for m in harness.MODES}
    lang = {
        "questions": 320,
        **by_mode,
        "hybrid_floor": {"false_empty_rate": 0.05, "false_hit_rate": 0.0, "answer_lost_rate": 0.01},
        "by_wording": {"keyword": {"hybrid": row}, "paraphrase": {"hybrid": row | {"r10": 0.3}}},
        "by_told": {
            f"{t}/{w}": {"hybrid": row | {"r10": 0.1 * i, "n": 80}}
            for i, (t, w) in enumerate((t, w) for t in multilingual.TOLD for w in multilingual.WORDINGS)
        },
    }
    result = {
        "about": "x",
        "answerable_check": False,
        "embedder": "minilm-int8-rowwise",
        "floor": 0.005,
        "machine": {"commit": "abc1234", "date": "2026-12-07T15:00:00+00:00"},
        "languages": {"en": lang, "fr": lang},
        "cross_lingual": {"fr": by_mode},
    }
    text = "\n".join(multilingual.render_section(result))
    assert "| French | 0.500 / 0.600 (+0.000) / 0.400 |" in text
    assert "| 0.600 / 0.300 | 5.0% |" in text
    assert "| French | 0.600 | 0.600 | 0.600 |" in text
    assert "the answerability check off;" in text
    assert "| French | 0.000 (n=80) | 0.100 (n=80) | 0.200 (n=80) | 0.300 (n=80) |" in text
