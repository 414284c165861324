"""bench/retrieval/far_miss.py's questions: another set's, never the target's own nor the unread
reserve's, the same draw for the same seed, renamed to the namespace's user as whole words only.
Structural: nothing here searches; and the section docs/benchmarks.md shows of a run."""

from bench.retrieval import far_miss, harness


def test_rename_replaces_whole_names_only():
    assert far_miss.rename("What did Hana tell Hanako about Hana's exam?", ["Hana"], "Tariq") == (
        "What did Tariq tell Hanako about Tariq's exam?"
    )
    # the longer of two overlapping names first: "Grandpa Ebenezer" is one person
    assert far_miss.rename("Did Grandpa Ebenezer call Ebenezer?", ["Ebenezer", "Grandpa Ebenezer"], "Ana") == (
        "Did Ana call Ana?"
    )


def test_foreign_questions_come_from_the_other_read_sets():
    sets = {name: harness.dataset(name) for name in far_miss.READ}
    assert "coach" not in sets
    conv = sets["dev"]["conversations"][0]
    drawn = far_miss.foreign_questions("dev", conv, sets, 40, seed=1)
    assert len(drawn) == 40 and {q["source"] for q in drawn} <= set(far_miss.READ) - {"dev"}
    assert len({q["source"] for q in drawn}) > 3  # drawn across the sets, not one
    assert drawn == far_miss.foreign_questions("dev", conv, sets, 40, seed=1)
    assert drawn != far_miss.foreign_questions("dev", conv, sets, 40, seed=2)
    ids = {q["id"]: q for data in sets.values() for q in data["questions"]}
    user = conv["speakers"][0]
    for q in drawn:
        assert ids[q["id"]]["evidence"] and ids[q["id"]]["question"] == q["asked"]
    # a question naming a speaker of its own conversation names this namespace's user instead
    named = [q for q in drawn if q["renamed"] != q["asked"]]
    assert named and all(user in q["renamed"] for q in named)


def test_the_section_shows_the_default_beside_the_floor_and_marks_the_held_out_set():
    def row(far, renamed, near, lost):
        return {
            "far, as asked": far,
            "far, renamed": renamed,
            "near (the set's never-stored)": near,
            "R@10 lost (points)": lost,
        }

    target = {
        "far_questions": 300,
        "near_questions": 100,
        "answerable": 390,
        "silence": {
            "check, floor 0.005": row(0.773, 0.1, 0.0, 0.0),
            "floor 0.005": row(0.0, 0.0, 0.0, 0.0),
            "floor 0.1": row(0.86, 0.74, 0.32, 22.1),
        },
    }
    result = {
        "date": "2026-12-07T18:00:23+00:00",
        "commit": "abc1234",
        "seed": 26,
        "per_namespace": 30,
        "held_out": ["coach"],
        "targets": {"coach": target, "chat": target},
    }
    text = "\n".join(far_miss.render_section(result))
    assert (
        "| coach (held out) | 300 / 100 / 390 | 77% / 10% / 0%; 0.0 | 0% / 0% / 0%; 0.0 | 86% / 74% / 32%; 22.1 |"
        in text
    )
    assert "| chat | 300 / 100 / 390 |" in text and "chat (held out)" not in text
    assert "commit `abc1234`" in text
