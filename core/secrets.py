"""The one secret scanner: every user-supplied string Mnemo stores or pins passes through here.

What it does, in order:

1. **Normalize** (for scanning only; the caller keeps its text): Unicode NFKC, so fullwidth
   ``ＡＫＩＡ…`` reads as ``AKIA…``, then invisible format characters (zero-width spaces and
   joiners, soft hyphens, word joiners, bidi controls, BOM) are removed, so a key with a
   zero-width space inside is the key.
2. **Find** credential shapes, each a *detector* located by literal hints: which hints occur is
   one substring test each (C speed), and a detector's regex then runs only at its hints (or in
   windows around them, or around a digit or base64 run found in a byte view of the text), so
   an ordinary sentence costs the substring tests and little else. The shapes:

   - vendor tokens with a fixed prefix: detect-secrets' regex plugins (AWS access key ids,
     GitHub, GitLab, Slack, Stripe, JWTs, PEM/PuTTY private keys, basic-auth URLs, npm, PyPI,
     SendGrid, Twilio, Square, Telegram, Discord, Mailchimp, IBM, SoftLayer, Cloudant, Azure
     storage), run with their own regexes, plus shapes it does not know (Anthropic, newer
     OpenAI, Google, Hugging Face, GitHub fine-grained, Slack app, bare npm, DigitalOcean,
     Shopify, Databricks, Postman, Linear, Vault, Doppler, age, Notion, Grafana, Groq,
     Replicate, Perplexity, xAI, Stripe test and webhook secrets, Azure AD client secrets,
     Discord webhooks, Artifactory, password-only URLs);
   - the same prefixed tokens split in pieces by white space or string concatenation
     (``AKIAVQJX XVBOTHD0WTFL``; core.secret_shapes, with the other shapes it adds);
   - passwords: assignments (``password: …``, ``DB_PASSWORD=…``, ``pwd=…``, ``"password": "…"``)
     and phrases (``my password is hunter2``, ``the wifi password for the cabin is …``), PINs,
     card security codes and door/alarm codes with digits;
   - key/secret/token assignments whose value looks random (``export MYSERVICE_API_KEY=Zx81…``,
     ``api_key=9f8e7d6c…``, ``client secret: …``): a label, then a value of 16+ characters
     with letters and digits and a character entropy of 3 bits or more that is not a run of
     words (``prod-db-password-2024`` is a name, not a secret);
   - ``Authorization:`` headers and ``Bearer`` tokens;
   - an AWS secret access key without a label: exactly 40 characters of base64 with upper and
     lower case letters and a digit, high entropy, not CamelCase words or a path;
   - payment card numbers: 14 to 19 digits (plain or grouped as cards are printed) with a card
     network's prefix and length and a valid Luhn check digit;
   - IBANs: a country's exact length and a valid ISO 13616 mod-97 checksum;
   - US social security numbers: ``AAA-GG-SSSS`` within the valid ranges (area not 000, 666 or
     9xx, group not 00, serial not 0000); without dashes only after "SSN"/"social security".

What stays accepted, on purpose (tests/core/test_secrets.py holds the corpus both ways): order,
tracking, invoice and ticket numbers, phone numbers (any grouping, with or without +), dates and
times, hex colours, UUIDs and git SHAs in prose (no label), prices, version numbers, IMEIs,
ISBNs, public keys and certificates, fingerprints, and sentences *about* passwords and keys
("the Wi-Fi password is on the fridge"). Random-looking strings without a label or a known
prefix are accepted too: without context, a 32-character hex string is a request id as often
as a key. Look-alike letters from other scripts (Cyrillic ``А`` for Latin ``A``) are not mapped.
"""

from __future__ import annotations

import importlib
import math
import re
import threading
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from django import forms

from core.errors import SecretRejected

REDACTED = "[REDACTED]"

# Format characters that render as nothing: soft hyphen, Mongolian vowel separator, zero-width
# space/non-joiner/joiner, LRM/RLM, bidi embeddings and isolates, word joiner and invisible
# operators, BOM / zero-width no-break space.
_INVISIBLE = re.compile("[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]")


def normalize(text: str) -> str:
    """The form secrets are looked for in: NFKC, invisible characters removed."""
    return _INVISIBLE.sub("", unicodedata.normalize("NFKC", text))


Span = tuple[int, int]


Finder = Callable[[str, list[Span] | None], Iterator[Span]]


@dataclass(frozen=True)
class _Detector:
    """One credential shape: its name, where to look (``locate``: the windows of the text worth
    a regex, None for the whole text, empty to skip) and the finder of its spans in them."""

    name: str
    locate: Callable[[_Scan], list[Span] | None]
    find: Finder


# Every hint a detector is located by (filled as the detectors are built): lower-case ones are
# looked for in the lower-cased text, the others (case-sensitive prefixes) in the text as it is.
_LOWER_HINTS: set[str] = set()
_CASED_HINTS: set[str] = set()


def _register(hints: tuple[str, ...]) -> tuple[str, ...]:
    for hint in hints:
        (_CASED_HINTS if hint != hint.lower() else _LOWER_HINTS).add(hint)
    return hints


