#!/usr/bin/env python3
"""Write a synthetic run shaped like an MS MARCO dev run, and its qrels (issue #23's benchmark).

usage: python bench/make_marco_run.py DIR QUERIES [--depth 100] [--seed 23]

Writes ``DIR/qrels.txt`` and ``DIR/run.txt``: QUERIES queries (numeric ids, in increasing
order, each query's lines together as every TREC tool writes them) of ``--depth`` documents
each (numeric passage ids out of 8,841,823), scores descending with four decimals (some ties); per query 1-3
relevant passages (relevance 1), one of which is usually (80%) not retrieved and the others at
random ranks. 500,000 queries x 100 = 50M lines (about 1.6 GB). Written with pandas in chunks of
10,000 queries, so memory stays small whatever the size.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd

COLLECTION = 8_841_823
CHUNK = 10_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", type=Path)
    parser.add_argument("queries", type=int)
    parser.add_argument("--depth", type=int, default=100)
    parser.add_argument("--seed", type=int, default=23)
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    depth = args.depth
    with open(args.dir / "run.txt", "w") as run_out, open(args.dir / "qrels.txt", "w") as qrels_out:
        for first in range(0, args.queries, CHUNK):
            nq = min(CHUNK, args.queries - first)
            qids = np.arange(first, first + nq) * 7 + 1_000
            docs = rng.integers(0, COLLECTION, size=(nq, depth))
            scores = np.sort(rng.uniform(5.0, 30.0, size=(nq, depth)), axis=1)[:, ::-1]
            # relevant passages: 1-3 per query; the first usually not retrieved
            nrel = rng.integers(1, 4, size=nq)
            missing = rng.random(nq) < 0.8
            rel_q, rel_d = [], []
            for k in range(3):
                has = nrel > k
                retrieved = ~(missing & (k == 0))
                at = rng.integers(0, depth, size=nq)
                picked = np.where(retrieved, docs[np.arange(nq), at], COLLECTION + first + np.arange(nq))
                rel_q.append(qids[has])
                rel_d.append(picked[has])
            qrels = pd.DataFrame({"q": np.concatenate(rel_q), "i": 0, "d": np.concatenate(rel_d), "r": 1})
            qrels = qrels.sort_values("q", kind="stable").drop_duplicates(["q", "d"])
            qrels.to_csv(qrels_out, sep=" ", header=False, index=False)
            run = pd.DataFrame(
                {
                    "q": np.repeat(qids, depth),
                    "it": "Q0",
                    "d": docs.ravel(),
                    "rank": np.tile(np.arange(1, depth + 1), nq),
                    "s": scores.ravel(),
                    "tag": "run",
                }
            )
            run.to_csv(run_out, sep=" ", header=False, index=False, float_format="%.4f")


if __name__ == "__main__":
    main()
