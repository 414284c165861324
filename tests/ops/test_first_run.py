"""Issue 15: a first run that never breaks (load_demo on any data, one-line failures) and ops
commands that tell the truth (counts of what was written, unknown namespaces, where files go)."""

from __future__ import annotations

import json
import subprocess
import sys
from io import StringIO

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from assistant.management.commands import load_demo
from contacts.models import Contact, ContactMessage, ContactNote
from memories import services
from memories.models import Memory, MemoryEvent, Namespace, Tombstone
from tests.conftest import ROOT
from toolrules.models import ToolMemoryRule

pytestmark = pytest.mark.django_db


def run(*args, **options) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command(*args, stdout=out, stderr=err, **options)
    return out.getvalue(), err.getvalue()


def demo_counts() -> tuple[int, ...]:
    return (
        Memory.objects.filter(metadata__demo=True).count(),
        Contact.objects.filter(custom_fields__demo=True).count(),
        ContactNote.objects.count(),
        ContactMessage.objects.count(),
        ToolMemoryRule.objects.count(),
    )


def test_load_demo_is_idempotent_whatever_users_stored():
    run("load_demo", "--contacts", "3")
    first = demo_counts()
    demo_ns = Namespace.objects.get(key="user:demo")
    demo = demo_ns.owner
    # The docs' own example (README, docs/memory-api.md), the same sentence as a demo memory,
    # twice; and a contact and a rule that look like the demo's.
    for _ in range(2):
        services.remember(
            actor=demo, namespace=demo_ns, text="My son Colby lives in Los Angeles.", dedup_policy="insert"
        )
    Contact.objects.create(name="Sarah Johnson", owner=demo)
    Memory.objects.create(namespace=demo_ns, text="User is allergic to peanuts.", metadata={"demo": True})

    out, _ = run("load_demo", "--contacts", "3")
    assert "0 new memories, 0 new contacts" in out
    assert demo_counts() == (first[0] + 1, *first[1:])
    assert Memory.objects.filter(namespace=demo_ns, text="My son Colby lives in Los Angeles.").count() == 3


def test_every_demo_memory_has_its_add_event():
    run("load_demo", "--contacts", "0", "--memories", "15")
    demo = Memory.objects.filter(metadata__demo=True)
    assert demo.count() == 15 + len(load_demo.SKILLS)
    for memory in demo:
        assert list(MemoryEvent.objects.filter(memory=memory).values_list("event_type", "data")) == [
            ("add", {"via": "load_demo"})
        ], memory.text
    # Demo rows are found by their event ids, fixed for every run and machine.
    assert set(demo.values_list("event_id", flat=True)) >= {load_demo.demo_id("memory", i) for i in range(15)}


def test_rows_of_an_older_load_demo_are_adopted_not_doubled(django_user_model):
    demo = django_user_model.objects.create_user("demo")
    namespace = Namespace.objects.get(key="user:demo")
    # What the old load_demo left: demo texts without marker or history; a contact found by name.
    for text in load_demo.DEMO_MEMORIES:
        Memory.objects.create(namespace=namespace, text=text, created_by=demo)
    Contact.objects.create(name="Sarah Johnson", owner=demo)
    out, _ = run("load_demo", "--contacts", "1")
    assert f"Demo data: {len(load_demo.SKILLS)} new memories, 0 new contacts" in out  # only the skills were new
    assert Memory.objects.filter(namespace=namespace).count() == len(load_demo.DEMO_MEMORIES)
    assert Memory.objects.filter(namespace=namespace, metadata__demo=True).count() == len(load_demo.DEMO_MEMORIES)
    assert MemoryEvent.objects.filter(memory__namespace=namespace, event_type="add").count() == len(
        load_demo.DEMO_MEMORIES
    )
    assert Contact.objects.count() == 1 and Contact.objects.get().custom_fields["demo_index"] == 0


def test_a_demo_memory_staff_forgot_stays_forgotten(admin_user):
    run("load_demo", "--contacts", "0")
    memory = Memory.objects.get(event_id=load_demo.demo_id("memory", 0))
    services.forget_memory(actor=admin_user, memory=memory, reason="not true")
    out, _ = run("load_demo", "--contacts", "0")
    assert "0 new memories" in out
    assert Memory.objects.get(pk=memory.pk).forgotten_at is not None


def test_inbound_demo_messages_are_received_never_sent():
    run("load_demo", "--contacts", "8", "--memories", "0")
    assert ContactMessage.objects.filter(direction="in").exists()
    assert set(ContactMessage.objects.filter(direction="in").values_list("status", flat=True)) == {"received"}
    assert not ContactMessage.objects.filter(direction="out", status="received").exists()


