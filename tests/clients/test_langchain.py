"""The LangChain tools of ``mnemo_client.langchain``, with the real ``langchain-core``, against a
live Mnemo (``mnemo_url``: gunicorn on the test database, tests/clients/conftest.py).

The tools are called as an agent calls them: ``invoke`` with a ToolCall and a RunnableConfig
whose ``metadata.user_id`` names the user (seed 002), answering a ToolMessage; and ``ainvoke``
on the async client. What they wrote is then read back through the client.
"""

from __future__ import annotations

import asyncio
import json
import re
import uuid

import pytest

from tests.conftest import require_module

require_module("langchain_core", "the [langchain] extra (langchain-core) is not installed")

from langchain_core.messages import ToolMessage  # noqa: E402
from mnemo_client import AsyncMnemoClient, MnemoClient  # noqa: E402
from mnemo_client.langchain import MISSING_USER, mnemo_tools, namespace_for_user  # noqa: E402

from tests.factories import UserFactory, token_for  # noqa: E402

QUEUED = re.compile(
    r"^Memory queued for processing \(Event ID: (?P<event>[0-9a-f-]{36}), Status: queued\)$",
)
FOUND = re.compile(r"^Found the following memories:\n\n(?:\d+\. .+ \(score: \d\.\d\d\)\n\n)+$", re.S)


def _user(committed):
    user = UserFactory()
    return user, token_for(user, name="langchain")


@pytest.fixture
def alice(committed, mnemo_url):
    user, token = _user(committed)
    with MnemoClient(mnemo_url, token) as client:
        yield user, client


def _call(tool, args: dict, *, user_id: str | None) -> ToolMessage:
    """Invoke ``tool`` with a ToolCall, as LangGraph's ToolNode does, and the seed's config."""
    config = {"metadata": {"user_id": user_id}} if user_id else {}
    call = {"type": "tool_call", "id": f"call-{uuid.uuid4().hex[:8]}", "name": tool.name, "args": args}
    message = tool.invoke(call, config=config)
    assert isinstance(message, ToolMessage)
    return message


def _tools(client, **kwargs):
    return {tool.name: tool for tool in mnemo_tools(client, **kwargs)}


def test_the_config_is_injected_not_in_the_schema_the_model_sees(alice):
    _, client = alice
    tools = _tools(client, contacts=True)
    assert list(tools) == ["add_memory", "search_memory", "remember", "get_contact_memory"]
    schemas = {name: tool.tool_call_schema.model_json_schema() for name, tool in tools.items()}
    assert set(schemas["add_memory"]["properties"]) == {"content", "metadata"}
    assert schemas["add_memory"]["required"] == ["content"]
    assert set(schemas["search_memory"]["properties"]) == {"query", "limit"}
    assert schemas["search_memory"]["properties"]["limit"]["default"] == 5
    assert set(schemas["get_contact_memory"]["properties"]) == {"contact_id"}
    assert set(schemas["remember"]["properties"]) == {
        "text",
        "tags",
        "source_provider",
        "importance",
        "capture_mode",
        "session_id",
        "dedup_policy",
        "expires_at",
        "last_confirmed_at",
    }
    for schema in schemas.values():
        assert "config" not in schema["properties"]


def test_add_memory_queues_in_the_users_namespace_and_search_finds_it(alice):
    user, client = alice
    tools = _tools(client, contacts=False)
    added = _call(
        tools["add_memory"],
        {"content": "User prefers meetings scheduled in the afternoon", "metadata": {"category": "preferences"}},
        user_id=f"user:{user.username}",
    )
    assert added.status == "success"
    match = QUEUED.match(added.content)
    assert match, added.content
    event = client.wait_for_event(match["event"])
    assert event.status == "ready"
    memory = client.get_memory(event.memory_id)
    assert memory.namespace == f"user:{user.username}"
    assert memory.text == "User prefers meetings scheduled in the afternoon"
    assert memory.metadata == {"category": "preferences"}

    found = _call(
        tools["search_memory"], {"query": "when does the user like meetings", "limit": 3}, user_id=user.username
    )
    assert found.status == "success"
    assert FOUND.match(found.content), found.content
    assert found.content.startswith(
        "Found the following memories:\n\n1. User prefers meetings scheduled in the afternoon"
    )


def test_add_memory_in_sync_mode_answers_the_stored_id(alice):
    user, client = alice
    tools = _tools(client, contacts=False, async_mode=False)
    added = _call(tools["add_memory"], {"content": "User's Linear team ID is TEAM-123"}, user_id=user.username)
    match = re.fullmatch(r"Memory stored successfully with ID: (\d+)", added.content)
    assert match, added.content
    assert client.get_memory(int(match[1])).text == "User's Linear team ID is TEAM-123"


def test_without_a_user_id_the_tools_answer_the_seeds_error_and_store_nothing(alice):
    _, client = alice
    tools = _tools(client, contacts=False)
    assert _call(tools["add_memory"], {"content": "User likes tea"}, user_id=None).content == MISSING_USER
    assert _call(tools["search_memory"], {"query": "tea"}, user_id=None).content == MISSING_USER
    assert client.list_memories().count == 0


