"""Write docs/benchmarks.md from a results file of bench/run.py (default: the newest)."""

from __future__ import annotations

import json
import re
import sys
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TARGETS = {
    "search_p95_100k_c1_ms": 25,
    "remember_p95_10k_ms": 40,
    "ingest_ratio": 0.85,
    "import_ratio": 0.85,
    "hnsw_recall_100k": 0.95,
    "web_rss_mb": 400,
    "search_p95_small_namespaces_c1_ms": 25,
    "search_c8_to_c1_ratio": 1.8,
    "search_overhead_ms": 5,
    "worker_ingest_ratio": 0.85,
    "load_32_errors": 0,
}


def verdict(ok: bool | None) -> str:
    return "—" if ok is None else ("holds" if ok else "**does not hold**")


def render(results: dict[str, Any], source: str) -> str:
    m = results["machine"]
    e = results.get("embedder", {})
    lines = [
        "# Benchmarks",
        "",
        f"Measured by `make bench` (`bench/run.py`, scale `{results['scale']}`, medians of repeated runs "
        f"where a measurement repeats); results: {source}.",
        "",
        f"Machine of the newest results: {m['cpus']} cores, {m['memory_gb']} GiB, {m['platform']}, "
        f"Python {m['python']}; "
        f"date {m['date']}; commit `{m['commit']}`. The machine is shared and noisy: read medians and ratios, "
        "not single numbers.",
        "",
        "## Results of `make bench`",
        "",
        "| measurement | result |",
        "|---|---|",
        f"| raw embedder, batch 1 | {e.get('batch1_texts_per_s')} texts/s |",
        f"| raw embedder, batch 64 (the ceiling) | {e.get('batch64_texts_per_s')} texts/s |",
    ]
    checks: dict[str, bool | None] = dict.fromkeys(TARGETS)
    ratio_detail = ""  # the concurrency-8 ratio's own numbers, beside its verdict
    if "ingest" in results:
        i = results["ingest"]
        lines.append(
            f"| async ingestion over HTTP, {i['memories']} memories, the make run stack | "
            f"{i['memories_per_s']} memories/s = {i['ratio_to_batched_embedder']:.1%} of its run's ceiling |"
        )
        checks["ingest_ratio"] = i["ratio_to_batched_embedder"] >= TARGETS["ingest_ratio"]
        if "worker_only" in i:
            w = i["worker_only"]
            lines.append(
                f"| ingestion by the worker alone (web idle), {i['memories']} queued memories | "
                f"{w['memories_per_s']} memories/s = {w['ratio_to_batched_embedder']:.1%} of its run's ceiling |"
            )
            checks["worker_ingest_ratio"] = w["ratio_to_batched_embedder"] >= TARGETS["worker_ingest_ratio"]
    if "import" in results:
        i = results["import"]
        lines.append(
            f"| bulk import, {i['memories']} memories | {i['memories_per_s']} memories/s = "
            f"{i['ratio_to_batched_embedder']:.1%} of its run's ceiling |"
        )
        checks["import_ratio"] = i["ratio_to_batched_embedder"] >= TARGETS["import_ratio"]
    if "remember" in results:
        r = results["remember"]["concurrency_1"]
        lines.append(
            f"| remember over HTTP, {results['remember']['namespace_size']} memories in the namespace | "
            f"p50 {r['p50_ms']} / p95 {r['p95_ms']} / p99 {r['p99_ms']} ms ({r['errors']} errors) |"
        )
        checks["remember_p95_10k_ms"] = r["p95_ms"] <= TARGETS["remember_p95_10k_ms"]
    search = results.get("search", {})
    if "embed_alone" in search:
        e = search["embed_alone"]
        lines.append(f"| query embedding alone | p50 {e['p50_ms']} / p95 {e['p95_ms']} ms |")
    for a in search.get("namespace_indexes", []):
        lines.append(
            f"| namespace index built before measuring: {a['kind']} {a['index']} ({a['memories']} memories) | "
            f"{a['seconds']:.1f} s |"
        )
    for label, s in search.items():
        if not isinstance(s, dict) or "concurrency_1" not in s:
            continue
        shape = (
            f"{s.get('namespaces')} namespaces of {s['namespace_size']}"
            if label == "small_namespaces"
            else f"{s['namespace_size']} memories"
        )
        rounds = s.get("rounds", [])
        # Runs measured in rounds report each number as the median of the rounds'.
        of_rounds = f", median of {len(rounds)} rounds" if len(rounds) > 1 else ""
        for conc in ("concurrency_1", "concurrency_8"):
            c = s[conc]
            lines.append(
                f"| search over HTTP, {shape}, {conc.replace('_', ' ')}{of_rounds} | "
                f"p50 {c['p50_ms']} / p95 {c['p95_ms']} / p99 {c['p99_ms']} ms, {c['requests_per_s']} req/s "
                f"({c['errors']} errors) |"
            )
        if "throughput_ratio_8_to_1" in s:
            lines.append(
                f"| search, {shape}: throughput at concurrency 8 / concurrency 1; overhead p50 "
                f"(HTTP − embedding − SQL){of_rounds} | {s['throughput_ratio_8_to_1']}×; {s['overhead_p50_ms']} ms |"
            )
        if len(rounds) > 1:
            lines.append(
                f"| search, {shape}, each round: c1 p95 ms; c8 ÷ c1 | "
                + "; ".join(f"{r['concurrency_1']['p95_ms']}, {r['throughput_ratio_8_to_1']}×" for r in rounds)
                + " |"
            )
        cpu1, cpu8 = (s[c].get("cpu") for c in ("concurrency_1", "concurrency_8"))
        if cpu1 and cpu8:
            lines.append(
                f"| search, {shape}: machine CPU per request, concurrency 1 / 8 (of it the bench client); "
                f"cores idle | {cpu1['busy_ms_per_request']} / {cpu8['busy_ms_per_request']} ms "
                f"({cpu1['client_ms_per_request']} / {cpu8['client_ms_per_request']}); "
                f"{cpu1['idle_share']:.0%} / {cpu8['idle_share']:.0%} |"
            )
        split = s.get("concurrency_1", {}).get("server_timing")
        if split:  # runs with Server-Timing: each request's own phases
            lines.append(
                f"| search, {shape}, concurrency 1, per request (Server-Timing), p50 | "
                f"embedding {split['embed_p50_ms']}, search SQL {split['search_sql_p50_ms']} "
                f"(p95 {split['search_sql_p95_ms']}), other SQL {split['other_sql_p50_ms']}, "
                f"rest of Django {split['in_django_overhead_p50_ms'] - split['other_sql_p50_ms']:.2f}, "
                f"outside Django {split['outside_django_p50_ms']} ms; overhead {split['overhead_p50_ms']} "
                f"/ p95 {split['overhead_p95_ms']} ms |"
            )
        if label == "small_namespaces":
            checks["search_p95_small_namespaces_c1_ms"] = (
                s["concurrency_1"]["p95_ms"] <= TARGETS["search_p95_small_namespaces_c1_ms"]
            )
        sql = s["sql_alone"]
        plan = f", vector plan {s['vector_plan']}" if "vector_plan" in s else ""
        lines.append(
            f"| search SQL alone (query vector given), {s['namespace_size']} memories{plan} | "
            f"p50 {sql['p50_ms']} / p95 {sql['p95_ms']} ms |"
        )
        for ef, h in s.get("hnsw", {}).items():
            if ef == "vector_arm":
                lines.append(
                    f"| search's vector arm recall@10 vs exact, {s['namespace_size']} memories "
                    f"(index walk, completed exactly when short) | {h['recall_at_10']} |"
                )
                continue
            lines.append(
                f"| HNSW recall@10 vs exact, {s['namespace_size']} memories, {ef.replace('_', ' ')} | "
                f"{h['recall_at_10']} (SQL p50 {h['sql_p50_ms']} ms) |"
            )
        if label == "100k":
            checks["search_p95_100k_c1_ms"] = s["concurrency_1"]["p95_ms"] <= TARGETS["search_p95_100k_c1_ms"]
            # What search gets (its vector arm), where the run measured it; older runs: the index.
            recall = s["hnsw"].get("vector_arm", s["hnsw"]["ef_search_100"])["recall_at_10"]
            checks["hnsw_recall_100k"] = recall >= TARGETS["hnsw_recall_100k"]
            if "throughput_ratio_8_to_1" in s:
                checks["search_c8_to_c1_ratio"] = s["throughput_ratio_8_to_1"] >= TARGETS["search_c8_to_c1_ratio"]
                ratio_detail = f" ({s['throughput_ratio_8_to_1']}×"
                if cpu1 and cpu8:
                    # With the same CPU per search at both concurrencies, the ratio can be no more
                    # than the busy share of the cores at 8 over that at 1 (docs: Notes).
                    ceiling = (1 - cpu8["idle_share"]) / (1 - cpu1["idle_share"])
                    ratio_detail += (
                        f"; the cores allow {ceiling:.2f}×: busy {1 - cpu8['idle_share']:.1%} at 8, "
                        f"{1 - cpu1['idle_share']:.1%} at 1; CPU per search {cpu1['busy_ms_per_request']} "
                        f"and {cpu8['busy_ms_per_request']} ms"
                    )
                ratio_detail += ")"
                checks["search_overhead_ms"] = s["overhead_p50_ms"] <= TARGETS["search_overhead_ms"]
    if "load" in results:
        lo = results["load"]
        for step in lo["steps"]:
            lines.append(
                f"| load ({lo['mix']}), {step['concurrency']} clients, {step.get('seconds', '?')} s | "
                f"{step['requests_per_s']} req/s, "
                f"p95 {step['p95_ms']} ms, {step['errors']} errors |"
            )
        soak = [step for step in lo["steps"] if step["concurrency"] == 32]
        if soak:
            checks["load_32_errors"] = soak[-1]["errors"] == 0
        lines.append(
            f"| load: best throughput with p95 < 100 ms and no errors | {lo['best_rps_with_p95_under_100ms']} req/s |"
        )
    if "peak_rss_mb" in results:
        rss = results["peak_rss_mb"]
        lines.append(f"| peak RSS, one web process (embedder loaded) | {rss.get('web')} MB |")
        lines.append(f"| peak RSS, one worker process | {rss.get('worker')} MB |")
        checks["web_rss_mb"] = rss.get("web", 0) <= TARGETS["web_rss_mb"] if rss.get("web") else None
    lines += [
        "",
        "## Targets of `make bench`",
        "",
        "| target | verdict |",
        "|---|---|",
        f"| search p95 ≤ 25 ms at 100k memories, concurrency 1, over HTTP with the query embedding | "
        f"{verdict(checks['search_p95_100k_c1_ms'])} |",
        f"| remember p95 ≤ 40 ms at 10k memories | {verdict(checks['remember_p95_10k_ms'])} |",
        f"| async ingestion ≥ 85% of the batched embedder | {verdict(checks['ingest_ratio'])} |",
        f"| bulk import ≥ 85% of the batched embedder | {verdict(checks['import_ratio'])} |",
        "| recall@10 ≥ 0.95 at 100k: search's vector arm (HNSW, ef_search 100, completed exactly when short) | "
        f"{verdict(checks['hnsw_recall_100k'])} |",
        f"| web process RSS ≤ 400 MB with the embedder loaded | {verdict(checks['web_rss_mb'])} |",
        f"| search p95 ≤ 25 ms, 1,000 namespaces of 100, concurrency 1 | "
        f"{verdict(checks['search_p95_small_namespaces_c1_ms'])} |",
        f"| search throughput at concurrency 8 ≥ 1.8× concurrency 1 (100k) | "
        f"{verdict(checks['search_c8_to_c1_ratio'])}{ratio_detail} |",
        f"| Django/DRF/auth overhead per search ≤ 5 ms (p50, 100k) | {verdict(checks['search_overhead_ms'])} |",
        f"| worker-only ingestion ≥ 85% of the batched embedder | {verdict(checks['worker_ingest_ratio'])} |",
        f"| mixed load, 32 clients for 60 s, 0 errors | {verdict(checks['load_32_errors'])} |",
        "",
    ]
    sys.path.insert(0, str(ROOT))  # run as a script: bench/ is not a package on the path
    from bench.retrieval.bench import render_sections  # retrieval quality and search plans (issue 14)

    lines += render_sections(results)
    return "\n".join(lines)


