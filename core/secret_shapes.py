"""Secret shapes added to the one scanner (core/secrets.py) in issue 24, each a class of shapes.

``detectors()`` is appended to ``core.secrets._detectors()``; each detector follows that module's
contract (a ``locate`` that finds the windows worth looking at through cheap views of the text,
a ``find`` that yields the spans of secrets in them) and is linear in the length of the text:
every repetition is bounded (possessive where it may not backtrack), each pattern is searched
for once over its windows (the whole text when its hints are many), and nothing slices "the rest
of the text" per match. tests/core/test_secret_shapes.py proves each shape on generated variants
and each detector linear.

- **LLM API keys**: OpenRouter ``sk-or-v1-<64 hex>``, and any ``sk-`` token of 20 to 256
  random-looking characters (OpenAI legacy keys, DeepSeek-like ``sk-<32 hex>``, …).
- **PuTTY private keys**, v2 and v3: the header with its algorithm, ``Private-Lines:`` followed
  by base64, ``Private-MAC:``.
- **Secret keys with symbols** (Django ``SECRET_KEY = '…'``, ``DJANGO_SECRET_KEY=…``): a
  secret/key/token/salt label, then a random value of 20+ characters with symbols such as
  ``!@#$%^&*()``; and any ``django-insecure-…`` key.
- **Credentials on a command line**: ``curl -u user:password``, ``--user``, ``--proxy-user``,
  httpie's ``-a``/``--auth``, wget's ``--password``/``--http-password``, ``mysql -pSecret``,
  ``sshpass -p …``, ``redis-cli -a …``, after one of these commands (typed in lower case) on
  its line or continuation lines and in the same sentence; ``$VAR``, ``<password>`` are not.
- **Payment cards with other separators**: dots (``4111.1111.1111.1111``), slashes,
  underscores, middle dots, bullets, several spaces, `` - ``; Luhn and network as in ``_cards``.
- **Encoded text**: base64 runs (standard or URL-safe, 16+ characters, decoding to printable
  UTF-8), runs holding ``%XX`` escapes, runs holding HTML entities; each run is decoded once
  (entities once, escapes once, base64 once, also base64 that was escaped: no recursion, and
  never more decoded text than the text's length) and every other detector runs on the decoded
  text.
- **Tokens split in pieces**: a known prefix, then up to 8 pieces of up to 128 characters joined
  by white space, line continuations or string concatenation (``"ghp_ab" + "cd…"``,
  ``'…' '…'``, ``'…' . '…'``), checked joined against the vendor-token detectors; a piece that
  reads as a word ends it ("ghp_ tokens are …" is a sentence).
- **Reversed tokens**: a reversed known prefix (``_phg``, ``AIKA``, ``-ks``) ending a run of 16+
  token characters: that run, reversed, is checked against the vendor-token detectors only.
- **Password phrases and labels in French, German, Spanish, Italian, Portuguese and Dutch**
  (``mon mot de passe est …``, ``das Kennwort lautet …``, ``mi contraseña es …``,
  ``la password del wifi è …``, ``a minha senha é …``, ``mijn wachtwoord is …``,
  ``Passwort: …``, ``contraseña=…``, ``mot_de_passe=…``), with the English rules: a value with a
  digit or a symbol is a password, a plain word only when the sentence ends with it, and words
  that describe ("sur le frigo", "vergessen", "olvidada") are not.
"""

from __future__ import annotations

import base64
import binascii
import html
import re
import urllib.parse
from bisect import bisect_right
from collections.abc import Callable, Iterator
from functools import cache

from core.secrets import (
    _CARD_GROUPS,
    _NOT_A_PASSWORD,
    _PLACEHOLDER,
    Finder,
    Span,
    _bounded,
    _card_network,
    _Detector,
    _matches,
    _prefixed_detectors,
    _register,
    _Scan,
    at_hints,
    entropy,
    looks_random,
    luhn_valid,
    near_hints,
    normalize,
)

Locate = Callable[[_Scan], list[Span]]


def _windows_of(locate: Locate, text: str, windows: list[Span] | None) -> list[Span]:
    """The windows a finder was given, or its own when called on the whole text (None)."""
    return locate(_Scan(text)) if windows is None else windows


def _candidates(pattern: re.Pattern[str], text: str, windows: list[Span]) -> Iterator[re.Match[str]]:
    """``pattern``'s matches in the windows, as ``finditer`` finds them (each pattern here has
    bounded matches, so this is linear). A match cut by a window's end is matched again
    without the end."""
    for start, end in windows:
        for match in pattern.finditer(text, start, end):
            if match.end() >= end and end < len(text):
                match = pattern.match(text, match.start()) or match
            yield match


Folded = tuple[re.Pattern[str], re.Pattern[str]]


def _folded(source: str) -> Folded:
    """A lower-case pattern compiled twice: case-sensitive, to search the lower-cased text (twice
    as fast as IGNORECASE, whose literals the engine cannot skip to), and case-insensitive for
    the rare text whose lower-casing changes its length ("İ")."""
    return re.compile(source), re.compile(source, re.IGNORECASE)


