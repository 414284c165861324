"""Copies and near copies in a result list: distinct texts, near-duplicate collapse and maximal
marginal relevance over the search's own candidates, screened on every data set read so far.

Remember's default policy (``ask``) stores a fact told again and reports the older copy, and the
generated data sets repeat filler turns word for word ("Converted a recipe from cups to grams"
five times in one notes namespace), so a top 5 can hold one text five times. Three families, each
applied to the shipped ranking (the fusion, plus recency for a question about the present):

- **distinct texts**: each distinct text once, its best-ranked copy (highest ranking value, then
  the newest: the latest telling); the other copies are dropped. Nothing is fitted. Applied
  to the vector and keyword modes too (``--arms distinct``), since a product that drops copies
  drops them in every mode;
- **near copies**: a candidate whose cosine to one already listed is at least τ is dropped;
- **maximal marginal relevance**: the top 10 is filled greedily from the best ``top`` candidates,
  each next pick maximising z − λ · max over the picks so far of max(0, sim − τ) / (1 − τ).

Table per set: R@5 / R@10 of the answerable questions (min_score 0, as the screens read them), the
largest loss to an arm (crossval.deficit, both arms as they would ship beside the rule), and the
per-type changes of the first rule against the shipped one.

    # once per set: the candidates' stored vectors, from the features.py dump's database
    .venv/bin/python -m bench.retrieval.diversity cache --data-dir /tmp/mnemo-ret-chat /tmp/feat/f-chat.json
    .venv/bin/python -m bench.retrieval.diversity screen /tmp/feat > bench/results/lodo-diversity/<stamp>.txt
    # a pre-registered judgement on one set
    .venv/bin/python -m bench.retrieval.diversity judge /tmp/feat coach

(the directory holds features.py dumps f-<set>.json and the vectors v-<set>.npz, cluster.py's
cache format: cluster.py reads the same files).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from bench.retrieval import cluster, harness
from bench.retrieval import crossval as cv

#: Every set read so far; coach.json, the ninth, is kept unread for a pre-registered judgement.
SETS = [*cluster.SETS, "dev"]
SHIPPED = cv.RULES[cv.SHIPPED_PRESENT]
#: A rule gives a question's candidates in result order (indices into q.ids), possibly fewer.
Ranker = Callable[[cv.Question], np.ndarray]


def cache(data_dir: Path, dump: Path) -> Path:
    """Write v-<set>.npz beside ``dump``: the stored vector of every candidate it holds, read from
    the database features.py searched (what the statement's cosines were computed from)."""
    harness.setup_django(data_dir)
    from memories.models import Memory

    raw = json.loads(dump.read_text())
    ids = sorted({int(r[0]) for q in raw["questions"] for r in q["rows"]})
    found = dict(Memory.objects.filter(id__in=ids).values_list("id", "embedding"))
    missing = [i for i in ids if i not in found]
    if missing:
        raise SystemExit(f"{len(missing)} candidates have no stored vector in {data_dir} (first: {missing[:5]})")
    vectors = np.asarray([found[i] for i in ids], dtype=np.float32)
    vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    out = dump.parent / f"v-{raw['dataset']}.npz"
    np.savez(out, ids=np.array(ids), v=vectors)
    return out


class Loaded:
    """A set's questions (each with its candidates' text keys, ``crossval.Question.keys``) and its
    candidates' vectors, by the question object's id."""

    def __init__(self, directory: str, name: str) -> None:
        self.vectors: dict[int, np.ndarray] = {}
        self.questions = cluster.load(directory, name, self.vectors)
        texts = json.loads((Path(directory) / f"f-{name}.json").read_text())["texts"]
        #: the share of the candidates' distinct ids whose text another candidate id also has
        self.copies = 1 - len(set(texts.values())) / max(len(texts), 1)


def shipped(data: Loaded) -> Ranker:
    return lambda q: cv.order(q, SHIPPED(q))


def distinct_texts(data: Loaded) -> Ranker:
    def ranked(q: cv.Question) -> np.ndarray:
        z = SHIPPED(q)
        return cv.distinct(q, cv.order(q, z), z)

    return ranked


def near_copies(data: Loaded, tau: float) -> Ranker:
    """The shipped order without any candidate whose cosine to one listed before it is ≥ τ (the
    first 10 kept decide; what follows them is left in order)."""

    def ranked(q: cv.Question) -> np.ndarray:
        v = data.vectors[id(q)]
        kept: list[int] = []
        rest: list[int] = []
        for i in cv.order(q, SHIPPED(q)).tolist():
            if len(kept) < 10 and (not kept or float((v[kept] @ v[i]).max()) < tau):
                kept.append(i)
            elif len(kept) >= 10:
                rest.append(i)
        return np.array(kept + rest, dtype=np.int64)

    return ranked


def mmr(data: Loaded, lam: float, tau: float, top: int = 20) -> Ranker:
    """The shipped ranking's top 10 refilled by maximal marginal relevance (module docstring); the
    rest of the candidates follow in the shipped order."""

    def ranked(q: cv.Question) -> np.ndarray:
        base = SHIPPED(q)
        order = cv.order(q, base)
        if len(order) < 2:
            return order
        pool = order[:top]
        v = data.vectors[id(q)][pool]
        penalty = np.maximum(v @ v.T - tau, 0.0) / (1.0 - tau)
        worst = np.zeros(len(pool))  # each pool member's largest penalty against the picks so far
        left = np.ones(len(pool), dtype=bool)
        picks = []
        for _ in range(min(10, len(pool))):
            pick = int(np.argmax(np.where(left, base[pool] - lam * worst, -np.inf)))  # ties: shipped order
            left[pick] = False
            picks.append(int(pool[pick]))
            worst = np.maximum(worst, penalty[:, pick])
        chosen = set(picks)
        return np.array(picks + [i for i in order.tolist() if i not in chosen], dtype=np.int64)

    return ranked


def rankers(data: Loaded) -> dict[str, Ranker]:
    out = {cv.SHIPPED_PRESENT: shipped(data), "distinct texts": distinct_texts(data)}
    for tau in (0.98, 0.95, 0.9):
        out[f"near copies, cos ≥ {tau}"] = near_copies(data, tau)
    for tau in (0.0, 0.6, 0.75):
        for lam in (0.05, 0.2):
            out[f"mmr τ {tau} λ {lam}"] = mmr(data, lam, tau)
    return out


def arm_tables(data: Loaded, collapse: bool) -> tuple[dict[str, Any], dict[str, Any]]:
    """The vector and keyword modes' tables, as they ship or with distinct texts."""
    return cv.distinct_arms(data.questions) if collapse else cv.arms(data.questions)


def read(data: Loaded, ranker: Ranker) -> dict[str, Any]:
    return cv.table(data.questions, [ranker(q) for q in data.questions])


def screen(directory: str) -> None:
    loaded = {n: Loaded(directory, n) for n in SETS}
    print("candidates whose text another candidate of the set also has (share of distinct ids):")
    print("  " + ", ".join(f"{n} {d.copies:.1%}" for n, d in loaded.items()))
    arms = {n: (arm_tables(d, False), arm_tables(d, True)) for n, d in loaded.items()}
    print("arms, R@5/R@10 as shipped → with distinct texts:")
    for n, (raw, dist) in arms.items():
        cells = [
            f"{m} {a['all']['r5']:.3f}/{a['all']['r10']:.3f} → {b['all']['r5']:.3f}/{b['all']['r10']:.3f}"
            for m, a, b in zip(("vector", "keyword"), raw, dist, strict=True)
        ]
        print(f"  {n:9s} " + "; ".join(cells))
    print("hybrid R@5/R@10 and largest loss to an arm (the arms as shipped | with distinct texts):")
    tables: dict[str, dict[str, dict[str, Any]]] = {}
    for name in rankers(loaded[SETS[0]]):
        cells, r5, r10 = [], [], []
        for n, d in loaded.items():
            t = read(d, rankers(d)[name])
            tables.setdefault(name, {})[n] = t
            r5.append(t["all"]["r5"])
            r10.append(t["all"]["r10"])
            cells.append(
                f"{n} {t['all']['r5']:.3f}/{t['all']['r10']:.3f} "
                f"({cv.deficit(t, arms[n][0]):+.3f}|{cv.deficit(t, arms[n][1]):+.3f})"
            )
        print(f"  {name[:28]:28s} mean {np.mean(r5):.3f}/{np.mean(r10):.3f}  " + " ".join(cells))
    print("distinct texts against the shipped rule, per type (R@5, R@10 in points):")
    for n in SETS:
        before, after = tables[cv.SHIPPED_PRESENT][n], tables["distinct texts"][n]
        cells = [
            f"{t} {100 * (after[t]['r5'] - before[t]['r5']):+.1f}/{100 * (after[t]['r10'] - before[t]['r10']):+.1f}"
            for t in before
            if t != "all"
        ]
        print(f"  {n:9s} " + ", ".join(cells))


def judge(directory: str, name: str) -> dict[str, Any]:
    """The pre-registered judgement of distinct texts (bench/NOTES.md, 2026-11-27, third session)
    on one set: printed and returned."""
    data = Loaded(directory, name)
    before, after = read(data, shipped(data)), read(data, distinct_texts(data))
    raw, dist = arm_tables(data, False), arm_tables(data, True)
    types = [t for t in before if t != "all"]
    worst_type = min(min(after[t][m] - before[t][m] for m in ("r5", "r10")) for t in types)
    checks = {
        "hybrid R@5 and R@10 no lower": after["all"]["r5"] >= before["all"]["r5"]
        and after["all"]["r10"] >= before["all"]["r10"],
        "no type's R@5 or R@10 lower by more than 1 point": worst_type >= -0.01 - 1e-9,
        "each arm's R@5 and R@10 no lower": all(
            b["all"][m] >= a["all"][m] for a, b in zip(raw, dist, strict=True) for m in ("r5", "r10")
        ),
    }
    out = {
        "set": name,
        "copies": data.copies,
        "shipped": before,
        "distinct": after,
        "arms": {"shipped": raw, "distinct": dist},
        "largest_loss_to_an_arm": {"shipped": cv.deficit(before, raw), "distinct": cv.deficit(after, dist)},
        "checks": checks,
        "ships": all(checks.values()),
    }
    print(f"{name}: candidates sharing a text {data.copies:.1%}")
    for label, t in (("shipped", before), ("distinct texts", after)):
        print(f"  {label:15s} R@5 {t['all']['r5']:.3f} R@10 {t['all']['r10']:.3f} MRR {t['all']['mrr']:.3f}")
        for ty in types:
            print(f"    {ty:17s} {t[ty]['r5']:.3f} / {t[ty]['r10']:.3f} / {t[ty]['mrr']:.3f}")
    for m, a, b in zip(("vector", "keyword"), raw, dist, strict=True):
        print(f"  {m} arm {a['all']['r5']:.3f}/{a['all']['r10']:.3f} → {b['all']['r5']:.3f}/{b['all']['r10']:.3f}")
    loss = out["largest_loss_to_an_arm"]
    print(f"  largest loss to an arm: shipped {loss['shipped']:+.3f}, distinct {loss['distinct']:+.3f}")
    for check, ok in checks.items():
        print(f"  {'pass' if ok else 'FAIL'}: {check}")
    print("verdict:", "ships" if out["ships"] else "does not ship")
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("cache")
    c.add_argument("--data-dir", required=True, type=Path)
    c.add_argument("dump", type=Path)
    s = sub.add_parser("screen")
    s.add_argument("directory")
    j = sub.add_parser("judge")
    j.add_argument("directory")
    j.add_argument("set")
    j.add_argument("--out", type=Path, help="write the judgement as JSON here")
    args = parser.parse_args(argv)
    if args.command == "cache":
        print(cache(args.data_dir, args.dump))
    elif args.command == "screen":
        screen(args.directory)
    else:
        result = judge(args.directory, args.set)
        if args.out:
            args.out.write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
