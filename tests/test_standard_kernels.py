"""The native kernels of standard measures (measures.standard.kernels) equal pytrec_eval per query
on every real run of ../shared/data/real: the 17 TREC 2003 Robust runs (qrels 0/1/2) and the 20
CLEF 2017 TAR runs (the graded qrels 0/1/2, and the binary content-level qrels, which has a topic
without relevant documents).

Expected values come from ``pytrec_eval.RelevanceEvaluator`` given the run and qrels as dicts (it
sorts the run itself), never from our ranking: ``relevance_level`` for ``rel``, the run with its
unjudged documents removed for ``judged_only``, the qrels relabelled by the gains for
nDCG(gains=...) (as ir_measures does), and RR@k from ``recip_rank`` (1/r1 when r1 <= k, else 0).
Each run is read and ranked once per qrels and shared by all the tests of that qrels.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import ir_measures
import pytest
import pytrec_eval
from conftest import DATA, shared_data

from ir_measures_pres.data.inputs import Columns
from ir_measures_pres.data.qrels import Qrels
from ir_measures_pres.data.ranking import RankedRun, rank_run
from ir_measures_pres.data.readers import read_qrels, read_run
from ir_measures_pres.measures.standard.kernels import STANDARD_KERNELS, kernel_for
from ir_measures_pres.meta import evaluate

#: qrels name -> (collection folder, qrels file)
QRELS = {
    "robust03": ("trec-robust-2003", "robust03_qrels.txt"),  # levels 0/1/2
    "tar17-graded": ("clef-tar-2017", "test.clef2017.qrels"),  # levels 0/1/2
    "tar17-content": ("clef-tar-2017", "qrel_content_test.txt"),  # 0/1, CD010653 without relevant
}
RUN_COUNT = {"trec-robust-2003": 17, "clef-tar-2017": 20}

#: every trec_eval measure pytrec_eval computes for the comparisons (default cutoffs:
#: 5 10 15 20 30 100 200 500 1000; success 1 5 10)
TREC_MEASURES = {
    "map",
    "map_cut",
    "P",
    "recall",
    "ndcg",
    "ndcg_cut",
    "recip_rank",
    "Rprec",
    "success",
    "bpref",
}

#: (ir_measures measure, trec_eval measure it equals)
BASE = [
    ("AP", "map"),
    ("AP@10", "map_cut_10"),
    ("AP@100", "map_cut_100"),
    ("AP@1000", "map_cut_1000"),
    ("P@5", "P_5"),
    ("P@10", "P_10"),
    ("P@100", "P_100"),
    ("P@1000", "P_1000"),
    ("R@10", "recall_10"),
    ("R@100", "recall_100"),
    ("R@1000", "recall_1000"),
    ("nDCG", "ndcg"),
    ("nDCG@10", "ndcg_cut_10"),
    ("nDCG@100", "ndcg_cut_100"),
    ("nDCG@1000", "ndcg_cut_1000"),
    ("RR", "recip_rank"),
    ("RR@10", "recip_rank"),
    ("RR@100", "recip_rank"),
    ("Rprec", "Rprec"),
    ("Success@1", "success_1"),
    ("Success@5", "success_5"),
    ("Success@10", "success_10"),
    ("Bpref", "bpref"),
]
GAINS = [{0: 0, 1: 1, 2: 5}, {0: 1, 1: 2, 2: 2}]  # the second: judged non-relevant docs gain too


@dataclass(frozen=True)
class Case:
    measure: Any
    trec_name: str
    rel: int = 1
    judged_only: bool = False
    gains: Optional[Tuple[Tuple[int, int], ...]] = None

    @property
    def variant(self) -> Tuple[int, bool, Any]:
        """What pytrec_eval must be run with: relevance level, unjudged removed, gains."""
        return self.rel, self.judged_only, self.gains

    def __str__(self) -> str:
        return str(self.measure)


def cases() -> List[Case]:
    """Every measure of BASE, with rel=2 and judged_only=True where it has them, and nDCG with
    gains. (rel=2 on the binary qrels: no relevant document anywhere, every value 0.)"""
    out = []
    for text, trec_name in BASE:
        m = ir_measures.parse_measure(text)
        out.append(Case(m, trec_name))
        if "rel" in m.SUPPORTED_PARAMS:
            out.append(Case(m(rel=2), trec_name, rel=2))
        if "judged_only" in m.SUPPORTED_PARAMS:
            out.append(Case(m(judged_only=True), trec_name, judged_only=True))
    for gains in GAINS:
        for text, trec_name in [("nDCG", "ndcg"), ("nDCG@10", "ndcg_cut_10"), ("nDCG@1000", "ndcg_cut_1000")]:
            m = ir_measures.parse_measure(text)(gains=gains)
            out.append(Case(m, trec_name, gains=tuple(sorted(gains.items()))))
    return out


def as_dict(cols: Columns) -> Dict[str, Dict[str, Any]]:
    """{query: {doc: value}}; a duplicate line's last value wins, as in ir_measures."""
    out: Dict[str, Dict[str, Any]] = {}
    for q, d, v in zip(cols.query_ids.tolist(), cols.doc_ids.tolist(), cols.values.tolist()):
        out.setdefault(q, {})[d] = v
    return out


