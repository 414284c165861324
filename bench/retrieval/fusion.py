"""Fusion rules tried on the candidates of one search statement (how STEPS.md's rows are made).

For every answerable question of the benchmark, ``memories.selectors.search_features`` returns
the hybrid statement's candidates (both arms' top ``MNEMO_SEARCH_CANDIDATES``) with both arms'
evidence: cosine similarity, IDF keyword coverage, and each arm's rank. Each rule below orders
those candidates; the table gives R@5 / R@10 / MRR per question type, next to the arms alone
(their own ranks, which is what ``mode=vector`` and ``mode=keyword`` return). The rule that
``search_memories`` runs is ``shipped``.

    .venv/bin/python -m bench.retrieval.fusion --data-dir /tmp/mnemo-retrieval [--rules a,b]
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.retrieval import harness

Row = tuple[int, float | None, float | None, int | None, int | None]  # id, cos, coverage, vr, kr
Rule = Callable[[list[Row]], list[int]]


def _by(key: Callable[[Row], float]) -> Rule:
    return lambda rows: [r[0] for r in sorted(rows, key=lambda r: (-key(r), r[0]))]


def _cos(r: Row) -> float:
    return r[1] or 0.0


def _cov(r: Row) -> float:
    return r[2] or 0.0


def _rank_rule(index: int) -> Rule:
    return lambda rows: [r[0] for r in sorted((r for r in rows if r[index]), key=lambda r: r[index])]


def _shipped(rows: list[Row]) -> list[int]:
    """What ``search_memories`` ranks by (imported late: Django is set up by then)."""
    from memories.selectors import hybrid_ranking, runner_up

    second = runner_up([_cov(r) for r in rows])
    return _by(lambda r: hybrid_ranking(_cos(r), _cov(r), second))(rows)


def _floored(floor: float, weight: float = 0.5) -> Rule:
    """Coverage counts only from ``floor`` up (a lone common word is no evidence)."""
    return _by(lambda r: _cos(r) + weight * (_cov(r) if _cov(r) >= floor else 0.0))


def _vector_first(k: int, weight: float = 0.5) -> Rule:
    """The vector arm's top ``k`` kept in front when the fused order would push them below."""

    def rule(rows: list[Row]) -> list[int]:
        fused = _by(lambda r: _cos(r) + weight * _cov(r))(rows)
        top = [r[0] for r in sorted((r for r in rows if r[3]), key=lambda r: r[3])[:k]]
        return top + [i for i in fused if i not in top]

    return rule


def _relative(weight: float = 0.5) -> Rule:
    """Coverage relative to the best coverage among the candidates (a query whose words are all
    common gets no keyword push)."""

    def rule(rows: list[Row]) -> list[int]:
        best = max((_cov(r) for r in rows), default=0.0) or 1.0
        return _by(lambda r: _cos(r) + weight * _cov(r) * min(1.0, best / 0.5))(rows)

    return rule


RULES: dict[str, Rule] = {
    "vector arm": _rank_rule(3),
    "keyword arm": _rank_rule(4),
    "shipped": lambda rows: _shipped(rows),
    "cos + 0.5 cov (shipped before)": _by(lambda r: _cos(r) + 0.5 * _cov(r)),
    "cos + 0.4 cov": _by(lambda r: _cos(r) + 0.4 * _cov(r)),
    "cos + 0.6 cov": _by(lambda r: _cos(r) + 0.6 * _cov(r)),
    "cos + 0.5 cov, coverage from 0.1": _floored(0.1),
    "cos + 0.5 cov, coverage from 0.2": _floored(0.2),
    "cos + 0.5 cov, coverage from 0.3": _floored(0.3),
    "cos + 0.5 cov, vector top 1 first": _vector_first(1),
    "cos + 0.5 cov, vector top 2 first": _vector_first(2),
    "cos + 0.5 cov × best coverage / 0.5": _relative(),
    "cos + 0.5 cov²": _by(lambda r: _cos(r) + 0.5 * _cov(r) ** 2),
    "cos + 0.5 √cov": _by(lambda r: _cos(r) + 0.5 * _cov(r) ** 0.5),
}


def _vector_first_unless(cover: float, weight: float = 0.5) -> Rule:
    """The vector arm's first in front, unless the fused first holds at least ``cover`` of the
    query's words (strong keyword evidence keeps its place)."""

    def rule(rows: list[Row]) -> list[int]:
        fused = _by(lambda r: _cos(r) + weight * _cov(r))(rows)
        if not fused:
            return fused
        first = next(r for r in rows if r[0] == fused[0])
        top = [r[0] for r in sorted((r for r in rows if r[3]), key=lambda r: r[3])[:1]]
        if _cov(first) >= cover or not top:
            return fused
        return top + [i for i in fused if i not in top]

    return rule


