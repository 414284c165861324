"""Checks every generated retrieval data set's tests share (tests/bench/test_generate_*.py)."""

from __future__ import annotations

import hashlib
from types import ModuleType
from typing import Any

from tests.bench.test_generate_assistant import RETRIEVAL


def assert_the_seed_gives_the_committed_file(gen: ModuleType, filename: str) -> None:
    """The generator's seed renders ``bench/retrieval/<filename>`` byte for byte; another seed does not."""
    text = gen.render(gen.generate())
    assert hashlib.sha256(text.encode()).hexdigest() == hashlib.sha256((RETRIEVAL / filename).read_bytes()).hexdigest()
    assert gen.render(gen.generate(gen.SEED + 1)) != text


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