def real_data(folder: str, *parts: str) -> Path:
    """A real collection's file: CLEF TAR 2017 is in tests/data (MIT), Robust 2003 only in
    ../shared/data (NIST's terms: not copied; the tests skip without it)."""
    if folder == "clef-tar-2017":
        return DATA.joinpath(folder, *parts)
    return shared_data("real", folder, *parts)


@lru_cache(maxsize=1)  # the two CLEF qrels share the runs; one collection in memory at a time
def read_runs(folder: str) -> Tuple[Tuple[str, Columns, Dict[str, Dict[str, float]]], ...]:
    runs = []
    for path in sorted(real_data(folder, "runs").iterdir()):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # uos.sis.TMAL30Q_BM25 has duplicate lines
            cols = read_run(path)
        runs.append((path.name[: -len(".gz")], cols, as_dict(cols)))
    assert len(runs) == RUN_COUNT[folder]
    return tuple(runs)


@dataclass
class Collection:
    name: str
    qrels: Qrels
    qrels_dict: Dict[str, Dict[str, int]]
    runs: List[Tuple[str, Dict[str, Dict[str, float]], RankedRun]]
    _expected: Dict[Any, List[Dict[str, Dict[str, float]]]] = field(default_factory=dict)

    def expected(self, variant: Tuple[int, bool, Any]) -> List[Dict[str, Dict[str, float]]]:
        """pytrec_eval's per-query values of every run for a variant (computed once)."""
        if variant not in self._expected:
            self._expected[variant] = self._evaluate(*variant)
        return self._expected[variant]

    def _evaluate(self, rel: int, judged_only: bool, gains: Any) -> List[Dict[str, Dict[str, float]]]:
        qrels = self.qrels_dict
        if gains is not None:
            mapped = dict(gains)
            qrels = {q: {d: mapped.get(v, v) for d, v in docs.items()} for q, docs in qrels.items()}
        evaluator = pytrec_eval.RelevanceEvaluator(qrels, TREC_MEASURES, relevance_level=rel)
        results = []
        for k, (_, run, _) in enumerate(self.runs):
            if judged_only:  # the condensed list: the run without its unjudged documents
                judged = {
                    q: {d: s for d, s in docs.items() if d in qrels.get(q, {})} for q, docs in run.items()
                }
                if sum(map(len, judged.values())) == sum(map(len, run.values())):
                    results.append(self.expected((rel, False, None))[k])  # nothing removed
                    continue
                run = {q: docs for q, docs in judged.items() if docs}
            results.append(evaluator.evaluate(run))
        return results


@pytest.fixture(scope="module", params=list(QRELS))
def collection(request) -> Collection:
    folder, qrels_file = QRELS[request.param]
    qrels_cols = read_qrels(real_data(folder, "qrels", qrels_file))
    assert (qrels_cols.values >= 0).all()  # no "in the pool but unjudged" labels: -J is plain
    qrels = Qrels.from_any(qrels_cols)
    runs = [(name, run, rank_run(cols, qrels)) for name, cols, run in read_runs(folder)]
    return Collection(request.param, qrels, as_dict(qrels_cols), runs)