def test_an_empty_namespace_answers_no_matching_memories(alice):
    user, client = alice
    found = _call(_tools(client, contacts=False)["search_memory"], {"query": "dark mode"}, user_id=user.username)
    assert (found.status, found.content) == ("success", "No matching memories found")


def test_another_users_namespace_is_not_found_and_nothing_of_it_is_shown(alice, mnemo_url, committed):
    user, client = alice
    bob, bob_token = _user(committed)
    with MnemoClient(mnemo_url, bob_token) as bob_client:
        bob_client.remember("Bob's locker code is in the blue notebook", dedup_policy="insert")
    tools = _tools(client, contacts=False)
    found = _call(tools["search_memory"], {"query": "locker code notebook"}, user_id=f"user:{bob.username}")
    assert found.status == "error"
    assert found.content.startswith("NOT_FOUND")
    assert "notebook" not in found.content
    added = _call(tools["add_memory"], {"content": "planted"}, user_id=bob.username)
    assert added.status == "error" and added.content.startswith("NOT_FOUND")
    with MnemoClient(mnemo_url, bob_token) as bob_client:
        assert [m.text for m in bob_client.list_memories().results] == ["Bob's locker code is in the blue notebook"]


def test_remember_takes_seed_003s_inputs_and_answers_its_output(alice):
    user, client = alice
    tools = _tools(client, contacts=False)
    message = _call(
        tools["remember"],
        {
            "text": "My son Colby lives in Los Angeles.",
            "tags": ["Family", "Los_Angeles  Trip"],
            "capture_mode": "explicit",
        },
        user_id=user.username,
    )
    assert message.status == "success"
    body = json.loads(message.content)
    assert body["ok"] is True and body["message"] == "Ok" and isinstance(body["memory_id"], int)
    memory = client.get_memory(body["memory_id"])
    assert memory.tags == ["family", "los-angeles-trip"]
    assert memory.capture_mode == "explicit"
    assert memory.namespace == f"user:{user.username}"

    again = json.loads(
        _call(
            tools["remember"],
            {"text": "My son Colby lives in Los Angeles.", "dedup_policy": "skip_if_near"},
            user_id=user.username,
        ).content
    )
    assert (again["memory_id"], again["message"]) == (body["memory_id"], "Already remembered")

    secret = _call(tools["remember"], {"text": "my key is AKIAIOSFODNN7EXAMPLE"}, user_id=user.username)
    assert secret.status == "error" and secret.content.startswith("SECRET_REJECTED")
    assert client.list_memories().count == 1


def test_get_contact_memory_answers_seed_000s_output_and_is_registered_only_with_permission(committed, mnemo_url):
    staff = UserFactory(is_staff=True, is_superuser=True)
    with MnemoClient(mnemo_url, token_for(staff, name="langchain")) as client:
        contact = client.create_contact(name="Jane Doe")
        client.set_contact_memory(contact.id, "Prefers texts over calls.")
        tools = _tools(client)  # contacts=None: asks Mnemo which tools this token has
        assert "get_contact_memory" in tools
        message = _call(tools["get_contact_memory"], {"contact_id": contact.id}, user_id=None)
        body = json.loads(message.content)
        assert body["contact_id"] == contact.id
        assert body["deep_link"] == f"/contacts/{contact.id}"
        assert body["has_memory"] is True
        assert body["memory_note"] == "Prefers texts over calls."
        assert set(body) == {"contact_id", "deep_link", "has_memory", "note_id", "memory_note", "updated_at"}
        missing = _call(tools["get_contact_memory"], {"contact_id": str(uuid.uuid4())}, user_id=None)
        assert missing.status == "error" and missing.content.startswith("NOT_FOUND")
    plain = UserFactory()
    with MnemoClient(mnemo_url, token_for(plain, name="langchain")) as client:
        assert "get_contact_memory" not in _tools(client)


def test_the_async_tools_do_the_same_on_the_async_client(committed, mnemo_url):
    user, token = _user(committed)

    async def run() -> tuple[str, str, str]:
        async with AsyncMnemoClient(mnemo_url, token) as aclient:
            tools = {tool.name: tool for tool in mnemo_tools(async_client=aclient, contacts=False)}
            config = {"metadata": {"user_id": f"user:{user.username}"}}
            added = await tools["add_memory"].ainvoke({"content": "User prefers dark mode in every editor"}, config)
            event = QUEUED.match(added)["event"]
            await aclient.wait_for_event(event)
            found = await tools["search_memory"].ainvoke({"query": "editor theme preference"}, config)
            remembered = await tools["remember"].ainvoke({"text": "User's GitHub username is @johndoe"}, config)
            return added, found, remembered

    added, found, remembered = asyncio.run(run())
    assert QUEUED.match(added)
    assert found.startswith("Found the following memories:\n\n1. User prefers dark mode in every editor (score: ")
    assert json.loads(remembered)["message"] == "Ok"


@pytest.mark.django_db  # (also what makes pytest-django create the test database for this module)
def test_user_ids_map_onto_mnemo_namespaces():
    assert namespace_for_user("user:abc123") == "user:abc123"
    assert namespace_for_user("agent:gmail_subagent") == "agent:gmail_subagent"
    assert namespace_for_user("abc123") == "user:abc123"
