"""One permission harness for every entrance of the one door.

Every REST route (enumerated from the URL resolver), every gateway tool (``ALL_TOOLS``), every
JSON-RPC method (the modern-rpc registry) and every admin model page (``admin.site._registry``)
has a row here with five cases:

- ``allowed``: the owner on their own object;
- ``no_permission``: a user who holds nothing at all (their own namespace only);
- ``someone_else``: a peer, with objects of their own, on the owner's object;
- ``view_only_write``: a user who may view the object but not change it;
- ``revoked_own``: a user whose view and write on their own ``user:<name>`` were revoked.

A case a row cannot have says why (``NA``). Adding a route, a tool, an RPC method or an admin
model without a row fails ``test_every_*_has_a_row``. Another entrance that reuses the gateway
tools (MCP) adds itself to ``TOOL_ENTRANCES``: every tool row then runs through it too.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib import admin
from django.db.models import Q
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone
from guardian.models import UserObjectPermission
from guardian.shortcuts import remove_perm

from assistant.mcp.entrance import call_tool_as
from assistant.tools import ALL_TOOLS
from contacts import services as contact_services
from contacts.models import Contact
from core.tokens import issue_token
from memories import services as memory_services
from memories.models import Memory, MemoryEvent, Namespace, SearchLatency, Tombstone
from memories.permissions import ensure_user_namespace
from tests.conftest import api_client_for
from tests.factories import (
    ContactMessageFactory,
    ContactNoteFactory,
    GroupFactory,
    ToolMemoryRuleFactory,
    ToolStatisticFactory,
    UserFactory,
    grant,
)
from toolrules.models import ToolMemoryRule
from toolrules.rpc import server as rpc_server

CASES = ("allowed", "no_permission", "someone_else", "view_only_write", "revoked_own")
ACTOR = {
    "allowed": "alice",
    "no_permission": "nobody",
    "someone_else": "bob",
    "view_only_write": "viewer",
    "revoked_own": "carol",
}
OK, NOT_FOUND, DENIED = "ok", "NOT_FOUND", "PERMISSION_DENIED"


@dataclass(frozen=True)
class NA:
    """This case does not exist for the row, and why."""

    reason: str


@dataclass(frozen=True)
class Sees:
    """The call succeeds, and the case's target is (True) or is not (False) in what it answers."""

    visible: bool


Expectation = str | int | Sees | NA


# --- the world: who holds what -------------------------------------------------------------------


@dataclass
class World:
    users: dict[str, Any]
    memory: dict[str, Memory]
    namespace: dict[str, str | None]
    contact: dict[str, Any]
    rule: dict[str, Any]
    objects: dict[str, Any] = field(default_factory=dict)

    def actor(self, case: str):
        return self.users[ACTOR[case]]


def build_world() -> World:
    alice, bob, viewer, nobody, carol = (
        UserFactory(username=name) for name in ("alice", "bob", "viewer", "nobody", "carol")
    )
    for user in (alice, bob, viewer):
        grant(user, "contacts.add_contact", "contacts.view_contactnote")

    def remember(user, namespace, text):
        return memory_services.add_memory(actor=user, namespace=namespace, content=text, run_async=False)

    alice_memory = remember(alice, ensure_user_namespace(alice), "Alice keeps bees on the roof in Porto.")
    remember(bob, ensure_user_namespace(bob), "Bob collects vintage maps.")
    carol_memory = remember(carol, ensure_user_namespace(carol), "Carol sails a small yacht called Nimbus.")
    shared = Namespace.objects.create(key="team:shared", kind="other", owner=alice)
    grant(alice, "view_namespace", "write_namespace", obj=shared)
    grant(viewer, "view_namespace", obj=shared)
    shared_memory = remember(alice, shared, "The team offsite is in Lisbon in May.")
    own = Namespace.objects.get(key="user:carol")
    remove_perm("view_namespace", carol, own)
    remove_perm("write_namespace", carol, own)

    alice_contact = contact_services.create_contact(
        actor=alice, name="Jane Doe", email="jane@example.com", phone="+1 415 555 0100"
    )
    contact_services.set_memory_note(actor=alice, contact=alice_contact, body="Prefers texts.")
    shared_contact = contact_services.create_contact(
        actor=alice, name="Sam Roe", email="sam@example.com", phone="+1 415 555 0101"
    )
    grant(viewer, "view_contact", obj=shared_contact)
    contact_services.create_contact(actor=bob, name="Bob's Plumber", phone="+1 415 555 0102")

    alice_rule = ToolMemoryRuleFactory(owner=alice, rule="never email Zed at zed@example.com", priority="critical")
    global_rule = ToolMemoryRuleFactory(owner=None, rule="never email the CEO directly", priority="critical")
    ToolMemoryRuleFactory(owner=bob, rule="never email Quinn at quinn@example.com", priority="critical")

    memory = {
        "allowed": alice_memory,
        "no_permission": alice_memory,
        "someone_else": alice_memory,
        "view_only_write": shared_memory,
        "revoked_own": carol_memory,
    }
    namespace = {
        "allowed": None,  # the default: the caller's own
        "no_permission": "user:alice",
        "someone_else": "user:alice",
        "view_only_write": "team:shared",
        "revoked_own": None,
    }
    contact = {**dict.fromkeys(CASES, alice_contact), "view_only_write": shared_contact}
    rule = {**dict.fromkeys(CASES, alice_rule), "view_only_write": global_rule}
    users = {"alice": alice, "bob": bob, "viewer": viewer, "nobody": nobody, "carol": carol}
    tokens = {name: issue_token(user=users[name], name="harness").token for name in ("alice", "carol")}
    return World(
        users=users, memory=memory, namespace=namespace, contact=contact, rule=rule, objects={"tokens": tokens}
    )


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker) -> World:
    """Built once for the module (committed), while every test runs in its own transaction that
    is rolled back: each case starts from the same world, and building it is paid once."""
    with django_db_blocker.unblock():
        built = build_world()
    yield built
    with django_db_blocker.unblock():
        _demolish(built)


