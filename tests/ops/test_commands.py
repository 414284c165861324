"""The ops commands: their effect, their failure modes, resumability, and what they print."""

import json
import os
import subprocess
import sys
from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import override_settings
from django.utils import timezone

from memories import services
from memories.models import Memory, MemoryEvent, Namespace, Tombstone
from tests.conftest import ROOT
from tests.factories import UserFactory
from tests.support import InterruptedMiniLM

#: The name the default embedder (minilm-int8-rowwise) records on each memory it embeds.
DEFAULT_MODEL = InterruptedMiniLM.name

pytestmark = pytest.mark.django_db


def run(*args, **options) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command(*args, stdout=out, stderr=err, **options)
    return out.getvalue(), err.getvalue()


@pytest.fixture
def ns():
    return Namespace.objects.create(key="user:ops", kind="user")


def add(ns, text, **fields):
    memory = services.add_memory(actor=None, namespace=ns, content=text, run_async=False)
    if fields:
        Memory.objects.filter(pk=memory.pk).update(**fields)
        memory.refresh_from_db()
    return memory


def test_every_command_explains_itself():
    for command in (
        "reembed_memories",
        "purge_expired_memories",
        "export_memories",
        "import_memories",
        "memory_stats",
        "requeue_stale_memories",
        "mnemo_doctor",
        "load_demo",
        "create_agent_token",
    ):
        result = subprocess.run(
            [sys.executable, "manage.py", command, "--help"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test"},
        )
        assert result.returncode == 0, result.stderr
        assert len(result.stdout) > 200 and "usage:" in result.stdout


# --- reembed_memories -----------------------------------------------------------------------------


def test_reembed_after_a_model_change_records_the_new_model(ns):
    rows = [add(ns, f"Fact {i} about the user's projects") for i in range(5)]
    Memory.objects.filter(namespace=ns).update(embedding_model="old-model")
    out, _ = run("reembed_memories", "--batch-size", "2")
    assert "Re-embedded 5 memories" in out
    assert set(Memory.objects.filter(id__in=[r.id for r in rows]).values_list("embedding_model", flat=True)) == {
        DEFAULT_MODEL
    }
    out, _ = run("reembed_memories")
    assert "Re-embedded 0 memories" in out  # nothing left to do


def test_an_interrupted_reembed_loses_nothing_and_a_rerun_continues(ns):
    for i in range(10):
        add(ns, f"Fact {i} about the user's garden")
    Memory.objects.filter(namespace=ns).update(embedding_model="old-model")
    InterruptedMiniLM.calls = 0
    with pytest.raises(KeyboardInterrupt):
        run("reembed_memories", "--batch-size", "3", "--model", "tests.support.InterruptedMiniLM")
    done = Memory.objects.filter(namespace=ns, embedding_model=DEFAULT_MODEL).count()
    assert done == 6  # two whole batches committed, the third rolled back
    assert Memory.objects.filter(namespace=ns, embedding_model="old-model").count() == 4
    out, _ = run("reembed_memories", "--batch-size", "3")
    assert "Re-embedded 4 memories" in out
    assert Memory.objects.filter(namespace=ns, embedding_model=DEFAULT_MODEL).count() == 10


def test_reembed_only_missing_and_by_namespace(ns):
    other = Namespace.objects.create(key="user:other", kind="user")
    a = add(ns, "Fact a")
    b = add(other, "Fact b")
    Memory.objects.filter(pk__in=[a.pk, b.pk]).update(embedding=None, status="queued")
    out, _ = run("reembed_memories", "--only-missing", "--namespace", "user:ops")
    assert "Re-embedded 1 memories" in out
    assert Memory.objects.get(pk=a.pk).embedding is not None and Memory.objects.get(pk=b.pk).embedding is None


def test_reembed_all_redoes_vectors_the_current_model_already_made(ns):
    """--all: vectors of the current model's name made another way (an integer embedder's products
    saturating on a CPU without VNNI before 2026-11-29) are embedded again, not skipped."""
    a = add(ns, "Fact a about the garden")
    add(ns, "Fact b about the kitchen")
    Memory.objects.filter(pk=a.pk).update(embedding=[0.5] * 384)
    out, _ = run("reembed_memories", "--namespace", "user:ops")
    assert "Re-embedded 0 memories" in out  # the default skips what this model's name embedded
    out, _ = run("reembed_memories", "--all", "--namespace", "user:ops")
    assert "Re-embedded 2 memories" in out
    vector = [float(x) for x in Memory.objects.get(pk=a.pk).embedding]
    assert vector != [0.5] * 384 and abs(sum(x * x for x in vector) - 1) < 1e-3  # the model's unit vector
    with pytest.raises(CommandError, match="exclude each other"):
        run("reembed_memories", "--all", "--only-missing")
    # refused before any embedder loads: an unknown model is not even looked up
    with pytest.raises(CommandError, match="exclude each other"):
        run("reembed_memories", "--all", "--only-missing", "--model", "no.such.Model")


def test_reembed_refuses_a_model_of_the_wrong_dimension(ns):
    add(ns, "Fact")
    with pytest.raises(CommandError, match="512-dimensional vectors; the embedding columns hold 384"):
        run("reembed_memories", "--model", "tests.support.Wide512Embedder")
    with pytest.raises(CommandError, match="unknown embedder"):
        run("reembed_memories", "--model", "no.such.Model")


# --- purge_expired_memories ---------------------------------------------------------------------------


def test_purge_deletes_long_expired_memories_and_keeps_tombstones_and_history(ns):
    old = add(ns, "Expired long ago", expires_at=timezone.now() - timedelta(days=40))
    recent = add(ns, "Expired yesterday", expires_at=timezone.now() - timedelta(days=1))
    live = add(ns, "Still valid")
    services.forget_memory(actor=None, memory=old, reason="obsolete")
    out, _ = run("purge_expired_memories", "--older-than", "30", "--dry-run")
    assert "Would delete 1 memories" in out and Memory.objects.filter(pk=old.pk).exists()
    out, _ = run("purge_expired_memories", "--older-than", "30")
    assert "Deleted 1 expired memories" in out
    assert set(Memory.objects.values_list("pk", flat=True)) == {recent.pk, live.pk}
    assert Tombstone.objects.filter(text="Expired long ago").exists()
    assert MemoryEvent.objects.filter(memory_id=old.pk).count() == 2  # add, forget: history kept


def test_purge_needs_its_days():
    with pytest.raises(CommandError):
        run("purge_expired_memories")


# --- export and import ------------------------------------------------------------------------------------


COMPARED = (
    "namespace",
    "text",
    "tags",
    "metadata",
    "source_provider",
    "importance",
    "capture_mode",
    "session_id",
    "expires_at",
    "last_confirmed_at",
    "created_at",
    "forgotten_at",
    "event_id",
    "status",
    "embedding_model",
)


def test_export_then_import_into_an_empty_database_reproduces_the_memories(ns, tmp_path):
    user = UserFactory()
    services.remember(
        actor=user,
        namespace=ns,
        text="User's Linear team ID is TEAM-123",
        tags=["Work"],
        source_provider="claude",
        importance=0.9,
        capture_mode="explicit",
        session_id="s-1",
        expires_at=timezone.now() + timedelta(days=9),
        metadata={"category": "ids"},
    )
    old = add(ns, "User's manager is John Smith")
    services.correct_memory(actor=user, memory=old, text="User's manager is Jane Doe", reason="reorg")
    long_text = " ".join(f"word{i}" for i in range(900))
    add(ns, long_text)
    path = tmp_path / "export.jsonl"
    out, _ = run("export_memories", "--include-tombstones", "--output", str(path))
    assert "Exported 5 records" in out
    before = [json.loads(line) for line in path.read_text().splitlines()]
    assert {r["type"] for r in before} == {"memory", "tombstone"}

    # An empty database: nothing of Mnemo's left.
    Tombstone.objects.all().delete()
    MemoryEvent.objects.all().delete()
    Memory.objects.all().delete()
    Namespace.objects.all().delete()

    out, err = run("import_memories", str(path))
    assert "Imported 4 memories and 1 tombstone;" in out, out + err
    after_path = tmp_path / "again.jsonl"
    run("export_memories", "--include-tombstones", "--output", str(after_path))
    after = [json.loads(line) for line in after_path.read_text().splitlines()]

    def comparable(records):
        return sorted(
            (
                {k: r.get(k) for k in COMPARED}
                if r["type"] == "memory"
                else {k: r.get(k) for k in ("namespace", "text", "kind", "reason")}
                for r in records
            ),
            key=lambda r: json.dumps(r, sort_keys=True),
        )

    assert comparable(after) == comparable(before)
    # The long memory came back with its window vectors, and search finds its end.
    from memories.selectors import search_memories

    ns_new = Namespace.objects.get(key="user:ops")
    assert search_memories(namespace_ids=[ns_new.id], query="word899", limit=1)[0].memory.text == long_text
    tombstone = Tombstone.objects.get()
    assert tombstone.replaced_by.text == "User's manager is Jane Doe" and tombstone.memory.text == old.text

    # Running the import again changes nothing: every line is already there.
    out, _ = run("import_memories", str(path))
    assert "Imported 0 memories and 0 tombstones" in out and "4 memories and 1 tombstone already present" in out
    assert Memory.objects.count() == 4 and Tombstone.objects.count() == 1


def test_import_reports_bad_lines_by_number_and_goes_on(ns, tmp_path):
    path = tmp_path / "mixed.jsonl"
    path.write_text(
        "\n".join(
            [
                json.dumps({"namespace": "user:ops", "text": "User likes tea", "tags": ["Drinks", "drinks"]}),
                "this is not json",
                json.dumps({"namespace": "user:ops", "text": "my token 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"}),
                json.dumps({"namespace": "user:ops"}),
                json.dumps({"namespace": "user:ops", "text": "ok", "importance": 7}),
                json.dumps({"text": "no namespace"}),
                json.dumps({"type": "note", "namespace": "user:ops", "text": "not a type an export writes"}),
                "",
                json.dumps({"namespace": "user:ops", "text": "User likes coffee"}),
            ]
        )
        + "\n"
    )
    out, err = StringIO(), StringIO()
    with pytest.raises(CommandError, match="6 lines rejected"):
        call_command("import_memories", str(path), stdout=out, stderr=err)
    lines = err.getvalue().splitlines()
    assert [line.split(":")[0] for line in lines] == ["line 2", "line 3", "line 4", "line 5", "line 6", "line 7"]
    assert "SECRET_REJECTED" in lines[1]
    # A bad line is the input's fault: INVALID_INPUT, never INTERNAL_ERROR (which a line without a
    # namespace and one of an unknown type said before).
    assert all("(INVALID_INPUT)" in line for i, line in enumerate(lines) if i != 1), lines
    assert sorted(Memory.objects.values_list("text", flat=True)) == ["User likes coffee", "User likes tea"]
    assert Memory.objects.get(text="User likes tea").tags == ["drinks"]


def test_an_embedding_past_float32s_range_rejects_its_line_not_the_import(ns, tmp_path):
    """1e39 is a finite JSON number the line contract takes, but no float32: the memory line and
    the tombstone line that carry it are rejected by number, and the lines around them imported
    (it failed the whole import before, nothing of it stored)."""
    from memories.embedding import get_embedder

    model = get_embedder().name
    vector, huge = [0.05] * 384, [1e39] + [0.05] * 383
    lines = [
        {"namespace": "user:ops", "text": "User likes tea", "embedding": vector, "embedding_model": model},
        {"namespace": "user:ops", "text": "User likes chess", "embedding": huge, "embedding_model": model},
        {"type": "tombstone", "namespace": "user:ops", "text": "User liked golf", "embedding": huge},
        {"type": "tombstone", "namespace": "user:ops", "text": "User liked darts", "embedding": vector},
    ]
    path = tmp_path / "huge.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    out, err = StringIO(), StringIO()
    with pytest.raises(CommandError, match="2 lines rejected"):
        call_command("import_memories", str(path), stdout=out, stderr=err)
    rejected = err.getvalue().splitlines()
    assert [line.split(":")[0] for line in rejected] == ["line 2", "line 3"]
    assert all("INVALID_INPUT" in line and "float32" in line for line in rejected)
    assert list(Memory.objects.values_list("text", flat=True)) == ["User likes tea"]
    assert list(Tombstone.objects.values_list("text", flat=True)) == ["User liked darts"]


def test_import_with_skip_if_near_skips_duplicates(ns, tmp_path):
    add(ns, "User's favourite colour is green")
    path = tmp_path / "dups.jsonl"
    path.write_text(
        json.dumps({"namespace": "user:ops", "text": "The user's favourite colour is green."})
        + "\n"
        + json.dumps({"namespace": "user:ops", "text": "User drives a blue Volvo"})
        + "\n"
    )
    out, _ = run("import_memories", str(path), "--dedup-policy", "skip_if_near")
    assert "Imported 1 memory and" in out and "1 skipped as near-duplicates" in out


def test_import_failure_modes_are_one_line(tmp_path):
    with pytest.raises(CommandError, match=r"^cannot read .*missing.jsonl: No such file or directory\.$"):
        run("import_memories", str(tmp_path / "missing.jsonl"))
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(CommandError, match="is not UTF-8 text"):
        run("import_memories", str(binary))
    with pytest.raises(CommandError, match="does not exist"):
        run("export_memories", "--output", str(tmp_path / "no" / "such" / "dir.jsonl"))


@pytest.mark.parametrize(
    "args",
    [
        ("purge_expired_memories", "--older-than", "-5"),
        ("purge_expired_memories", "--older-than", "99999999999999"),  # an OverflowError before
        ("purge_expired_memories", "--older-than", "30", "--batch-size", "0"),  # "Deleted 0" before
        ("purge_expired_memories", "--older-than", "30", "--batch-size", "-3"),  # a ValueError before
        ("requeue_stale_memories", "--older-than", "-1"),
        ("requeue_stale_memories", "--older-than", "99999999999999999"),  # an OverflowError before
        ("requeue_stale_memories", "--older-than", "nan"),  # a ValueError before
        ("requeue_stale_memories", "--older-than", "inf"),
        ("reembed_memories", "--batch-size", "0"),
        ("import_memories", "/dev/null", "--batch-size", "0"),  # taken as 1 before
        ("load_demo", "--memories", "100000000000000000000"),  # ran until memory ran out before
        ("load_demo", "--contacts", "-1"),
    ],
)
def test_a_number_out_of_an_options_range_is_one_line_naming_the_range(args):
    with pytest.raises(CommandError, match=rf"^{args[-2]} must be from \d+ to [\d,]+ \w+\.$"):
        run(*args)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("create_agent_token", "x" * 200), "USERNAME is 200 characters long; the limit is 150."),
        (("create_agent_token", "bad\x00name"), "USERNAME must not contain NUL characters."),
        (("create_agent_token", "has space"), "USERNAME: Enter a valid username."),
        (("create_agent_token", "   "), "USERNAME must not be empty."),
        (("create_agent_token", "gmail-agent", "--name", "bad\x00name"), "name: must not contain NUL characters."),
        (("ensure_admin", "--username", "x" * 200), "--username is 200 characters long; the limit is 150."),
        (("ensure_admin", "--username", "bad\x00name"), "--username must not contain NUL characters."),
        (("import_memories", "bad\x00path"), "the file name must not contain NUL characters."),
        (("export_memories", "--namespace", "bad\x00ns"), "no namespace 'bad\\x00ns'"),
        (("create_agent_token", "gmail-agent", "--expires-in-days", "0"), "--expires-in-days must be from 1 to 36,500"),
    ],
)
def test_a_name_the_database_cannot_hold_is_one_line_about_the_name(args, message):
    """Each name was a DataError or a ValueError traceback (or, for ensure_admin, a line blaming
    the database) before, the export's a database error; the range is the commands' one wording.
    No user is made."""
    users = get_user_model().objects.count()
    with pytest.raises(CommandError) as caught:
        run(*args)
    assert str(caught.value).startswith(message), str(caught.value)
    assert get_user_model().objects.count() == users


