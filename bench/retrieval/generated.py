"""What every data-set generator of bench/retrieval shares: the file's form, how it is written
and reported, and how questions are worded and picked.

Each generator keeps its own design (who talks, which facts, which traps); these few steps are one
copy so that a change to the file's form or to the wording split reaches every set alike. The
committed files depend on them byte for byte (tests/bench/datasets.py checks each seed)."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

#: A candidate question: its wordings, its evidence turn ids, and a tag the picking reads
#: ("history" for a change's history, a change's key for knowledge updates, else anything).
Candidate = tuple[tuple[str, ...], list[str], str]


def render(data: dict[str, Any]) -> str:
    """The committed file's text: one-space indents, UTF-8 as is, a final newline."""
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def write(data: dict[str, Any], out: Path) -> None:
    """Write ``data`` to ``out`` and print what it holds per question type and its sha256 (the
    README quotes it)."""
    text = render(data)
    out.write_text(text)
    counts: dict[str, int] = {}
    for q in data["questions"]:
        counts[q["type"]] = counts.get(q["type"], 0) + 1
    print(data["about"], counts)
    print("sha256", hashlib.sha256(text.encode()).hexdigest())


def halves(rng: random.Random, n: int) -> list[int]:
    """``n`` wordings, half 0 (the turn's words) and half 1 (paraphrased), in random order (an odd
    one out at random)."""
    styles = [0, 1] * (n // 2) + [rng.randint(0, 1)] * (n % 2)
    rng.shuffle(styles)
    return styles


def pick(
    rng: random.Random, pool: dict[str, list[Candidate]], per_conversation: dict[str, int]
) -> list[tuple[str, str, list[str], str]]:
    """One conversation's answerable questions, ``per_conversation[kind]`` of each kind: for
    multi-hop every change's history first, for knowledge updates one question per change first,
    the rest at random; each worded as the turn was or paraphrased, half and half."""
    chosen: list[tuple[str, str, list[str], str]] = []
    for kind, n_ in per_conversation.items():
        cands = pool[kind]
        if kind == "multi-hop":  # every change's history, then the rest
            hist = [c for c in cands if c[2] == "history"]
            keep = hist + rng.sample([c for c in cands if c[2] != "history"], n_ - len(hist))
        elif kind == "knowledge-update":  # one question per change, then the rest
            firsts = list({c[2]: c for c in reversed(rng.sample(cands, len(cands)))}.values())
            keep = firsts + rng.sample([c for c in cands if c not in firsts], n_ - len(firsts))
        else:
            keep = rng.sample(cands, n_)
        chosen += [(kind, variants[style % len(variants)], ev, "") for (variants, ev, _), style in
                   zip(keep, halves(rng, n_), strict=True)]  # fmt: skip
    return chosen
