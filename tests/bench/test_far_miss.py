"""bench/retrieval/far_miss.py's questions: another set's, never the target's own nor the unread
reserve's, the same draw for the same seed, renamed to the namespace's user as whole words only.
Structural: nothing here searches."""

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