def test_an_existing_users_name_is_taken_as_stored():
    """A user made elsewhere under a name Django's validator would refuse still gets tokens."""
    get_user_model().objects.create(username="crm agent")
    out, _ = run("create_agent_token", "crm agent")
    assert out.strip().startswith("mnemo_")


def test_the_longest_spans_are_taken(ns):
    """The range's ends work: a hundred years back is within datetime's range."""
    add(ns, "Expired long ago", expires_at=timezone.now() - timedelta(days=40))
    assert "Would delete 0 memories" in run("purge_expired_memories", "--older-than", "36500", "--dry-run")[0]
    assert "Would delete 1 memories" in run("purge_expired_memories", "--older-than", "0", "--dry-run")[0]
    assert "Sent 0 queued memories" in run("requeue_stale_memories", "--older-than", "52560000")[0]


def test_export_to_stdout_and_by_namespace(ns):
    add(ns, "In ops")
    add(Namespace.objects.create(key="user:else", kind="user"), "Elsewhere")
    out, _ = run("export_memories", "--namespace", "user:ops", "--with-embeddings")
    [record] = [json.loads(line) for line in out.splitlines()]
    assert record["text"] == "In ops" and len(record["embedding"]) == 384


def test_an_export_with_embeddings_imports_the_same_vectors_bit_for_bit(ns, tmp_path):
    """The exported numbers read back as the stored float32 values, and an import of the export
    into an empty database stores them again unchanged, a long memory's window vectors included.
    Both failed before: the export rounded each number to 7 decimal places, and the import took
    an exported vector as it was and stored no window vectors for it."""
    import numpy as np

    add(ns, "Priya keeps the spare key to the Lisbon flat in the blue ceramic jar by the door.")
    add(ns, " ".join(f"word{i}" for i in range(900)))  # long: its window vectors are stored too

    def vectors() -> dict[str, bytes]:
        return {
            m.text: np.asarray(m.embedding, dtype=np.float32).tobytes()
            + b"".join(np.asarray(c.embedding, dtype=np.float32).tobytes() for c in m.chunks.order_by("position"))
            for m in Memory.objects.prefetch_related("chunks")
        }

    stored = vectors()
    path = tmp_path / "vectors.jsonl"
    run("export_memories", "--with-embeddings", "--output", str(path))
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert {r["text"]: np.asarray(r["embedding"], dtype=np.float32).tobytes() for r in records} == {
        text: value[: 384 * 4] for text, value in stored.items()
    }
    MemoryEvent.objects.all().delete()
    Memory.objects.all().delete()
    out, err = run("import_memories", str(path))
    assert "Imported 2 memories" in out, out + err
    assert vectors() == stored


