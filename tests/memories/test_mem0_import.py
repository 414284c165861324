"""import_memories from Mem0: an export (``Memory.get_all`` and ``Memory.history`` output) and a
pgvector table, both written by the real mem0ai 2.2.1 ``Memory`` class with its own PGVector store
in the test's PostgreSQL and its own SQLite history (no LLM or embedder is called: memories are
written through Mem0's own create/update/delete steps with vectors given, as its ``add`` does
after the LLM has decided).

What must hold: Mem0's ids kept in metadata, memories in ``user:<id>`` / ``agent:<id>``,
``created_at`` kept, re-embedded with Mnemo's model, Mem0's history as the memory's history (with
its times), deleted Mem0 memories skipped, every item through import's contract and scanner
(a refused item reported with its code, the others imported), a second run importing nothing."""

from __future__ import annotations

import json
import os
import tempfile
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from psycopg.conninfo import make_conninfo

# Before mem0 is imported: no telemetry, and its config folder out of the home directory.
os.environ["MEM0_TELEMETRY"] = "False"
os.environ.setdefault("MEM0_DIR", tempfile.mkdtemp(prefix="mem0-test-"))

from mem0 import Memory as Mem0Memory  # noqa: E402

from core.fields import parse_aware_datetime  # noqa: E402
from memories import mem0  # noqa: E402
from memories.models import EMBEDDING_DIMENSIONS, Memory, MemoryEvent, Namespace  # noqa: E402
from memories.ops import embedder_for  # noqa: E402

pytestmark = pytest.mark.django_db(transaction=True)

DIMS = 8  # Mem0's own vectors: never read by the import, so any width will do
SECRET = "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"


def _dsn() -> str:
    params = connection.get_connection_params()
    keep = {k: v for k, v in params.items() if k in ("dbname", "user", "password", "host", "port") and v}
    return make_conninfo(**keep)


def _vector(seed: int) -> list[float]:
    return [((seed * 7 + i * 3) % 11) / 10 for i in range(DIMS)]


@pytest.fixture
def mem0_store(tmp_path):
    """A real Mem0 ``Memory`` on a pgvector collection of its own in the test database."""
    collection = f"mem0_{os.getpid()}_{tmp_path.name[-12:]}".replace("-", "_").lower()
    config = {
        "vector_store": {
            "provider": "pgvector",
            "config": {
                "connection_string": _dsn(),
                "collection_name": collection,
                "embedding_model_dims": DIMS,
                "hnsw": False,
            },
        },
        # Never called: Mem0's create/update/delete steps are given their vectors.
        "llm": {"provider": "openai", "config": {"api_key": "sk-never-used", "model": "gpt-4o-mini"}},
        "embedder": {"provider": "openai", "config": {"api_key": "sk-never-used", "embedding_dims": DIMS}},
        "history_db_path": str(tmp_path / "history.db"),
    }
    memory = Mem0Memory.from_config(config)
    yield memory, collection, tmp_path / "history.db"
    memory.vector_store.delete_col()
    memory.vector_store.connection_pool.close()


def _write_mem0(store) -> dict[str, str]:
    """Mem0 memories as its ``add`` leaves them: alice's three (one updated), an agent's one, one
    of alice's deleted. Returns Mem0's ids by name."""
    memory = store
    ids = {}

    def create(name, text, seed, **metadata):
        ids[name] = memory._create_memory(text, {text: _vector(seed)}, metadata=metadata)

    create("bees", "Keeps bees on the roof in Porto", 1, user_id="alice", run_id="run-1", category="hobby")
    create("cello", "Daughter Ana plays the cello", 2, user_id="alice", actor_id="alice", role="user")
    create("peanuts", "Is allergic to peanuts", 3, user_id="alice")
    create("skill", "Book flights with the corporate card", 4, agent_id="travel-bot")
    create("gone", "Used to live in Berlin", 5, user_id="alice")
    moved = "Keeps bees on the roof in Lisbon"
    memory._update_memory(ids["bees"], moved, {moved: _vector(6)})
    memory._delete_memory(ids["gone"])
    return ids


def _export(store, ids, tmp_path):
    """What a Mem0 user exports: ``get_all`` per user/agent and ``history`` per memory."""
    results = [
        *store.get_all(filters={"user_id": "alice"})["results"],
        *store.get_all(filters={"agent_id": "travel-bot"})["results"],
    ]
    export = tmp_path / "mem0_export.json"
    export.write_text(json.dumps({"results": results}))
    history = tmp_path / "mem0_history.json"
    history.write_text(json.dumps({memory_id: store.history(memory_id) for memory_id in ids.values()}))
    return export, history, results