def _folded_candidates(pattern: Folded, text: str, windows: list[Span]) -> Iterator[re.Match[str]]:
    """``_candidates`` case-insensitively. The matches may be on ``text.lower()``, which has the
    same offsets: read what a group holds from ``text``, by its span."""
    lower = text.lower()
    if len(lower) == len(text):
        yield from _candidates(pattern[0], lower, windows)
    else:
        yield from _candidates(pattern[1], text, windows)


def _near(hints: tuple[str, ...], before: int, after: int) -> Locate:
    """Windows around the hints' occurrences; the whole text as one window when they occur more
    than 32 times (counted at C speed), so a text full of hints costs one search by the
    pattern (its own literal first characters skip the rest) and no Python work per hint."""
    _register(hints)
    near = near_hints(hints, before, after)

    def locate(scan: _Scan) -> list[Span]:
        present = [hint for hint in hints if hint in scan.present]
        if not present:
            return []
        if sum((scan.lower if hint == hint.lower() else scan.text).count(hint) for hint in present) > 32:
            return [(0, len(scan.text))]
        return near(scan)

    return locate


# Derived texts (decoded, joined, reversed) are checked together: one _Scan over all of them
# (each distinct text once), separated so that no shape runs from one into the next, and each
# span found is mapped back to the part of the original text it came from.
_SEPARATOR = "\n\x00\n"

Piece = tuple[Span, str, bool]  # (where in the text, the derived text, derived by reversing?)


def _found_in(pieces: list[Piece], detectors: list[_Detector]) -> Iterator[Span]:
    """Where in the original text the detectors find something in the derived texts: the whole
    piece for decoded or joined text, the exact span for reversed text."""
    if not pieces:
        return
    copies: dict[str, list[int]] = {}
    for index, (_, derived, _) in enumerate(pieces):
        copies.setdefault(derived, []).append(index)
    unique = list(copies)
    offsets, at = [], 0
    for derived in unique:
        offsets.append(at)
        at += len(derived) + len(_SEPARATOR)
    joined = _SEPARATOR.join(unique)
    scan = _Scan(joined)
    for detector in detectors:
        windows = detector.locate(scan)
        if windows is not None and not windows:
            continue
        for start, end in detector.find(joined, windows):
            which = bisect_right(offsets, start) - 1
            a, b = start - offsets[which], min(end - offsets[which], len(unique[which]))
            for index in copies[unique[which]]:
                (first, last), _, backwards = pieces[index]
                yield (last - b, last - a) if backwards else (first, last)


# --- LLM API keys: sk-… ---------------------------------------------------------------------------

# A whole token ("task-…", "-sk-…" are not keys) of 20 to 256 characters after "sk-".
_SK_KEY = re.compile(r"s(?<![A-Za-z0-9_\-]s)k-(?P<body>[A-Za-z0-9_\-]{20,256}+)(?![A-Za-z0-9_\-])")


def _llm_key_finder(locate: Locate) -> Finder:
    def find(text: str, windows: list[Span] | None) -> Iterator[Span]:
        for match in _candidates(_SK_KEY, text, _windows_of(locate, text, windows)):
            body = match["body"]
            if len(set(body)) >= 10 and looks_random(body):  # the set: a cheap first cut
                yield match.span()

    return find


# --- Django-style secret keys (symbols in the value), django-insecure-… --------------------------

_SYMBOL_SECRET = _folded(
    r"(?:secret|key|token|salt)[a-z0-9_.\-]{0,24}+[\"'\]]{0,2}[ \t]{0,8}(?::=|=>|[:=])[ \t]{0,8}"
    r"(?:[bruf]{0,2}(?P<quote>[\"'`]))?(?P<value>[^\s\"'`]{16,200}+)"
)
_DJANGO_INSECURE = _folded(r"django-insecure-(?P<value>[^\s\"'`]{20,200}+)")
# Characters a value of core.secrets' "Secret assignment" shape never has.
_SYMBOL = re.compile(r"[^A-Za-z0-9\-_.+/=~]")
_LETTER_DIGIT = re.compile(r"[A-Za-z][0-9]|[0-9][A-Za-z]")
_LETTER = re.compile(r"[A-Za-z]")
_DIGIT = re.compile(r"[0-9]")
# A label that is a URL's query parameter (…?key=… or …&api_key=…): its value ends at & or #.
_IN_QUERY = re.compile(r"[?&][A-Za-z0-9_.\-]{0,32}$")
_QUERY_END = re.compile(r"[&#]")
# Not a value but a reference to one: $VAR, ${VAR}, $(cmd), %(name)s, <placeholder>, {{ var }},
# a call (get_random_secret_key()).
_REFERENCE = re.compile(r"\$\{?[A-Za-z_]\w*\}?$|\$\(|%\(\w*\)s|<[^<>]*>$|\{\{|[A-Za-z_][\w.]*\([\w.,=]*\)$")


def _random_with_symbols(value: str, *, need_symbol: bool = True) -> bool:
    """20+ characters with letters and digits, 3.5+ bits of entropy per character, and random:
    a part mixing letters and digits (a letter next to a digit), or three symbols or more
    ("my-secret-key!2024" is words). The cheap tests first."""
    if len(value) < 20:
        return False
    symbols = len(_SYMBOL.findall(value))
    if need_symbol and not symbols:
        return False
    if not (_LETTER_DIGIT.search(value) or (symbols >= 3 and _LETTER.search(value) and _DIGIT.search(value))):
        return False
    return "://" not in value and not _REFERENCE.match(value) and entropy(value) >= 3.5


