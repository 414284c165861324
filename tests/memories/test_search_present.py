"""Search's recency for questions about the present (memories.recency, MNEMO_SEARCH_PRESENT_RECENCY):
of two statements of a fact, a question asking "now" gets the later one first, whichever came
first, "later" by when the fact took effect (valid_from) or, without one, when it was stored; any
other question, and the arms' own modes, rank by content alone."""

import json
import math
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import override_settings
from django.utils import timezone

from memories import selectors, services
from memories.models import Memory
from memories.permissions import ensure_user_namespace
from memories.recency import asks_about_present

URL = "/api/v1/memories/search"


@pytest.mark.parametrize(
    "query",
    [
        "Where does Ana live now?",
        "who is the CURRENT owner",
        "What is her latest job",
        "does he still play chess",
        "what does she do these days",
        "Who runs it at the moment?",
        "Where is Ana living at present?",
        "Nowadays, who cooks?",
        "now-ish",  # hyphens split words: "now" is a whole word there
    ],
)
def test_these_ask_about_the_present(query):
    assert asks_about_present(query)


@pytest.mark.parametrize(
    "query",
    ["Where did Ana live?", "a known issue", "the presentation", "these are the days", "at the moments", ""],
)
def test_these_do_not(query):
    # whole words only ("known", "presentation"), phrases in order and whole ("at the moments")
    assert not asks_about_present(query)


def _store(user, texts, filler=True):
    namespace = ensure_user_namespace(user)
    before = ["Ana's sister is called Lucia.", "Ana plays the cello on Sundays."] if filler else []
    for text in [*before, *texts]:
        services.remember(actor=user, namespace=namespace, text=text, dedup_policy="insert")
    return namespace


def _top(client, query, mode="hybrid"):
    response = client.post(URL, {"query": query, "mode": mode, "min_score": 0, "limit": 10}, format="json")
    assert response.status_code == 200, response.json()
    return response.json()["results"]


@pytest.mark.django_db
@pytest.mark.parametrize("cities", [("Paris", "Berlin"), ("Berlin", "Paris")])
def test_a_question_about_the_present_gets_the_later_statement_first(token_client, user, cities):
    # The two statements alone, undated: the newer is 1 in time rank, the older 0 (the weight's whole span;
    # among many candidates two statements are further apart the more was said between them).
    _store(user, [f"Ana lives in {city}." for city in cities], filler=False)
    later = cities[1]
    assert later in _top(token_client, "Where does Ana live now?")[0]["text"]
    assert later in _top(token_client, "Which city is Ana living in these days?")[0]["text"]


@pytest.mark.django_db
def test_without_the_cue_or_the_setting_content_alone_decides(token_client, user, django_user_model, client_for):
    """The same facts stored in both orders: a question without the cue, and a cued one with the
    weight at 0, give the same city first in both namespaces; the arms' own modes answer a cued
    question as they did before the weight existed."""
    other = django_user_model.objects.create_user("other-present", password="x")
    _store(user, ["Ana lives in Paris.", "Ana lives in Berlin."], filler=False)
    _store(other, ["Ana lives in Berlin.", "Ana lives in Paris."], filler=False)
    clients = [token_client, client_for(other)]
    plain = [_top(c, "Where does Ana live?")[0]["text"] for c in clients]
    assert plain[0] == plain[1]
    with override_settings(MNEMO_SEARCH_PRESENT_RECENCY=0):
        assert [_top(c, "Where does Ana live now?")[0]["text"] for c in clients] == plain
        arms = {mode: _top(token_client, "Where does Ana live now?", mode) for mode in ("vector", "keyword")}
    for mode, before in arms.items():
        assert _top(token_client, "Where does Ana live now?", mode) == before


@pytest.mark.django_db
def test_the_cued_order_and_score_follow_the_documented_ranking(token_client, user):
    """hybrid_ranking with the time rank (undated memories: their storage order; 0 for the oldest
    candidate, 1 for the newest, times the weight), and the calibrated score of that value: every
    memory is a candidate here."""
    namespace = _store(user, ["Ana lives in Paris.", "Ana works at a bakery.", "Ana lives in Berlin."])
    results = _top(token_client, "Where does Ana live now?")
    assert len(results) == Memory.objects.filter(namespace=namespace).count() == 5
    assert selectors.present_recency("Where does Ana live now?", "hybrid") == 0.2
    _assert_documented_ranking(results, "Where does Ana live now?", sorted(r["id"] for r in results))


