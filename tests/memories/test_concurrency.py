"""Two writes of one memory at the same moment: one consistent outcome, and a history that tells it.

Each pair of writes (PATCH, DELETE, forget, correct, confirm, merge, restore) runs from two threads
that start together (a barrier), each on its own database connection, against the real
PostgreSQL, many rounds. Whatever the order the database chose, every round must end in a state
that some serial order of the successful calls explains: the refused call answers INVALID_INPUT,
a deleted memory is never live again, a memory has at most one live correction, no field change is
lost, and the history replays, event by event in id order, to exactly the stored row.

Before the writes locked the row (issue 24, finding 2), a PATCH racing a DELETE left the memory live
with its "deleted" tombstone in about half the rounds; these tests failed within a few rounds.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.db import connection
from rest_framework.test import APIClient

from core.errors import MnemoError
from memories import services
from memories.models import Memory, MemoryEvent, Namespace, Tombstone
from memories.permissions import ensure_user_namespace
from tests.factories import MemoryEventFactory, MemoryFactory, token_for

pytestmark = pytest.mark.django_db(transaction=True)

#: Rounds per pair. The old code failed PATCH vs DELETE in about half the rounds; 10 rounds keep the
#: whole file well under a minute on a loaded machine.
ROUNDS = 10


@dataclass
class Outcome:
    """What one call answered: the HTTP status (services: 200, or the error's status) and the
    error code of a refusal."""

    status: int
    code: str | None = None
    body: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.status < 300


@dataclass
class World:
    user: Any
    namespace: Namespace
    token: str

    def client(self) -> APIClient:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {self.token}")
        return client


@pytest.fixture
def world(user) -> World:
    return World(user=user, namespace=ensure_user_namespace(user), token=token_for(user))


def together(*calls: Callable[[], Outcome]) -> list[Outcome]:
    """Run the calls at once, each in a thread of its own with its own connection."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(index: int, call: Callable[[], Outcome]) -> None:
        try:
            barrier.wait(timeout=60)
            results[index] = call()
        except BaseException as exc:  # reported below, with the round
            results[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not any(thread.is_alive() for thread in threads), "a call hung (a deadlock?)"
    for result in results:
        if isinstance(result, BaseException):
            raise AssertionError(f"a call crashed: {result!r}") from result
    # A refusal is the seed's envelope with INVALID_INPUT: never a 500, never a database error.
    for result in results:
        assert result.ok or (result.status, result.code) == (400, "INVALID_INPUT"), result
    return results


def rest(world: World, method: str, path: str, body: dict[str, Any] | None = None) -> Callable[[], Outcome]:
    def call() -> Outcome:
        response = getattr(world.client(), method)(f"/api/v1/memories/{path}", body, format="json")
        data = response.json()
        return Outcome(response.status_code, (data.get("error") or {}).get("code"), data)

    return call


def service(function: Callable[[], Any]) -> Callable[[], Outcome]:
    """A service called the way the admin calls it (with objects read before the call)."""

    def call() -> Outcome:
        try:
            function()
        except MnemoError as exc:
            return Outcome(exc.http_status, exc.code)
        return Outcome(200)

    return call


def new_memory(world: World, text: str, **extra: Any) -> int:
    """A live memory and its "add" event, written directly: what is tested is the writes after it,
    and skipping the embedding keeps the rounds quick."""
    memory = MemoryFactory(
        namespace=world.namespace, text=text, status=Memory.Status.READY, created_by=world.user, **extra
    )
    MemoryEventFactory(memory=memory, new_text=text, actor=world.user)
    return memory.pk


# --- the history, replayed ---------------------------------------------------------------------------


def events(memory_id: int) -> list[MemoryEvent]:
    return list(MemoryEvent.objects.filter(memory_id=memory_id).order_by("id"))


def kinds(memory_id: int) -> list[str]:
    """The event types in order; a merge is "merge-keep" on the kept memory, "merge-drop" on the other."""
    out = []
    for event in events(memory_id):
        if event.event_type == MemoryEvent.Type.MERGE:
            out.append("merge-drop" if event.data.get("kind") == Tombstone.Kind.MERGED else "merge-keep")
        else:
            out.append(event.event_type)
    return out


def replay(memory_id: int) -> Memory:
    """Replay the memory's history and check it against the stored row and its tombstones.

    Every event must be possible in the state the earlier ones left (nothing changes a forgotten
    memory; only a restore brings it back), and the end state must be the row's: live or not, its
    text and tags, and, if forgotten, one tombstone of the kind and text the last forgetting event
    recorded.
    """
    memory = Memory.objects.get(pk=memory_id)
    history = events(memory_id)
    story = kinds(memory_id)
    assert story and story[0] == "add", story
    live, text, tags, last_forget = True, history[0].new_text, None, None
    for event, kind in zip(history[1:], story[1:], strict=True):
        if kind in ("update", "confirm", "merge-keep"):
            assert live, f"{kind} of a forgotten memory: {story}"
            if kind == "update" and event.new_text:
                text = event.new_text
            if "tags" in event.data.get("changes", {}):
                tags = event.data["changes"]["tags"]["new"]
        elif kind in ("forget", "correct", "merge-drop"):
            assert live, f"{kind} of a forgotten memory: {story}"
            assert event.old_text == text, f"{kind} recorded {event.old_text!r}, the memory said {text!r}"
            live, last_forget = False, event
        elif kind == "restore":
            assert not live, f"restore of a live memory: {story}"
            live, last_forget = True, None
        else:
            raise AssertionError(f"unexpected event {kind}: {story}")
    assert (memory.forgotten_at is None) == live, f"row forgotten_at={memory.forgotten_at}, history {story}"
    assert memory.text == text, (memory.text, text, story)
    if tags is not None:
        assert memory.tags == tags, (memory.tags, tags, story)
    tombstones = list(Tombstone.objects.filter(memory_id=memory_id))
    if live:
        assert tombstones == [], f"a live memory with a tombstone {[t.kind for t in tombstones]}: {story}"
    else:
        assert len(tombstones) == 1, f"{len(tombstones)} tombstones: {story}"
        assert last_forget is not None
        assert tombstones[0].kind == last_forget.data["kind"] and tombstones[0].text == text
    return memory


def corrections_of(memory_id: int) -> list[Memory]:
    ids = MemoryEvent.objects.filter(event_type=MemoryEvent.Type.ADD, data__corrects=memory_id).values_list(
        "memory_id", flat=True
    )
    return list(Memory.objects.filter(id__in=list(ids)))


def one_of(outcomes: list[Outcome]) -> int:
    """Exactly one call succeeded: its index."""
    winners = [i for i, o in enumerate(outcomes) if o.ok]
    assert len(winners) == 1, outcomes
    return winners[0]


# --- the pairs -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("delete", ["delete", "forget"])
def test_patch_against_delete_or_forget_never_brings_the_memory_back(world, delete):
    for i in range(ROUNDS):
        memory_id = new_memory(world, f"Round {i}: the user drinks green tea")
        removal = (
            rest(world, "delete", f"{memory_id}")
            if delete == "delete"
            else rest(world, "post", f"{memory_id}/forget", {"reason": "wrong"})
        )
        revised = f"Round {i}: the user drinks black tea"
        patch, removed = together(
            rest(world, "patch", f"{memory_id}", {"text": revised, "tags": ["tea"]}),
            removal,
        )
        assert removed.ok, removed
        memory = replay(memory_id)
        assert memory.forgotten_at is not None
        expected = ["add", "update", "forget"] if patch.ok else ["add", "forget"]
        assert kinds(memory_id) == expected, (patch, kinds(memory_id))
        tombstone = Tombstone.objects.get(memory_id=memory_id)
        assert tombstone.kind == ("deleted" if delete == "delete" else "forgotten")
        assert tombstone.text == (revised if patch.ok else f"Round {i}: the user drinks green tea")


def test_two_patches_of_different_fields_both_stay(world):
    for i in range(ROUNDS):
        memory_id = new_memory(world, f"Round {i}: the user likes hiking", tags=["outdoors"], importance=0.5)
        first, second = together(
            rest(world, "patch", f"{memory_id}", {"tags": ["outdoors", "hiking"]}),
            rest(world, "patch", f"{memory_id}", {"importance": 0.9, "source_provider": "chat"}),
        )
        assert first.ok and second.ok, (first, second)
        memory = replay(memory_id)
        assert (memory.tags, memory.importance, memory.source_provider) == (["hiking", "outdoors"], 0.9, "chat")
        assert kinds(memory_id) == ["add", "update", "update"]


def test_patch_against_correct_copies_what_the_patch_left(world):
    for i in range(ROUNDS):
        memory_id = new_memory(world, f"Round {i}: the user's manager is John", tags=["work"])
        patch, correct = together(
            rest(world, "patch", f"{memory_id}", {"tags": ["work", "people"]}),
            rest(world, "post", f"{memory_id}/correct", {"text": f"Round {i}: the user's manager is Jane"}),
        )
        assert correct.ok, correct
        replay(memory_id)
        [replacement] = corrections_of(memory_id)
        assert replacement.forgotten_at is None
        expected = ["add", "update", "correct"] if patch.ok else ["add", "correct"]
        assert kinds(memory_id) == expected, (patch, kinds(memory_id))
        # The correction carries over the tags the old memory had when it was corrected.
        assert replacement.tags == (["people", "work"] if patch.ok else ["work"])


def test_two_corrections_leave_one_live_correction(world):
    for i in range(ROUNDS):
        memory_id = new_memory(world, f"Round {i}: the user lives in Portland")
        outcomes = together(
            rest(world, "post", f"{memory_id}/correct", {"text": f"Round {i}: the user lives in Seattle"}),
            rest(world, "post", f"{memory_id}/correct", {"text": f"Round {i}: the user lives in Denver"}),
        )
        winner = one_of(outcomes)
        memory = replay(memory_id)
        assert memory.forgotten_at is not None and kinds(memory_id) == ["add", "correct"]
        [replacement] = corrections_of(memory_id)
        assert replacement.forgotten_at is None
        assert replacement.id == outcomes[winner].body["memory"]["id"]
        assert Tombstone.objects.get(memory_id=memory_id).replaced_by_id == replacement.id


def test_correct_against_delete_one_wins(world):
    for i in range(ROUNDS):
        memory_id = new_memory(world, f"Round {i}: the user's dentist is Dr Hale")
        outcomes = together(
            rest(world, "post", f"{memory_id}/correct", {"text": f"Round {i}: the user's dentist is Dr Moss"}),
            rest(world, "delete", f"{memory_id}"),
        )
        winner = one_of(outcomes)
        replay(memory_id)
        replacements = corrections_of(memory_id)
        if winner == 0:
            assert kinds(memory_id) == ["add", "correct"] and len(replacements) == 1
            assert replacements[0].forgotten_at is None
        else:
            assert kinds(memory_id) == ["add", "forget"] and replacements == []
            assert Tombstone.objects.get(memory_id=memory_id).kind == "deleted"


def test_confirm_against_forget(world):
    for i in range(ROUNDS):
        memory_id = new_memory(world, f"Round {i}: the user still works at Acme")
        confirm, forget = together(
            rest(world, "post", f"{memory_id}/confirm"),
            rest(world, "post", f"{memory_id}/forget", {"reason": "left Acme"}),
        )
        assert forget.ok, forget
        memory = replay(memory_id)
        assert memory.forgotten_at is not None
        assert kinds(memory_id) == (["add", "confirm", "forget"] if confirm.ok else ["add", "forget"])


@pytest.mark.parametrize("target", ["drop", "keep"])
def test_merge_against_delete(world, target):
    for i in range(ROUNDS):
        keep_id = new_memory(world, f"Round {i}: the user prefers tea", tags=["drinks"])
        drop_id = new_memory(world, f"Round {i}: the user likes tea", tags=["tea"], importance=0.8)
        keep, drop = Memory.objects.get(pk=keep_id), Memory.objects.get(pk=drop_id)
        deleted = keep_id if target == "keep" else drop_id
        merge, delete = together(
            service(lambda keep=keep, drop=drop: services.merge_memories(actor=world.user, keep=keep, drop=drop)),
            rest(world, "delete", f"{deleted}"),
        )
        kept, dropped = replay(keep_id), replay(drop_id)
        if target == "drop":
            winner = one_of([merge, delete])
            assert dropped.forgotten_at is not None and kept.forgotten_at is None
            tombstone = Tombstone.objects.get(memory_id=drop_id)
            assert tombstone.kind == ("merged" if winner == 0 else "deleted")
            assert kinds(keep_id) == (["add", "merge-keep"] if winner == 0 else ["add"])
            assert kept.tags == (["drinks", "tea"] if winner == 0 else ["drinks"])
        else:
            assert delete.ok, delete  # deleting the kept memory always works: before or after the merge
            assert kept.forgotten_at is not None
            if merge.ok:
                assert kinds(keep_id) == ["add", "merge-keep", "forget"] and kinds(drop_id) == ["add", "merge-drop"]
                assert Tombstone.objects.get(memory_id=drop_id).replaced_by_id == keep_id
            else:
                assert kinds(keep_id) == ["add", "forget"] and kinds(drop_id) == ["add"]
                assert dropped.forgotten_at is None


def test_two_merges_of_one_pair_in_opposite_directions(world):
    """Each merge locks both rows: in id order, or the two would wait for each other (deadlock)."""
    for i in range(ROUNDS):
        a_id = new_memory(world, f"Round {i}: the user's cat is called Miso")
        b_id = new_memory(world, f"Round {i}: the user has a cat named Miso")
        a, b = Memory.objects.get(pk=a_id), Memory.objects.get(pk=b_id)
        outcomes = together(
            service(lambda a=a, b=b: services.merge_memories(actor=world.user, keep=a, drop=b)),
            service(lambda a=a, b=b: services.merge_memories(actor=world.user, keep=b, drop=a)),
        )
        winner = one_of(outcomes)
        first, second = replay(a_id), replay(b_id)
        kept, dropped = (first, second) if winner == 0 else (second, first)
        assert kept.forgotten_at is None and dropped.forgotten_at is not None
        assert kinds(kept.id) == ["add", "merge-keep"] and kinds(dropped.id) == ["add", "merge-drop"]


def test_restore_against_delete(world):
    for i in range(ROUNDS):
        memory_id = new_memory(world, f"Round {i}: the user is vegetarian")
        tombstone = services.forget_memory(actor=world.user, memory=Memory.objects.get(pk=memory_id), reason="test")
        restore, delete = together(
            service(lambda tombstone=tombstone: services.restore_memory(actor=world.user, tombstone=tombstone)),
            rest(world, "delete", f"{memory_id}"),
        )
        assert restore.ok, restore
        memory = replay(memory_id)
        if delete.ok:  # after the restore
            assert kinds(memory_id) == ["add", "forget", "restore", "forget"]
            assert memory.forgotten_at is not None and Tombstone.objects.get(memory_id=memory_id).kind == "deleted"
        else:  # before it: the memory was forgotten still
            assert kinds(memory_id) == ["add", "forget", "restore"] and memory.forgotten_at is None


def test_two_restores_restore_once(world):
    for i in range(ROUNDS):
        memory_id = new_memory(world, f"Round {i}: the user runs on Sundays")
        tombstone = services.forget_memory(actor=world.user, memory=Memory.objects.get(pk=memory_id), reason="test")
        outcomes = together(
            service(lambda tombstone=tombstone: services.restore_memory(actor=world.user, tombstone=tombstone)),
            service(lambda tombstone=tombstone: services.restore_memory(actor=world.user, tombstone=tombstone)),
        )
        one_of(outcomes)
        memory = replay(memory_id)
        assert memory.forgotten_at is None and kinds(memory_id) == ["add", "forget", "restore"]
