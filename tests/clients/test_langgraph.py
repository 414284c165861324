"""``mnemo_client.langgraph`` with the real ``langgraph``, against a live Mnemo (tests/clients/conftest.py):
the ``BaseStore`` (put, get, search, delete, list namespaces; sync and async; two users under
the one permission layer) and seed 002's memory learning node at the end of a small StateGraph
whose scripted agent node (no LLM) calls the LangChain tools through LangGraph's ToolNode.
"""

from __future__ import annotations

import asyncio
import uuid

import pytest

from tests.conftest import require_module

require_module("langgraph", "the [langchain] extra (langgraph) is not installed")

from guardian.shortcuts import assign_perm  # noqa: E402
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage  # noqa: E402
from langgraph.graph import END, START, MessagesState, StateGraph  # noqa: E402
from langgraph.prebuilt import ToolNode  # noqa: E402
from langgraph.store.base import GetOp  # noqa: E402
from mnemo_client import AsyncMnemoClient, MnemoClient, NotFound, PermissionDenied, SecretRejected  # noqa: E402
from mnemo_client.langchain import mnemo_tools  # noqa: E402
from mnemo_client.langgraph import (  # noqa: E402
    MnemoStore,
    item_tag,
    make_memory_learning_node,
    memory_learning_node,
    skill_text,
    successful_calls,
)

from memories.models import Namespace  # noqa: E402
from tests.factories import UserFactory, token_for  # noqa: E402


def _client(mnemo_url: str, user=None) -> tuple[object, MnemoClient]:
    user = user or UserFactory()
    return user, MnemoClient(mnemo_url, token_for(user, name="langgraph"))


@pytest.fixture
def alice(committed, mnemo_url):
    user, client = _client(mnemo_url)
    with client:
        yield user, client


# --- the store -----------------------------------------------------------------------------------


def test_put_get_update_search_delete(alice):
    user, client = alice
    store = MnemoStore(client)
    namespace = ("memories", "profile")
    store.put(namespace, "food", {"text": "User is vegetarian and loves Thai curries", "kind": "diet"})
    store.put(namespace, "editor", {"text": "User writes code in Neovim with a dark theme", "kind": "tools"})
    store.put(("memories", "work"), "job", {"text": "User is a data engineer at Acme Corp", "kind": "work"})

    item = store.get(namespace, "food")
    assert item is not None
    assert (item.namespace, item.key) == (namespace, "food")
    assert item.value == {"text": "User is vegetarian and loves Thai curries", "kind": "diet"}
    assert store.get(namespace, "missing") is None
    assert store.get(("memories", "other"), "food") is None

    # One item is one memory in the token's own namespace, its key and value in metadata.
    [memory] = client.list_memories(tag=item_tag(namespace, "food")).results
    assert memory.namespace == f"user:{user.username}"
    assert memory.metadata["langgraph"]["value"] == item.value
    assert memory.metadata["langgraph"]["key"] == "food"

    # A put of the same key updates that memory (no second one), keeping created_at.
    store.put(namespace, "food", {"text": "User is vegan and loves Thai curries", "kind": "diet"})
    again = store.get(namespace, "food")
    assert again.value["text"] == "User is vegan and loves Thai curries"
    assert again.created_at == item.created_at and again.updated_at > item.updated_at
    [updated] = client.list_memories(tag=item_tag(namespace, "food")).results
    assert (
        updated.id == memory.id and updated.text == '{"kind": "diet", "text": "User is vegan and loves Thai curries"}'
    )

    # Search by meaning under a prefix, with a value filter, and listing (no query).
    hits = store.search(("memories",), query="what does the user eat", limit=3)
    assert hits[0].key == "food" and hits[0].score is not None and 0 <= hits[0].score <= 1
    assert {hit.key for hit in hits} == {"food", "editor", "job"}
    assert [h.key for h in store.search(("memories",), query="what does the user eat", filter={"kind": "work"})] == [
        "job"
    ]
    assert {h.key for h in store.search(("memories", "profile"))} == {"food", "editor"}
    assert [
        h.key for h in store.search(("memories",), filter={"kind": {"$ne": "diet"}, "text": {"$gte": "User w"}})
    ] == ["editor"]
    assert len(store.search(("memories",), limit=2)) == 2
    assert store.search(("elsewhere",)) == []

    assert store.list_namespaces() == [("memories", "profile"), ("memories", "work")]
    assert store.list_namespaces(prefix=("memories", "work")) == [("memories", "work")]
    assert store.list_namespaces(suffix=("profile",)) == [("memories", "profile")]
    assert store.list_namespaces(max_depth=1) == [("memories",)]

    store.delete(namespace, "food")
    assert store.get(namespace, "food") is None
    assert "food" not in {h.key for h in store.search(("memories",), query="what does the user eat")}
    store.delete(namespace, "food")  # a missing key: nothing to do
    assert client.list_memories(tag=item_tag(namespace, "food")).count == 0


