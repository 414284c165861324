"""mem0ai's real ``MemoryClient`` (2.2.1) against a live Mnemo: the Mem0 entrance
(memories/api/mem0_compat.py) answers every call it makes for add (sync and async), search, get,
get_all, update, delete and history, under Mnemo's contracts, permissions and secret scanner."""

from __future__ import annotations

import asyncio
import os
import re
import tempfile

import pytest

# Before mem0 is imported: no telemetry, and its config folder out of the home directory.
os.environ["MEM0_TELEMETRY"] = "False"
os.environ.setdefault("MEM0_DIR", tempfile.mkdtemp(prefix="mem0-test-"))

from mem0 import AsyncMemoryClient, MemoryClient  # noqa: E402
from mem0.exceptions import AuthenticationError, MemoryNotFoundError, ValidationError  # noqa: E402

from tests.api import test_schemathesis  # noqa: E402
from tests.conftest import ROOT, wait_for  # noqa: E402
from tests.factories import UserFactory, grant, token_for  # noqa: E402

pytestmark = pytest.mark.timeout(300)

#: gunicorn serving Mnemo on a free port, on the test's committed database (the schemathesis run's).
live_mnemo = test_schemathesis.live_mnemo

SECRET = "my github token is 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"


def _code(exc: Exception) -> str:
    """Mnemo's error code, which MemoryClient keeps in the exception's details (the whole body)."""
    return exc.details["error"]["code"]


def test_memory_client_round_trip(live_mnemo, monkeypatch):
    base, _ = live_mnemo
    alice = UserFactory(username="alice")
    client = MemoryClient(api_key=token_for(alice), host=base)

    # add, synchronous: the user's message is stored as it was said, embedded before the answer.
    added = client.add(
        "I keep bees on the roof of my house in Porto.",
        user_id="alice",
        run_id="run-1",
        metadata={"topic": "hobby"},
        async_mode=False,
    )
    [bees] = added["results"]
    assert bees["event"] == "ADD" and bees["status"] == "SUCCEEDED"
    assert bees["memory"] == "I keep bees on the roof of my house in Porto."

    # add, asynchronous (Mem0's default): queued, then ready. With infer (the default) only the
    # user's messages are stored; with infer=False every message but system ones.
    queued = client.add(
        [
            {"role": "user", "content": "My daughter Ana plays the cello every Sunday."},
            {"role": "assistant", "content": "That sounds lovely."},
        ],
        filters={"user_id": "alice"},
    )
    [cello] = queued["results"]
    assert cello["status"] in ("PENDING", "SUCCEEDED")
    wait_for(lambda: client.get(cello["id"])["status"] == "SUCCEEDED", 60, "the queued memory to be embedded")
    raw = client.add(
        [
            {"role": "system", "content": "You are a helpful assistant."},
            {"role": "user", "content": "I am allergic to peanuts."},
            {"role": "assistant", "content": "Noted: no peanuts."},
        ],
        user_id="alice",
        infer=False,
        async_mode=False,
    )
    assert [r["memory"] for r in raw["results"]] == ["I am allergic to peanuts.", "Noted: no peanuts."]

    # get: Mem0's shape, the ids back in their places.
    got = client.get(bees["id"])
    assert got["id"] == bees["id"] and got["memory"] == bees["memory"]
    assert got["user_id"] == "alice" and got["run_id"] == "run-1"
    assert got["metadata"]["topic"] == "hobby" and got["created_at"] and got["updated_at"]

    # search: best first, with Mem0's fields; run_id narrows it.
    found = client.search("Where does she keep bees?", filters={"user_id": "alice"}, top_k=3)
    first = found["results"][0]
    assert first["id"] == bees["id"]
    assert {"id", "memory", "score", "metadata", "created_at", "updated_at", "user_id"} <= set(first)
    assert 0 <= first["score"] <= 1
    narrowed = client.search("bees on the roof", filters={"AND": [{"user_id": "alice"}, {"run_id": "run-1"}]})
    assert [r["id"] for r in narrowed["results"]] == [bees["id"]]
    assert client.search("bees on the roof", filters={"user_id": "alice", "run_id": "run-2"})["results"] == []

    # get_all: paginated, newest first.
    everything = client.get_all(filters={"user_id": "alice"})
    assert everything["count"] == 4 and len(everything["results"]) == 4
    page = client.get_all(filters={"user_id": "alice"}, page=1, page_size=3)
    assert len(page["results"]) == 3 and page["next"] and page["previous"] is None
    assert [r["id"] for r in page["results"]] == [r["id"] for r in everything["results"]][:3]

    # update, history, delete.
    updated = client.update(bees["id"], text="I keep bees on the roof of my house in Lisbon.")
    assert updated["memory"].endswith("Lisbon.")
    wait_for(lambda: client.get(bees["id"])["status"] == "SUCCEEDED", 60, "the new text to be embedded")
    history = client.history(bees["id"])
    assert [h["event"] for h in history] == ["ADD", "UPDATE"]
    assert history[1]["old_memory"].endswith("Porto.") and history[1]["new_memory"].endswith("Lisbon.")
    assert client.delete(bees["id"]) == {"message": "Memory deleted successfully!"}
    with pytest.raises(MemoryNotFoundError):
        client.get(bees["id"])
    assert [h["event"] for h in client.history(bees["id"])] == ["ADD", "UPDATE", "DELETE"]
    assert client.get_all(filters={"user_id": "alice"})["count"] == 3

    # AsyncMemoryClient calls the same routes.
    key = token_for(alice)

    async def async_calls() -> tuple[dict, dict]:
        aclient = AsyncMemoryClient(api_key=key, host=base)
        added = await aclient.add("Alice's bike is a green Brompton.", user_id="alice", async_mode=False)
        found = await aclient.search("What bike does she ride?", filters={"user_id": "alice"})
        return added, found

    added, found = asyncio.run(async_calls())
    assert found["results"][0]["id"] == added["results"][0]["id"]

    # docs/mem0.md's python samples, on the same server (one start less for the suite).
    _run_the_docs_python_samples(base, monkeypatch)


