"""Questions about things never stored, of the far kind: another data set's questions asked of a
namespace that never heard of their subject. How many does search answer with nothing?

The never-stored questions of bench/retrieval's data sets are near misses by design (the fact is
the other speaker's, the attribute is nearby, the key words are in the namespace), and search's
default floor silences none of them (bench/NOTES.md, issue 26). A user's question about a topic
never mentioned at all is the other kind. This measures it, with no fitting: every namespace of the
``--targets`` sets is asked ``--per-namespace`` answerable questions drawn (seeded) from the other
read sets, in two forms:

- *as asked*: the question as its own set wrote it, names of people this namespace never heard of
  included ("What exam did Hana pass?" asked of Tariq's conversation);
- *renamed*: every speaker name of the question's own conversation replaced by this namespace's
  first speaker (its user), so the question is about this user ("What exam did Tariq pass?").
  A renamed question can be answerable by chance (Tariq talked about an exam too): its rate is a
  floor on silence for never-stored questions, not an exact one.

Both forms are searched as search ships (hybrid, top 10, ``min_score`` 0), and the share left
with no hit is counted at several floors, with and without the opt-in answerability check
(memories/answerable.py, applied as the product applies it: on the hits above the floor). Beside
them, the target set's own questions, searched the same way: its never-stored (near-miss) ones'
silence and its answerable ones' R@10 lost at each floor, so a floor's cost reads next to its catch.
coach.json, the reserve set, is never a source; it can be a target (``--targets coach``), to read a
candidate of the check held out (bench/NOTES.md, issue 26, 2026-12-07).

    .venv/bin/python -m bench.retrieval.far_miss --data-dir /tmp/mnemo-far \
        --targets chat,assistant,family,dev --json bench/results/far-miss/<stamp>.json
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench.retrieval import harness

RESULTS = Path(__file__).resolve().parent.parent / "results" / "far-miss"

#: The read sets (harness.DATASETS without the unread reserve).
READ = ("mnemo", "chat", "assistant", "notes", "team", "life", "family", "dev")
FLOORS = (0.005, 0.01, 0.02, 0.05, 0.1)
ASSISTANTS = {"Assistant", "Coach"}


def rename(question: str, names: list[str], user: str) -> str:
    """``question`` with each of ``names`` as a whole word (and its possessive) replaced by
    ``user``: one pass per name over the question (linear)."""
    for name in sorted(names, key=len, reverse=True):
        question = re.sub(r"\b" + re.escape(name) + r"\b", user, question)
    return question


def foreign_questions(
    target: str, conversation: dict[str, Any], sets: dict[str, dict[str, Any]], k: int, seed: int
) -> list[dict[str, str]]:
    """``k`` answerable questions of the read sets other than ``target``, each with its renamed
    form; the same draw for the same arguments."""
    pool = [
        (name, q, convs[q["conversation"]])
        for name, data in sorted(sets.items())
        if name != target
        for convs in [{c["id"]: c for c in data["conversations"]}]
        for q in data["questions"]
        if q["evidence"]
    ]
    rng = random.Random(f"{seed}:{conversation['id']}")
    user = next((s for s in conversation.get("speakers", []) if s not in ASSISTANTS), None)
    out = []
    for name, q, source in rng.sample(pool, k):
        names = [s for s in source.get("speakers", []) if s not in ASSISTANTS]
        renamed = rename(q["question"], names, user) if user else q["question"]
        out.append({"source": name, "id": q["id"], "asked": q["question"], "renamed": renamed})
    return out


def _silence(runs: list[dict[str, Any]], floor: float, check: bool) -> float:
    """Share of the searches left with no hit at ``floor`` (the check, if on, on the kept hits)."""
    return statistics.fmean(not (r["kept"][str(floor)] and (not check or r["answers"][str(floor)])) for r in runs)


def _r10_lost(runs: list[dict[str, Any]], floor: str, check: bool) -> float:
    """Mean R@10 of the answerable questions at min_score 0, less the same at ``floor`` (the
    check, if on, emptying the answer it says is not one)."""
    at_floor = [r["r10"][floor] if (not check or r["answers"][floor]) else 0.0 for r in runs]
    return statistics.fmean(r["r10"]["0"] for r in runs) - statistics.fmean(at_floor)


def _absent(namespace: int, terms: tuple[str, ...]) -> list[str]:
    """The ``terms`` (stems) that no ready memory of ``namespace`` holds: one index probe each."""
    from django.db import connection

    absent = []
    with connection.cursor() as cursor:
        for term in terms:
            cursor.execute(
                "SELECT EXISTS (SELECT 1 FROM memories_memory WHERE namespace_id = %s AND status = 'ready' "
                "AND search_vector @@ plainto_tsquery('simple', %s))",
                [namespace, term],
            )
            if not cursor.fetchone()[0]:
                absent.append(term)
    return absent


def _search(namespace: int, query: str, dia: dict[int, str], detail: bool = False) -> dict[str, Any]:
    """The query searched as shipped at min_score 0; what each floor keeps, and the check's answer;
    with ``detail``, what a replayed variant of the check reads as well (for --dump)."""
    from memories import selectors

    hits = selectors.search_memories(namespace_ids=[namespace], query=query, limit=10, min_score=0)
    kept: dict[str, list[str]] = {"0": [dia.get(h.memory.id, "") for h in hits]}
    answers: dict[str, bool] = {}
    for floor in FLOORS:
        above = [h for h in hits if h.score >= floor]
        kept[str(floor)] = [dia.get(h.memory.id, "") for h in above]
        answers[str(floor)] = bool(above) and selectors.answers_query([namespace], query, above)
    run: dict[str, Any] = {
        "top": hits[0].score if hits else 0.0,
        # the strongest evidence of either arm among the hits (whatever their order)
        "cos": max((h.similarity or 0.0 for h in hits), default=0.0),
        "cov": max((h.coverage or 0.0 for h in hits), default=0.0),
        "kept": kept,
        "answers": answers,
    }
    if detail:  # one index probe per key term: only when the dump is asked for
        keys = selectors.query_key_terms([namespace], query)
        run |= {
            # key terms no live memory of the namespace holds as a word (its full-text index), for
            # a replayed variant of the check that reads the whole namespace, not the top hits
            "absent": _absent(namespace, keys.terms),
            # what the answerability check reads, so a variant of it can be replayed from the dump
            "query": query,
            "key_terms": list(keys.terms),
            "named": sorted(keys.named),
            "hits": [[h.score, h.memory.text] for h in hits],
        }
    return run


def evaluate(targets: list[str], per_namespace: int, seed: int, dumped: dict[str, Any] | None = None) -> dict[str, Any]:
    """The silence table of each target set; every search's record into ``dumped`` if given."""
    detail = dumped is not None
    dumped = {} if dumped is None else dumped
    sets = {name: harness.dataset(name) for name in READ}
    result: dict[str, Any] = {"per_namespace": per_namespace, "seed": seed, "floors": FLOORS, "targets": {}}
    for target in targets:
        data = sets[target] if target in sets else harness.dataset(target)
        namespaces = harness.load(data, progress=True)
        dia = harness._dia_ids(list(namespaces.values()))
        far: dict[str, list[dict[str, Any]]] = {"asked": [], "renamed": []}
        examples = []
        for conv in data["conversations"]:
            for q in foreign_questions(target, conv, sets, per_namespace, seed):
                for form in far:
                    run = _search(namespaces[conv["id"]], q[form], dia, detail)
                    far[form].append(run)
                if len(examples) < 3:
                    examples.append(q | {"conversation": conv["id"]})
        near, answerable = [], []
        for q in data["questions"]:
            run = _search(namespaces[q["conversation"]], q["question"], dia, detail)
            if q["evidence"]:
                ev = set(q["evidence"])
                run["r10"] = {f: len(ev & set(run["kept"][f])) / len(ev) for f in run["kept"]}
                answerable.append(run)
            else:
                near.append(run)
        rows = {}
        for check in (False, True):
            for floor in FLOORS:
                f = str(floor)
                rows[f"{'check, ' if check else ''}floor {floor}"] = {
                    "far, as asked": round(_silence(far["asked"], floor, check), 3),
                    "far, renamed": round(_silence(far["renamed"], floor, check), 3),
                    "near (the set's never-stored)": round(_silence(near, floor, check), 3),
                    "R@10 lost (points)": round(100 * _r10_lost(answerable, f, check), 1),
                }
        dumped[target] = {"far, as asked": far["asked"], "far, renamed": far["renamed"], "near": near}
        dumped[target]["answerable"] = answerable
        result["targets"][target] = {
            "namespaces": len(namespaces),
            "far_questions": len(far["asked"]),
            "near_questions": len(near),
            "answerable": len(answerable),
            "top_score_median": {
                "far, as asked": round(statistics.median(r["top"] for r in far["asked"]), 4),
                "far, renamed": round(statistics.median(r["top"] for r in far["renamed"]), 4),
                "near": round(statistics.median(r["top"] for r in near), 4) if near else None,
                "answerable": round(statistics.median(r["top"] for r in answerable), 4),
            },
            "silence": rows,
            "examples": examples,
        }
        print(json.dumps({target: result["targets"][target]["silence"]}, indent=1), flush=True)
    return result


