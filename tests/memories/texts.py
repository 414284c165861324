"""Real text for the embedder tests: both retrieval data sets' turns as they are stored and their
questions as searched, thinned to a few hundred."""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def real_sentences() -> list[str]:
    """Every 50th turn ("Speaker: text") and every 25th question of conversations.json and chat.json."""
    texts: list[str] = []
    for name in ("conversations.json", "chat.json"):
        data = json.loads((ROOT / "bench" / "retrieval" / name).read_text())
        turns = [
            f"{t['speaker']}: {t['text']}" for c in data["conversations"] for s in c["sessions"] for t in s["turns"]
        ]
        texts += turns[::50] + [q["question"] for q in data["questions"][::25]]
    return texts
