"""Bpref-10 against trec_eval 8.1's own outputs; pytrec_eval's bpref against trec_eval 10.0's.

trec_eval 8.1 (``-a``) prints the two bpref-10 variants docs/measures.md maps to ``Bpref10``:
``bpref_top10pRnonrel`` = ``Bpref10`` (variant ``'trec'``) and ``old_bpref_top10pRnonrel`` =
``Bpref10(variant='old')``. Every topic line and the ``all`` line of every 8.1 output in tests/data
is compared, to 5e-5 (8.1 works in float32 and prints 4 decimals). The outputs and the
commands that made them (tests/data/trec_eval_test/README.md, tests/data/bpref10/README.md):

* ``v8.1/out.test.aq``   ``-a -q qrels.test results.test``
* ``v8.1/out.test.aqc``  ``-a -q -c qrels.test results.trunc`` (the run lacks topic 302; ``-c``
  averages over every qrels topic with 0 for the missing one: ir_measures' DEFAULT filling)
* ``v8.1/out.test.aqcM`` the same with ``-M100`` (the top 100 documents of each topic)
* ``v8.1/out.test.aql``  ``-a -q -l2 qrels.rel_level results.test`` (``rel=2``)
* ``bpref10/small_AB/te81.a.txt`` and ``bpref10/graded/te81.l1.a.txt`` (``-q -a``)

The second half checks the data reading itself: pytrec_eval's ``bpref`` (through ir_measures)
equals trec_eval 10.0's ``bpref`` lines on the same inputs.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import ir_measures
import pytest
from _readers import Qrels, Run, read_qrels, read_run, trec_eval_values, trec_order
from conftest import DATA

from ir_measures_pres import Bpref10

TOL = 5e-5
TE = DATA / "trec_eval_test"
BP = DATA / "bpref10"


@dataclass(frozen=True)
class Output:
    """A trec_eval output file and the inputs and options that produced it."""

    name: str
    path: Path
    qrels: Path
    run: Path
    rel: int = 1
    #: trec_eval -M: keep the top M documents of each topic (trec_eval order)
    max_docs: int | None = None

    def load(self) -> tuple[Qrels, Run]:
        qrels, run = read_qrels(self.qrels), read_run(self.run)
        if self.max_docs is not None:
            run = {q: {d: docs[d] for d in trec_order(docs)[: self.max_docs]} for q, docs in run.items()}
        return qrels, run


V81 = [
    Output("aq", TE / "v8.1" / "out.test.aq", TE / "qrels.test", TE / "results.test"),
    Output("aqc", TE / "v8.1" / "out.test.aqc", TE / "qrels.test", TE / "results.trunc"),
    Output("aqcM100", TE / "v8.1" / "out.test.aqcM", TE / "qrels.test", TE / "results.trunc", max_docs=100),
    Output("aql-l2", TE / "v8.1" / "out.test.aql", TE / "qrels.rel_level", TE / "results.test", rel=2),
    Output("small_AB", BP / "small_AB" / "te81.a.txt", BP / "small_AB" / "qrels", BP / "small_AB" / "run"),
    Output(
        "graded-l1",
        BP / "graded" / "te81.l1.a.txt",
        BP / "graded" / "qrels.graded.trec",
        BP / "graded" / "run.graded.trec",
    ),
]

#: trec_eval 8.1 measure name -> Bpref10 variant
VARIANTS = {"bpref_top10pRnonrel": "trec", "old_bpref_top10pRnonrel": "old"}


def _compare(expected: dict[str, float], per_query: dict[str, float], mean: float) -> list[str]:
    wrong = []
    for qid, value in expected.items():
        got = mean if qid == "all" else per_query.get(qid)
        if got is None or abs(got - value) > TOL:
            wrong.append(f"{qid}: ours {got} trec_eval {value:.4f}")
    return wrong


@pytest.mark.parametrize("te_name,variant", sorted(VARIANTS.items()))
@pytest.mark.parametrize("out", V81, ids=[o.name for o in V81])
def test_bpref10_matches_trec_eval_81(out: Output, te_name: str, variant: str) -> None:
    """Every topic and the mean of a trec_eval 8.1 bpref-10 line, per variant."""
    expected = trec_eval_values(out.path, te_name)
    assert "all" in expected and len(expected) >= 3, f"{te_name} lines missing from {out.path}"
    qrels, run = out.load()
    params = {"variant": variant} if variant != "trec" else {}
    if out.rel != 1:
        params["rel"] = out.rel
    measure = Bpref10(**params) if params else Bpref10
    per_query = {m.query_id: m.value for m in ir_measures.iter_calc([measure], qrels, run)}
    mean = ir_measures.calc_aggregate([measure], qrels, run)[measure]
    wrong = _compare(expected, per_query, mean)
    assert not wrong, f"{out.path.name} {te_name} vs {measure}: " + "; ".join(wrong)


def test_values_quoted_in_the_docs() -> None:
    """The values docs/measures.md (Bpref-10) quotes from v8.1/out.test.aq, as written there."""
    expected = trec_eval_values(TE / "v8.1" / "out.test.aq", "bpref_top10pRnonrel")
    assert expected == {"301": 0.1236, "302": 0.4813, "303": 0.0100, "all": 0.2050}


def test_trunc_lacks_302_and_c_fills_zero() -> None:
    """results.trunc has no topic 302: 8.1 prints no 302 line, and its -c mean is over 3 topics,
    which is ir_measures' mean with DEFAULT 0 for the missing query."""
    qrels, run = read_qrels(TE / "qrels.test"), read_run(TE / "results.trunc")
    assert "302" not in run and "302" in qrels
    expected = trec_eval_values(TE / "v8.1" / "out.test.aqc", "bpref_top10pRnonrel")
    assert set(expected) == {"301", "303", "all"}
    per_query = {m.query_id: m.value for m in ir_measures.iter_calc([Bpref10], qrels, run)}
    assert per_query["302"] == 0.0
    assert abs((expected["301"] + expected["303"]) / 3 - expected["all"]) < 1e-4


