"""The answerability check (memories/answerable.py, MNEMO_ANSWERABLE_CHECK): a question about a
person or thing no memory mentions gets no hits; an answerable one keeps its hits, in the same
order; the check reads the hits' text in linear time."""

import re
import statistics
import time

import pytest
from django.test import override_settings
from hypothesis import given, settings
from hypothesis import strategies as st

from memories import answerable, selectors, services
from memories.permissions import ensure_user_namespace

FACTS = [
    "Sarah Johnson is the VP of Engineering at TechCorp",
    "User prefers afternoon meetings, never before 10am",
    "The user's dog Biscuit is a golden retriever",
    "User is allergic to peanuts",
    "User's Linear team ID is TEAM-123",
    "User flies to Lisbon on June 22 for the conference",
    "User has been baking sourdough bread every weekend",
    "User's sister Maren runs a pottery studio in Bergen",
]


def test_stems_match_the_words_they_came_from_by_prefix():
    terms = ["bake", "parti", "kraków", "oxford", "ox", "see", "se", "horse", "cat"]
    holding = answerable.held(terms, ["I was baking for the parties in Kraków, see Oxford", "two cats; a category"])
    assert "bake" in holding  # Porter: baking -> bake
    assert "parti" in holding  # parties -> parti
    assert {"kraków", "oxford", "see"} <= holding
    assert "ox" not in holding and "se" not in holding  # a short stem must be a whole word
    assert "cat" in holding  # ... or that word with an s ("cats"), never a longer word ("category")
    assert "horse" not in holding


def _held_by_every_prefix(terms, texts):
    """The definition :func:`answerable.held` keeps, written the plain way: every word and every
    prefix of it in a set, each term looked up."""
    words = set()
    for text in texts:
        for word in re.findall(r"\w+", text.lower()):
            words.add(word)
            words.update(
                ">" + word[:n] for n in range(answerable.PREFIX_MIN - 1, min(len(word), answerable.PREFIX_MAX) + 1)
            )
    out = set()
    for t in terms:
        if len(t) < answerable.PREFIX_MIN:
            found = t in words or t + "s" in words
        else:
            found = ">" + (t[:-1] if t[-1] in "eiy" else t)[: answerable.PREFIX_MAX] in words
        if found:
            out.add(t)
    return out


@settings(max_examples=300, deadline=None)
@given(
    terms=st.lists(st.text(alphabet="abcdeiosyé", min_size=1, max_size=13), max_size=6),
    texts=st.lists(st.text(alphabet="abcdeiosyé ,'-_1Aé", max_size=80), max_size=5),
)
def test_held_finds_what_every_prefix_would(terms, texts):
    assert answerable.held(terms, texts) == _held_by_every_prefix(terms, texts)


def test_named_key_terms_are_the_capitalised_ones_after_the_first_word():
    query = "Which marathon did Zara win in Boston?"
    stems = [(), ("marathon",), (), ("zara",), ("win",), (), ("boston",)]
    keys = answerable.key_terms(query, ["marathon", "zara", "win", "boston"], stems, frozenset({"bruno"}))
    assert keys.terms == ("marathon", "zara", "win", "boston")
    assert keys.named == frozenset({"zara", "boston"}) and not keys.knows_a_name
    f = answerable.features(keys, ["Bruno: ran the city marathon last week!"], best_score=0.3)
    assert f.missing == pytest.approx(3 / 4) and f.named_missing


def test_a_query_naming_someone_the_namespace_knows_has_no_named_key_terms():
    # Bruno is one of the people talking (a common word of the namespace): the question is about
    # him, and Boston is its framing, which the vector arm may answer by meaning.
    query = "Which marathon did Bruno win in Boston?"
    stems = [(), ("marathon",), (), ("bruno",), ("win",), (), ("boston",)]
    keys = answerable.key_terms(query, ["marathon", "bruno", "win", "boston"], stems, frozenset({"bruno"}))
    assert keys.terms == ("marathon", "win", "boston")  # the namespace's common words are not key
    assert keys.named == frozenset() and keys.knows_a_name
    f = answerable.features(keys, ["Bruno: ran the city marathon last week!"], best_score=0.3)
    assert f.missing == pytest.approx(2 / 3) and not f.named_missing
    # a known word at the start of the query is not a name written inside it
    stems = [("bruno",), (), ("win",), (), ("boston",)]
    keys = answerable.key_terms("Bruno did win in Boston", ["bruno", "win", "boston"], stems, frozenset({"bruno"}))
    assert keys.named == frozenset({"boston"}) and not keys.knows_a_name


