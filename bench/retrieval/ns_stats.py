"""The keyword arm's word statistics from the searched namespace instead of the whole table: a
screen, and what it costs.

Why: the keyword arm decides which query words are too common to scan (MNEMO_KEYWORD_COMMON_FREQUENCY,
5%) and weighs each word (IDF) by the table's statistics (memories.selectors.word_frequencies,
PostgreSQL's ``most_common_elems``). In a table of many namespaces, a word common in the searched
one (its user's name, their city) is rare in the table: it is scanned (up to
MNEMO_KEYWORD_SCAN_LIMIT arbitrary rows) and, capped by that limit, weighs as if it were in 100
memories when it is in 200 (bench/NOTES.md, "the peers run's search statement", issue 25). Three
variants (``--kind``, KIND): *shares* reads every word's share of the searched namespace
(PostgreSQL's ``ts_stat`` over its live memories, counted once per namespace) where the shipped
statement reads the table's; *scan* keeps the shipped weights and leaves out only the scans of the
namespace's common words; *cosine* keeps everything but the order a word's scan takes its rows in
(nearest the query's vector first). Screened on namespaces searched exactly (a large namespace's
words are found through the table-wide index).

On namespaces already loaded (``--data-dir``, e.g. far_miss.py's four sets in one table), for each
set: features.py's dump as search ships, then the same with the variant; the shipped rule's
hybrid table from each (crossval.holdout, no fitting), and the statement's time both ways,
interleaved question by question. coach.json is not read.

    .venv/bin/python -m bench.retrieval.ns_stats --data-dir /tmp/mnemo-far --datasets chat,assistant,family,dev
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench.retrieval import crossval, features, harness

_current: list[int] = []
_shares: dict[int, dict[str, float]] = {}


def namespace_shares(namespace_id: int) -> dict[str, float]:
    """Every stemmed word's share of the namespace's live memories (counted once)."""
    from django.db import connection

    from memories.models import Memory

    if namespace_id not in _shares:
        n = Memory.objects.filter(namespace_id=namespace_id, status="ready").count()
        inner = (
            f"SELECT search_vector FROM memories_memory WHERE namespace_id = {int(namespace_id)} "
            "AND status = 'ready' AND search_vector IS NOT NULL"
        )
        with connection.cursor() as cursor:
            cursor.execute("SELECT word, ndoc FROM ts_stat(%s)", [inner])
            _shares[namespace_id] = {w: d / max(n, 1) for w, d in cursor.fetchall()}
    return _shares[namespace_id]


#: Which statistics the variant reads: "shares", every word's share of the searched namespace;
#: "scan": the table's, except that a word common in the namespace (over
#: MNEMO_KEYWORD_COMMON_FREQUENCY of it) reads as the share that makes its weight what the shipped
#: scan would have counted (min(its count, MNEMO_KEYWORD_SCAN_LIMIT)) and is not scanned while
#: that share is over the bar: the weights stay the shipped ones, only the scan's arbitrary rows go.
KIND = ["shares"]
#: "cosine": the table's statistics as shipped, but a word's scan takes the rows holding it nearest
#: the query's vector (then by id) instead of the first the index gives: the same number of rows,
#: chosen and in a fixed order (hybrid statements; the keyword mode has no query vector).
COSINE_ORDER = "            ORDER BY m.embedding <=> (SELECT v FROM qv), m.id\n            LIMIT %(scan)s"


@contextlib.contextmanager
def variant() -> Iterator[None]:
    """selectors read the searched namespace's statistics (the namespace of the search or weights
    call in progress) as KIND says."""
    from django.conf import settings

    from memories import selectors

    shipped = (selectors.word_frequencies, selectors.search_features, selectors.query_word_weights)

    def frequencies() -> dict[str, float]:
        if not _current or KIND[0] == "cosine":
            return shipped[0]()
        shares = namespace_shares(_current[-1])
        if KIND[0] == "shares":
            return shares
        n = max(selectors.namespace_size([_current[-1]]), 1)
        cap = settings.MNEMO_KEYWORD_SCAN_LIMIT / n
        common = settings.MNEMO_KEYWORD_COMMON_FREQUENCY
        table = dict(shipped[0]())
        table.update({w: min(share, cap) for w, share in shares.items() if share > common})
        return table

    def within(fn: Any) -> Any:
        def call(*, namespace_ids: list[int], **kw: Any) -> Any:
            _current.append(namespace_ids[0])
            try:
                return fn(namespace_ids=namespace_ids, **kw)
            finally:
                _current.pop()

        return call

    words = selectors._WORDS
    if KIND[0] == "cosine":
        selectors._WORDS = words.replace("            LIMIT %(scan)s", COSINE_ORDER)
        assert words != selectors._WORDS
    selectors.word_frequencies = frequencies  # type: ignore[assignment]
    selectors.search_features = within(shipped[1])  # type: ignore[assignment]
    weights = within(shipped[2])

    def keyword_weights(**kw: Any) -> Any:
        # the keyword-mode statement has no query vector; a scan's row count, all the weights
        # read, is the same in either order
        varied, selectors._WORDS = selectors._WORDS, words
        try:
            return weights(**kw)
        finally:
            selectors._WORDS = varied

    selectors.query_word_weights = keyword_weights  # type: ignore[assignment]
    try:
        yield
    finally:
        selectors.word_frequencies, selectors.search_features, selectors.query_word_weights = shipped  # type: ignore[assignment]
        selectors._WORDS = words


def timing(name: str, rounds: int) -> dict[str, float]:
    """The hybrid search (query vectors given) both ways, interleaved question by question with the
    order alternating: medians of the rounds' medians, ms."""
    from memories import selectors
    from memories.embedding import embed_texts

    data = harness.dataset(name)
    namespaces = harness.load(data)
    questions = data["questions"][:200]
    texts = [
        selectors.embedding_text(namespace_ids=[namespaces[q["conversation"]]], query=q["question"]) for q in questions
    ]
    vectors = embed_texts(texts)
    per_round: list[dict[str, float]] = []
    for r in range(rounds):
        times: dict[str, list[float]] = {"shipped": [], "namespace shares": []}
        for i, (q, vector) in enumerate(zip(questions, vectors, strict=True)):
            ns = namespaces[q["conversation"]]
            for arm in list(times)[:: 1 if (i + r) % 2 else -1]:
                with variant() if arm != "shipped" else contextlib.nullcontext():
                    _current.append(ns)
                    started = time.perf_counter()
                    selectors.search_memories(namespace_ids=[ns], query=q["question"], limit=10, query_vector=vector)
                    times[arm].append((time.perf_counter() - started) * 1000)
                    _current.pop()
        per_round.append({arm: statistics.median(v) for arm, v in times.items()})
    return {arm: round(statistics.median(r[arm] for r in per_round), 3) for arm in per_round[0]}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", required=True)
    parser.add_argument("--datasets", default="chat,assistant,family,dev")
    parser.add_argument("--out-dir", default="/tmp/feat-ns")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--kind", choices=("shares", "scan", "cosine"), default="shares", help="the variant (KIND)")
    parser.add_argument("--json")
    args = parser.parse_args(argv)
    KIND[0] = args.kind
    names = args.datasets.split(",")
    if "coach" in names:
        parser.error("coach.json is the unread reserve: judge a registered candidate on it with holdout.py")
    harness.setup_django(Path(args.data_dir))
    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    result: dict[str, Any] = {"date": datetime.now(UTC).isoformat(timespec="seconds"), "kind": args.kind, "sets": {}}
    for name in names:
        tables = {}
        for arm in ("shipped", "namespace shares"):
            with variant() if arm != "shipped" else contextlib.nullcontext():
                dumped = features.dump(name)
            path = out / f"f-{name}-{arm.replace(' ', '-')}-{args.kind}.json"
            path.write_text(json.dumps(dumped))
            held = crossval.holdout(crossval.load(str(path)))
            tables[arm] = {"hybrid": held["table"], "arms": held["arms"]}
        result["sets"][name] = {"tables": tables, "ms": timing(name, args.rounds)}
        s, v = (tables[a]["hybrid"]["all"] for a in ("shipped", "namespace shares"))
        print(
            f"{name}: R@5/R@10 {s['r5']:.3f}/{s['r10']:.3f} -> {v['r5']:.3f}/{v['r10']:.3f}; "
            f"ms {result['sets'][name]['ms']}",
            flush=True,
        )
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(result, indent=1, default=float) + "\n")


if __name__ == "__main__":
    main()