# ------------------------------------------------------------------------------------------------
# sanity of the data reading: pytrec_eval bpref == trec_eval 10.0 bpref
# ------------------------------------------------------------------------------------------------

V10 = [
    Output("aq", TE / "out.test.aq", TE / "qrels.test", TE / "results.test"),
    Output("a", TE / "out.test.a", TE / "qrels.test", TE / "results.test"),
    Output("official", TE / "out.test", TE / "qrels.test", TE / "results.test"),
    Output("aqc", TE / "out.test.aqc", TE / "qrels.test", TE / "results.trunc"),
    Output("aqcM100", TE / "out.test.aqcM", TE / "qrels.test", TE / "results.trunc", max_docs=100),
    Output("aql-l2", TE / "out.test.aql", TE / "qrels.rel_level", TE / "results.test", rel=2),
    Output(
        "small_AB", BP / "small_AB" / "te10.bpref.txt", BP / "small_AB" / "qrels", BP / "small_AB" / "run"
    ),
    Output(
        "graded-l1",
        BP / "graded" / "te10.l1.all_trec.txt",
        BP / "graded" / "qrels.graded.trec",
        BP / "graded" / "run.graded.trec",
    ),
]


@pytest.mark.parametrize("out", V10, ids=[o.name for o in V10])
def test_pytrec_eval_bpref_matches_trec_eval_10(out: Output) -> None:
    """pytrec_eval's bpref (ir_measures ``Bpref``) reproduces trec_eval 10.0 on our reading of
    the inputs: the qrels/run readers and the -c / -M / -l handling of these tests are right."""
    expected = trec_eval_values(out.path, "bpref")
    assert "all" in expected
    qrels, run = out.load()
    measure = ir_measures.Bpref(rel=out.rel) if out.rel != 1 else ir_measures.Bpref
    per_query = {m.query_id: m.value for m in ir_measures.iter_calc([measure], qrels, run)}
    mean = ir_measures.calc_aggregate([measure], qrels, run)[measure]
    wrong = _compare(expected, per_query, mean)
    assert not wrong, f"{out.path.name} bpref vs pytrec_eval {measure}: " + "; ".join(wrong)