# --- stats, requeue, doctor, demo ------------------------------------------------------------------------


def test_memory_stats_table_and_json(ns):
    add(ns, "A ready one")
    Memory.objects.create(namespace=ns, text="A queued one")
    add(ns, "An expired one", expires_at=timezone.now() - timedelta(days=1))
    from toolrules.services import put_rule

    put_rule(actor=UserFactory(), tool_name="send_email", rule="never email Sarah", priority="critical")
    out, _ = run("memory_stats")
    assert "user:ops" in out and "send_email" in out
    data = json.loads(run("memory_stats", "--json")[0])
    [row] = [r for r in data["namespaces"] if r["namespace"] == "user:ops"]
    assert (row["ready"], row["queued"], row["expired"]) == (2, 1, 1)
    assert row["oldest_queued_seconds"] is not None and row["embedding_models"] == [DEFAULT_MODEL]
    assert data["rules"] == [{"tool_name": "send_email", "critical": 1, "high": 0, "normal": 0}]


@override_settings(MNEMO_EMBED_COLLECT=0)  # the task embeds only what it was sent
def test_requeue_stale_memories(ns):
    stale = Memory.objects.create(namespace=ns, text="Waiting since long")
    Memory.objects.filter(pk=stale.pk).update(updated_at=timezone.now() - timedelta(hours=1))
    fresh = Memory.objects.create(namespace=ns, text="Just arrived")
    out, _ = run("requeue_stale_memories", "--older-than", "10")
    assert "Sent 1 queued memories" in out
    assert Memory.objects.get(pk=stale.pk).status == "ready"  # in process here: sent means embedded
    assert Memory.objects.get(pk=fresh.pk).status == "queued"


