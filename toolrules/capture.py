"""The capture pipeline (seed 004): user decrees become critical rules, repeated failures become
normal observations. Called by the post-turn hook; usable alone."""

from __future__ import annotations

import re
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractUser

from core.errors import MnemoError
from core.secrets import find_secret, redact
from toolrules.models import ToolMemoryRule, rule_fingerprint
from toolrules.services import put_rule

# Words that may stand before a decree without making it something else.
_LEAD = re.compile(
    r"^(?:(?:please|pls|also|and|oh|ok|okay|so|but|hey|just|and also|from now on|going forward|in future|"
    r"in the future|for the record|remember|important|note|rule)\b[,:!]?\s+)*",
    re.IGNORECASE,
)
_DECREE = re.compile(
    r"^(?P<neg>never|don't|dont|do not|stop)\s++(?:ever\s++)?(?P<verb>[a-z][a-z'-]*)\b(?P<rest>.*)$",
    re.IGNORECASE | re.DOTALL,
)
# Clause boundaries where a second decree may start: "never email Sarah and don't text Bob".
# Linear: a whitespace run is tried from its first character only ("(?<!\s)", or after the comma)
# and taken whole ("\s++"); "and" is tried before a bare line break, so a run that starts with
# one is still seen whole. Tried from every character of a long run and backtracked through it,
# a run cost its length squared (8 s for 16,000 spaces).
_CLAUSES = re.compile(
    r"(?<=[.!?;])\s++|,?(?<!\s)\s++(?:and|but)\s++(?=(?:never|don't|dont|do not|stop)\b)|\n++", re.IGNORECASE
)

# Verbs after a negation that make a figure of speech, not an instruction about a tool.
NOT_DECREES = {
    "worry",
    "mind",
    "know",
    "think",
    "care",
    "bother",
    "understand",
    "remember",
    "forget",
    "get",
    "be",
    "like",
    "want",
    "need",
    "have",
    "seem",
    "mean",
    "believe",
    "feel",
    "recall",
    "judge",
    "panic",
    "stress",
    "rush",
    "apologize",
    "apologise",
    "hesitate",
    "laugh",
    "cry",
    "expect",
    "let",
    "quit",
    "hate",
    "agree",
    "doubt",
    "see",
    "say",
    "said",
    "hear",
    "wait",
    "look",
    "ask",
    "blame",
    "freak",
    "sweat",
    "go",
    "make",
    "take",
    "try",
    "you",
    "i",
    "we",
    "he",
    "she",
    "they",
    "it",
    "that",
    "this",
    "me",
    "us",
    "them",
    "there",
    "ever",
    "again",
    "really",
    "actually",
    "even",
    "just",
    "always",
    "at",
    "in",
    "on",
    "to",
    "the",
    "a",
    "an",
}


@dataclass(frozen=True)
class Decree:
    """One decree found in a user's message."""

    text: str  # the user's words as written, from the negation on ("never email Sarah at sarah@example.com")
    verb: str  # the verb, in its base form ("email")
    tool_name: str | None  # the tool the verb maps to, or None (kept as a global rule)


def _aliases() -> dict[str, str]:
    return {k.lower(): v for k, v in settings.MNEMO_DECREE_ALIASES.items()}


def _base_form(verb: str, aliases: dict[str, str]) -> str:
    """``emailing`` → ``email``, ``running`` → ``run``, ``messaging`` → ``message``."""
    if not verb.endswith("ing") or len(verb) <= 4:
        return verb
    stem = verb[:-3]
    candidates = [stem, stem + "e"]
    if len(stem) > 2 and stem[-1] == stem[-2]:
        candidates.insert(0, stem[:-1])
    return next((c for c in candidates if c in aliases), candidates[0])


def _tool_for(verb: str, rest: str, aliases: dict[str, str]) -> str | None:
    if verb == "send":  # "never send emails to Sarah": the object says which tool
        first = rest.strip().split(" ", 1)[0].lower().rstrip("s.,")
        return aliases.get({"e-mail": "email", "sm": "sms"}.get(first, first))
    return aliases.get(verb)


