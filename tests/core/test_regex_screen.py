"""Every compiled regular expression of the product, screened for the class of input it invites.

tests/core/test_text_complexity.py times each pass over user text on fixed adversarial shapes. This
screen starts from the other end: it finds every compiled pattern in the product's modules (a new
one included, wherever it is added), builds inputs of the characters that pattern itself names
(each one and each pair, repeated), and times a scan of every start position (``findall``, what
``search``, ``sub`` and ``finditer`` do over text that does not match) at n and 8n characters.
Linear reads about 8; a pattern that rescans the rest of the text from each position (``\\s+x`` on
spaces, ``[\\w.]+@`` on dots) reads about 64. A pattern that reads above the limit is refused unless
:data:`SCANNED_ONLY_ANCHORED` names it with why it is safe, and the why is checked in its module's
source: it is only ever used anchored (``.match``/``.fullmatch``), or on text the code writes.
"""

from __future__ import annotations

import ast
import gc
import importlib
import inspect
import pkgutil
import re
import re._parser as sre_parser  # the stdlib's own parse of a pattern (public sre_parse warns)
import time
from typing import Any

import pytest

pytestmark = pytest.mark.complexity

PACKAGES = ("core", "memories", "contacts", "toolrules", "assistant", "config")
#: Modules not imported here: migrations (history, no text passes) and production settings (need
#: a secret key by design).
SKIP = (".migrations", "config.settings.production")
N = 1_000
LIMIT = 16.0  # linear reads ~8, quadratic ~64: the margin is the machine's noise
#: A scan faster than this at N characters is not timed (too short to time, and harmless at any
#: size the contract admits: 8n would still take under a millisecond).
FLOOR_SECONDS = 20e-6

#: Patterns that rescan from every start position, each with the reason it is not a pass over user
#: text in that way; checked below against the module's source.
SCANNED_ONLY_ANCHORED = {
    # only EMAIL.match(text, pos) at positions _email_matches picks (linear: the 'rule targets'
    # row of the linear-time test)
    "toolrules.enforcement.EMAIL": "match",
    "core.secret_shapes._REFERENCE": "match",
    "core.secret_shapes._CLI_PLACEHOLDER": "match",
    # the search statement's SQL text, which the code writes; never user text
    "memories.selectors._PLACEHOLDER": "sql",
}


def product_patterns() -> dict[str, re.Pattern[str]]:
    """Every ``str`` pattern bound in a product module's globals (or a class of the module's, or a
    list, tuple, set or dict there), by its first qualified name."""
    found: dict[tuple[str, int], str] = {}
    patterns: dict[str, re.Pattern[str]] = {}

    def visit(where: str, obj: Any, depth: int) -> None:
        if isinstance(obj, re.Pattern):
            if isinstance(obj.pattern, str) and (obj.pattern, obj.flags) not in found:
                found[(obj.pattern, obj.flags)] = where
                patterns[where] = obj
        elif depth < 3 and isinstance(obj, list | tuple | set | frozenset):
            for i, item in enumerate(obj):
                visit(f"{where}[{i}]", item, depth + 1)
        elif depth < 3 and isinstance(obj, dict):
            for key, item in obj.items():
                visit(f"{where}[{key!r}]", item, depth + 1)
        elif depth == 0 and inspect.isclass(obj) and obj.__module__.split(".")[0] in PACKAGES:
            for key, item in vars(obj).items():
                visit(f"{where}.{key}", item, depth + 1)

    for package in PACKAGES:
        root = importlib.import_module(package)
        for info in pkgutil.walk_packages(root.__path__, f"{package}."):
            if any(part in info.name for part in SKIP):
                continue
            module = importlib.import_module(info.name)
            for name, value in vars(module).items():
                visit(f"{info.name}.{name}", value, 0)
    return patterns


def _chars(parsed: Any, out: set[str]) -> set[str]:
    """The characters a parsed pattern names: literals, the ends of ranges, one of each category."""
    categories = {
        "CATEGORY_DIGIT": "1",
        "CATEGORY_NOT_DIGIT": "a",
        "CATEGORY_SPACE": " ",
        "CATEGORY_NOT_SPACE": "a",
        "CATEGORY_WORD": "a_1",
        "CATEGORY_NOT_WORD": " -.",
    }
    for op, arg in parsed:
        name = str(op)
        if name == "LITERAL":
            out.add(chr(arg))
        elif name == "IN":
            for sub_op, sub_arg in arg:
                kind = str(sub_op)
                if kind == "LITERAL":
                    out.add(chr(sub_arg))
                elif kind == "RANGE":
                    out.update((chr(sub_arg[0]), chr(sub_arg[1])))
                elif kind == "CATEGORY":
                    out.update(categories.get(str(sub_arg), ""))
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            _chars(arg[2], out)
        elif name == "SUBPATTERN":
            _chars(arg[-1], out)
        elif name == "ATOMIC_GROUP":
            _chars(arg, out)
        elif name == "BRANCH":
            for branch in arg[1]:
                _chars(branch, out)
        elif name in ("ASSERT", "ASSERT_NOT"):
            _chars(arg[1], out)
        elif name == "ANY":
            out.add("a")
    return out


