"""bench/gin_pending.py's section of docs/benchmarks.md: every level a row, the ratios from its
numbers, a difference in hits said loudly."""

from __future__ import annotations

from bench import gin_pending
from bench.gin_pending import render_section


def result(same: bool = True) -> dict:
    return {
        "date": "2026-11-29T13:00:00+00:00",
        "machine": {"cores": 2, "platform": "Linux", "python": "3.13.0", "commit": "abc1234"},
        "load_average": [0.5, 0.7],
        "searched_namespaces": 4,
        "memories_searched": 1835,
        "searches": 150,
        "same_hits_at_every_level": same,
        "reference_ms": {"keyword": 1.0, "hybrid": 3.0},
        "levels": [
            {
                "pending_rows": 1000,
                "table_rows": 3835,
                "keyword_ms": {"pending": 1.5, "merged": 1.0},
                "hybrid_ms": {"pending": 4.5, "merged": 3.0},
            },
            {
                "pending_rows": 4000,
                "table_rows": 7835,
                "keyword_ms": {"pending": 3.0, "merged": 1.2},
                "hybrid_ms": {"pending": 9.0, "merged": 3.6},
            },
        ],
        "insert_ms": {"on": {"median": 0.7, "p99": 40.0}, "off": {"median": 0.75, "p99": 4.0}},
        "inserts_per_arm": 1000,
        "bulk_insert_ms_per_row": {"on": 0.5, "off": 0.55},
        "bulk_rows": 200,
        "merge_ms_per_row_with_the_list": 0.02,
    }


def test_each_level_is_a_row_with_its_ratios():
    lines = render_section(result())
    rows = [line for line in lines if line.startswith("| 1000 ") or line.startswith("| 4000 ")]
    assert rows == [
        "| 1000 (3835) | 1.5 → 1.0 (1.50×) | 4.5 → 3.0 (1.50×) |",
        "| 4000 (7835) | 3.0 → 1.2 (2.50×) | 9.0 → 3.6 (2.50×) |",
    ]
    text = "\n".join(lines)
    assert "Commit abc1234" in text and "150 of their questions" in text
    assert "the default p50 0.7 / p99 40.0 ms, `off` p50 0.75 / p99 4.0 ms" in text
    assert "The same hits at every level: yes." in text


def test_different_hits_are_said():
    assert "The same hits at every level: **no**." in "\n".join(render_section(result(same=False)))


def test_the_newest_read_of_each_variant_is_shown(tmp_path, monkeypatch):
    import json

    bounded = result() | {"variant": "limit64", "date": "2026-11-29T14:00:00+00:00"}
    bounded["machine"] = {"cpus": 4, "commit": "def5678", "python": "3.13.0", "platform": "Linux"}  # run.machine()
    bounded["insert_ms"] = {"on": {"median": 0.7, "p99": 40.0}, "limit64": {"median": 0.71, "p99": 9.0}}
    bounded["bulk_insert_ms_per_row"] = {"on": 0.5, "limit64": 0.52}
    older = result() | {"date": "2026-11-28T10:00:00+00:00", "searches": 40}
    for name, run in (("2026-11-28T100000", older), ("2026-11-29T130000", result()), ("2026-11-29T140000", bounded)):
        (tmp_path / f"{name}.json").write_text(json.dumps(run))
    monkeypatch.setattr(gin_pending, "RESULTS", tmp_path)
    text = "\n".join(gin_pending.newest_section())
    assert text.count("### `--variant") == 2
    assert "40 of their questions" not in text  # the older read of the same variant is not shown
    assert "`limit64` p50 0.71 / p99 9.0 ms" in text and "`off` p50 0.75 / p99 4.0 ms" in text
    assert "Commit def5678, 2026-11-29T14:00:00+00:00; 4 cores" in text
    monkeypatch.setattr(gin_pending, "RESULTS", tmp_path / "none")
    assert gin_pending.newest_section() == []
