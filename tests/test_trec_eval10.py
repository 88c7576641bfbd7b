"""trec_eval 10's judgement-aware measures (``unj``, ``rbp``, ``rbp_resid``, ``yaap``; issue #29
item 4) against trec_eval 10.0-rc3's own outputs, and hand-computed edge cases.

The outputs are ``../shared/data/sampled-judgements/trec_eval10/RUN.{robust,sampled}.txt``: for
each of the 17 TREC 2003 Robust runs and both qrels (the full Robust qrels and the sampled qrels
``qrels.sampled.4col``, -1 = pooled, not judged), three trec_eval calls (its README)::

    trec_eval -q -c -m rbp -m rbp_resid -m unj -m yaap QRELS RUN
    trec_eval -q -c -m rbp.p=0.5 -m rbp_resid.p=0.5 -m unj.1,3,1000 QRELS RUN
    trec_eval -q -c -m rbp.p=0.95 -m rbp_resid.p=0.95 QRELS RUN

Every line is compared, as text, with ``ir_measures_pres QRELS RUN -q --format trec`` given the
same names. Two kinds of lines cannot be equal, and for those the test shows exactly why, with an
oracle written here from trec_eval's source (the ``naive_*`` functions below):

* ``rbp`` of the first call (p = 0.9): m_rbp.c never initialises the ``min`` and ``max`` of its
  gain scaling, and in the binary that made the files ``max`` starts as the ``s`` that yaap (the
  measure computed just before it) left behind: every such line is the oracle's RBP with gains
  divided by max(L, s, 1) instead of max(L, 1) (L the topic's highest judged level). The same
  ``rbp`` at p = 0.5 and 0.95, from calls without yaap, follows the stated rule on every line.
* topics where the run has scores equal in float32 but not in double precision: trec_eval 10
  ranks by doubles, the package (with pytrec_eval) by float32 (docs/conventions.md, Score
  precision); there the file's value is the oracle on the double-precision order and ours the
  oracle on the float32 order.
"""

from __future__ import annotations

import gzip
import io
import math
from contextlib import redirect_stdout
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import ir_measures
import pytest
from _naive_textbook import trec_ranking
from _readers import read_qrels, read_trec_eval, trec_order
from conftest import needs_shared, shared_data, shared_path

import ir_measures_pres  # noqa: F401  (registers the measures)
from ir_measures_pres.cli.evaluate import main
from ir_measures_pres.measures.catalogue import parse_measures, trec_name
from ir_measures_pres.measures.ntcir import NTCIR_RBP
from ir_measures_pres.measures.trec_eval.judgement_aware import rbp, rbp_resid, unj, yaap

Labels = List[Optional[int]]  # one query's qrels values in ranked order, None: not in the qrels

# --------------------------------------------------------------------------------------------
# the oracle: trec_eval 10's m_unj.c, m_rbp.c, m_rbp_resid.c and m_yaap.c, one loop each
# --------------------------------------------------------------------------------------------


def unjudged(value: Optional[int]) -> bool:
    return value is None or value < 0


def naive_unj(labels: Labels, k: int) -> float:
    return sum(1 for v in labels[:k] if unjudged(v)) / k


def naive_rbp(labels: Labels, p: float, scale: float) -> float:
    total, weight = 0.0, 1.0
    for v in labels:
        if v is not None and v > 0:
            total += v / scale * weight
        weight *= p
    return (1 - p) * total


def naive_rbp_resid(labels: Labels, p: float) -> float:
    total, weight, seen = 0.0, 1.0, 0
    for v in labels:
        if unjudged(v):
            seen += 1
            total += weight
        weight *= p
    return weight + (1 - p) * total if seen else 0.0


def naive_yaap_s(labels: Labels, rel: int = 1) -> float:
    s, found = 0.0, 0
    for i, v in enumerate(labels, 1):
        if v is not None and v >= rel:
            found += 1
            s += found / i
    return s


def naive_yaap(labels: Labels, n_relevant: int) -> float:
    s = naive_yaap_s(labels)
    return math.log((1 + s) / (1 + n_relevant - s))


def naive(name: str, labels: Labels, top: int, n_relevant: int) -> float:
    """The value of a trec_eval 10 output name (``unj_5``, ``rbp_p=0.5``, ...) on one topic."""
    if name == "yaap":
        return naive_yaap(labels, n_relevant)
    if name.startswith("unj_"):
        return naive_unj(labels, int(name[4:]))
    base, _, p = name.partition("_p=")
    if base == "rbp":
        return naive_rbp(labels, float(p or 0.9), max(top, 1))
    assert base == "rbp_resid", name
    return naive_rbp_resid(labels, float(p or 0.9))