def _demolish(world: World) -> None:
    users = list(world.users.values())
    namespaces = Namespace.objects.filter(Q(owner__in=users) | Q(key__startswith="user:") | Q(key="team:shared"))
    MemoryEvent.objects.filter(memory__namespace__in=namespaces).delete()
    Tombstone.objects.filter(namespace__in=namespaces).delete()
    Memory.objects.filter(namespace__in=namespaces).delete()
    ids = [str(pk) for pk in namespaces.values_list("pk", flat=True)]
    UserObjectPermission.objects.filter(content_type__model="namespace", object_pk__in=ids).delete()
    namespaces.delete()
    contacts = Contact.objects.filter(owner__in=users)
    ids = [str(pk) for pk in contacts.values_list("pk", flat=True)]
    UserObjectPermission.objects.filter(content_type__model="contact", object_pk__in=ids).delete()
    contacts.delete()
    ToolMemoryRule.objects.filter(Q(owner__in=users) | Q(owner__isnull=True)).delete()
    for user in users:
        user.delete()


@pytest.fixture(autouse=True)
def _every_test_in_a_transaction(db):
    """The module's world is committed; what a test changes is rolled back after it."""


def _with_namespace(body: dict[str, Any], namespace: str | None) -> dict[str, Any]:
    return body if namespace is None else {**body, "namespace": namespace}


def _check(expected: Expectation, status: int, code: str, seen: Callable[[], bool] | None, what: str) -> None:
    if isinstance(expected, Sees):
        assert code == OK, f"{what}: {status} {code}"
        assert seen is not None and seen() == expected.visible, f"{what}: target visible should be {expected.visible}"
    elif isinstance(expected, int):
        assert status == expected, f"{what}: {status} {code}, expected {expected}"
    else:
        assert code == expected, f"{what}: {status} {code}, expected {expected}"


def _code(status: int, body: Any) -> str:
    if status < 400:
        return OK
    return (body or {}).get("error", {}).get("code", f"HTTP {status}") if isinstance(body, dict) else f"HTTP {status}"


# --- REST --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RestRow:
    #: (path, body) for the case.
    request: Callable[[World, str], tuple[str, Any]]
    expect: dict[str, Expectation]
    #: For ``Sees``: is the case's target in the answer?
    seen: Callable[[World, str, Any], bool] | None = None


def applicable(rows: dict[Any, Any]) -> list[tuple[Any, str]]:
    """(row key, case) for every case a row has; the ones it cannot have say why (``NA``) and
    are not generated."""
    return [(key, case) for key in sorted(rows) for case in CASES if not isinstance(rows[key].expect[case], NA)]


def _exp(*values: Expectation) -> dict[str, Expectation]:
    assert len(values) == len(CASES)
    return dict(zip(CASES, values, strict=True))


NO_NS = NA("contacts, rules and sessions live in no namespace")
NO_PEER = NA("creating something involves nobody else's object")
OWN_ONLY = NA("the call acts on the caller's own rows only")


def _mem(path: str) -> Callable[[World, str], tuple[str, Any]]:
    return lambda w, c: (path.format(id=w.memory[c].id), None)


def _mem_body(path: str, body: dict[str, Any]) -> Callable[[World, str], tuple[str, Any]]:
    return lambda w, c: (path.format(id=w.memory[c].id), body)


def _contact(path: str, body: Any = None) -> Callable[[World, str], tuple[str, Any]]:
    return lambda w, c: (path.format(id=w.contact[c].id), body)


def _rule(path: str, body: Any = None) -> Callable[[World, str], tuple[str, Any]]:
    return lambda w, c: (path.format(id=w.rule[c].id), body)


def _ids(body: Any) -> set:
    rows = body["results"] if isinstance(body, dict) and "results" in body else body
    return {str(row["id"]) for row in rows}


def _token(w: World, c: str) -> Any:
    """The case's target token: carol's own for revoked_own, alice's for everyone else."""
    return w.objects["tokens"]["carol" if c == "revoked_own" else "alice"]


NO_TOKEN_VIEWER = NA("nobody may view another user's token (only holders of the model permission)")


def _ns(c: str) -> str:
    """The namespace the case's target lives in."""
    return {"revoked_own": "user:carol", "view_only_write": "team:shared"}.get(c, "user:alice")


