"""The answerability check (memories/answerable.py) fitted and reported out of sample.

Two steps:

``prepare`` (Django, the benchmark database ``features.py`` filled): for every question of a
features file, the shipped hybrid ranking and calibrated score of its candidates (crossval's numpy
replica: ``SHIPPED_PRESENT``, ``SHIPPED_CALIBRATION``), its key terms as the product finds them
(``memories.selectors.query_terms`` minus the namespace's ``common_lexemes``, named ones marked),
and which key terms each of its top 10 hits holds (``memories.answerable.held``). Written to
a JSON file, so that the fitting needs no database.

``crossval`` (numpy): the model's features at each top k, a logistic regression of "never
stored" on them fitted on the training questions of each split (every other data set, each set
held out in turn; the other half of the conversations, both ways), its threshold the highest silence that
costs at most ``--cost`` of R@10 on the training questions (on top of the default floor), then
reported on the held-out questions: share of never-stored questions silenced, R@10 lost on the
answerable ones (against the same searches with the floor alone, and against no floor), false
empties, per question type.

    .venv/bin/python -m bench.retrieval.answerable prepare --data-dir /tmp/mnemo-ret --features /tmp/f-mnemo.json \
        --dataset mnemo --out /tmp/a-mnemo.json
    .venv/bin/python -m bench.retrieval.answerable crossval /tmp/a-{mnemo,chat,...}.json --json cv.json
    .venv/bin/python -m bench.retrieval.answerable holdout /tmp/a-X.json --json out.json  # frozen MODEL, no fit
    .venv/bin/python -m bench.retrieval.answerable agreement --data-dir /tmp/mnemo-ret --dataset mnemo \
        /tmp/a-mnemo.json > ag-mnemo.json  # the product's check against the replica
    .venv/bin/python -m bench.retrieval.answerable record --crossval cv.json --agreement ag-*.json

``record`` refuses a results file whose frozen model (memories.answerable.MODEL) is not the fit on
every question of the cross-validation.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from bench.retrieval import crossval


def prepare(data_dir: str, features_path: str, dataset: str) -> dict[str, Any]:
    from bench.retrieval import harness

    harness.setup_django(Path(data_dir))
    from memories import answerable, selectors

    data = harness.dataset(dataset)
    namespaces = harness.load(data)
    raw = json.loads(Path(features_path).read_text())
    texts = {int(k): v for k, v in raw["texts"].items()}
    kinds = {q["id"]: q.get("never") for q in data["questions"]}  # the hold-out's never-stored kinds
    rule = crossval.RULES[crossval.SHIPPED_PRESENT]
    cal = crossval.SHIPPED_CALIBRATION
    out = []
    for rq, q in zip(raw["questions"], crossval.load(features_path), strict=True):
        ranked, probs = crossval.scored([q], rule, cal)
        idx = ranked[0][:10]
        ns = namespaces[rq["conversation"]]
        query = rq["question"]
        keys = selectors.query_key_terms([ns], query)
        hits = []
        for i in idx:
            holding = answerable.held(keys.terms, [texts[int(q.ids[i])]])
            hits.append([t for t in keys.terms if t in holding])
        out.append(
            {
                "id": rq["id"],
                "conversation": rq["conversation"],
                "type": rq["type"],
                "never": kinds.get(rq["id"]),
                "question": query,
                "evidence": [int(x) for x in rq["evidence"]],
                "top": [int(q.ids[i]) for i in idx],
                "scores": [float(probs[0][i]) for i in idx],
                "cos": [float(q.cos[i]) for i in idx],
                "cov": [float(q.cov[i]) for i in idx],
                "z": [float(x) for x in rule(q)[idx]],
                "key": list(keys.terms),
                "named": sorted(keys.named),
                "found": hits,
            }
        )
    return {"dataset": dataset, "questions": out}


#: Top hits the check reads (the API's default ``limit`` is 5: the check sees what is returned).
TOP_K = 5
#: What the check may cost on the training questions, on top of the default floor: this share of
#: R@10 (crossval.FLOOR_COST's convention: the bound out of sample is 2 points).
COST = 0.01
#: Training costs whose out-of-sample effect is tabled (a stricter check, for callers preferring silence).
TRADE_OFF = (0.01, 0.02, 0.04, 0.08)
TYPES = (*crossval.TYPES[:-1], "knowledge-update", "preference", "adversarial")


class Q:
    """One prepared question: its floor-kept top hits, R@10 with the floor alone and without."""

    def __init__(self, raw: dict[str, Any], dataset: str, floor: float = crossval.SHIPPED_FLOOR) -> None:
        self.dataset = dataset
        self.id = raw["id"]
        self.type = raw["type"]
        self.never = raw.get("never") or ("never said" if not raw["evidence"] else None)
        self.question = raw["question"]
        self.fold = int(raw["conversation"][1:]) % 2
        self.evidence = set(raw["evidence"])
        kept = [i for i, s in enumerate(raw["scores"]) if s >= floor]
        self.kept = len(kept)
        ev = self.evidence
        self.r10_nofloor = len(ev & set(raw["top"])) / len(ev) if ev else 0.0
        self.r10 = len(ev & {raw["top"][i] for i in kept}) / len(ev) if ev else 0.0
        top = kept[:TOP_K]
        got = {t for i in top for t in raw["found"][i]}
        missing = [t for t in raw["key"] if t not in got]
        self.missing = len(missing) / len(raw["key"]) if raw["key"] else 0.0
        self.named_missing = any(t in raw["named"] for t in missing)
        self.best = raw["scores"][0] if kept else 0.0

    def x(self) -> list[float]:
        s = min(max(self.best, 1e-6), 1 - 1e-6)
        return [self.missing, float(self.named_missing), float(np.log(s / (1 - s)))]


def load_prepared(path: str) -> list[Q]:
    raw = json.loads(Path(path).read_text())
    return [Q(q, raw["dataset"]) for q in raw["questions"]]


def fit_logistic(qs: list[Q], l2: float = 1e-3) -> np.ndarray:
    """(w_missing, w_named, w_score, bias) of P(never stored), Newton's method, a little L2."""
    x = np.array([q.x() + [1.0] for q in qs if q.kept])
    y = np.array([0.0 if q.evidence else 1.0 for q in qs if q.kept])
    w = np.zeros(x.shape[1])
    for _ in range(100):
        p = 1 / (1 + np.exp(-(x @ w)))
        step = np.linalg.solve((x * (p * (1 - p))[:, None]).T @ x + l2 * np.eye(len(w)), x.T @ (p - y) + l2 * w)
        w -= step
        if np.abs(step).max() < 1e-10:
            break
    return w


