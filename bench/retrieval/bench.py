"""The two sections `make bench` gets from bench/retrieval: retrieval quality on our
conversational benchmark, and search cost by plan at 100k memories. bench/run.py calls
run_sections (Django set up), bench/report.py calls render_sections."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

STEPS = Path(__file__).with_name("STEPS.md")


def run_sections(*, quick: bool, only: set[str]) -> dict[str, Any]:
    from bench.retrieval import harness, speed

    results: dict[str, Any] = {}
    if "retrieval" in only:
        results["retrieval"] = harness.run(quick=quick)
        print(json.dumps({"retrieval": results["retrieval"]["hybrid"]["table"]["all"]}), flush=True)
    if "search_plans" in only:
        scale = {"large": 2000, "small_namespaces": 20, "small_size": 100, "queries": 20} if quick else {}
        results["search_plans"] = speed.run(**scale)
        print(json.dumps({"search_plans": results["search_plans"]}), flush=True)
    return results


def render_sections(results: dict[str, Any]) -> list[str]:
    from bench.retrieval import harness, speed

    lines: list[str] = []
    if "retrieval" in results:
        lines += harness.render(results["retrieval"]) + [""]
        if STEPS.exists():
            lines += [STEPS.read_text().strip(), ""]
    if "search_plans" in results:
        lines += speed.render(results["search_plans"]) + [""]
    return lines