# --------------------------------------------------------------------------------------------
# every line of trec_eval 10's outputs
# --------------------------------------------------------------------------------------------

REAL = ("real", "trec-robust-2003")
SAMPLED = ("sampled-judgements",)
RUNS = sorted(p.name[len("input.") : -len(".gz")] for p in shared_path(*REAL, "runs").glob("input.*.gz"))
QRELS = {
    "robust": shared_path(*REAL, "qrels", "robust03_qrels.txt"),
    "sampled": shared_path(*SAMPLED, "qrels.sampled.4col"),
}
#: the three trec_eval calls' measures, as trec_eval's -m reads them
MEASURES = ["rbp", "rbp_resid", "unj", "yaap", "rbp.p=0.5", "rbp_resid.p=0.5", "unj.1,3,1000"]
MEASURES += ["rbp.p=0.95", "rbp_resid.p=0.95"]


def read_gz_run(path: Path) -> Dict[str, Dict[str, float]]:
    out: Dict[str, Dict[str, float]] = {}
    with gzip.open(path, "rt") as lines:
        for line in lines:
            qid, _, doc, _, score = line.split()[:5]
            out.setdefault(qid, {})[doc] = float(score)
    return out


def run_main(argv: Sequence[str]) -> str:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(list(argv)) == 0
    return out.getvalue()


def fmt(value: float) -> str:
    return f"{value:6.4f}".strip()


def test_the_reference_is_all_there() -> None:
    reference = shared_data(*SAMPLED, "trec_eval10")  # skips, saying why, when it is absent
    assert len(RUNS) == 17
    assert len(list(reference.glob("*.txt"))) == 34


@needs_shared(*SAMPLED, "trec_eval10")
@needs_shared(*REAL)
@pytest.mark.parametrize("kind", sorted(QRELS))
@pytest.mark.parametrize("run", RUNS)
def test_every_line_of_trec_eval_10(run: str, kind: str) -> None:
    run_path = shared_path(*REAL, "runs", f"input.{run}.gz")
    printed = run_main([str(QRELS[kind]), str(run_path), *MEASURES, "-q", "--format", "trec"])
    ours: Dict[Tuple[str, str], str] = {}
    for line in printed.splitlines():
        name, qid, value = line.split("\t")
        assert line == f"{name.strip():<22}\t{qid}\t{value}"  # trec_eval's %-22s\t%s\t%6.4f
        ours[(name.strip(), qid)] = value.strip()
    reference = read_trec_eval(shared_path(*SAMPLED, "trec_eval10", f"input.{run}.{kind}.txt"))
    assert set(ours) == set(reference)

    qrels = read_qrels(QRELS[kind])
    docs = read_gz_run(run_path)
    assert set(qrels) <= set(docs)  # every qrels topic answered: trec_eval -c changes no mean here
    top = {q: max([v for v in judged.values() if v >= 0], default=-1) for q, judged in qrels.items()}
    n_relevant = {q: sum(1 for v in judged.values() if v >= 1) for q, judged in qrels.items()}
    in_double = {q: [qrels[q].get(d) for d in trec_order(docs[q])] for q in qrels}  # trec_eval 10's
    in_float32 = {q: [qrels[q].get(d) for d in trec_ranking(docs[q])] for q in qrels}  # ours
    near_ties = {q for q in qrels if in_double[q] != in_float32[q]}

    # the first call's rbp: max = max(L, yaap's s) (see the module docstring)
    stated = {q: naive_rbp(in_float32[q], 0.9, max(top[q], 1)) for q in qrels}
    printed_by_te10 = {
        q: naive_rbp(in_double[q], 0.9, max(top[q], naive_yaap_s(in_double[q]), 1)) for q in qrels
    }
    for q in qrels:
        assert reference[("rbp", q)] == fmt(printed_by_te10[q]), q
        assert ours[("rbp", q)] == fmt(stated[q]), q
    assert reference[("rbp", "all")] == fmt(sum(printed_by_te10.values()) / len(qrels))
    assert ours[("rbp", "all")] == fmt(sum(stated.values()) / len(qrels))

    for (name, qid), text in reference.items():
        if name == "rbp":
            continue
        if qid in near_ties and ours[(name, qid)] != text:
            assert text == fmt(naive(name, in_double[qid], top[qid], n_relevant[qid])), (name, qid)
            assert ours[(name, qid)] == fmt(naive(name, in_float32[qid], top[qid], n_relevant[qid]))
            continue
        assert ours[(name, qid)] == text, (name, qid)