def probability(qs: list[Q], w: np.ndarray) -> np.ndarray:
    x = np.array([q.x() + [1.0] for q in qs])
    return 1 / (1 + np.exp(-(x @ w)))


def effect(qs: list[Q], p: np.ndarray, threshold: float) -> dict[str, Any]:
    """Silenced never-stored questions, R@10 lost and false empties on answerable ones, per type."""
    silenced = [q.kept == 0 or pi >= threshold for q, pi in zip(qs, p, strict=True)]
    never = [(q, s) for q, s in zip(qs, silenced, strict=True) if not q.evidence]
    ans = [(q, s) for q, s in zip(qs, silenced, strict=True) if q.evidence]
    n = max(len(ans), 1)
    floor_r10 = sum(q.r10 for q, _ in ans) / n
    gated_r10 = sum(q.r10 for q, s in ans if not s) / n
    per_type = {}
    for t in TYPES:
        sub = [(q, s) for q, s in ans if q.type == t]
        if sub:
            per_type[t] = {
                "n": len(sub),
                "r10_lost": sum(q.r10 for q, s in sub if s) / len(sub),
                "false_empty_rate": float(np.mean([s for _, s in sub])),
            }
    kinds = {}
    for kind in sorted({q.never or "never said" for q, _ in never}):
        quiet = [s for q, s in never if (q.never or "never said") == kind]
        kinds[kind] = {"n": len(quiet), "silenced": float(np.mean(quiet))}
    return {
        "threshold": threshold,
        "never_stored": len(never),
        "answerable": len(ans),
        "silenced": float(np.mean([s for _, s in never])) if never else float("nan"),
        "silenced_by_floor_alone": float(np.mean([q.kept == 0 for q, _ in never])) if never else float("nan"),
        "r10_floor": floor_r10,
        "r10_gated": gated_r10,
        "r10_lost": floor_r10 - gated_r10,
        "r10_lost_vs_no_floor": sum(q.r10_nofloor for q, _ in ans) / n - gated_r10,
        "false_empty_rate": float(np.mean([s for _, s in ans])),
        "per_type": per_type,
        "never_kinds": kinds,
    }


