"""What a process counts about a namespace (its size, its common words) follows the namespace's
growth: a small namespace is counted again after SMALL_NAMESPACE_STATS_SECONDS, a large one after
NAMESPACE_STATS_SECONDS, and what this process itself stores is counted at once (note_stored).
Regression: remember counted the namespace's size when it held one memory (to plan its candidate
statement), search trusted that count for a minute, and the keyword arm's weights and common words
were those of a one-memory namespace (the peers benchmark's R@10 0.74 → 0.57); with a few seconds
of trust, a search right after a fast load still read the load's first count (the fourth
retrieval data set's first read, bench/NOTES.md)."""

import pytest
from django.test import override_settings

from memories import selectors
from memories.models import Memory
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


def _stored_elsewhere(namespace, n: int) -> None:
    """Live memories written as another process would: nothing tells this one."""
    Memory.objects.bulk_create(
        [Memory(namespace=namespace, text=f"Elsewhere {i}.", status=Memory.Status.READY) for i in range(n)]
    )


def test_what_this_process_remembers_is_counted_at_once(user, token_client, clock):
    namespace = ensure_user_namespace(user)
    _remember(token_client, FACTS[0])  # counted before its own row went in: 0, then one more
    for fact in FACTS[1:]:
        _remember(token_client, fact)
    assert selectors.namespace_size([namespace.pk]) == len(FACTS)


def test_a_small_namespace_is_counted_again_after_a_few_seconds(user, token_client, clock):
    namespace = ensure_user_namespace(user)
    _remember(token_client, FACTS[0])
    _stored_elsewhere(namespace, 5)
    assert selectors.namespace_size([namespace.pk]) == 1  # trusted for a few seconds
    clock[0] += A_FEW_SECONDS
    assert selectors.namespace_size([namespace.pk]) == 6


def test_a_large_namespace_is_trusted_for_a_minute(user, token_client, clock):
    namespace = ensure_user_namespace(user)
    with override_settings(MNEMO_SEARCH_EXACT_MAX=-1):  # every namespace counts as large, even an empty one
        _remember(token_client, FACTS[0])
        _remember(token_client, FACTS[1])
        _stored_elsewhere(namespace, 3)
        clock[0] += A_FEW_SECONDS
        assert selectors.namespace_size([namespace.pk]) == 2
        clock[0] += selectors.NAMESPACE_STATS_SECONDS
        assert selectors.namespace_size([namespace.pk]) == 5


def test_common_words_are_counted_again_once_the_namespace_grew_by_a_quarter(user, token_client, clock):
    namespace = ensure_user_namespace(user)
    for fact in FACTS[:2]:
        _remember(token_client, fact)
    assert "marta" in selectors.common_lexemes([namespace.pk])  # in both memories
    for fact in FACTS[2:]:
        _remember(token_client, fact)
    grown = selectors.common_lexemes([namespace.pk])
    selectors.forget_namespace_stats()
    assert grown == selectors.common_lexemes([namespace.pk])


@pytest.mark.parametrize("wait", [0.0, A_FEW_SECONDS])
def test_search_after_a_namespace_grew_ranks_as_a_fresh_process_does(user, token_client, clock, wait):
    # remember counts the namespace when it holds one memory; a search right after the rest were
    # added, or a few seconds later, must rank and score as if nothing had been counted before.
    _remember(token_client, FACTS[0])
    for fact in FACTS[1:]:
        _remember(token_client, fact)
    clock[0] += wait
    queries = ["What is Marta's favourite tea?", "Who is Marta's landlord?", "Marta's cat"]
    grown = [_hits(token_client, q) for q in queries]
    selectors.forget_namespace_stats()
    fresh = [_hits(token_client, q) for q in queries]
    assert grown == fresh
