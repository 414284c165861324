"""The query vectors a process remembers (memories.selectors.query_vector_literal): a repeated
query is not embedded again, the remembered vector is the one the model makes, the cache is
bounded, and MNEMO_QUERY_VECTOR_CACHE=0 turns it off."""

import pytest
from django.test import override_settings

from memories import selectors
from memories.embedding import embed_texts, get_embedder

pytestmark = pytest.mark.django_db


@pytest.fixture
def model_runs(monkeypatch):
    """How many texts the real model embeds (the model still runs: this only counts)."""
    embedder = get_embedder()
    real = embedder.embed
    seen: list[str] = []

    def counted(texts):
        seen.extend(texts)
        return real(texts)

    monkeypatch.setattr(embedder, "embed", counted)
    return seen


def test_a_repeated_query_is_embedded_once_and_gets_the_models_vector(model_runs):
    first = selectors.query_vector_literal("when is the dentist appointment")
    again = selectors.query_vector_literal("when is the dentist appointment")
    assert model_runs == ["when is the dentist appointment"]
    assert again == first == selectors._vector_literal(embed_texts(["when is the dentist appointment"])[0])
    selectors.query_vector_literal("another question")
    assert model_runs[-1] == "another question"


@override_settings(MNEMO_QUERY_VECTOR_CACHE=2)
def test_the_cache_keeps_the_most_recently_used_texts(model_runs):
    for text in ("a", "b", "a", "c"):  # "b" is the least recently used when "c" comes
        selectors.query_vector_literal(text)
    assert model_runs == ["a", "b", "c"]
    selectors.query_vector_literal("a")
    selectors.query_vector_literal("b")
    assert model_runs == ["a", "b", "c", "b"]
    assert len(selectors._query_vectors) == 2


@override_settings(MNEMO_QUERY_VECTOR_CACHE=0)
def test_zero_turns_the_cache_off(model_runs):
    selectors.query_vector_literal("a")
    selectors.query_vector_literal("a")
    assert model_runs == ["a", "a"]


def test_another_embedder_setting_does_not_read_the_vectors_of_this_one(model_runs):
    selectors.query_vector_literal("a")
    key = next(iter(selectors._query_vectors))
    assert key[0] == "minilm-int8-rowwise" and key[3] == "a"
    with override_settings(MNEMO_EMBEDDER="memories.embedding.MiniLMInt8Embedder"):
        selectors.query_vector_literal("a")  # a new embedder object, its own entry
    assert len(selectors._query_vectors) == 2
    with override_settings(MNEMO_EMBED_FUSED=not key[1]):
        selectors.query_vector_literal("a")  # the other graph: the same model, still its own entry
    assert len(selectors._query_vectors) == 3