def test_a_value_filter_is_done_by_the_server_where_it_can(alice):
    _, client = alice
    store = MnemoStore(client)
    dishes = ["Thai green curry", "mushroom risotto", "pad thai", "lentil soup", "falafel wrap", "veggie lasagna"]
    for n, dish in enumerate(dishes):
        store.put(("menu",), f"dish{n}", {"text": f"User loves {dish} for dinner", "kind": "food", "rank": n})
    store.put(("menu",), "job", {"text": "User eats lunch at the Acme Corp canteen", "kind": "work", "rank": 9})
    [memory] = client.list_memories(tag=item_tag(("menu",), "dish0")).results
    assert (memory.metadata["lg.kind"], memory.metadata["lg.rank"]) == ("food", 0)
    # The one work item ranks below six food items for this query (no word of it in the work
    # item: "eat" would single it out, and hybrid search puts first the memory a query's rare
    # word singles out): found at limit=1 only because the server filters before it ranks (the
    # store alone would ask for 4 results).
    assert [h.key for h in store.search(("menu",), query="what does the user like for dinner", limit=1)] != ["job"]
    assert [
        h.key for h in store.search(("menu",), query="what does the user like to eat", filter={"kind": "work"}, limit=1)
    ] == ["job"]
    hits = store.search(("menu",), query="dinner", filter={"rank": {"$gt": 3}, "kind": {"$ne": "work"}})
    assert sorted(h.key for h in hits) == ["dish4", "dish5"]
    # What the server cannot do exactly ($gte, strings ordered, dotted paths) the store does.
    hits = store.search(("menu",), query="dinner", filter={"rank": {"$gte": 4}, "text": {"$lt": "User loves g"}})
    assert sorted(h.key for h in hits) == ["dish4", "job"]


def test_index_false_and_index_fields(alice):
    _, client = alice
    store = MnemoStore(client)
    store.put(("docs",), "hidden", {"text": "The launch codeword is marigold"}, index=False)
    store.put(("docs",), "titled", {"title": "Quarterly marigold garden report", "body": "x"}, index=["title"])
    assert store.get(("docs",), "hidden").value == {"text": "The launch codeword is marigold"}
    assert [h.key for h in store.search(("docs",), query="marigold")] == ["titled"]
    assert {h.key for h in store.search(("docs",))} == {"hidden", "titled"}
    [memory] = client.list_memories(tag=item_tag(("docs",), "titled")).results
    assert memory.text == "Quarterly marigold garden report"


def test_a_secret_in_a_value_is_refused_and_nothing_is_written(alice):
    _, client = alice
    store = MnemoStore(client)
    with pytest.raises(SecretRejected):
        store.put(("creds",), "github", {"text": "my token is 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"})
    store.put(("creds",), "ok", {"text": "User reads the news every morning"})
    with pytest.raises(SecretRejected):  # an update too: the item keeps its value
        store.put(("creds",), "ok", {"note": "aws AKIAIOSFODNN7EXAMPLE"}, index=False)
    assert store.get(("creds",), "github") is None
    assert store.get(("creds",), "ok").value == {"text": "User reads the news every morning"}
    assert client.list_memories(tag="langgraph").count == 1