#: What docs/benchmarks.md shows of each run: the default, the floor alone, a high floor.
SHOWN = (
    ("check, floor 0.005", "default: floor 0.005 and the check"),
    ("floor 0.005", "floor 0.005 alone"),
    ("floor 0.1", "`min_score` 0.1"),
)


def render_section(result: dict[str, Any]) -> list[str]:
    """docs/benchmarks.md's section for one run (``--json``'s file)."""
    held = set(result.get("held_out", []))
    out = [
        "## Questions about things never stored (issue 26)",
        "",
        f"`bench/retrieval/far_miss.py` ({result['date']}, commit `{result.get('commit', '?')}`, seed "
        f"{result['seed']}): every namespace of each set asked {result['per_namespace']} answerable questions of the "
        "other read sets, *as asked* (about people and things it never heard of) and *renamed* (their speakers "
        "replaced by the namespace's user: a floor, some are answerable by chance); beside them the set's own "
        "never-stored questions (*near* misses: another speaker's fact, a nearby attribute) and the R@10 its "
        "answerable questions lose against `min_score` 0. Hybrid search, top 10, as a search with no `min_score` "
        "runs it (the default floor and the answerability check, `memories/answerable.py`). Sets marked held out "
        "were never read to build or fit the check.",
        "",
        "| set | far / near / answerable questions | "
        + " | ".join(f"{label}: silenced far as asked / renamed / near; R@10 lost (pts)" for _, label in SHOWN)
        + " |",
        "|---|---|" + "---|" * len(SHOWN),
    ]
    for name, t in result["targets"].items():
        cells = []
        for key, _ in SHOWN:
            row = t["silence"][key]
            near = row["near (the set's never-stored)"]
            cells.append(
                f"{row['far, as asked']:.0%} / {row['far, renamed']:.0%} / {near:.0%}; {row['R@10 lost (points)']:.1f}"
            )
        label = f"{name} (held out)" if name in held else name
        out.append(
            f"| {label} | {t['far_questions']} / {t['near_questions']} / {t['answerable']} | "
            + " | ".join(cells)
            + " |"
        )
    return out


def newest_section() -> list[str]:
    """The section of the newest run in bench/results/far-miss (bench/report.py)."""
    from bench.report import newest_results_section

    return newest_results_section(RESULTS, render_section)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", required=True)
    parser.add_argument("--targets", default="chat,assistant,family,dev")
    parser.add_argument("--per-namespace", type=int, default=30)
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--json")
    parser.add_argument(
        "--dump",
        help=(
            "every search's record here (top score, best cosine and coverage; its key terms, those absent "
            "from the namespace, its hits' texts)"
        ),
    )
    args = parser.parse_args(argv)
    targets = args.targets.split(",")
    unknown = set(targets) - set(READ) - {"coach"}
    if unknown:
        parser.error(f"not a read set or coach: {', '.join(sorted(unknown))}")
    harness.setup_django(Path(args.data_dir))
    dumped: dict[str, Any] = {}
    result = evaluate(targets, args.per_namespace, args.seed, dumped if args.dump else None)
    if args.dump:
        Path(args.dump).write_text(json.dumps(dumped) + "\n")
    result["date"] = datetime.now(UTC).isoformat(timespec="seconds")
    result["commit"] = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    result["held_out"] = [t for t in targets if t == "coach"]
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