class _Scan:
    """One normalized text and the cheap views of it the detectors locate their windows in."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lower = text.lower()
        # One byte per character (non-ASCII becomes "?"), so byte offsets are character offsets.
        self.ascii = text.encode("ascii", "replace")
        self._shape: bytes | None = None
        self._base64: bytes | None = None
        self._token: bytes | None = None
        self._ident: bytes | None = None
        self._points: dict[str, list[int]] = {}
        # Which of all detectors' hints occur at all: one C-speed substring test each.
        lower, cased = self.lower, text
        self.present = {h for h in _LOWER_HINTS if h in lower} | {h for h in _CASED_HINTS if h in cased}

    def points(self, hint: str) -> list[int]:
        """Where ``hint`` occurs: in the lower-cased text, or in the text as it is when the hint
        has capitals (a case-sensitive prefix such as ``AKIA``). Found once per text."""
        found = self._points.get(hint)
        if found is None:
            cased = hint != hint.lower()
            found = _occurrences(self.text if cased else self.lower, hint)
            self._points[hint] = found
        return found

    def count(self, hint: str) -> int:
        """How many times ``hint`` occurs (as ``points`` finds it), at C speed."""
        return (self.text if hint != hint.lower() else self.lower).count(hint)

    @property
    def shape(self) -> bytes:
        """Digits as 9, capitals as A, small letters as a, the rest as it is."""
        if self._shape is None:
            self._shape = self.ascii.translate(_SHAPE)
        return self._shape

    @property
    def token(self) -> bytes:
        """x where a character is A-Z a-z 0-9 _ or -, a space elsewhere."""
        if self._token is None:
            self._token = self.ascii.translate(_TOKEN)
        return self._token

    @property
    def ident(self) -> bytes:
        """x where a character may be part of an identifier (A-Z a-z 0-9 _ - .), a space elsewhere."""
        if self._ident is None:
            self._ident = self.ascii.translate(_IDENT)
        return self._ident

    @property
    def base64(self) -> bytes:
        """x where a character is base64 (A-Z a-z 0-9 / +), a space elsewhere."""
        if self._base64 is None:
            self._base64 = self.ascii.translate(_BASE64)
        return self._base64


def _table(mapping: Callable[[int], int]) -> bytes:
    return bytes(mapping(b) for b in range(256))


_SHAPE = _table(
    lambda b: ord("9") if 48 <= b <= 57 else ord("A") if 65 <= b <= 90 else ord("a") if 97 <= b <= 122 else b
)
_TOKEN = _table(lambda b: ord("x") if (chr(b).isascii() and chr(b).isalnum()) or b in (45, 95) else ord(" "))
_IDENT = _table(lambda b: ord("x") if (chr(b).isascii() and chr(b).isalnum()) or b in (45, 46, 95) else ord(" "))
_BASE64 = _table(lambda b: ord("x") if (chr(b).isascii() and chr(b).isalnum()) or b in (43, 47) else ord(" "))


def _merge(points: list[int], before: int, after: int, size: int) -> list[Span]:
    windows: list[Span] = []
    for point in sorted(points):
        start, end = max(0, point - before), min(size, point + after)
        if windows and start <= windows[-1][1]:
            windows[-1] = (windows[-1][0], max(windows[-1][1], end))
        else:
            windows.append((start, end))
    return windows


def _occurrences(haystack: Any, needle: Any) -> list[int]:
    """Start of each non-overlapping occurrence of ``needle``."""
    found, at = [], haystack.find(needle)
    while at != -1:
        found.append(at)
        at = haystack.find(needle, at + len(needle))
    return found


def near_hints(hints: tuple[str, ...], before: int = 100, after: int = 320) -> Callable[[_Scan], list[Span]]:
    """Windows around every occurrence of the hints (see ``_Scan.points``)."""
    _register(hints)

    def locate(scan: _Scan) -> list[Span]:
        present = scan.present
        found = [hint for hint in hints if hint in present]
        if not found:
            return []
        size = len(scan.text)
        # So many occurrences that their windows would cover the text: the whole text is one
        # window, found by C-speed counts instead of a Python step per occurrence.
        if sum(scan.count(hint) for hint in found) * (before + after) >= size:
            return [(0, size)]
        return _merge([p for hint in found for p in scan.points(hint)], before, after, size)

    return locate


def _with_run(locate: Callable[[_Scan], list[Span]], length: int) -> Callable[[_Scan], list[Span]]:
    """``locate``'s windows that hold a run of ``length`` token characters (A-Z a-z 0-9 _ -)."""
    run = b"x" * length

    def narrowed(scan: _Scan) -> list[Span]:
        return [(start, end) for start, end in locate(scan) if scan.token.find(run, start, end) != -1]

    return narrowed


def at_hints(hints: tuple[str, ...]) -> Callable[[_Scan], list[Span]]:
    """Anchors (empty spans) at every occurrence of the hints: for patterns that start with
    their hint, matched right there instead of searched for."""
    _register(hints)

    def locate(scan: _Scan) -> list[Span]:
        present = scan.present
        return [(p, p) for p in sorted({p for hint in hints if hint in present for p in scan.points(hint)})]

    return locate


def near_shape(literal: bytes, before: int, after: int, *, view: str = "shape") -> Callable[[_Scan], list[Span]]:
    """Windows around every occurrence of ``literal`` in a view of the text (see ``_Scan``)."""

    def locate(scan: _Scan) -> list[Span]:
        return _merge(_occurrences(getattr(scan, view), literal), before, after, len(scan.text))

    return locate


def everywhere(scan: _Scan) -> None:
    return None


def _matches(pattern: re.Pattern[str], text: str, windows: list[Span] | None) -> Iterator[re.Match[str]]:
    """``pattern``'s matches in the windows. A match cut by a window's end is matched again
    without the end, so a window never shortens what it finds."""
    if windows is None:
        yield from pattern.finditer(text)
        return
    for start, end in windows:
        if start == end:  # an anchor: the pattern matches right there or not at all
            anchored = pattern.match(text, start)
            if anchored is not None:
                yield anchored
            continue
        for match in pattern.finditer(text, start, end):
            if match.end() >= end and end < len(text):
                full = pattern.match(text, match.start())
                if full is None:
                    continue
                match = full
            yield match


# --- vendor tokens with a known prefix ---------------------------------------------------------

# detect-secrets plugins (their own regexes, imported, never copied) and the hints that any match
# of theirs contains. ArtifactoryDetector is left out: its "encrypted password" regex (AP, a hex
# digit, 8+ letters or digits) flags upper-case ticket and invoice numbers ("APAC00123456"); both
# of its shapes are below, the password one made precise.
_DETECT_SECRETS_PLUGINS: dict[str, tuple[str, ...] | None] = {
    "aws.AWSKeyDetector": ("a3t", "abia", "acca", "akia", "asia", "aws"),
    "azure_storage_key.AzureStorageKeyDetector": ("accountkey",),
    "basic_auth.BasicAuthDetector": ("://",),
    "cloudant.CloudantDetector": ("key", "pw", "pass", "token", "cloudant"),
    "discord.DiscordBotTokenDetector": None,  # located by its run of 23+ token characters
    "github_token.GitHubTokenDetector": ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
    "gitlab_token.GitLabTokenDetector": (
        "glpat-",
        "gldt-",
        "glft-",
        "glsoat-",
        "glrt-",
        "gr1348941",
        "glcbt-",
        "glimt-",
        "glptt-",
        "glagent-",
        "gloas-",
    ),
    "ibm_cloud_iam.IbmCloudIamDetector": ("key", "pwd", "pass", "token"),
    "ibm_cos_hmac.IbmCosHmacDetector": ("secret",),
    "jwt.JwtTokenDetector": ("eyj",),
    "mailchimp.MailchimpDetector": ("-us",),
    "npm.NpmDetector": ("_authtoken",),
    "openai.OpenAIDetector": ("t3blbkfj",),
    "private_key.PrivateKeyDetector": ("private key", "putty-user-key-file"),
    "pypi_token.PypiTokenDetector": ("pypi-",),
    "sendgrid.SendGridDetector": ("sg.",),
    "slack.SlackDetector": ("xox", "hooks.slack.com"),
    "softlayer.SoftlayerDetector": ("key", "pwd", "pass", "token", "softlayer"),
    "square_oauth.SquareOAuthDetector": ("sq0csp-",),
    "stripe.StripeDetector": ("k_live_",),
    "telegram_token.TelegramBotTokenDetector": None,  # located by its digits before a colon
    "twilio.TwilioKeyDetector": None,
}


