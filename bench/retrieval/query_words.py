"""The vector arm's query with fewer words: the same searches, fewer tokens?

Issue 25 wants a search to cost little more than its query embedding, and the embedding's cost
grows with the tokens it reads (about 0.4 ms of CPU per token on one thread, bench/NOTES.md).
The vector arm already embeds the question without its namespace's common words
(``selectors.embedding_text``). Two variants leave out more (2026-11-29, neither shipped:
bench/NOTES.md): ``features.content_words_embedding_text`` (``--content-words``) every stop word,
the tokens PostgreSQL's ``english`` configuration gives no stemmed word ("When did Tariq get a
tattoo?" → "get tattoo?"), and ``features.leading_words_embedding_text`` (``--leading-words``)
only those before the first content word ("get a tattoo?"). Nothing is fitted: the shipped rule,
calibration and floor read both dumps as they ship (``crossval.holdout``), so every set is out of
sample for a variant.

Reads two directories of features.py dumps (f-<set>.json), the shipped query and the variant's,
and prints per set R@5 / R@10 / MRR, the change per question type, the largest loss to an arm,
the floor's cost and the never-stored questions it silences, and the tokens the model reads.

    .venv/bin/python -m bench.retrieval.features --data-dir /tmp/ret-chat --dataset chat --out /tmp/feat/f-chat.json
    .venv/bin/python -m bench.retrieval.features --data-dir /tmp/ret-chat --dataset chat --content-words \\
        --out /tmp/featcw/f-chat.json
    .venv/bin/python -m bench.retrieval.query_words /tmp/feat /tmp/featcw --json bench/results/query-words/<stamp>.json
    # the query embedding's CPU, the two texts of each question interleaved, after a 20 ms pause
    .venv/bin/python -m bench.retrieval.query_words /tmp/feat /tmp/featcw --speed --json <out>.json
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from pathlib import Path
from typing import Any

import numpy as np

from bench.retrieval import crossval as cv

SETS = ("mnemo", "chat", "assistant", "notes", "team", "life", "family", "dev", "coach")


def tokens(texts: list[str]) -> list[int]:
    """How many tokens the embedder reads for each text ([CLS] and [SEP] included): its own
    tokenizer and windows (a query is one window)."""
    from memories.embedding import MiniLMInt8Embedder

    return [sum(len(w) + 2 for w in windows) for windows in MiniLMInt8Embedder(threads=1).window_ids(texts)]


def read(path: Path) -> dict[str, Any]:
    """One dump as the shipped rule reads it: the holdout tables, the arms' largest loss, the tokens."""
    raw = json.loads(path.read_text())
    qs = cv.from_dump(raw)
    out = cv.holdout(qs)
    out["loss"] = cv.deficit(out["table"], out["arms"])
    out["tokens"] = float(np.mean(tokens([q["embedded"] for q in raw["questions"]])))
    out["never"] = sum(1 for q in qs if not q.evidence)
    return out


def compare(shipped_dir: Path, variant_dir: Path, sets: tuple[str, ...] = SETS) -> dict[str, Any]:
    rows: dict[str, Any] = {}
    for name in sets:
        a, b = shipped_dir / f"f-{name}.json", variant_dir / f"f-{name}.json"
        if a.exists() and b.exists():
            rows[name] = {"shipped": read(a), "variant": read(b)}
    return rows


def _cell(s: dict[str, Any], v: dict[str, Any], metric: str) -> str:
    return f"{s['table']['all'][metric]:.3f} → {v['table']['all'][metric]:.3f}"