def choose_threshold(qs: list[Q], p: np.ndarray, cost: float) -> float:
    """The lowest threshold (the most silenced) whose R@10 cost on ``qs`` stays within ``cost``."""
    best = 1.0 + 1e-9
    for t in sorted({float(x) for x in p}, reverse=True):
        if effect(qs, p, t)["r10_lost"] <= cost + 1e-12:
            best = t
        else:
            break
    return best


def fit(train: list[Q], cost: float) -> dict[str, Any]:
    w = fit_logistic(train)
    return {"w": [float(v) for v in w], "threshold": choose_threshold(train, probability(train, w), cost)}


def splits(every: list[Q]) -> dict[str, tuple[list[Q], list[Q]]]:
    """Each data set held out in turn (fitted on all the others); the other half of the conversations."""
    out = {}
    for name in sorted({q.dataset for q in every}):
        others = [q for q in every if q.dataset != name]
        out[f"fitted on the other sets → {name}"] = (others, [q for q in every if q.dataset == name])
    for k in (0, 1):
        out[f"fitted on {'odd' if k == 0 else 'even'} conversations → {'even' if k == 0 else 'odd'}"] = (
            [q for q in every if q.fold != k],
            [q for q in every if q.fold == k],
        )
    return out


def crossvalidate(every: list[Q], cost: float) -> dict[str, Any]:
    out: dict[str, Any] = {"top_k": TOP_K, "cost": cost, "splits": {}}
    for name, (train, test) in splits(every).items():
        fitted = fit(train, cost)
        w = np.array(fitted["w"])
        rows = {"fitted": fitted, "train": effect(train, probability(train, w), fitted["threshold"])}
        for d in sorted({q.dataset for q in test}):
            sub = [q for q in test if q.dataset == d]
            rows[d] = effect(sub, probability(sub, w), fitted["threshold"])
        out["splits"][name] = rows
    # what a caller who prefers silence would get: thresholds fitted to cost more on the training
    # questions, reported on the held-out ones (the default is ``cost``'s)
    out["trade_off"] = {}
    for more in TRADE_OFF:
        rows = {}
        for name, (train, test) in splits(every).items():
            fitted = fit(train, more)
            w = np.array(fitted["w"])
            for d in sorted({q.dataset for q in test}):
                sub = [q for q in test if q.dataset == d]
                e = effect(sub, probability(sub, w), fitted["threshold"])
                rows[f"{name} / {d}"] = {k: e[k] for k in ("silenced", "r10_lost", "false_empty_rate")}
        out["trade_off"][str(more)] = rows
    final = fit(every, cost)
    out["in sample"] = {"fitted": final}
    for d in sorted({q.dataset for q in every}):
        sub = [q for q in every if q.dataset == d]
        out["in sample"][d] = effect(sub, probability(sub, np.array(final["w"])), final["threshold"])
    return out


def holdout(test: list[Q]) -> dict[str, Any]:
    """The frozen model (memories.answerable.MODEL) on a data set it never saw: no fitting."""
    from memories.answerable import MODEL

    assert MODEL.top_k == TOP_K
    w = np.array([MODEL.w_missing, MODEL.w_named, MODEL.w_score, MODEL.bias])
    return {
        "model": MODEL.__dict__,
        "dataset": test[0].dataset if test else "",
        "holdout": effect(test, probability(test, w), MODEL.threshold),
    }


def agreement(data_dir: str, prepared: str, dataset: str) -> dict[str, Any]:
    """The check as the product runs it (``search_memories`` with MNEMO_ANSWERABLE_CHECK, top 10 at
    the default floor) against this file's replica with the frozen model, question by question."""
    from bench.retrieval import harness

    harness.setup_django(Path(data_dir))
    from memories import selectors
    from memories.answerable import MODEL

    data = harness.dataset(dataset)
    namespaces = harness.load(data)
    qs = load_prepared(prepared)
    w = np.array([MODEL.w_missing, MODEL.w_named, MODEL.w_score, MODEL.bias])
    replica = [q.kept == 0 or p >= MODEL.threshold for q, p in zip(qs, probability(qs, w), strict=True)]
    by_id = {q["id"]: q for q in data["questions"]}
    differ, seconds = [], []
    for q, silent in zip(qs, replica, strict=True):
        raw = by_id[q.id]
        ns = [namespaces[raw["conversation"]]]
        hits = selectors.search_memories(
            namespace_ids=ns, query=raw["question"], limit=10, min_score=crossval.SHIPPED_FLOOR
        )
        # the check as search_memories runs it when MNEMO_ANSWERABLE_CHECK is on, timed alone
        started = time.perf_counter()
        answered = bool(hits) and selectors.answers_query(ns, raw["question"], hits)
        seconds.append(time.perf_counter() - started)
        if answered == silent:
            differ.append(q.id)
    for q, silent in list(zip(qs, replica, strict=True))[:50]:  # and inside the search, for the first few
        raw = by_id[q.id]
        hits = selectors.search_memories(
            namespace_ids=[namespaces[raw["conversation"]]],
            query=raw["question"],
            limit=10,
            min_score=crossval.SHIPPED_FLOOR,
            answerable_check=True,
        )
        if (not hits) != silent and q.id not in differ:
            differ.append(q.id)
    ms = np.array(seconds) * 1000
    return {
        "dataset": dataset,
        "questions": len(qs),
        "differ": differ,
        "check_ms": {"median": float(np.median(ms)), "p90": float(np.percentile(ms, 90)), "max": float(ms.max())},
    }


