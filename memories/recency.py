"""Questions about the present: the cue that makes search prefer the newer of its candidates.

"Who is the current owner of the dashboard?", "Where does Ana live now?": when a fact was said
twice, first one value and later another, the later statement answers such a question and the
earlier one looks just as relevant to both search arms (the same words, the same meaning). For a
query that asks about the present, the hybrid ranking adds a small share for how recent each
candidate is: its ``valid_from``, or when it was stored without one (memories.selectors,
``MNEMO_SEARCH_PRESENT_RECENCY``). Chosen by the
leave-one-data-set-out screen over seven retrieval sets and confirmed, as written down before, on
an eighth none of it had seen (bench/NOTES.md, 2026-11-27; docs/benchmarks.md).

English words only, as the keyword arm's stemming is English: a question in another language is
ranked as any other.
"""

from __future__ import annotations

import re

#: Whole words that ask "as of now" (bench/NOTES.md's pre-registered list; any case).
CUE_WORDS = frozenset({"current", "currently", "now", "nowadays", "present", "latest", "still"})
#: Phrases that ask the same, as sequences of whole words.
CUE_PHRASES: tuple[tuple[str, ...], ...] = (("these", "days"), ("at", "the", "moment"))
_WORD = re.compile(r"[a-z]+")


def asks_about_present(query: str) -> bool:
    """Whether ``query`` holds one of the cue words or phrases as whole words ("now", not
    "known"). One pass over the query's words: linear in its length."""
    words = _WORD.findall(query.lower())
    if CUE_WORDS.intersection(words):
        return True
    return any(
        tuple(words[i : i + len(phrase)]) == phrase
        for phrase in CUE_PHRASES
        for i in range(len(words) - len(phrase) + 1)
    )
