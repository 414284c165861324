"""What a language other than English gets from search (issue 26: "the README says what other
languages get"), measured on languages.json (generate_languages.py): the same chats and questions
in English, French, German and Spanish, each turn stored through the real ``remember``, each
question searched through the real ``search_memories`` in each mode (top 10, ``min_score`` 0; the
answerability check as configured, on by default: MNEMO_ANSWERABLE_CHECK), then:

- R@5 / R@10 / MRR per language and mode, and R@10 per wording (the question in the words of the
  fact's direct statement, or paraphrased) and per way the fact was told (directly, in those
  words, or indirectly): the difference between two languages is the language's, since the sets
  are translations of one another;
- cross-lingual: each English question asked of the French, German and Spanish chats (the same
  facts; the evidence turn has the same number), what a user gets asking in one language about
  memories stored in another;
- the default floor (MNEMO_SEARCH_MIN_SCORE, and the answerability check when it is on): the share
  of answerable questions that get "No matching memories found", per language;
- ``remember``'s supersession rule (memories.temporal, the shipped thresholds) on pairs of one
  speaker's statements made from the same wordings (:func:`supersession_pairs`): contradictions
  caught and pairs wrongly closed, per language.

Nothing is fitted: it reads the shipped search. Writes bench/results/languages/<time>.json;
bench/report.py puts the newest in docs/benchmarks.md.

    .venv/bin/python -m bench.retrieval.multilingual --data-dir /tmp/mnemo-lang
"""

from __future__ import annotations

import argparse
import json
import subprocess
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench.retrieval import harness

ROOT = Path(__file__).resolve().parent.parent.parent
RESULTS = ROOT / "bench" / "results" / "languages"
NAMES = {"en": "English", "fr": "French", "de": "German", "es": "Spanish"}
WORDINGS = ("keyword", "paraphrase")
TOLD = ("direct", "indirect")


def _in(code: str, question: dict[str, Any]) -> dict[str, Any]:
    """An English question asked of language ``code``'s copy of its chat (same turn numbers)."""
    conv = code + question["conversation"][2:]
    return question | {"conversation": conv, "evidence": [code + e[2:] for e in question["evidence"]]}


def measure(data: dict[str, Any], namespaces: dict[str, int]) -> dict[str, Any]:
    """Every table the section shows, from the stored chats."""
    from django.conf import settings

    floor = settings.MNEMO_SEARCH_MIN_SCORE
    check = settings.MNEMO_ANSWERABLE_CHECK  # every search as a search with the default floor runs
    questions = data["questions"]
    codes = list(dict.fromkeys(q["language"] for q in questions))
    out: dict[str, Any] = {"floor": floor, "languages": {}, "cross_lingual": {}}
    for code in codes:
        mine = [q for q in questions if q["language"] == code]
        whole = harness.evaluate(data, namespaces, questions=mine, min_scores=(floor,), answerable_check=check)
        row: dict[str, Any] = {"questions": len(mine)}
        for mode in harness.MODES:
            row[mode] = whole[mode]["table"]["all"] | {"p50_ms": whole[mode]["latency_ms"]["p50"]}
        row["hybrid_floor"] = whole["hybrid"]["min_score"][str(floor)]
        row["by_wording"] = {}
        for wording in WORDINGS:
            part = harness.evaluate(
                data, namespaces, questions=[q for q in mine if q["wording"] == wording], answerable_check=check
            )
            row["by_wording"][wording] = {mode: part[mode]["table"]["all"] for mode in harness.MODES}
        # how the fact was told (in the question's keyword words, or indirectly) by how it is asked
        row["by_told"] = {}
        for told in TOLD:
            for wording in WORDINGS:
                cell = [q for q in mine if q["told"] == told and q["wording"] == wording]
                part = harness.evaluate(data, namespaces, questions=cell, answerable_check=check)
                row["by_told"][f"{told}/{wording}"] = {mode: part[mode]["table"]["all"] for mode in harness.MODES}
        out["languages"][code] = row
        print(code, {m: row[m]["r10"] for m in harness.MODES}, flush=True)
    english = [q for q in questions if q["language"] == "en"]
    for code in codes:
        if code == "en":
            continue
        asked = [_in(code, q) for q in english]
        whole = harness.evaluate(data, namespaces, questions=asked, answerable_check=check)
        out["cross_lingual"][code] = {mode: whole[mode]["table"]["all"] for mode in harness.MODES}
        print("en ->", code, {m: out["cross_lingual"][code][m]["r10"] for m in harness.MODES}, flush=True)
    return out