def test_doctor_passes_on_a_healthy_installation():
    out, _ = run("mnemo_doctor")
    for check in ("database", "pgvector", "migrations", "indexes", "embedder", "broker"):
        assert f"✓ {check}" in out
    assert "Mnemo is healthy" in out


def test_doctor_says_which_memories_carry_another_models_vectors(ns):
    """After a model change (MNEMO_EMBEDDER, or its default) search compares the new model's query
    vectors with the old one's until reembed_memories redoes them: the doctor says how many."""
    add(ns, "Fact one")
    add(ns, "Fact two")
    out, _ = run("mnemo_doctor")
    assert "another model" not in out
    Memory.objects.filter(namespace=ns).update(embedding_model="old-model")
    out, _ = run("mnemo_doctor")
    assert "2 memories carry another model's vectors (old-model: 2): run manage.py reembed_memories" in out
    assert "Mnemo is healthy" in out  # it still works: it is a notice, not a failure
    run("reembed_memories", "--quiet")
    out, _ = run("mnemo_doctor")
    assert "another model" not in out


@pytest.mark.parametrize("vnni", [True, False])
def test_doctor_says_where_the_rowwise_embedder_is_faster(monkeypatch, vnni):
    """On a CPU with VNNI the default integer embedder is faster than minilm-int8 with the same
    retrieval: the doctor's embedder line says so when minilm-int8 is configured, and says
    nothing on other CPUs."""
    from memories import embedding

    monkeypatch.setattr(embedding, "cpu_has_vnni", lambda: vnni)
    with override_settings(MNEMO_EMBEDDER="minilm-int8"):
        out, _ = run("mnemo_doctor")
    line = next(x for x in out.splitlines() if "embedder:" in x)
    assert ("this CPU has VNNI: the default minilm-int8-rowwise" in line) is vnni
    assert "Mnemo is healthy" in out


