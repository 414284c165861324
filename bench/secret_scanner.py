"""What the secret scanner costs per text (core.secrets.find_secret), by text length.

Texts are made of the ordinary sentences of the scanner's test corpus (personal facts, orders,
phone numbers, dates, prices, URLs, sentences about passwords and keys), shuffled and cut to
200 and 16,000 characters (MAX_TEXT_CHARS), so every detector's hints occur as they do in real
memories; a third row is a 16,000-character text with one secret at its end (the scanner's
worst case: nothing stops early). Each is scanned many times; the medians are reported as CPU
time of the scanning thread (what the scanner costs) and wall time (what a request waits, which
includes time the machine gave to other processes).

Then the adversarial texts (tests/core/adversarial.py: every hint the scanner registers repeated
with each separator, digit, card, base64, token, IBAN and SSN runs; about 8,600 texts) at
16,000 characters: each is scanned once by ``find_secret`` and by ``redact``, the 20 costliest
of each again 7 times, and the worst median is reported (the target: under 50 ms of CPU).

    .venv/bin/python bench/secret_scanner.py [--skip-adversarial]
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")

import django  # noqa: E402

django.setup()

from core.secrets import find_secret, redact  # noqa: E402
from tests.core import adversarial  # noqa: E402
from tests.core.test_secrets import ORDINARY_SENTENCES  # noqa: E402


def text_of(length: int, seed: int) -> str:
    rng = random.Random(seed)
    parts: list[str] = []
    while sum(len(p) + 1 for p in parts) < length:
        parts.append(rng.choice(ORDINARY_SENTENCES))
    return " ".join(parts)[:length]


def measure(text: str, repeat: int) -> tuple[float, float]:
    find_secret(text)  # warm: compiled patterns, imported plugins
    cpu, wall = [], []
    for _ in range(repeat):
        c, w = time.thread_time_ns(), time.perf_counter_ns()
        find_secret(text)
        cpu.append(time.thread_time_ns() - c)
        wall.append(time.perf_counter_ns() - w)
    return statistics.median(cpu) / 1000, statistics.median(wall) / 1000


def main() -> None:
    cases = []
    for length, repeat in ((200, 2000), (16_000, 100)):
        for seed in range(5):
            text = text_of(length, seed)
            assert find_secret(text) is None, "the ordinary corpus must stay ordinary"
            cases.append((f"{length} chars, ordinary", text, repeat))
    secret_tail = text_of(16_000 - 60, 99) + " ghp_BY6rfNcAKEIOUttYpATIk27f4t3tGolUByxR"
    cases.append(("16000 chars, secret at the end", secret_tail, 100))
    rows: dict[str, list[tuple[float, float]]] = {}
    for name, text, repeat in cases:
        rows.setdefault(name, []).append(measure(text, repeat))
    print(f"{'text':34} {'CPU median µs':>14} {'wall median µs':>15}")
    for name, results in rows.items():
        cpu = statistics.median(r[0] for r in results)
        wall = statistics.median(r[1] for r in results)
        print(f"{name:34} {cpu:14.0f} {wall:15.0f}")
    print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    if "--skip-adversarial" not in sys.argv:
        worst_adversarial()


def worst_adversarial(length: int = 16_000, top: int = 20) -> None:
    """The costliest generated adversarial texts of ``length`` characters, per function."""
    texts = adversarial.all_texts(length)
    for func in (find_secret, redact):
        first = sorted(((adversarial.best_time(func, text, 1), key) for key, text in texts.items()), reverse=True)
        again = []
        for _, key in first[:top]:
            runs = [adversarial.best_time(func, texts[key], 1) for _ in range(7)]
            again.append((statistics.median(runs), key))
        again.sort(reverse=True)
        total = sum(t for t, _ in first)
        print(f"\n{func.__name__}: {len(texts)} adversarial texts of {length} chars, {total:.1f} s of CPU in all")
        print(f"{'text':48} {'CPU median ms':>14}")
        for cpu, key in again[:8]:
            print(f"{key[:48]:48} {cpu * 1e3:14.1f}")
    print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