#: Value pairs drawn per kind of fact for the supersession pairs (the same draws in every language).
SUPERSESSION_DRAWS = 4
SUPERSESSION_SEED = 5310


def supersession_pairs() -> list[dict[str, Any]]:
    """Pairs of statements ("Ana: <a fact>" stored, then another) in every language, from the
    languages set's wordings, for ``remember``'s supersession rule:

    - contradiction: the same fact with another answer value ("moved to Porto" → "moved to
      Bergen"), said the same way (direct → direct) or first told indirectly; ``named`` when the
      value is a name or number (``generate_languages.PROPER``), else a common noun (a dog, a nurse);
    - rephrasing (must not be closed): the same fact and value, told indirectly then directly;
    - another fact (must not be closed): two kinds of fact of one speaker, both told directly.
    """
    import random

    from bench.retrieval import generate_languages as gen
    from bench.retrieval.languages import en

    rng = random.Random(SUPERSESSION_SEED)
    kinds = sorted(en.FACTS)

    draws = []
    for i, kind in enumerate(kinds):
        answer = gen.ANSWER[kind]
        size = len(gen.PROPER.get(answer) or en.SLOTS[answer])
        for _ in range(SUPERSESSION_DRAWS):
            old = gen.draw_values(rng, kind)
            new = old | {answer: rng.choice([v for v in range(size) if v != old[answer]])}
            draws.append(
                (kind, kinds[(i + 1) % len(kinds)], old, new, gen.draw_values(rng, kinds[(i + 1) % len(kinds)]))
            )
    pairs = []
    for module in gen.LANGUAGES:

        def say(kind: str, values: dict[str, int], how: int, module: Any = module) -> str:
            text = module.FACTS[kind]["say"][how].format(**gen.fill(module, {"values": values}, "Ana", "Ben"))
            return f"Ana: {text}"

        for kind, next_kind, old, new, other in draws:
            named = gen.ANSWER[kind] in gen.PROPER
            base = {"language": module.CODE, "fact": kind}
            pairs += [
                base | {"kind": "contradiction", "named": named, "old": say(kind, old, 0), "new": say(kind, new, 0)},
                base | {"kind": "contradiction", "named": named, "old": say(kind, old, 1), "new": say(kind, new, 0)},
                base | {"kind": "rephrasing", "old": say(kind, old, 1), "new": say(kind, old, 0)},
                base | {"kind": "another fact", "old": say(kind, old, 0), "new": say(next_kind, other, 0)},
            ]
    return pairs


def supersession() -> dict[str, Any]:
    """``memories.temporal.contradiction`` with the shipped thresholds on :func:`supersession_pairs`,
    the cosine from the configured embedder: per language, contradictions caught (named values,
    common nouns) and pairs wrongly closed (rephrasings, another fact), with examples."""
    import numpy as np
    from django.conf import settings

    from memories.embedding import embed_texts
    from memories.temporal import contradiction

    pairs = supersession_pairs()
    texts = sorted({t for p in pairs for t in (p["old"], p["new"])})
    vectors = dict(zip(texts, embed_texts(texts), strict=True))
    out: dict[str, Any] = {}
    for p in pairs:
        similarity = float(np.dot(vectors[p["old"]], vectors[p["new"]]))
        closed = (
            contradiction(
                p["old"],
                p["new"],
                similarity=similarity,
                threshold=settings.MNEMO_SUPERSEDE_THRESHOLD,
                change_threshold=settings.MNEMO_SUPERSEDE_CHANGE_THRESHOLD,
            )
            is not None
        )
        row = out.setdefault(p["language"], {"counts": {}, "wrongly_closed": [], "missed": []})
        kind = p["kind"] + ("" if p["kind"] != "contradiction" else " (named)" if p["named"] else " (common noun)")
        count = row["counts"].setdefault(kind, {"flagged": 0, "of": 0})
        count["flagged"] += closed
        count["of"] += 1
        example = (p["old"], p["new"], round(similarity, 3))
        if closed and p["kind"] != "contradiction" and len(row["wrongly_closed"]) < 4:
            row["wrongly_closed"].append(example)
        if not closed and p["kind"] == "contradiction" and p["named"] and len(row["missed"]) < 4:
            row["missed"].append(example)
    return out