def serve_script():
    """scripts/serve.py (make run) as a module: it is a script, not part of a package."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("mnemo_serve", ROOT / "scripts" / "serve.py")
    serve = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(serve)
    return serve


def test_make_run_says_when_memories_carry_another_models_vectors(ns, capsys):
    serve = serve_script()
    add(ns, "Fact one")
    serve._say_if_other_model_vectors()
    assert capsys.readouterr().out == ""
    Memory.objects.filter(namespace=ns).update(embedding_model="old-model")
    serve._say_if_other_model_vectors()
    out = capsys.readouterr().out
    assert "1 memories carry vectors of another model (old-model)" in out and "reembed_memories" in out


def test_make_run_derives_the_embedders_graph_once_before_its_processes_start(tmp_path, capsys, monkeypatch):
    """On a first start the graph is derived by make run, then read from the cache: the web
    processes and the worker load it instead of each deriving it at the same moment. It is
    derived in a child process: the supervisor, alive as long as the server, never holds the
    derivation's memory (it kept 613 MB when it derived itself)."""
    import memories.embedding

    def not_here(*args, **kwargs):
        raise AssertionError("the graph was derived (or read) in make run's own process")

    monkeypatch.setattr(memories.embedding, "_cached_derivation", not_here)
    serve = serve_script()
    with override_settings(MNEMO_EMBED_CACHE_DIR=tmp_path):
        serve._prepare_embedder()
        assert "derived the embedding model's graph in" in capsys.readouterr().out
        [graph] = tmp_path.glob("minilm-int8-rowwise-*.onnx")  # the default's
        serve._prepare_embedder()
        assert capsys.readouterr().out == ""  # read from the cache: nothing to say
        assert list(tmp_path.glob("*.onnx")) == [graph]
    with override_settings(MNEMO_EMBEDDER="tests.support.Wide512Embedder"):
        serve._prepare_embedder()  # an embedder of one's own has nothing to derive
    assert capsys.readouterr().out == ""


