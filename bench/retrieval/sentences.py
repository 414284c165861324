"""Sentence views of a memory: the best sentence's cosine beside the whole text's (issue 26).

A long turn ("Ugh, I know the feeling. I went to the market by the station and came home with
three kinds of cheese. Right, I should go and make dinner.") is embedded whole, so the fact in its
middle shares the vector with the talk around it, and a question about the fact meets a diluted
cosine. Here every candidate memory of two sentences or more is also embedded sentence by
sentence (each sentence with the turn's speaker prefix, as the turn is stored; sentences of fewer
than ``MIN_WORDS`` words left out), and a candidate's ``cos_sent`` is its best sentence's cosine
to the query vector the vector arm embedded (features.py's ``embedded``). Rules then replace the
cosine of the shipped ranking (``crossval.margin_rule``'s ``cosine``) by a mix of the two, over
the statement's own candidates, each text once as search returns it. The screen reads every read
set; nothing is fitted on a set it is reported on unless the table says so.

    .venv/bin/python -m bench.retrieval.sentences cache /tmp/feat        # views and query vectors
    .venv/bin/python -m bench.retrieval.sentences screen /tmp/feat

(the directory holds features.py dumps f-<set>.json, with ``embedded``, and diversity.py's
v-<set>.npz). Only re-ranks the statement's candidates: a sentence view that would bring a memory
the whole text's vector missed into the vector arm is not counted, so a gain here is a lower bound
of what the views would give in the statement.
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from bench.retrieval import cluster, diversity
from bench.retrieval import crossval as cv

SETS = [*diversity.SETS, "coach"]
#: a sentence of fewer words ("Honestly same.") carries no fact of its own
MIN_WORDS = 4
# A sentence ends at . ! or ? followed by white space; one pass, linear in the text.
_END = re.compile(r"(?<=[.!?])\s+")
_SPEAKER = re.compile(r"^([A-Z][\w' -]{0,40}): ")


def views(text: str) -> list[str]:
    """The text's sentences as views (each with the speaker prefix), or [] for one sentence."""
    match = _SPEAKER.match(text)
    prefix, body = (match.group(0), text[match.end() :]) if match else ("", text)
    parts = [s.strip() for s in _END.split(body) if len(s.split()) >= MIN_WORDS]
    return [prefix + s for s in parts] if len(parts) >= 2 else []


def cache(directory: str) -> None:
    """Write s-<set>.npz (every candidate's sentence views' vectors, with the memory id of each)
    and qv-<set>.npy (each question's embedded query vector, in the dump's order)."""
    cluster.setup_django()
    from memories.embedding import embed_texts

    for name in SETS:
        dump = Path(directory) / f"f-{name}.json"
        if not dump.exists() or (Path(directory) / f"s-{name}.npz").exists():
            continue
        raw = json.loads(dump.read_text())
        owners, texts = [], []
        for key, text in raw["texts"].items():
            for view in views(text):
                owners.append(int(key))
                texts.append(view)
        vectors = np.asarray(embed_texts(texts), dtype=np.float32) if texts else np.zeros((0, 384), np.float32)
        np.savez(Path(directory) / f"s-{name}.npz", ids=np.array(owners, dtype=np.int64), v=vectors)
        queries = np.asarray(embed_texts([q["embedded"] for q in raw["questions"]]), dtype=np.float32)
        np.save(Path(directory) / f"qv-{name}.npy", queries)
        print(f"{name}: {len(raw['texts'])} candidates, {len(texts)} views, {len(queries)} queries", flush=True)


class Views:
    """A set's questions (each text once, as diversity.Loaded) with each candidate's ``cos_sent``."""

    def __init__(self, directory: str, name: str) -> None:
        self.data = diversity.Loaded(directory, name)
        stored = np.load(Path(directory) / f"s-{name}.npz")
        queries = np.load(Path(directory) / f"qv-{name}.npy")
        by_owner: dict[int, list[int]] = {}
        for row, owner in enumerate(stored["ids"].tolist()):
            by_owner.setdefault(owner, []).append(row)
        dump = json.loads((Path(directory) / f"f-{name}.json").read_text())
        raw = dump["questions"]
        # cluster.load keeps the dump's order (every question was dumped at the shipped share)
        assert len(raw) == len(self.data.questions), name
        self.sent: dict[int, np.ndarray] = {}
        self.whole_gap: list[float] = []
        for q, qv in zip(self.data.questions, queries, strict=True):
            out = q.cos.copy()
            for place, mid in enumerate(q.ids.tolist()):
                rows = by_owner.get(int(mid))
                if rows:
                    out[place] = float(np.max(stored["v"][rows] @ qv))
            self.sent[id(q)] = out
            if len(q.ids):
                whole = self.data.vectors[id(q)] @ qv
                self.whole_gap.append(float(np.max(np.abs(whole - q.cos))))
        #: the share of candidates with views (two sentences or more)
        self.with_views = len(by_owner) / max(len(dump["texts"]), 1)


