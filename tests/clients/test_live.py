"""The Python client against a live Mnemo (gunicorn on the test database, started once for the
module): every family of operations end to end, the typed errors the server answers, and the
async client's round trip. One test drives the client in process, through Django's WSGI app."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import uuid
from datetime import UTC, datetime

import httpx2
import pytest
from django.contrib.auth.models import Permission
from mnemo_client import (
    AsyncMnemoClient,
    AuthenticationFailed,
    InvalidInput,
    MnemoClient,
    NotFound,
    PermissionDenied,
    RateLimited,
    SecretRejected,
)

from tests.conftest import CLIENT_ROOT, ROOT
from tests.factories import UserFactory, token_for


@pytest.fixture
def mnemo(mnemo_url, caller):
    with MnemoClient(mnemo_url, caller.token) as client:
        yield client


@pytest.mark.django_db  # (also what makes pytest-django create the test database for this module)
def test_the_client_in_process_through_the_wsgi_app():
    """The same client over Django's WSGI app (no network): a write, a read and a typed error."""
    from django.core import signals
    from django.core.wsgi import get_wsgi_application
    from django.db import close_old_connections

    from tests.factories import UserFactory, token_for

    user = UserFactory()
    transport = httpx2.WSGITransport(app=get_wsgi_application())
    # As Django's test client does: a request must not close the test's connection (its transaction).
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        with MnemoClient("http://testserver", token_for(user), transport=transport) as mnemo:
            stored = mnemo.remember("Ann's favourite tea is jasmine.", tags=["tea"])
            assert stored.stored and stored.memory_id
            assert mnemo.get_memory(stored.memory_id).tags == ["tea"]
            with pytest.raises(NotFound):
                mnemo.get_memory(stored.memory_id + 1000)
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


def test_memory_round_trip(mnemo, caller):
    assert mnemo.whoami().username == caller.user.username
    stored = mnemo.remember(
        "My son Colby lives in Los Angeles.", tags=["family"], capture_mode="explicit", importance=0.8
    )
    assert stored.stored and stored.message == "Ok"
    memory_id = stored.memory_id
    assert memory_id is not None

    hits = mnemo.search("where does Colby live", limit=3)
    assert hits and hits[0].id == memory_id and hits[0].score > 0
    assert hits[0].created_at is not None and hits[0].created_at.tzinfo is not None
    text = mnemo.search_text("where does Colby live", limit=3)
    assert text.startswith("Found the following memories:\n\n1. My son Colby lives in Los Angeles. (score: ")
    assert mnemo.search_text("zebra quantum accordion", mode="keyword") == "No matching memories found"

    memory = mnemo.get_memory(memory_id)
    assert memory.text == "My son Colby lives in Los Angeles." and memory.tags == ["family"]
    assert memory.capture_mode == "explicit" and memory.namespace == f"user:{caller.user.username}"
    updated = mnemo.update_memory(memory_id, tags=["family", "la"], importance=0.9)
    assert updated.tags == ["family", "la"] and updated.importance == 0.9
    assert mnemo.confirm(memory_id).last_confirmed_at is not None

    page = mnemo.list_memories(tag="la")
    assert [m.id for m in page.results] == [memory_id] and page.count == 1
    assert memory.namespace in [ns.key for ns in mnemo.list_namespaces() if ns.can_write]

    corrected = mnemo.correct(memory_id, "My son Colby lives in San Diego.", reason="moved")
    assert corrected.memory.text == "My son Colby lives in San Diego."
    assert corrected.tombstone.kind == "corrected" and corrected.tombstone.replaced_by == corrected.memory.id
    events = [e.event_type for e in mnemo.history(memory_id)]
    assert events[0] == "add" and "update" in events and "confirm" in events and events[-1] == "correct"
    assert mnemo.get_memory(memory_id).forgotten_at is not None  # kept, out of recall
    assert [h.id for h in mnemo.search("where does Colby live")] == [corrected.memory.id]

    tombstone = mnemo.forget(corrected.memory.id, reason="no longer relevant")
    assert tombstone.kind == "forgotten" and tombstone.reason == "no longer relevant"
    assert mnemo.search("Colby", mode="keyword") == []