# Three plugins' regexes cost the square of a run's length: each start in a run of their prefix
# scans to the run's end before failing (``eyJ[…]+\.`` over ``=eyJ=eyJ…``; ``sk-[…]*…T3BlbkFJ`` over
# ``sk-sk-…``; ``//.+/:_authToken`` over ``//…//``). The same shapes, written so that a start costs
# a bounded look: a token start not inside a longer run, possessive runs, bounded gaps.
_LINEAR_DENYLIST: dict[str, list[re.Pattern[str]]] = {
    # header.payload[.], as the plugin's regex matches it (its lazy tail is always empty); base64url
    # padding only at a part's end, so a run of "=eyJ" fails at its first "=".
    "JwtTokenDetector": [re.compile(r"(?<![A-Za-z0-9_\-])eyJ[A-Za-z0-9_\-]*+={0,2}\.[A-Za-z0-9_\-]++={0,2}\.?")],
    "OpenAIDetector": [
        re.compile(r"(?<![A-Za-z0-9_\-])sk-[A-Za-z0-9_\-]{0,128}?[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}")
    ],
    # The //registry/ before :_authToken on the same line is checked by hand (_npmrc_tokens).
    "NpmDetector": [],
}
_NPMRC_VALUE = re.compile(r"[ \t]{0,16}(?:npm_\S{1,256}|[A-Fa-f0-9\-]{36})")


def _npmrc_tokens(text: str, windows: list[Span] | None) -> Iterator[Span]:
    """An .npmrc line ``//registry/:_authToken=<token>``: found from each ``/:_authToken=``, with
    the ``//`` looked for on its line within 256 characters before it."""
    marker = "/:_authToken="
    for start, end in [(0, len(text))] if windows is None else windows:
        at = text.find(marker, max(0, start - len(marker)), end + len(marker))
        while at != -1:
            line = text.rfind("\n", max(0, at - 256), at) + 1 or max(0, at - 256)
            slashes = text.find("//", line, at)
            value = _NPMRC_VALUE.match(text, at + len(marker))
            if slashes != -1 and slashes + 2 < at and value is not None:
                yield slashes, value.end()
            at = text.find(marker, at + len(marker), end + len(marker))


def _plugin_finder(plugin: Any) -> Finder:
    validate = getattr(plugin, "is_formally_valid", None)  # the JWT plugin checks its tokens decode
    patterns = _LINEAR_DENYLIST.get(type(plugin).__name__, plugin.denylist)

    def find(text: str, windows: list[Span] | None) -> Iterator[Span]:
        if type(plugin).__name__ == "NpmDetector":
            yield from _npmrc_tokens(text, windows)
        for pattern in patterns:
            for match in _matches(pattern, text, windows):
                if validate is None or validate(match.group(0)):
                    yield match.span()

    return find