def test_two_racing_puts_of_a_new_key_heal_at_the_next_put(alice):
    _, client = alice
    store = MnemoStore(client)
    store.put(("race",), "k", {"text": "first writer"})
    [first] = client.list_memories(tag=item_tag(("race",), "k")).results
    # What a second put that raced the first would have made: another memory with the same key.
    client.remember(
        "second writer",
        tags=first.tags,
        metadata={"langgraph": {**first.metadata["langgraph"], "value": {"text": "second writer"}}},
        dedup_policy="insert",
    )
    assert store.get(("race",), "k").value == {"text": "second writer"}  # the newest wins
    store.put(("race",), "k", {"text": "third writer"})
    [kept] = client.list_memories(tag=item_tag(("race",), "k")).results
    assert kept.text == '{"text": "third writer"}'
    assert store.get(("race",), "k").value == {"text": "third writer"}


def test_a_colon_label_names_the_mnemo_namespace(alice, mnemo_url):
    user, client = alice
    store = MnemoStore(client)
    own = f"user:{user.username}"
    store.put((own, "prefs"), "theme", {"text": "User wants dark mode"})
    [memory] = client.list_memories(tag=item_tag((own, "prefs"), "theme")).results
    assert memory.namespace == own
    assert store.get((own, "prefs"), "theme").value == {"text": "User wants dark mode"}
    assert store.list_namespaces() == [(own, "prefs")]
    # A store whose default namespace is another one still finds the colon-named tuple.
    assert MnemoStore(client, namespace="team:nowhere").get((own, "prefs"), "theme") is not None


def test_two_users_one_permission_layer(alice, mnemo_url, committed):
    user, client = alice
    own = f"user:{user.username}"
    store = MnemoStore(client)
    store.put(("notes",), "door", {"text": "The garage door code is kept in the kitchen drawer"})
    store.put((own, "notes"), "plan", {"text": "Alice plans a trip to Lisbon in May"})

    bob, bob_client = _client(mnemo_url)
    with bob_client:
        bob_store = MnemoStore(bob_client)
        # The same tuple is Bob's own namespace: nothing of Alice's is there.
        assert bob_store.get(("notes",), "door") is None
        assert bob_store.search(("notes",), query="garage door code") == []
        # Alice's namespace named outright: nothing, and a write is NOT_FOUND.
        assert bob_store.get((own, "notes"), "plan") is None
        assert bob_store.search((own,), query="trip to Lisbon") == []
        assert bob_store.search((own,)) == []
        with pytest.raises(NotFound):
            bob_store.put((own, "notes"), "plan", {"text": "overwritten"})
        bob_store.delete((own, "notes"), "plan")  # not visible, so nothing to delete
        assert bob_store.list_namespaces() == []
        assert store.get((own, "notes"), "plan").value == {"text": "Alice plans a trip to Lisbon in May"}

        # Granted view on Alice's namespace, Bob reads and cannot write (PERMISSION_DENIED).
        assign_perm("view_namespace", bob, Namespace.objects.get(key=own))
        assert bob_store.get((own, "notes"), "plan").value == {"text": "Alice plans a trip to Lisbon in May"}
        assert [h.key for h in bob_store.search((own,), query="trip to Lisbon")] == ["plan"]
        assert bob_store.list_namespaces() == [(own, "notes")]
        with pytest.raises(PermissionDenied):
            bob_store.put((own, "notes"), "plan", {"text": "overwritten"})
        with pytest.raises(PermissionDenied):
            bob_store.delete((own, "notes"), "plan")
        # Alice's default-namespace tuple stays hers: Bob's store maps ("notes",) to his own.
        assert bob_store.get(("notes",), "door") is None
    assert store.get((own, "notes"), "plan").value == {"text": "Alice plans a trip to Lisbon in May"}


