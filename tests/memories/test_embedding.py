"""The default embedder: offline, 384-dim unit vectors, meaningful, batched, long texts windowed."""

import math
import os

import numpy as np
import pytest
from django.test import override_settings

from memories import embedding
from memories.embedding import EmbedderUnavailable, MiniLMInt8Embedder, embed_texts, get_embedder
from memories.models import Memory, Namespace
from memories.selectors import vector_search
from memories.services import embed_queued_memories


def cos(a, b) -> float:
    return float(np.dot(a, b))


def test_runs_offline_with_the_default_model():
    assert os.environ["HF_HUB_OFFLINE"] == "1"
    embedder = get_embedder()
    assert isinstance(embedder, MiniLMInt8Embedder)
    assert embedder.name == "all-MiniLM-L6-v2-onnx-int8-rowwise-r3"  # the default, minilm-int8-rowwise
    assert embedder.dimensions == 384
    assert get_embedder() is embedder  # loaded once per process


def test_vectors_are_384_dimensional_unit_vectors():
    vectors = embed_texts(["My son Colby lives in Los Angeles.", "", "🙂 ünïcödé"])
    assert len(vectors) == 3
    for vector in vectors:
        assert len(vector) == 384
        assert math.isclose(float(np.linalg.norm(vector)), 1.0, abs_tol=1e-4)


def test_a_paraphrase_ranks_above_an_unrelated_sentence():
    anchor, paraphrase, unrelated = embed_texts(
        [
            "The user prefers meetings in the afternoon.",
            "Afternoon is when they like their meetings scheduled.",
            "The invoice for the printer toner was paid in March.",
        ]
    )
    assert cos(anchor, paraphrase) > cos(anchor, unrelated) + 0.3


def test_batch_and_single_embeddings_agree():
    texts = ["short", "a somewhat longer sentence about calendars and email", "third one"]
    batch = embed_texts(texts)
    for text, vector in zip(texts, batch, strict=True):
        assert cos(embed_texts([text])[0], vector) > 0.9999


def test_batches_are_embedded_in_batches_not_one_by_one(monkeypatch):
    embedder = MiniLMInt8Embedder(batch_size=16)
    calls = []
    original = embedder._run

    def counting_run(batch):
        calls.append(len(batch))
        return original(batch)

    monkeypatch.setattr(embedder, "_run", counting_run)
    vectors = embedder.embed([f"memory number {i} about a different topic" for i in range(64)])
    assert len(vectors) == 64
    assert calls == [16, 16, 16, 16]


def test_long_texts_are_cut_into_overlapping_windows():
    embedder = get_embedder()
    text = " ".join(f"word{i}" for i in range(150))  # 450 tokens: windows at 0 and 192, overlapping
    [(vector, windows)] = embedder.embed_windows([text])
    assert len(windows) == 2
    assert len(vector) == 384
    # Consecutive windows overlap, so their vectors are close but not equal.
    assert 0.5 < cos(windows[0], windows[1]) < 0.9999


@pytest.mark.parametrize(
    "text",
    [
        " ".join(f"word{i}" for i in range(1000)),  # 3,000 tokens in 8,000 characters: read in pieces
        "* " * 2000,  # 2,000 tokens in 4,000 characters: tokenized whole, windows spread over it
        "*" * 16_000,  # 16,000 tokens
        "Ljubljana " + "\u00e9" * 15_980 + " Cartagena",  # one long word between two short ones
    ],
)
def test_a_long_text_is_read_in_at_most_max_windows_windows(text):
    """MNEMO_EMBED_MAX_WINDOWS bounds what the model reads of one text: its beginning, its end and
    points between, at most that many windows of 254 tokens, whatever the text's length."""
    embedder = get_embedder()
    [windows] = embedder.window_ids([text])
    assert 1 <= len(windows) <= embedder.max_windows == 3
    assert all(len(ids) <= embedder.WINDOW for ids in windows)
    [whole] = embedder._tokenizer.encode_batch([text], add_special_tokens=False)
    if len(whole.ids) > 3 * embedder.WINDOW:
        assert len(windows) == 3
        assert windows[0] == whole.ids[: len(windows[0])]  # the beginning
        assert windows[-1] == whole.ids[-len(windows[-1]) :]  # the end