def _symbol_secret_finder(locate: Locate, pattern: Folded, *, need_symbol: bool) -> Finder:
    def find(text: str, windows: list[Span] | None) -> Iterator[Span]:
        for match in _folded_candidates(pattern, text, _windows_of(locate, text, windows)):
            value = text[match.start("value") : match.end("value")]
            if not ("quote" in pattern[0].groupindex and match["quote"]):
                value = value.rstrip(".,;)")
                if _IN_QUERY.search(text, max(0, match.start() - 32), match.start()):
                    value = _QUERY_END.split(value, maxsplit=1)[0]  # ?key=shoes2024&page=2: "shoes2024"
            if _random_with_symbols(value, need_symbol=need_symbol):
                start = match.start("value") if need_symbol else match.start()
                yield start, match.start("value") + len(value)

    return find


# --- credentials on a command line ------------------------------------------------------------------

# Commands are typed in lower case ("Mongo" and "HTTP" in a sentence are not commands).
_COMMAND = re.compile(
    r"(?<![\w\-./])(?P<command>curl|wget|https?|httpie|xhs?|lftp|svn|mysql|mysqldump|mysqladmin|mariadb|"
    r"mariadb-dump|mongo|mongosh|mongodump|redis-cli|sshpass|smbclient|docker|podman|helm|psql)(?:\.exe)?"
    r"(?![\w\-:/.])"
)
# The end of a sentence: a command's options do not run past one.
_SENTENCE_END = re.compile(r"[.!?][ \t]+[A-Z]")
_USER_PASSWORD_COMMANDS = frozenset({"curl", "wget", "http", "https", "httpie", "xh", "xhs"})
_ATTACHED_P_COMMANDS = frozenset({"mysql", "mysqldump", "mysqladmin", "mariadb", "mariadb-dump"})
_SPACED_COMMANDS = {"p": frozenset({"sshpass", "mongo", "mongosh", "mongodump"}), "a": frozenset({"redis-cli"})}
_OPTION = re.compile(
    r"-(?<![\w\-]-)(?:"
    r"(?:-(?:proxy-)?user|-auth|[uUa])(?:[ \t]{1,4}|=)?[\"']?(?P<user>[^\s:\"']{1,64}+):(?P<pair>[^\s\"']{1,128}+)"
    r"|-(?:http-|ftp-|proxy-)?pass(?:word|wd)?(?:=|[ \t]{1,4})[\"']?(?P<password>[^\s\"']{1,128}+)"
    r"|p[\"']?(?P<attached>[^\s\"'\-][^\s\"']{0,127}+)"
    r"|(?P<flag>[pa])[ \t]{1,4}[\"']?(?P<spaced>[^\s\"'\-][^\s\"']{0,127}+)"
    r")"
)
# Where a command's name may be: the options that matter come after it, on its line.
_COMMAND_HINTS = (
    "curl", "wget", "http ", "https ", "httpie", "xh ", "xhs ", "lftp", "svn ", "mysql", "mariadb", "mongo",
    "redis-cli", "sshpass", "smbclient", "docker", "podman", "helm ", "psql",
)  # fmt: skip
# $VAR, ${VAR}, $(cmd), %VAR%, <password>, {{ var }}, ***, xxx, ..., [password], and "-" (stdin).
_CLI_PLACEHOLDER = re.compile(r"[$%<]|\{\{|\*+$|x+$|\.\.\.|\[[^\]]*\]$|-$", re.IGNORECASE)


def _command_before(commands: list[tuple[int, str]], text: str, at: int) -> str | None:
    """The command run on the line (or its continuation lines) and in the sentence where ``at``
    is, if any."""
    index = bisect_right(commands, (at, "")) - 1
    if index < 0 or at - commands[index][0] > 300:
        return None
    between = text[commands[index][0] : at]
    if between.count("\n") != between.count("\\\n") + between.count("`\n") or _SENTENCE_END.search(between):
        return None
    return commands[index][1]


def _cli_finder(locate: Locate) -> Finder:
    def find(text: str, windows: list[Span] | None) -> Iterator[Span]:
        for start, end in _windows_of(locate, text, windows):  # each from a command's name on
            commands = [(m.end(), m["command"]) for m in _COMMAND.finditer(text, start, end)]
            if not commands:
                continue
            for match in _candidates(_OPTION, text, [(start, end)]):
                if match["pair"] is not None:
                    group, allowed = "pair", _USER_PASSWORD_COMMANDS
                elif match["password"] is not None:
                    group, allowed = "password", None
                elif match["attached"] is not None:
                    group, allowed = "attached", _ATTACHED_P_COMMANDS
                else:
                    group, allowed = "spaced", _SPACED_COMMANDS[match["flag"]]
                if _CLI_PLACEHOLDER.match(match[group]):
                    continue
                command = _command_before(commands, text, match.start())
                if command is not None and (allowed is None or command in allowed):
                    yield match.span(group)

    return find


# --- payment cards with other separators ----------------------------------------------------------

