"""The vectorised sample_eval.pl kernels against a naive loop written from the spec's formulas
(tests/_naive_sampled.py) on seeded random sampled qrels and runs: several strata with names that
sort differently as text and as numbers, graded labels up to 12 (string order of the grades),
unsampled and unpooled documents, tied scores, lists shorter and longer than the depth."""

from __future__ import annotations

import random

import numpy as np
import pytest
from _naive_sampled import naive_topic

from ir_measures_pres.data.inputs import Columns, object_array
from ir_measures_pres.data.qrels import Qrels
from ir_measures_pres.data.ranking import rank_run
from ir_measures_pres.measures.sampled import estimators as sm

STRATA = ["1", "2", "10", "b", "a"]
GRADES = [-1, -1, 0, 0, 0, 1, 1, 2, 3, 10, 12]


def case(rng: random.Random):
    judged = {}
    run = {}
    for t in range(rng.randint(1, 5)):
        topic = str(rng.choice([3, 20, 100]) + t)
        docs = [f"d{i}" for i in range(rng.randint(1, 40))]
        strata = rng.sample(STRATA, rng.randint(1, len(STRATA)))
        judged[topic] = {d: (rng.choice(strata), rng.choice(GRADES)) for d in docs if rng.random() < 0.7}
        if not judged[topic]:
            judged[topic][docs[0]] = (strata[0], 1)
        retrieved = rng.sample(docs, rng.randint(1, len(docs)))
        run[topic] = {d: float(rng.randint(0, 6)) for d in retrieved}  # many ties
    return judged, run


def columns(judged, run):
    q = [(t, d, c, rel) for t, docs in judged.items() for d, (c, rel) in docs.items()]
    qrels = Qrels.from_any(
        Columns(
            object_array([x[0] for x in q]),
            object_array([x[1] for x in q]),
            np.array([x[3] for x in q], dtype=np.int64),
            strata=object_array([x[2] for x in q]),
        )
    )
    lines = [(t, d, s) for t, docs in run.items() for d, s in docs.items()]
    cols = Columns(
        object_array([x[0] for x in lines]),
        object_array([x[1] for x in lines]),
        np.array([x[2] for x in lines]),
    )
    return qrels, cols


@pytest.mark.parametrize("seed", range(60))
@pytest.mark.parametrize("variant", ["cds", "trecvid"])
def test_kernels_equal_the_naive_loop(seed: int, variant: str) -> None:
    rng = random.Random(seed)
    judged, run = case(rng)
    depth = rng.choice([3, 10, 1000])
    ranks = [1, 5, 20]
    qrels, cols = columns(judged, run)
    ranked = rank_run(cols, qrels, exact_scores=True)
    st = sm.strata_of(qrels)
    walk = sm.walk_of(ranked, depth)
    got = {
        "infAP": sm.inf_ap(walk, st, variant, depth),
        "infNDCG": sm.inf_ndcg(walk, sm.ideal_dcg(qrels, variant, depth)),
        "inum_rel_ret": sm.inum_rel_ret_of(walk),
        "iprec": sm.iprec_at_recall(walk, st),
    }
    precision = {k: sm.inf_precision(walk, k) for k in ranks}
    for i, q in enumerate(ranked.qpos.tolist()):
        topic = qrels.query_ids[q]
        # trec_eval's order: score descending, ties by docno descending
        ranking = sorted(sorted(run[topic], reverse=True), key=lambda d: -run[topic][d])
        want = naive_topic(judged[topic], ranking, variant, depth, ranks)
        for name in ("infAP", "infNDCG", "inum_rel_ret"):
            assert got[name][i] == pytest.approx(want[name], rel=1e-12, abs=1e-15), (name, topic)
        assert st.R_hat[q] == pytest.approx(want["inum_rel"], rel=1e-12)
        for k in ranks:
            assert precision[k][i] == pytest.approx(want["iP"][k], rel=1e-12, abs=1e-15), (k, topic)
        assert got["iprec"][i].tolist() == pytest.approx(want["iprec"], rel=1e-12, abs=1e-15), topic


def test_iprec_memory_is_linear_in_the_documents() -> None:
    """One list of 20000 documents among 499 of one: the interpolated precision works on the
    20499 documents, not on a 500 × 20000 array (80 MB a copy); each list's values are those it
    has alone (the lists do not leak into each other)."""
    import tracemalloc

    rng = np.random.default_rng(7)
    lengths = np.ones(500, dtype=np.int64)
    lengths[250] = 20000
    offsets = np.concatenate(([0], np.cumsum(lengths)))
    est = np.concatenate([np.cumsum(rng.random(n) < 0.2) + 1e-5 for n in lengths.tolist()])
    st = sm.Strata(np.zeros(0), 0, *(np.zeros((500, 0)),) * 3, rng.random(500) * 30, [], np.zeros(0))
    walk = sm.Walk(np.arange(500), offsets, est, *(np.zeros((500, 0)),) * 4, np.zeros(500))
    tracemalloc.start()
    try:
        got = sm.iprec_at_recall(walk, st)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 << 20, f"peak {peak / 2**20:.0f} MiB"
    for q in (0, 250, 499):
        a, b = int(offsets[q]), int(offsets[q + 1])
        alone = sm.Walk(np.array([q]), np.array([0, b - a]), est[a:b], *(np.zeros((1, 0)),) * 4, np.zeros(1))
        assert got[q].tolist() == sm.iprec_at_recall(alone, st).tolist()[0]