def _clause_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each clause of ``text``: the separators fall between, nothing else moves."""
    spans, start = [], 0
    for separator in _CLAUSES.finditer(text):
        spans.append((start, separator.start()))
        start = separator.end()
    spans.append((start, len(text)))
    return spans


def find_decrees(message: str) -> list[Decree]:
    """The decrees in one user message, in order, each once.

    A decree's text is the user's own words, character for character: the span of the message
    from the negation to the end of its clause, with surrounding whitespace trimmed and nothing
    else changed (case, inner spacing, final punctuation, typographic apostrophes all kept).
    Matching looks at a normalized copy of the same length, so its offsets cut the original.
    """
    aliases = _aliases()
    found: OrderedDict[str, Decree] = OrderedDict()
    # One character for one character, so a span of ``text`` is the same span of ``message``.
    text = message.replace("\u2019", "'").replace("\u2018", "'")
    for start, end in _clause_spans(text):
        clause = text[start:end]
        if not clause.strip() or clause.strip().endswith("?"):
            continue  # a question is not an instruction ("don't you think ...?")
        begin = start + len(clause) - len(clause.lstrip())
        begin += _LEAD.match(text[begin:end]).end()  # "Please", "From now on," ... stand before it
        match = _DECREE.match(text[begin:end])
        if not match:
            continue
        neg, verb, rest = match["neg"].lower(), match["verb"].lower(), match["rest"].strip()
        if neg == "stop":
            if not verb.endswith("ing"):
                continue  # "stop it", "stop here"
            verb = _base_form(verb, aliases)
        if verb in NOT_DECREES or not rest.strip(" .!,;"):
            continue  # "don't worry about it", "never again", "stop it"
        words = message[begin:end].strip()
        found.setdefault(
            rule_fingerprint(words), Decree(text=words, verb=verb, tool_name=_tool_for(verb, rest, aliases))
        )
    return list(found.values())


def capture_decrees(
    *, user: AbstractUser, messages: list[str], rejected: list[dict[str, Any]] | None = None
) -> list[ToolMemoryRule]:
    """Every decree in the user's messages as a critical rule, ``source=user_explicit``, owned by
    the user. A decree whose verb maps to no tool is kept on the ``global`` pseudo-tool. The same
    decree twice is one rule. With ``rejected``, a decree that cannot be a rule (too long, …) is
    reported there and the others are still kept; without it, the error propagates."""
    rules: list[ToolMemoryRule] = []
    for message in messages:
        if find_secret(message):
            continue  # a message carrying a secret is not stored, nor pinned as a rule
        for decree in find_decrees(message):
            try:
                rule, _ = put_rule(
                    actor=user,
                    tool_name=decree.tool_name or ToolMemoryRule.GLOBAL,
                    rule=decree.text,
                    priority=ToolMemoryRule.Priority.CRITICAL,
                    source=ToolMemoryRule.Source.USER_EXPLICIT,
                    tags=["decree", decree.verb],
                )
            except MnemoError as exc:
                if rejected is None:
                    raise
                rejected.append({"item": "decree", "text": decree.text[:200], "code": exc.code, "reason": exc.message})
                continue
            if rule not in rules:
                rules.append(rule)
    return rules


def _shorten(text: str, limit: int = 120) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def capture_failures(
    *, user: AbstractUser, tool_calls: list[dict[str, Any]], rejected: list[dict[str, Any]] | None = None
) -> list[ToolMemoryRule]:
    """One normal observation per tool that failed two or more times in this turn. With
    ``rejected``, an observation that cannot be a rule (a tool name with spaces, …) is reported
    there and the others are still kept."""
    errors: OrderedDict[str, list[str]] = OrderedDict()
    for call in tool_calls:
        if call.get("status") == "error":
            # The error text is the tool's, and may quote a credential: kept redacted, never as is.
            errors.setdefault(call["name"], []).append(_shorten(redact(str(call.get("error") or "unknown error"))))
    rules = []
    for tool_name, messages in errors.items():
        if len(messages) < 2 or find_secret(tool_name):
            continue
        distinct = list(OrderedDict.fromkeys(messages))
        shown = "; ".join(distinct[:3]) + (f"; and {len(distinct) - 3} more" if len(distinct) > 3 else "")
        text = redact(f"{tool_name} failed {len(messages)} times in one turn: {shown}")
        try:
            rule, _ = put_rule(
                actor=user,
                tool_name=tool_name,
                rule=text,
                priority=ToolMemoryRule.Priority.NORMAL,
                source=ToolMemoryRule.Source.POST_TURN,
                tags=["repeated-failure"],
            )
        except MnemoError as exc:
            if rejected is None:
                raise
            rejected.append(
                {"item": "observation", "tool_name": tool_name[:100], "code": exc.code, "reason": exc.message}
            )
            continue
        rules.append(rule)
    return rules
