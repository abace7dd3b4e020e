"""Fit, and judge cross-fitted, the rule that settles an "ambiguous" icon answer on its first candidate
(perception/icons/settle.py), from icon_decide_data.py's dumps.

Run: .venv/bin/python benchmarks/icon_decide_fit.py --half a=A.jsonl --half b=B.jsonl
     [--check tune=T.jsonl ...] [--save-evidence] [--write]
 or: .venv/bin/python benchmarks/icon_decide_fit.py --evidence benchmarks/data/settle_evidence.json
(the dumps come from icon_decide_data.py: half a with classifier weights trained on half b's labels only,
half b with weights trained on a's; the compact evidence file keeps the rows the stored fit came from).

For each ambiguous answer, the features settle.features() reads of the offered candidates (the same code,
so the fit and the locator cannot drift apart) and whether the first one is the true icon. A logistic rule
is fitted on one half and judged on the other (and the other way round): tapping the first candidate
when the rule's probability that it is right reaches settle.TAP_AT (a wrong tap costs two questions, so
a tap pays from 2/3 on). Score per half: hits gained - 2 x wrong taps added. ``--write`` stores the
coefficients fitted on both halves together in perception/icons/settle.json (with the figures they had).
Hand rules are judged alongside, for comparison.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

from droidpilot.perception.icons.settle import (
    COEFFICIENTS,
    FEATURES,
    TAP_AT,
    Offered,
    eligible,
    features,
    probability,
)

EVIDENCE = Path(__file__).resolve().parent / "data" / "settle_evidence.json"
L2 = 0.3  # ridge on the coefficients (not the intercept): few queries, keep the rule smooth


def offered_of(rec: dict) -> list[Offered] | None:
    """The candidates an ambiguous answer offered, as settle.Offered, best first (None: not ambiguous)."""
    if rec.get("status") != "ambiguous" or rec.get("unknown"):  # settle.py leaves words not understood
        return None
    kept = {tuple(c["box"]): c for c in rec["kept"]}
    out = []
    for box in rec["answer"]:
        c = kept.get(tuple(box))
        if c is None:  # an offered candidate beyond the ones written: the dump keeps the first 8
            return None
        out.append(Offered(score=c["score"], p=c["p"], shape=c["shape"], colour=c["colour"],
                           position=c["position"], matches=c["matches"]))
    return out


def rows(path: Path) -> tuple[np.ndarray, np.ndarray, int, int]:
    """(features, first-is-right) of the ambiguous answers; the number of queries and of hits as found."""
    xs, ys, n, hits = [], [], 0, 0
    for line in path.read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        n += 1
        hits += rec["status"] == "found" and bool(rec.get("answer_right") and rec["answer_right"][0])
        offered = offered_of(rec)
        if offered is None or not eligible(offered):
            continue
        xs.append(features(offered))
        ys.append(bool(rec["answer_right"][0]))
    return np.array(xs, float).reshape(-1, len(FEATURES)), np.array(ys, float), n, hits


def load_evidence(path: Path) -> dict[str, tuple[np.ndarray, np.ndarray, int, int]]:
    """The halves' rows as --save-evidence wrote them (features, first-is-right, queries, hits)."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        if doc["features"] != list(FEATURES):
            raise ValueError(f"features {doc['features']} are not settle.py's {list(FEATURES)}")
        return {k: (np.array(h["x"], float).reshape(-1, len(FEATURES)), np.array(h["y"], float),
                    int(h["queries"]), int(h["hits"])) for k, h in doc["halves"].items()}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise SystemExit(f"error: {path}: not the evidence --save-evidence writes ({exc}); dump the halves "
                         "again with icon_decide_data.py and pass them with --half") from None