def _assert_documented_ranking(results, query, in_time):
    """The results' order and scores are hybrid_ranking's with each one's rank in ``in_time`` (ids,
    oldest first) scaled to [0, 1] and weighted, and the calibration of that value."""
    second = selectors.runner_up([r["keyword_coverage"] for r in results])
    weight = selectors.present_recency(query, "hybrid")
    values = [
        selectors.hybrid_ranking(
            r["similarity"], r["keyword_coverage"], second, weight * in_time.index(r["id"]) / (len(in_time) - 1)
        )
        for r in results
    ]
    assert values == sorted(values, reverse=True)
    cal = selectors.CALIBRATION["hybrid"]
    for r, z in zip(results, values, strict=True):
        expected = 1 / (1 + math.exp(-(cal.alpha * z + cal.gamma * values[0] + cal.beta)))
        assert r["score"] == pytest.approx(expected, abs=2e-3)


def _remember(client, text, days_ago=None):
    body = {"text": text, "dedup_policy": "insert"}
    if days_ago is not None:
        body["valid_from"] = (timezone.now() - timedelta(days=days_ago)).isoformat()
    response = client.post("/api/v1/memories/remember", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()["memory_id"]


@pytest.mark.django_db
@pytest.mark.parametrize("dated", ["first", "second"])
def test_a_fact_dated_earlier_counts_as_older_whenever_it_was_stored(token_client, user, dated):
    """Time is valid_from, or when stored: a fact given (over REST) a valid_from before the other's
    storing is the older one, whether it was stored before or after it. Storage order alone put
    an imported "Paris, since 2019" first whenever it was stored second."""
    texts = [("Ana lives in Paris.", 2000), ("Ana lives in Berlin.", None)]
    for text, days_ago in texts if dated == "first" else texts[::-1]:
        _remember(token_client, text, days_ago)
    assert "Berlin" in _top(token_client, "Where does Ana live now?")[0]["text"]


@pytest.mark.django_db
def test_the_time_rank_is_valid_from_else_when_stored(token_client, user):
    """The documented ranking with memories dated and undated, stored out of time order: the
    candidates' order and scores follow hybrid_ranking with each one's rank by valid_from, or by
    when it was stored without one (two dated facts older than everything stored, then the undated
    ones in storage order)."""
    ids = {
        "Lucia": _remember(token_client, "Ana's sister is called Lucia."),
        "Lisbon": _remember(token_client, "Ana lives in Lisbon.", 1000),
        "cello": _remember(token_client, "Ana plays the cello on Sundays."),
        "Paris": _remember(token_client, "Ana lives in Paris.", 2000),
        "Berlin": _remember(token_client, "Ana lives in Berlin."),
    }
    in_time = [ids[k] for k in ("Paris", "Lisbon", "Lucia", "cello", "Berlin")]
    assert in_time != sorted(in_time)  # not storage order: the test tells the two apart
    query = "Which city does Ana currently live in?"
    results = _top(token_client, query)
    assert sorted(r["id"] for r in results) == sorted(in_time)
    _assert_documented_ranking(results, query, in_time)


@pytest.mark.django_db
@pytest.mark.parametrize("order", ["older first", "older last"])
def test_imported_memories_rank_by_their_exported_created_at(token_client, user, tmp_path, order):
    """import_memories puts an exported created_at back: the memory first stored later is the newer
    one, whichever line the import wrote first."""
    key = ensure_user_namespace(user).key
    lines = [
        {"namespace": key, "text": "Ana lives in Paris.", "created_at": "2020-01-01T00:00:00Z"},
        {"namespace": key, "text": "Ana lives in Berlin.", "created_at": "2025-06-01T00:00:00Z"},
    ]
    path = tmp_path / "export.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in (lines if order == "older first" else lines[::-1])))
    call_command("import_memories", str(path), stdout=StringIO(), stderr=StringIO())
    assert Memory.objects.filter(namespace__key=key, status="ready").count() == 2
    assert "Berlin" in _top(token_client, "Where does Ana live now?")[0]["text"]