def render(result: dict[str, Any]) -> list[str]:
    """Markdown tables: each split's held-out questions (and the training ones), the trade-off."""
    rows = [(n, d, e) for n, sp in result.get("splits", {}).items() for d, e in sp.items() if d != "fitted"]
    rows += [("in sample", d, e) for d, e in result.get("in sample", {}).items() if d != "fitted"]
    if "holdout" in result:
        rows.append(("frozen model, read once", result.get("dataset", "hold-out"), result["holdout"]))
    lines = [
        "| split | reported on | never-stored silenced | R@10 lost vs floor (vs no floor) | false empties | "
        "R@10 lost per type (pts) | silenced per never-stored kind |",
        "|---|---|---|---|---|---|---|",
    ]
    for split, d, e in rows:
        d = "(its training questions)" if d == "train" else d
        types = ", ".join(f"{t} {100 * v['r10_lost']:.1f}" for t, v in e["per_type"].items())
        kinds = ", ".join(f"{k} {v['silenced']:.2f} ({v['n']})" for k, v in e["never_kinds"].items())
        lines.append(
            f"| {split} | {d} | {e['silenced']:.3f} of {e['never_stored']} | {100 * e['r10_lost']:.1f} "
            f"({100 * e['r10_lost_vs_no_floor']:.1f}) | {e['false_empty_rate']:.3f} | {types} | {kinds} |"
        )
    if "trade_off" in result:
        costs = list(result["trade_off"])
        cells = list(next(iter(result["trade_off"].values())))
        lines += [
            "",
            "Held out, silenced / R@10 lost (pts), by the R@10 cost the threshold was fitted to on the training "
            "questions:",
            "",
            "| held out | " + " | ".join(f"{float(c) * 100:.0f} pt" for c in costs) + " |",
            "|---|" + "---|" * len(costs),
        ]
        for cell in cells:
            row = [result["trade_off"][c][cell] for c in costs]
            lines.append(
                f"| {cell} | " + " | ".join(f"{r['silenced']:.2f} / {100 * r['r10_lost']:.1f}" for r in row) + " |"
            )
    return lines


RESULTS = Path(__file__).resolve().parents[1] / "results" / "answerable"