# Dots, slashes, underscores, middle dots, bullets, en and em dashes, several spaces, " - ": the
# plain, single-space and single-dash forms are core.secrets' _cards.
_CARD_SEPARATED = re.compile(
    r"(?<![\d.,/#+\-_·•–—‐])\d{4}(?P<sep>[ \t]{2,3}|[ \t]?[./_·•–—‐][ \t]?|[ \t]-[ \t])"
    r"\d{2,6}+(?:(?P=sep)\d{1,6}+){1,3}(?!\d)(?!(?P=sep)\d)"
)
# Runs of such digit groups in the byte view (non-ASCII characters read "?"): where it may be.
_CARD_SEPARATED_RUN = re.compile(rb"9999(?:(?:[ \t]{2,3}|[ \t]?[./_?][ \t]?|[ \t]-[ \t])9{1,6})++")
_NOT_DIGIT = re.compile(r"\D+")


def _separated_card_windows(scan: _Scan) -> list[Span]:
    size = len(scan.text)
    return [
        (max(0, m.start() - 1), min(size, m.end() + 1))
        for m in _CARD_SEPARATED_RUN.finditer(scan.shape)
        if m.group(0).count(b"9") >= 14
    ]


def _separated_cards(text: str, windows: list[Span] | None) -> Iterator[Span]:
    for match in _matches(_CARD_SEPARATED, text, _windows_of(_separated_card_windows, text, windows)):
        digits = _NOT_DIGIT.sub("", match.group(0))
        if not 14 <= len(digits) <= 19 or digits[0] not in "23456" or not luhn_valid(digits):
            continue
        if tuple(map(len, _NOT_DIGIT.split(match.group(0)))) in _CARD_GROUPS and _card_network(digits):
            yield match.span()


# --- encoded text: base64, %XX, HTML entities -----------------------------------------------------

_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}|&(?:#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_PERCENT = re.compile(r"%[0-9A-Fa-f]{2}")
_BASE64_RUN = re.compile(r"(?<![A-Za-z0-9+/_\-])[A-Za-z0-9+/_\-]{16,}+={0,2}")
_BASE64_VIEW_RUN = re.compile(rb"x++={0,2}")
_SIXTEEN = b"x" * 16
# One byte per character: x for a character of either base64 alphabet, "=" and white space kept,
# "." for anything else. And: a space for white space, x for anything else.
_BASE64_VIEW = bytes(
    ord("x") if chr(b).isascii() and (chr(b).isalnum() or chr(b) in "+/_-") else b if b in b"= " else ord(".")
    for b in range(256)
)
_SPACE_VIEW = bytes(ord(" ") if chr(b) in " \t\n\r\x0b\x0c" else ord("x") for b in range(256))
_URLSAFE = str.maketrans("-_", "+/")
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f-\x9f\ufffd]")


def _encoded_windows(scan: _Scan) -> list[Span]:
    """The runs worth decoding: each white-space-delimited run holding an escape or an entity,
    and each base64 run of 16+ characters outside them; sorted, disjoint."""
    text = scan.text
    runs: list[Span] = []
    if "%" in text or "&" in text:
        spaces = scan.ascii.translate(_SPACE_VIEW)
        at = 0
        while (match := _ESCAPE.search(text, at)) is not None:
            start = spaces.rfind(b" ", at, match.start()) + 1 or at
            end = spaces.find(b" ", match.end())
            end = len(text) if end == -1 else end
            runs.append((start, end))
            at = end
    found = list(runs)
    view, index = scan.ascii.translate(_BASE64_VIEW), 0
    at = view.find(_SIXTEEN)  # a run's first 16 characters: where it starts (C speed)
    while at != -1:
        end = _BASE64_VIEW_RUN.match(view, at).end()  # type: ignore[union-attr]
        while index < len(runs) and runs[index][1] <= at:
            index += 1
        if index == len(runs) or end <= runs[index][0]:  # not inside a run decoded as a whole
            found.append((at, end))
        at = view.find(_SIXTEEN, end)
    return sorted(found)


def _base64_text(run: str) -> str | None:
    """``run`` decoded from base64 (either alphabet), when that is mostly printable UTF-8."""
    core = run.rstrip("=")
    if ("-" in core or "_" in core) and ("+" in core or "/" in core):
        return None
    if len(core) % 4 == 1:
        core = core[:-1]
    try:
        decoded = base64.b64decode(core.translate(_URLSAFE) + "=" * (-len(core) % 4), validate=True).decode()
    except (binascii.Error, ValueError):  # UnicodeDecodeError is a ValueError
        return None
    return None if len(_CONTROL.findall(decoded)) * 10 > len(decoded) else decoded


def _encoded(text: str, windows: list[Span] | None) -> Iterator[Span]:
    budget = len(text)  # decoded text in all: at most the length of the text
    pieces: list[Piece] = []

    def add(span: Span, decoded: str | None) -> None:
        nonlocal budget
        if decoded and budget >= len(decoded):
            budget -= len(decoded)
            pieces.append((span, normalize(decoded), False))

    for start, end in _windows_of(_encoded_windows, text, windows):
        run = text[start:end]
        if "%" not in run and "&" not in run:
            add((start, end), _base64_text(run))
            continue
        # Entities once, escapes once (only if the run had them: "&#37;41" stays "%41").
        decoded = html.unescape(run) if "&" in run else run
        if _PERCENT.search(run):
            decoded = urllib.parse.unquote_plus(decoded)
        if decoded == run:
            continue
        # Base64 that was escaped (%3D padding, &#43;): decoded in its place when it is the whole
        # run; when it is part of it, the run as it reads is kept and, budget allowing, read once
        # more with the base64 decoded in place.
        whole = _BASE64_RUN.fullmatch(decoded.strip("\"'`()[]{}<>,;"))
        inner = whole and _base64_text(whole.group(0))
        if inner:
            add((start, end), inner)
            continue
        add((start, end), decoded)
        replaced = _BASE64_RUN.sub(lambda m: _base64_text(m.group(0)) or m.group(0), decoded)
        if replaced != decoded:
            add((start, end), replaced)
    yield from _found_in(pieces, _plain_detectors())