def test_add_memory_async_then_its_event_until_ready_and_pagination(mnemo):
    added = mnemo.add_memory("User prefers meetings scheduled in the afternoon", metadata={"category": "preferences"})
    assert added.status == "queued"
    assert added.message == f"Memory queued for processing (Event ID: {added.event_id}, Status: queued)"
    event = mnemo.wait_for_event(added.event_id, timeout=60)
    assert event.status == "ready" and event.memory_id == added.id
    assert mnemo.get_memory(added.id).metadata == {"category": "preferences"}
    synchronous = mnemo.add_memory("User's Linear team ID is TEAM-123", async_=False)
    assert synchronous.message == f"Memory stored successfully with ID: {synchronous.id}"

    for i in range(3):
        mnemo.remember(f"Pagination fact number {i}: the office plant is called Fern {i}.", tags=["paging"])
    first = mnemo.list_memories(tag="paging", limit=2)
    assert first.count == 3 and len(first.results) == 2 and first.next
    assert sorted(m.text[-7:] for m in mnemo.iter_memories(tag="paging", limit=2)) == [
        "Fern 0.",
        "Fern 1.",
        "Fern 2.",
    ]
    deleted = mnemo.delete_memory(synchronous.id)
    assert deleted.kind == "deleted"
    with pytest.raises(NotFound):
        mnemo.get_event(str(uuid.uuid4()))


def test_facts_in_time_supersession_and_as_of(mnemo):
    """docs/time-aware.md through the client's named parameters and typed results."""
    paris = mnemo.remember("User lives in Paris.", valid_from=datetime(2021, 3, 1, tzinfo=UTC))
    assert paris.stored and paris.supersedes == []
    memory = mnemo.get_memory(paris.memory_id)
    assert memory.valid_from == datetime(2021, 3, 1, tzinfo=UTC) and memory.valid_until is None

    berlin = mnemo.remember("User moved to Berlin.", supersede="close")
    assert berlin.stored and [type(s).__name__ for s in berlin.supersedes] == ["Supersession"]
    closed = berlin.supersedes[0]
    assert closed.memory_id == paris.memory_id and closed.text == "User lives in Paris." and closed.closed
    assert "Paris" in closed.old_values and "Berlin" in closed.new_values and 0 < closed.similarity <= 1
    assert isinstance(closed.valid_until, datetime) and closed.valid_until.tzinfo is not None
    assert mnemo.get_memory(paris.memory_id).valid_until == closed.valid_until
    assert mnemo.get_memory(berlin.memory_id).valid_from == closed.valid_until  # the closing moment
    assert "superseded" in [e.event_type for e in mnemo.history(paris.memory_id)]

    now = mnemo.search("where does the user live", min_score=0)
    assert [hit.text for hit in now] == ["User moved to Berlin."]
    assert now[0].valid_from == closed.valid_until and now[0].valid_until is None
    then = mnemo.search("where does the user live", min_score=0, as_of="2022-01-01T00:00:00Z")
    assert [hit.text for hit in then] == ["User lives in Paris."]
    assert then[0].valid_until == closed.valid_until
    assert "User lives in Paris." in mnemo.search_text("where does the user live", min_score=0, as_of="2022-01-01")

    # None is JSON null in a PATCH: Paris's validity reopens, and it is found today again.
    assert mnemo.update_memory(paris.memory_id, valid_until=None).valid_until is None
    assert paris.memory_id in [hit.id for hit in mnemo.search("where does the user live", min_score=0)]

    with pytest.raises(InvalidInput) as caught:
        mnemo.remember("User lived in Lisbon.", valid_from="2023-01-01T00:00:00Z", valid_until="2019-01-01T00:00:00Z")
    assert caught.value.code == "INVALID_INPUT" and caught.value.status_code == 400
    with pytest.raises(InvalidInput):
        mnemo.update_memory(paris.memory_id, valid_until=datetime(2020, 1, 1, tzinfo=UTC))  # before valid_from
    assert mnemo.search("Lisbon", mode="keyword") == []  # the failed writes changed nothing
    assert mnemo.get_memory(paris.memory_id).valid_until is None


