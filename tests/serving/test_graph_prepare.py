"""gunicorn started by itself (not through make run) derives the embedder's graph once, in a child
process, before its workers start (config/gunicorn.py ``on_starting``, memories/graph_prepare.py):
without it every worker derived the graph at the same moment on a first start, each peaking at
about 1 GB (bench/NOTES.md, 2026-11-29)."""

from __future__ import annotations

import logging
import runpy
from types import SimpleNamespace

import pytest

import memories.embedding
from memories.graph_prepare import prepare_in_child
from tests.conftest import ROOT


@pytest.fixture
def hooks(monkeypatch):
    def not_here(*args, **kwargs):
        raise AssertionError("the graph was derived (or read) in gunicorn's arbiter")

    monkeypatch.setattr(memories.embedding, "_cached_derivation", not_here)
    monkeypatch.setenv("MNEMO_EMBEDDER", "minilm-int8-rowwise")
    monkeypatch.setenv("MNEMO_WARM_EMBEDDER", "true")
    monkeypatch.delenv("MNEMO_EMBEDDER_PREPARED", raising=False)
    return runpy.run_path(str(ROOT / "config" / "gunicorn.py"))


def server() -> SimpleNamespace:
    return SimpleNamespace(log=logging.getLogger("tests.gunicorn"))


def test_gunicorn_derives_the_graph_once_in_a_child_before_its_workers_start(hooks, tmp_path, monkeypatch):
    monkeypatch.setenv("MNEMO_EMBED_CACHE_DIR", str(tmp_path))
    hooks["on_starting"](server())
    [graph] = tmp_path.glob("minilm-int8-rowwise-*.onnx")
    assert graph.stat().st_size > 1_000_000
    # the next start finds it
    assert prepare_in_child({"MNEMO_EMBED_CACHE_DIR": str(tmp_path)}) == "cache"


@pytest.mark.parametrize(
    "env", [{"MNEMO_EMBEDDER_PREPARED": "1"}, {"MNEMO_WARM_EMBEDDER": "false"}], ids=["make run did it", "no warm-up"]
)
def test_gunicorn_leaves_it_when_make_run_prepared_it_or_warm_up_is_off(hooks, tmp_path, monkeypatch, env):
    monkeypatch.setenv("MNEMO_EMBED_CACHE_DIR", str(tmp_path))
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    hooks["on_starting"](server())
    assert list(tmp_path.iterdir()) == []


def test_a_child_that_fails_says_why(tmp_path):
    with pytest.raises(RuntimeError, match="nope"):
        prepare_in_child({"MNEMO_EMBEDDER": "nope.NoSuchEmbedder", "MNEMO_EMBED_CACHE_DIR": str(tmp_path)})
