"""The fused graph against the shipped one on every text of the retrieval data sets (issue 25).

The default embedder runs the shipped MiniLM rewritten with onnxruntime's fused operators
(memories.embedding.fused_graph). It must be the same function: this embeds every memory turn and
question of each data set with both graphs (padded batches of 32, as the worker does; questions
alone, as a search does) and reports the largest difference of a vector's component, the lowest
cosine, and, per answerable question, whether the vector arm's top 10 in its conversation (exact
cosine) is the same list in the same order, with the largest score difference, and how many
questions found other evidence turns in their top 5 or top 10.

    .venv/bin/python bench/retrieval/fused_check.py [--out bench/results/embedder/<stamp>-fused-check.json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
DATA_SETS = ("conversations.json", "chat.json", "assistant.json")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    import django

    django.setup()
    from memories.embedding import MiniLMInt8Embedder

    shipped, fused = MiniLMInt8Embedder(fused=False), MiniLMInt8Embedder(fused=True)
    result: dict[str, Any] = {}
    for name in DATA_SETS:
        data = json.loads((ROOT / "bench" / "retrieval" / name).read_text())
        turns = [
            (c["id"], t["id"], f"{t['speaker']}: {t['text']}")
            for c in data["conversations"]
            for s in c["sessions"]
            for t in s["turns"]
        ]
        texts = [text for _, _, text in turns]
        a, b = np.array(shipped.embed(texts)), np.array(fused.embed(texts))
        questions = [q for q in data["questions"] if q.get("evidence")]
        qa = np.array([shipped.embed([q["question"]])[0] for q in questions])
        qb = np.array([fused.embed([q["question"]])[0] for q in questions])
        owner = np.array([c for c, _, _ in turns])
        same, score_diff, recall_moved = 0, 0.0, {5: 0, 10: 0}
        turn_ids = np.array([t for _, t, _ in turns])
        for i, q in enumerate(questions):
            rows = np.flatnonzero(owner == q["conversation"])
            sa, sb = a[rows] @ qa[i], b[rows] @ qb[i]
            ta, tb = np.argsort(-sa, kind="stable")[:10], np.argsort(-sb, kind="stable")[:10]
            same += bool((ta == tb).all())
            score_diff = max(score_diff, float(np.abs(sa[ta] - sb[ta]).max()))
            evidence = set(q["evidence"])
            for k in recall_moved:
                found_a = evidence & set(turn_ids[rows][ta[:k]])
                found_b = evidence & set(turn_ids[rows][tb[:k]])
                recall_moved[k] += found_a != found_b
        result[name] = {
            "memories": len(texts),
            "answerable_questions": len(questions),
            "memory_max_abs_diff": float(np.abs(a - b).max()),
            "memory_min_cosine": float((a * b).sum(axis=1).min()),
            "question_max_abs_diff": float(np.abs(qa - qb).max()),
            "top10_identical_share": same / len(questions),
            "top10_max_score_diff": score_diff,
            "questions_whose_recall_at_5_moved": recall_moved[5],
            "questions_whose_recall_at_10_moved": recall_moved[10],
        }
        print(name, json.dumps(result[name]), flush=True)
    if args.out:
        args.out.write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
