"""A small smoke run of the benchmark harness: it must run end to end and write sane results.

No timing is asserted here (speed is measured by `make bench`, written down in docs/).
"""

import json
import os
import shutil
import subprocess
import sys

from tests.conftest import ROOT, require


def test_the_benchmark_harness_runs_end_to_end(tmp_path):
    require(shutil.which("redis-server") is not None, "redis-server is not installed (make system-deps)")
    output = tmp_path / "results.json"
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "DJANGO_SETTINGS_MODULE"}}
    result = subprocess.run(
        [sys.executable, "bench/run.py", "--quick", "--data-dir", str(tmp_path / "data"), "--output", str(output)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    data = json.loads(output.read_text())
    assert data["embedder"]["batch64_texts_per_s"] > 0 and data["embedder"]["batch1_texts_per_s"] > 0
    assert data["ingest"]["runs"][0]["memories"] == 40 and data["ingest"]["runs"][0]["errors"] == 0
    assert data["import"]["memories"] == 200 and data["import"]["runs"][0]["memories"] == 200
    assert data["remember"]["concurrency_1"]["errors"] == 0
    for size in ("10k", "100k"):
        assert data["search"][size]["concurrency_1"]["errors"] == 0
        assert 0 <= data["search"][size]["hnsw"]["ef_search_100"]["recall_at_10"] <= 1
        # Every measured search came back with its Server-Timing, and the split adds up.
        split = data["search"][size]["concurrency_1"]["server_timing"]
        assert split["n"] == data["search"][size]["concurrency_1"]["n"]
        assert split["embed_p50_ms"] > 0 and split["search_sql_p50_ms"] > 0 and split["outside_django_p50_ms"] > 0
        assert data["search"][size]["overhead_p50_ms"] == split["overhead_p50_ms"]
        # Two rounds of concurrency 1 and 8, each kept; the case's numbers are their medians.
        rounds = data["search"][size]["rounds"]
        assert len(rounds) == 2
        assert data["search"][size]["concurrency_1"]["n"] == sum(r["concurrency_1"]["n"] for r in rounds) == 40
        ratios = sorted(r["throughput_ratio_8_to_1"] for r in rounds)
        assert data["search"][size]["throughput_ratio_8_to_1"] == sum(ratios) / 2
        # The machine's CPU while they ran (the client's own share is counted in 10 ms ticks:
        # 20 requests may show none of it).
        cpu = rounds[0]["concurrency_8"]["cpu"]
        assert cpu["busy_ms_per_request"] > 0 and 0 <= cpu["client_ms_per_request"] <= cpu["busy_ms_per_request"]
        assert 0 <= cpu["idle_share"] <= 1 and cpu["steal_ms_per_request"] >= 0
    assert all(step["errors"] == 0 for step in data["load"]["steps"])
    assert data["peak_rss_mb"]["web"] > 0 and data["peak_rss_mb"]["worker"] > 0
    from bench.report import render

    assert "## Targets" in render(data, "results.json")


def test_rounds_merge_into_medians():
    from bench.run import median_summary

    rounds = [
        {"n": 10, "p95_ms": 20.0, "errors": 0, "server_timing": {"n": 10, "embed_p50_ms": 5.0}, "mode": "a"},
        {"n": 10, "p95_ms": 30.0, "errors": 1, "server_timing": {"n": 10, "embed_p50_ms": 7.0}, "mode": "a"},
        {"n": 10, "p95_ms": 22.0, "errors": 0, "server_timing": {"n": 10, "embed_p50_ms": 4.0}, "mode": "a"},
    ]
    merged = median_summary(rounds)
    assert merged == {
        "rounds": 3,
        "n": 30,
        "p95_ms": 22.0,
        "errors": 1,
        "server_timing": {"n": 30, "embed_p50_ms": 5.0},
        "mode": "a",
    }
    assert median_summary(rounds[:1]) is rounds[0]


def test_the_page_takes_each_process_kinds_peak_rss_from_the_newest_run_that_started_one(tmp_path):
    """An older run measured older code: its larger peak must not outlive the change that mended it
    (a full run's 1,020 MB web peak, from workers deriving the embedder's graph, stayed on the page
    under the old rule, the largest of all runs). A run that started no such process (0) leaves the
    one before."""
    from bench.report import merge

    def results(name: str, commit: str, web: float, worker: float) -> object:
        path = tmp_path / name
        path.write_text(json.dumps({"machine": {"commit": commit}, "peak_rss_mb": {"web": web, "worker": worker}}))
        return path

    files = [results("a.json", "old", 1020.5, 464.5), results("b.json", "new", 352.1, 0), results("c.json", "r", 0, 0)]
    merged, _ = merge(files)
    assert merged["peak_rss_mb"] == {"web": 352.1, "worker": 464.5}


def test_the_ratio_verdict_shows_what_the_cores_allow():
    from bench.report import render

    data = json.loads((ROOT / "bench" / "results" / "2026-11-23T063150-search.json").read_text())
    case = data["search"]["100k"]
    idle1, idle8 = (case[c]["cpu"]["idle_share"] for c in ("concurrency_1", "concurrency_8"))
    [row] = [line for line in render(data, "x.json").splitlines() if "concurrency 8 ≥ 1.8×" in line]
    assert f"({case['throughput_ratio_8_to_1']}×;" in row
    assert f"the cores allow {(1 - idle8) / (1 - idle1):.2f}×" in row
    # A run without the CPU accounting (before it was recorded) gives the ratio alone.
    for conc in ("concurrency_1", "concurrency_8"):
        del case[conc]["cpu"]
    [row] = [line for line in render(data, "x.json").splitlines() if "concurrency 8 ≥ 1.8×" in line]
    assert row.endswith(f"({case['throughput_ratio_8_to_1']}×) |")


def test_the_text_limits_section_is_the_committed_run():
    """docs/benchmarks.md's "Text passes and request size" is the newest bench/text_limits.py run,
    one row per text shape, with the 1-second verdict for both requests."""
    from bench.text_limits import RESULTS, newest_section, shapes

    newest = sorted(RESULTS.glob("*.json"))[-1]
    data = json.loads(newest.read_text())
    section = newest_section()
    assert section[0] == "## Text passes and request size"
    rows = [line for line in section if line.startswith("| ") and "wall / CPU" not in line]
    assert len(rows) == len(shapes(100)) == len(data["remember"]) == len(data["session"])
    assert any(line.startswith("Target (median ≤ 1 s): remember:") for line in section)
    assert "\n".join(section) in (ROOT / "docs" / "benchmarks.md").read_text()


def test_the_search_cpu_section_is_the_committed_run():
    """docs/benchmarks.md's issue-25 section is the newest bench/search_cpu.py run: one row per
    server measured, the stack's CPU beside the query embedding's, and the 32-client bursts."""
    from bench.search_cpu import RESULTS, newest_section

    newest = sorted(RESULTS.glob("*.json"))[-1]
    data = json.loads(newest.read_text())
    section = newest_section()
    assert section[0] == "## Search CPU per request against its query embedding (issue 25)"
    rows = [line for line in section if line.startswith("| ") and not line.startswith("| server")]
    assert len(rows) == len(data["servers"]) >= 3
    for name, row in zip(data["servers"], rows, strict=True):
        assert row.startswith(f"| {name} | ")
        assert str(data["servers"][name]["concurrency_1"]["stack_cpu"]["stack_ms"]) in row
    assert any(line.startswith("Bursts at 32 clients") for line in section)
    assert "\n".join(section) in (ROOT / "docs" / "benchmarks.md").read_text()


def test_the_peers_section_is_the_committed_run():
    """docs/benchmarks.md's "Mnemo beside Mem0" is the newest bench/peers/run.py run (make
    bench-peers needs .venv-peers with torch and Mem0, which CI does not install, so the run itself
    is not repeated here): every ratio in its table is that run's, with its target's verdict."""
    from bench.peers.report import TARGETS, newest, newest_section

    path = newest()
    assert path is not None, "no bench/results/peers/*-peers.json committed"
    data = json.loads(path.read_text())
    section = newest_section()
    assert section[0] == "## Mnemo beside Mem0 (`make bench-peers`)"
    assert "\n".join(section) in (ROOT / "docs" / "benchmarks.md").read_text()
    table = "\n".join(section)
    throughput, c1, ingest = data["throughput"], data["search_c1"], data["ingest"]
    for ratio, target in (
        (throughput["ratio_c1"], TARGETS["search_c1"]),
        (throughput["ratio_c8"], TARGETS["search_c8"]),
        (c1["ratio_p95"], TARGETS["search_p95"]),
        (ingest["ratio_mnemo_to_mem0"], TARGETS["remember"]),
        (round(data["add_async"]["ratio"], 2), TARGETS["add_async"]),
    ):
        verdict = "holds" if ratio >= target else "**does not hold**"
        assert (
            f"| {ratio}× | ≥ {target:g}×: {verdict} |" in table
            or f"{ratio}× faster | ≥ {target:g}×: {verdict} |" in table
        )
    assert f"load average {data['machine']['load_average_start'][0]} at the start" in table


def test_the_committed_benchmarks_page_is_what_the_report_makes():
    """docs/benchmarks.md and docs/benchmark-notes.md are generated (bench/report.py with no
    arguments, from bench/results/SOURCES, the side benchmarks' newest results and bench/NOTES.md):
    a page edited by hand, a results file or a note added without making the pages again, fails
    here."""
    from bench.report import NOTES_PAGE, notes_page, page, sources

    committed = (ROOT / "docs" / "benchmarks.md").read_text()
    made = page(sources(ROOT / "bench" / "results", record=False))
    assert made == committed, "docs/benchmarks.md is stale: run .venv/bin/python bench/report.py"
    notes = (ROOT / "docs" / NOTES_PAGE).read_text()
    assert notes == notes_page(), f"docs/{NOTES_PAGE} is stale: run .venv/bin/python bench/report.py"


def test_the_benchmarks_page_opens_with_its_sections_and_the_peers_run():
    """docs/benchmarks.md lists its sections first, one link per ``##`` heading in page order (the
    anchors themselves are checked by the strict docs build), then Mem0 beside Mnemo; the lab
    notebook is not on it but linked."""
    from bench.report import NOTES_PAGE, slug

    text = (ROOT / "docs" / "benchmarks.md").read_text()
    headings = [line[3:] for line in text.splitlines() if line.startswith("## ")]
    assert headings[0].startswith("Mnemo beside Mem0")
    links = [line for line in text.split("\n## ", 1)[0].splitlines() if line.startswith("- [")]
    assert links == [f"- [{h.replace('`', '')}](#{slug(h)})" for h in headings]
    assert "## Notes" not in text and f"]({NOTES_PAGE})" in text
    assert slug("Mnemo beside Mem0 (`make bench-peers`)") == "mnemo-beside-mem0-make-bench-peers"
    assert slug("The full-text index's pending list (issue 25)") == "the-full-text-indexs-pending-list-issue-25"


def test_the_readme_and_the_benchmarking_page_quote_the_newest_peers_run():
    """The README's and docs/benchmarking.md's Mem0 ratios are the newest default-embedder
    bench-peers run's (the one docs/benchmarks.md shows): a new run without new words fails here."""
    from bench.peers.report import newest

    path = newest()
    assert path is not None
    data = json.loads(path.read_text())
    c1, th, ing = data["search_c1"], data["throughput"], data["ingest"]
    readme = " ".join((ROOT / "README.md").read_text().split())
    page = " ".join((ROOT / "docs" / "benchmarking.md").read_text().split())
    for ratio in (c1["ratio_p95"], th["ratio_c1"], th["ratio_c8"], ing["ratio_mnemo_to_mem0"]):
        assert f"{ratio:g}×" in readme and f"{ratio:g}×" in page, ratio
    assert f"{round(data['add_async']['ratio'], 2):g}×" in page
    assert f"`bench/results/peers/{path.name}`" in page.replace("peers/ ", "peers/")
    for recall in (c1["mnemo"]["recall_at_10"], c1["mem0"]["recall_at_10"]):
        assert f"{recall:.2f}" in readme