def test_the_async_store(committed, mnemo_url):
    user = UserFactory()
    token = token_for(user, name="langgraph")

    async def run() -> None:
        async with AsyncMnemoClient(mnemo_url, token) as aclient:
            store = MnemoStore(async_client=aclient)
            await store.aput(("memories",), "k1", {"text": "User's favourite city is Kyoto"})
            await store.aput(("memories",), "k2", {"text": "User runs every morning before work"})
            item = await store.aget(("memories",), "k1")
            assert item.value == {"text": "User's favourite city is Kyoto"}
            hits = await store.asearch(("memories",), query="which city does the user like", limit=1)
            assert [h.key for h in hits] == ["k1"]
            assert await store.alist_namespaces() == [("memories",)]
            results = await store.abatch([GetOp(("memories",), key) for key in ("k1", "k2", "k3")])
            assert [r.key if r else None for r in results] == ["k1", "k2", None]
            await store.adelete(("memories",), "k1")
            assert await store.aget(("memories",), "k1") is None

    asyncio.run(run())
    with MnemoClient(mnemo_url, token) as client:
        assert [m.metadata["langgraph"]["key"] for m in client.list_memories(tag="langgraph").results] == ["k2"]


# --- the memory learning node at the end of a graph ------------------------------------------------


def _graph(client, learn):
    """agent (scripted: one AIMessage with three tool calls, the last one refused) → tools → learn."""
    tools = mnemo_tools(client, contacts=False)

    def agent(state: MessagesState) -> dict:
        calls = [
            {"name": "add_memory", "args": {"content": "User prefers sender:email syntax in Gmail searches"}},
            {"name": "search_memory", "args": {"query": "gmail search syntax", "limit": 3}},
            {"name": "remember", "args": {"text": "token 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"}},
        ]
        return {
            "messages": [
                AIMessage(
                    content="", tool_calls=[{**c, "id": f"call-{i}", "type": "tool_call"} for i, c in enumerate(calls)]
                )
            ]
        }

    graph = StateGraph(MessagesState)
    graph.add_node("agent", agent)
    graph.add_node("tools", ToolNode(tools))
    graph.add_node("learn", learn)
    graph.add_edge(START, "agent")
    graph.add_edge("agent", "tools")
    graph.add_edge("tools", "learn")
    graph.add_edge("learn", END)
    return graph.compile()


EXPECTED_SKILL = (
    'Tool add_memory succeeded with args: {"content": "User prefers sender:email syntax in Gmail searches"}\n'
    'Tool search_memory succeeded with args: {"limit": 3, "query": "gmail search syntax"}'
)


def _run(graph, user, agent_name: str) -> list:
    config = {
        "configurable": {"agent_name": agent_name, "thread_id": f"thread-{uuid.uuid4().hex[:8]}"},
        "metadata": {"user_id": f"user:{user.username}"},
    }
    return graph.invoke({"messages": [HumanMessage("Find my Gmail threads")]}, config)["messages"]


def test_a_subagents_successful_tool_calls_become_a_skill_in_its_agent_namespace(alice):
    user, client = alice
    # Staff made the shared agent namespace and granted it: the skill goes there (seed 002's key).
    shared = Namespace.objects.create(key="agent:gmail_subagent", kind="agent")
    assign_perm("view_namespace", user, shared)
    assign_perm("write_namespace", user, shared)

    messages = _run(_graph(client, make_memory_learning_node(client)), user, "gmail_subagent")
    statuses = [(m.name, m.status) for m in messages if isinstance(m, ToolMessage)]
    assert statuses == [("add_memory", "success"), ("search_memory", "success"), ("remember", "error")]
    # The tools ran with the user from the run's config.
    assert [m.text for m in client.list_memories(namespace=f"user:{user.username}").results] == [
        "User prefers sender:email syntax in Gmail searches"
    ]
    [skill] = client.list_memories(namespace="agent:gmail_subagent").results
    assert skill.text == EXPECTED_SKILL
    assert skill.metadata == {"type": "skill", "agent": "gmail_subagent"}
    assert skill.status == "ready"  # added asynchronously; the test server embeds in process