def _median_seconds(fn, repeats=5):
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


@pytest.mark.parametrize(
    "make",
    [
        lambda n: "a" * n,  # one endless word: at most PREFIX_MAX prefixes of it
        lambda n: "ab " * (n // 3),  # many short words
        lambda n: "x'" * (n // 2),  # apostrophes splitting every letter
        lambda n: "Straße_ünïcödé " * (n // 15),  # Unicode words and underscores
        lambda n: "-" * n,  # no word at all
    ],
)
def test_reading_the_hits_is_linear_in_their_length(make):
    n = 40_000
    keys = answerable.KeyTerms(("horse", "vienna", "aaaaaaaaaaaaaaaaaaaa"), frozenset({"vienna"}))
    small = [make(n)] * 10
    large = [make(8 * n)] * 10
    t1 = _median_seconds(lambda: answerable.features(keys, small, 0.5))
    t8 = _median_seconds(lambda: answerable.features(keys, large, 0.5))
    # linear: about 8 times; quadratic would be 64
    assert t8 < 20 * max(t1, 1e-4), (t1, t8)


@pytest.fixture
def ns(user):
    namespace = ensure_user_namespace(user)
    for text in FACTS:
        services.remember(actor=user, namespace=namespace, text=text, dedup_policy="insert")
    return namespace


@pytest.mark.django_db
def test_a_question_about_someone_never_mentioned_is_silenced(ns):
    query = "When did Bartholomew go skydiving in Vienna?"
    hits = selectors.search_memories(namespace_ids=[ns.id], query=query, limit=5)
    assert hits  # the search alone answers it with its nearest memories
    assert selectors.search_memories(namespace_ids=[ns.id], query=query, limit=5, answerable_check=True) == []


@pytest.mark.django_db
@pytest.mark.parametrize(
    "query",
    [
        "What breed is the user's dog Biscuit?",
        "Where does Maren have her pottery studio?",
        "When does the user fly to Lisbon?",
        "What does the user bake at the weekend?",
    ],
)
def test_an_answerable_question_keeps_its_hits_in_order(ns, query):
    hits = selectors.search_memories(namespace_ids=[ns.id], query=query, limit=5)
    gated = selectors.search_memories(namespace_ids=[ns.id], query=query, limit=5, answerable_check=True)
    assert [h.memory.id for h in gated] == [h.memory.id for h in hits] and gated


@pytest.mark.django_db
def test_other_modes_are_not_gated(ns):
    query = "When did Bartholomew go skydiving in Vienna?"
    assert selectors.search_memories(namespace_ids=[ns.id], query=query, limit=5, mode="vector", answerable_check=True)


@pytest.mark.django_db
def test_the_default_floor_runs_the_check_and_an_explicit_min_score_does_not(ns, user, client_for):
    """Over REST (the one search operation every door uses): no ``min_score`` means the default
    floor with the check; a caller's own ``min_score`` (0: the top k whatever they are) is exactly
    that cut; MNEMO_ANSWERABLE_CHECK=false turns the check off."""
    never = {"query": "When did Bartholomew go skydiving in Vienna?"}
    client = client_for(user)

    def found(body):
        response = client.post("/api/v1/memories/search", body, format="json")
        assert response.status_code == 200, response.content
        return response.json()["results"]

    assert found(never) == []
    text = client.post("/api/v1/memories/search", never | {"format": "text"}, format="json").json()
    assert "No matching memories found" in str(text)
    assert found(never | {"min_score": 0})
    assert found(never | {"min_score": 0.005})
    with override_settings(MNEMO_ANSWERABLE_CHECK=False):
        assert found(never)
    # an answerable question, and one naming someone the namespace knows, keep their hits
    assert found({"query": "Where does Maren have her pottery studio?"})