# --- tokens split in pieces -------------------------------------------------------------------------

# Known prefixes of vendor tokens, case as it is (the detectors' regexes are case-sensitive).
_TOKEN_PREFIXES = (
    "AKIA", "ASIA", "ABIA", "ACCA", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "gldt-",
    "glrt-", "glptt-", "xoxb-", "xoxp-", "xoxa-", "xoxo-", "xoxs-", "xoxr-", "xoxe-", "xapp-", "sk-", "sk_live_",
    "rk_live_", "sk_test_", "rk_test_", "whsec_", "AIza", "GOCSPX-", "hf_", "npm_", "pypi-", "SG.", "eyJ",
    "sq0csp-", "dop_v1_", "doo_v1_", "shpat_", "shpss_", "dapi", "PMAK-", "lin_api_", "hvs.", "gsk_", "r8_",
    "pplx-", "xai-", "AKC", "ntn_", "glsa_", "glc_", "AGE-SECRET-KEY-1",
)  # fmt: skip
_PIECE = r"[A-Za-z0-9_\-+/=.]"
# Between two pieces: blanks (at most one line break, a shell or Python continuation allowed) not
# followed by a plain word (that is a sentence going on), or the end of one string literal and the
# start of the next: "…" + "…", '…' '…', '…' . '…', "…" & "…", '…' || '…', "…", "…" (a list
# joined), across a line break.
_BLANK = r"(?:[ \t]{1,4}(?:\\?\r?\n[ \t]{0,40})?|\\?\r?\n[ \t]{0,40})"
_QUOTED = r"[\"'`][ \t]{0,4}(?:\+|\.\.?|&|\|\||,)?[ \t]{0,4}(?:\\?\r?\n[ \t]{0,40})?[ \t]{0,4}[\"'`]"
_PLAIN_WORD = rf"[A-Za-z][a-z]++[.,;:!?]?(?!{_PIECE})"
# A prefix that starts a run of token characters ("=" may come before it: KEY=AKIA…), then up to 8
# pieces of up to 128 characters; the first has no "=", so attempts after "=" never rescan a run.
_CHAIN = re.compile(
    "(?:"
    + "|".join(f"{re.escape(p)}(?<![A-Za-z0-9_\\-+/.]{re.escape(p)})" for p in _TOKEN_PREFIXES)
    + rf")[A-Za-z0-9_\-+/.]{{0,124}}+(?:(?:{_BLANK}(?!{_PLAIN_WORD})|{_QUOTED})(?P<last>{_PIECE}{{1,128}}+)){{1,7}}"
)
_GAPS = re.compile(rf"{_QUOTED}|[ \t\r\n\\]+")


def _split_pieces(text: str, windows: list[Span] | None) -> Iterator[Span]:
    """A prefixed token in 2 to 8 pieces: each chain of pieces from a prefix is joined (and
    joined without its last piece, which may be the next word) and checked once."""
    pieces: list[Piece] = []
    for chain in _candidates(_CHAIN, text, _windows_of(_split_windows, text, windows)):
        joined = _GAPS.sub("", chain.group(0)).rstrip(".")
        # Random tokens have digits; "AKIA KEYS ARE FOR IAM USERS" has none.
        if len(joined) >= 16 and _DIGIT.search(joined, 4):
            pieces.append((chain.span(), joined, False))
            shorter = _GAPS.sub("", text[chain.start() : chain.start("last")]).rstrip(".")
            if len(shorter) >= 16:
                pieces.append(((chain.start(), chain.start("last")), shorter, False))
    yield from _found_in(pieces, _token_detectors())


# --- reversed tokens -----------------------------------------------------------------------------

# Each prefix reversed, where 16 token characters or more come before it (the reversed token's
# body) and no token character but "." after (where the reversed token starts); one pattern per
# hint, so each is searched for by its literal. Prefixes whose reversal is common in prose ("dapi"
# reads "ipad", "AKC" is in "HACKATHON") are left out; a reversed PEM header ("-----YEK ETAVIRP
# ASR NIGEB-----") has blanks: its window is the 48 characters before.
_REVERSED_HINTS = tuple(p[::-1] for p in _TOKEN_PREFIXES if p not in ("dapi", "AKC")) + ("NIGEB-----",)
_REVERSED_PREFIX = {
    hint: re.compile(
        re.escape(hint)
        + (r"(?<=[A-Za-z0-9_\-+/=.]{16}" + re.escape(hint) + ")" if hint != "NIGEB-----" else "")
        + r"(?![A-Za-z0-9_\-+/=])"
    )
    for hint in _REVERSED_HINTS
}
_RUN_VIEW = bytes(ord("x") if chr(b).isascii() and (chr(b).isalnum() or chr(b) in "_-+/=.") else 32 for b in range(256))