def test_contacts_and_contact_memory(mnemo):
    contact = mnemo.create_contact("Jane Doe", email="jane@example.com", company="Acme", tags=["customer"])
    assert contact.name == "Jane Doe" and contact.tags == ["customer"]
    assert mnemo.get_contact(contact.id).email == "jane@example.com"
    assert mnemo.update_contact(contact.id, title="CTO").title == "CTO"
    assert contact.id in [c.id for c in mnemo.list_contacts().results]
    assert contact.id in [c.id for c in mnemo.iter_contacts()]

    note = mnemo.add_contact_note(contact.id, "Met at the Berlin conference.")
    assert note.body == "Met at the Berlin conference."
    assert [n.body for n in mnemo.list_contact_notes(contact.id)] == ["Met at the Berlin conference."]
    assert mnemo.list_contact_messages(contact.id) == []

    empty = mnemo.get_contact_memory(contact.id)
    assert empty.has_memory is False and empty.contact_id == contact.id
    saved = mnemo.set_contact_memory(contact.id, "Prefers email; decision maker for renewals.")
    assert saved.has_memory and saved.memory_note == "Prefers email; decision maker for renewals."
    assert mnemo.get_contact_memory(contact.id).memory_note == saved.memory_note

    mnemo.delete_contact(contact.id)
    with pytest.raises(NotFound):
        mnemo.get_contact(contact.id)


def test_tools_session_and_turns(mnemo):
    tools = {tool.name: tool for tool in mnemo.list_tools()}
    assert {"remember", "search_memory", "get_contact_memory"} <= set(tools)
    assert tools["remember"].input_schema["required"] == ["text"] and tools["remember"].tool_class

    invoked = mnemo.invoke_tool("remember", {"text": "The user's dentist is Dr. Park.", "tags": ["health"]})
    assert invoked.ok and invoked.summary
    assert mnemo.search("who is the dentist")[0].text == "The user's dentist is Dr. Park."

    session = mnemo.session(message="dentist", agent_name="helper")
    assert session.session_id and session.system_prompt and session.tools
    resumed = mnemo.session(session_id=session.session_id)
    # Resumed: the same session, its tools frozen at its start.
    assert resumed.session_id == session.session_id and resumed.tools == session.tools

    messages = [
        {"role": "user", "content": "My daughter's school is Lincoln Elementary."},
        {"role": "assistant", "content": "Noted."},
    ]
    calls = [{"name": "send_email", "arguments": {"to": "x"}, "status": "error", "error": "SMTP timeout"}]
    turn = mnemo.post_turn(session.session_id, messages, tool_calls=calls, turn_index=0)
    assert turn.replayed is False and turn.memories["stored"]
    assert turn.statistics == ["send_email"]
    again = mnemo.post_turn(session.session_id, messages, tool_calls=calls, turn_index=0)
    assert again.replayed is True and again.turn == turn.turn
    assert any(s.tool_name == "send_email" and s.failures == 1 for s in mnemo.rule_statistics())


def test_tool_rules(mnemo):
    rule = mnemo.create_rule("send_email", "Always cc the account manager.", priority="high", tags=["email"])
    assert rule.tool_name == "send_email" and rule.priority == "high" and rule.id
    assert mnemo.get_rule(rule.id).rule == "Always cc the account manager."
    assert rule.id in [r.id for r in mnemo.list_rules(tool_name="send_email")]
    changed = mnemo.update_rule(rule.id, rule="Always cc the account manager and the user.")
    assert changed.rule == "Always cc the account manager and the user." and changed.priority == "high"
    prompt = mnemo.rules_prompt(["send_email"])
    assert "Always cc the account manager and the user." in prompt.markdown
    mnemo.delete_rule(rule.id)
    with pytest.raises(NotFound):
        mnemo.get_rule(rule.id)


def test_tokens_and_authentication_failure(mnemo, mnemo_url):
    made = mnemo.create_token("ci agent", rate_limit_per_minute=120)
    assert made.key and made.rate_limit_per_minute == 120
    assert made.id in [t.id for t in mnemo.list_tokens()]
    assert all(t.key is None for t in mnemo.list_tokens())  # keys are shown once
    with MnemoClient(mnemo_url, made.key) as agent:
        assert agent.whoami().username == mnemo.whoami().username
        mnemo.revoke_token(made.id)
        with pytest.raises(AuthenticationFailed) as caught:
            agent.whoami()
    assert caught.value.code == "UNAUTHENTICATED" and caught.value.status_code == 401
    with MnemoClient(mnemo_url, "mnemo_not-a-real-key") as stranger, pytest.raises(AuthenticationFailed):
        stranger.search("anything")


def test_a_rate_limited_token_raises_rate_limited_with_retry_after(mnemo, mnemo_url):
    made = mnemo.create_token("slow agent", rate_limit_per_minute=1)
    with MnemoClient(mnemo_url, made.key, max_retries=0) as agent:
        agent.whoami()
        with pytest.raises(RateLimited) as caught:
            agent.whoami()
    assert caught.value.code == "RATE_LIMITED" and caught.value.status_code == 429
    assert caught.value.retry_after is not None and 0 < caught.value.retry_after <= 60