def _mem0(body: dict[str, Any]) -> Callable[[World, str], dict[str, Any]]:
    """A Mem0 body naming the case's namespace in its filters: by Mem0's user_id for a user's,
    by Mnemo's ``namespace`` for another (none: the caller's own)."""

    def make(w: World, c: str) -> dict[str, Any]:
        namespace = w.namespace[c]
        if namespace is None:
            return dict(body)
        if namespace.startswith("user:"):
            return {**body, "filters": {"user_id": namespace.removeprefix("user:")}}
        return {**body, "filters": {"namespace": namespace}}

    return make


REST_ROWS: dict[tuple[str, str], RestRow] = {
    ("GET", "api/v1/whoami"): RestRow(lambda w, c: ("/api/v1/whoami", None), _exp(200, 200, 200, 200, 200)),
    ("GET", "api/v1/memories"): RestRow(
        lambda w, c: ("/api/v1/memories?limit=100", None),
        _exp(Sees(True), Sees(False), Sees(False), Sees(True), Sees(False)),
        seen=lambda w, c, body: str(w.memory[c].id) in _ids(body),
    ),
    ("POST", "api/v1/memories"): RestRow(
        lambda w, c: ("/api/v1/memories", _with_namespace({"content": "Harness fact."}, w.namespace[c])),
        _exp(202, NOT_FOUND, NOT_FOUND, DENIED, NOT_FOUND),
    ),
    ("POST", "api/v1/memories/remember"): RestRow(
        lambda w, c: ("/api/v1/memories/remember", _with_namespace({"text": "Harness fact."}, w.namespace[c])),
        _exp(201, NOT_FOUND, NOT_FOUND, DENIED, NOT_FOUND),
    ),
    ("POST", "api/v1/memories/search"): RestRow(
        lambda w, c: ("/api/v1/memories/search", _with_namespace({"query": w.memory[c].text}, w.namespace[c])),
        _exp(Sees(True), NOT_FOUND, NOT_FOUND, Sees(True), NOT_FOUND),
        seen=lambda w, c, body: str(w.memory[c].id) in _ids(body),
    ),
    ("GET", "api/v1/memories/events/<uuid:event_id>"): RestRow(
        lambda w, c: (f"/api/v1/memories/events/{w.memory[c].event_id}", None),
        _exp(200, NOT_FOUND, NOT_FOUND, 200, NOT_FOUND),
    ),
    ("GET", "api/v1/memories/<int:memory_id>"): RestRow(
        _mem("/api/v1/memories/{id}"), _exp(200, NOT_FOUND, NOT_FOUND, 200, NOT_FOUND)
    ),
    ("PATCH", "api/v1/memories/<int:memory_id>"): RestRow(
        _mem_body("/api/v1/memories/{id}", {"tags": ["harness"]}), _exp(200, NOT_FOUND, NOT_FOUND, DENIED, NOT_FOUND)
    ),
    ("DELETE", "api/v1/memories/<int:memory_id>"): RestRow(
        _mem("/api/v1/memories/{id}"), _exp(200, NOT_FOUND, NOT_FOUND, DENIED, NOT_FOUND)
    ),
    ("POST", "api/v1/memories/<int:memory_id>/forget"): RestRow(
        _mem_body("/api/v1/memories/{id}/forget", {"reason": "harness"}),
        _exp(200, NOT_FOUND, NOT_FOUND, DENIED, NOT_FOUND),
    ),
    ("POST", "api/v1/memories/<int:memory_id>/correct"): RestRow(
        _mem_body("/api/v1/memories/{id}/correct", {"text": "Corrected harness fact.", "reason": "harness"}),
        _exp(201, NOT_FOUND, NOT_FOUND, DENIED, NOT_FOUND),
    ),
    ("POST", "api/v1/memories/<int:memory_id>/confirm"): RestRow(
        _mem("/api/v1/memories/{id}/confirm"), _exp(200, NOT_FOUND, NOT_FOUND, DENIED, NOT_FOUND)
    ),
    ("GET", "api/v1/memories/<int:memory_id>/history"): RestRow(
        _mem("/api/v1/memories/{id}/history"), _exp(200, NOT_FOUND, NOT_FOUND, 200, NOT_FOUND)
    ),
    ("GET", "api/v1/namespaces"): RestRow(
        lambda w, c: ("/api/v1/namespaces", None),
        _exp(Sees(True), Sees(False), Sees(False), Sees(True), Sees(False)),
        seen=lambda w, c, body: _ns(c) in {n["key"] for n in body},
    ),
    ("GET", "api/v1/contacts"): RestRow(
        lambda w, c: ("/api/v1/contacts?limit=100", None),
        _exp(Sees(True), Sees(False), Sees(False), Sees(True), NO_NS),
        seen=lambda w, c, body: str(w.contact[c].id) in _ids(body),
    ),
    ("POST", "api/v1/contacts"): RestRow(
        lambda w, c: ("/api/v1/contacts", {"name": "New Person"}), _exp(201, DENIED, NO_PEER, NO_PEER, NO_NS)
    ),
    ("GET", "api/v1/contacts/<str:contact_id>"): RestRow(
        _contact("/api/v1/contacts/{id}"), _exp(200, NOT_FOUND, NOT_FOUND, 200, NO_NS)
    ),
    ("PATCH", "api/v1/contacts/<str:contact_id>"): RestRow(
        _contact("/api/v1/contacts/{id}", {"title": "CTO"}), _exp(200, NOT_FOUND, NOT_FOUND, DENIED, NO_NS)
    ),
    ("DELETE", "api/v1/contacts/<str:contact_id>"): RestRow(
        _contact("/api/v1/contacts/{id}"), _exp(204, NOT_FOUND, NOT_FOUND, DENIED, NO_NS)
    ),
    ("GET", "api/v1/contacts/<str:contact_id>/notes"): RestRow(
        _contact("/api/v1/contacts/{id}/notes"), _exp(200, NOT_FOUND, NOT_FOUND, 200, NO_NS)
    ),
    ("POST", "api/v1/contacts/<str:contact_id>/notes"): RestRow(
        _contact("/api/v1/contacts/{id}/notes", {"body": "Harness note."}),
        _exp(201, NOT_FOUND, NOT_FOUND, DENIED, NO_NS),
    ),
    ("GET", "api/v1/contacts/<str:contact_id>/messages"): RestRow(
        _contact("/api/v1/contacts/{id}/messages"), _exp(200, NOT_FOUND, NOT_FOUND, 200, NO_NS)
    ),
    ("GET", "api/v1/contacts/<str:contact_id>/memory"): RestRow(
        _contact("/api/v1/contacts/{id}/memory"), _exp(200, NOT_FOUND, NOT_FOUND, 200, NO_NS)
    ),
    ("PUT", "api/v1/contacts/<str:contact_id>/memory"): RestRow(
        _contact("/api/v1/contacts/{id}/memory", {"memory_note": "Harness note."}),
        _exp(200, NOT_FOUND, NOT_FOUND, DENIED, NO_NS),
    ),
    ("GET", "api/v1/assistant/tools"): RestRow(
        lambda w, c: ("/api/v1/assistant/tools", None),
        # The contact tools are registered only for callers who may view some contact.
        _exp(Sees(True), Sees(False), NA("bob may view contacts of his own: lists no object"), Sees(True), NO_NS),
        seen=lambda w, c, body: "get_contact_details" in {t["name"] for t in body["tools"]},
    ),
    ("POST", "api/v1/assistant/tools/<str:name>/invoke"): RestRow(
        lambda w, c: (
            "/api/v1/assistant/tools/search_memory/invoke",
            {"arguments": _with_namespace({"query": w.memory[c].text}, w.namespace[c])},
        ),
        _exp(200, NOT_FOUND, NOT_FOUND, 200, NOT_FOUND),
    ),
    ("POST", "api/v1/assistant/session"): RestRow(
        lambda w, c: ("/api/v1/assistant/session", {"message": w.memory[c].text}),
        # The prompt's memories come from the caller's own namespace only, and only while it may read it.
        _exp(Sees(True), Sees(False), Sees(False), Sees(False), Sees(False)),
        seen=lambda w, c, body: w.memory[c].text in body["system_prompt"],
    ),
    ("POST", "api/v1/assistant/turns"): RestRow(
        lambda w, c: (
            "/api/v1/assistant/turns",
            {"session_id": "harness", "messages": [{"role": "user", "content": "I moved to Porto last week."}]},
        ),
        _exp(Sees(True), OWN_ONLY, OWN_ONLY, OWN_ONLY, Sees(False)),
        seen=lambda w, c, body: len(body["memories"]["stored"]) == 1,
    ),
    ("GET", "api/v1/tool-rules"): RestRow(
        lambda w, c: ("/api/v1/tool-rules", None),
        _exp(Sees(True), Sees(False), Sees(False), Sees(True), NO_NS),
        seen=lambda w, c, body: str(w.rule[c].id) in _ids(body),
    ),
    ("POST", "api/v1/tool-rules"): RestRow(
        lambda w, c: (
            "/api/v1/tool-rules",
            {"id": str(w.rule[c].id), "tool_name": "send_email", "rule": "never email anyone on Sundays"},
        ),
        _exp(200, NOT_FOUND, NOT_FOUND, DENIED, NO_NS),
    ),
    ("GET", "api/v1/tool-rules/prompt"): RestRow(
        lambda w, c: ("/api/v1/tool-rules/prompt", None),
        _exp(Sees(True), Sees(False), Sees(False), Sees(True), NO_NS),
        seen=lambda w, c, body: w.rule[c].rule in body["markdown"],
    ),
    ("GET", "api/v1/tool-rules/statistics"): RestRow(
        lambda w, c: ("/api/v1/tool-rules/statistics", None),
        _exp(Sees(True), Sees(False), Sees(False), NA("statistics have no viewers but their owner"), NO_NS),
        seen=lambda w, c, body: "tool_effectiveness/tool/harness_tool" in {s["key"] for s in body},
    ),
    ("GET", "api/v1/tool-rules/<str:rule_id>"): RestRow(
        _rule("/api/v1/tool-rules/{id}"), _exp(200, NOT_FOUND, NOT_FOUND, 200, NO_NS)
    ),
    ("PUT", "api/v1/tool-rules/<str:rule_id>"): RestRow(
        _rule("/api/v1/tool-rules/{id}", {"priority": "high"}), _exp(200, NOT_FOUND, NOT_FOUND, DENIED, NO_NS)
    ),
    ("DELETE", "api/v1/tool-rules/<str:rule_id>"): RestRow(
        _rule("/api/v1/tool-rules/{id}"), _exp(204, NOT_FOUND, NOT_FOUND, DENIED, NO_NS)
    ),
    # The Mem0 entrance (memories/api/mem0_compat.py), at the paths mem0ai's MemoryClient calls.
    ("GET", "v1/ping/"): RestRow(lambda w, c: ("/v1/ping/", None), _exp(200, 200, 200, 200, 200)),
    ("POST", "v3/memories/add/"): RestRow(
        lambda w, c: ("/v3/memories/add/", _mem0({"messages": [{"role": "user", "content": "Harness fact."}]})(w, c)),
        _exp(200, NOT_FOUND, NOT_FOUND, DENIED, NOT_FOUND),
    ),
    ("POST", "v3/memories/search/"): RestRow(
        lambda w, c: ("/v3/memories/search/", _mem0({"query": w.memory[c].text})(w, c)),
        _exp(Sees(True), NOT_FOUND, NOT_FOUND, Sees(True), NOT_FOUND),
        seen=lambda w, c, body: str(w.memory[c].id) in _ids(body),
    ),
    ("POST", "v3/memories/"): RestRow(
        lambda w, c: ("/v3/memories/", _mem0({})(w, c)),
        _exp(Sees(True), NOT_FOUND, NOT_FOUND, Sees(True), NOT_FOUND),
        seen=lambda w, c, body: str(w.memory[c].id) in _ids(body),
    ),
    ("GET", "v1/memories/<str:memory_id>/"): RestRow(
        _mem("/v1/memories/{id}/"), _exp(200, NOT_FOUND, NOT_FOUND, 200, NOT_FOUND)
    ),
    ("PUT", "v1/memories/<str:memory_id>/"): RestRow(
        _mem_body("/v1/memories/{id}/", {"metadata": {"harness": True}}),
        _exp(200, NOT_FOUND, NOT_FOUND, DENIED, NOT_FOUND),
    ),
    ("DELETE", "v1/memories/<str:memory_id>/"): RestRow(
        _mem("/v1/memories/{id}/"), _exp(200, NOT_FOUND, NOT_FOUND, DENIED, NOT_FOUND)
    ),
    ("GET", "v1/memories/<str:memory_id>/history/"): RestRow(
        _mem("/v1/memories/{id}/history/"), _exp(200, NOT_FOUND, NOT_FOUND, 200, NOT_FOUND)
    ),
    ("GET", "api/v1/tokens"): RestRow(
        lambda w, c: ("/api/v1/tokens", None),
        # Tokens live in no namespace: carol, whose namespace was revoked, still sees her own.
        _exp(Sees(True), Sees(False), Sees(False), NO_TOKEN_VIEWER, Sees(True)),
        seen=lambda w, c, body: _token(w, c).id in {t["id"] for t in body},
    ),
    ("POST", "api/v1/tokens"): RestRow(
        # Anyone may make tokens for themselves (the same rights as the token they use).
        lambda w, c: ("/api/v1/tokens", {"name": "harness agent"}),
        _exp(201, 201, NO_PEER, NO_PEER, 201),
    ),
    ("DELETE", "api/v1/tokens/<int:token_id>"): RestRow(
        lambda w, c: (f"/api/v1/tokens/{_token(w, c).id}", None),
        _exp(204, NOT_FOUND, NOT_FOUND, NO_TOKEN_VIEWER, 204),
    ),
}


