"""minilm-int8-dynamic: the shipped MiniLM with integer matrix products (issue 25).

Its graph is derived from the shipped file and cached; these tests check that its vectors agree
with the reference embedder's on real sentences, that the derivation is deterministic (also
across processes deriving at the same time), cached, rebuilt when the cache is corrupt, and that
a folder it cannot write only costs the derivation.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from memories.embedding import EMBEDDERS, MiniLMDynamicInt8Embedder, MiniLMInt8Embedder
from tests.memories.texts import real_sentences

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory) -> Path:
    """A cache folder the module derives into once."""
    folder = tmp_path_factory.mktemp("models")
    embedder = MiniLMDynamicInt8Embedder(cache_dir=folder)
    embedder.embed(["derive"])
    assert embedder.model_source == "derived"
    return folder


def _cached(folder: Path) -> tuple[Path, Path]:
    [model] = folder.glob("*.onnx")
    return model, model.with_name(model.name + ".sha256")


def test_its_vectors_agree_with_the_reference_embedder_on_real_sentences(cache_dir):
    """Bound: on 1,000 texts of the two data sets the lowest cosine measured was 0.979, the mean
    0.9925 (bench/NOTES.md, 2026-11-26); 0.97 and a mean of 0.985 leave room for another CPU's
    kernels without letting a broken derivation (one scale per tensor: 0.90 at worst) pass."""
    texts = real_sentences()
    assert len(texts) > 250
    reference = np.array(MiniLMInt8Embedder(threads=1).embed(texts))
    derived = np.array(MiniLMDynamicInt8Embedder(cache_dir=cache_dir, threads=1).embed(texts))
    cosines = (reference * derived).sum(axis=1)
    assert cosines.min() >= 0.97, texts[int(cosines.argmin())]
    assert cosines.mean() >= 0.985
    assert not np.allclose(reference, derived, atol=1e-4)  # it is another graph, not the same one


def test_a_text_gets_the_same_vector_alone_and_in_a_batch(cache_dir):
    """The activations are quantized per tensor: in a padded batch a text's vector would depend on
    its neighbours (cosine 0.974 at worst on chat turns in batches of 32). The embedder runs one
    window at a time, so the worker's batches store what a query alone would get."""
    texts = real_sentences()[:40]
    embedder = MiniLMDynamicInt8Embedder(cache_dir=cache_dir, batch_size=32)
    batch = np.array(embedder.embed(texts))
    alone = np.array([embedder.embed([text])[0] for text in texts])
    assert (batch * alone).sum(axis=1).min() > 0.9999


def test_a_long_text_is_windowed_as_by_the_reference_embedder(cache_dir):
    text = " ".join(f"word{i}" for i in range(150))
    [(vector, windows)] = MiniLMDynamicInt8Embedder(cache_dir=cache_dir).embed_windows([text])
    [(_, reference_windows)] = MiniLMInt8Embedder().embed_windows([text])
    assert len(windows) == len(reference_windows) == 2 and len(vector) == 384


def test_its_name_differs_so_stored_vectors_say_which_model_made_them():
    assert MiniLMDynamicInt8Embedder.name != MiniLMInt8Embedder.name
    assert f"r{MiniLMDynamicInt8Embedder.RECIPE}" in MiniLMDynamicInt8Embedder.name
    assert EMBEDDERS["minilm-int8-dynamic"] == "memories.embedding.MiniLMDynamicInt8Embedder"


def test_a_second_load_reads_the_cache_and_does_not_derive(cache_dir, monkeypatch):
    model, checksum = _cached(cache_dir)
    assert hashlib.sha256(model.read_bytes()).hexdigest() == checksum.read_text()

    def refuse(source):
        raise AssertionError("derived again")

    monkeypatch.setattr(MiniLMDynamicInt8Embedder, "derive", staticmethod(refuse))
    embedder = MiniLMDynamicInt8Embedder(cache_dir=cache_dir)
    assert len(embedder.embed(["from the cache"])[0]) == 384
    assert embedder.model_source == "cache"


@pytest.mark.parametrize("damage", ["truncated", "flipped", "no checksum"])
def test_a_corrupt_cache_is_derived_again(cache_dir, tmp_path, monkeypatch, damage):
    model, checksum = _cached(cache_dir)
    good = model.read_bytes()
    (tmp_path / model.name).write_bytes(good[: len(good) // 2] if damage == "truncated" else good)
    if damage == "flipped":
        data = bytearray(good)
        data[len(data) // 2] ^= 0xFF  # a weight byte: the file still parses, the checksum does not match
        (tmp_path / model.name).write_bytes(bytes(data))
    if damage != "no checksum":
        (tmp_path / checksum.name).write_text(checksum.read_text())
    calls = []

    def derive(source):
        calls.append(source)
        return good

    monkeypatch.setattr(MiniLMDynamicInt8Embedder, "derive", staticmethod(derive))
    embedder = MiniLMDynamicInt8Embedder(cache_dir=tmp_path)
    embedder.embed(["rebuilt"])
    assert embedder.model_source == "derived" and len(calls) == 1
    assert (tmp_path / model.name).read_bytes() == good
    assert (tmp_path / checksum.name).read_text() == hashlib.sha256(good).hexdigest()
    assert not list(tmp_path.glob("*.tmp"))


def test_a_folder_it_cannot_write_only_costs_the_derivation(cache_dir, tmp_path, monkeypatch, caplog):
    model, _ = _cached(cache_dir)
    good = model.read_bytes()
    monkeypatch.setattr(MiniLMDynamicInt8Embedder, "derive", staticmethod(lambda source: good))
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    embedder = MiniLMDynamicInt8Embedder(cache_dir=blocker / "models")
    assert len(embedder.embed(["still embeds"])[0]) == 384
    assert embedder.model_source == "derived"
    assert "cannot cache the derived embedding model" in caplog.text


CHILD = textwrap.dedent(
    """
    import hashlib, json, sys
    import django
    from django.conf import settings
    settings.configure(MNEMO_EMBED_MAX_WINDOWS=3, MNEMO_EMBED_CACHE_DIR=sys.argv[1], MNEMO_EMBED_FUSED=True)
    django.setup()
    from memories.embedding import MiniLMDynamicInt8Embedder
    embedder = MiniLMDynamicInt8Embedder()
    vector = embedder.embed(["Solveig adopted a tortoise called Loki."])[0]
    print(json.dumps({"source": embedder.model_source, "sha": hashlib.sha256(embedder._model()).hexdigest(),
                      "vector": vector}))
    """
)


def test_two_processes_deriving_at_once_write_one_good_file(cache_dir, tmp_path):
    """Two processes start on an empty cache at the same time (gunicorn workers, a celery worker):
    both derive, both write the same bytes through a temporary file and a rename, and the file
    left is whole; the derivation is deterministic across processes (the derived bytes equal this
    process's)."""
    children = [
        subprocess.Popen(
            [sys.executable, "-c", CHILD, str(tmp_path)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    results = []
    for child in children:
        out, err = child.communicate(timeout=300)
        assert child.returncode == 0, err[-3000:]
        results.append(json.loads(out.strip().splitlines()[-1]))
    model, checksum = _cached(tmp_path)
    reference, _ = _cached(cache_dir)
    assert model.read_bytes() == reference.read_bytes()
    assert checksum.read_text() == hashlib.sha256(model.read_bytes()).hexdigest()
    assert {r["sha"] for r in results} == {checksum.read_text()}
    assert results[0]["vector"] == results[1]["vector"]
    assert "derived" in {r["source"] for r in results}  # at least the first one derived
    assert not list(tmp_path.glob("*.tmp"))
