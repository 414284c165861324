"""Generated adversarial texts for the secret scanner's complexity test and benchmark.

The class of input that made a regex backtrack is the same for every detector: many copies of
what the detector looks for (its hints: label words, prefixes), joined by what its pattern lets
repeat (separators, white space, digits, base64 characters), so that every copy is a place to
start a match and every start can run far. The generator builds those texts from each detector's
own hints and from the shapes the unhinted detectors locate (digit groups, base64 and token
runs, ``AA99``), at any length, so a test can compare the time at n and 8n characters.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Iterator

from core import secrets

# What a pattern may let repeat between two copies of a hint: identifier characters, operators,
# white space, quotes, value characters, a short random value, digits.
SEPARATORS = (
    "", "_", "-", ".", ":", "=", " ", "/", "+", '"', "\n", ": ", " is ", "=a", ":1", "://",
    "-A1b2C3d4E5f6G7h8", "1234",
)  # fmt: skip

# Repeated units that no hint names: digit and card-like groups, base64 and token runs, IBAN and
# SSN shapes, encodings, white space.
SHAPES = (
    "1", "1 ", "1-", "1.", "12 ", "1234 ", "1234-", "1234.", "4111 ", "Ab1", "A", "a", "aB3+/", "Zx9/",
    "AA99 ", "GB82", "GB82 ", "DE89 ", "123-45-", "12345678:", "99999999:", "*", "=", ":", " ", "\n",
    "%41", "&#65;", "&amp;", "A9", "eyJ", "=eyJ", "-sk-", "-ghp_", "key=", "key_", "AP", "Q~", "a.b",
    "ssn 1", "pin ", "pw:", "xoxb-1-", "glagent-", "//", "://a", "T3BlbkFJ",
)  # fmt: skip


def repeat_to(unit: str, length: int) -> str:
    """``unit`` repeated to exactly ``length`` characters."""
    return (unit * (length // max(1, len(unit)) + 1))[:length]


def hint_texts(hint: str, length: int) -> Iterator[tuple[str, str]]:
    """The texts built from one hint: ``hint+sep`` repeated, ``sep+hint`` repeated with a short
    word at the end (a match that fails only at the very end), and the hint followed by one long
    run of a one-character separator."""
    for sep in SEPARATORS:
        yield f"({hint!r}+{sep!r})*", repeat_to(hint + sep, length)
        yield f"({sep!r}+{hint!r})*+' abcd'", repeat_to(sep + hint, length - 5) + " abcd"
        if len(sep) == 1:
            yield f"{hint!r}+{sep!r}*", hint + repeat_to(sep, length - len(hint))


def all_hints() -> list[str]:
    """Every hint the detectors register as they are built, as written, in capitals
    and in small letters (case-insensitive patterns see both; case-sensitive ones only one)."""
    secrets._detectors()  # built, so every detector has registered its hints
    hints = set(secrets._LOWER_HINTS) | set(secrets._CASED_HINTS)
    return sorted({variant for hint in hints for variant in (hint, hint.upper(), hint.lower())})


def shape_texts(length: int) -> Iterator[tuple[str, str]]:
    for unit in SHAPES:
        yield f"{unit!r}*", repeat_to(unit, length)
        yield f"{unit!r}*+' x'", repeat_to(unit, length - 2) + " x"


def all_texts(length: int) -> dict[str, str]:
    """The adversarial texts of every hint and every shape, ``length`` characters each."""
    texts = dict(shape_texts(length))
    for hint in all_hints():
        texts.update(hint_texts(hint, length))
    return texts


def run_detector(detector: secrets._Detector) -> Callable[[str], object]:
    """One detector over one text, as the scanner runs it: locate, then find every span."""

    def run(text: str) -> object:
        scan = secrets._Scan(secrets.normalize(text))
        windows = detector.locate(scan)
        if windows is None or windows:
            return list(detector.find(scan.text, windows))
        return []

    return run


def best_time(func: Callable[[str], object], text: str, repeat: int = 5) -> float:
    """The least CPU time of this thread over ``repeat`` runs, in seconds. CPU time, not wall
    time: on a shared machine a long run is more often paused for other processes than a short
    one, which would make a linear pass look superlinear; the least is the run disturbed least.
    The cyclic garbage collector is off while timing (as timeit does): a full collection costs
    the size of the whole process's heap, not the text's, and falls into the longer runs.
    """
    best = float("inf")
    enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeat):
            start = time.thread_time_ns()
            func(text)
            best = min(best, (time.thread_time_ns() - start) / 1e9)
    finally:
        if enabled:
            gc.enable()
    return best


def growth(func: Callable[[str], object], small: str, big: str, repeat: int = 5) -> tuple[float, float]:
    """The least CPU times of ``func`` on ``small`` and on ``big``, the runs interleaved (small,
    big, small, big, …) so that a change in the machine's load falls on both alike."""
    best_small = best_big = float("inf")
    for _ in range(repeat):
        best_small = min(best_small, best_time(func, small, 1))
        best_big = min(best_big, best_time(func, big, 1))
    return best_small, best_big