def test_a_load_demo_failure_is_one_line_with_what_to_do(monkeypatch):
    def broken(**kwargs):
        raise RuntimeError("disk full\nsecond line of a long story")

    monkeypatch.setattr(load_demo, "put_rule", broken)
    with pytest.raises(CommandError) as failure:
        call_command("load_demo", "--contacts", "1")
    message = str(failure.value)
    assert "\n" not in message and "disk full" in message and "second line" not in message
    assert "runserver" in message and "load_demo" in message
    assert not Memory.objects.exists()  # nothing of the failed run was kept


def test_load_demo_failing_from_the_command_line_prints_one_line():
    # A database that does not answer: the same process make run starts, one line and exit 1.
    env = {"DJANGO_SETTINGS_MODULE": "config.settings.test", "DATABASE_URL": "postgres://x:y@127.0.0.1:9/none"}
    import os

    result = subprocess.run(
        [sys.executable, "manage.py", "load_demo", "--contacts", "0"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        timeout=120,
    )
    assert result.returncode == 1
    lines = [line for line in result.stderr.strip().splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr


# --- ops commands tell the truth -------------------------------------------------------------------


def test_import_twice_counts_only_what_was_written(admin_user, tmp_path):
    ns = Namespace.objects.create(key="user:ops", kind="user")
    kept = services.add_memory(actor=None, namespace=ns, content="User's manager is Jane Doe", run_async=False)
    for text in ("User's manager is John Smith", "User lives in Porto", "User likes tea"):
        gone = services.add_memory(actor=None, namespace=ns, content=text, run_async=False)
        services.forget_memory(actor=admin_user, memory=gone, reason="wrong", replaced_by=kept)
    path = tmp_path / "backup.jsonl"
    run("export_memories", "--include-tombstones", "--output", str(path))
    Tombstone.objects.all().delete()
    Memory.objects.all().delete()

    out, _ = run("import_memories", str(path))
    assert "Imported 4 memories and 3 tombstones;" in out
    out, _ = run("import_memories", str(path))
    assert "Imported 0 memories and 0 tombstones;" in out and "4 memories and 3 tombstones already present" in out
    assert Tombstone.objects.count() == 3 and Memory.objects.count() == 4


def test_export_of_an_unknown_namespace_fails():
    with pytest.raises(CommandError, match="no namespace 'user:nobody'"):
        call_command("export_memories", "--namespace", "user:nobody", stdout=StringIO())
    result = subprocess.run(
        [sys.executable, "manage.py", "export_memories", "--namespace", "user:nobody"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**__import__("os").environ, "DJANGO_SETTINGS_MODULE": "config.settings.test"},
        timeout=120,
    )
    assert result.returncode == 1 and result.stdout == ""


def test_a_relative_output_goes_to_the_data_folder_which_git_ignores():
    ns = Namespace.objects.create(key="user:ops", kind="user")
    services.add_memory(actor=None, namespace=ns, content="User likes tea", run_async=False)
    out, _ = run("export_memories", "--output", "backup-i15.jsonl")
    target = settings.MNEMO_DATA_DIR / "exports" / "backup-i15.jsonl"
    try:
        assert str(target) in out and target.exists()
        assert json.loads(target.read_text().splitlines()[0])["text"] == "User likes tea"
        assert not (ROOT / "backup-i15.jsonl").exists()
        # The default data folder's exports are ignored by git.
        ignored = subprocess.run(
            ["git", "check-ignore", "-q", "var/exports/backup.jsonl"], cwd=ROOT, capture_output=True
        )
        assert ignored.returncode == 0
        # And import finds the file by the same name.
        Memory.objects.all().delete()
        out, _ = run("import_memories", "backup-i15.jsonl")
        assert "Imported 1 memory" in out
    finally:
        target.unlink(missing_ok=True)


def test_ensure_admin_failing_prints_one_line_with_what_to_do():
    import os

    env = {"DJANGO_SETTINGS_MODULE": "config.settings.test", "DATABASE_URL": "postgres://x:y@127.0.0.1:9/none"}
    result = subprocess.run(
        [sys.executable, "manage.py", "ensure_admin"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        timeout=120,
    )
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    lines = [line for line in result.stderr.strip().splitlines() if line.strip()]
    assert len(lines) == 1 and "mnemo_doctor" in lines[0], lines