@needs_shared(*SAMPLED, "trec_eval10")
@needs_shared(*REAL)
def test_the_oracle_reads_the_reference_as_trec_eval_10_computed_it() -> None:
    """The oracle itself, on one run and both qrels: every per-topic line of every measure but
    the first call's rbp is the oracle's value on trec_eval 10's (double-precision) order."""
    run = "input.oce03noXbmD"  # the run with a near-tie that moves a yaap line (topic 435)
    docs = read_gz_run(shared_path(*REAL, "runs", f"{run}.gz"))
    for kind, path in QRELS.items():
        qrels = read_qrels(path)
        reference = read_trec_eval(shared_path(*SAMPLED, "trec_eval10", f"{run}.{kind}.txt"))
        for (name, q), text in reference.items():
            if q == "all" or name == "rbp":
                continue
            top = max([v for v in qrels[q].values() if v >= 0], default=-1)
            n_relevant = sum(1 for v in qrels[q].values() if v >= 1)
            labels = [qrels[q].get(d) for d in trec_order(docs[q])]
            assert text == fmt(naive(name, labels, top, n_relevant)), (kind, name, q)


# --------------------------------------------------------------------------------------------
# hand-computed edge cases
# --------------------------------------------------------------------------------------------


def values(measure: object, qrels: dict, run: dict) -> Dict[str, float]:
    return {m.query_id: m.value for m in ir_measures.iter_calc([measure], qrels, run)}


def ranked(*docs: str) -> Dict[str, float]:
    """A run of one query in the order given (descending scores)."""
    return {d: float(len(docs) - i) for i, d in enumerate(docs)}


#: a: relevant, b: judged non-relevant, c: pooled but not judged (-1); x is not in the qrels
BINARY = {"q1": {"a": 1, "b": 0, "c": -1}}


def test_unj_counts_missing_ranks_as_judged() -> None:
    run = {"q1": ranked("a", "x", "c")}  # judged, unjudged (absent), unjudged (-1)
    assert values(unj @ 1, BINARY, run) == {"q1": 0 / 1}
    assert values(unj @ 2, BINARY, run) == {"q1": 1 / 2}
    assert values(unj @ 3, BINARY, run) == {"q1": 2 / 3}
    # a cutoff beyond the list of 3: the two unjudged over k, not over 3
    assert values(unj @ 5, BINARY, run) == {"q1": 2 / 5}
    assert values(unj @ 1000, BINARY, run) == {"q1": 2 / 1000}


def test_a_bare_unj_is_trec_evals_three_cutoffs() -> None:
    assert parse_measures("unj") == [unj @ 5, unj @ 10, unj @ 20]
    assert parse_measures("unj.5,10") == [unj @ 5, unj @ 10]


def test_rbp_scales_graded_levels_by_the_topics_top_level() -> None:
    qrels = {"q1": {"a": 2, "b": 1, "c": 0}, "q2": {"e": 1, "f": 0}}
    run = {"q1": ranked("a", "b", "c", "d"), "q2": ranked("f", "e")}
    got = values(rbp(p=0.5), qrels, run)
    # q1: gains 2/2, 1/2, 0, 0 -> (1 - 0.5) * (1 + 0.5 * 0.5)
    assert got["q1"] == pytest.approx(0.5 * (1 + 0.5 * 0.5), abs=1e-15)
    # q2: its qrels stop at level 1, so level 1 keeps gain 1 (not 1/2): 0.5 * 0.5^1
    assert got["q2"] == pytest.approx(0.5 * 0.5, abs=1e-15)
    # p = 0.9 (the default): q1 0.1 * (1 + 0.5 * 0.9)
    assert values(rbp, qrels, run)["q1"] == pytest.approx(0.1 * (1 + 0.5 * 0.9), abs=1e-15)


def test_rbp_resid_is_zero_when_everything_retrieved_is_judged() -> None:
    qrels = {"q1": {"a": 1, "b": 0, "c": -1}}
    # a, b judged: 0, though Moffat and Zobel's residual would keep p^2 = 0.25
    assert values(rbp_resid(p=0.5), qrels, {"q1": ranked("a", "b")}) == {"q1": 0.0}
    # a, x (absent), b, c (-1): p^4 + (1 - p)(p^1 + p^3) = 0.0625 + 0.5 * (0.5 + 0.125)
    got = values(rbp_resid(p=0.5), qrels, {"q1": ranked("a", "x", "b", "c")})
    assert got["q1"] == pytest.approx(0.0625 + 0.5 * (0.5 + 0.125), abs=1e-15)
    # p = 0.9: one unjudged document at rank 1 of 1: 0.9 + 0.1 * 1
    assert values(rbp_resid, qrels, {"q1": ranked("x")})["q1"] == pytest.approx(1.0, abs=1e-15)