def render(rows: dict[str, Any], label: str = "stop words out") -> list[str]:
    lines = [
        f"| set | R@5 shipped → {label} | R@10 | MRR | largest loss to an arm | floor's R@10 cost"
        " / never-stored silenced | tokens read |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, r in rows.items():
        s, v = r["shipped"], r["variant"]
        floor = (
            f"{100 * s['floor']['r10_lost']:.1f} / {1 - s['floor']['false_hit_rate']:.2f} → "
            f"{100 * v['floor']['r10_lost']:.1f} / {1 - v['floor']['false_hit_rate']:.2f}"
            if r["shipped"]["never"]
            else f"{100 * s['floor']['r10_lost']:.1f} → {100 * v['floor']['r10_lost']:.1f} (none)"
        )
        lines.append(
            f"| {name} | {_cell(s, v, 'r5')} | {_cell(s, v, 'r10')} | {_cell(s, v, 'mrr')} | "
            f"{s['loss']:+.3f} → {v['loss']:+.3f} | "
            f"{floor} | {s['tokens']:.1f} → {v['tokens']:.1f} |"
        )

    def mean(arm: str, metric: str) -> float:
        return float(np.mean([r[arm]["table"]["all"][metric] for r in rows.values()]))

    lines.append(
        f"| mean of {len(rows)} | {mean('shipped', 'r5'):.3f} → {mean('variant', 'r5'):.3f} | "
        f"{mean('shipped', 'r10'):.3f} → {mean('variant', 'r10'):.3f} | "
        f"{mean('shipped', 'mrr'):.3f} → {mean('variant', 'mrr'):.3f} | | | "
        f"{np.mean([r['shipped']['tokens'] for r in rows.values()]):.1f} → "
        f"{np.mean([r['variant']['tokens'] for r in rows.values()]):.1f} |"
    )
    lines += ["", f"Per question type, R@5 / R@10 change in points ({label} − shipped):", ""]
    for name, r in rows.items():
        s, v = r["shipped"]["table"], r["variant"]["table"]
        cells = [
            f"{t} {100 * (v[t]['r5'] - s[t]['r5']):+.1f} / {100 * (v[t]['r10'] - s[t]['r10']):+.1f}"
            for t in s
            if t != "all"
        ]
        lines.append(f"- {name}: " + ", ".join(cells))
    return lines


def pairs(shipped_dir: Path, variant_dir: Path, per_set: int, seed: int = 29) -> list[tuple[str, str]]:
    """(shipped text, variant text) of ``per_set`` questions of each set both directories hold, sampled."""
    rnd = random.Random(seed)
    out = []
    for name in SETS:
        a, b = shipped_dir / f"f-{name}.json", variant_dir / f"f-{name}.json"
        if not (a.exists() and b.exists()):
            continue
        variant = {q["id"]: q["embedded"] for q in json.loads(b.read_text())["questions"]}
        both = [(q["embedded"], variant[q["id"]]) for q in json.loads(a.read_text())["questions"] if q["id"] in variant]
        out += rnd.sample(both, min(per_set, len(both)))
    return out


def speed(texts: list[tuple[str, str]], *, rounds: int, pause_ms: float) -> dict[str, Any]:
    """The default embedder's CPU per query (one onnxruntime thread, process CPU time of one
    ``embed([text])``), the shipped text and the variant's of each question one after the other,
    the order alternating, each after ``pause_ms`` as a served search's embedding comes; per round
    the medians and the median of the paired ratios (shipped ÷ variant)."""
    from memories.embedding import MiniLMInt8Embedder

    embedder = MiniLMInt8Embedder(threads=1, fused=True)
    embedder.embed(["warm up"] * 3)
    result: dict[str, Any] = {"pause_ms": pause_ms, "questions": len(texts), "rounds": []}
    for r in range(rounds):
        cpu: dict[str, list[float]] = {"shipped": [], "variant": []}
        for i, pair in enumerate(texts):
            order = ("shipped", "variant") if (i + r) % 2 == 0 else ("variant", "shipped")
            for arm in order:
                time.sleep(pause_ms / 1000)
                started = time.process_time()
                embedder.embed([pair[0] if arm == "shipped" else pair[1]])
                cpu[arm].append(1000 * (time.process_time() - started))
        row = {arm: statistics.median(v) for arm, v in cpu.items()}
        row["paired_ratio"] = statistics.median(a / b for a, b in zip(cpu["shipped"], cpu["variant"], strict=True) if b)
        result["rounds"].append(row)
        print(r, {k: round(v, 3) for k, v in row.items()}, flush=True)
    result["median_of_rounds"] = {k: statistics.median(r[k] for r in result["rounds"]) for k in result["rounds"][0]}
    result["load_average"] = os.getloadavg()
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("shipped", type=Path, help="directory of features.py dumps, the shipped query")
    parser.add_argument("variant", type=Path, help="directory of a variant's features.py dumps")
    parser.add_argument("--label", default="stop words out", help="the variant's name in the table")
    parser.add_argument("--json", type=Path, help="write the per-set results here")
    parser.add_argument("--speed", action="store_true", help="measure the query embedding's CPU instead")
    parser.add_argument("--per-set", type=int, default=40, help="--speed: questions sampled per set")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--pause-ms", type=float, default=20.0)
    args = parser.parse_args(argv)
    if args.speed:
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
        import django

        django.setup()
        result = speed(pairs(args.shipped, args.variant, args.per_set), rounds=args.rounds, pause_ms=args.pause_ms)
        print(json.dumps(result["median_of_rounds"]), result["load_average"])
        if args.json:
            args.json.parent.mkdir(parents=True, exist_ok=True)
            args.json.write_text(json.dumps(result, indent=1) + "\n")
        return
    rows = compare(args.shipped, args.variant)
    print("\n".join(render(rows, args.label)))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        slim = {
            n: {k: {f: r[k][f] for f in ("table", "table_at_floor", "floor", "loss", "tokens", "never")} for k in r}
            for n, r in rows.items()
        }
        args.json.write_text(json.dumps(slim, indent=1))


if __name__ == "__main__":
    main()