def _reversed_windows(scan: _Scan) -> list[Span]:
    """For each reversed prefix found, the run of token characters before it (up to 256, the
    reversed token) and one character after; disjoint."""
    text, view = scan.text, b""
    found = sorted(
        (match.start(), match.end())
        for hint, pattern in _REVERSED_PREFIX.items()
        if hint in scan.present
        for match in pattern.finditer(text)
    )
    windows: list[Span] = []
    done = 0
    for start, end in found:
        if start < done:
            continue
        if end - start == 10 and text.startswith("NIGEB-----", start):
            low = max(done, start - 48)
        else:
            view = view or scan.ascii.translate(_RUN_VIEW)
            low = view.rfind(b" ", max(done, start - 256), start) + 1 or max(done, start - 256)
        done = min(len(text), end + 1)
        windows.append((low, done))
    return windows


def _reversed(text: str, windows: list[Span] | None) -> Iterator[Span]:
    found = _windows_of(_reversed_windows, text, windows)
    yield from _found_in([((start, end), text[start:end][::-1], True) for start, end in found], _token_detectors())


# --- password phrases and labels in French, German, Spanish, Italian, Portuguese, Dutch --------------

_FOREIGN_LABELS = (
    "mot de passe", "mots de passe", "mot_de_passe", "mot-de-passe", "motdepasse", "mdp", "passwort", "passwört",
    "kennwort", "kennwört", "contraseña", "contrasena", "clave", "senha", "palavra-passe", "palavra passe",
    "palavras-passe", "wachtwoord", "parola d'ordine", "password",
)  # fmt: skip
# A word of what a password is for: no sentence's full stop in it ("du wifi. Order …"), dots inside
# (a host name, an e-mail address) allowed.
_ABOUT_WORD = r"[\w@\-']{1,40}+(?:\.[\w@\-']{1,40}+){0,3}"
_FOREIGN = _folded(
    # each branch starts with a letter, its look-behind after it: the engine then skips to the letters
    r"(?P<label>mots?[ _\-]?de[ _\-]?passe|m(?<![A-Za-z]m)dp(?![A-Za-z])|passw(?:ort|örter|oerter)(?:e?s)?|"
    r"kennw(?:ort|örter)(?:e?s)?|contrase(?:ñ|n)as?|c(?<![A-Za-z]c)laves?(?![A-Za-z])|s(?<![A-Za-z]s)enhas?|"
    r"palavras?[ \-]passe|wachtwoord(?:en)?|parol[ae] d'ordine|password)[\"'\]]?"
    # a qualifier: "mot de passe wifi", "das neue Passwort"
    r"(?:[ \t]+(?:wifi|wi-fi|wlan|router|admin|root|actuel(?:le)?|nouveau|aktuelle?s?|neue?s?|nuev[oa]|"
    r"nuov[oa]|nov[oa]|nieuwe?|temporaire|provisoire|tempor[aä]re?s?|temporal|temporanea|tempor[aá]ria|"
    r"tijdelijke?))?"
    # what it is the password of: "du wifi", "für das WLAN", "de la cuenta del banco", "van de router"
    r"(?P<about>[ \t]+(?:(?:de[ \t]+)?(?:l'|d')|(?:du|des|de|de[ \t]+la|pour|für|fuer|vom|von|zum|zur|del|para|"
    r"di|della|dello|dei|per|do|da|dos|das|van|voor|bij)[ \t]+)"
    rf"(?:{_ABOUT_WORD}[ \t]+){{0,4}}?{_ABOUT_WORD})?"
    r"(?P<op>[ \t]*(?::=|=>|[:=])|[ \t]*,?[ \t]*c'est[ \t]|[ \t]+(?:"
    r"(?:(?:maintenant|désormais|jetzt|nun|ahora|ora|adesso|agora|nu)[ \t]+)?"
    r"(?:est|était|etait|sera|reste|ist|lautet|lautete|war|heißt|heisst|es|era|será|è|e'|é|is|was|luidt|wordt)"
    r"(?:[ \t]+(?:maintenant|désormais|jetzt|nun|ahora|ora|adesso|agora|nu))?[ \t]"
    r"|(?:a[ \t]+été[ \t]+|wurde[ \t]+|ha[ \t]+sido[ \t]+|è[ \t]+stata[ \t]+|foi[ \t]+|is[ \t]+)?"
    r"(?:changée?|modifiée?|geändert|geaendert|cambiad[oa]|cambiat[oa]|alterad[oa]|mudad[oa]|gewijzigd|veranderd)"
    r"[ \t]+(?:en|à|pour|in|auf|zu|a|para|naar)[ \t]"
    # no verb, no colon: only a value with a digit or a symbol ("Passwort Sonne123")
    r"|(?=[^\s\d_]{0,199}+[\d_]|[\w'\-]{0,199}+[^\s\w'\-])))"
    r"[ \t]*(?P<value>\"[^\"\n]{1,200}\"|'[^'\n]{1,200}'|«[^»\n]{1,200}»|„[^“”\"\n]{1,200}[“”\"]|“[^”\n]{1,200}”|"
    r"`[^`\n]{1,200}`|\S{1,200}+)"
)
_VERBS = "est était etait sera reste ist lautet lautete war heißt heisst es era será è e' é c'est"
_FOREIGN_VERBS = frozenset(_VERBS.split())
# Words that, after "mot de passe est", "Passwort ist", …, describe the password instead of being it.
_WORDS = """
    le la les l' un une des du de mon ma mes ton ta tes son sa ses notre votre leur ce cet cette ces il elle sur
    dans sous à au aux chez pas plus très trop toujours encore aussi même nouveau nouvelle ancien ancienne actuel
    actuelle vide inconnu inconnue secret secrète faux fausse bon bonne mauvais mauvaise correct correcte incorrect
    incorrecte faible fort forte long longue court courte simple compliqué compliquée oublié oubliée perdu perdue
    changé changée écrit écrite noté notée sauvegardé enregistré stocké caché cachée requis obligatoire facultatif
    différent différente identique pareil rien aucun personne quelque ici là expiré expirée valide invalide privé
    privée celui celle voir affiché affichée collé collée
    der die das den dem des ein eine einen einem einer mein meine dein deine sein seine ihr ihre unser unsere euer
    eure es er sie auf im in an am unter hinter bei beim neben nicht kein keine noch schon auch sehr zu immer gleich
    dasselbe derselbe dieselbe neu neues alt altes aktuell falsch richtig korrekt geheim sicher unsicher schwach
    stark lang kurz leer unbekannt vergessen verloren geändert abgelaufen gespeichert notiert aufgeschrieben
    versteckt erforderlich optional anders egal hier dort irgendwo etwas nichts ungültig gültig privat siehe steht
    el los las lo unos unas mi mis tu tus su sus nuestro nuestra este esta ese esa eso esto en sobre bajo con del
    para por no muy demasiado también todavía aún igual mismo misma nueva nuevo antigua antiguo actual vacía vacío
    desconocida secreta secreto falsa incorrecta correcta débil fuerte larga corta olvidada olvidado perdida
    cambiada escrita guardada apuntada oculta obligatoria opcional diferente aquí allí algo nada nadie válida
    inválida privada segura insegura
    il lo gli le uno mio mia tuo tua suo nostro questo questa quello quella sul sulla nel nella di della molto
    troppo anche ancora sempre uguale stessa stesso nuova vecchia vecchio attuale vuota sconosciuta segreta
    sbagliata giusta corretta debole lunga semplice dimenticata persa cambiata scritta salvata nascosta obbligatoria
    facoltativa diversa qui lì là qualcosa niente nessuno valida privata sicura
    o a os as um uma meu minha teu tua seu nosso nossa esse essa isso isto no na nos nas com do da dos das não
    muito demais ainda mesma mesmo antiga atual vazia desconhecida errada certa fraca longa curta simples esquecida
    mudada alterada guardada salva escondida obrigatória diferente ali algo ninguém segredo
    het een jouw je zijn haar ons onze jullie hun dit dat deze die op onder met van voor niet geen erg te ook nog
    altijd hetzelfde dezelfde nieuw nieuwe oud oude huidige leeg onbekend fout verkeerd goed juist zwak sterk kort
    simpel vergeten kwijt veranderd gewijzigd opgeschreven opgeslagen verborgen verplicht optioneel hier daar iets
    niets niemand geldig ongeldig privé veilig onveilig
    minimum maximum moins mind mindestens maximal höchstens mínimo máximo menos almeno minimo massimo minimaal
    minstens maximaal
"""
_FOREIGN_DESCRIPTIONS = frozenset(_WORDS.split())
_FOREIGN_SUFFIXES = ("ment", "mente", "ique", "lich", "isch", "iert", "able", "ible", "abile", "ibile", "ável", "ível")
_FOREIGN_CLAUSE_END = re.compile(
    r"[ \t]*(?:$|[.,;!?)\n]|[ \t](?:and|but|so|or|because|et|mais|donc|ou|car|und|aber|oder|denn|weil|y|pero|o|"
    r"porque|e|ma|perché|mas|en|maar|of|want)\b)",
    re.IGNORECASE,
)
_QUOTES = {'"': '"', "'": "'", "`": "`", "«": "»", "„": '“”"', "“": "”"}


