"""core.permissions and the findings it closes: the own namespace is a default, not an exemption
(finding 3), agent namespaces cannot be squatted (finding 12), a foreign event answers like a
missing one (finding 11)."""

from __future__ import annotations

import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from guardian.shortcuts import assign_perm, remove_perm

from assistant.models import AssistantSession
from core import permissions as layer
from core.errors import Forbidden, NotFound
from memories import services
from memories.models import Memory, Namespace
from memories.permissions import ensure_user_namespace, get_memory, resolve_namespace
from tests.factories import ContactFactory, NamespaceFactory, UserFactory, grant

pytestmark = pytest.mark.django_db


@pytest.fixture
def carol():
    return UserFactory(username="carol")


def revoke_own(user, *perms: str) -> Namespace:
    own = Namespace.objects.get(key=f"user:{user.username}")
    for perm in perms or ("view_namespace", "write_namespace"):
        remove_perm(perm, user, own)
    return own


# --- the primitives ------------------------------------------------------------------------------


def test_invisible_answers_exactly_like_missing_and_visible_read_only_is_denied(carol):
    other = NamespaceFactory(key="team:other")
    with pytest.raises(NotFound) as invisible:
        layer.get_for_user(Namespace, carol, "view", key="team:other", not_found="Namespace gone.")
    with pytest.raises(NotFound) as missing:
        layer.get_for_user(Namespace, carol, "view", key="team:none", not_found="Namespace gone.")
    assert invisible.value.message == missing.value.message == "Namespace gone."
    assign_perm("view_namespace", carol, other)
    assert layer.get_for_user(Namespace, carol, "view", key="team:other", not_found="x") == other
    with pytest.raises(Forbidden):
        layer.get_for_user(Namespace, carol, "change", key="team:other", not_found="x", denied="read only")


def test_a_malformed_lookup_is_not_found_too(carol):
    with pytest.raises(NotFound):
        layer.get_for_user(Memory, carol, "view", id="not-a-number", not_found="Memory not-a-number not found.")


def test_a_model_without_a_policy_fails_closed(carol):
    from django.contrib.auth.models import Group

    with pytest.raises(LookupError):
        layer.restrict(Group, carol, "view")


def test_restrict_by_object_and_by_model_permission_and_never_for_inactive_users(carol):
    mine = ensure_user_namespace(carol)
    other = NamespaceFactory(key="team:other")
    assert list(layer.restrict(Namespace, carol, "view")) == [mine]
    grant(carol, "memories.view_namespace")
    carol = type(carol).objects.get(pk=carol.pk)  # Django caches model permissions per instance
    assert set(layer.restrict(Namespace, carol, "view")) >= {mine, other}
    assert list(layer.restrict(Namespace, carol, "change")) == [mine]
    carol.is_active = False
    assert not layer.restrict(Namespace, carol, "view").exists()
    assert not layer.allows(carol, mine, "view")


def test_memories_carry_their_namespaces_permissions(carol):
    team = NamespaceFactory(key="team:x")
    memory = services.add_memory(actor=carol, namespace=team, content="A team fact.", run_async=False)
    assert not layer.restrict(Memory, carol, "view").filter(pk=memory.pk).exists()
    assign_perm("view_namespace", carol, team)
    assert layer.restrict(Memory, carol, "view").filter(pk=memory.pk).exists()
    assert layer.allows(carol, memory, "view") and not layer.allows(carol, memory, "change")


def test_a_cached_checker_sees_a_revocation_at_once(carol):
    own = ensure_user_namespace(carol)
    assert layer.allows(carol, own, "change")  # cached on this user instance
    remove_perm("write_namespace", carol, own)
    assert not layer.allows(carol, own, "change")


