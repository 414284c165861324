"""Search scores on their documented scale, the arms' evidence, min_score (REST, the tool, the
session prompt) and the search plan chosen by the namespace's size."""

import math

import pytest
from django.test import override_settings

from memories import selectors, services
from memories.models import Memory, Namespace
from memories.permissions import ensure_user_namespace
from tests.assistant.conftest import client_for

pytestmark = pytest.mark.django_db
URL = "/api/v1/memories/search"
FACTS = [
    "Sarah Johnson is the VP of Engineering at TechCorp",
    "User prefers afternoon meetings, never before 10am",
    "The user's dog Biscuit is a golden retriever",
    "User is allergic to peanuts",
    "User's Linear team ID is TEAM-123",
    "User flies to Lisbon on June 22 for the conference",
]
NEVER_STORED = "When did the user go skydiving?"
# The floor docs/benchmarks.md gives a caller who prefers silence: most questions about things never
# stored find nothing at it (and a sixth to a third of conversational answers are lost); the default
# floor is far lower, chosen to cost little recall.
QUIET = 0.15


@pytest.fixture
def ns(user):
    namespace = ensure_user_namespace(user)
    for text in FACTS:
        services.remember(actor=user, namespace=namespace, text=text, dedup_policy="insert")
    return namespace


def post(client, **body):
    response = client.post(URL, body, format="json")
    assert response.status_code == 200, response.json()
    return response.json()


@pytest.mark.parametrize("mode", ["hybrid", "vector", "keyword"])
@pytest.mark.parametrize("query", ["who leads engineering", "TEAM-123", "Biscuit", "meeting time", NEVER_STORED])
def test_scores_and_evidence_are_in_their_documented_ranges(token_client, ns, mode, query):
    results = post(token_client, query=query, mode=mode, min_score=0, limit=10)["results"]
    scores = [r["score"] for r in results]
    assert scores == sorted(scores, reverse=True)
    for r in results:
        assert 0 <= r["score"] <= 1
        if mode == "keyword":
            assert r["similarity"] is None
        else:
            assert -1 <= r["similarity"] <= 1
        if mode == "vector":
            assert r["keyword_coverage"] is None
        else:
            assert 0 <= r["keyword_coverage"] <= 1


@pytest.mark.parametrize("query", ["who leads engineering", "Biscuit the dog", "meeting time", "peanut allergy"])
def test_the_hybrid_order_and_score_follow_the_documented_ranking(token_client, ns, query):
    """The statement ranks by hybrid_ranking(similarity, keyword_coverage, the second-best
    coverage among the candidates), and the score is the
    calibration of that value and of the search's best one (every candidate comes back here: the
    namespace is smaller than the limit): the benchmark tools (crossval) compute them the same way."""
    results = post(token_client, query=query, min_score=0, limit=10)["results"]
    assert len(results) == len(FACTS)
    second = selectors.runner_up([r["keyword_coverage"] for r in results])
    values = [selectors.hybrid_ranking(r["similarity"], r["keyword_coverage"], second) for r in results]
    assert values == sorted(values, reverse=True)
    cal = selectors.CALIBRATION["hybrid"]
    for r, z in zip(results, values, strict=True):
        expected = 1 / (1 + math.exp(-(cal.alpha * z + cal.gamma * values[0] + cal.beta)))
        assert r["score"] == pytest.approx(expected, abs=2e-3)


def test_the_score_is_comparable_across_queries(token_client, ns):
    """A clear answer scores high whatever the query; a query about nothing stored scores low."""
    exact = post(token_client, query="What is the name of the user's dog?", min_score=0)["results"]
    assert exact[0]["text"].startswith("The user's dog Biscuit") and exact[0]["score"] > max(
        3 * exact[1]["score"], QUIET
    )
    code = post(token_client, query="TEAM-123", min_score=0)["results"][0]
    assert code["text"].endswith("TEAM-123") and code["score"] > 0.5 and code["keyword_coverage"] == 1.0
    nothing = post(token_client, query=NEVER_STORED, min_score=0)["results"]
    assert nothing and nothing[0]["score"] < QUIET < exact[0]["score"]