_PREFIXED: list[tuple[str, tuple[str, ...], str, int]] = [
    # (name, hints, regex, flags); each regex starts at the token, boundaries are checked by hand.
    # Mnemo's own API keys (core.tokens): "mnemo_" and 43 URL-safe base64 characters.
    ("Mnemo API token", ("mnemo_",), r"mnemo_[A-Za-z0-9_\-]{43}(?![A-Za-z0-9_\-])", 0),
    ("Anthropic API key", ("sk-ant-",), r"sk-ant-(?:api|admin)\d{2}-[A-Za-z0-9_\-]{20,}", 0),
    ("OpenAI API key", ("sk-proj-", "sk-svcacct-", "sk-admin-"), r"sk-(?:proj|svcacct|admin)-[A-Za-z0-9_\-]{20,}", 0),
    ("Google API key", ("aiza",), r"AIza[0-9A-Za-z_\-]{35}(?![0-9A-Za-z_\-])", 0),
    ("Google OAuth client secret", ("gocspx-",), r"GOCSPX-[A-Za-z0-9_\-]{28}(?![A-Za-z0-9_\-])", 0),
    ("Hugging Face token", ("hf_",), r"hf_[A-Za-z0-9]{34,}(?![A-Za-z0-9])", 0),
    ("Private key block", ("private key",), r"-----BEGIN[A-Z ]*PRIVATE KEY(?: BLOCK)?-----", 0),
    # detect-secrets only knows the classic ghp_/gho_/ghu_/ghs_/ghr_ tokens.
    ("GitHub fine-grained token", ("github_pat_",), r"github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}", 0),
    # detect-secrets knows xoxa/xoxb/xoxp/xoxo/xoxs/xoxr tokens and webhooks, not app-level tokens.
    ("Slack app token", ("xapp-",), r"xapp-\d-A[A-Z0-9]{6,}-\d{6,}-[a-f0-9]{32,}", 0),
    # detect-secrets only finds npm tokens inside an .npmrc "//registry/:_authToken=" line.
    ("npm token", ("npm_",), r"npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])", 0),
    # detect-secrets only finds an AWS secret key in quotes; ~/.aws/credentials and .env have none.
    (
        "AWS secret access key",
        ("aws",),
        r"aws[_-]?secret[_-]?access[_-]?key[\"']?[ \t]*[:=][ \t]*[\"']?[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])",
        re.IGNORECASE,
    ),
    # A URL with a password and no user name (redis://:password@host); the basic-auth plugin
    # needs a user name before the colon.
    ("Password in URL", ("://:",), r"[A-Za-z][A-Za-z0-9+.\-]*://:[^\s:/?#\[\]@]+@", 0),
    # Artifactory API keys start with AKC; encrypted passwords with AP and a hex digit and are random
    # mixed-case letters and digits: a lower-case letter and a digit tell them from reference numbers.
    ("Artifactory API key", ("akc",), r"AKC[A-Za-z0-9]{10,}(?![A-Za-z0-9])", 0),
    (
        "Artifactory password",
        ("AP",),
        r"AP[0-9A-F](?=[A-Za-z0-9]*[a-z])(?=[A-Za-z0-9]*[0-9])[A-Za-z0-9]{8,}(?![A-Za-z0-9])",
        0,
    ),
    ("DigitalOcean token", ("dop_v1_", "doo_v1_", "dor_v1_"), r"do[por]_v1_[a-f0-9]{64}", 0),
    ("Shopify token", ("shpat_", "shpca_", "shppa_", "shpss_"), r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}", 0),
    ("Databricks token", ("dapi",), r"dapi[a-f0-9]{32}(?:-\d)?(?![A-Za-z0-9])", 0),
    ("Postman API key", ("pmak-",), r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}", 0),
    ("Linear API key", ("lin_api_",), r"lin_api_[A-Za-z0-9]{40}", 0),
    ("HashiCorp Vault token", ("hvs.", "hvb.", "hvr."), r"hv[sbr]\.[A-Za-z0-9_\-]{24,}", 0),
    ("Doppler token", ("dp.",), r"dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}", 0),
    ("age secret key", ("age-secret-key-1",), r"AGE-SECRET-KEY-1[02-9AC-HJ-NP-Z]{58}", 0),
    ("Notion token", ("secret_", "ntn_"), r"(?:secret_[A-Za-z0-9]{43}|ntn_[A-Za-z0-9]{46})(?![A-Za-z0-9])", 0),
    ("Grafana token", ("glsa_", "glc_"), r"(?:glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32,}={0,2})", 0),
    ("Groq API key", ("gsk_",), r"gsk_[A-Za-z0-9]{48,}", 0),
    ("Replicate token", ("r8_",), r"r8_[A-Za-z0-9]{37}(?![A-Za-z0-9])", 0),
    ("Perplexity API key", ("pplx-",), r"pplx-[A-Za-z0-9]{48}", 0),
    ("xAI API key", ("xai-",), r"xai-[A-Za-z0-9]{70,}", 0),
    (
        "Stripe test or webhook secret",
        ("_test_", "whsec_"),
        r"(?:[sr]k_test_[0-9a-zA-Z]{24,}|whsec_[A-Za-z0-9]{32,})",
        0,
    ),
    ("Azure AD client secret", ("q~",), r"[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.\-]{31,34}", 0),
    (
        "Discord webhook",
        ("/api/webhooks/",),
        r"discord(?:app)?\.com/api/webhooks/\d{5,}/[A-Za-z0-9_\-]{60,}",
        0,
    ),
]


def _bounded(pattern: re.Pattern[str]) -> Finder:
    """Matches of a token regex that do not start in the middle of a longer word."""

    def find(text: str, windows: list[Span] | None) -> Iterator[Span]:
        for match in _matches(pattern, text, windows):
            start = match.start()
            if start == 0 or not (text[start - 1].isalnum() or text[start - 1] == "_"):
                yield match.span()

    return find


# --- passwords, PINs and codes ------------------------------------------------------------------

_PASSWORD_LABEL = (
    r"(?P<label>pass(?:word|wd|phrase|code)s?|pass[_\-]word|(?<![A-Za-z])p(?:s)?wd(?![A-Za-z])|"
    r"(?<![A-Za-z])pw(?![A-Za-z]))[\"'\]]?"
)
_PASSWORD_VALUE = r"\s{0,64}(?P<value>\"[^\"\n]{1,200}\"|'[^'\n]{1,200}'|`[^`\n]{1,200}`|\S{1,256})"
_PASSWORD = re.compile(
    _PASSWORD_LABEL + r"(?P<about>\s{1,16}(?:for|to|of|on|at)\s{1,16}(?:[\w@.\-']{1,64}\s{1,16}){0,4}?[\w@.\-']{1,64})?"
    r"(?P<op>\s{0,64}(?::=|=>|->|[:=])|\s{1,16}(?:is|was|will\s{1,16}be|is\s{1,16}now|has\s{1,16}been\s{1,16}changed"
    r"\s{1,16}to|changed\s{1,16}to|set\s{1,16}to|reads)\s)" + _PASSWORD_VALUE,
    re.IGNORECASE,
)
# "password Sunflower88": no verb, no colon; only a value with a digit or a symbol counts.
_PASSWORD_BARE = re.compile(_PASSWORD_LABEL + r"(?P<op>[ \t]{1,64})" + _PASSWORD_VALUE, re.IGNORECASE)
# Words that, after "password is", describe the password instead of being it.
_DESCRIPTIONS = """
    a an the my your his her our their its this that these those it what which who something anything
    nothing everything none null nil n/a na empty blank unset unknown missing hidden redacted same
    different new old current default temporary wrong incorrect invalid valid correct right weak strong
    long short secret private safe secure mine yours here there fine ok okay good bad too also not still
    required optional mandatory necessary needed case-sensitive simple complex easy hard obvious
    guessable tbd tba xxx set reset on in at for to of by with from under inside written
    printed saved stored kept see check ask use
"""
_NOT_A_PASSWORD = frozenset(_DESCRIPTIONS.split())
_ENGLISH_SUFFIXES = ("ed", "ing", "ly", "able", "ible", "ous", "ive", "ful", "less", "ical")
_PLACEHOLDER = re.compile(
    r"^(?:\*+|x+|\.+|-+|_+|#+|•+|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|\{\{.*\}\}|<[^>]*>|%\(?\w*\)?s|\[[^\]]*\]|\(\w*\))$",
    re.IGNORECASE,
)
_CLAUSE_END = re.compile(r"\s{0,64}(?:$|[.,;!?)\n]|\s(?:and|but|so|or|because)\b)", re.IGNORECASE)
# How much of the text after a password's value _CLAUSE_END may look at: a bounded slice, never the
# whole rest of the text (which made every match cost the text's length).
_AFTER = 80


# A digit, or a character that is neither a letter, a digit, a hyphen nor an apostrophe.
_DIGIT_OR_SYMBOL = re.compile(r"\d|[^\w\-']|_")