def test_doctor_reports_a_wrong_dimension():
    out = StringIO()
    with (
        override_settings(MNEMO_EMBEDDER="tests.support.Wide512Embedder"),
        pytest.raises(CommandError, match="1 checks failed: embedder"),
    ):
        call_command("mnemo_doctor", stdout=out)
    assert "✗ embedder" in out.getvalue() and "512" in out.getvalue()


def test_doctor_reports_a_broken_index():
    with connection.cursor() as cursor:
        cursor.execute("UPDATE pg_index SET indisvalid = false WHERE indexrelid = 'memory_tags_gin'::regclass")
    out = StringIO()
    try:
        with pytest.raises(CommandError, match="indexes"):
            call_command("mnemo_doctor", stdout=out)
    finally:
        with connection.cursor() as cursor:
            cursor.execute("UPDATE pg_index SET indisvalid = true WHERE indexrelid = 'memory_tags_gin'::regclass")
    assert "memory_tags_gin is invalid" in out.getvalue()


def test_doctor_on_a_database_without_pgvector_or_migrations():
    """A database of the same server with nothing in it: the extension and migrations are missing."""
    import psycopg

    if os.environ.get("DATABASE_URL"):
        pytest.skip("this test builds a second database in the embedded server (DATABASE_URL is set)")
    name = "mnemo_doctor_empty"

    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    params["dbname"] = "postgres"
    with psycopg.connect(**params, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name}")
        admin.execute(f"CREATE DATABASE {name}")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test", "MNEMO_TEST_WORKER_DB": name}
    result = subprocess.run(
        [sys.executable, "manage.py", "mnemo_doctor"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    with psycopg.connect(**params, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    assert result.returncode == 1
    assert "✗ pgvector" in result.stdout and "not installed" in result.stdout
    assert "✗ migrations" in result.stdout
    assert result.stderr.strip().splitlines()[-1].startswith("CommandError: ")


def test_load_demo_sizes_and_idempotence():
    out, _ = run("load_demo", "--contacts", "3", "--memories", "20")
    assert "23 new memories, 3 new contacts" in out  # 20 user memories + 3 skills
    assert Memory.objects.filter(namespace__key="user:demo").count() == 20
    from contacts.models import Contact, ContactNote

    assert Contact.objects.count() == 3 and ContactNote.objects.filter(kind="memory").count() == 3
    out, _ = run("load_demo", "--contacts", "3", "--memories", "20")
    assert "0 new memories, 0 new contacts" in out


def test_quiet_prints_nothing_and_no_progress_bar_off_a_terminal(ns):
    add(ns, "Fact")
    Memory.objects.update(embedding_model="old")
    out, err = run("reembed_memories", "--quiet")
    assert out == "" and err == ""
    out, err = run("reembed_memories")
    assert "━" not in out + err  # rich's bar only draws on a terminal