def test_typed_errors_carry_the_seed_codes(mnemo, mnemo_url, plain_caller):
    with pytest.raises(InvalidInput) as caught:
        mnemo.remember("A fact with a typo in a field name.", dedupe_policy="skip_if_near")
    assert caught.value.code == "INVALID_INPUT" and caught.value.status_code == 400
    assert "dedupe_policy" in caught.value.message and caught.value.details
    with pytest.raises(InvalidInput):
        mnemo.remember("A fact with a bad policy.", dedup_policy="sometimes")
    with pytest.raises(SecretRejected) as secret:
        mnemo.remember("my AWS key is AKIAIOSFODNN7EXAMPLE")
    assert secret.value.code == "SECRET_REJECTED"
    assert mnemo.search("AKIAIOSFODNN7EXAMPLE", mode="keyword") == []  # a failed write changed nothing
    with pytest.raises(NotFound) as missing:
        mnemo.get_memory(987654321)
    assert missing.value.code == "NOT_FOUND" and missing.value.status_code == 404
    with MnemoClient(mnemo_url, plain_caller.token) as plain, pytest.raises(PermissionDenied) as denied:
        plain.create_contact("Somebody")
    assert denied.value.code == "PERMISSION_DENIED" and denied.value.status_code == 403


def test_the_async_client_round_trip(mnemo_url, caller):
    async def scenario() -> None:
        async with AsyncMnemoClient(mnemo_url, caller.token) as mnemo:
            stored = await mnemo.remember("The user's bike is a green Brompton.", tags=["bike"])
            assert stored.stored and stored.memory_id
            added = await mnemo.add_memory("The user cycles to work on Mondays.")
            assert (await mnemo.wait_for_event(added.event_id, timeout=60)).status == "ready"
            results, text = await asyncio.gather(mnemo.search("what bike", limit=2), mnemo.search_text("what bike"))
            assert results[0].id == stored.memory_id and "green Brompton" in text
            assert (await mnemo.update_memory(stored.memory_id, tags=["bike", "green"])).tags == ["bike", "green"]
            mine = f"user:{caller.user.username}"
            seen = [m.id async for m in mnemo.iter_memories(namespace=mine, limit=1)]
            assert sorted(seen) == sorted([stored.memory_id, added.id])
            assert (await mnemo.forget(stored.memory_id, reason="sold it")).kind == "forgotten"
            assert [e.event_type for e in await mnemo.history(stored.memory_id)][-1] == "forget"
            assert (await mnemo.get_memory(stored.memory_id)).forgotten_at is not None
            assert stored.memory_id not in [m.id for m in await mnemo.search("what bike")]
            with pytest.raises(NotFound):
                await mnemo.get_memory(987654321)

    asyncio.run(scenario())


# --- the documentation's samples ------------------------------------------------------------

FENCE = re.compile(r"^```python\n(.*?)^```$", re.S | re.M)
#: The package's README (docs/client.md's samples are run by tests/docs/test_doc_samples.py, with
#: the rest of the site's).
DOC_PAGES = [ROOT / "clients" / "python" / "README.md"]


@pytest.mark.parametrize("page", DOC_PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_python_sample_of_the_client_docs_runs(mnemo_url, committed, page, tmp_path):
    # What the docs' reader is: a user with make run's demo permissions, not a superuser.
    user = UserFactory()
    user.user_permissions.add(*Permission.objects.filter(codename__in=["add_contact", "view_contactnote"]))
    env = {**os.environ, "MNEMO_URL": mnemo_url, "MNEMO_TOKEN": token_for(user, name="docs")}
    env["PYTHONPATH"] = os.pathsep.join([str(CLIENT_ROOT), env.get("PYTHONPATH", "")])  # this tree's client
    samples = FENCE.findall(page.read_text())
    assert samples, f"{page} has no python sample"
    for number, code in enumerate(samples, 1):
        script = tmp_path / f"sample_{number}.py"
        script.write_text(code)
        result = subprocess.run(
            [sys.executable, str(script)], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120
        )
        assert result.returncode == 0, f"{page.name} sample {number} failed:\n{code}\n{result.stderr[-3000:]}"