def _foreign_value_is_secret(value: str, after: str, op: str, label: str) -> bool:
    """The English rules of core.secrets with the six languages' words (see the module doc)."""
    quoted = len(value) >= 2 and value[0] in _QUOTES and value[-1] in _QUOTES[value[0]]
    value = value[1:-1].strip() if quoted else value.rstrip(".,;:!?)")
    if not value or _PLACEHOLDER.match(value) or value.lower() in ("none", "null", "n/a", "[redacted]"):
        return False
    if quoted:
        return True
    if value.isdigit():
        return len(value) >= 4
    if label.lower().startswith("clave"):  # also "key" (la clave del éxito): letters and digits only
        return any(c.isdigit() for c in value) and any(c.isalpha() for c in value)
    if value.startswith(("/", "~/", "./")):
        return False
    if any(c.isdigit() for c in value) or any(not c.isalnum() and c not in "-'" for c in value):
        return True
    if any(c.isupper() for c in value[1:]):
        return True
    if not op.strip():
        return False  # no verb and no colon: only a value with a digit or a symbol
    word = value.lower()
    if word in _FOREIGN_DESCRIPTIONS or word in _NOT_A_PASSWORD or word.endswith(_FOREIGN_SUFFIXES):
        return False
    return bool(_FOREIGN_CLAUSE_END.match(after))


