"""Dump every question's search candidates with both arms' evidence, for offline fusion work.

For each question of a data set (answerable or not), ``memories.selectors.search_features``
returns the hybrid statement's candidates: (id, cosine, IDF keyword coverage, vector rank,
keyword rank). They are written to a JSON file with the question's type, conversation and
evidence memory ids, so that fusion rules, calibration and floors can be fitted and checked in
numpy without searching again (``crossval.py``).

    .venv/bin/python -m bench.retrieval.features --data-dir /tmp/mnemo-ret --dataset chat --out /tmp/f-chat.json

``--dataset quality`` dumps the search-quality test's fixture instead (tests/memories/search_quality.json
and its near-miss siblings, in a data directory of its own: its word statistics are its own table's,
as in the test), for ``lodo.py --fixture``.
"""

from __future__ import annotations

import argparse
import functools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.retrieval import harness

#: The MNEMO_SEARCH_COMMON_SHARE values tried (1.0: the whole question embedded).
SHARES = (0.02, 0.05, 0.1, 1.0)


def quality_fixture() -> dict[str, Any]:
    """tests/memories/search_quality.json (and the near-miss siblings its test adds) as a data set
    of one namespace: its 58 queries with their expected memory as evidence, typed by kind
    (paraphrase, keyword, name), for lodo.py's offline check of a rule against that test."""
    from tests.memories.test_search_quality import FIXTURE, siblings

    turns = [{"id": m["key"], "text": m["text"]} for m in FIXTURE["memories"]]
    turns += [{"id": f"sibling-{i}", "text": text} for i, text in enumerate(siblings())]
    return {
        "conversations": [{"id": "q0", "sessions": [{"session": 1, "date": "2026-01-01", "turns": turns}]}],
        "questions": [
            {"id": f"q{i}", "conversation": "q0", "type": q["kind"], "question": q["query"]}
            | {"evidence": [q["expected"]]}
            for i, q in enumerate(FIXTURE["queries"])
        ],
    }


def names_only_embedding_text(*, namespace_ids: list[int], query: str) -> str:
    """A variant of ``selectors.embedding_text`` (2026-11-27, not shipped: bench/NOTES.md): a
    common word is left out of the embedded query only when it is written as a name (capitalised,
    not the query's first word), so a topic many memories share ("the status page") stays in."""
    from memories import selectors

    tokens = query.split()
    if not 2 <= len(tokens) <= 32:
        return query
    common = selectors.common_lexemes(namespace_ids)
    if not common:
        return query
    stemmed = selectors._lexemes(tokens)
    kept = [
        (t, lexemes)
        for i, (t, lexemes) in enumerate(zip(tokens, stemmed, strict=True))
        if not (common.intersection(lexemes) and i > 0 and t[:1].isupper())
    ]
    if len(kept) == len(tokens) or not any(lexemes for _, lexemes in kept):
        return query
    return " ".join(t for t, _ in kept)


def _shipped_tokens(
    *, namespace_ids: list[int], query: str, shipped: Callable[..., str]
) -> tuple[str, list[str], list[tuple[str, ...]]]:
    """The shipped embedded text, its tokens and their stemmed words; no tokens where the shipped
    rule leaves a text whole by its length (fewer than 2 or more than 32 tokens)."""
    from memories import selectors

    text = shipped(namespace_ids=namespace_ids, query=query)
    tokens = text.split()
    if not 2 <= len(tokens) <= 32:
        return text, [], []
    return text, tokens, selectors._lexemes(tokens)


def content_words_embedding_text(*, namespace_ids: list[int], query: str, shipped: Callable[..., str]) -> str:
    """A variant of ``selectors.embedding_text`` (2026-11-29, issue 25's cost and issue 26's
    quality: bench/NOTES.md): the shipped text without its stop words too (the tokens PostgreSQL's
    ``english`` configuration gives no stemmed word: "when", "did", "a"), so the model reads about
    a third fewer tokens, and its cost grows with the tokens. Kept whole when no content word is
    left (a query of stop words only). ``shipped``: selectors.embedding_text as it ships."""
    text, tokens, stemmed = _shipped_tokens(namespace_ids=namespace_ids, query=query, shipped=shipped)
    if not tokens:
        return text
    kept = [t for t, lexemes in zip(tokens, stemmed, strict=True) if lexemes]
    return " ".join(kept) if kept else text