def rest_routes() -> set[tuple[str, str]]:
    """Every (method, route) under /api/v1/ (and the Mem0 entrance's /v1/ and /v3/) that a view
    answers, from the URL resolver."""

    def walk(patterns, prefix):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, prefix + str(pattern.pattern))
            elif isinstance(pattern, URLPattern):
                yield prefix + str(pattern.pattern), pattern.callback

    found = set()
    for route, callback in walk(get_resolver().url_patterns, ""):
        view = getattr(callback, "view_class", None) or getattr(callback, "cls", None)
        if not route.startswith(("api/v1/", "v1/", "v3/")) or view is None:
            continue
        for method in ("get", "post", "put", "patch", "delete"):
            if hasattr(view, method):
                found.add((method.upper(), route))
    return found


def test_every_rest_route_has_a_row():
    routes = rest_routes()
    assert routes, "the resolver found no API route"
    assert routes - set(REST_ROWS) == set(), "routes without a row in the permission harness"
    assert set(REST_ROWS) - routes == set(), "rows for routes that no longer exist"


def _statistics_for(world: World) -> None:
    for user in world.users.values():
        ToolStatisticFactory(owner=user, tool_name="harness_tool" if user.username == "alice" else "other_tool")


@pytest.mark.parametrize(
    ("route", "case"), applicable(REST_ROWS), ids=lambda v: f"{v[0]} {v[1]}" if isinstance(v, tuple) else v
)
def test_rest(world, route, case):
    row = REST_ROWS[route]
    expected = row.expect[case]
    _statistics_for(world)
    path, body = row.request(world, case)
    client = api_client_for(world.actor(case))
    response = getattr(client, route[0].lower())(path, body, format="json")
    data = response.json() if response.content and response["Content-Type"].startswith("application/json") else None
    code = _code(response.status_code, data)
    seen = (lambda: row.seen(world, case, data)) if row.seen else None
    _check(expected, response.status_code, code, seen, f"{route} as {ACTOR[case]}")


