"""Time-aware facts: a memory's validity (``valid_from`` / ``valid_until``) and when a new memory
supersedes an old one (docs/time-aware.md).

Supersession is decided here from two texts and their cosine similarity, in one linear pass over
each text (a split on whitespace, each token looked at once). The rule, tuned and measured out of
sample on generated pairs (bench/contradictions.py, docs/time-aware.md):

1. the two texts are close in meaning: cosine ≥ ``threshold`` (``MNEMO_SUPERSEDE_THRESHOLD``), or
   ≥ ``change_threshold`` when the new text says it is a change ("now", "moved", "no longer"…);
2. a value was replaced: the old text names a value (a number or code, a capitalised name or
   place; not a function word's contraction, nor a text's first word, or a turn's first after its
   "Name:" prefix, unless a name runs on from it) the new text does not mention at all, and the
   new text names one the old does not;
3. about the same subject: both texts open with the same first content word ("User", "Priya",
   "the user's manager"), English putting the subject first; "Priya lives in Paris" and "Colby
   lives in Paris" are two people, not one changed fact;
4. not an addition: the new text does not say "also", "too", "another", "as well"… ("also speaks
   Spanish" adds to "speaks French", it does not replace it);
5. a time alone is not the thing: when every value the old text drops, or every value the new
   text names, is a time (a clock time, a weekday, a month; "Saturdays" mentions Saturday), the
   new text shares at least one other word with the old, change word or not.
   A time says *when*, and two things can each have one: "started saxophone lessons every Tuesday"
   is not moved by "I start my new job on Monday"; "standup every Tuesday" is by "standup moved
   to Thursday".

English is the default: rules 1, 3, 4 and 5 are tuned on or written for English. In other languages
numbers and codes are found in any script and names in any script with capital letters; scripts
without case (Chinese, Japanese, Arabic, Hebrew, Thai…) only have their numbers and codes.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from datetime import datetime

from core.errors import InvalidInput

#: Capitalised words that open a sentence without naming anything.
_FUNCTION_WORDS = frozenset(
    """a an the my our your his her their its this that these those i we you he she they it me us them
    every each on in at since from now as for also and but so then to of by with after before when
    today yesterday tomorrow currently still recently lately meanwhile starting is are was were be been
    has have had does do did will""".split()  # noqa: SIM905 (a list of words reads better as words)
)
#: Words that make a new text an addition to, not a replacement of, what was known.
_ADDITIVE = frozenset({"also", "too", "additionally", "another", "besides", "both", "either"})
_ADDITIVE_PAIRS = frozenset({("as", "well"), ("in", "addition")})
#: Words that say the new text is a change of what was known.
_CHANGE = frozenset(
    {"now", "moved", "moving", "changed", "switched", "new", "instead", "anymore", "replaced", "became", "joined"}
)
_CHANGE_PAIRS = frozenset({("no", "longer"), ("not", "anymore")})
_MARKERS = _FUNCTION_WORDS | _ADDITIVE | _CHANGE
_DIGIT = re.compile(r"\d")
#: A clock time written as one token: "9am", "11:15am", "10:30", "2pm", "9h30" (rule 5).
_CLOCK = re.compile(r"\d{1,2}(?:[:h]\d{2})?(?:am|pm|a\.m\.|p\.m\.)?", re.IGNORECASE)
#: Weekdays and months, English (rule 5), and their abbreviations that are not also words ("sat",
#: "sun", "wed", "mar"); "may" and "march" count, as a capitalised value only.
_WEEKDAYS = frozenset(
    """monday tuesday wednesday thursday friday saturday sunday
    mon tue tues thu thur thurs fri""".split()  # noqa: SIM905 (a list of words reads better as words)
)
_CALENDAR = _WEEKDAYS | frozenset(
    """january february march april may june july august september october november december
    jan feb apr jun jul aug sep sept oct nov dec""".split()  # noqa: SIM905 (a list of words reads better as words)
)
#: Longer texts are not compared: a document is not one fact, and a fact of more than the embedder's
#: window is not "the same thing" said with another value (a stated fact is a sentence or two). It
#: also bounds what the rule costs remember: at most 8 candidates of this many characters.
MAX_CHARS = 500
#: Stripped from both ends of a token (a value keeps its inner punctuation: "TEAM-123", "Dr.").
_EDGE = ".,;:!?()[]{}\"'“”‘’«»"


@dataclass(frozen=True)
class Shape:
    """What the rule reads of one text."""

    #: Every word, lower-cased, stripped of edge punctuation and a possessive "'s".
    words: frozenset[str]
    #: Named values (runs of capitalised, numbered or @/#-prefixed tokens), as written.
    values: tuple[str, ...]
    #: The first word that is not a function word (lower-cased): the subject, in English.
    opening: str
    #: The words that are neither function words, nor values, nor change or addition markers.
    rest: frozenset[str]
    additive: bool
    change: bool


def _word(token: str) -> str:
    word = token.strip(_EDGE).lower()
    for suffix in ("'s", "’s"):
        if word.endswith(suffix):
            return word[: -len(suffix)]
    return word


#: Endings of a contraction ("I'm", "we're", "it'd"): the word before one is what is read.
_CONTRACTIONS = ("'m", "'ve", "'ll", "'d", "'re", "’m", "’ve", "’ll", "’d", "’re")


def _is_strong(token: str) -> bool:
    """A value by its shape alone, wherever it stands: a number, a code, a handle, an amount."""
    return token[0] in "@#$€£" or _DIGIT.search(token) is not None


def _looks_named(token: str, word: str, strong: bool) -> bool:
    """Strong, or capitalised and not a function word: a value, or a word that only looks like one
    (which counts neither as a value nor among the other words, ``Shape.rest``)."""
    if not word:
        return False
    return strong or (token.strip(_EDGE)[:1].isupper() and word not in _FUNCTION_WORDS)


def _is_contraction(word: str) -> bool:
    """A contraction of a function word ("i'm", "we're") or a negation ("don't"): it names nothing.
    Read as a value, "I'm" → "I've" was a replaced value (bench/NOTES.md, 2026-12-07)."""
    if word.endswith(("n't", "n’t")):
        return True
    return any(word.endswith(end) and word[: -len(end)] in _FUNCTION_WORDS for end in _CONTRACTIONS)


def _read(token: str, word: str) -> tuple[bool, bool, bool]:
    """(strong, looks named, a value) for one token: each check once, the token scanned once."""
    strong = bool(word) and _is_strong(token)
    named = _looks_named(token, word, strong)
    return strong, named, named and (strong or not _is_contraction(word))


def shape(text: str) -> Shape:
    """One pass over ``text``'s tokens: linear in its length."""
    words: set[str] = set()
    rest: set[str] = set()
    values: list[str] = []
    run: list[str] = []
    opening = ""
    additive = change = False
    previous = ""
    tokens = text.split()
    # Where a sentence starts: the text's first token, or the first after a "Name:" prefix.
    starts = {0, 1} if tokens and tokens[0].endswith(":") else {0}
    for i, token in enumerate(tokens):
        word = _word(token)
        if word:
            words.add(word)
            if word[:-1] in _WEEKDAYS and word[-1] == "s":  # "on Saturdays" mentions Saturday (rule 5)
                words.add(word[:-1])
        if not opening and word and word not in _FUNCTION_WORDS:
            opening = word
        if word in _ADDITIVE or (previous, word) in _ADDITIVE_PAIRS:
            additive = True
        if word in _CHANGE or (previous, word) in _CHANGE_PAIRS:
            change = True
        previous = word
        strong, named, value = _read(token, word)
        if value and i in starts and not strong:
            # Capitalised by its place alone, unless a name runs on from it ("Dr Okafor", "Alto
            # Design"): alone it is the subject, which rule 3 wants the same in both texts, or an
            # ordinary word ("First week done at …" read "First" as a dropped value).
            following = tokens[i + 1] if i + 1 < len(tokens) else ""
            value = token[-1] not in _EDGE and bool(following) and _read(following, _word(following))[2]
        if not named and word and word not in _MARKERS:
            rest.add(word)
        if value:
            run.append(token.strip(_EDGE))
            # A run of names ends at punctuation: "Paris, Berlin" are two values.
            if token.rstrip(_EDGE) != token and not token.endswith("."):
                values.append(" ".join(run))
                run = []
        elif run:
            values.append(" ".join(run))
            run = []
    if run:
        values.append(" ".join(run))
    return Shape(frozenset(words), tuple(values), opening, frozenset(rest), additive, change)