def _import(*args: str) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("import_memories", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def _by_mem0_id() -> dict[str, Memory]:
    return {m.metadata["mem0_id"]: m for m in Memory.objects.select_related("namespace").all()}


def test_a_mem0_export_with_its_history(mem0_store, tmp_path):
    store, _, _ = mem0_store
    ids = _write_mem0(store)
    export, history, results = _export(store, ids, tmp_path)
    assert len(results) == 4  # the deleted one is gone from Mem0's get_all

    out, err = _import(str(export), "--format", "mem0", "--mem0-history", str(history))
    assert "Imported 4 memories" in out and "1 memory deleted in Mem0 (history only): skipped" in out, out
    assert err == ""

    imported = _by_mem0_id()
    assert set(imported) == {ids[n] for n in ("bees", "cello", "peanuts", "skill")}
    bees, cello, skill = imported[ids["bees"]], imported[ids["cello"]], imported[ids["skill"]]
    mem0_bees = next(r for r in results if r["id"] == ids["bees"])
    # Where, what, and Mem0's ids and times.
    assert bees.namespace.key == "user:alice" and skill.namespace.key == "agent:travel-bot"
    assert bees.text == "Keeps bees on the roof in Lisbon"
    assert bees.metadata == {
        "category": "hobby",
        "mem0_id": ids["bees"],
        "mem0_hash": mem0_bees["hash"],
        "mem0_run_id": "run-1",
    }
    assert cello.metadata["mem0_actor_id"] == "alice" and cello.metadata["mem0_role"] == "user"
    assert bees.created_at == parse_aware_datetime(mem0_bees["created_at"])
    assert bees.event_id == mem0.import_event_id(ids["bees"])
    # Re-embedded with Mnemo's model: Mem0's vectors (8 numbers) were never read.
    embedder = embedder_for(None)
    assert bees.embedding_model == embedder.name and len(bees.embedding) == EMBEDDING_DIMENSIONS
    assert bees.status == Memory.Status.READY
    # Mem0's history is the memory's history, with Mem0's times.
    events = list(MemoryEvent.objects.filter(memory=bees).order_by("created_at", "id"))
    assert [e.event_type for e in events] == ["add", "update"]
    assert events[1].old_text == "Keeps bees on the roof in Porto" and events[1].new_text == bees.text
    mem0_rows = store.history(ids["bees"])
    assert events[0].created_at == parse_aware_datetime(mem0_rows[0]["created_at"])
    assert events[1].created_at == parse_aware_datetime(mem0_rows[1]["updated_at"])
    assert events[1].data["mem0_history_id"] == mem0_rows[1]["id"]
    # A memory without history rows still has its add, at its creation.
    assert [e.event_type for e in MemoryEvent.objects.filter(memory=cello)] == ["add"]

    # Again: nothing new, nothing duplicated.
    out, _ = _import(str(export), "--format", "mem0", "--mem0-history", str(history))
    assert "Imported 0 memories" in out and "4 memories and 0 tombstones already present" in out, out
    assert Memory.objects.count() == 4 and MemoryEvent.objects.count() == 5


def test_refused_items_are_reported_and_the_others_imported(tmp_path, db):
    good = {"id": "a1", "memory": "Prefers window seats", "hash": "x", "user_id": "dana", "created_at": None}
    items = [
        good,
        {"id": "a2", "memory": f"My token is {SECRET}", "user_id": "dana"},
        {"id": "a3", "memory": "Unknown field", "user_id": "dana", "mood": "happy"},
        {"id": "a4", "memory": "No owner at all", "run_id": "r"},
        {"id": "a5", "memory": "Metadata secret", "user_id": "dana", "metadata": {"note": SECRET}},
        {"id": "a6", "memory": "Changed away from a secret", "user_id": "dana"},
        {"id": "a7", "memory": "", "user_id": "dana"},
        {**good, "memory": "Prefers aisle seats"},  # the same Mem0 id again, another memory
        dict(good),  # the same memory again (listed for its user and its agent): once
    ]
    export = tmp_path / "export.json"
    export.write_text(json.dumps(items))  # a bare list is an export too
    history = tmp_path / "history.json"
    history.write_text(
        json.dumps(
            [
                {"id": "h1", "memory_id": "a6", "old_memory": None, "new_memory": SECRET, "event": "ADD"},
                {"id": "h2", "memory_id": "a6", "old_memory": SECRET, "new_memory": "x", "event": "UPDATE"},
            ]
        )
    )
    with pytest.raises(CommandError, match="7 items rejected"):
        out, err = StringIO(), StringIO()
        call_command(
            "import_memories", str(export), "--format", "mem0", "--mem0-history", str(history), stdout=out, stderr=err
        )
    lines = err.getvalue().splitlines()
    assert lines[0].startswith("item 2: rejected (SECRET_REJECTED)")
    assert lines[1] == "item 3: rejected (INVALID_INPUT): unknown Mem0 field(s): mood"
    assert lines[2].startswith("item 4: rejected (INVALID_INPUT): no user_id or agent_id")
    assert lines[3].startswith("item 5: rejected (SECRET_REJECTED): metadata.note")
    assert lines[4].startswith("item 6: rejected (SECRET_REJECTED): history[0].new_memory")
    assert SECRET not in err.getvalue()
    [memory] = Memory.objects.all()
    assert memory.text == "Prefers window seats" and memory.namespace.key == "user:dana"
    assert memory.metadata == {"mem0_id": "a1", "mem0_hash": "x"}
    # item 7 (an empty memory) is refused by the line's contract itself.
    assert "item 7: rejected (INVALID_INPUT)" in err.getvalue()
    assert "item 8: rejected (INVALID_INPUT): the same Mem0 id as item 1, with other content" in err.getvalue()
    assert "item 9" not in err.getvalue() and "Imported 1 memory" in out.getvalue()
    assert "1 memory and 0 tombstones already present" in out.getvalue()


def test_a_mem0_pgvector_table(mem0_store, tmp_path):
    store, collection, history_db = mem0_store
    ids = _write_mem0(store)

    out, err = _import(_dsn(), "--format", "mem0-pgvector", "--table", collection, "--mem0-history", str(history_db))
    assert "Imported 4 memories" in out and "1 memory deleted in Mem0 (history only): skipped" in out, out
    imported = _by_mem0_id()
    assert set(imported) == {ids[n] for n in ("bees", "cello", "peanuts", "skill")}
    bees = imported[ids["bees"]]
    assert bees.text == "Keeps bees on the roof in Lisbon" and bees.namespace.key == "user:alice"
    assert bees.metadata["category"] == "hobby" and bees.metadata["mem0_run_id"] == "run-1"
    assert "text_lemmatized" not in bees.metadata and "data" not in bees.metadata
    # History from Mem0's own SQLite database.
    assert [e.event_type for e in MemoryEvent.objects.filter(memory=bees).order_by("created_at")] == ["add", "update"]
    # The export and the table name the same memories: importing one after the other adds nothing.
    export, history, _ = _export(store, ids, tmp_path)
    out, _ = _import(str(export), "--format", "mem0", "--mem0-history", str(history))
    assert "Imported 0 memories" in out and "4 memories and 0 tombstones already present" in out
    assert Namespace.objects.filter(key__in=["user:alice", "agent:travel-bot"]).count() == 2


def test_a_missing_mem0_table_is_one_clear_error(db):
    with pytest.raises(CommandError, match="cannot read the Mem0 table 'no_such_table'"):
        _import(_dsn(), "--format", "mem0-pgvector", "--table", "no_such_table")


def test_a_database_error_rolls_back_its_batch_and_a_rerun_continues(tmp_path, db):
    """A write the database refuses mid-import (here a trigger, as a full disk or a lost
    connection would): the batch being written leaves nothing, the batch before it stays, the
    command says so, and running it again imports the rest once."""
    items = [{"id": f"b{i}", "memory": f"Fact number {i} about the garden", "user_id": "erin"} for i in range(1, 4)]
    items[2]["memory"] = "Fact number 3 BOOM about the garden"
    export = tmp_path / "export.json"
    export.write_text(json.dumps({"results": items}))
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE FUNCTION mem0_test_boom() RETURNS trigger AS $$ BEGIN "
            "IF NEW.new_text LIKE '%BOOM%' THEN RAISE EXCEPTION 'disk full'; END IF; RETURN NEW; END $$ "
            "LANGUAGE plpgsql"
        )
        cursor.execute(
            "CREATE TRIGGER mem0_test_boom BEFORE INSERT ON memories_memoryevent "
            "FOR EACH ROW EXECUTE FUNCTION mem0_test_boom()"
        )
    try:
        with pytest.raises(CommandError, match="database error .*2 memories imported before it are kept"):
            _import(str(export), "--format", "mem0", "--batch-size", "2")
        assert sorted(Memory.objects.values_list("metadata__mem0_id", flat=True)) == ["b1", "b2"]
        assert not MemoryEvent.objects.filter(new_text__contains="BOOM").exists()
    finally:
        with connection.cursor() as cursor:
            cursor.execute("DROP TRIGGER mem0_test_boom ON memories_memoryevent")
            cursor.execute("DROP FUNCTION mem0_test_boom()")
    out, _ = _import(str(export), "--format", "mem0", "--batch-size", "2")
    assert "Imported 1 memory" in out and "2 memories and 0 tombstones already present" in out, out
    assert Memory.objects.count() == 3 and MemoryEvent.objects.count() == 3