def _password_value_is_secret(value: str, after: str, op: str) -> bool:
    quoted = value[:1] in "\"'`" and value[-1:] == value[:1] and len(value) >= 2
    value = value[1:-1].strip() if quoted else value.rstrip(".,;:!?)")
    if not value or _PLACEHOLDER.match(value) or value.startswith(REDACTED):
        return False
    if value.lower() in ("none", "null", "nil", "n/a", "empty", "blank", "unset", "redacted", "hidden"):
        return False
    if quoted:
        return True
    if value.isdigit():
        return len(value) >= 4
    if value.startswith(("/", "~/", "./")):  # `pwd`: /home/priya is a directory
        return False
    # C-speed tests, not a Python step per character: a value is up to 256 characters and a text
    # may hold thousands of labels.
    if _DIGIT_OR_SYMBOL.search(value):
        return True
    if value[1:] != value[1:].lower():  # a capital after the first letter: hUnter, BlueHouse
        return True
    if not op.strip():
        return False  # "password Sunflower88" needs a digit or a symbol; "password manager" is prose
    word = value.lower()
    if word in _NOT_A_PASSWORD or word.endswith(_ENGLISH_SUFFIXES):
        return False
    # A plain word: a password when the sentence ends with it ("my password is sunshine."), an
    # ordinary sentence when more words follow ("the password is written on the fridge").
    return bool(_CLAUSE_END.match(after))


def _passwords(text: str, windows: list[Span] | None) -> Iterator[Span]:
    for pattern in (_PASSWORD, _PASSWORD_BARE):
        for match in _matches(pattern, text, windows):
            value = match["value"]
            if _password_value_is_secret(value, text[match.end() : match.end() + _AFTER], match["op"]):
                start = match.start("value")
                yield start, start + len(value if value[:1] in "\"'`" else value.rstrip(".,;:)"))


_PIN = re.compile(
    r"(?<![A-Za-z])(?:(?:atm|card|debit|bank|sim|phone|my|the|your|new)\s{1,16})?"
    r"(?:pin(?:\s{1,16}number)?|cvv2?|cvc2?|csc|security\s{1,16}code|(?:door|gate|alarm|lock|garage|safe|keypad)\s{1,16}code)"
    r"(?:\s{0,16}\((?:pin|cvv|code)\))?\s{0,16}(?::|=|-|\sis\s|\swas\s|\sto\s|\s)\s{0,16}(?P<value>\d{3,8})"
    r"(?![\d,.]\d|[\d/])",
    re.IGNORECASE,
)


_PIN_HINTS = (
    "pin", "cvv", "cvc", "csc", "security code", "door code", "gate code", "alarm code", "lock code",
    "garage code", "safe code", "keypad code",
)  # fmt: skip


def _pins(text: str, windows: list[Span] | None) -> Iterator[Span]:
    for match in _matches(_PIN, text, windows):
        label = match.group(0).lower()
        digits = match["value"]
        if "pin" in label and len(digits) < 4:
            continue
        yield match.span("value")


# --- key / secret / token assignments with a random-looking value -------------------------------

# The label's shape, searched inside one identifier (bounded, see _label_spans): anything, then a
# key word, then at most one more segment after a separator ("MYSERVICE_API_KEY_ID"). The suffix is
# possessive: it either reaches the identifier's end or the key word is not the label's.
_LABEL_WORD = re.compile(
    r"(?:api[_\-. ]?key|apikey|secret|token|access[_\-. ]?key|private[_\-. ]?key|"
    r"signing[_\-. ]?key|encryption[_\-. ]?key|master[_\-. ]?key|license[_\-. ]?key|licence[_\-. ]?key|"
    r"session[_\-. ]?key|app[_\-. ]?key|account[_\-. ]?key|credentials?|[_\-]key|(?<![A-Za-z])key)s?"
    r"(?:[_\-.][A-Za-z0-9][A-Za-z0-9_\-]*+)?\Z",
    re.IGNORECASE,
)
# What follows a label: an operator, then the value. Every repetition is bounded, so a match costs
# the same at any input length (a value longer than 256 characters is judged by its first 256).
_LABEL_TAIL = re.compile(
    r"[\"'\]]?(?P<op>\s{0,64}(?::=|=>|->|[:=])\s{0,64}|\s{1,64}(?:is|was|=)\s{1,64}|\s{1,64})[\"'`]?"
    r"(?P<value>[A-Za-z0-9_\-+/=.~]{16,256})",
    re.IGNORECASE,
)
# An identifier longer than this is not taken for a label ("MYSERVICE_API_KEY" is 17 characters).
_LONGEST_LABEL = 160


def entropy(value: str) -> float:
    """Shannon entropy of the characters of ``value``, bits per character."""
    counts = Counter(value)
    total = len(value)
    return -sum(n / total * math.log2(n / total) for n in counts.values())


_DIGIT = re.compile(r"\d")
_LETTER = re.compile(r"[^\W\d_]")


def looks_random(value: str, *, min_length: int = 16) -> bool:
    """Letters and digits mixed, 3+ bits of entropy per character, and not words joined by - _ . /"""
    value = value.strip(".,;:!?\"'`)")
    if len(value) < min_length or "://" in value:
        return False
    if _DIGIT.search(value) is None or _LETTER.search(value) is None:  # C-speed, not a step per character
        return False
    if entropy(value) < 3.0:
        return False
    parts = [p for p in re.split(r"[\-_./+~=]", value) if p]
    # "prod-db-password-2024", "django-insecure-7h", "acme.backups.v2": words, numbers and bits
    # of three characters joined; a random value has a longer part that is none of these.
    return not all(p.isalpha() or p.isdigit() or len(p) <= 3 for p in parts)


_PUBLIC_BEFORE = re.compile(r"(?:public|host|ssh|gpg|pgp|signing)\s*$", re.IGNORECASE)


_LABEL_HINTS = _register(("key", "secret", "token", "credential"))
_COMPOUND_BEFORE = re.compile(
    r"(?:api|access|secret|private|signing|encryption|master|license|licence|session|app|account)[ ]$", re.IGNORECASE
)