#: The shapes of the last stored texts compared (a pure function of the text, at most MAX_CHARS
#: characters each, and immutable: safe to share between calls and threads).
_stored_shape = functools.lru_cache(maxsize=4096)(shape)


def _is_time(value: str) -> bool:
    """A value that only says when (rule 5): each of its words a weekday or month name, or a clock
    time with a colon, an h or an am/pm ("9am", "10:30"; a bare "42" is a number, not a time)."""
    for part in value.split():
        word = part.strip(_EDGE).lower()
        if word in _CALENDAR or (word[-1:] == "s" and word[:-1] in _WEEKDAYS):
            continue
        if _CLOCK.fullmatch(word) and not word.isdigit():
            continue
        return False
    return True


def _initials(value: str) -> str:
    return "".join(part[:1] for part in value.split()).upper()


def _missing(values: tuple[str, ...], other: Shape) -> list[str]:
    """The values of which some word the other text never says, and that are not an acronym of one
    of its values or one of its values an acronym of them ("LA" and "Los Angeles", "NYC" and
    "New York"). Set lookups only: linear in the values of both texts."""
    acronyms = {v.upper() for v in other.values if v.isupper() and 2 <= len(v) <= 6}
    # An acronym may have one letter more than the initials ("NYC" for "New York").
    acronym_heads = acronyms | {a[:-1] for a in acronyms}
    spelled = {_initials(v) for v in other.values if " " in v}
    missing = []
    for v in values:
        if all(_word(part) in other.words for part in v.split() if _word(part)):
            continue
        if " " in v and _initials(v) in acronym_heads:
            continue
        if v.isupper() and (v in spelled or v[:-1] in spelled):
            continue
        missing.append(v)
    return missing