@pytest.mark.parametrize("route", sorted(REST_ROWS), ids=lambda r: f"{r[0]} {r[1]}")
def test_rest_refuses_anonymous_callers(world, route):
    path, body = REST_ROWS[route].request(world, "allowed")
    if route[0] in ("GET", "DELETE"):
        response = getattr(Client(), route[0].lower())(path)
    else:
        response = getattr(Client(), route[0].lower())(path, json.dumps(body), content_type="application/json")
    assert response.status_code == 401


# --- gateway tools, through every entrance -------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    code: str
    data: Any


def invoke_over_rest(user, name: str, arguments: dict[str, Any]) -> Outcome:
    response = api_client_for(user).post(
        f"/api/v1/assistant/tools/{name}/invoke", {"arguments": arguments}, format="json"
    )
    body = response.json()
    return Outcome(_code(response.status_code, body), body.get("result"))


def invoke_over_mcp(user, name: str, arguments: dict[str, Any]) -> Outcome:
    """The MCP entrance's own call path (what its server runs for ``tools/call``), without the
    transport: a tool error carries the seed's code in its structured content."""
    result = call_tool_as(user, name, arguments)
    if result.is_error:
        return Outcome(result.structured_content["error"]["code"], None)
    return Outcome(OK, result.structured_content)