def test_yaap_without_relevant_documents() -> None:
    qrels = {"q1": {"a": 1, "b": 1, "c": 0}, "q2": {"d": 0}}
    run = {"q1": ranked("c", "x"), "q2": ranked("d", "y")}
    got = values(yaap, qrels, run)
    assert got["q1"] == pytest.approx(math.log(1 / (1 + 2)), abs=1e-15)  # none of R = 2 retrieved
    assert got["q2"] == 0.0  # no relevant document at all: log(1 / 1)
    # both found at ranks 2 and 3: s = 1/2 + 2/3, yaap = log((1 + s) / (1 + 2 - s))
    s = 1 / 2 + 2 / 3
    assert values(yaap, qrels, {"q1": ranked("c", "a", "b")})["q1"] == pytest.approx(
        math.log((1 + s) / (3 - s)), abs=1e-15
    )
    # rel=2: with no level-2 document R = 0 and s = 0
    assert values(yaap(rel=2), qrels, {"q1": ranked("a", "b")})["q1"] == 0.0


def test_a_qrels_topic_the_run_lacks_scores_an_empty_ranking() -> None:
    """A qrels topic the run lacks scores what an empty ranking of it scores: 0 for unj, rbp and
    rbp_resid, and log(1 / (1 + R)) for yaap (q2: R = 1, log(1/2)), so skipping a topic is worth
    no more than answering it and finding nothing; a run topic the qrels lack is not scored."""
    qrels = {"q1": {"a": 1, "b": 0}, "q2": {"c": 1}}
    run = {"q1": ranked("a", "z"), "q3": ranked("c")}
    for measure in (unj @ 5, rbp, rbp_resid):
        got = values(measure, qrels, run)
        assert set(got) == {"q1", "q2"} and got["q2"] == 0.0, measure
    got = values(yaap, qrels, run)
    assert set(got) == {"q1", "q2"} and got["q2"] == pytest.approx(math.log(1 / (1 + 1)), abs=1e-15)
    # q1: a found at rank 1 of R = 1: s = 1, yaap = log((1 + 1) / (1 + 1 - 1)) = log 2
    assert ir_measures.calc_aggregate([yaap], qrels, run)[yaap] == pytest.approx(
        (math.log(2 / 1) + math.log(1 / 2)) / 2, abs=1e-15
    )


# --------------------------------------------------------------------------------------------
# names
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "measure, name",
    [
        (unj @ 5, "unj_5"),
        (unj @ 1000, "unj_1000"),
        (rbp, "rbp"),
        (rbp(p=0.5), "rbp_p=0.5"),
        (rbp(p=0.95), "rbp_p=0.95"),
        (rbp_resid, "rbp_resid"),
        (rbp_resid(p=0.5), "rbp_resid_p=0.5"),
        (yaap, "yaap"),
    ],
)
def test_trec_eval_10s_output_names(measure: object, name: str) -> None:
    assert trec_name(measure) == name
    assert parse_measures(name) == [measure]
    assert ir_measures.parse_trec_measure(name) == [measure]


@pytest.mark.parametrize(
    "written, expected",
    [
        ("unj.1,3,1000", [unj @ 1, unj @ 3, unj @ 1000]),
        ("rbp.p=0.5", [rbp(p=0.5)]),
        ("rbp_resid.p=0.95", [rbp_resid(p=0.95)]),
        ("rbp(p=0.5)", [rbp(p=0.5)]),
        ("unj@10", [unj @ 10]),
        ("yaap(rel=2)", [yaap(rel=2)]),
    ],
)
def test_trec_eval_10s_m_syntax_and_ir_measures_syntax(written: str, expected: list) -> None:
    assert parse_measures(written) == expected


def test_the_names_leave_ir_measures_rbp_and_ntcir_rbp_alone() -> None:
    assert parse_measures("RBP@10") == [ir_measures.RBP @ 10]
    assert type(parse_measures("RBP")[0]) is type(ir_measures.RBP)
    assert parse_measures("NTCIR_RBP") == [NTCIR_RBP]
    assert parse_measures("rbp") == [rbp] and rbp != ir_measures.RBP
    assert ir_measures.parse_measure("rbp") == rbp


@pytest.mark.parametrize(
    "written, message",
    [
        ("rbp@10", "invalid measure 'rbp@10': rbp has no parameter 'cutoff'; its parameters are: p"),
        ("rbp_p=1.5", "invalid measure 'rbp_p=1.5': rbp: parameter 'p' must be in (0, 1], got 1.5"),
        (
            "unj_0",
            "invalid measure 'unj_0': unj: parameter 'cutoff' must be an integer from 1 to "
            "9007199254740992, got 0",
        ),
    ],
)
def test_bad_names_are_explained(written: str, message: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_measures(written)
    assert str(info.value) == message