@dataclass(frozen=True)
class Contradiction:
    """How a new text replaces an old one: the old text's values it drops, the new ones it names."""

    old_values: list[str]
    new_values: list[str]


#: Share of the other words (neither values nor function words) two texts must have in common, or
#: be told apart by a change marker: "daily standup at 10am" and "weekly retro at 11am" are two
#: facts, "lives in Paris" and "moved to Berlin" one changed fact (bench/contradictions.py).
REST_OVERLAP = 0.5


def contradiction(
    old: str,
    new: str | Shape,
    *,
    similarity: float,
    threshold: float,
    change_threshold: float,
    rest_overlap: float = REST_OVERLAP,
) -> Contradiction | None:
    """Whether ``new`` supersedes ``old`` (the module's rule); the replaced values if it does.
    ``new`` may be given as its :func:`shape` (remember reads it once for all its candidates);
    a text longer than MAX_CHARS is never compared."""
    if similarity < min(threshold, change_threshold) or len(old) > MAX_CHARS:
        return None
    if isinstance(new, str):
        if len(new) > MAX_CHARS:
            return None
        new = shape(new)
    if similarity < (change_threshold if new.change else threshold):
        return None
    # The old text read only when needed, and its shape remembered: remember compares each new text
    # with the namespace's nearest stored ones, which come back call after call.
    return replaced_values(_stored_shape(old), new, rest_overlap=rest_overlap)


def replaced_values(a: Shape, b: Shape, *, rest_overlap: float = REST_OVERLAP) -> Contradiction | None:
    """Rules 2 to 5 of the module (all but the similarity) for the shapes of an old and a new text."""
    if b.additive or not a.opening or a.opening != b.opening:
        return None
    if not b.change and a.rest | b.rest and len(a.rest & b.rest) < rest_overlap * len(a.rest | b.rest):
        return None
    dropped, named = _missing(a.values, b), _missing(b.values, a)
    if not dropped or not named:
        return None
    if (all(_is_time(v) for v in dropped) or all(_is_time(v) for v in named)) and not a.rest & b.rest:
        return None
    return Contradiction(old_values=dropped, new_values=named)


def check_validity(valid_from: datetime | None, valid_until: datetime | None) -> None:
    """A validity interval is timezone-aware and not empty: ``valid_from`` < ``valid_until``."""
    for name, value in (("valid_from", valid_from), ("valid_until", valid_until)):
        if value is not None and (not isinstance(value, datetime) or value.tzinfo is None):
            raise InvalidInput(f"{name} must be a timezone-aware ISO 8601 timestamp.")
    if valid_from is not None and valid_until is not None and valid_from >= valid_until:
        raise InvalidInput(
            "valid_from must be before valid_until.",
            details={"valid_from": valid_from.isoformat(), "valid_until": valid_until.isoformat()},
        )