#: name → how to call a gateway tool through that entrance: every tool row runs through each.
TOOL_ENTRANCES: dict[str, Callable[[Any, str, dict[str, Any]], Outcome]] = {
    "rest": invoke_over_rest,
    "mcp": invoke_over_mcp,
}


@dataclass(frozen=True)
class ToolRow:
    arguments: Callable[[World, str], dict[str, Any]]
    expect: dict[str, Expectation]
    seen: Callable[[World, str, Any], bool] | None = None


def _contact_args(**extra: Any) -> Callable[[World, str], dict[str, Any]]:
    return lambda w, c: {"contact_id": str(w.contact[c].id), **extra}


# nobody may view no contact: the contact tools are not registered for them (PERMISSION_DENIED).
CONTACT_READ = _exp(OK, DENIED, NOT_FOUND, OK, NO_NS)
# Sending to a contact one may view is allowed (seed 000 registers send_* for viewers); a preview.
CONTACT_SEND = _exp(OK, DENIED, NOT_FOUND, OK, NO_NS)

TOOL_ROWS: dict[str, ToolRow] = {
    "get_contact_details": ToolRow(_contact_args(), CONTACT_READ),
    "get_contact_memory": ToolRow(_contact_args(), CONTACT_READ),
    "get_contact_messages": ToolRow(_contact_args(), CONTACT_READ),
    "send_sms": ToolRow(_contact_args(body="Running late"), CONTACT_SEND),
    "send_email": ToolRow(_contact_args(subject="Hi", body="Running late"), CONTACT_SEND),
    "remember": ToolRow(
        lambda w, c: _with_namespace({"text": "Harness fact."}, w.namespace[c]),
        _exp(OK, NOT_FOUND, NOT_FOUND, DENIED, NOT_FOUND),
    ),
    "add_memory": ToolRow(
        lambda w, c: _with_namespace({"content": "Harness fact."}, w.namespace[c]),
        _exp(OK, NOT_FOUND, NOT_FOUND, DENIED, NOT_FOUND),
    ),
    "search_memory": ToolRow(
        lambda w, c: _with_namespace({"query": w.memory[c].text}, w.namespace[c]),
        _exp(Sees(True), NOT_FOUND, NOT_FOUND, Sees(True), NOT_FOUND),
        seen=lambda w, c, data: w.memory[c].id in {r["id"] for r in data["results"]},
    ),
    "forget": ToolRow(
        lambda w, c: {"memory_id": w.memory[c].id, "reason": "harness"},
        _exp(OK, NOT_FOUND, NOT_FOUND, DENIED, NOT_FOUND),
    ),
    "memory_recall": ToolRow(
        lambda w, c: {"namespace": "tool-send_email"},
        _exp(Sees(True), Sees(False), Sees(False), Sees(True), NO_NS),
        seen=lambda w, c, data: str(w.rule[c].id) in {r["id"] for r in data["rules"]},
    ),
}


def test_every_tool_has_a_row():
    assert set(ALL_TOOLS) == set(TOOL_ROWS)


@pytest.mark.parametrize(("tool", "case"), applicable(TOOL_ROWS))
@pytest.mark.parametrize("entrance", sorted(TOOL_ENTRANCES))
def test_tool(world, entrance, tool, case):
    row = TOOL_ROWS[tool]
    expected = row.expect[case]
    outcome = TOOL_ENTRANCES[entrance](world.actor(case), tool, row.arguments(world, case))
    seen = (lambda: row.seen(world, case, outcome.data)) if row.seen else None
    _check(expected, 0, outcome.code, seen, f"{entrance}:{tool} as {ACTOR[case]}")


# --- JSON-RPC ------------------------------------------------------------------------------------

RPC_CODES = {-32004: NOT_FOUND, -32003: DENIED, -32602: "INVALID_INPUT"}


def call_rpc(user, method: str, params: dict[str, Any]) -> Outcome:
    response = api_client_for(user).post(
        "/rpc", {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}, format="json"
    )
    body = response.json()
    if "error" in body:
        error = body["error"]
        return Outcome((error.get("data") or {}).get("code") or RPC_CODES.get(error["code"], str(error["code"])), None)
    return Outcome(OK, body["result"])


