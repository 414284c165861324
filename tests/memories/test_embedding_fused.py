"""The default embedder's fused graph (issue 25): the shipped MiniLM rewritten with onnxruntime's
fused transformer operators, derived once and cached.

It must compute the shipped graph's function (stored vectors keep their model's name and are not
re-embedded), so these tests hold its vectors to the shipped graph's within float rounding on real
sentences, padded batches and windowed long texts; check that it is the fused graph that runs,
that its derivation is deterministic and checked against the shipped graph, and that any failure
to derive it runs the shipped graph instead of failing.
"""

from __future__ import annotations

import hashlib
import logging
from pathlib import Path

import numpy as np
import onnx
import pytest

from core.errors import EmbeddingError
from memories import embedding
from memories.embedding import MiniLMInt8Embedder, fused_graph
from tests.memories.texts import real_sentences


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory) -> Path:
    """A cache folder the module derives the fused graph into once."""
    folder = tmp_path_factory.mktemp("models")
    embedder = MiniLMInt8Embedder(cache_dir=folder, fused=True)
    embedder.embed(["derive"])
    assert embedder.model_source == "derived"
    return folder


def test_its_vectors_equal_the_shipped_graphs_within_float_rounding(cache_dir):
    """Measured: 1.8e-7 at most on a vector's component (bench/NOTES.md, 2026-11-26). 1e-5 leaves
    room for another CPU's kernels; a wrong weight, head count or mask moves vectors by 1e-2 and
    more."""
    texts = [*real_sentences(), "", "a", "word " * 900]  # empty, one token, three windows
    shipped = MiniLMInt8Embedder(fused=False, batch_size=32)
    fused = MiniLMInt8Embedder(cache_dir=cache_dir, fused=True, batch_size=32)
    expected, got = np.array(shipped.embed(texts)), np.array(fused.embed(texts))
    assert shipped.model_source == "shipped" and fused.model_source == "cache"
    assert np.abs(expected - got).max() <= 1e-5
    # Alone (no padding) as a query is embedded, and each window of a long text.
    assert np.abs(np.array(fused.embed([texts[3]])) - expected[3]).max() <= 1e-5
    long_text = "The quartet rehearsed in Trondheim every Thursday. " * 60
    [(_, shipped_windows)] = shipped.embed_windows([long_text])
    [(_, fused_windows)] = fused.embed_windows([long_text])
    assert len(fused_windows) == len(shipped_windows) == 3
    assert np.abs(np.array(fused_windows) - np.array(shipped_windows)).max() <= 1e-5


def test_the_cached_graph_is_the_fused_one(cache_dir):
    [path] = cache_dir.glob("minilm-int8-fused-*.onnx")
    graph = onnx.load(str(path)).graph
    kinds = [node.op_type for node in graph.node]
    assert kinds.count("Attention") == 6 and kinds.count("SkipLayerNormalization") == 12
    assert len(kinds) == 45  # the shipped graph: 279 after onnxruntime's own optimisations


def test_the_derivation_is_deterministic(cache_dir):
    [path] = cache_dir.glob("minilm-int8-fused-*.onnx")
    again = fused_graph(MiniLMInt8Embedder._shipped_model())
    assert hashlib.sha256(again).hexdigest() == hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_fused_graph_that_differs_from_the_shipped_one_is_refused(monkeypatch):
    """The derivation runs both graphs on a padded probe batch; past the tolerance it raises (here
    the tolerance is made impossible to meet, so the comparison itself must refuse)."""
    monkeypatch.setattr(embedding, "FUSED_TOLERANCE", -1.0)
    with pytest.raises(EmbeddingError, match="differs from the shipped one"):
        fused_graph(MiniLMInt8Embedder._shipped_model())


def test_a_failed_derivation_runs_the_shipped_graph(tmp_path, monkeypatch, caplog):
    def broken(source):
        raise RuntimeError("no fused operators in this onnxruntime")

    monkeypatch.setattr(embedding, "fused_graph", broken)
    embedder = MiniLMInt8Embedder(cache_dir=tmp_path, fused=True)
    with caplog.at_level(logging.WARNING, logger="memories.embedding"):
        vector = embedder.embed(["still embeds"])[0]
    assert len(vector) == 384 and embedder.model_source == "shipped"
    assert "running the shipped embedding graph unfused" in caplog.text
    assert not list(tmp_path.glob("*.onnx"))


def test_the_setting_turns_it_off(settings, tmp_path):
    settings.MNEMO_EMBED_FUSED = False
    embedder = MiniLMInt8Embedder(cache_dir=tmp_path)
    embedder.embed(["the shipped file as it is"])
    assert embedder.model_source == "shipped" and not list(tmp_path.iterdir())
    settings.MNEMO_EMBED_FUSED = True
    assert MiniLMInt8Embedder(cache_dir=tmp_path)._fused


def test_both_graphs_are_the_same_model_for_stored_vectors():
    """The name is what stored vectors are checked against (reembed_memories redoes others)."""
    assert MiniLMInt8Embedder(fused=True).name == MiniLMInt8Embedder(fused=False).name