@cache
def _foreign_windows_of() -> Locate:
    """Windows near the labels; near "password" (English's label too) only when an Italian verb
    (è, e', era, sarà) is in the text."""
    labels = _near(tuple(label for label in _FOREIGN_LABELS if label != "password"), 0, 520)
    italian = _near(("password",), 0, 520)

    def locate(scan: _Scan) -> list[Span]:
        windows = labels(scan)
        if "è" in scan.text or "e'" in scan.text or " era " in scan.lower or "sarà" in scan.lower:
            windows = sorted(windows + italian(scan))
        merged: list[Span] = []
        for start, end in windows:
            if merged and start <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(merged[-1][1], end))
            else:
                merged.append((start, end))
        return merged

    return locate


def _foreign_finder(locate: Locate) -> Finder:
    def find(text: str, windows: list[Span] | None) -> Iterator[Span]:
        for match in _folded_candidates(_FOREIGN, text, _windows_of(locate, text, windows)):
            label, op = match["label"].lower(), match["op"].lower()
            if not op.strip() and match["about"]:
                continue  # "senha do banco Order #A7F3": no verb, no colon, then words: a sentence
            value = text[match.start("value") : match.end("value")]
            # "password: …", "password is …" are English, core.secrets' shape; here only "password è …".
            if label == "password" and not _FOREIGN_VERBS.intersection(op.split()):
                continue
            end = match.start("value") + len(value if value[:1] in _QUOTES else value.rstrip(".,;:!?)"))
            if _foreign_value_is_secret(value, text[end : end + 40], op, label):
                yield match.start("value"), end

    return find


# --- the detectors ---------------------------------------------------------------------------------

_TRANSFORMS = frozenset({"Encoded secret", "Reversed token"})


@cache
def _split_windows_of() -> Locate:
    return _near(_TOKEN_PREFIXES, 0, 200)  # what a chain needs to start; matched in full from there


def _split_windows(scan: _Scan) -> list[Span]:
    return _split_windows_of()(scan)


@cache
def _prefixed_shapes() -> list[_Detector]:
    """The new vendor-token shapes (also looked for in split and reversed text)."""
    sk = _near(("sk-",), 1, 270)
    insecure = _near(("django-insecure-",), 0, 230)
    openrouter = re.compile(r"sk-or-v1-[0-9a-f]{64}(?![0-9A-Za-z])")
    return [
        _Detector("OpenRouter API key", at_hints(("sk-or-v1-",)), _bounded(openrouter)),
        _Detector("LLM API key", sk, _llm_key_finder(sk)),
        _Detector("Django secret key", insecure, _symbol_secret_finder(insecure, _DJANGO_INSECURE, need_symbol=False)),
    ]


@cache
def _token_detectors() -> list[_Detector]:
    return [*_prefixed_detectors(), *_prefixed_shapes()]


@cache
def _plain_detectors() -> list[_Detector]:
    from core.secrets import _detectors

    return [detector for detector in _detectors() if detector.name not in _TRANSFORMS]


_PUTTY = _folded(
    r"(?:putty-user-key-file-\d{1,2}:[ \t]{0,8}(?:ssh-|ecdsa-|rsa|dss|ed25519|ed448)"
    r"|private-lines:[ \t]{0,8}\d{1,4}[ \t]{0,8}\r?\n[ \t]{0,8}[a-z0-9+/]{16}"
    r"|private-mac:[ \t]{0,8}[0-9a-f]{32})"
)


def _putty_finder(locate: Locate) -> Finder:
    def find(text: str, windows: list[Span] | None) -> Iterator[Span]:
        for match in _folded_candidates(_PUTTY, text, _windows_of(locate, text, windows)):
            yield match.span()

    return find


@cache
def detectors() -> list[_Detector]:
    """The detectors of this module, in the order they are tried (after core.secrets' own)."""
    _split_windows_of()
    _register(_REVERSED_HINTS)  # before the first scan, as every detector's hints
    symbols = _near(("secret", "key", "token", "salt"), 0, 270)
    options = _near(_COMMAND_HINTS, 0, 320)
    foreign = _foreign_windows_of()
    putty = _near(("putty-user-key-file-", "private-lines:", "private-mac:"), 0, 120)
    return [
        *_prefixed_shapes(),
        _Detector("PuTTY private key", putty, _putty_finder(putty)),
        _Detector("Secret key with symbols", symbols, _symbol_secret_finder(symbols, _SYMBOL_SECRET, need_symbol=True)),
        _Detector("Credentials on a command line", options, _cli_finder(options)),
        _Detector("Payment card number", _separated_card_windows, _separated_cards),
        _Detector("Password", foreign, _foreign_finder(foreign)),
        _Detector("Split token", _split_windows, _split_pieces),
        _Detector("Reversed token", _reversed_windows, _reversed),
        _Detector("Encoded secret", _encoded_windows, _encoded),
    ]
