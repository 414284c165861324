"""What a process counts about a namespace (its size, its common words) follows the namespace's
growth: a small namespace is counted again after SMALL_NAMESPACE_STATS_SECONDS, a large one after
NAMESPACE_STATS_SECONDS. Regression: remember counted the namespace's size when it held one memory
(to plan its candidate statement), search trusted that count for a minute, and the keyword arm's
weights and common words were those of a one-memory namespace (the peers benchmark's R@10 0.74 →
0.57)."""

import pytest
from django.test import override_settings

from memories import selectors
from memories.permissions import ensure_user_namespace

pytestmark = pytest.mark.django_db
REMEMBER, SEARCH = "/api/v1/memories/remember", "/api/v1/memories/search"
FACTS = [
    f"Marta's {thing} is {value}."
    for thing, value in [
        ("favourite tea", "jasmine"),
        ("bike", "a blue Gazelle"),
        ("dentist", "Dr. Okafor on Elm Street"),
        ("sister", "called Ines"),
        ("gym", "open until ten"),
        ("landlord", "Mr. Brandt"),
        ("car", "a red Fiat"),
        ("favourite film", "Paris, Texas"),
        ("running route", "along the canal"),
        ("piano teacher", "Ms. Varga"),
        ("allergy", "hazelnuts"),
        ("cat", "named Pixel"),
    ]
]


#: Later than a small namespace's count is trusted, well before a large one's is recounted.
A_FEW_SECONDS = 5.0


@pytest.fixture
def clock(monkeypatch):
    assert selectors.SMALL_NAMESPACE_STATS_SECONDS < A_FEW_SECONDS < selectors.NAMESPACE_STATS_SECONDS
    now = [1000.0]
    monkeypatch.setattr(selectors, "_clock", lambda: now[0])
    return now


def _remember(client, text: str) -> None:
    response = client.post(REMEMBER, {"text": text, "dedup_policy": "insert"}, format="json")
    assert response.status_code == 201, response.content


def _hits(client, query: str) -> list[tuple[int, float]]:
    response = client.post(SEARCH, {"query": query, "limit": 10, "min_score": 0}, format="json")
    assert response.status_code == 200, response.content
    return [(hit["id"], hit["score"]) for hit in response.json()["results"]]


def test_a_small_namespace_is_counted_again_after_a_few_seconds(user, token_client, clock):
    namespace = ensure_user_namespace(user)
    _remember(token_client, FACTS[0])  # counted before its own row went in: 0
    for fact in FACTS[1:]:
        _remember(token_client, fact)
    assert selectors.namespace_size([namespace.pk]) == 0  # trusted for a few seconds
    clock[0] += A_FEW_SECONDS
    assert selectors.namespace_size([namespace.pk]) == len(FACTS)


def test_a_large_namespace_is_trusted_for_a_minute(user, token_client, clock):
    namespace = ensure_user_namespace(user)
    with override_settings(MNEMO_SEARCH_EXACT_MAX=-1):  # every namespace counts as large, even an empty one
        _remember(token_client, FACTS[0])  # counted before its own row went in: 0
        _remember(token_client, FACTS[1])
        clock[0] += A_FEW_SECONDS
        assert selectors.namespace_size([namespace.pk]) == 0
        clock[0] += selectors.NAMESPACE_STATS_SECONDS
        assert selectors.namespace_size([namespace.pk]) == 2


def test_search_after_a_namespace_grew_ranks_as_a_fresh_process_does(user, token_client, clock):
    # remember counts the namespace when it holds one memory; a search a few seconds after the
    # rest were added must rank and score as if nothing had been counted before.
    _remember(token_client, FACTS[0])
    for fact in FACTS[1:]:
        _remember(token_client, fact)
    clock[0] += A_FEW_SECONDS
    queries = ["What is Marta's favourite tea?", "Who is Marta's landlord?", "Marta's cat"]
    grown = [_hits(token_client, q) for q in queries]
    selectors.forget_namespace_stats()
    fresh = [_hits(token_client, q) for q in queries]
    assert grown == fresh