def test_the_pieces_of_a_long_text_are_tokenized_as_in_the_whole_text():
    """A piece's words are tokenized as the same words of the whole text: a word a cut may have
    split is left out, never tokenized as a shorter word."""
    embedder = get_embedder()
    embedder.embed(["load the tokenizer"])
    rng = np.random.default_rng(3)
    alphabet = list("abcde ,.'-\u00e9\u0301\u4e00") + ["\n", "don't ", "Ljubljana ", "TEAM-123 "]
    for _ in range(30):
        text = "".join(rng.choice(alphabet, size=6000))
        [whole] = embedder._tokenizer.encode_batch([text], add_special_tokens=False)
        joined = f" {' '.join(map(str, whole.ids))} "
        for window in embedder.window_ids([text])[0]:
            assert f" {' '.join(map(str, window))} " in joined


def test_a_long_text_costs_at_most_max_windows_model_rows(monkeypatch):
    embedder = get_embedder()
    rows = []
    original = embedder._run

    def counting_run(batch):
        rows.extend(batch)
        return original(batch)

    monkeypatch.setattr(embedder, "_run", counting_run)
    embedder.embed_windows(["*" * 16_000, "don't " * 2666, "short"])
    assert len(rows) == 3 + 3 + 1
    assert max(len(row) for row in rows) == embedder.MAX_TOKENS


def test_an_unknown_embedder_is_a_clear_error():
    with (
        override_settings(MNEMO_EMBEDDER="memories.embedding.NoSuchModel"),
        pytest.raises(EmbedderUnavailable, match="unknown embedder"),
    ):
        embed_texts(["x"])
    assert embedding.get_embedder().name == "all-MiniLM-L6-v2-onnx-int8-rowwise-r3"


FILLER_WORDS = [
    "project",
    "budget",
    "meeting",
    "schedule",
    "review",
    "quarterly",
    "numbers",
    "client",
    "email",
    "report",
    "deadline",
    "team",
    "lunch",
    "office",
    "garden",
    "weather",
    "holiday",
    "invoice",
    "printer",
    "parking",
    "calendar",
]


@pytest.mark.django_db
def test_the_end_of_a_16000_character_text_still_counts():
    rng = np.random.default_rng(7)
    filler = " ".join(rng.choice(FILLER_WORDS, size=4000))
    ending = " Later that year she finally moved to Ljubljana, the capital of Slovenia."
    long_text = (filler[: 16000 - len(ending)] + ending)[:16000]
    assert len(long_text) == 16000
    assert "Ljubljana" in long_text[-200:] and "Ljubljana" not in long_text[:-200]

    ns = Namespace.objects.create(key="user:traveller", kind="user")
    # The same 15,900 characters with another ending: cut at the model's 256 tokens, both long
    # texts would get the same vector, and the tie would go to the older row (this one).
    other_ending = " Later that year she finally moved to a small flat near the office downtown."
    distractors = [
        (filler[: 16000 - len(other_ending)] + other_ending)[:16000],
        "My son Colby lives in Los Angeles.",
        "The dentist appointment is on Friday.",
        "I am allergic to peanuts.",
        "Our team meets on Mondays at 10am.",
    ]
    rows = [Memory.objects.create(namespace=ns, text=t) for t in [*distractors, long_text]]
    embed_queued_memories(ids=[r.id for r in rows])

    hits = vector_search(namespace_id=ns.id, query="Ljubljana", limit=3)
    assert hits[0].memory_id == rows[-1].id, [(h.memory_id, round(h.similarity, 3)) for h in hits]
    assert hits[0].similarity > hits[1].similarity + 0.1