def test_without_the_shared_namespace_the_skill_goes_to_the_callers_own_agent_namespace(alice):
    user, client = alice
    _run(_graph(client, make_memory_learning_node(client)), user, "calendar_subagent")
    namespace = f"agent:calendar_subagent/{user.username}"
    [skill] = client.list_memories(namespace=namespace).results
    assert skill.text == EXPECTED_SKILL  # the server's post-turn hook writes the node's very text
    assert skill.metadata["type"] == "skill" and skill.metadata["agent"] == "calendar_subagent"
    assert client.list_memories(namespace="agent:calendar_subagent").count == 0


def test_an_agent_that_is_not_a_subagent_learns_nothing(alice):
    user, client = alice
    _run(_graph(client, make_memory_learning_node(client)), user, "main_agent")
    assert [n.key for n in client.list_namespaces()] == [f"user:{user.username}"]


def test_the_async_node_in_an_async_graph(committed, mnemo_url):
    user = UserFactory()
    token = token_for(user, name="langgraph")
    shared = Namespace.objects.create(key="agent:notes_subagent", kind="agent")
    assign_perm("view_namespace", user, shared)
    assign_perm("write_namespace", user, shared)

    async def run() -> None:
        async with AsyncMnemoClient(mnemo_url, token) as aclient:
            with MnemoClient(mnemo_url, token) as client:
                graph = _graph(client, memory_learning_node)  # seed 002's own signature
                await graph.ainvoke(
                    {"messages": [HumanMessage("Take a note")]},
                    {
                        "configurable": {"agent_name": "notes_subagent", "mnemo_async_client": aclient},
                        "metadata": {"user_id": user.username},
                    },
                )

    asyncio.run(run())
    with MnemoClient(mnemo_url, token) as client:
        [skill] = client.list_memories(namespace="agent:notes_subagent").results
        assert skill.text == EXPECTED_SKILL
        assert skill.metadata == {"type": "skill", "agent": "notes_subagent"}


def test_an_unbound_node_takes_its_client_from_the_environment(committed, mnemo_url, monkeypatch):
    user = UserFactory()
    token = token_for(user, name="langgraph")
    monkeypatch.setenv("MNEMO_URL", mnemo_url)
    monkeypatch.setenv("MNEMO_TOKEN", token)
    with MnemoClient() as client:
        _run(_graph(client, make_memory_learning_node()), user, "drive_subagent")
        [skill] = client.list_memories(namespace=f"agent:drive_subagent/{user.username}").results
        assert skill.text == EXPECTED_SKILL


@pytest.mark.django_db  # (also what makes pytest-django create the test database for this module)
def test_a_tool_messages_arguments_are_those_of_the_call_it_answers():
    """A ToolMessage carries no arguments: the node pairs it with its AIMessage tool call; failed
    calls are left out. (The text itself is checked against the server's post-turn hook above:
    without the shared namespace the server writes the skill, and it is the same text.)"""
    messages = [
        AIMessage(content="", tool_calls=[{"name": "send_email", "args": {"to": "a@b.c", "body": "hi"}, "id": "1"}]),
        AIMessage(content="", tool_calls=[{"name": "send_sms", "args": {"to": "+1"}, "id": "2"}]),
        ToolMessage(content="boom", name="send_sms", tool_call_id="2", status="error"),
        ToolMessage(content="sent", name="send_email", tool_call_id="1"),
    ]
    calls = successful_calls(messages)
    assert calls == [{"name": "send_email", "arguments": {"to": "a@b.c", "body": "hi"}}]
    assert skill_text(calls) == 'Tool send_email succeeded with args: {"body": "hi", "to": "a@b.c"}'
