"""Embedders for testing the ops commands' guards (never used where search quality is measured)."""

from __future__ import annotations

from collections.abc import Sequence

from memories.embedding import MiniLMInt8Embedder


class Wide512Embedder:
    """A model of another width: the guards must refuse it for 384-dimensional columns."""

    name = "wide-512"
    dimensions = 512

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [[1.0] + [0.0] * 511 for _ in texts]


class InterruptedMiniLM(MiniLMInt8Embedder):
    """The real model, interrupted (as by Ctrl-C) on its third batch of a run."""

    calls = 0

    def embed_windows(self, texts):
        type(self).calls += 1
        if type(self).calls == 3:
            raise KeyboardInterrupt
        return super().embed_windows(texts)


class UnreachableSmsBackend:
    """An SMS provider that is down."""

    def send_messages(self, messages):
        raise ConnectionError("SMS provider unreachable")