def merge(files: list[Path]) -> tuple[dict[str, Any], str]:
    """Later files' sections replace earlier ones' (a partial rerun after a change)."""
    merged: dict[str, Any] = {}
    sources = []
    for path in files:
        data = json.loads(path.read_text())
        sections = [k for k in data if k not in {"machine", "scale", "repeats"}]
        # The embedder's speed tells the machines apart (they differ by up to 6x between sessions).
        ceiling = data.get("embedder", {}).get("batch64_texts_per_s")
        on = f"; batched embedder {ceiling} texts/s" if ceiling else ""
        sources.append(f"`{path.name}` (commit {data['machine']['commit']}{on}: {', '.join(sections)})")
        if not merged:
            merged = data
            continue
        # The machine line describes the newest results; a file that records less (a retrieval-only
        # run: its date and commit) keeps the machine facts of the one before it.
        merged["machine"] = {**merged["machine"], **data["machine"]}
        for key in sections:
            if key == "peak_rss_mb":
                # Each kind's from the newest run that started such a process (0: it started none).
                # Not the largest of all runs: an older run measured older code, and it was the
                # largest that kept a mended regression on the page (bench/NOTES.md, 2026-11-29).
                merged[key] = {**merged.get(key, {}), **{k: v for k, v in data[key].items() if v}}
            else:
                merged[key] = data[key]
    return merged, "; ".join(sources)


