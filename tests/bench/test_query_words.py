"""bench/retrieval/query_words.py and features.py's stop-word variant (2026-11-29): what the variant
embeds, and that the comparison reads each dump with the shipped rule and counts the model's tokens."""

import functools
import json

import pytest

from bench.retrieval import crossval as cv
from bench.retrieval import features, query_words
from memories import selectors
from memories.models import Memory, Namespace


@pytest.fixture
def chat(db) -> Namespace:
    """A namespace where the speaker's name is in every memory: a common word of it."""
    ns = Namespace.objects.create(key="agent:words", kind="agent")
    Memory.objects.bulk_create(
        [Memory(namespace=ns, text=f"Tariq: I said the thing number {i}", status="ready") for i in range(40)]
    )
    return ns


@pytest.mark.parametrize(
    ("query", "embedded"),
    [
        # the namespace's common word (the speaker) and the stop words out: the content is left
        ("When did Tariq get a tattoo?", "get tattoo?"),
        # no common word in the query: its stop words still go
        ("What is the tortoise called?", "tortoise called?"),
        # stop words only: nothing that says something would be left, so the shipped text stays
        ("What is it?", "What is it?"),
    ],
)
def test_the_variant_embeds_the_shipped_text_without_its_stop_words(chat, query, embedded):
    variant = functools.partial(features.content_words_embedding_text, shipped=selectors.embedding_text)
    assert variant(namespace_ids=[chat.id], query=query) == embedded


@pytest.mark.parametrize(
    ("query", "embedded"),
    [
        # the shipped text is "When did get a tattoo?": its frame goes, the rest stays
        ("When did Tariq get a tattoo?", "get a tattoo?"),
        # stop words after the first content word stay: they carry the relation
        ("What does she use now for notes?", "use now for notes?"),
        # one token would be left: the shipped text stays
        ("What is it called?", "What is it called?"),
        ("What is it?", "What is it?"),
    ],
)
def test_the_second_variant_drops_only_the_questions_frame(chat, query, embedded):
    variant = functools.partial(features.leading_words_embedding_text, shipped=selectors.embedding_text)
    assert variant(namespace_ids=[chat.id], query=query) == embedded


def dump(embedded: str, cos: list[float]) -> dict:
    """A features.py dump of one answerable question (evidence: memory 2) and one never stored."""
    rows = [[i + 1, c, 0.0, i + 1, 0] for i, c in enumerate(cos)]
    common = {"conversation": "c0", "type": "single-hop", "embedded": embedded, "rows": rows}
    return {
        "dataset": "made-up",
        "common_share": cv.SHARE_NOW,
        "questions": [
            common | {"id": "q0", "question": "Where does Ana work?", "evidence": [2]},
            common | {"id": "q1", "question": "Where does Ana surf?", "evidence": []},
        ],
    }


def test_the_comparison_reads_both_dumps_with_the_shipped_rule(tmp_path):
    shipped, variant = tmp_path / "shipped", tmp_path / "variant"
    shipped.mkdir()
    variant.mkdir()
    # shipped: the evidence second (R@5 1, MRR 0.5); the variant ranks it first (MRR 1)
    (shipped / "f-chat.json").write_text(json.dumps(dump("Where does work?", [0.9, 0.8, 0.1])))
    (variant / "f-chat.json").write_text(json.dumps(dump("work?", [0.7, 0.8, 0.1])))
    rows = query_words.compare(shipped, variant)
    assert list(rows) == ["chat"]
    s, v = rows["chat"]["shipped"], rows["chat"]["variant"]
    assert s["table"]["all"]["mrr"] == pytest.approx(0.5) and v["table"]["all"]["mrr"] == pytest.approx(1.0)
    # [CLS] where does work ? [SEP] against [CLS] work ? [SEP]
    assert (s["tokens"], v["tokens"]) == (6.0, 4.0)
    assert s["never"] == 1
    text = "\n".join(query_words.render(rows))
    assert "| chat | 1.000 → 1.000 | 1.000 → 1.000 | 0.500 → 1.000 |" in text
    assert "6.0 → 4.0" in text


def test_the_speed_pairs_each_questions_two_texts(tmp_path):
    shipped, variant = tmp_path / "shipped", tmp_path / "variant"
    shipped.mkdir()
    variant.mkdir()
    (shipped / "f-team.json").write_text(json.dumps(dump("Where does work?", [0.9, 0.8])))
    (variant / "f-team.json").write_text(json.dumps(dump("work?", [0.9, 0.8])))
    (shipped / "f-life.json").write_text(json.dumps(dump("unpaired", [0.9])))  # no variant dump: left out
    got = query_words.pairs(shipped, variant, per_set=5)
    assert sorted(got) == [("Where does work?", "work?")] * 2
    assert len(query_words.pairs(shipped, variant, per_set=1)) == 1