def fit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Ridge-penalised logistic regression by Newton steps: [intercept, *coefficients]."""
    a = np.hstack([np.ones((len(x), 1)), x])
    w = np.zeros(a.shape[1])
    pen = np.full(a.shape[1], L2)
    pen[0] = 0.0
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-a @ w))
        grad = a.T @ (p - y) + pen * w
        hess = (a * (p * (1 - p))[:, None]).T @ a + np.diag(pen) + 1e-9 * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


def judge(tap: np.ndarray, y: np.ndarray) -> tuple[int, int, int]:
    """(hits gained, wrong taps added, score = gained - 2 x wrong)."""
    gained, wrong = int((tap & (y == 1)).sum()), int((tap & (y == 0)).sum())
    return gained, wrong, gained - 2 * wrong


def hand_rules() -> dict[str, Callable[[np.ndarray], np.ndarray]]:
    """A few hand rules over the same features, to compare with the fitted one."""
    i = {name: k for k, name in enumerate(FEATURES)}
    return {
        "p>=0.5&lead2x": lambda x: (x[:, i["p"]] >= 0.5) & (x[:, i["p_lead"]] >= np.log(2.0)),
        "p>=0.35&lead2x": lambda x: (x[:, i["p"]] >= 0.35) & (x[:, i["p_lead"]] >= np.log(2.0)),
        "score_lead>=1.1": lambda x: x[:, i["score_lead"]] >= np.log(1.1),
        "p>=0.5": lambda x: x[:, i["p"]] >= 0.5,
        "score_lead>=1.5": lambda x: x[:, i["score_lead"]] >= np.log(1.5),
    }


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--half", action="append", default=[], metavar="NAME=FILE")
    ap.add_argument("--check", action="append", default=[], metavar="NAME=FILE")
    ap.add_argument("--evidence", type=Path, default=None,
                    help=f"read the halves' rows from a compact file instead (the kept one: {EVIDENCE.name})")
    ap.add_argument("--save-evidence", action="store_true", help=f"write the halves' rows to {EVIDENCE}")
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args(argv)
    if bool(args.half) == bool(args.evidence):
        print("error: give the halves either as --half NAME=DUMP.jsonl (twice) or as --evidence FILE",
              file=sys.stderr)
        return 2
    halves = ({k: rows(Path(v)) for k, v in (h.split("=", 1) for h in args.half)} if args.half
              else load_evidence(args.evidence))
    checks = {k: rows(Path(v)) for k, v in (h.split("=", 1) for h in args.check)}
    if args.save_evidence:
        doc = {k: {"queries": n, "hits": hits, "x": np.round(x, 6).tolist(), "y": y.astype(int).tolist()}
               for k, (x, y, n, hits) in halves.items()}
        EVIDENCE.write_text(json.dumps({"features": list(FEATURES), "halves": doc}) + "\n", encoding="utf-8")
    print(f"features {', '.join(FEATURES)}; tap at p_right >= {TAP_AT:.3f}")
    for name, (_x, y, n, hits) in {**halves, **checks}.items():
        print(f"{name}: {n} queries, {hits} hits as found, {len(y)} ambiguous (first right {int(y.sum())})")
    for name, (x, y, _, _) in halves.items():
        others = [h for h in halves if h != name]
        xo = np.vstack([halves[h][0] for h in others])
        yo = np.concatenate([halves[h][1] for h in others])
        w = fit(xo, yo)
        g = judge(probability(x, w) >= TAP_AT, y)
        print(f"cross-fitted on {'+'.join(others)} -> {name}: gained {g[0]} wrong {g[1]} score {g[2]}  "
              f"w={np.round(w, 3).tolist()}")
        for rule, f in hand_rules().items():
            print(f"  hand {rule:>16} on {name}: gained/wrong/score {judge(f(x), y)}")
    xa = np.vstack([h[0] for h in halves.values()])
    ya = np.concatenate([h[1] for h in halves.values()])
    w = fit(xa, ya)
    print(f"fitted on all halves: w={np.round(w, 3).tolist()}")
    shipped = np.array([COEFFICIENTS[k] for k in ("intercept", *FEATURES)])
    for name, (x, y, _, _) in {**halves, **checks}.items():
        print(f"  {name}: new fit {judge(probability(x, w) >= TAP_AT, y)}  "
              f"stored {judge(probability(x, shipped) >= TAP_AT, y)}")
    if args.write:
        out = Path(__file__).resolve().parents[1] / "src/droidpilot/perception/icons/settle.json"
        doc = {"note": "fitted by benchmarks/icon_decide_fit.py on the two training halves (cross-fitted "
                       "classifier weights); see settle.py", "tap_at": TAP_AT,
               "coefficients": dict(zip(("intercept", *FEATURES), np.round(w, 4).tolist(), strict=True))}
        out.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