def test_the_default_floor_keeps_weak_neighbours_and_a_quiet_floor_gives_the_seed_002_empty_answer(token_client, ns):
    # the default floor keeps what scores at least as much and drops the rest; it is low on purpose
    # (it may cost at most 2 points of R@10 out of sample: bench/retrieval/crossval.py), so a
    # question about something never stored still gets its weak neighbours
    floor = selectors.min_score_or_default(None)
    every = post(token_client, query=NEVER_STORED, min_score=0, limit=10)["results"]
    kept = post(token_client, query=NEVER_STORED, limit=10)["results"]
    assert kept == [r for r in every if r["score"] >= floor] and kept
    # a caller who prefers silence asks for it; a real question still gets its answer
    assert post(token_client, query=NEVER_STORED, min_score=QUIET, format="text")["text"] == (
        "No matching memories found"
    )
    assert post(token_client, query=NEVER_STORED, min_score=QUIET)["results"] == []
    found = post(token_client, query="which team ID does the user have in Linear", min_score=QUIET, format="text")
    assert found["text"].startswith("Found the following memories:\n\n1. User's Linear team ID is TEAM-123 (score: ")


def test_min_score_filters_on_the_score(token_client, ns):
    every = post(token_client, query="user preferences", min_score=0, limit=10)["results"]
    # a floor between two results' scores (they are rounded to 4 places)
    gaps = [i for i in range(1, len(every)) if every[i - 1]["score"] > every[i]["score"] + 0.0002]
    middle = gaps[len(gaps) // 2]
    floor = (every[middle - 1]["score"] + every[middle]["score"]) / 2
    kept = post(token_client, query="user preferences", min_score=floor, limit=10)["results"]
    assert kept == [r for r in every if r["score"] >= floor]
    assert post(token_client, query="user preferences", min_score=1, limit=10)["results"] == []


@pytest.mark.parametrize("bad", [-0.1, 1.5, "high", [0.3], False, True, "0.5", "NaN"])
def test_a_bad_min_score_is_invalid_input(token_client, bad):
    response = token_client.post(URL, {"query": "x", "min_score": bad}, format="json")
    assert response.status_code == 400 and response.json()["error"]["code"] == "INVALID_INPUT"


def test_min_score_through_the_search_memory_tool(user, ns):
    client = client_for(user)

    def invoke(**arguments):
        response = client.post("/api/v1/assistant/tools/search_memory/invoke", {"arguments": arguments}, format="json")
        assert response.status_code == 200, response.json()
        return response.json()["result"]

    assert invoke(query=NEVER_STORED, min_score=QUIET)["text"] == "No matching memories found"
    assert invoke(query=NEVER_STORED, min_score=0)["results"]
    hit = invoke(query="TEAM-123", min_score=0.5)["results"]
    assert [r["text"] for r in hit] == ["User's Linear team ID is TEAM-123"]


def test_the_session_prompt_recalls_by_score(user, ns, settings):
    from assistant.services.build_system_prompt_service import relevant_memories

    settings.MNEMO_PROMPT_MIN_SCORE = QUIET
    assert relevant_memories(user=user, message=NEVER_STORED) == []
    assert "User's Linear team ID is TEAM-123" in relevant_memories(user=user, message="what is my Linear team ID?")
    settings.MNEMO_PROMPT_MIN_SCORE = 0.0
    assert relevant_memories(user=user, message=NEVER_STORED)


def test_the_plan_follows_the_namespace_size(user, ns):
    selectors.forget_namespace_stats()
    with override_settings(MNEMO_SEARCH_EXACT_MAX=len(FACTS)):
        assert selectors.search_plan([ns.id]) == "exact"
    selectors.forget_namespace_stats()
    with override_settings(MNEMO_SEARCH_EXACT_MAX=len(FACTS) - 1):
        assert selectors.search_plan([ns.id]) == "hnsw"
    selectors.forget_namespace_stats()


@pytest.mark.parametrize("exact_max", [0, 10_000])
@pytest.mark.parametrize("mode", ["hybrid", "vector"])
def test_both_plans_return_the_right_rows(user, ns, exact_max, mode):
    other = Namespace.objects.create(key="agent:other", kind="agent")
    services.remember(actor=user, namespace=other, text="The user's dog Biscuit is a golden retriever")
    selectors.forget_namespace_stats()
    with override_settings(MNEMO_SEARCH_EXACT_MAX=exact_max):
        assert selectors.search_plan([ns.id]) == ("hnsw" if exact_max == 0 else "exact")
        hits = selectors.search_memories(namespace_ids=[ns.id], query="what breed is the dog", limit=10, mode=mode)
    selectors.forget_namespace_stats()
    assert hits[0].memory.text == "The user's dog Biscuit is a golden retriever"
    assert {h.memory.namespace_id for h in hits} == {ns.id} and len(hits) == len(FACTS)


def test_an_index_walk_that_comes_back_short_is_completed_exactly():
    """The HNSW plan: when the index walk returns fewer candidates than the namespace holds (an
    island of identical vectors, or a walk cut short), the vector arm finds them exactly."""
    import numpy as np
    from django.db import connection

    rng = np.random.default_rng(7)

    def vectors(n: int) -> np.ndarray:
        v = rng.normal(size=(n, 384)).astype(np.float32)
        return v / np.linalg.norm(v, axis=1, keepdims=True)

    target = Namespace.objects.create(key="agent:target", kind="agent")
    crowd = Namespace.objects.create(key="agent:crowd", kind="agent")
    mine, theirs = vectors(60), vectors(1500)
    Memory.objects.bulk_create(
        [
            Memory(namespace=namespace, text=f"{name} {i}", embedding=v.tolist(), status="ready")
            for namespace, name, vectors_ in ((target, "target", mine), (crowd, "crowd", theirs))
            for i, v in enumerate(vectors_)
        ]
    )
    query = theirs[0].tolist()  # the walk starts among the crowd's vectors
    with connection.cursor() as cursor:
        # Cut the walk short: 10 candidates, then at most one more tuple (transaction-local).
        cursor.execute("SET LOCAL hnsw.ef_search = 10")
        cursor.execute("SET LOCAL hnsw.max_scan_tuples = 1")
        cursor.execute("SET LOCAL enable_sort = off")  # a table this small would be sorted instead
        cursor.execute(
            "SELECT count(*) FROM (SELECT id FROM memories_memory WHERE namespace_id = %s "
            "ORDER BY embedding <=> %s::vector LIMIT 50) s",
            [target.id, selectors._vector_literal(query)],
        )
        assert cursor.fetchone()[0] < 50  # the premise: the index alone comes back short
    # Nothing was counted about these namespaces yet (the suite forgets before each test).
    with override_settings(MNEMO_SEARCH_EXACT_MAX=0, MNEMO_SEARCH_CANDIDATES=50):
        assert selectors.search_plan([target.id]) == "hnsw"
        rows = selectors.search_features(namespace_ids=[target.id], query="target", query_vector=query, mode="vector")
    similarity = mine @ np.asarray(query)
    ids = dict(Memory.objects.filter(namespace=target).values_list("text", "id"))
    nearest = {ids[f"target {i}"] for i in np.argsort(-similarity)[:50]}
    # The vector arm ranks the exact 50 nearest first (what the short walk found besides is kept).
    assert {r[0] for r in rows if r[3] <= 50} == nearest
    assert {r[0] for r in rows} <= set(ids.values())


@pytest.mark.parametrize(
    ("query", "embedded"),
    [
        # The speaker's name is in every turn: the question's content decides.
        ("When did Tariq get a tattoo?", "When did get a tattoo?"),
        # Every content word is common here: embedding "the" would mean nothing; the whole query.
        ("Tariq said the thing", "Tariq said the thing"),
        ("nothing common here", "nothing common here"),
    ],
)
def test_the_query_is_embedded_without_common_words_only_while_content_is_left(query, embedded):
    ns = Namespace.objects.create(key="agent:chat", kind="agent")
    Memory.objects.bulk_create(
        [Memory(namespace=ns, text=f"Tariq: I said the thing number {i}", status="ready") for i in range(40)]
        + [Memory(namespace=ns, text=f"Maren: honestly same {i}", status="ready") for i in range(40)]
    )
    assert {"tariq", "said", "thing"} <= selectors.common_lexemes([ns.id])
    assert selectors.embedding_text(namespace_ids=[ns.id], query=query) == embedded


def test_query_word_weights_are_the_statements_idf():
    """The benchmark's per-query IDF weights: one per distinct stemmed word of the query, highest
    first, a word in one memory of 40 weighing more than one in 39, and the namespace's size."""
    ns = Namespace.objects.create(key="agent:idf", kind="agent")
    Memory.objects.bulk_create(
        [Memory(namespace=ns, text=f"we went walking on day {i}", status="ready") for i in range(39)]
        + [Memory(namespace=ns, text="we went to Cartagena", status="ready")]
    )
    n, weights = selectors.query_word_weights(namespace_ids=[ns.id], query="Walking in Cartagena, walking")
    assert n == 40
    assert len(weights) == 2 and weights == sorted(weights, reverse=True)
    assert weights[0] == pytest.approx(math.log(41 / 1.5)) and weights[1] == pytest.approx(math.log(41 / 39.5))
    assert selectors.query_word_weights(namespace_ids=[ns.id], query="the of and") == (40, [])