def render_section(result: dict[str, Any]) -> list[str]:
    """docs/benchmarks.md's section."""
    langs = result["languages"]
    en = langs.get("en", {})
    lines = [
        "## Other languages (issue 26)",
        "",
        f"`bench/retrieval/multilingual.py` on `bench/retrieval/languages.json`, commit "
        f"{result['machine']['commit']}, {result['machine']['date'][:10]}, embedder `{result['embedder']}`. "
        f"{result['about']} "
        "The four sets are translations of one another (the same people, facts, turns and questions; names "
        "and numbers as they are), so a difference between two languages is the language's. Top 10 at "
        f"`min_score` 0, the answerability check {'on (the default)' if result['answerable_check'] else 'off'}; "
        "nothing fitted on these sets.",
        "",
        "| language | hybrid R@5 / R@10 / MRR | vector R@10 | keyword R@10 | hybrid R@10, asked in the direct "
        "statement's words / paraphrased "
        f"| answerable questions silenced at the default floor ({result['floor']}) |",
        "|---|---|---|---|---|---|",
    ]
    for code, row in langs.items():
        h = row["hybrid"]
        gap = f" ({h['r10'] - en['hybrid']['r10']:+.3f})" if en and code != "en" else ""
        lines.append(
            f"| {NAMES.get(code, code)} | {h['r5']:.3f} / {h['r10']:.3f}{gap} / {h['mrr']:.3f} "
            f"| {row['vector']['r10']:.3f} | {row['keyword']['r10']:.3f} "
            f"| {row['by_wording']['keyword']['hybrid']['r10']:.3f} "
            f"/ {row['by_wording']['paraphrase']['hybrid']['r10']:.3f} "
            f"| {row['hybrid_floor']['false_empty_rate']:.1%} |"
        )
    if all("by_told" in row for row in langs.values()):
        lines += [
            "",
            "Hybrid R@10 by how the fact was told (half directly, in the words the first question reuses; half "
            "indirectly) and how it is asked:",
            "",
            "| language | told directly, asked in its words | told directly, paraphrased "
            "| told indirectly, asked in the direct words | told indirectly, paraphrased |",
            "|---|---|---|---|---|",
        ]
        for code, row in langs.items():
            cells = [row["by_told"][f"{t}/{w}"]["hybrid"] for t in TOLD for w in WORDINGS]
            lines.append(
                f"| {NAMES.get(code, code)} | " + " | ".join(f"{c['r10']:.3f} (n={c['n']})" for c in cells) + " |"
            )
    if result["cross_lingual"]:
        lines += [
            "",
            "Asked in English about memories stored in another language (the English questions on the other "
            "chats): R@10",
            "",
            "| stored in | hybrid | vector | keyword |",
            "|---|---|---|---|",
        ]
        for code, row in result["cross_lingual"].items():
            lines.append(
                f"| {NAMES.get(code, code)} | {row['hybrid']['r10']:.3f} | {row['vector']['r10']:.3f} "
                f"| {row['keyword']['r10']:.3f} |"
            )
    if result.get("supersession"):
        lines += [
            "",
            "`remember`'s supersession rule (the shipped thresholds) on pairs of statements made from these "
            "wordings (`multilingual.supersession_pairs`: the same fact with another value, said the same way or "
            "first told indirectly; must not be closed: the same value told another way, another fact of the same "
            "speaker): contradictions caught, and pairs wrongly closed",
            "",
            "| language | caught, named values | caught, common nouns | wrongly closed: same value told another way "
            "| wrongly closed: another fact |",
            "|---|---|---|---|---|",
        ]
        keys = ("contradiction (named)", "contradiction (common noun)", "rephrasing", "another fact")
        for code, row in result["supersession"].items():
            cells = [row["counts"].get(k, {"flagged": 0, "of": 0}) for k in keys]
            lines.append(
                f"| {NAMES.get(code, code)} | "
                + " | ".join(f"{c['flagged']} of {c['of']} ({c['flagged'] / max(c['of'], 1):.0%})" for c in cells)
                + " |"
            )
    return lines


def newest_section() -> list[str]:
    """The section for the newest results, or nothing when there are none."""
    from bench.report import newest_results_section

    return newest_results_section(RESULTS, render_section)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", required=True, help="the benchmark database's folder (kept between runs)")
    args = parser.parse_args(argv)
    harness.setup_django(Path(args.data_dir))
    from django.conf import settings

    data = harness.dataset("languages")
    namespaces = harness.load(data, progress=True)
    result = measure(data, namespaces)
    result["supersession"] = supersession()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    result |= {
        "about": data["about"],
        "answerable_check": settings.MNEMO_ANSWERABLE_CHECK,
        "embedder": settings.MNEMO_EMBEDDER,
        "machine": {"date": datetime.now(UTC).isoformat(timespec="seconds"), "commit": commit},
    }
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{time.strftime('%Y-%m-%dT%H%M%S', time.gmtime())}.json"
    path.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n")
    print("\n".join(render_section(result)))
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
