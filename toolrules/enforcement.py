"""Beyond the seed: critical rules are enforced on the call, not only shown in the prompt.

A critical rule that names an email address, a phone number or a person ("never email Sarah at
sarah@example.com", "don't text +1 415 555 0100") blocks a call of its tool whose recipient is
that address, number or person: RULE_VIOLATION, and nothing is sent. A rule that names no such
target ("never email after 9pm") cannot be checked against arguments; it stays a prompt rule.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth.models import AbstractUser

from core.errors import RuleViolation
from toolrules import permissions
from toolrules.models import ToolMemoryRule

EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
# The same addresses, looked for from the start of a run of the local part's characters only: the
# pattern above, retried by findall from every character of a long run without "@", cost the run's
# length squared (3.9 s for a 16,000-letter word). A run's "@" can only follow the whole run, so
# a start inside a run finds what its start found (see _emails).
_EMAIL_FROM_RUN_START = re.compile(r"(?<![\w.+-])[\w.+-]++@[\w-]+(?:\.[\w-]+)+")
PHONE = re.compile(r"\+?\d[\d\s().-]{5,}\d")
NAME = re.compile(r"\b[A-Z][a-zA-Z'-]+\b")
NOT_NAMES = {
    "I",
    "I'm",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
    "Never",
    "Don't",
    "Do",
    "Not",
    "Stop",
    "Please",
    "SMS",
    "Email",
}
_NOT_NAMES = {w.lower() for w in NOT_NAMES}


def _digits(value: str) -> str:
    digits = re.sub(r"\D", "", value)
    return digits[-10:]  # the national number: "+1 (415) 555-0100" and "415 555 0100" agree


@dataclass(frozen=True)
class Recipient:
    """Who a call reaches: a name, addresses and numbers."""

    names: tuple[str, ...] = ()
    emails: tuple[str, ...] = ()
    phones: tuple[str, ...] = ()


@dataclass(frozen=True)
class Targets:
    emails: frozenset[str]
    phones: frozenset[str]
    names: frozenset[str]


def _emails(text: str) -> list[re.Match[str]]:
    """``EMAIL.finditer(text)``, in linear time: where the previous address ends inside a run
    ("a@b.c.@d.e"), the next try starts there, as findall's does; anywhere else only at a run's start."""
    found: list[re.Match[str]] = []
    pos = 0
    while pos < len(text):
        match = EMAIL.match(text, pos) if found else None
        match = match or _EMAIL_FROM_RUN_START.search(text, pos)
        if match is None:
            break
        found.append(match)
        pos = match.end()
    return found


def targets_of(rule_text: str) -> Targets:
    matches = _emails(rule_text)
    emails = {m.group().lower() for m in matches}
    pieces, pos = [], 0
    for m in matches:
        pieces += [rule_text[pos : m.start()], " "]
        pos = m.end()
    without_emails = "".join([*pieces, rule_text[pos:]])
    phones = {_digits(p) for p in PHONE.findall(without_emails) if len(_digits(p)) >= 7}
    # Rules keep the user's case ("DO NOT EMAIL the board"): shouted words are not names either.
    words = NAME.findall(without_emails.replace("\u2019", "'"))
    names = (
        {w.lower() for w in words[1:] if w.lower() not in _NOT_NAMES}
        if words and rule_text.startswith(words[0])
        else {w.lower() for w in words if w.lower() not in _NOT_NAMES}
    )
    return Targets(frozenset(emails), frozenset(phones), frozenset(names))


def violated_rule(rules: Iterable[ToolMemoryRule], recipient: Recipient) -> ToolMemoryRule | None:
    emails = {e.lower() for e in recipient.emails if e}
    phones = {_digits(p) for p in recipient.phones if p and len(_digits(p)) >= 7}
    name_words = {w.lower() for name in recipient.names for w in re.findall(r"[\w'-]+", name or "")}
    for rule in rules:
        targets = targets_of(rule.rule)
        if targets.emails & emails or targets.phones & phones or targets.names & name_words:
            return rule
    return None


def check_call(*, user: AbstractUser, tool_name: str, recipient: Recipient) -> None:
    """Raise RULE_VIOLATION if a critical rule binding ``user`` forbids this call."""
    rules = permissions.binding_rules(user).filter(tool_name=tool_name, priority=ToolMemoryRule.Priority.CRITICAL)
    rule = violated_rule(rules.order_by("-updated_at", "id"), recipient)
    if rule is not None:
        raise RuleViolation(
            f"Blocked by a critical rule for {tool_name}: {rule.rule}",
            details={"rule_id": str(rule.id), "key": rule.key},
        )