@dataclass(frozen=True)
class RpcRow:
    params: Callable[[World, str], dict[str, Any]]
    expect: dict[str, Expectation]
    seen: Callable[[World, str, Any], bool] | None = None


def _rule_ref(w: World, c: str) -> dict[str, Any]:
    return {"tool_name": w.rule[c].tool_name, "id": str(w.rule[c].id)}


RPC_ROWS: dict[str, RpcRow] = {
    "memory.tool_rule_put": RpcRow(
        lambda w, c: {**_rule_ref(w, c), "rule": "never email anyone on Sundays", "priority": "high"},
        _exp(OK, NOT_FOUND, NOT_FOUND, DENIED, NO_NS),
    ),
    "memory.tool_rule_get": RpcRow(_rule_ref, _exp(OK, NOT_FOUND, NOT_FOUND, OK, NO_NS)),
    "memory.tool_rule_list": RpcRow(
        lambda w, c: {"tool_name": "send_email"},
        _exp(Sees(True), Sees(False), Sees(False), Sees(True), NO_NS),
        seen=lambda w, c, result: str(w.rule[c].id) in {r["id"] for r in result},
    ),
    "memory.tool_rule_delete": RpcRow(_rule_ref, _exp(OK, NOT_FOUND, NOT_FOUND, DENIED, NO_NS)),
    "memory.tool_rules_for_prompt": RpcRow(
        lambda w, c: {},
        _exp(Sees(True), Sees(False), Sees(False), Sees(True), NO_NS),
        seen=lambda w, c, result: w.rule[c].rule in result["markdown"],
    ),
    "memory.tool_rules_json": RpcRow(
        lambda w, c: {},
        _exp(Sees(True), Sees(False), Sees(False), Sees(True), NO_NS),
        seen=lambda w, c, result: str(w.rule[c].id) in {r["id"] for r in result},
    ),
    # The memory methods: the rows of their gateway tools.
    "memory.remember": RpcRow(
        lambda w, c: _with_namespace({"text": "Harness fact."}, w.namespace[c]),
        _exp(OK, NOT_FOUND, NOT_FOUND, DENIED, NOT_FOUND),
    ),
    "memory.add_memory": RpcRow(
        lambda w, c: _with_namespace({"content": "Harness fact."}, w.namespace[c]),
        _exp(OK, NOT_FOUND, NOT_FOUND, DENIED, NOT_FOUND),
    ),
    "memory.search_memory": RpcRow(
        lambda w, c: _with_namespace({"query": w.memory[c].text}, w.namespace[c]),
        _exp(Sees(True), NOT_FOUND, NOT_FOUND, Sees(True), NOT_FOUND),
        seen=lambda w, c, result: w.memory[c].id in {r["id"] for r in result["results"]},
    ),
}


def test_every_rpc_method_has_a_row():
    assert set(rpc_server.procedures) == set(RPC_ROWS)


@pytest.mark.parametrize(("method", "case"), applicable(RPC_ROWS))
def test_rpc(world, method, case):
    row = RPC_ROWS[method]
    expected = row.expect[case]
    outcome = call_rpc(world.actor(case), method, row.params(world, case))
    seen = (lambda: row.seen(world, case, outcome.data)) if row.seen else None
    _check(expected, 0, outcome.code, seen, f"{method} as {ACTOR[case]}")


# --- admin model pages ---------------------------------------------------------------------------


@dataclass(frozen=True)
class AdminRow:
    """``target(world, case)``: the object whose pages the case opens; ``grants``: model
    permissions every staff actor gets first (the section's gate, which object rights narrow).
    ``model_level``: no object rights exist for the model; only the allowed actor gets ``grants``."""

    target: Callable[[World, str], Any]
    expect: dict[str, Expectation]
    grants: tuple[str, ...] = ()
    model_level: bool = False


VIEW, CHANGE, HIDDEN, LIST_ONLY = "view", "change", "hidden", "list_only"


def _ns_object(w: World, c: str):
    key = w.namespace[c] or f"user:{w.actor(c).username}"
    return Namespace.objects.get(key=key)


def _tombstone(w: World, c: str):
    memory = w.memory[c]
    return Tombstone.objects.create(namespace=memory.namespace, text=memory.text, reason="harness", memory=memory)


def _event(w: World, c: str):
    return MemoryEvent.objects.filter(memory=w.memory[c]).first()


def _note(w: World, c: str):
    return ContactNoteFactory(contact=w.contact[c])


def _message(w: World, c: str):
    return ContactMessageFactory(contact=w.contact[c])


def _statistic(w: World, c: str):
    owner = w.users["alice"] if c != "revoked_own" else w.actor(c)
    return ToolStatisticFactory(owner=owner)


def _latency(w: World, c: str):
    minute = timezone.now().replace(second=0, microsecond=0)
    return SearchLatency.objects.get_or_create(minute=minute, defaults={"count": 1, "total_ms": 12.0, "max_ms": 12.0})[
        0
    ]