def test_the_common_case_costs_one_query(carol):
    """Own namespace and own memory: the row and the caller's permissions on it in one query (the
    cost before the own namespace was checked at all)."""
    own = ensure_user_namespace(carol)
    memory = services.add_memory(actor=carol, namespace=own, content="Carol likes figs.", run_async=False)
    carol = type(carol).objects.get(pk=carol.pk)
    with CaptureQueriesContext(connection) as queries:
        assert resolve_namespace(carol, None, write=True) == own
        assert get_memory(carol, memory.id, write=True) == memory
    assert len(queries) == 2, [q["sql"] for q in queries]


def test_the_precompiled_lookup_gives_what_the_orm_gives(carol):
    """get_for_user by a unique field runs one precompiled statement (fetch_unique): the same
    row, the same direct permissions, the same answers as prepare + filter + first."""
    other = NamespaceFactory(key="team:fast")
    assign_perm("view_namespace", carol, other)
    policy = layer.policy_for(Namespace)
    for lookup in ({"key": "team:fast"}, {"pk": other.pk}, {"id": other.pk}):
        fast = policy.fetch_unique(Namespace.objects.all(), carol, lookup)
        slow = policy.prepare(Namespace.objects.all(), carol).filter(**lookup).first()
        assert fast == slow == other
        assert [getattr(fast, f.attname) for f in Namespace._meta.concrete_fields] == [
            getattr(slow, f.attname) for f in Namespace._meta.concrete_fields
        ]
        assert (
            sorted(getattr(fast, layer.DIRECT_PERMS)) == sorted(getattr(slow, layer.DIRECT_PERMS)) == ["view_namespace"]
        )
    assert policy.fetch_unique(Namespace.objects.all(), carol, {"key": "team:none"}) is None
    # Not a unique field, a filtered queryset, a via policy: the ORM answers as before.
    assert policy.fetch_unique(Namespace.objects.all(), carol, {"kind": "team"}) is NotImplemented
    assert policy.fetch_unique(Namespace.objects.filter(kind="team"), carol, {"key": "team:fast"}) is NotImplemented
    assert layer.policy_for(Memory).fetch_unique(Memory.objects.all(), carol, {"id": 1}) is NotImplemented


def test_the_precompiled_lookup_converts_values_like_the_orm(carol):
    """A contact's JSON custom fields come back as a dict, as every other field as the ORM gives it."""
    from contacts.models import Contact

    contact = ContactFactory(custom_fields={"birthday": "04-02"}, tags=["vip"])
    assign_perm("contacts.view_contact", carol, contact)
    fast = layer.get_for_user(Contact, carol, "view", id=contact.id, not_found="gone")
    slow = Contact.objects.get(id=contact.id)
    assert fast.custom_fields == {"birthday": "04-02"}
    for field in Contact._meta.concrete_fields:
        assert getattr(fast, field.attname) == getattr(slow, field.attname), field.name


@pytest.mark.parametrize("value", [2**63, -(2**63) - 1, 10**30, "12x", None])
def test_an_out_of_range_or_malformed_key_is_not_found(carol, value):
    with pytest.raises(NotFound):
        layer.get_for_user(Namespace, carol, "view", pk=value, not_found="gone")


# --- finding 3: the own namespace is a default, not an exemption -----------------------------------


def test_a_new_user_still_gets_their_namespace_with_both_permissions():
    dave = UserFactory(username="dave")
    own = Namespace.objects.get(key="user:dave")
    assert layer.allows(dave, own, "view") and layer.allows(dave, own, "change")
    assert resolve_namespace(dave, None, write=True) == own


