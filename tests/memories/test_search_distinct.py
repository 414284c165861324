"""Search returns each text once (memories.selectors._DISTINCT): remember's default policy stores a
fact told again beside its older copy, and copies of one text tie on both arms' evidence, so a
top k could otherwise be one text k times. Of a text's copies the best-scored is kept, then the
newest; scores are what the text scores; filters apply first, so a copy they leave out cannot
stand for one they keep. Through every entrance, one contract (REST, tools, RPC, MCP).

Real PostgreSQL with pgvector and the real embedder.
"""

from __future__ import annotations

import pytest

from memories import selectors, services
from memories.permissions import ensure_user_namespace
from tests.memories.test_time_aware import ENTRANCES

pytestmark = pytest.mark.django_db

TOLD_AGAIN = "Ana keeps a tortoise called Humphrey in the garden."
OTHERS = [
    "Ana's tortoise Humphrey eats dandelions and strawberries.",
    "Ana built a wooden shelter for the tortoise last spring.",
    "Ana's neighbour has two cats that ignore the tortoise.",
    "Ana plays the cello on Sundays.",
]
QUERY = "What is the name of Ana's tortoise?"


def _store(user, copies: int = 3, tags_of_copy: dict[int, list[str]] | None = None) -> tuple[list[int], list[int]]:
    """The told-again text ``copies`` times, the others between its copies, all with
    dedup_policy "ask" (the default: a copy is stored and reported, not refused)."""
    namespace = ensure_user_namespace(user)
    copy_ids, other_ids = [], []
    for i in range(copies):
        tags = (tags_of_copy or {}).get(i, [])
        result = services.remember(actor=user, namespace=namespace, text=TOLD_AGAIN, tags=tags)
        copy_ids.append(result.memory_id)
        if i < len(OTHERS):
            other_ids.append(services.remember(actor=user, namespace=namespace, text=OTHERS[i]).memory_id)
    for text in OTHERS[copies:]:
        other_ids.append(services.remember(actor=user, namespace=namespace, text=text).memory_id)
    return copy_ids, other_ids


@pytest.mark.parametrize("mode", ["hybrid", "vector", "keyword"])
def test_a_text_told_three_times_is_one_result_the_newest_copy(user, mode):
    copies, others = _store(user)
    namespace = ensure_user_namespace(user)
    hits = selectors.search_memories(namespace_ids=[namespace.id], query=QUERY, limit=10, mode=mode, min_score=0)
    texts = [h.memory.text for h in hits]
    assert texts.count(TOLD_AGAIN) == 1
    assert len(texts) == len(set(texts))
    kept = next(h for h in hits if h.memory.text == TOLD_AGAIN)
    assert kept.memory.id == max(copies)
    # the other texts still fill the list: the copies' places went to them, not to nothing
    assert {h.memory.id for h in hits if h.memory.text != TOLD_AGAIN} >= {
        i
        for i in others
        if i
        in {
            c[0]
            for c in selectors.search_features(
                namespace_ids=[namespace.id], query=QUERY, query_vector=_vector(namespace.id), limit=10, mode=mode
            )
        }
    }


def _vector(namespace_id: int) -> list[float]:
    from memories.embedding import embed_texts

    return embed_texts([selectors.embedding_text(namespace_ids=[namespace_id], query=QUERY)])[0]


def test_the_list_is_the_ranking_of_the_candidates_with_each_text_once(user):
    """The hits are the statement's candidates ranked as documented (hybrid_ranking over all of
    them, copies included: they count in the runner-up coverage and the best value), each text
    once at its best copy's place, the newest of tied copies, and the copies' own numbers."""
    from memories.models import Memory

    namespace = ensure_user_namespace(user)
    _store(user)
    rows = selectors.search_features(
        namespace_ids=[namespace.id], query=QUERY, query_vector=_vector(namespace.id), limit=10
    )
    texts = dict(Memory.objects.filter(id__in=[r[0] for r in rows]).values_list("id", "text"))
    second = selectors.runner_up([r[2] for r in rows])
    z = {r[0]: selectors.hybrid_ranking(r[1], r[2], second) for r in rows}
    best: dict[str, int] = {}
    for memory_id in sorted(z, key=lambda i: (-z[i], i)):
        text = texts[memory_id]
        if text not in best or (z[memory_id], memory_id) > (z[best[text]], best[text]):
            best[text] = memory_id
    expected = sorted(best.values(), key=lambda i: (-z[i], i))[:10]
    hits = selectors.search_memories(namespace_ids=[namespace.id], query=QUERY, limit=10, min_score=0)
    assert [h.memory.id for h in hits] == expected
    numbers = {r[0]: (round(r[1], 4), round(r[2], 4)) for r in rows}
    assert [(h.similarity, h.coverage) for h in hits] == [numbers[i] for i in expected]
    # and the case is the one meant: the text's copies were candidates, and tie
    copies = [r for r in rows if texts[r[0]] == TOLD_AGAIN]
    assert len(copies) == 3 and len({(r[1], r[2]) for r in copies}) == 1


def test_filters_apply_before_copies_are_collapsed(user):
    """A tag only the oldest copy has: that copy is found, not hidden behind a newer untagged one."""
    copies, _ = _store(user, tags_of_copy={0: ["pets"]})
    namespace = ensure_user_namespace(user)
    hits = selectors.search_memories(
        namespace_ids=[namespace.id],
        query=QUERY,
        limit=10,
        min_score=0,
        filters=selectors.SearchFilters(tags=["pets"]),
    )
    assert [h.memory.id for h in hits] == [copies[0]]


def test_a_copy_under_the_floor_does_not_stand_in_for_the_text(user):
    """The floor applies to the text's best copy: all copies score alike, so either all pass or none."""
    namespace = ensure_user_namespace(user)
    _store(user)
    hits = selectors.search_memories(namespace_ids=[namespace.id], query=QUERY, limit=10, min_score=0)
    told = next(h for h in hits if h.memory.text == TOLD_AGAIN)
    # (a hit's score is rounded to 4 places)
    above = selectors.search_memories(
        namespace_ids=[namespace.id], query=QUERY, limit=10, min_score=told.score - 0.0001
    )
    assert TOLD_AGAIN in [h.memory.text for h in above]
    below = selectors.search_memories(
        namespace_ids=[namespace.id], query=QUERY, limit=10, min_score=min(told.score + 0.0001, 1.0)
    )
    assert TOLD_AGAIN not in [h.memory.text for h in below]


@pytest.mark.parametrize("door", list(ENTRANCES))
def test_every_entrance_returns_the_text_once(user, door):
    copies, _ = _store(user)
    ok, body = ENTRANCES[door](user, "search_memory", {"query": QUERY, "limit": 10, "min_score": 0})
    assert ok, body
    results = body["results"]
    texts = [r.get("text", r.get("memory")) for r in results]
    assert texts.count(TOLD_AGAIN) == 1, texts
    assert [r.get("id", r.get("memory_id")) for r in results if r.get("text", r.get("memory")) == TOLD_AGAIN] == [
        max(copies)
    ]