def _label_spans(scan: _Scan) -> list[Span]:
    """Each identifier that holds a label hint, once (``MYSERVICE_API_KEY``), widened to the word
    before it for two-word labels (``api key``, ``client secret``). Found in the identifier view
    with C-speed searches, and an identifier is taken once however many hints it holds, so a run
    of ``key_key_key…`` costs one look, not one per hint."""
    text, view, spans = scan.text, scan.ident, []
    points = sorted({p for hint in _LABEL_HINTS if hint in scan.present for p in scan.points(hint)})
    taken = -1
    for point in points:
        if point < taken:
            continue  # inside the identifier already looked at
        start = view.rfind(b" ", 0, point) + 1
        end = view.find(b" ", point)
        end = len(text) if end == -1 else end
        taken = end
        if end > start and text[end - 1] == "-" and text[end : end + 1] == ">":
            end -= 1  # "token->value": the arrow is the operator
        if end - start > _LONGEST_LABEL:
            continue
        compound = _COMPOUND_BEFORE.search(text, max(0, start - 12), start)
        spans.append((compound.start() if compound else start, end))
    return spans


def _labelled(text: str, windows: list[Span] | None) -> Iterator[Span]:
    judged = -1  # the end of the last value judged
    for start, end in _label_spans(_Scan(text)) if windows is None else windows:
        if start < judged:
            # A label inside the value just judged ("key=key=key=…"): its value is a part of that
            # one, already judged; judging each would cost a value's length per label.
            continue
        word = _LABEL_WORD.search(text, start, end)
        if word is None:
            continue
        tail = _LABEL_TAIL.match(text, end)
        if tail is None:
            continue
        judged = tail.end()
        label = text[start:end].lower()
        op = tail["op"].strip()
        # A bare "key" needs an = or a colon ("key=…"); "key is …" and "the key 42…" are prose.
        if label in ("key", "keys") and (
            op not in (":", "=", ":=", "=>") or _PUBLIC_BEFORE.search(text, max(0, start - 12), start)
        ):
            continue
        if looks_random(tail["value"]):
            yield tail.span("value")


# --- Authorization headers and Bearer tokens ------------------------------------------------------

_AUTH_HEADER = re.compile(
    r"authorization[\"']?\s{0,64}[:=]\s{0,64}[\"']?(?:(?P<scheme>bearer|token|basic|digest|apikey|api-key|sso-key|key)"
    r"\s{1,64})?(?P<value>[A-Za-z0-9\-._~+/]{8,512}={0,3})",
    re.IGNORECASE,
)
_BEARER = re.compile(r"(?<![A-Za-z])bearer\s{1,64}(?P<value>[A-Za-z0-9\-._~+/]{16,512}={0,3})", re.IGNORECASE)


def _auth_headers(text: str, windows: list[Span] | None) -> Iterator[Span]:
    for match in _matches(_AUTH_HEADER, text, windows):
        value = match["value"]
        if (match["scheme"] or "").lower() == "basic":
            if len(value) >= 8 and not _PLACEHOLDER.match(value):
                yield match.span("value")
        elif looks_random(value, min_length=12):
            yield match.span("value")
    for match in _matches(_BEARER, text, windows):
        if looks_random(match["value"]):
            yield match.span("value")


# --- an AWS secret access key without a label --------------------------------------------------------

_AWS_SECRET = re.compile(r"(?<![A-Za-z0-9/+=._:\-@%])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=_\-])")
_CAMEL_WORDS = re.compile(r"(?>[A-Z][a-z]{2,}|[A-Z]{2,}(?![a-z])|[a-z]{3,}|\d+)+")


def _aws_secret_keys(text: str, windows: list[Span] | None) -> Iterator[Span]:
    for match in _matches(_AWS_SECRET, text, windows):
        value = match.group(0)
        upper = sum(c.isupper() for c in value)
        lower = sum(c.islower() for c in value)
        if upper < 3 or lower < 3 or not any(c.isdigit() for c in value) or entropy(value) < 4.0:
            continue
        if all(_CAMEL_WORDS.fullmatch(part) for part in re.split(r"[/+]", value) if part):
            continue  # CamelCase words or a path: AbstractSingletonProxyFactoryBean/Config2
        yield match.span()


# --- payment cards, IBANs, US social security numbers -----------------------------------------

_CARD = re.compile(r"(?<![\d+\-.,/#])\d{4}(?:[ \-]?\d{2,6}){1,4}(?![\d])(?![.,/\-]\d)")
# Groupings printed on cards (and plain digits): 4-4-4-4, 4-4-4-4-3, 4-6-5 (Amex), 4-6-4 (Diners).
_CARD_GROUPS = {(4, 4, 4, 4), (4, 4, 4, 4, 3), (4, 4, 4, 4, 2), (4, 4, 4, 4, 1), (4, 6, 5), (4, 6, 4), (4, 4, 4, 3)}


def _card_network(digits: str) -> bool:
    """A card network's prefix with one of its lengths (Visa, Mastercard, Amex, Discover, Diners,
    JCB, UnionPay, Maestro)."""
    n = len(digits)
    two, three, four, six = int(digits[:2]), int(digits[:3]), int(digits[:4]), int(digits[:6])
    if digits[0] == "4":
        return n in (16, 19)
    if 51 <= two <= 55 or 2221 <= four <= 2720:
        return n == 16
    if two in (34, 37):
        return n == 15
    if four == 6011 or 644 <= three <= 649 or two == 65 or 622126 <= six <= 622925:
        return 16 <= n <= 19
    if 300 <= three <= 305 or two in (36, 38, 39):
        return 14 <= n <= 19
    if 3528 <= four <= 3589:
        return 16 <= n <= 19
    if two == 62:
        return 16 <= n <= 19
    if four in (5018, 5020, 5038, 5893, 6304, 6759, 6761, 6762, 6763):
        return 16 <= n <= 19
    return False


def luhn_valid(digits: str) -> bool:
    total = 0
    for index, char in enumerate(reversed(digits)):
        value = int(char)
        if index % 2:
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return total % 10 == 0


def _cards(text: str, windows: list[Span] | None) -> Iterator[Span]:
    for match in _matches(_CARD, text, windows):
        raw = match.group(0)
        separators = set(re.findall(r"[ \-]", raw))
        if len(separators) > 1:
            continue
        groups = tuple(len(g) for g in re.split(r"[ \-]", raw))
        if len(groups) > 1 and groups not in _CARD_GROUPS:
            continue
        digits = raw.replace(" ", "").replace("-", "")
        if 14 <= len(digits) <= 19 and _card_network(digits) and luhn_valid(digits):
            yield match.span()