def mixed(views: Views, mu: float) -> Callable[[cv.Question], np.ndarray]:
    """cos + μ·(cos_sent − cos)⁺: the best sentence lifts a candidate by a share of what it adds."""
    return lambda q: q.cos + mu * np.maximum(views.sent[id(q)] - q.cos, 0)


def ranker(cosine: Callable[[cv.Question], np.ndarray]) -> diversity.Ranker:
    """The shipped rule reading ``cosine`` for the candidates' cosine, each text once."""
    base = cv.margin_rule(*cv.SHIPPED_WEIGHTS, cosine=cosine)
    rule = cv.present_rule(base, cv.PRESENT_RECENCY)

    def ranked(q: cv.Question) -> np.ndarray:
        z = rule(q)
        return cv.distinct(q, cv.order(q, z), z)

    return ranked


def vector_arm(views: Views, mu: float) -> dict[str, Any]:
    """The vector mode with the views (its candidates ordered by the mixed cosine, each text once)."""
    qs = views.data.questions
    ranked = []
    cosine = mixed(views, mu)
    for q in qs:
        found = np.nonzero(q.vr)[0]
        value = cosine(q)
        order = found[np.lexsort((q.ids[found], -value[found]))]
        ranked.append(cv.distinct(q, order, value))
    return cv.table(qs, ranked)


MUS = (0.25, 0.5, 0.75, 1.0)


def screen(directory: str) -> dict[str, Any]:
    loaded = {n: Views(directory, n) for n in SETS if (Path(directory) / f"s-{n}.npz").exists()}
    result: dict[str, Any] = {}
    print("largest |cosine recomputed − dumped| per set (the query vectors match the dump's):")
    print("  " + ", ".join(f"{n} {max(v.whole_gap):.4f}" for n, v in loaded.items()))
    print("candidates with views: " + ", ".join(f"{n} {v.with_views:.1%}" for n, v in loaded.items()))
    rules: dict[str, tuple[float, Callable[[Views], diversity.Ranker]]] = {
        "shipped (each text once)": (0.0, lambda v: diversity.distinct_texts(v.data))
    }
    for mu in MUS:
        rules[f"cos + {mu}·(cos_sent − cos)⁺"] = (mu, lambda v, mu=mu: ranker(mixed(v, mu)))
    print("hybrid R@5/R@10, largest loss to an arm (arms as shipped | vector arm with the same views):")
    for label, (mu, make) in rules.items():
        cells, r5, r10 = [], [], []
        for n, v in loaded.items():
            t = cv.table(v.data.questions, [make(v)(q) for q in v.data.questions])
            shipped_arms = cv.distinct_arms(v.data.questions)
            view_arms = (vector_arm(v, mu), shipped_arms[1])
            result.setdefault(label, {})[n] = {"hybrid": t, "vector_with_views": view_arms[0]}
            r5.append(t["all"]["r5"])
            r10.append(t["all"]["r10"])
            cells.append(
                f"{n} {t['all']['r5']:.3f}/{t['all']['r10']:.3f} "
                f"({cv.deficit(t, shipped_arms):+.3f}|{cv.deficit(t, view_arms):+.3f})"
            )
        print(f"  {label[:26]:26s} mean {np.mean(r5):.3f}/{np.mean(r10):.3f}  " + " ".join(cells), flush=True)
    base = result["shipped (each text once)"]
    for label in list(rules)[1:]:
        print(f"{label} against shipped, per type (R@5, R@10 in points):")
        for n in loaded:
            before, after = base[n]["hybrid"], result[label][n]["hybrid"]
            cells = [
                f"{t} {100 * (after[t]['r5'] - before[t]['r5']):+.1f}/{100 * (after[t]['r10'] - before[t]['r10']):+.1f}"
                for t in before
                if t != "all"
            ]
            print(f"  {n:9s} " + ", ".join(cells))
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("cache").add_argument("directory")
    s = sub.add_parser("screen")
    s.add_argument("directory")
    s.add_argument("--json", type=Path, help="write the tables here")
    args = parser.parse_args(argv)
    if args.command == "cache":
        cache(args.directory)
    else:
        out = screen(args.directory)
        if args.json:
            args.json.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