def leading_words_embedding_text(*, namespace_ids: list[int], query: str, shipped: Callable[..., str]) -> str:
    """A second variant of ``selectors.embedding_text`` (2026-11-29, after the content-words one
    lost 3 points of R@10): only the stop words before the first content word leave, the
    question's frame ("When did", "What is the"); those after it stay ("now", "before", "not"
    carry the relation). Kept whole when nothing or one token would be left."""
    text, tokens, stemmed = _shipped_tokens(namespace_ids=namespace_ids, query=query, shipped=shipped)
    if not tokens:
        return text
    first = next((i for i, lexemes in enumerate(stemmed) if lexemes), None)
    if first is None or len(tokens) - first < 2:
        return text
    return " ".join(tokens[first:])


def dump(
    name: str,
    *,
    conversations: int | None = None,
    common_share: float | None = None,
    names_only: bool = False,
    content_words: bool = False,
    leading_words: bool = False,
) -> dict:
    from django.conf import settings

    from memories import selectors

    if names_only:
        selectors.embedding_text = names_only_embedding_text  # type: ignore[assignment]
    if content_words:
        selectors.embedding_text = functools.partial(content_words_embedding_text, shipped=selectors.embedding_text)
    if leading_words:
        selectors.embedding_text = functools.partial(leading_words_embedding_text, shipped=selectors.embedding_text)

    if common_share is not None:
        settings.MNEMO_SEARCH_COMMON_SHARE = common_share
        selectors.forget_namespace_stats()
    from memories.embedding import embed_texts
    from memories.models import Memory

    data = quality_fixture() if name == "quality" else harness.dataset(name)
    convs = [c["id"] for c in data["conversations"]][:conversations]
    namespaces = harness.load(data, conversations=convs, progress=True)
    dia = {
        (ns, meta.get("dia_id")): pk
        for pk, ns, meta in Memory.objects.filter(namespace_id__in=namespaces.values()).values_list(
            "id", "namespace_id", "metadata"
        )
    }
    questions = [q for q in data["questions"] if q["conversation"] in namespaces]
    texts = [
        selectors.embedding_text(namespace_ids=[namespaces[q["conversation"]]], query=q["question"]) for q in questions
    ]
    vectors = embed_texts(texts)
    out = []
    for q, text, vector in zip(questions, texts, vectors, strict=True):
        ns = namespaces[q["conversation"]]
        rows = selectors.search_features(namespace_ids=[ns], query=q["question"], query_vector=vector, limit=10)
        out.append(
            {
                "id": q["id"],
                "conversation": q["conversation"],
                "type": q["type"],
                "question": q["question"],
                # what the vector arm embedded (the question without its namespace's common words)
                "embedded": text,
                "terms": len(selectors.query_terms(q["question"])),
                # the namespace size and the query's words' IDF weights (rules that adapt per query)
                "idf": selectors.query_word_weights(namespace_ids=[ns], query=q["question"]),
                "evidence": [dia[(ns, d)] for d in q["evidence"] if (ns, d) in dia],
                "rows": [[r[0], r[1], r[2], r[3], r[4]] for r in rows],
            }
        )
    # every candidate's text, for second-stage checks on the top hits (bench/retrieval/answerable.py)
    ids = {r[0] for q in out for r in q["rows"]}
    texts = dict(Memory.objects.filter(id__in=ids).values_list("id", "text"))
    return {
        "dataset": name,
        "common_share": settings.MNEMO_SEARCH_COMMON_SHARE,
        "names_only": names_only,
        "content_words": content_words,
        "leading_words": leading_words,
        "questions": out,
        "texts": {str(k): v for k, v in texts.items()},
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", required=True)
    parser.add_argument("--dataset", choices=[*sorted(harness.DATASETS), "quality"], default="mnemo")
    parser.add_argument("--out", required=True)
    parser.add_argument("--common-share", type=float, help="MNEMO_SEARCH_COMMON_SHARE for this dump")
    parser.add_argument(
        "--names-only",
        action="store_true",
        help="the vector arm's query leaves out only common words written as names (a variant, not shipped)",
    )
    parser.add_argument(
        "--content-words",
        action="store_true",
        help="the vector arm's query also leaves out stop words (a variant, not shipped)",
    )
    parser.add_argument(
        "--leading-words",
        action="store_true",
        help="the vector arm's query also leaves out the stop words before its first content word (not shipped)",
    )
    args = parser.parse_args(argv)
    harness.setup_django(Path(args.data_dir))
    out = dump(
        args.dataset,
        common_share=args.common_share,
        names_only=args.names_only,
        content_words=args.content_words,
        leading_words=args.leading_words,
    )
    Path(args.out).write_text(json.dumps(out))


if __name__ == "__main__":
    main()