# ISO 13616 registry: country → IBAN length.
_IBAN_LENGTHS = {
    **dict.fromkeys(["NO"], 15),
    **dict.fromkeys(["BE"], 16),
    **dict.fromkeys(["DK", "FI", "FO", "GL", "NL"], 18),
    **dict.fromkeys(["MK", "SI"], 19),
    **dict.fromkeys(["AT", "BA", "EE", "KZ", "LT", "LU", "XK"], 20),
    **dict.fromkeys(["CH", "HR", "LI", "LV"], 21),
    **dict.fromkeys(["BG", "BH", "CR", "DE", "GB", "GE", "IE", "ME", "RS", "VA"], 22),
    **dict.fromkeys(["AE", "GI", "IL", "IQ", "TL"], 23),
    **dict.fromkeys(["AD", "CZ", "ES", "MD", "PK", "RO", "SA", "SE", "SK", "TN", "VG"], 24),
    **dict.fromkeys(["LY", "PT", "ST"], 25),
    **dict.fromkeys(["IS", "TR"], 26),
    **dict.fromkeys(["FR", "GR", "IT", "MC", "MR", "SM"], 27),
    **dict.fromkeys(["AL", "AZ", "BY", "CY", "DO", "GT", "HU", "LB", "PL", "SV"], 28),
    **dict.fromkeys(["BR", "EG", "PS", "QA", "UA"], 29),
    **dict.fromkeys(["JO", "KW", "MU"], 30),
    **dict.fromkeys(["MT", "SC"], 31),
    **dict.fromkeys(["LC"], 32),
}
_IBAN = re.compile(r"(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,32}+")


def iban_valid(candidate: str) -> bool:
    compact = candidate.replace(" ", "").upper()
    if _IBAN_LENGTHS.get(compact[:2]) != len(compact) or not compact[2:4].isdigit():
        return False
    rearranged = compact[4:] + compact[:4]
    return int("".join(str(int(c, 36)) for c in rearranged)) % 97 == 1


def _ibans(text: str, windows: list[Span] | None) -> Iterator[Span]:
    for match in _matches(_IBAN, text, windows):
        raw = match.group(0)
        length = _IBAN_LENGTHS.get(raw[:2])
        if length is None:
            continue
        # The run may have taken the next group of capitals ("… 00 PLEASE"): try the exact length.
        compact, end = 0, match.start()
        for index, char in enumerate(raw):
            if char != " ":
                compact += 1
            if compact == length:
                end = match.start() + index + 1
                break
        else:
            continue
        if iban_valid(text[match.start() : end]) and (end == len(text) or not text[end].isalnum()):
            yield match.start(), end


_SSN = re.compile(r"(?<![\d\-/.])(?P<area>\d{3})-(?P<group>\d{2})-(?P<serial>\d{4})(?![\d\-/]|\.\d)")
_SSN_LABELLED = re.compile(
    r"(?:ssn|social\s{1,16}security(?:\s{1,16}(?:number|no\.?|#))?|ss#)\s{0,16}(?:is|was|:|#|=|-)?\s{0,16}"
    r"(?P<area>\d{3})[ .\-]?(?P<group>\d{2})[ .\-]?(?P<serial>\d{4})(?!\d)",
    re.IGNORECASE,
)


def _ssn_valid(match: re.Match[str]) -> bool:
    area = match["area"]
    return area not in ("000", "666") and area[0] != "9" and match["group"] != "00" and match["serial"] != "0000"


def _ssns(text: str, windows: list[Span] | None) -> Iterator[Span]:
    for pattern in (_SSN, _SSN_LABELLED):
        for match in _matches(pattern, text, windows):
            if _ssn_valid(match):
                yield match.span()


# --- the detectors, in the order they are tried ----------------------------------------------------


@cache
def _prefixed_detectors() -> list[_Detector]:
    detectors = []
    for path, hints in _DETECT_SECRETS_PLUGINS.items():
        module, cls = path.rsplit(".", 1)
        plugin = getattr(importlib.import_module(f"detect_secrets.plugins.{module}"), cls)()
        keyworded = cls in ("CloudantDetector", "IbmCloudIamDetector", "IbmCosHmacDetector", "SoftlayerDetector")
        locate = near_hints(hints) if hints else everywhere
        if keyworded:  # their values are 24 to 64 token characters in a row: no such run, no match
            locate = _with_run(near_hints(hints or (), before=40, after=160), 24)
        if cls == "TelegramBotTokenDetector":
            locate = near_shape(b"99999999:", 4, 50)
        if cls == "DiscordBotTokenDetector":
            locate = near_shape(b"x" * 23, 1, 90, view="token")
        detectors.append(_Detector(plugin.secret_type, locate, _plugin_finder(plugin)))
    for name, hints, regex, flags in _PREFIXED:
        # (?<!\w): a token does not start inside a longer word (what _bounded checks after the
        # match), in the regex too, so a run of prefixes ("APAPAP…") is not scanned from each one.
        detectors.append(_Detector(name, near_hints(hints), _bounded(re.compile(r"(?<!\w)" + regex, flags))))
    return detectors


@cache
def _detectors() -> list[_Detector]:
    return [
        *_prefixed_detectors(),
        _Detector("Password", at_hints(("pass", "pwd", "pw", "pswd")), _passwords),
        _Detector("PIN or security code", at_hints(_PIN_HINTS), _pins),
        _Detector("Secret assignment", _label_spans, _labelled),
        _Detector("Authorization header", at_hints(("authorization", "bearer")), _auth_headers),
        _Detector("AWS secret access key (unlabelled)", near_shape(b"x" * 40, 1, 41, view="base64"), _aws_secret_keys),
        _Detector("Payment card number", _card_windows, _cards),
        _Detector("IBAN", near_shape(b"AA99", 1, 50), _ibans),
        _Detector("US social security number", _ssn_windows, _ssns),
        *importlib.import_module("core.secret_shapes").detectors(),
    ]


_CARD_SHAPE = re.compile(rb"9999(?:[ \-]?9{2,6}){1,4}")


def _card_windows(scan: _Scan) -> list[Span]:
    # Runs of digit groups with 14 digits or more, found in the shape view (a literal prefix the
    # regex engine searches fast) before the real regex looks at them.
    points = [m.start() for m in _CARD_SHAPE.finditer(scan.shape) if m.group(0).count(b"9") >= 14]
    return _merge(points, 1, 30, len(scan.text)) if points else []