def _run_the_docs_python_samples(base: str, monkeypatch) -> None:
    """docs/mem0.md's ``python`` blocks, as written, against the live server (MNEMO_URL, MNEMO_TOKEN)."""
    reader = UserFactory(username="docs-reader")
    monkeypatch.setenv("MNEMO_URL", base)
    monkeypatch.setenv("MNEMO_TOKEN", token_for(reader))
    text = (ROOT / "docs" / "mem0.md").read_text()
    samples = re.findall(r"^```python\n(.*?)^```", text, flags=re.S | re.M)
    assert samples, "docs/mem0.md has no python sample"
    for sample in samples:
        exec(compile(sample, "docs/mem0.md", "exec"), {})  # noqa: S102 (our own documentation)
    # The sample's memory went through Mnemo and was deleted at its end.
    from memories.models import MemoryEvent

    assert list(
        MemoryEvent.objects.filter(memory__namespace__key="user:docs-reader").values_list("event_type", flat=True)
    ) == ["add", "update", "forget"]


def test_memory_client_errors_carry_mnemo_codes(live_mnemo):
    base, _ = live_mnemo
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    client = MemoryClient(api_key=token_for(alice), host=base)
    mine = client.add("Alice keeps her spare key under the blue pot.", user_id="alice", async_mode=False)
    memory_id = mine["results"][0]["id"]

    # A secret is refused by the one scanner, nothing stored.
    with pytest.raises(ValidationError) as refused:
        client.add(SECRET, user_id="alice", async_mode=False)
    assert _code(refused.value) == "SECRET_REJECTED" and "SECRET_REJECTED" in refused.value.message
    # One refused message of several: none of them is stored.
    with pytest.raises(ValidationError):
        client.add(
            [{"role": "user", "content": "A harmless fact."}, {"role": "user", "content": SECRET}],
            user_id="alice",
            async_mode=False,
        )
    assert client.get_all(filters={"user_id": "alice"})["count"] == 1

    # Unknown and invalid fields: INVALID_INPUT from the contract.
    for call in (
        lambda: client.add("A fact.", user_id="alice", custom_categories=[{"x": "y"}]),
        lambda: client.add("A fact.", user_id="alice", infer="yes"),
        lambda: client.search("key", filters={"user_id": "alice"}, top_k=0),
        lambda: client.search("key", filters={"user_id": "alice"}, threshold=2),
        lambda: client.search("key", filters={"user_id": "alice", "OR": [{"x": 1}]}),
        lambda: client.search("key", filters={"user_id": "alice", "namespace": "user:alice"}),
        lambda: client.update(memory_id, text="New text.", timestamp=1700000000),
        lambda: client.get_all(filters={"user_id": "alice"}, page_size=0),
    ):
        with pytest.raises(ValidationError) as invalid:
            call()
        assert _code(invalid.value) == "INVALID_INPUT", invalid.value.details

    # Someone else's memory does not exist for bob; nor does alice's namespace.
    other = MemoryClient(api_key=token_for(bob), host=base)
    for call in (
        lambda: other.get(memory_id),
        lambda: other.history(memory_id),
        lambda: other.update(memory_id, text="Bob was here."),
        lambda: other.delete(memory_id),
        lambda: other.search("spare key", filters={"user_id": "alice"}),
        lambda: other.get_all(filters={"user_id": "alice"}),
        lambda: other.add("Bob writes into Alice's memories.", user_id="alice"),
    ):
        with pytest.raises(MemoryNotFoundError) as hidden:
            call()
        assert _code(hidden.value) == "NOT_FOUND"
    assert other.get_all()["count"] == 0  # his own namespace: empty, and nothing of alice's
    assert client.get(memory_id)["memory"] == "Alice keeps her spare key under the blue pot."

    # Read but not write: PERMISSION_DENIED, which MemoryClient raises as AuthenticationError (403).
    from memories.models import Namespace

    grant(bob, "view_namespace", obj=Namespace.objects.get(key="user:alice"))
    assert other.get(memory_id)["id"] == memory_id
    for call in (
        lambda: other.update(memory_id, text="Bob was here."),
        lambda: other.add("Bob writes into Alice's memories.", user_id="alice", async_mode=False),
    ):
        with pytest.raises(AuthenticationError) as denied:
            call()
        assert _code(denied.value) == "PERMISSION_DENIED"

    # A key Mnemo does not know: MemoryClient refuses to start.
    with pytest.raises(ValueError, match="UNAUTHENTICATED"):
        MemoryClient(api_key="not-a-mnemo-token", host=base)


def test_the_mem0_routes_stay_out_of_the_openapi_schema(db):
    """They answer Mem0's shapes, not Mnemo's (memories/api/mem0_compat.py says why): the
    schemathesis run covers /api/ only, and the permission harness covers these."""
    from drf_spectacular.generators import SchemaGenerator

    paths = SchemaGenerator().get_schema(request=None, public=True)["paths"]
    assert "/api/v1/memories/search" in paths
    assert not [path for path in paths if path.startswith(("/v1/", "/v3/"))]