def units(pattern: re.Pattern[str]) -> list[str]:
    """What to repeat: each character the pattern names (and a letter, a digit, a space, a
    newline, a dot), and each pair of the first 12 of them."""
    chars = sorted(_chars(sre_parser.parse(pattern.pattern, pattern.flags), set()) | set(" aA1\n."))
    pairs = [a + b for a in chars[:12] for b in chars[:12]]
    return list(dict.fromkeys(chars + pairs))


def _time(pattern: re.Pattern[str], text: str, loops: int, reps: int) -> float:
    best = float("inf")
    for _ in range(reps):
        started = time.thread_time()
        for _ in range(loops):
            pattern.findall(text)
        best = min(best, (time.thread_time() - started) / loops)
    return best


def worst_growth(pattern: re.Pattern[str], n: int = N) -> tuple[float, str]:
    """The largest time(8n)/time(n) of a full scan over any of the pattern's inputs, and its unit."""
    worst, worst_unit = 0.0, ""
    gc.disable()
    try:
        for unit in units(pattern):
            small = (unit * (n // len(unit) + 1))[:n]
            big = (unit * (8 * n // len(unit) + 1))[: 8 * n]
            t_small = _time(pattern, small, 3, 3)
            if t_small < FLOOR_SECONDS:
                continue
            ratio = _time(pattern, big, 1, 1) / t_small
            if ratio > LIMIT:  # a burst of load: measured again, the least kept
                ratio = min(ratio, _time(pattern, big, 1, 3) / _time(pattern, small, 3, 5))
            if ratio > worst:
                worst, worst_unit = ratio, unit
    finally:
        gc.enable()
    return worst, worst_unit


def test_the_screen_finds_the_product_patterns() -> None:
    """The walk sees the patterns the text passes use (so a new module's are seen too)."""
    patterns = product_patterns()
    assert len(patterns) > 50
    for name in ("toolrules.enforcement.EMAIL", "memories.selectors._PLACEHOLDER", "core.secret_shapes._REFERENCE"):
        assert name in patterns


def test_the_screen_catches_a_rescanning_pattern() -> None:
    """The screen can fail: the classic shapes read far above the limit."""
    for bad in (r"\s+x", r"[\w.+-]+@\w+", r"a[^b]*b"):
        ratio, _ = worst_growth(re.compile(bad))
        assert ratio > LIMIT, (bad, ratio)
    # Possessive alone does not help (each start position still reads the run); a run taken only
    # from its start does.
    assert worst_growth(re.compile(r"\s++x"))[0] > LIMIT
    ratio, _ = worst_growth(re.compile(r"(?<!\s)\s+x"))
    assert ratio < LIMIT, ratio


def test_every_product_pattern_scans_in_linear_time_or_is_only_used_anchored() -> None:
    patterns = product_patterns()
    slow = {}
    for name, pattern in patterns.items():
        ratio, unit = worst_growth(pattern)
        if ratio > LIMIT and name not in SCANNED_ONLY_ANCHORED:
            slow[name] = (round(ratio, 1), unit)
    assert not slow, f"patterns whose scan grows faster than linearly (time(8n)/time(n), unit): {slow}"


def _uses(tree: ast.AST, name: str) -> tuple[set[str], int, list[ast.Call]]:
    """How ``name`` is used in a module: the methods called on it, how many times it is read in
    all, and the calls."""
    calls = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == name
    ]
    reads = sum(
        1
        for node in ast.walk(tree)
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load)
    )
    return {call.func.attr for call in calls if isinstance(call.func, ast.Attribute)}, reads, calls


@pytest.mark.parametrize("name", sorted(SCANNED_ONLY_ANCHORED))
def test_an_exempt_pattern_is_used_only_as_its_reason_says(name: str) -> None:
    """An exempt pattern is still exempt for the reason given: in its module it is only ever called
    as ``.match``/``.fullmatch`` (anchored: one start position), or only ``.sub`` on the SQL
    statement the module writes; it is never passed on, and no other module imports it."""
    module_name, _, attribute = name.rpartition(".")
    tree = ast.parse(inspect.getsource(importlib.import_module(module_name)))
    methods, reads, calls = _uses(tree, attribute)
    assert calls, f"{name} is no longer used: drop it from SCANNED_ONLY_ANCHORED"
    assert reads == len(calls), f"{name} is read other than by a method call (passed on?)"
    if SCANNED_ONLY_ANCHORED[name] == "match":
        assert methods <= {"match", "fullmatch"}, (name, methods)
    else:
        assert methods == {"sub"}, (name, methods)
        assert all(isinstance(call.args[-1], ast.Name) and call.args[-1].id == "statement" for call in calls), name
    short = module_name.rpartition(".")[2]
    for package in PACKAGES:
        root = importlib.import_module(package)
        for info in pkgutil.walk_packages(root.__path__, f"{package}."):
            if info.name == module_name or any(part in info.name for part in SKIP):
                continue
            other = ast.parse(inspect.getsource(importlib.import_module(info.name)))
            for node in ast.walk(other):
                imported = isinstance(node, ast.ImportFrom) and node.module == module_name
                assert not (imported and any(alias.name == attribute for alias in node.names)), (name, info.name)
                reached = (
                    isinstance(node, ast.Attribute)
                    and node.attr == attribute
                    and isinstance(node.value, ast.Name)
                    and node.value.id == short
                )
                assert not reached, (name, info.name)