for _c in (0.3, 0.5, 0.7, 0.9):
    RULES[f"cos + 0.5 cov, vector top 1 first unless fused first covers {_c}"] = _vector_first_unless(_c)
for _bv in (0.1, 0.2, 0.4):
    for _k in (1, 5, 20):
        RULES[f"cos + 0.5 cov + {_bv}/({_k} + vector rank)"] = _by(
            lambda r, b=_bv, k=_k: _cos(r) + 0.5 * _cov(r) + (b / (k + r[3]) if r[3] else 0.0)
        )
for _w in (0.2, 0.25, 0.3, 0.35, 0.4):
    for _p in (0.5, 0.6, 0.75):
        RULES[f"cos + {_w} cov^{_p}"] = _by(lambda r, w=_w, e=_p: _cos(r) + w * _cov(r) ** e)

# Third round: the square root of coverage, scaled by the cosine (keyword evidence counts as far
# as the meaning supports it), next to a little plain coverage.
for _a in (0.1, 0.15, 0.2, 0.25):
    for _b in (0.4, 0.5, 0.6):
        RULES[f"cos + {_a} cov + {_b} cos·√cov"] = _by(
            lambda r, a=_a, b=_b: _cos(r) + a * _cov(r) + b * max(_cos(r), 0.0) * _cov(r) ** 0.5
        )
for _a in (0.5, 1.0, 2.0):
    RULES[f"cos × (1 + {_a} √cov)"] = _by(lambda r, a=_a: _cos(r) * (1 + a * _cov(r) ** 0.5))
for _b in (0.02, 0.05, 0.1):
    RULES[f"cos + 0.5 cov + {_b} when both arms found it"] = _by(
        lambda r, b=_b: _cos(r) + 0.5 * _cov(r) + (b if r[3] and r[4] else 0.0)
    )


def collect(data: dict[str, Any], namespaces: dict[str, int]) -> list[tuple[dict[str, Any], list[Row], set[int]]]:
    """(question, candidates with evidence, ids of its evidence turns) per answerable question."""
    from memories import selectors
    from memories.embedding import embed_texts
    from memories.models import Memory

    questions = [q for q in data["questions"] if q["conversation"] in namespaces and q["evidence"]]
    dia = {
        (ns, meta.get("dia_id")): pk
        for pk, ns, meta in Memory.objects.filter(namespace_id__in=namespaces.values()).values_list(
            "id", "namespace_id", "metadata"
        )
    }
    texts = [
        selectors.embedding_text(namespace_ids=[namespaces[q["conversation"]]], query=q["question"]) for q in questions
    ]
    vectors = embed_texts(texts)
    out = []
    for q, vector in zip(questions, vectors, strict=True):
        ns = namespaces[q["conversation"]]
        rows = selectors.search_features(namespace_ids=[ns], query=q["question"], query_vector=vector, limit=10)
        evidence = {dia[(ns, d)] for d in q["evidence"] if (ns, d) in dia}
        out.append((q, rows, evidence))
    return out


def score(collected: list[tuple[dict[str, Any], list[Row], set[int]]], rule: Rule) -> dict[str, Any]:
    per_type: dict[str, dict[str, list[float]]] = {}
    for q, rows, evidence in collected:
        harness.add_question(per_type, q["type"], rule(rows), evidence)
    return harness.per_type_table(per_type)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", required=True)
    parser.add_argument("--rules", help="rule names separated by | (default: all)")
    args = parser.parse_args(argv)
    harness.setup_django(Path(args.data_dir))
    data = harness.dataset()
    namespaces = harness.load(data, progress=True)
    collected = collect(data, namespaces)
    names = args.rules.split("|") if args.rules else list(RULES)
    tables = {name: score(collected, RULES[name]) for name in names}
    cols = (*harness.TYPES, "all")
    print("| rule | " + " | ".join(cols) + " | loses to an arm |")
    print("|---|" + "---|" * (len(cols) + 1))
    arms = [tables[a] for a in ("vector arm", "keyword arm") if a in tables]
    for name, t in tables.items():
        losses = [
            f"{c} {m}"
            for c in cols
            for m in ("r5", "r10", "mrr")
            if c in t and any(c in a and a[c][m] > t[c][m] + 1e-9 for a in arms)
        ]
        cells = [f"{t[c]['r5']:.3f} / {t[c]['r10']:.3f} / {t[c]['mrr']:.3f}" if c in t else "—" for c in cols]
        flag = "—" if name in ("vector arm", "keyword arm") else (", ".join(losses) or "none")
        print(f"| {name} | " + " | ".join(cells) + f" | {flag} |")


if __name__ == "__main__":
    main()