def test_a_revoked_own_namespace_answers_like_any_namespace_without_permission(carol, client_for):
    memory = services.add_memory(
        actor=carol, namespace=ensure_user_namespace(carol), content="Carol's boat is Nimbus.", run_async=False
    )
    stranger = NamespaceFactory(key="team:stranger")
    assert stranger  # exists, and carol holds nothing on it
    revoke_own(carol)
    client = client_for(carol)
    calls = [
        ("/api/v1/memories/remember", {"text": "Carol moved to Porto."}),
        ("/api/v1/memories", {"content": "Carol moved to Porto."}),
        ("/api/v1/memories/search", {"query": "boat"}),
        ("/api/v1/assistant/tools/remember/invoke", {"arguments": {"text": "Carol moved to Porto."}}),
        ("/api/v1/assistant/tools/add_memory/invoke", {"arguments": {"content": "Carol moved to Porto."}}),
        ("/api/v1/assistant/tools/search_memory/invoke", {"arguments": {"query": "boat"}}),
    ]
    for path, body in calls:
        own = client.post(path, body, format="json")
        assert own.status_code == 404, (path, own.json())
        assert own.json()["error"] == {"code": "NOT_FOUND", "message": "Namespace 'user:carol' not found."}
        # Naming another namespace it holds nothing on answers the same way.
        other_body = {**body, "namespace": "team:stranger"}
        if "arguments" in body:
            other_body = {"arguments": {**body["arguments"], "namespace": "team:stranger"}}
        other = client.post(path, other_body, format="json")
        assert other.status_code == 404
        assert other.json()["error"]["message"] == "Namespace 'team:stranger' not found."
    assert client.get(f"/api/v1/memories/{memory.id}").status_code == 404
    assert not Memory.objects.filter(text="Carol moved to Porto.").exists()
    assert [n["key"] for n in client.get("/api/v1/namespaces").json()] == []

    turn = client.post(
        "/api/v1/assistant/turns",
        {"session_id": "s1", "messages": [{"role": "user", "content": "I moved to Porto."}]},
        format="json",
    ).json()
    assert turn["memories"] == {
        "stored": [],
        "skipped": [{"message_index": 0, "code": "NOT_FOUND", "reason": "Namespace 'user:carol' not found."}],
    }
    session = client.post("/api/v1/assistant/session", {"message": "What is my boat called?"}, format="json")
    assert session.status_code == 200
    assert "Nimbus" not in session.json()["system_prompt"]
    assert "Relevant memories" not in session.json()["system_prompt"]
    # Revoking changed nothing else: the namespace is still there, with no permission restored.
    assert not layer.allows(carol, Namespace.objects.get(key="user:carol"), "view")


def test_a_read_only_own_namespace_reads_but_refuses_writes(carol, client_for):
    services.add_memory(
        actor=carol, namespace=ensure_user_namespace(carol), content="Carol's boat is Nimbus.", run_async=False
    )
    revoke_own(carol, "write_namespace")
    client = client_for(carol)
    refused = client.post("/api/v1/memories/remember", {"text": "Carol moved."}, format="json")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "PERMISSION_DENIED"
    found = client.post("/api/v1/memories/search", {"query": "Nimbus boat"}, format="json")
    assert found.status_code == 200 and found.json()["results"]
    session = client.post("/api/v1/assistant/session", {"message": "What is my boat called?"}, format="json")
    assert "Nimbus" in session.json()["system_prompt"]


# --- finding 12: agent namespaces cannot be squatted ----------------------------------------------

SUBAGENT_TURN = {
    "session_id": "s1",
    "agent_name": "research_subagent",
    "messages": [{"role": "assistant", "content": "Done."}],
    "tool_calls": [{"name": "search_memory", "arguments": {"query": "maps"}, "status": "success"}],
}


def test_the_same_agent_name_gives_each_user_their_own_skills(client_for):
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    first = client_for(alice).post("/api/v1/assistant/turns", SUBAGENT_TURN, format="json").json()["skill"]
    second = client_for(bob).post("/api/v1/assistant/turns", SUBAGENT_TURN, format="json").json()["skill"]
    assert first["namespace"] == "agent:research_subagent/alice"
    assert second["namespace"] == "agent:research_subagent/bob"
    assert Memory.objects.get(id=second["memory_id"]).namespace.owner == bob
    assert "alice" not in str(second)
    # Each sees only their own agent namespace.
    assert not layer.allows(bob, Namespace.objects.get(key="agent:research_subagent/alice"), "view")


