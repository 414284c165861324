"""The peers report shows the query embedding alone after a pause when the run measured it
(bench/peers/mnemo_side.py ``embed-cpu``, since 2026-11-26), and renders older runs as before."""

from __future__ import annotations

import json


def test_the_report_shows_the_embedding_after_a_pause_when_measured():
    from bench.peers.report import newest, render_section

    run = json.loads(newest().read_text())
    run["embedding_cpu"].pop("cpu_p50_ms_after_pause", None)
    before = [line for line in render_section(run) if "query embedding alone" in line]
    run["embedding_cpu"] |= {"pause_ms": 20.0, "cpu_p50_ms_after_pause": 7.68, "wall_p50_ms_after_pause": 7.84}
    after = [line for line in render_section(run) if "query embedding alone" in line]
    assert len(before) == len(after) == 1
    assert "pause" not in before[0] and before[0].endswith("questions.")
    assert "each after a 20 ms pause" in after[0] and "7.68 ms of CPU (7.84 ms wall)" in after[0]