def ranked_query_ids(collection: Collection, ranked: RankedRun) -> List[str]:
    return [collection.qrels.query_ids[i] for i in ranked.qpos.tolist()]


def expected_value(case: Case, per_query: Dict[str, float]) -> float:
    value = per_query[case.trec_name]
    cutoff = case.measure.params.get("cutoff")
    if case.measure.NAME == "RR" and cutoff is not None:  # RR@k: 1/r1 when r1 <= k (1/r is monotone)
        return value if value >= 1.0 / cutoff else 0.0
    return value


def test_every_kernel_is_compared():
    tested = cases()
    assert {c.measure.NAME for c in tested} == set(STANDARD_KERNELS)
    assert all(kernel_for(c.measure) is not None for c in tested)


@pytest.mark.parametrize("case", cases(), ids=str)
def test_kernel_equals_pytrec_eval_per_query_on_every_real_run(collection: Collection, case: Case):
    kernel = kernel_for(case.measure)
    assert kernel is not None
    compared = 0
    for (name, _, ranked), expected in zip(collection.runs, collection.expected(case.variant)):
        got = dict(zip(ranked_query_ids(collection, ranked), kernel(case.measure, ranked).tolist()))
        # pytrec_eval scores the queries of both the run and the qrels, as the ranked run holds
        # them; with judged_only, a query left without documents is not in pytrec_eval's run
        if case.judged_only:
            assert set(expected) <= set(got), name
            assert all(got[q] == 0.0 for q in set(got) - set(expected)), name
        else:
            assert set(expected) == set(got), name
        for q, per_query in expected.items():
            want = expected_value(case, per_query)
            assert got[q] == pytest.approx(want, rel=0, abs=1e-12), (name, q)
        compared += len(expected)
    assert compared > 0


def test_queries_a_run_lacks_get_the_default_and_the_others_equal_pytrec_eval():
    """Through the meta-evaluation core, which reads and ranks the files its own way: iiit.run1
    lacks 3 of the 30 CLEF topics."""
    qrels_path = real_data("clef-tar-2017", "qrels", "test.clef2017.qrels")
    runs = {n: real_data("clef-tar-2017", "runs", f"{n}.gz") for n in ["iiit.run1", "ecnu.run2"]}
    plain = [c for c in cases() if c.variant == (1, False, None)]
    scores = evaluate(qrels_path, runs, [c.measure for c in plain], progress=False)
    qrels = as_dict(read_qrels(qrels_path))
    assert scores.query_ids == list(qrels)
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, TREC_MEASURES)
    missing = 0
    for j, path in enumerate(runs.values()):
        expected = evaluator.evaluate(as_dict(read_run(path)))
        for i, case in enumerate(plain):
            for q, value in zip(scores.query_ids, scores.values[i, j].tolist()):
                if q in expected:
                    assert value == pytest.approx(expected_value(case, expected[q]), rel=0, abs=1e-12)
                else:
                    assert value == case.measure.DEFAULT == 0.0
                    missing += 1
    assert missing == 3 * len(plain)


@pytest.mark.parametrize(
    "measure",
    [
        ir_measures.nDCG(dcg="exp-log2"),
        ir_measures.nDCG(gains={1: 1.5}),  # pytrec_eval takes integer gains only
        ir_measures.nDCG(gains={1: True}),
        ir_measures.nDCG(gains={-1: 1}),
        ir_measures.nDCG(gains={1: -1}),
        ir_measures.AP(rel=0),
        ir_measures.P(rel=-1) @ 5,
        ir_measures.Bpref(rel=0),
        ir_measures.SetP,
        ir_measures.infAP,
        ir_measures.NumRel,
    ],
    ids=str,
)
def test_other_parameter_values_have_no_native_kernel(measure):
    assert kernel_for(measure) is None


def test_measures_outside_the_table_have_no_native_kernel():
    import ir_measures_pres

    assert kernel_for(ir_measures_pres.Bpref10) is None
    assert kernel_for(object()) is None
