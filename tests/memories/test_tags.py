"""Tag normalization: lowercase canonical forms, de-duplicated and sorted."""

import pytest

from memories.tags import normalize_tag, normalize_tags


@pytest.mark.parametrize(
    ("raw", "canonical"),
    [
        ("family", "family"),
        ("Family", "family"),
        ("  FAMILY  ", "family"),
        ("los angeles", "los-angeles"),
        ("Los   Angeles", "los-angeles"),
        ("los_angeles", "los-angeles"),
        ("Los__Angeles", "los-angeles"),
        ("los _ angeles", "los-angeles"),
        ("tab\tseparated", "tab-separated"),
        ("new\nline", "new-line"),
        ("already-dashed", "already-dashed"),
        ("double--dash", "double-dash"),
        ("-leading", "leading"),
        ("trailing_", "trailing"),
        ("Q4 Budget", "q4-budget"),
        ("ÜBER Café", "über-café"),
        ("C++", "c++"),
        ("v2.0", "v2.0"),
        ("", ""),
        ("   ", ""),
        ("_", ""),
    ],
)
def test_canonical_forms(raw, canonical):
    assert normalize_tag(raw) == canonical


def test_lists_are_deduplicated_sorted_and_emptied_of_blanks():
    assert normalize_tags(["Work", "family", " work ", "FAMILY", "", "  ", "a_b", "A B"]) == ["a-b", "family", "work"]


def test_an_overlong_tag_is_refused():
    with pytest.raises(ValueError, match="longer than 64"):
        normalize_tags(["x" * 65])


def test_too_many_tags_are_refused():
    with pytest.raises(ValueError, match="at most 50"):
        normalize_tags([f"t{i}" for i in range(51)])
