"""The true hold-out (issue 26): search as it ships, on a data set none of its choices saw.

The fusion rule, the calibration, MNEMO_SEARCH_MIN_SCORE (then 0.01; 0.005 since 2026-11-27) and
MNEMO_SEARCH_COMMON_SHARE (0.02) were chosen on conversations.json and chat.json (crossval.py); assistant.json
(generate_assistant.py) was built afterwards with a different design, and read twice; notes.json
(generate_notes.py, ``--dataset notes``), an agent's memory notes, after that; team.json
(generate_team.py, ``--dataset team``), work teams' channels, after all four had been read; life.json
(generate_life.py, ``--dataset life``), two friends' long chats, after all five; family.json
(generate_family.py, ``--dataset family``), a family's household assistant, after all six; dev.json
(generate_dev.py, ``--dataset dev``), a developer's coding assistant, after all seven (read once
to judge a candidate registered before it was read); coach.json (generate_coach.py, ``--dataset
coach``), a fitness coach's clients, after all eight (unread, in reserve for the next candidate
registered before it is read). Each is read once:
every turn stored through the real ``remember`` service, every question searched through the real
``search_memories`` in each mode, top 10 at ``min_score`` 0, and the same results cut at the
default floor. Nothing is fitted. ``crossval.holdout`` recomputes the hybrid rows from the
candidates ``features.py`` dumps (a check that the numpy replica and the SQL agree).

    .venv/bin/python -m bench.retrieval.holdout --data-dir /tmp/mnemo-ret --features /tmp/f-assistant.json
        --json bench/results/<stamp>-retrieval-holdout.json   (one command line)
    .venv/bin/python -m bench.retrieval.holdout --data-dir /tmp/mnemo-ret --dataset notes --features /tmp/f-notes.json
        --answerable --json bench/results/<stamp>-retrieval-notes.json   (the fourth set, with the frozen check)
    .venv/bin/python -m bench.retrieval.holdout --data-dir /tmp/mnemo-team --dataset team --features /tmp/f-team.json
        --answerable --json bench/results/<stamp>-retrieval-team.json   (the fifth set, once, for a new choice)
    .venv/bin/python -m bench.retrieval.holdout --data-dir /tmp/mnemo-life --dataset life --features /tmp/f-life.json
        --answerable --json bench/results/<stamp>-retrieval-life.json   (the sixth set, once, for a new rule)
    .venv/bin/python -m bench.retrieval.holdout --data-dir /tmp/mnemo-family --dataset family \
        --features /tmp/f-family.json --answerable --json bench/results/<stamp>-retrieval-family.json   (the seventh)
    .venv/bin/python -m bench.retrieval.holdout --data-dir /tmp/mnemo-dev --dataset dev \
        --features /tmp/f-dev.json --answerable --json bench/results/<stamp>-retrieval-dev.json   (the eighth)
    .venv/bin/python -m bench.retrieval.holdout --data-dir /tmp/mnemo-coach --dataset coach \
        --features /tmp/f-coach.json --answerable --json bench/results/<stamp>-retrieval-coach.json   (the ninth)
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench.retrieval import harness

#: The assistant set's question types: the harness's five, then the two this design adds.
TYPES = ("single-hop", "multi-hop", "temporal", "open-domain", "adversarial", "knowledge-update", "preference")
MODES = ("hybrid", "vector", "keyword")
#: Floors whose cost and catch on the hold-out are tabled (a request's min_score).
OTHER_FLOORS = (0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5)
#: The data sets read this way, and the results section each one writes (bench/report.py renders each
#: section a results file holds, and nothing for a data set not read yet).
SECTIONS = {
    "assistant": "retrieval_holdout",
    "notes": "retrieval_notes",
    "team": "retrieval_team",
    "life": "retrieval_life",
    "family": "retrieval_family",
    "dev": "retrieval_dev",
    "coach": "retrieval_coach",
}
#: Issue 26's bar for R@10 out of sample.
R10_BAR = 0.72


def _table(rows: dict[str, list[tuple[float, float, float]]]) -> dict[str, Any]:
    def means(v: list[tuple[float, float, float]]) -> dict[str, Any]:
        return {m: statistics.fmean(x[i] for x in v) for i, m in enumerate(("r5", "r10", "mrr"))} | {"n": len(v)}

    out = {t: means(rows[t]) for t in TYPES if t in rows}
    out["all"] = means([x for v in rows.values() for x in v])
    return out


def _scores(ranked: list[str], evidence: set[str]) -> tuple[float, float, float]:
    first = next((i for i, d in enumerate(ranked, 1) if d in evidence), None)
    n = len(evidence)
    return len(evidence & set(ranked[:5])) / n, len(evidence & set(ranked[:10])) / n, 1 / first if first else 0.0


def evaluate(name: str = "assistant") -> dict[str, Any]:
    """Every mode's per-type table at min_score 0 and at the default floor, and the share of
    never-stored questions the floor leaves silent (no result at all)."""
    from django.conf import settings

    from memories import selectors
    from memories.embedding import embed_texts

    floor = settings.MNEMO_SEARCH_MIN_SCORE
    data = harness.dataset(name)
    namespaces = harness.load(data, progress=True)
    dia = harness._dia_ids(list(namespaces.values()))
    questions = data["questions"]
    texts = [
        selectors.embedding_text(namespace_ids=[namespaces[q["conversation"]]], query=q["question"]) for q in questions
    ]
    vectors = embed_texts(texts)
    result: dict[str, Any] = {
        "dataset": name,
        "conversations": len(data["conversations"]),
        "turns": sum(len(s["turns"]) for c in data["conversations"] for s in c["sessions"]),
        "questions": len(questions),
        "answerable": sum(1 for q in questions if q["evidence"]),
        "floor": floor,
        "common_share": settings.MNEMO_SEARCH_COMMON_SHARE,
    }
    for mode in MODES:
        at0: dict[str, list] = {}
        atf: dict[str, list] = {}
        silent = never = 0
        by_kind: dict[str, list[bool]] = {}
        empty = 0
        ms = []
        for q, vector in zip(questions, vectors, strict=True):
            started = time.perf_counter()
            hits = selectors.search_memories(
                namespace_ids=[namespaces[q["conversation"]]],
                query=q["question"],
                limit=10,
                mode=mode,
                query_vector=vector,
            )
            ms.append((time.perf_counter() - started) * 1000)
            kept = [h for h in hits if h.score >= floor]
            if not q["evidence"]:
                never += 1
                silent += not kept
                by_kind.setdefault(q.get("never", "never said"), []).append(not kept)
                continue
            ev = set(q["evidence"])
            empty += not kept
            at0.setdefault(q["type"], []).append(_scores([dia.get(h.memory.id, "") for h in hits], ev))
            atf.setdefault(q["type"], []).append(_scores([dia.get(h.memory.id, "") for h in kept], ev))
        ms.sort()
        result[mode] = {
            "table": _table(at0),
            "table_at_floor": _table(atf),
            "silence_rate": silent / max(never, 1),
            "silence_by_kind": {k: statistics.fmean(v) for k, v in sorted(by_kind.items())},
            "false_empty_rate": empty / max(result["answerable"], 1),
            "sql_ms_p50": round(ms[len(ms) // 2], 2),
        }
    return result


def verdicts(result: dict[str, Any], key: str = "table") -> dict[str, list[str]]:
    """Per arm, the cells (type and metric) where it beats hybrid: empty lists mean hybrid ≥ arm."""
    h = result["hybrid"][key]
    return {
        arm: [
            f"{t} {m} ({result[arm][key][t][m] - h[t][m]:+.3f})"
            for t in h
            for m in ("r5", "r10", "mrr")
            if result[arm][key][t][m] > h[t][m] + 1e-9
        ]
        for arm in ("vector", "keyword")
    }


#: Each data set's section: its heading, and what it is ({conversations}, {turns}, {questions} and
#: {answerable} are the result's counts).
INTROS = {
    "coach": (
        "### Retrieval on the ninth data set: a fitness coach's clients (nothing fitted, read once)",
        "`bench/retrieval/coach.json` (`generate_coach.py`, built after the eight others had been read): "
        "{conversations} clients, one namespace each, {turns} speaker-prefixed turns of a client and an AI "
        "coach's replies over dated sessions, most facts measurements whose values change several times "
        "(weight, 5k time, squat 1RM, resting heart rate, a medication's dose) told apart by the number and "
        "the session's date, {questions} questions ({answerable} with evidence).",
    ),
    "dev": (
        "### Retrieval on the eighth data set: a developer's coding assistant "
        "(read once, to judge the rule that ships)",
        "`bench/retrieval/dev.json` (`generate_dev.py`, built after the seven others had been read): "
        "{conversations} developers, one namespace each, {turns} speaker-prefixed turns of a developer and "
        "a coding assistant's replies over dated sessions, three projects each sharing attribute types "
        "(each project's port, CI, test command, database) told apart by identifiers and version numbers, "
        "{questions} questions ({answerable} with evidence). Read once (2026-11-27, `features.py`'s dump "
        "and the numpy replica) to judge a rule written down before: recency for questions about the "
        "present (`memories.recency`; the rule shipped then: R@5 / R@10 0.670 / 0.789, knowledge updates "
        "0.560 / 0.700). The rule won as its decision rule required and ships; the rows below are the "
        "product's after that change. Nothing else was fitted or chosen on this set.",
    ),
    "family": (
        "### Retrieval on the seventh data set: a household assistant (read once, to judge the rule that ships)",
        "`bench/retrieval/family.json` (`generate_family.py`, built after the six others had been read): "
        "{conversations} households, one namespace each, {turns} speaker-prefixed turns of "
        "three to five family members and the assistant's replies over dated sessions, members sharing "
        "attribute types (each child's teacher, club day, appointment), {questions} questions "
        "({answerable} with evidence). Read once (2026-11-27) to judge a rule written down before, "
        "b 0.5 → 1.5 in the fusion (the rule shipped then: R@5 / R@10 0.759 / 0.822); the rule won and "
        "ships, and the rows below are the product's after that change: the rule's weights saw nothing of "
        "this set, its calibration has since been refitted on all seven sets, this one included.",
    ),
    "life": (
        "### Retrieval on the sixth data set: two friends' long chats (nothing fitted, read once)",
        "`bench/retrieval/life.json` (`generate_life.py`, built after the five others had been read): "
        "{conversations} conversations of two friends, one namespace each, {turns} long "
        "speaker-prefixed turns over months of dated sessions, facts dated relative to the session, "
        "{questions} questions ({answerable} with evidence).",
    ),
    "team": (
        "### Retrieval on the fifth data set: work teams' channels (nothing fitted, read once)",
        "`bench/retrieval/team.json` (`generate_team.py`, built after the four others had been read): "
        "{conversations} team channels, one namespace each, {turns} speaker-prefixed turns "
        "of stand-ups, planning meetings and chat about projects that share their vocabulary, "
        "{questions} questions ({answerable} with evidence).",
    ),
    "notes": (
        "### Retrieval on the fourth data set: an agent's memory notes (nothing fitted, read once)",
        "`bench/retrieval/notes.json` (`generate_notes.py`, built after the third set had been read twice): "
        "{conversations} users, one namespace each, {turns} short dated notes as an agent "
        "stores them through `remember` (mostly task logs), {questions} questions "
        "({answerable} with evidence).",
    ),
    "assistant": (
        "### Retrieval on the true hold-out (third data set, nothing fitted)",
        "`bench/retrieval/assistant.json` (`generate_assistant.py`, built after every search choice was made): "
        "{conversations} users talking to an assistant, {turns} turns, {questions} "
        "questions ({answerable} with evidence).",
    ),
}


def _intro(result: dict[str, Any]) -> list[str]:
    """The section's title and what the data set is (a result without a known data set is the
    third set's: its first results files did not name it)."""
    ships = (
        f"Search exactly as it ships (fusion rule, calibration, common-word share {result['common_share']}, "
        f"default floor {result['floor']}), read once. Cells: R@5 / R@10 / MRR."
    )
    heading, about = INTROS.get(result.get("dataset", "assistant"), INTROS["assistant"])
    counts = {k: result[k] for k in ("conversations", "turns", "questions", "answerable")}
    return [heading, "", f"{about.format(**counts)} {ships}"]


