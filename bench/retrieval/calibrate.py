"""Fit the search score's calibration (memories.selectors.CALIBRATION) on the benchmark.

The hybrid mode's calibration (with the search's best ranking value) is fitted by
``crossval.py`` since issue 26, over both data sets; this script still fits σ(α z + β) per mode on
the first one (vector and keyword modes keep its values).

For each mode, every question's top 10 results are labelled (is this memory one of the
question's evidence turns? questions about things never said have none) and a logistic
regression maps the mode's ranking value z (hybrid: ``memories.selectors.hybrid_ranking``;
vector: cosine; keyword: coverage) to the probability of being relevant: score = σ(α z + β).
The ranking is unchanged (σ is increasing); the score becomes comparable across queries.
Fitted on the even-numbered conversations, checked on the odd ones (reliability table).

    .venv/bin/python -m bench.retrieval.calibrate --data-dir /tmp/mnemo-retrieval
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

from bench.retrieval import harness


def _fit(z: list[float], y: list[int], steps: int = 200) -> tuple[float, float]:
    """Logistic regression of y on z by Newton's method (two parameters)."""
    a, b = 1.0, 0.0
    for _ in range(steps):
        ga = gb = haa = hab = hbb = 0.0
        for zi, yi in zip(z, y, strict=True):
            p = 1 / (1 + math.exp(-(a * zi + b)))
            ga += (p - yi) * zi
            gb += p - yi
            w = p * (1 - p)
            haa += w * zi * zi
            hab += w * zi
            hbb += w
        det = haa * hbb - hab * hab + 1e-12
        a -= (hbb * ga - hab * gb) / det
        b -= (haa * gb - hab * ga) / det
    return a, b


def samples(mode: str, namespaces: dict[str, int], data: dict) -> list[tuple[str, float, int]]:
    """(conversation, z, relevant) for every question's top 10 in ``mode``."""
    from memories import selectors
    from memories.embedding import embed_texts

    dia = harness._dia_ids(list(namespaces.values()))
    questions = [q for q in data["questions"] if q["conversation"] in namespaces]
    texts = [
        selectors.embedding_text(namespace_ids=[namespaces[q["conversation"]]], query=q["question"]) for q in questions
    ]
    out = []
    for q, vector in zip(questions, embed_texts(texts), strict=True):
        hits = selectors.search_memories(
            namespace_ids=[namespaces[q["conversation"]]],
            query=q["question"],
            limit=10,
            mode=mode,
            query_vector=vector,
            min_score=0.0,
        )
        # (the runner-up among the top 10: the statement's is among every candidate, the same
        # value unless a candidate below the top 10 holds the second-best coverage)
        second = selectors.runner_up([h.coverage or 0.0 for h in hits])
        for h in hits:
            if mode == "hybrid":
                z = selectors.hybrid_ranking(h.similarity, h.coverage, second)
            else:
                z = h.similarity if mode == "vector" else h.coverage
            out.append((q["conversation"], z, int(dia[h.memory.id] in q["evidence"])))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", required=True)
    args = parser.parse_args()
    harness.setup_django(Path(args.data_dir))
    data = harness.dataset()
    namespaces = harness.load(data, progress=True)
    for mode in harness.MODES:
        rows = samples(mode, namespaces, data)
        train = [r for r in rows if int(r[0][1:]) % 2 == 0]
        test = [r for r in rows if int(r[0][1:]) % 2 == 1]
        a, b = _fit([r[1] for r in train], [r[2] for r in train])
        print(f"{mode}: alpha={a:.3f} beta={b:.3f}")
        # reliability on the held-out half: predicted vs observed share relevant per score band
        bands: dict[int, list[int]] = {}
        for _, z, y in test:
            p = 1 / (1 + math.exp(-(a * z + b)))
            bands.setdefault(min(int(p * 5), 4), []).append(y)
        for band in sorted(bands):
            ys = bands[band]
            print(f"  score {band / 5:.1f}-{(band + 1) / 5:.1f}: {len(ys)} results, {sum(ys) / len(ys):.2f} relevant")


if __name__ == "__main__":
    main()
