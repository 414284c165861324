"""POST /memories/search: hybrid ranking, filters, what never appears, the text form, k rows."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test import override_settings
from django.utils import timezone

from memories import selectors, services
from memories.models import Memory, Namespace
from memories.permissions import ensure_user_namespace
from memories.selectors import forget_namespace_stats, search_memories

pytestmark = pytest.mark.django_db
URL = "/api/v1/memories/search"


@pytest.fixture
def ns(user):
    return ensure_user_namespace(user)


def add(user, ns, text, **metadata):
    return services.add_memory(actor=user, namespace=ns, content=text, metadata=metadata, run_async=False)


def search(client, **body):
    body.setdefault("min_score", 0)  # these tests are about filters and ranks, not the score floor
    response = client.post(URL, body, format="json")
    assert response.status_code == 200, response.json()
    return response.json()["results"]


def test_results_carry_the_documented_fields_and_scores_in_0_1(token_client, user, ns):
    add(user, ns, "Sarah Johnson is the VP of Engineering at TechCorp", category="contacts")
    add(user, ns, "User prefers afternoon meetings")
    results = search(token_client, query="who is the engineering lead")
    assert set(results[0]) == {
        "id",
        "text",
        "score",
        "similarity",
        "keyword_coverage",
        "tags",
        "metadata",
        "created_at",
        "last_confirmed_at",
        "valid_from",
        "valid_until",
    }
    assert results[0]["text"].startswith("Sarah Johnson")
    assert results[0]["metadata"] == {"category": "contacts"}
    scores = [r["score"] for r in results]
    assert all(0 <= s <= 1 for s in scores) and scores == sorted(scores, reverse=True)


def test_default_limit_is_5_and_max_is_100(token_client, user, ns):
    for i in range(8):
        add(user, ns, f"Fact {i}: user likes colour number {i}")
    assert len(search(token_client, query="colour")) == 5
    assert len(search(token_client, query="colour", limit=7)) == 7
    response = token_client.post(URL, {"query": "colour", "limit": 101}, format="json")
    assert response.status_code == 400 and response.json()["error"]["code"] == "INVALID_INPUT"


def test_expired_forgotten_and_unembedded_memories_never_appear(
    token_client, user, ns, django_capture_on_commit_callbacks
):
    live = add(user, ns, "User's favourite tea is oolong")
    expired = add(user, ns, "User's favourite tea is green tea")
    Memory.objects.filter(id=expired.id).update(expires_at=timezone.now() - timedelta(minutes=1))
    forgotten = add(user, ns, "User's favourite tea is earl grey")
    services.forget_memory(actor=user, memory=forgotten, reason="wrong")
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        queued = services.add_memory(actor=user, namespace=ns, content="User's favourite tea is sencha")
    ids = {r["id"] for r in search(token_client, query="favourite tea", limit=100)}
    assert ids == {live.id}
    callbacks[0]()  # embedded now: it appears
    ids = {r["id"] for r in search(token_client, query="favourite tea", limit=100)}
    assert ids == {live.id, queued.id}


def test_a_memory_expiring_in_the_future_appears(token_client, user, ns):
    soon = add(user, ns, "User is in Berlin this week")
    Memory.objects.filter(id=soon.id).update(expires_at=timezone.now() + timedelta(days=2))
    assert [r["id"] for r in search(token_client, query="Berlin")] == [soon.id]


def test_tag_filters_any_and_all(token_client, user, ns):
    a = services.remember(actor=user, namespace=ns, text="Standup at 9", tags=["work", "daily"]).memory_id
    b = services.remember(actor=user, namespace=ns, text="Gym at 7", tags=["health", "daily"]).memory_id
    c = services.remember(actor=user, namespace=ns, text="Quarterly review", tags=["work"]).memory_id
    assert {r["id"] for r in search(token_client, query="schedule", tags=["Work"], limit=10)} == {a, c}
    assert {
        r["id"] for r in search(token_client, query="schedule", tags=["work", "daily"], tags_mode="all", limit=10)
    } == {a}
    assert {r["id"] for r in search(token_client, query="schedule", tags=["daily"], limit=10)} == {a, b}


def test_metadata_filters(token_client, user, ns):
    x = add(user, ns, "Note x about projects", category="work", priority=3, labels=["q4", "budget"], owner="Sam Lee")
    y = add(user, ns, "Note y about projects", category="home", priority=1, labels=["garden"], owner="Ana")
    z = add(user, ns, "Note z about projects", priority=5)

    def ids(**metadata):
        return {r["id"] for r in search(token_client, query="projects", metadata=metadata, limit=10)}

    assert ids(category="work") == {x.id}
    assert ids(category={"eq": "home"}) == {y.id}
    assert ids(category={"ne": "work"}) == {y.id, z.id}
    assert ids(category={"in": ["work", "home"]}) == {x.id, y.id}
    assert ids(labels={"contains": "budget"}) == {x.id}
    assert ids(owner={"contains": "lee"}) == {x.id}
    assert ids(priority={"gt": 2}) == {x.id, z.id}
    assert ids(priority={"lt": 3}) == {y.id}
    assert ids(priority={"gt": 1, "lt": 5}) == {x.id}


@pytest.mark.parametrize(
    "metadata",
    [{"k": {"in": "notalist"}}, {"k": {"gt": [1]}}, {"k": {"gt": True}}, {"k": {"eq": 1, "like": 2}}],
)
def test_bad_metadata_filters_are_invalid_input(token_client, metadata):
    response = token_client.post(URL, {"query": "x", "metadata": metadata}, format="json")
    assert response.status_code == 400 and response.json()["error"]["code"] == "INVALID_INPUT"


def test_created_after_and_before(token_client, user, ns):
    old = add(user, ns, "Old fact about kites")
    new = add(user, ns, "New fact about kites")
    Memory.objects.filter(id=old.id).update(created_at=timezone.now() - timedelta(days=10))
    cutoff = (timezone.now() - timedelta(days=1)).isoformat()
    assert [r["id"] for r in search(token_client, query="kites", created_after=cutoff)] == [new.id]
    assert [r["id"] for r in search(token_client, query="kites", created_before=cutoff)] == [old.id]


def test_text_format_follows_seed_002(token_client, user, ns):
    add(user, ns, "User prefers afternoon meetings")
    response = token_client.post(URL, {"query": "meeting time preferences", "format": "text"}, format="json")
    text = response.json()["text"]
    assert text.startswith("Found the following memories:\n\n1. User prefers afternoon meetings (score: ")
    assert text.endswith(")\n\n")
    empty = token_client.post(
        URL, {"query": "anything", "namespace": ns.key, "format": "text", "tags": ["nothing-has-this"]}, format="json"
    )
    assert empty.json()["text"] == "No matching memories found"


def test_namespaces_do_not_interfere(user):
    """Seed 002: user memories and agent skills live apart."""
    user_ns = ensure_user_namespace(user)
    agent_ns = Namespace.objects.create(key="agent:gmail_subagent", kind="agent")
    add(user, user_ns, "User prefers dark mode")
    skill = add(user, agent_ns, "Search with sender: syntax works best")
    assert [h.memory.id for h in search_memories(namespace_ids=[agent_ns.id], query="search patterns")] == [skill.id]
    assert skill.id not in [h.memory.id for h in search_memories(namespace_ids=[user_ns.id], query="search patterns")]


def test_keyword_mode_and_vector_mode(token_client, user, ns):
    code = add(user, ns, "User's Linear team ID is TEAM-123")
    add(user, ns, "User's Linear team ID used to be TEAM-132")
    assert search(token_client, query="TEAM-123", mode="keyword")[0]["id"] == code.id
    assert len(search(token_client, query="which team is the user in", mode="vector")) == 2


@pytest.mark.django_db(transaction=True)
def test_a_small_namespace_in_a_large_table_still_gets_k_rows(user):
    """HNSW finds neighbours first and filters after: without iterative scans a namespace holding
    10 of 5,010 rows would get (almost) none of its 10 back. This proves the search returns them."""
    big = Namespace.objects.create(key="agent:big", kind="agent")
    small = ensure_user_namespace(user)
    with connection.cursor() as cursor:
        cursor.execute(
            """
            INSERT INTO memories_memory (namespace_id, text, embedding, embedding_model, status, event_id, error,
                created_at, updated_at, tags, source_provider, importance, capture_mode, session_id,
                last_confirmed_at, metadata)
            SELECT %s, 'filler ' || i,
                   (SELECT array_agg(random() - 0.5 + g * 0 + i * 0) FROM generate_series(1, 384) AS g)::vector,
                   'synthetic', 'ready', gen_random_uuid(), '', now(), now(), '{}', '', 0.5, '', '', now(), '{}'
              FROM generate_series(1, 5000) AS i
            """,
            [big.id],
        )
    for i in range(10):
        add(user, small, f"Small namespace fact number {i} about the user's garden")
    from memories.embedding import embed_texts
    from memories.selectors import _vector_literal

    query = _vector_literal(embed_texts(["qzxv plorb"])[0])
    with connection.cursor() as cursor:
        # The planner would often pick an exact scan for so small a namespace; forbid sorting so
        # that it must walk the HNSW index, the case that loses rows.
        cursor.execute("SET enable_sort = off")
        try:
            cursor.execute("SET hnsw.iterative_scan = off")
            cursor.execute(
                "EXPLAIN SELECT id FROM memories_memory WHERE namespace_id = %s "
                "ORDER BY embedding <=> %s::vector LIMIT 10",
                [small.id, query],
            )
            assert "memory_embedding_hnsw" in " ".join(row[0] for row in cursor.fetchall())
            cursor.execute(
                "SELECT count(*) FROM (SELECT id FROM memories_memory WHERE namespace_id = %s "
                "ORDER BY embedding <=> %s::vector LIMIT 10) t",
                [small.id, query],
            )
            without_iterative_scans = cursor.fetchone()[0]
            cursor.execute("RESET hnsw.iterative_scan")
            # through the HNSW index (the plan for large namespaces, forced here) and by the plan
            # chosen for so small a namespace (an exact scan of its vectors)
            selectors.forget_namespace_stats()
            with override_settings(MNEMO_SEARCH_EXACT_MAX=0):
                assert selectors.search_plan([small.id]) == "hnsw"
                hits = search_memories(namespace_ids=[small.id], query="qzxv plorb", limit=10, mode="vector")
            selectors.forget_namespace_stats()
            assert selectors.search_plan([small.id]) == "exact"
            exact_hits = search_memories(namespace_ids=[small.id], query="qzxv plorb", limit=10, mode="vector")
        finally:
            cursor.execute("RESET enable_sort")
            cursor.execute("RESET hnsw.iterative_scan")
    assert without_iterative_scans < 10  # the scenario really is the hard one
    assert len(hits) == 10
    assert {h.memory.namespace_id for h in hits} == {small.id}
    assert [h.memory.id for h in exact_hits] == [h.memory.id for h in sorted(hits, key=lambda h: -h.similarity)]


def test_the_end_of_a_long_memory_is_found_by_hybrid_search(token_client, user, ns):
    filler = " ".join(["The quarterly report covered budgets, hiring and the office move."] * 240)
    ending = " She finally moved to Ljubljana."
    long_memory = add(user, ns, (filler[: 16000 - len(ending)] + ending))
    add(user, ns, "I visited Zagreb and Vienna last spring.")
    assert search(token_client, query="Ljubljana")[0]["id"] == long_memory.id


@override_settings(MNEMO_KEYWORD_SCAN_LIMIT=20)
def test_a_rare_word_is_found_even_when_a_common_word_matches_more_than_the_scan_limit(user, ns):
    rows = Memory.objects.bulk_create(
        Memory(namespace=ns, text=f"User has a meeting about topic number {i}") for i in range(60)
    )
    from memories.services import embed_queued_memories

    embed_queued_memories(ids=[r.id for r in rows])
    ticket = add(user, ns, "The meeting about ticket PLAT-4471 moved to Thursday")
    hits = search_memories(namespace_ids=[ns.id], query="meeting PLAT-4471", limit=3, mode="keyword")
    assert hits[0].memory.id == ticket.id


def test_words_in_most_memories_are_left_out_of_the_keyword_side(user, ns):
    rows = Memory.objects.bulk_create(
        Memory(namespace=ns, text=f"User has a meeting about topic number {i}") for i in range(80)
    )
    from django.db import connection

    from memories.services import embed_queued_memories

    embed_queued_memories(ids=[r.id for r in rows])
    ticket = add(user, ns, "Ticket PLAT-4471 moved to Thursday")
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE memories_memory")
    forget_namespace_stats()  # the statistics changed now: no need to wait for the minute's cache
    # "meeting" is in almost every memory: it says nothing, and the code still finds its memory.
    assert search_memories(namespace_ids=[ns.id], query="meeting", limit=3, mode="keyword") == []
    hits = search_memories(namespace_ids=[ns.id], query="meeting PLAT-4471", limit=3, mode="keyword")
    assert [h.memory.id for h in hits] == [ticket.id]


def test_a_hit_is_the_stored_memory_field_for_field(user, ns):
    """Search builds its memories from its own rows (selectors._memories_from_rows): every field
    it loads has the value and the type the ORM gives, and the vector is left deferred."""
    stored = services.add_memory(
        actor=user,
        namespace=ns,
        content="Keeps a sourdough starter named Clint in the fridge",
        metadata={"kind": "hobby", "since": 2019, "nested": {"a": [1, 2]}},
        run_async=False,
    )
    Memory.objects.filter(pk=stored.pk).update(
        expires_at=timezone.now() + timedelta(days=3), tags=["baking", "home"], importance=0.75
    )
    [hit] = search_memories(namespace_ids=[ns.id], query="sourdough starter", limit=1)
    expected = Memory.objects.get(pk=stored.pk)
    loaded = hit.memory
    assert loaded.get_deferred_fields() == {"embedding", "search_vector"}
    for field in Memory._meta.concrete_fields:
        if field.attname in {"embedding", "search_vector"}:
            continue
        got, want = getattr(loaded, field.attname), getattr(expected, field.attname)
        assert got == want and type(got) is type(want), field.name
    assert loaded.metadata["nested"] == {"a": [1, 2]} and loaded.expires_at.tzinfo is not None
    assert loaded._state.adding is False and loaded._state.db == "default"


def test_a_hit_is_what_memory_from_db_makes_and_init_signals_are_honoured(user, ns):
    """The hit's memory is made by filling its ``__dict__`` (selectors._memory_from_values): the
    same attributes, in the same order, as ``Memory.from_db`` gives for the same row, and a
    deferred column still loads on access. With a ``post_init`` receiver for Memory (which
    ``Model.__init__`` would call), search takes Django's own path and the receiver sees each hit."""
    from django.db.models.signals import post_init

    stored = services.add_memory(
        actor=user, namespace=ns, content="Keeps a sourdough starter named Clint", run_async=False
    )
    [hit] = search_memories(namespace_ids=[ns.id], query="sourdough starter", limit=1)
    row = {f.attname: getattr(hit.memory, f.attname) for f in selectors._RESULT_FIELDS}
    reference = Memory.from_db("default", selectors._RESULT_ATTNAMES, [row[n] for n in row])
    assert [k for k in hit.memory.__dict__ if k != "_state"] == [k for k in reference.__dict__ if k != "_state"]
    assert {k: v for k, v in hit.memory.__dict__.items() if k != "_state"} == {
        k: v for k, v in reference.__dict__.items() if k != "_state"
    }
    assert hit.memory.embedding is not None  # the deferred vector loads on access, as from_db's would

    seen: list[int] = []

    def receiver(sender, instance, **kwargs):
        seen.append(instance.pk)

    post_init.connect(receiver, sender=Memory)
    try:
        [again] = search_memories(namespace_ids=[ns.id], query="sourdough starter", limit=1)
    finally:
        post_init.disconnect(receiver, sender=Memory)
    assert again.memory.pk == stored.pk and seen == [stored.pk]