_SSN_HINTS = _register(("ssn", "social security", "ss#"))


def _ssn_windows(scan: _Scan) -> list[Span]:
    points = _occurrences(scan.shape, b"999-99-9999")
    for hint in _SSN_HINTS:
        if hint in scan.present:
            points += scan.points(hint)
    return _merge(points, 1, 60, len(scan.text))


def _active(scan: _Scan) -> Iterator[tuple[_Detector, list[Span] | None]]:
    for detector in _detectors():
        windows = detector.locate(scan)
        if windows is None or windows:
            yield detector, windows


# No shape fits in fewer characters ("PIN 4821" is the shortest labelled one).
_SHORTEST = 6


def find_secret(text: str) -> str | None:
    """The kind of the first credential-shaped string in ``text`` (after normalization), or None."""
    if not isinstance(text, str) or len(text) < _SHORTEST:
        return None
    _detectors()  # built (and their hints registered) before the first scan
    scan = _Scan(normalize(text))
    for detector, windows in _active(scan):
        if next(detector.find(scan.text, windows), None) is not None:
            return detector.name
    return None


#: Texts :func:`reject_secrets` found clean lately, oldest first (never one with a secret). A field
#: is scanned by its entrance's contract and then again by the service, for the service's other
#: callers (the admin, commands, imports): :func:`secret_kind` and :func:`recheck_secrets`, which the
#: services call, look a text up here before scanning it. The scan itself always runs where it runs
#: first. Bounded in entries and in the length of a text kept; the scanner is a pure function of
#: the text, so a text found clean is clean.
_CLEAN: dict[str, None] = {}
_CLEAN_ENTRIES = 256
_CLEAN_MAX_CHARS = 16_000
_clean_lock = threading.Lock()


def _scanned(text: str) -> str | None:
    """:func:`find_secret`, the text recorded in ``_CLEAN`` when it is clean."""
    kind = find_secret(text)
    if kind is None and _SHORTEST <= len(text) <= _CLEAN_MAX_CHARS:
        with _clean_lock:
            _CLEAN[text] = None
            while len(_CLEAN) > _CLEAN_ENTRIES:
                del _CLEAN[next(iter(_CLEAN))]
    return kind


def secret_kind(text: str) -> str | None:
    """:func:`find_secret` for a text that may have been scanned already (``_CLEAN``): then a lookup."""
    if isinstance(text, str) and text in _CLEAN:
        return None
    return find_secret(text)


def redact(text: str) -> str:
    """``text`` normalized, every credential-shaped span replaced by ``[REDACTED]``.

    For text Mnemo composes itself out of what others said (a failing tool's error message in an
    observation): what is stored keeps its meaning without the secret.
    """
    _detectors()
    normalized = normalize(text)
    for _ in range(10):  # each pass removes what it finds; a new shape may only show after a pass
        scan = _Scan(normalized)
        spans = sorted({span for detector, windows in _active(scan) for span in detector.find(normalized, windows)})
        if not spans:
            return normalized
        merged: list[list[int]] = []
        for start, end in spans:
            if merged and start <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], end)
            else:
                merged.append([start, end])
        # One join, not a new string per span (which cost the text's length for each of them).
        pieces, at = [], 0
        for start, end in merged:
            pieces += [normalized[at:start], REDACTED]
            at = end
        normalized = "".join([*pieces, normalized[at:]])
    return REDACTED


Path = tuple[str | int, ...]


def _strings(value: Any, name: str) -> Iterator[tuple[Path, str]]:
    """Every string in a JSON value (dict keys included) with where it is (field, keys, list
    indexes); iterative, so no depth exhausts the stack."""
    stack: list[tuple[Any, Path]] = [(value, (name,))]
    while stack:
        item, where = stack.pop()
        if isinstance(item, str):
            yield where, item
        elif isinstance(item, dict):
            for key, inner in item.items():
                if isinstance(key, str) and isinstance(inner, str):
                    # Scanned together: {"password": "hunter2"} is a password, each half alone is not.
                    yield (*where, key), f"{key}: {inner}"
                    continue
                if isinstance(key, str):
                    yield (*where, key), key
                stack.append((inner, (*where, str(key))))
        elif isinstance(item, list | tuple):
            stack.extend((inner, (*where, i)) for i, inner in enumerate(item))


def _shown(path: Path) -> str:
    """``metadata.deploy[0].token`` for a refusal message; a key that is itself secret-shaped
    (or long) is shown as ``<key>``, so the message never repeats what it refused."""
    shown = str(path[0])
    for part in path[1:]:
        if isinstance(part, int):
            shown += f"[{part}]"
        else:
            shown += "." + (part if len(part) <= 64 and find_secret(part) is None else "<key>")
    return shown


def reject_secrets(**fields: Any) -> None:
    """Raise SECRET_REJECTED if any field (a string, or JSON: keys and values at any depth)
    carries something shaped like a secret. The message names the field and the kind, never the
    value."""
    _reject(fields, _scanned)


def recheck_secrets(**fields: Any) -> None:
    """:func:`reject_secrets` where the values may have been scanned already (a service behind an
    entrance's contract): a text found clean lately is looked up, any other scanned."""
    _reject(fields, secret_kind)


def _reject(fields: dict[str, Any], kind_of: Callable[[str], str | None]) -> None:
    for name, value in fields.items():
        if value is None:
            continue
        for where, text in _strings(value, name):
            kind = kind_of(text)
            if kind:
                raise SecretRejected(f"{_shown(where)} looks like a secret ({kind}); it was not stored.")


def secret_in(value: Any, *, field: str = "value") -> str | None:
    """The refusal message for ``value`` (string or JSON), or None: for forms, which report
    errors instead of raising domain errors."""
    try:
        reject_secrets(**{field: value})
    except SecretRejected as exc:
        return exc.message
    return None


class SecretScanningForm(forms.ModelForm):
    """A ModelForm for admin pages that write around the services: every text, list or JSON
    field it cleans is scanned, and a secret is that field's form error (not a 500, not a
    silent save)."""

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for name, value in list(data.items()):
            if isinstance(value, str | list | dict):
                message = secret_in(value, field=name)
                if message:
                    self.add_error(name, message)
        return data