def render_section(result: dict[str, Any]) -> list[str]:
    """The docs/benchmarks.md section for one results file (``record``)."""
    m = result["model"]
    agree = result["agreement"]
    sets = sorted({d for sp in result["crossval"]["splits"].values() for d in sp if d not in ("fitted", "train")})
    lines = [
        "## Is anything relevant at all? The answerability check (issue 26)",
        "",
        f"`bench/retrieval/answerable.py` ({result['date']}, commit {result['commit']}): `memories/answerable.py`, "
        "a second stage on hybrid search's top 5 hits (after fusion, the calibration and the default floor as they "
        "ship) that answers nothing when the query's key terms (its stems minus the namespace's common words; "
        "capitalised ones are *named*) are missing from every top hit and the best score is low. Logistic model "
        "on the share of key terms missing, a named one missing and logit(best score), its threshold the most "
        f"silence costing at most {100 * result['crossval']['cost']:.0f} point of R@10 on the training questions "
        f"(on top of the floor). Fitted and reported out of sample on {len(sets)} data sets ({', '.join(sets)}): "
        "each held out in turn, fitted on the others; and the other half of the conversations, both ways. The "
        f"final model, fitted on all of them, is the one frozen in the product (w_missing {m['w_missing']}, "
        f"w_named {m['w_named']}, w_score {m['w_score']}, bias {m['bias']}, threshold {m['threshold']}). On these "
        "sets' never-stored questions (near misses) it misses the bar (most of them silenced at ≤ 2 points) on "
        "every held-out set; it runs by default (`MNEMO_ANSWERABLE_CHECK`, searches with no `min_score`) since "
        "2026-12-07, when a query naming someone the namespace knows stopped counting names, for questions about "
        'subjects never mentioned (section "Questions about things never stored"). '
        "The product's check and this replica agree on "
        + ", ".join(f"{a['questions'] - len(a['differ'])} of {a['questions']} {a['dataset']} questions" for a in agree)
        + "; it costs "
        + ", ".join(f"{a['check_ms']['median']:.2f} ms (median; p90 {a['check_ms']['p90']:.2f})" for a in agree[:1])
        + " per search on top of the search.",
        "",
    ]
    shown = dict(result["crossval"])
    if result.get("holdout"):  # a set read once with the frozen model (none in the seven-set fit)
        shown["holdout"] = result["holdout"]["holdout"]
        shown["dataset"] = result["holdout"].get("dataset", "hold-out")
    return lines + render(shown)


def newest_section() -> list[str]:
    """The section for the newest results, or nothing when there are none."""
    from bench.report import newest_results_section

    return newest_results_section(RESULTS, render_section)


def record(crossval_path: str, agreement_paths: list[str]) -> dict[str, Any]:
    """One results file: the cross-validation, the frozen model (which must be the one fitted on every
    question of the cross-validation) and the product's agreement with the replica."""
    import os
    import subprocess
    from datetime import UTC, datetime

    from memories.answerable import MODEL

    cv = json.loads(Path(crossval_path).read_text())["result"]
    fitted = cv["in sample"]["fitted"]
    frozen = [MODEL.w_missing, MODEL.w_named, MODEL.w_score, MODEL.bias, MODEL.threshold]
    if not np.allclose(frozen, [*fitted["w"], fitted["threshold"]], atol=1e-3):
        raise SystemExit(f"memories.answerable.MODEL {frozen} is not the fit on every question {fitted}")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    return {
        "date": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "commit": commit,
        "load_average": os.getloadavg()[0],
        "model": MODEL.__dict__,
        "crossval": cv,
        "agreement": [json.loads(Path(p).read_text()) for p in agreement_paths],
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("--data-dir", required=True)
    p.add_argument("--features", required=True)
    p.add_argument("--dataset", required=True)
    p.add_argument("--out", required=True)
    c = sub.add_parser("crossval")
    c.add_argument("prepared", nargs="+")
    c.add_argument("--cost", type=float, default=COST)
    c.add_argument("--json")
    r = sub.add_parser("record")
    r.add_argument("--crossval", required=True)
    r.add_argument("--agreement", nargs="+", required=True)
    g = sub.add_parser("agreement")
    g.add_argument("--data-dir", required=True)
    g.add_argument("--dataset", required=True)
    g.add_argument("prepared")
    h = sub.add_parser("holdout")
    h.add_argument("prepared")
    h.add_argument("--json")
    args = parser.parse_args(argv)
    if args.cmd == "prepare":
        Path(args.out).write_text(json.dumps(prepare(args.data_dir, args.features, args.dataset)))
        return
    if args.cmd == "record":
        RESULTS.mkdir(parents=True, exist_ok=True)
        out = record(args.crossval, args.agreement)
        path = RESULTS / f"{out['date'].replace(':', '').rstrip('Z')}.json"
        path.write_text(json.dumps(out, indent=1) + "\n")
        print("\n".join(render_section(out)))
        print(f"wrote {path}")
        return
    if args.cmd == "agreement":
        print(json.dumps(agreement(args.data_dir, args.prepared, args.dataset)))
        return
    if args.cmd == "crossval":
        result = crossval.jsonable(crossvalidate([q for p in args.prepared for q in load_prepared(p)], args.cost))
    else:
        import os
        import sys

        sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
        result = crossval.jsonable(holdout(load_prepared(args.prepared)))
    print("\n".join(render(result)))
    if args.json:
        Path(args.json).write_text(
            json.dumps({"kind": f"retrieval-answerable-{args.cmd}", "result": result}, indent=1) + "\n"
        )


if __name__ == "__main__":
    main()