def bars(tables: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Issue 26's two bars from {mode: per-type table} at min_score 0: hybrid ≥ each arm at R@5
    and R@10 in every question type (the cells where an arm wins), and hybrid's R@10 ≥ R10_BAR."""
    h = tables["hybrid"]
    losses = [
        f"{arm} {t} {m} ({tables[arm][t][m] - h[t][m]:+.3f})"
        for arm in ("vector", "keyword")
        for t in h
        for m in ("r5", "r10")
        if tables[arm][t][m] > h[t][m] + 1e-9
    ]
    return {"arms_ok": not losses, "losses": losses, "r10": h["all"]["r10"], "r10_ok": h["all"]["r10"] >= R10_BAR}


def replica_tables(result: dict[str, Any]) -> dict[str, dict[str, Any]] | None:
    """The numpy replica's tables (crossval.holdout on features.py's candidates) when they differ
    from the SQL's at min_score 0, else None."""
    replica = result.get("numpy_replica")
    if replica is None:
        return None
    tables = {"hybrid": replica["table"], "vector": replica["arms"][0], "keyword": replica["arms"][1]}
    same = all(
        abs(tables[mode][t][m] - result[mode]["table"][t][m]) < 1e-9
        for mode in MODES
        for t in result[mode]["table"]
        for m in ("r5", "r10")
    )
    return None if same else tables


def _bars_line(label: str, b: dict[str, Any]) -> str:
    return (
        f"{label}: hybrid ≥ each arm at R@5 and R@10 in every type: **{'holds' if b['arms_ok'] else 'does not hold'}**"
        + (f" ({'; '.join(b['losses'])})" if b["losses"] else "")
        + f"; hybrid R@10 {b['r10']:.3f} ≥ {R10_BAR}: **{'holds' if b['r10_ok'] else 'does not hold'}**."
    )


def render(result: dict[str, Any]) -> list[str]:
    """docs/benchmarks.md's section for a data set read once (bench/retrieval/bench.py's render_sections)."""
    types = [t for t in (*TYPES, "all") if t in result["hybrid"]["table"]]
    lines = [
        *_intro(result),
        "",
        "| mode | floor | " + " | ".join(types) + " |",
        "|---|---|" + "---|" * len(types),
    ]
    for key, label in (("table", "0"), ("table_at_floor", str(result["floor"]))):
        for mode in MODES:
            t = result[mode][key]
            cells = [f"{t[x]['r5']:.3f} / {t[x]['r10']:.3f} / {t[x]['mrr']:.3f} (n={t[x]['n']})" for x in types]
            lines.append(f"| `{mode}` | {label} | " + " | ".join(cells) + " |")
    lines += ["", "| | at min_score 0 | at the default floor |", "|---|---|---|"]
    v0, vf = verdicts(result), verdicts(result, "table_at_floor")
    for arm in ("vector", "keyword"):
        lines.append(
            f"| cells where the {arm} arm beats hybrid | {', '.join(v0[arm]) or 'none'} "
            f"| {', '.join(vf[arm]) or 'none'} |"
        )
    h = result["hybrid"]
    cost = h["table"]["all"]["r10"] - h["table_at_floor"]["all"]["r10"]
    lines += [
        "",
        f"The default floor ({result['floor']}) on hybrid: R@10 cost {cost:.3f} on the answerable questions, "
        f"false-empty rate {h['false_empty_rate']:.3f}; silent (no result) on {h['silence_rate']:.3f} of the "
        "never-stored questions (" + ", ".join(f"{k}: {v:.2f}" for k, v in h.get("silence_by_kind", {}).items()) + ").",
    ]
    replica = replica_tables(result)
    if replica is not None:
        lines += [
            "",
            "**The numpy replica does not match the SQL here.** `crossval.holdout`, on the candidates "
            "`features.py` dumped from the same database in the same process just after these searches, reads "
            "(min_score 0, R@5 / R@10 / MRR; why they differ: bench/NOTES.md):",
            "",
            "| mode | " + " | ".join(types) + " |",
            "|---|" + "---|" * len(types),
        ]
        for mode in MODES:
            t = replica[mode]
            lines.append(
                f"| `{mode}` | "
                + " | ".join(f"{t[x]['r5']:.3f} / {t[x]['r10']:.3f} / {t[x]['mrr']:.3f}" for x in types)
                + " |"
            )
    if result.get("dataset") in ("notes", "team", "life", "family", "dev", "coach"):
        lines += [
            "",
            _bars_line(
                "Issue 26's bars on this set, the SQL's read at min_score 0",
                bars({mode: result[mode]["table"] for mode in MODES}),
            ),
        ]
        if replica is not None:
            lines += ["", _bars_line("The same bars on the replica's rows", bars(replica))]
    if "answerability_check" in result:
        a = result["answerability_check"]["holdout"]
        lines += [
            "",
            "With the frozen answerability check (`MNEMO_ANSWERABLE_CHECK`, `memories.answerable.MODEL`, no fitting: "
            f"`answerable.py`'s replica, top {result['answerability_check']['model']['top_k']}): silent on "
            f"{a['silenced']:.3f} of the {a['never_stored']} never-stored questions (the floor alone: "
            f"{a['silenced_by_floor_alone']:.3f}; "
            + ", ".join(f"{k}: {v['silenced']:.2f} of {v['n']}" for k, v in a["never_kinds"].items())
            + f"); R@10 lost on the answerable ones {100 * a['r10_lost']:.1f} points against the floor alone "
            f"({100 * a['r10_lost_vs_no_floor']:.1f} against no floor), false empties {a['false_empty_rate']:.3f}.",
        ]
    if "floors" in result:
        lines += [
            "",
            "Hybrid at other floors (a request's `min_score`), from the same candidates (`crossval.holdout`, whose "
            + ("rows above match the SQL's" if replica is None else "rows differ from the SQL's: see above")
            + "): R@10 lost / share of never-stored questions still answered.",
            "",
            "| " + " | ".join(str(f["floor"]) for f in result["floors"]) + " |",
            "|" + "---|" * len(result["floors"]),
            "| " + " | ".join(f"{f['r10_lost']:.3f} / {f['false_hit_rate']:.3f}" for f in result["floors"]) + " |",
            "",
            "Never-stored questions still answered, by kind: "
            + "; ".join(
                f"{kind}: " + ", ".join(f"{f['floor']} → {f['false_hit_by_kind'][kind]:.2f}" for f in result["floors"])
                for kind in result["floors"][0]["false_hit_by_kind"]
            )
            + ".",
        ]
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", required=True)
    parser.add_argument("--dataset", choices=sorted(SECTIONS), default="assistant")
    parser.add_argument(
        "--json", help="write bench/results/<stamp>-retrieval-<holdout|notes|team|life|family|dev|coach>.json here"
    )
    parser.add_argument("--features", help="also dump features.py's candidates here and run crossval.holdout")
    parser.add_argument(
        "--answerable", action="store_true", help="and the frozen answerability check on them (needs --features)"
    )
    args = parser.parse_args(argv)
    if args.answerable and not args.features:
        parser.error("--answerable needs --features")
    harness.setup_django(Path(args.data_dir))
    name = args.dataset
    result = evaluate(name)
    if args.features:
        from bench.retrieval import crossval, features

        dumped = features.dump(name)
        Path(args.features).write_text(json.dumps(dumped))
        qs = crossval.from_dump(dumped)
        result["numpy_replica"] = crossval.jsonable(crossval.holdout(qs))
        # other floors a caller may pass as min_score: what each costs and silences here (read, not fitted)
        ranked, probs = crossval.shipped_scored(qs)
        result["floors"] = [crossval.jsonable(crossval.floor_effect(qs, ranked, probs, f)) for f in OTHER_FLOORS]
        kinds = [q.get("never") for q in harness.dataset(name)["questions"]]
        for entry, f in zip(result["floors"], OTHER_FLOORS, strict=True):
            answered: dict[str, list[bool]] = {}
            for q, kind, idx, p in zip(qs, kinds, ranked, probs, strict=True):
                if not q.evidence:
                    answered.setdefault(kind or "never said", []).append(bool((p[idx[:10]] >= f).any()))
            entry["false_hit_by_kind"] = {k: statistics.fmean(v) for k, v in sorted(answered.items())}
    if args.answerable:  # the frozen memories.answerable.MODEL on these candidates: answerable.py holdout, no fitting
        from bench.retrieval import answerable, crossval

        prepared = answerable.prepare(args.data_dir, args.features, name)
        result["answerability_check"] = crossval.jsonable(
            answerable.holdout([answerable.Q(q, name) for q in prepared["questions"]])
        )
    print("\n".join(render(result)))
    if args.json:
        import subprocess

        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
        machine = {"date": datetime.now(UTC).isoformat(timespec="seconds"), "commit": commit}
        Path(args.json).write_text(json.dumps({"machine": machine, SECTIONS[name]: result}, indent=1) + "\n")


if __name__ == "__main__":
    main()
