"""bench/retrieval/ns_stats.py's variant: inside it, the search reads the searched namespace's word
statistics as its kind says, and outside it the shipped functions are back."""

import pytest
from django.test import override_settings

from bench.retrieval import ns_stats
from memories import selectors, services
from memories.permissions import ensure_user_namespace


@pytest.fixture
def namespace(user):
    ns = ensure_user_namespace(user)
    texts = [f"Saltfern note {i}: the {w} step is done." for i, w in enumerate(["build", "lint", "deploy", "review"])]
    for text in [*texts, "Lunch was good.", "Weather is grey.", "Coffee again.", "Back at six."]:
        services.remember(actor=user, namespace=ns, text=text, dedup_policy="insert")
    ns_stats._shares.clear()
    selectors.forget_namespace_stats()
    return ns


@pytest.mark.django_db
@override_settings(MNEMO_KEYWORD_SCAN_LIMIT=2, MNEMO_KEYWORD_COMMON_FREQUENCY=0.3)
@pytest.mark.parametrize("kind", ["shares", "scan"])
def test_the_variant_reads_the_namespace_and_puts_the_shipped_functions_back(namespace, kind, monkeypatch):
    shipped = (selectors.word_frequencies, selectors.search_features, selectors.query_word_weights)
    monkeypatch.setattr(ns_stats, "KIND", [kind])
    shares = ns_stats.namespace_shares(namespace.id)
    assert shares["saltfern"] == pytest.approx(0.5) and shares["lunch"] == pytest.approx(0.125)
    with ns_stats.variant():
        assert selectors.word_frequencies is not shipped[0]
        ns_stats._current.append(namespace.id)
        try:
            seen = selectors.word_frequencies()
        finally:
            ns_stats._current.pop()
    assert (selectors.word_frequencies, selectors.search_features, selectors.query_word_weights) == shipped
    if kind == "shares":
        assert seen == shares
    else:
        # a word over the common bar (30% here: "saltfern", "note", "step", "done", in 4 of 8) reads
        # as the share its capped scan would count (2 of 8), every other word as the table's statistics
        common = {w for w, share in shares.items() if share > 0.3}
        assert common >= {"saltfern", "note", "step", "done"} and "lunch" not in common
        assert seen == selectors.word_frequencies() | {w: 2 / 8 for w in common}


@pytest.mark.django_db
def test_the_cosine_variant_orders_each_scan_and_puts_the_statement_back(monkeypatch):
    shipped = selectors._WORDS
    monkeypatch.setattr(ns_stats, "KIND", ["cosine"])
    with ns_stats.variant():
        assert shipped.replace("            LIMIT %(scan)s", ns_stats.COSINE_ORDER) == selectors._WORDS
        assert "ORDER BY m.embedding <=> (SELECT v FROM qv), m.id" in selectors._WORDS
    assert selectors._WORDS is shipped