def newest_results_section(results: Path, render_section: Callable[[dict[str, Any]], list[str]]) -> list[str]:
    """``render_section`` of the newest results file in ``results`` (names sort by time), or nothing
    when there is none."""
    files = sorted(results.glob("*.json"))
    return render_section(json.loads(files[-1].read_text())) if files else []


def sources(results_dir: Path, record: bool = True) -> list[Path]:
    """The results files behind the committed page, oldest first, from ``results_dir/SOURCES``
    (one path a line, relative to the repository), and the newest results file (``make bench``'s
    new run) on top when it is not listed yet, which is then added to the list: the page is
    always made from every section's newest run, and anyone can make it again with no arguments."""
    listing = results_dir / "SOURCES"
    names = [n.strip() for n in listing.read_text().splitlines() if n.strip()] if listing.exists() else []
    newest = max(results_dir.glob("*.json"), key=lambda p: p.name, default=None)  # names start with the time
    if newest is not None and str(newest.relative_to(ROOT)) not in names:
        names.append(str(newest.relative_to(ROOT)))
        if record:  # not when only reading (the test that compares the committed page)
            listing.write_text("\n".join(names) + "\n")
    return [ROOT / n for n in names]


#: The lab notebook's page: bench/NOTES.md, every experiment as it was pre-registered and read.
NOTES_PAGE = "benchmark-notes.md"


