"""The full-text index's pending list: what it costs a search, and what turning it off costs a
write (issue 25).

PostgreSQL's GIN indexes take new entries into an unsorted "pending list" by default
(``fastupdate``), merged into the index proper only by VACUUM (autovacuum), by
``gin_clean_pending_list()``, or by the insert that finds the list past
``gin_pending_list_limit`` (4 MB). Every search through the index reads the whole list, for every
word. A table that is written continuously carries up to a few thousand such entries between
autovacuum's passes, which the benches' freshly vacuumed tables never had.

In process, against an embedded PostgreSQL in its own folder (bench/standalone.py): the first
``--conversations`` conversations of bench/retrieval/conversations.json stored through
``remember`` (one namespace each) and one more as the written namespace, autovacuum off for the
table while measuring. Then, for each level of ``--writes`` (rows written since the list was last
merged, copies of stored memories into the written namespace, which no search reads):

- *pending*: the searches with that many rows in the pending list;
- *merged*: the same searches right after ``gin_clean_pending_list`` (the same rows, the list
  empty), which is what every search costs with ``fastupdate = off``.

Searches: ``--searches`` of the conversations' questions (seeded), each in its own namespace, in
keyword mode and in hybrid mode with the query's vector given (the embedding is not what is
measured), limit 10, each search's wall time; medians. The hits of every search are compared with
the first level's: the searched namespaces never change, so they must be the same.

Writes: single-row INSERTs of copies of stored memories (as remember's insert, without the rest
of its transaction), in batches of 50 alternating ``fastupdate`` on and off (on the table's three
GIN indexes), each statement's wall time; medians per arm and the 99th percentile. After each
batch, one INSERT of 200 rows (a worker's or an import's batch), per row; with the list, the
merge of the batch's entries (``gin_clean_pending_list``: what autovacuum would do later), per
row.

Each index's options are put back as they were at the start.

``--variant``: ``off`` (what is above: no pending list, whose searches cost the *merged* column),
or ``limit64``: the list kept but bounded, ``gin_pending_list_limit = 64`` (kB, PostgreSQL's
least; the insert that finds the list full merges it): then the searched index carries that
setting while the rows are written, so *pending* is what searches cost with it, and the write
arms alternate the default with it.

    .venv/bin/python bench/gin_pending.py [--conversations 4] [--writes 1000,4000,12000] \\
        [--searches 150] [--inserts 2000] [--data-dir DIR] [--out FILE.json]

Writes bench/results/gin-pending/<date>.json.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
RESULTS = ROOT / "bench" / "results" / "gin-pending"
INDEX = "memory_search_vector_gin"
#: Every GIN index of the table (memories.models): a write updates them all.
GIN_INDEXES = (INDEX, "memory_tags_gin", "memory_metadata_gin")
BULK = 200
#: The index options of each arm: PostgreSQL's default, and the variants compared with it.
VARIANTS = {
    "on": "fastupdate = on, gin_pending_list_limit = 4096",
    "off": "fastupdate = off",
    "limit64": "fastupdate = on, gin_pending_list_limit = 64",
}


def median_ms(seconds: list[float]) -> float:
    return round(statistics.median(seconds) * 1000, 3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--conversations", type=int, default=4, help="searched namespaces")
    parser.add_argument("--writes", default="1000,4000,12000", help="rows pending at each level")
    parser.add_argument("--searches", type=int, default=150)
    parser.add_argument("--inserts", type=int, default=2000, help="single-row inserts timed, half per arm")
    parser.add_argument("--variant", choices=sorted(VARIANTS), default="off", help="what the default is compared with")
    parser.add_argument("--data-dir", help="the database's folder (kept between runs); default: a new one")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    os.environ["MNEMO_EMBEDDER_THREADS"] = "1"
    if args.data_dir:
        os.environ["MNEMO_DATA_DIR"] = args.data_dir
    from bench.standalone import setup_django

    setup_django("mnemo-gin-pending-", MNEMO_QUERY_VECTOR_CACHE="0")
    from django.db import connection, transaction

    import memories.selectors as selectors
    from bench.retrieval import harness
    from bench.run import machine, percentile
    from memories.embedding import embed_texts

    data = harness.dataset("mnemo")
    ids = [c["id"] for c in data["conversations"][: args.conversations + 1]]
    namespaces = harness.load(data, conversations=ids)
    searched = {conversation: namespaces[conversation] for conversation in ids[:-1]}
    written = namespaces[ids[-1]]
    rng = random.Random(11)
    asked = [(searched[q["conversation"]], q["question"]) for q in data["questions"] if q["conversation"] in searched]
    asked = rng.sample(asked, min(args.searches, len(asked)))
    vectors = embed_texts([q for _, q in asked])

    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE memories_memory SET (autovacuum_enabled = false)")
        cursor.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_name = 'memories_memory' "
            "AND is_generated = 'NEVER' AND column_name NOT IN ('id', 'event_id', 'namespace_id')"
        )
        columns = ", ".join(row[0] for row in cursor.fetchall())
        cursor.execute(
            "SELECT id FROM memories_memory WHERE namespace_id = ANY(%s) ORDER BY id", [list(searched.values())]
        )
        sources = [row[0] for row in cursor.fetchall()]
        cursor.execute("SELECT relname, reloptions FROM pg_class WHERE relname = ANY(%s)", [list(GIN_INDEXES)])
        options = dict(cursor.fetchall())  # put back at the end
        # The searched index queues while the rows are written: the default's list, or the variant's.
        cursor.execute(f"ALTER INDEX {INDEX} SET ({VARIANTS['limit64' if args.variant == 'limit64' else 'on']})")
        cursor.execute("VACUUM ANALYZE memories_memory")
    copy = (
        f"INSERT INTO memories_memory ({columns}, namespace_id, event_id) "
        f"SELECT {columns}, %s, gen_random_uuid() FROM memories_memory WHERE id = ANY(%s)"
    )

    def write(rows: int) -> None:
        """``rows`` copies of stored memories into the written namespace, in bulk."""
        while rows > 0:
            batch = [sources[rng.randrange(len(sources))] for _ in range(min(rows, 500))]
            with connection.cursor() as cursor:
                cursor.execute(copy, [written, batch])
            rows -= len(batch)

    def merge() -> None:
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT gin_clean_pending_list('{INDEX}')")

    def searches() -> dict[str, Any]:
        times: dict[str, list[float]] = {"keyword": [], "hybrid": []}
        hits: list[Any] = []
        for (namespace, question), vector in zip(asked, vectors, strict=True):
            for mode in ("keyword", "hybrid"):
                started = time.perf_counter()
                found = selectors.search_memories(
                    namespace_ids=[namespace],
                    query=question,
                    limit=10,
                    mode=mode,
                    query_vector=vector if mode == "hybrid" else None,
                )
                times[mode].append(time.perf_counter() - started)
                hits.append([(h.memory.id, h.score, h.similarity, h.coverage) for h in found])
        return {"keyword_ms": median_ms(times["keyword"]), "hybrid_ms": median_ms(times["hybrid"]), "hits": hits}

    load_before = os.getloadavg()[0]
    searches()  # warm: plans, caches, the model's session
    reference = searches()
    levels = []
    written_rows = 0
    same = True
    for level in (int(w) for w in args.writes.split(",")):
        write(level)
        written_rows += level
        pending = searches()
        merge()
        merged = searches()
        same = same and pending["hits"] == reference["hits"] and merged["hits"] == reference["hits"]
        levels.append(
            {
                "pending_rows": level,
                "table_rows": len(sources) + written_rows,
                "keyword_ms": {"pending": pending["keyword_ms"], "merged": merged["keyword_ms"]},
                "hybrid_ms": {"pending": pending["hybrid_ms"], "merged": merged["hybrid_ms"]},
            }
        )
        print(levels[-1], flush=True)

    inserts: dict[str, list[float]] = {"on": [], args.variant: []}
    bulk: dict[str, list[float]] = {"on": [], args.variant: []}
    merges: list[float] = []
    batches = max(args.inserts // 100, 1)
    for n in range(batches * 2):
        arm = ("on", args.variant)[(n + n // 2) % 2]  # default, variant, variant, default, ...: ABBA
        with connection.cursor() as cursor:
            for name in GIN_INDEXES:
                cursor.execute(f"ALTER INDEX {name} SET ({VARIANTS[arm]})")
        with transaction.atomic(), connection.cursor() as cursor:
            for _ in range(50):
                source = sources[rng.randrange(len(sources))]
                started = time.perf_counter()
                cursor.execute(copy, [written, [source]])
                inserts[arm].append(time.perf_counter() - started)
            # A worker's batch, and with the list the merge that VACUUM (or a later insert) does.
            batch = [sources[rng.randrange(len(sources))] for _ in range(BULK)]
            started = time.perf_counter()
            cursor.execute(copy, [written, batch])
            bulk[arm].append((time.perf_counter() - started) / BULK)
            if arm == "on":
                started = time.perf_counter()
                for name in GIN_INDEXES:
                    cursor.execute(f"SELECT gin_clean_pending_list('{name}')")
                merges.append((time.perf_counter() - started) / (BULK + 50))
    with connection.cursor() as cursor:
        for name in GIN_INDEXES:
            cursor.execute(f"ALTER INDEX {name} RESET (fastupdate, gin_pending_list_limit)")
            if options.get(name):
                cursor.execute(f"ALTER INDEX {name} SET ({', '.join(options[name])})")
            cursor.execute(f"SELECT gin_clean_pending_list('{name}')")
        cursor.execute("ALTER TABLE memories_memory RESET (autovacuum_enabled)")
    result = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "load_average": [load_before, os.getloadavg()[0]],
        "variant": args.variant,
        "searched_namespaces": len(searched),
        "memories_searched": len(sources),
        "searches": len(asked),
        "same_hits_at_every_level": same,
        "reference_ms": {"keyword": reference["keyword_ms"], "hybrid": reference["hybrid_ms"]},
        "levels": levels,
        "insert_ms": {
            arm: {"median": median_ms(times), "p99": round(percentile(times, 99) * 1000, 3)}
            for arm, times in inserts.items()
        },
        "inserts_per_arm": len(inserts["on"]),
        "bulk_insert_ms_per_row": {arm: median_ms(times) for arm, times in bulk.items()},
        "bulk_rows": BULK,
        "merge_ms_per_row_with_the_list": median_ms(merges),
    }
    print(json.dumps({k: v for k, v in result.items() if k != "levels"}, indent=1))
    out = args.out or RESULTS / f"{datetime.now(UTC).strftime('%Y-%m-%dT%H%M%S')}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1) + "\n")
    print("written", out)


def ratio(pair: dict[str, float]) -> str:
    return f"{pair['pending']} → {pair['merged']} ({pair['pending'] / pair['merged']:.2f}×)"


def render_section(results: dict[str, Any]) -> list[str]:
    """One read's part of the "pending list" section of docs/benchmarks.md (issue 25)."""
    m, ins, bulk = results["machine"], results["insert_ms"], results["bulk_insert_ms_per_row"]
    cores = m.get("cpus", m.get("cores"))  # bench.run.machine()'s name; "cores" in the first two reads
    merge = results["merge_ms_per_row_with_the_list"]
    variant = results.get("variant", "off")
    bounded = variant == "limit64"
    pending = (
        "with the list bounded at 64 kB (`gin_pending_list_limit = 64`) while that many rows were written"
        if bounded
        else "with that many rows in the index's pending list (PostgreSQL's default, `fastupdate = on`, before "
        "autovacuum merges it)"
    )
    lines = [
        f"### `--variant {variant}`: {VARIANTS[variant]}",
        "",
        f"Commit {m['commit']}, {results['date']}; {cores} cores, load average {results['load_average'][0]:.1f} "
        f"before and {results['load_average'][1]:.1f} after. {results['searched_namespaces']} namespaces of the "
        f"retrieval benchmark ({results['memories_searched']} memories searched), {results['searches']} of their "
        f"questions. *Pending*: {pending}; *merged*: the same searches right after `gin_clean_pending_list` (no list "
        "at all: what `fastupdate = off` costs every search).",
        "",
        "| rows written (rows in the table) | keyword search ms: pending → merged | hybrid search, query vector "
        "given, ms: pending → merged |",
        "|---|---|---|",
    ]
    for level in results["levels"]:
        lines.append(
            f"| {level['pending_rows']} ({level['table_rows']}) | {ratio(level['keyword_ms'])} | "
            f"{ratio(level['hybrid_ms'])} |"
        )
    same = "yes" if results["same_hits_at_every_level"] else "**no**"
    lines += [
        "",
        f"The same hits at every level: {same}. Before any row was written: keyword "
        f"{results['reference_ms']['keyword']} ms, hybrid {results['reference_ms']['hybrid']} ms.",
        "",
        f"What a write pays ({results['inserts_per_arm']} single-row inserts per arm, in batches of 50 alternating "
        f"ABBA, the table's three GIN indexes together): the default p50 {ins['on']['median']} / p99 "
        f"{ins['on']['p99']} ms, `{variant}` p50 {ins[variant]['median']} / p99 {ins[variant]['p99']} ms. A batch "
        f"of {results['bulk_rows']} rows, per row: the default {bulk['on']} ms (and {merge} ms per row when its "
        f"entries are merged later), `{variant}` {bulk[variant]} ms.",
        "",
    ]
    return lines


def newest_section() -> list[str]:
    """The section: the newest read of each variant, or nothing when there are none."""
    newest: dict[str, dict[str, Any]] = {}
    for path in sorted(RESULTS.glob("*.json")):  # names sort by time
        results = json.loads(path.read_text())
        newest[results.get("variant", "off")] = results
    if not newest:
        return []
    lines = [
        "## The full-text index's pending list (issue 25)",
        "",
        "Measured by `bench/gin_pending.py`, in process, each search's wall time, medians. The rows written go "
        "to another namespace, so every level searches the same memories. What was decided from each read: "
        "bench/NOTES.md (2026-11-29).",
        "",
    ]
    for variant in sorted(newest):
        lines += render_section(newest[variant])
    return lines


if __name__ == "__main__":
    main()