NS_SCOPED = _exp(CHANGE, HIDDEN, HIDDEN, VIEW, HIDDEN)
NS_READ_ONLY = _exp(VIEW, HIDDEN, HIDDEN, VIEW, HIDDEN)
CONTACT_SCOPED = _exp(CHANGE, HIDDEN, HIDDEN, VIEW, NO_NS)
MODEL_PERMS_ONLY = NA("a Django model permission decides for every row alike (tested as allowed / hidden)")
MODEL_ONLY_VIEW = _exp(VIEW, HIDDEN, MODEL_PERMS_ONLY, MODEL_PERMS_ONLY, NO_NS)

ADMIN_ROWS: dict[str, AdminRow] = {
    "memories.memory": AdminRow(lambda w, c: w.memory[c], NS_SCOPED),
    "memories.tombstone": AdminRow(_tombstone, NS_READ_ONLY),
    "memories.memoryevent": AdminRow(_event, NS_READ_ONLY),
    "memories.namespace": AdminRow(
        _ns_object,
        # Editing a namespace itself (key, owner) takes the model permission; object grants let one see it.
        _exp(VIEW, HIDDEN, HIDDEN, VIEW, HIDDEN),
    ),
    "contacts.contact": AdminRow(lambda w, c: w.contact[c], CONTACT_SCOPED),
    "contacts.contactnote": AdminRow(
        _note, CONTACT_SCOPED, grants=("contacts.view_contactnote", "contacts.change_contactnote")
    ),
    "contacts.contactmessage": AdminRow(
        _message, CONTACT_SCOPED, grants=("contacts.view_contactmessage", "contacts.change_contactmessage")
    ),
    "toolrules.toolmemoryrule": AdminRow(
        lambda w, c: w.rule[c],
        # Rules in the admin are for holders of the model permissions (who see every rule).
        _exp(CHANGE, HIDDEN, MODEL_PERMS_ONLY, MODEL_PERMS_ONLY, NO_NS),
        grants=("toolrules.change_toolmemoryrule", "toolrules.view_toolmemoryrule"),
        model_level=True,
    ),
    "toolrules.toolstatistic": AdminRow(
        _statistic, MODEL_ONLY_VIEW, grants=("toolrules.view_toolstatistic",), model_level=True
    ),
    "memories.searchlatency": AdminRow(
        _latency,
        # Timings of all searches, per minute: no row is anyone's data. Staff who may view any
        # namespace (everyone's own counts) read them; nobody writes them.
        _exp(VIEW, VIEW, NA("aggregate timings: no row belongs to anyone"), VIEW, HIDDEN),
    ),
    "auth.user": AdminRow(lambda w, c: w.actor(c), MODEL_ONLY_VIEW, grants=("auth.view_user",), model_level=True),
    "auth.group": AdminRow(lambda w, c: GroupFactory(), MODEL_ONLY_VIEW, grants=("auth.view_group",), model_level=True),
    "core.apitoken": AdminRow(
        lambda w, c: issue_token(user=w.actor(c), name="harness admin").token,
        MODEL_ONLY_VIEW,
        grants=("core.view_apitoken",),
        model_level=True,
    ),
}


def test_every_admin_model_has_a_row():
    assert {model._meta.label_lower for model in admin.site._registry} == set(ADMIN_ROWS)


def _admin_url(obj, view: str) -> str:
    opts = obj._meta
    return reverse(f"admin:{opts.app_label}_{opts.model_name}_{view}", args=[obj.pk] if view == "change" else [])


@pytest.mark.parametrize(("label", "case"), applicable(ADMIN_ROWS))
def test_admin(world, label, case):
    row = ADMIN_ROWS[label]
    expected = row.expect[case]
    actor = world.actor(case)
    type(actor).objects.filter(pk=actor.pk).update(is_staff=True)
    if case == "allowed" or not row.model_level:
        for perm in row.grants:
            grant(actor, perm)
    obj = row.target(world, case)
    client = Client()
    client.force_login(actor)
    change_url = _admin_url(obj, "change")
    page = client.get(change_url)
    listed = client.get(_admin_url(obj, "changelist"))
    if expected == HIDDEN:
        # The change page answers like a missing object's (a redirect or 403, never the object).
        assert page.status_code in (302, 403), f"{label} change page as {actor}: {page.status_code}"
        assert str(obj.pk) not in (page.get("Location") or "")
        assert listed.status_code == 403 or str(obj.pk) not in _changelist_pks(listed), "listed to a stranger"
        return
    assert page.status_code == 200, f"{label} change page as {actor}: {page.status_code}"
    assert listed.status_code == 200 and str(obj.pk) in _changelist_pks(listed)
    can_save = 'name="_save"' in page.content.decode()
    assert can_save == (expected == CHANGE), f"{label}: save button for {actor} should be {expected == CHANGE}"
    if expected == VIEW:
        refused = client.post(change_url, {})
        assert refused.status_code == 403, f"{label}: a view-only POST answered {refused.status_code}"


def _changelist_pks(response) -> set[str]:
    if response.status_code != 200:
        return set()
    return {str(obj.pk) for obj in response.context["cl"].result_list}


@pytest.mark.parametrize("rows", [REST_ROWS, TOOL_ROWS, RPC_ROWS, ADMIN_ROWS], ids=["rest", "tools", "rpc", "admin"])
def test_every_row_states_every_case(rows):
    for key, row in rows.items():
        assert set(row.expect) == set(CASES), key
        for case, expected in row.expect.items():
            assert not isinstance(expected, NA) or expected.reason.strip(), (key, case)
