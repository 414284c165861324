"""Is the question answered by the hits at all? A second-stage check on a search's top hits.

A hybrid search always returns its nearest memories, and its calibrated score cannot tell a
question about something never stored ("Which marathon did Bruno win in Boston?") from a
paraphrased one the vectors answer ("Which professional qualification did Hana get?"): both have
middling scores and query words no memory holds (bench/NOTES.md, issue 26). What separates them
may be *where* the query's informative words are: a never-stored question names a thing (a horse,
Vienna, a marathon) that none of the top hits mentions, while the top hits of an answerable one
often hold one of its informative words. Often, not always: a paraphrased question shares no word
with its answer, and a question about someone the namespace knows may name a place or a
technology that only frames it ("Would Bruno enjoy a trip to Rome?"). So a name counts only in a
query that names no one the namespace knows (:func:`key_terms`): then the check silences most
questions about subjects never mentioned (64-82% on nine data sets, 77% on the one held out) for
0-0.3 points of R@10 beyond the floor's own, and no near miss (another speaker's fact). It runs by
default on a search that gives no ``min_score`` (MNEMO_ANSWERABLE_CHECK; memories.operations.search).

The check, after fusion and the score floor, on the first ``MODEL.top_k`` (5) hits returned (all
of them when a search asks for fewer):

1. the query's **key terms**: its stemmed words as the keyword arm finds them
   (:func:`memories.selectors.query_terms`, PostgreSQL's ``english`` stemming), minus the
   namespace's common words (:func:`memories.selectors.common_lexemes`: the speakers' names,
   "said", nothing rare); a capitalised word that does not start the query marks a **named**
   key term (a place, a title, a person the namespace does not talk about), unless the query
   also names someone the namespace knows (a capitalised word among its common ones);
2. which key terms the hits' text holds: each hit's words, lower-cased, compared by the stem's
   prefix (a Porter stem is a prefix of the word it came from, once a final ``e``/``i``/``y`` is
   dropped: "bake" for "baking", "parti" for "party"; a stem under PREFIX_MIN characters must be a
   whole word), so the hits need no stemming of their own;
3. a logistic model on a few features (:data:`MODEL`, fitted in bench/retrieval/answerable.py):
   the share of key terms no top hit holds, whether a named key term is missing from them all,
   and the best hit's calibrated score. Above the fitted threshold the search answers nothing.

Cost: one pass over the query and over the top hits' text (a regex split, each word looked up by
the few prefix lengths the key terms have: :func:`held`), usually no database round trip (the query's stems
and the namespace's common words are the ones the search itself cached): about 0.1 ms a search.
English-first: the stems are PostgreSQL's English ones; other languages get their words compared
as written (lower-cased, prefix-matched), so an inflected form of a query word in a hit counts as
missing. Measured on one chat set in four languages: 0 to 0.6% of answerable questions silenced in
English, French, German and Spanish (German's capitalised nouns were 20% before known names
exempted a query: bench/NOTES.md, 2026-12-07).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

#: Words of a text: runs of letters and digits (Unicode), apostrophes split ("Hana's" → hana, s).
_WORD = re.compile(r"\w+")
#: Longest stem prefix compared: a longer stem is compared by its first PREFIX_MAX characters.
PREFIX_MAX = 10
#: Shortest prefix compared: a stem of fewer characters must be a whole word of a hit (or that
#: word with an s): "cat" must not find "category".
PREFIX_MIN = 4


@dataclass(frozen=True)
class Model:
    """P(never stored) = σ(w_missing · missing share + w_named · named missing + w_score · logit(best
    score) + bias); the search answers nothing when it is at least ``threshold``."""

    w_missing: float
    w_named: float
    w_score: float
    bias: float
    threshold: float
    top_k: int

    def probability(self, missing: float, named: bool, best_score: float) -> float:
        s = min(max(best_score, 1e-6), 1 - 1e-6)
        x = self.w_missing * missing + self.w_named * float(named) + self.w_score * math.log(s / (1 - s)) + self.bias
        return 1 / (1 + math.exp(-x))


#: Fitted by bench/retrieval/answerable.py on every question of bench/retrieval's seven read data
#: sets, scored as the search ships (fusion, calibration, default floor 0.005; the threshold the
#: lowest that costs at most 1 point of R@10 there, on top of the floor), 2026-11-27. Out of sample
#: (each set held out in turn, fitted on the six others; the other half of the conversations) it
#: silences 0-13% of never-stored questions at 0-2.6 points of R@10 (0% on five of the seven sets):
#: short of the bar to turn it on by default (MNEMO_ANSWERABLE_CHECK; bench/NOTES.md, issue 26). Those
#: were near misses; on questions about subjects never mentioned, with names the namespace knows
#: exempting a query (key_terms, 2026-12-07, not refitted), it passed that bar held out and is on.
#: The calibrated score barely separates the two kinds any more (w_score -0.08): in effect the
#: search answers nothing only when a named key term is in no top hit and the best score is under
#: 0.60 (every key term missing) to 0.017 (half of them). The model before, fitted on two sets with
#: the fusion and calibration of then: Model(1.6148, 1.997, -0.5416, -4.3131, 0.2385, 5).
MODEL = Model(w_missing=0.6855, w_named=1.1113, w_score=-0.0771, bias=-2.1504, threshold=0.4051, top_k=5)


def held(terms: Iterable[str], texts: Iterable[str]) -> set[str]:
    """The key terms (stems) some word of the texts holds: a short stem (under PREFIX_MIN
    characters) as a whole word or with an s ("cat" must not find "category"), a longer one as the
    start of a word once a final e, i or y is dropped (Porter's "bake" for "baking", "parti" for
    "party"), compared on at most PREFIX_MAX characters. Words are the texts' runs of letters and
    digits, lower-cased.

    Linear in the texts' length: each word is looked up whole and by its prefixes of the few
    lengths the terms have (one dictionary probe each). Why not every prefix of every word into a
    set, as it did: 5 times the time (123 µs against 24 per search's top 5, bench/NOTES.md
    2026-12-07), for the same answer."""
    whole: dict[str, list[str]] = {}
    prefixes: dict[str, list[str]] = {}
    for term in terms:
        if len(term) < PREFIX_MIN:
            whole.setdefault(term, []).append(term)
            whole.setdefault(term + "s", []).append(term)
        else:
            prefixes.setdefault((term[:-1] if term[-1] in "eiy" else term)[:PREFIX_MAX], []).append(term)
    lengths = sorted({len(p) for p in prefixes})
    out: set[str] = set()
    for text in texts:
        for word in _WORD.findall(text.lower()):
            out.update(whole.get(word, ()))
            for n in lengths:
                if n > len(word):
                    break
                out.update(prefixes.get(word[:n], ()))
    return out


@dataclass(frozen=True)
class KeyTerms:
    """The query's informative stems, and those of them written capitalised inside the query
    (none when the query also names someone the namespace knows: :func:`key_terms`)."""

    terms: tuple[str, ...]
    named: frozenset[str]
    #: the query names someone or something the namespace commonly talks about (a speaker)
    knows_a_name: bool = False


def key_terms(
    query: str, terms: Sequence[str], token_stems: Sequence[tuple[str, ...]], common: frozenset[str]
) -> KeyTerms:
    """``terms`` (the keyword arm's stems of the query) without the namespace's ``common`` ones;
    ``token_stems`` are the stems of ``query.split()``'s tokens, in order (to find the named
    ones: capitalised, not the first token).

    A query that also names someone the namespace knows (a capitalised word whose stem is among
    its ``common`` words: the people talking) has no named key terms. Why: such a question is
    about that someone, and the other names it holds are its framing, answered by meaning, not by
    the word: "Would Bruno enjoy a trip to Rome?" (he loves pasta), "Is Rosamund learning the
    language spoken in Brazil?" (Portuguese). Those were every answerable question the check
    silenced on bench/retrieval's eight read sets, while a question about something never stored
    names only people and things the namespace never heard of (bench/NOTES.md, issue 26)."""
    key = tuple(t for t in terms if t not in common)
    keyset = set(key)
    named: set[str] = set()
    knows = False
    for i, (token, stems) in enumerate(zip(query.split(), token_stems, strict=True)):
        word = token.strip("\"'“”‘’(")
        if i > 0 and word[:1].isupper():
            named.update(s for s in stems if s in keyset)
            knows = knows or any(s in common for s in stems)
    return KeyTerms(key, frozenset() if knows else frozenset(named), knows)


@dataclass(frozen=True)
class Features:
    """What the model reads about one search."""

    key: int  # key terms in the query
    missing: float  # share of them that no top hit holds (0 when there are none)
    named_missing: bool  # a named key term no top hit holds
    best_score: float  # the first hit's calibrated score


def features(keys: KeyTerms, texts: Sequence[str], best_score: float) -> Features:
    """The features of a search whose top hits have ``texts`` (already cut to the top k)."""
    holding = held(keys.terms, texts)
    missing = [t for t in keys.terms if t not in holding]
    return Features(
        key=len(keys.terms),
        missing=len(missing) / len(keys.terms) if keys.terms else 0.0,
        named_missing=any(t in keys.named for t in missing),
        best_score=best_score,
    )


def never_stored(f: Features, model: Model = MODEL) -> bool:
    """Whether the model says the hits do not answer the question."""
    return model.probability(f.missing, f.named_missing, f.best_score) >= model.threshold