def test_a_shared_agent_namespace_is_used_only_by_those_granted(client_for):
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    shared = Namespace.objects.create(key="agent:research_subagent", kind="agent")  # staff-created
    assign_perm("view_namespace", bob, shared)
    assign_perm("write_namespace", bob, shared)
    granted = client_for(bob).post("/api/v1/assistant/turns", SUBAGENT_TURN, format="json").json()["skill"]
    assert granted["namespace"] == "agent:research_subagent"
    # alice's answer is the same whether or not a shared namespace of that name exists.
    with_shared = client_for(alice).post("/api/v1/assistant/turns", SUBAGENT_TURN, format="json").json()["skill"]
    shared.memories.all().delete()
    shared.delete()
    without = (
        client_for(alice)
        .post("/api/v1/assistant/turns", {**SUBAGENT_TURN, "session_id": "s2"}, format="json")
        .json()["skill"]
    )
    assert with_shared["namespace"] == without["namespace"] == "agent:research_subagent/alice"


def test_a_squatted_agent_key_reveals_nothing(client_for):
    """Someone else's namespace with the per-user key of alice's agent: skipped, naming only
    alice's own key, worded like a revoked one."""
    alice, mallory = UserFactory(username="alice"), UserFactory(username="mallory")
    Namespace.objects.create(key="agent:research_subagent/alice", kind="agent", owner=mallory)
    skill = client_for(alice).post("/api/v1/assistant/turns", SUBAGENT_TURN, format="json").json()["skill"]
    assert skill == {"skipped": "Namespace 'agent:research_subagent/alice' not found."}
    assert "mallory" not in str(skill)


# --- finding 11 and sessions: someone else's answers exactly like missing ---------------------------


def test_someone_elses_event_answers_exactly_like_a_missing_one(client_for):
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    memory = services.add_memory(actor=alice, namespace=ensure_user_namespace(alice), content="A fact.")
    foreign = client_for(bob).get(f"/api/v1/memories/events/{memory.event_id}")
    missing_id = uuid.uuid4()
    missing = client_for(bob).get(f"/api/v1/memories/events/{missing_id}")
    assert foreign.status_code == missing.status_code == 404
    assert foreign.json()["error"]["message"] == f"Event {memory.event_id} not found."
    assert missing.json()["error"]["message"] == f"Event {missing_id} not found."
    # The memory's id is not named (the event id, which the caller sent, may contain its digits).
    assert str(memory.id) not in foreign.content.decode().replace(str(memory.event_id), "")
    assert client_for(alice).get(f"/api/v1/memories/events/{memory.event_id}").status_code == 200


def test_someone_elses_session_answers_like_a_missing_one(client_for):
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    session = AssistantSession.objects.create(user=alice)
    answer = client_for(bob).post("/api/v1/assistant/session", {"session_id": str(session.id)}, format="json")
    assert answer.status_code == 404
    assert answer.json()["error"]["message"] == f"Session {session.id} not found."
    mine = client_for(alice).post("/api/v1/assistant/session", {"session_id": str(session.id)}, format="json")
    assert mine.status_code == 200


def test_a_superuser_does_not_resume_other_peoples_sessions(client_for):
    alice = UserFactory(username="alice")
    root = UserFactory(username="root", is_superuser=True, is_staff=True)
    session = AssistantSession.objects.create(user=alice)
    assert (
        client_for(root).post("/api/v1/assistant/session", {"session_id": str(session.id)}, format="json").status_code
        == 404
    )


def test_contact_child_rows_carry_the_contacts_permissions():
    from tests.factories import ContactNoteFactory

    viewer = UserFactory(username="viewer")
    contact = ContactFactory()
    note = ContactNoteFactory(contact=contact)
    assert not layer.allows(viewer, note, "view")
    assign_perm("view_contact", viewer, contact)
    assert layer.allows(viewer, note, "view") and not layer.allows(viewer, note, "change")
    assert list(layer.restrict(type(note), viewer, "change")) == []