def slug(heading: str) -> str:
    """The anchor MkDocs (Python-Markdown's toc) gives a heading: ASCII, lower case, word
    characters, spaces and hyphens kept, runs of spaces and hyphens one hyphen."""
    text = unicodedata.normalize("NFKD", heading).encode("ascii", "ignore").decode()
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def contents(text: str) -> list[str]:
    """A list of the page's sections (its ``## `` headings), each a link to its anchor."""
    headings = [line[3:].strip() for line in text.splitlines() if line.startswith("## ")]
    return [f"- [{h.replace('`', '')}](#{slug(h)})" for h in headings]


def page(files: list[Path]) -> str:
    """docs/benchmarks.md's text: the newest `make bench-peers` run first (Mem0 beside Mnemo, issue
    25's headline), then ``files`` (merged, oldest first: make bench's results and targets, retrieval
    quality), then the side benchmarks' sections, each from the newest file of its own results
    folder: text passes and request size (issue 24), supersession, the answerability check,
    questions about things never stored and other languages (issue 26), search CPU, remember's
    cost, the full-text index's pending list and the embedders (issue 25). A list of the sections
    comes first; the lab notebook (bench/NOTES.md) is a page of its own (:func:`notes_page`)."""
    results, source = merge(files)
    text = render(results, source)
    from bench import contradictions, gin_pending, remember_cost, search_cpu, text_limits
    from bench.peers import report as peers  # make bench-peers, Mem0 beside Mnemo (issue 25)
    from bench.retrieval import (
        answerable,  # the answerability check (issue 26)
        embedder_compare,  # the opt-in integer-kernel embedder (issue 25)
        embedder_speed,  # the default embedder's fused graph (issue 25)
        far_miss,  # questions about things never stored: the default floor and the check (issue 26)
        lodo,  # the fusion rule, each data set held out in turn (issue 26)
        multilingual,  # what other languages get (issue 26)
    )

    for benchmark in (
        text_limits,
        contradictions,
        answerable,
        far_miss,
        lodo,
        multilingual,
        search_cpu,
        remember_cost,
        gin_pending,
        embedder_speed,
        embedder_compare,
    ):
        section = benchmark.newest_section()
        text = text.rstrip("\n") + "\n\n" + "\n".join(section) if section else text
    # The header (title, sources, machine) stays on top; the peers run comes right after it.
    head, _, body = text.partition("\n## ")
    body = "## " + body
    headline = peers.newest_section()
    if headline:
        body = "\n".join(headline).rstrip("\n") + "\n\n" + body
    notebook = (
        f"The lab notebook, every experiment behind these numbers as it was written down before and "
        f"after its run (newest first), is on its own page: [Benchmark notes]({NOTES_PAGE}) "
        "(bench/NOTES.md)."
    )
    return "\n".join([head.rstrip("\n"), "", *contents(body), "", notebook, "", body.rstrip("\n"), ""])


def notes_page() -> str:
    """docs/benchmark-notes.md's text: bench/NOTES.md under a title, its entries newest first."""
    notes = (ROOT / "bench" / "NOTES.md").read_text()
    return "\n".join(
        [
            "# Benchmark notes",
            "",
            "The lab notebook of [the benchmarks](benchmarks.md), copied from bench/NOTES.md (edit that "
            "file, then run `.venv/bin/python bench/report.py`): each experiment's plan and criteria, "
            "written and committed before its run, then what it read. Newest first.",
            "",
            notes.strip(),
            "",
        ]
    )


def main() -> None:
    files = [Path(a) for a in sys.argv[1:]] or sources(ROOT / "bench" / "results")
    target = ROOT / "docs" / "benchmarks.md"
    target.write_text(page(files))
    notes = ROOT / "docs" / NOTES_PAGE
    notes.write_text(notes_page())
    print(f"wrote {target} and {notes}")


if __name__ == "__main__":
    main()
