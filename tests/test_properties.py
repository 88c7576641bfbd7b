"""Properties every measure of the package must have, driven by one table (scikit-learn style).

Each row of :data:`CASES` is one measure configuration together with the facts docs/measures.md
and docs/conventions.md state about it: its DEFAULT for a query missing from the run,
which label counts as relevant, the value of an ideal ranking, and which upward move of a
relevant document is guaranteed not to lower the score. Generic tests run once per row;
:func:`test_every_measure_is_in_the_table` fails when a measure of
``ir_measures_pres.measures.catalogue.MEASURES`` has no row (add one when you add a measure).

Expected values come from those documents (ideal values, DEFAULTs), from pytrec_eval (AP, RR), from
an explicitly sorted list written in the test (ties), or from arithmetic written out below.
Where a test compares our output with itself it is under a transformation that must not change
it (line order, query order, input type, run-only queries).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass

import ir_measures
import pandas as pd
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from ir_measures import AP, RR, Qrel, ScoredDoc

from ir_measures_pres import PRES, Bpref10, OMeasure, PMeasure, PPlusMeasure, QMeasure, R_norm
from ir_measures_pres.measures import catalogue
from ir_measures_pres.measures.diversity.measures import MEASURES as DIVERSITY
from ir_measures_pres.measures.ntcir import (
    EBR,
    GAP,
    NCU,
    NTCIR_ERR,
    NTCIR_RBP,
    MSnDCG,
    NTCIR_bpref,
    NTCIR_nDCG,
    NTCIR_nERR,
    NTCIR_rpref,
    iRBU,
)
from ir_measures_pres.measures.sampled.measures import (
    infIPrec,
    infNDCG,
    infP,
    inum_rel,
    inum_rel_ret,
    xinfAP,
)
from ir_measures_pres.measures.sampled.statap import statAP, statP, statRprec
from ir_measures_pres.measures.tar import (
    WSS,
    LastRel,
    NormArea,
    NumCandidates,
    NumFeedback,
    NumShown,
    RecallAtThreshold,
    RecallPct,
    TarCost,
    TarLoss,
    TarUtility,
    Threshold,
)
from ir_measures_pres.measures.textbook.measures import (
    CG,
    DCG,
    APSeen,
    Coverage,
    E,
    F,
    Novelty,
    RecallEffort,
    RelativeRecall,
)
from ir_measures_pres.measures.trec_eval.judgement_aware import rbp, rbp_resid, unj, yaap
from ir_measures_pres.measures.trec_eval.measures import (
    GMAP,
    BinG,
    G,
    GMBpref,
    IPrec11pt,
    NumNonRelJudgedRet,
    RelP,
    RnDCG,
    RprecMult,
    Utility,
    nDCG_rel,
)

# --------------------------------------------------------------------------------------------
# the property table
# --------------------------------------------------------------------------------------------

#: Which swap of a relevant document d (at rank j) with a document e ranked above it (rank i < j,
#: e non-relevant or unjudged) never lowers the score.
#: "any": binary measures, whose value depends only on where the relevant documents are: any
#: such swap (jumping over relevant documents only reorders equals).
SWAP_ANY = "any"
#: "not_below": graded measures that reward higher levels earlier (Q, O, R_norm bollmann): the
#: swap is monotone when no document strictly between i and j has a higher level than d (then the
#: swap is a chain of adjacent swaps, each putting a better document first). Jumping over a more
#: relevant document can lower them: see test_o_measure_can_drop_when_jumping_a_better_document.
SWAP_NOT_BELOW = "not_below"
#: "no_relevant_between": P-measure and P+, which look at one preferred rank rp only: monotone
#: when every document strictly between i and j is non-relevant or unjudged (then only the
#: blended ratios at ranks i..j-1 change, and they rise). A relevant document jumping over other
#: relevant ones can move rp to a rank with a lower blended ratio: see
#: test_p_measure_can_drop_when_its_preferred_rank_jumps_relevant_documents.
SWAP_NO_RELEVANT_BETWEEN = "no_relevant_between"


def _one(n: int) -> float | None:
    return 1.0


def _found_share(k: int) -> Callable[[int], float | None]:
    """Ideal value of PRES@k and pessimistic R_norm@k: the top k all relevant, the n - k others
    missing, so 1 - (n - k)/n = k/n when n > k (docs/measures.md, PRES: "With n > N_max even a
    perfect run scores N_max / n"; R_norm's pessimistic formula with m = n - k)."""
    return lambda n: min(1.0, k / n)


def _one_if_all_fit(k: int) -> Callable[[int], float | None]:
    """Ideal value 1 only when the whole relevant set fits in the top k (no value claimed otherwise)."""
    return lambda n: 1.0 if n <= k else None


@dataclass(frozen=True)
class Case:
    """One measure configuration and the facts the documentation states about it."""

    measure: ir_measures.Measure
    #: value for a qrels query that the run lacks (docs/conventions.md: 0.0, R_norm bollmann 0.5)
    default: float = 0.0
    #: qrels label from which a document is relevant (the measure's ``rel``; Sakai: level >= 1)
    relevant_from: int = 1
    #: which upward swap is monotone (SWAP_*)
    swap: str = SWAP_ANY
    #: monotone only when the moved relevant document is within the top ``within`` (P@k, P+@k:
    #: a better level arriving from below the cutoff moves rp down to a rank with a lower ratio)
    within: int | None = None
    #: value of an ideal ranking (all relevant documents first, by level descending) given the
    #: number n >= 1 of relevant documents; None: no value is claimed
    ideal: Callable[[int], float | None] = _one
    #: False for measures outside the generic properties (TAR measures: counts, costs, lower is
    #: better, values 3/4 dropped); tests/test_tar_measures.py tests those
    generic: bool = True

    @property
    def id(self) -> str:
        return str(self.measure)


GAINS = {1: 1, 2: 4, 3: 9}
N = 1000  # collection size for R_norm: far above any generated run

CASES: list[Case] = [
    # PRES; n > N_max gives N_max/n for a perfect run, PRES_est rescales it to 1
    Case(PRES @ 5, ideal=_found_share(5)),
    Case(PRES(estimate=True) @ 5),
    Case(PRES),  # N_max = 1000
    Case(PRES(judged_only=True) @ 5, ideal=_found_share(5)),
    Case(PRES(rel=2) @ 5, relevant_from=2, ideal=_found_share(5)),
    # R_norm: 1 when the whole relevant set is retrieved at the top
    Case(R_norm(collection_size=N)),
    Case(R_norm(collection_size=N) @ 5, ideal=_found_share(5)),
    Case(R_norm(collection_size=N, judged_only=True)),
    Case(R_norm(collection_size=N, rel=2), relevant_from=2),
    Case(R_norm(collection_size=N, mode="bollmann"), default=0.5, swap=SWAP_NOT_BELOW),
    Case(
        R_norm(collection_size=N, mode="bollmann") @ 5,
        default=0.5,
        swap=SWAP_NOT_BELOW,
        ideal=_one_if_all_fit(5),
    ),
    Case(R_norm(collection_size=N, mode="bollmann", judged_only=True), default=0.5, swap=SWAP_NOT_BELOW),
    Case(
        R_norm(collection_size=N, mode="bollmann", rel=2), default=0.5, relevant_from=2, swap=SWAP_NOT_BELOW
    ),
    # Sakai's blended-ratio family: an ideal list has BR(r) = 1 at every relevant rank
    Case(QMeasure, swap=SWAP_NOT_BELOW),
    Case(QMeasure @ 3, swap=SWAP_NOT_BELOW),  # Q@k divides by min(k, R): ideal is 1
    Case(QMeasure(beta=0.5, gains=GAINS), swap=SWAP_NOT_BELOW),
    Case(QMeasure(beta=0.0), swap=SWAP_ANY),  # = AP: binary
    Case(QMeasure(judged_only=True, gains=GAINS) @ 4, swap=SWAP_NOT_BELOW),
    Case(OMeasure, swap=SWAP_NOT_BELOW),
    Case(OMeasure @ 3, swap=SWAP_NOT_BELOW),
    Case(OMeasure(beta=0.0), swap=SWAP_ANY),  # = RR: binary
    Case(OMeasure(gains=GAINS, judged_only=True), swap=SWAP_NOT_BELOW),
    Case(PMeasure, swap=SWAP_NO_RELEVANT_BETWEEN),
    Case(PMeasure @ 3, swap=SWAP_NO_RELEVANT_BETWEEN, within=3),
    Case(PMeasure(beta=2.0, judged_only=True), swap=SWAP_NO_RELEVANT_BETWEEN),
    Case(PPlusMeasure, swap=SWAP_NO_RELEVANT_BETWEEN),
    Case(PPlusMeasure @ 3, swap=SWAP_NO_RELEVANT_BETWEEN, within=3),
    Case(PPlusMeasure(gains=GAINS, judged_only=True), swap=SWAP_NO_RELEVANT_BETWEEN),
    # Bpref-10: relevant documents above every judged non-relevant one add 1 each
    Case(Bpref10),
    Case(Bpref10(variant="old")),
    Case(Bpref10(variant="paper")),
    Case(Bpref10(rel=2), relevant_from=2),
    # NTCIREVAL (docs/ntcir.md). Swaps: a relevant document moved up over non-relevant ones
    # only changes its own BR (rises) and its own rank (NCU, GAP, EBR, the -j family); ERR, iRBU
    # nDCG and RBP forms gain from every adjacent swap that puts a better document first
    # ((pi_b - pi_a)(d_k - d_k+1) >= 0); a swap with an unjudged document can jump a better one in
    # the condensed list, hence not 'any' for RBP.
    Case(NCU, swap=SWAP_NO_RELEVANT_BETWEEN),
    Case(NCU(beta=0.0, gains=GAINS, stops={1: 1, 2: 2, 3: 3}), swap=SWAP_NO_RELEVANT_BETWEEN),
    Case(NCU(stopping="rb", gamma=0.8, judged_only=True), swap=SWAP_NO_RELEVANT_BETWEEN),
    Case(GAP, swap=SWAP_NO_RELEVANT_BETWEEN),  # ideal 1: every relevant r adds L(r)(L(r)+1)
    Case(GAP(judged_only=True) @ 3, swap=SWAP_NO_RELEVANT_BETWEEN),
    Case(NTCIR_RBP, swap=SWAP_NOT_BELOW, ideal=lambda n: None),
    Case(NTCIR_RBP(p=0.5, gains=GAINS, judged_only=True) @ 3, swap=SWAP_NOT_BELOW, ideal=lambda n: None),
    Case(NTCIR_ERR, swap=SWAP_NOT_BELOW, ideal=lambda n: None),  # pi < 1: never 1
    Case(NTCIR_ERR(gains=GAINS, judged_only=True) @ 3, swap=SWAP_NOT_BELOW, ideal=lambda n: None),
    Case(NTCIR_nERR, swap=SWAP_NOT_BELOW),
    Case(NTCIR_nERR(gains=GAINS, judged_only=True) @ 3, swap=SWAP_NOT_BELOW),
    Case(EBR, swap=SWAP_NO_RELEVANT_BETWEEN, ideal=lambda n: None),
    Case(EBR(beta=0.5, judged_only=True) @ 3, swap=SWAP_NO_RELEVANT_BETWEEN, ideal=lambda n: None),
    Case(iRBU(p=0.9), swap=SWAP_NOT_BELOW, ideal=lambda n: None),
    Case(iRBU(gains=GAINS, judged_only=True) @ 3, swap=SWAP_NOT_BELOW, ideal=lambda n: None),
    Case(NTCIR_nDCG, swap=SWAP_NOT_BELOW),
    Case(NTCIR_nDCG(logb=10.0, gains=GAINS, judged_only=True) @ 3, swap=SWAP_NOT_BELOW),
    # logb=0 (natural log) is left out: ln 2 < 1 discounts rank 2 less than rank 1
    # (tests/test_ntcir_measures.py)
    Case(NTCIR_nDCG(logb=2.5) @ 5, swap=SWAP_NOT_BELOW),
    Case(MSnDCG, swap=SWAP_NOT_BELOW),
    Case(MSnDCG(gains=GAINS, judged_only=True) @ 3, swap=SWAP_NOT_BELOW),
    # the -j family: a topic without a judged non-relevant document scores 0, so no ideal value
    *(
        Case(m, swap=SWAP_NO_RELEVANT_BETWEEN, ideal=lambda n: None)
        for m in (
            NTCIR_bpref,
            NTCIR_bpref(variant="R"),
            NTCIR_bpref(variant="N"),
            NTCIR_bpref(variant="relative"),
            NTCIR_rpref,
            NTCIR_rpref(variant="relative", gains=GAINS),
            NTCIR_rpref(variant="relative2"),
        )
    ),
    # technology-assisted review (CLEF TAR tools): tests/test_tar_measures.py,
    # tests/test_tar_task1.py (task=1: the 2018 tool's Task 1 N), tests/test_tar_shown.py
    *(
        Case(m, generic=False)
        for m in (
            NumCandidates,
            NumCandidates(task=1),
            NumFeedback,
            NumShown,
            NumShown(rel=1),
            LastRel,
            LastRel(normalised=True),
            LastRel(normalised=True, task=1),
            WSS,
            WSS(recall=1.0, rule="cohen"),
            WSS(task=1),
            RecallPct(pct=30),
            RecallPct(pct=30, positions="2017"),
            RecallPct(pct=30, task=1),
            NormArea,
            NormArea(task=1),
            TarLoss,
            TarLoss(part="e"),
            TarLoss(part="r", threshold=True),
            TarLoss(part="e", task=1),
            TarCost,
            TarCost(penalty="uniform"),
            TarCost(penalty="weighted"),
            TarCost(penalty="uniform", task=1),
            Threshold,
            Threshold(flag="first", normalised=True),
            Threshold(normalised=True, task=1),
            RecallAtThreshold,
            RecallAtThreshold(flag="first"),
            RecallAtThreshold(task=1),
            TarUtility,
        )
    ),
    # the textbook's measures (docs/textbook.md); E (lower is better), CG and DCG (unbounded)
    # and the known=FILE measures are tested in tests/test_textbook.py
    Case(APSeen),
    # a relevant document entering the top k adds a precision below the mean of those seen
    Case(APSeen @ 3, within=3),
    Case(APSeen(rel=2), relevant_from=2),
    Case(F @ 5, ideal=lambda n: 2 * min(n, 5) / (n + 5)),  # all relevant first: min(n, 5) found
    Case(F(beta=2.0, rel=2) @ 5, relevant_from=2, ideal=lambda n: 5 * min(n, 5) / (4 * n + 5)),
    Case(F, ideal=lambda n: None),  # the whole ranking: the ideal depends on its length
    *(
        Case(m, generic=False)
        for m in (
            E @ 5,
            CG,
            CG @ 5,
            DCG(logb=3.0, gains=GAINS) @ 5,
            Coverage(known="known.txt") @ 5,
            Novelty(known="known.txt") @ 5,
            RelativeRecall(known="known.txt") @ 5,
            RecallEffort(known="known.txt"),
        )
    ),
    # trec_eval 10's judgement-aware measures (tests/test_trec_eval10.py). rbp: gains scaled by
    # the topic's top level, so a better document first never lowers it; ideal below 1. unj and
    # rbp_resid measure the unjudged documents (not quality), yaap is a log-odds (unbounded)
    Case(rbp, swap=SWAP_NOT_BELOW, ideal=lambda n: None),
    Case(rbp(p=0.5), swap=SWAP_NOT_BELOW, ideal=lambda n: None),
    *(Case(m, generic=False) for m in (unj @ 5, unj @ 20, rbp_resid, rbp_resid(p=0.5), yaap, yaap(rel=2))),
    # trec_eval 10.0's measures that ir_measures lacks, computed by the trec_eval command's
    # kernels (tests/test_trec_eval_registered.py: trec_eval 10.0's own outputs). Left out of the
    # generic properties: GMAP's and GMBpref's summaries are geometric means, Utility and
    # NumNonRelJudgedRet are unbounded sums, RnDCG and nDCG_rel average nDCG at points a swap
    # moves, RprecMult's rank and IPrec11pt's recall levels follow trec_eval's roundings
    *(
        Case(m, generic=False)
        for m in (
            GMAP,
            GMAP(rel=2),
            GMBpref,
            Utility,
            Utility(a=2.0, d=1.0, collection_size=1000),
            NumNonRelJudgedRet,
            RnDCG,
            RnDCG(gains=GAINS, rel=2),
            nDCG_rel,
            nDCG_rel(gains=GAINS),
            RprecMult @ 0.2,
            RprecMult(rel=2) @ 2.0,
            IPrec11pt,
            G(gains=GAINS),
            *(m(judged_only=True) for m in (GMAP, GMBpref, Utility, NumNonRelJudgedRet, RnDCG, nDCG_rel)),
            *(m(judged_only=True) for m in (IPrec11pt, G)),
            RprecMult(judged_only=True) @ 1.0,
        )
    ),
    Case(BinG),
    Case(BinG(rel=2), relevant_from=2),
    Case(G, ideal=lambda n: None),
    Case(RelP @ 5),
    Case(RelP(rel=2) @ 3, relevant_from=2),
    Case(BinG(judged_only=True)),
    Case(RelP(judged_only=True) @ 5),
    # statAP_MQ_eval_v3.pl's estimators from a prels file (tests/test_statap.py): estimates,
    # above 1 at times, undefined where nothing relevant was sampled
    *(
        Case(m, generic=False)
        for m in (statAP(prels="prels.txt"), statRprec(prels="prels.txt"), statP(prels="prels.txt") @ 5)
    ),
    # NTCIREVAL's diversity measures: they need intent probabilities and per-intent judgements
    # files, which the generated collections lack; tests/test_diversity_measures.py
    *(
        Case(m(probs="x.DINprob", dqrels="x.Dqrels", gains=gains) @ 10, generic=False)
        for m in DIVERSITY
        for gains in ("linear", "exp")
    ),
    # sampled judgements (sample_eval.pl): they need the qrels' strata, which the generated
    # dict qrels lack; tests/test_sampled_command.py and tests/test_sampled_measures.py
    *(
        Case(m, generic=False)
        for m in (
            xinfAP,
            xinfAP(variant="trecvid", depth=100),
            infNDCG,
            infNDCG(variant="trecvid"),
            infP @ 10,
            infP(variant="trecvid") @ 5,
            inum_rel,
            inum_rel(variant="trecvid"),
            inum_rel_ret,
            inum_rel_ret(variant="trecvid"),
            infIPrec @ 0.5,
            infIPrec(variant="trecvid") @ 1.0,
        )
    ),
]

GENERIC = [c for c in CASES if c.generic]
IDS = [c.id for c in GENERIC]

# --------------------------------------------------------------------------------------------
# the table covers the registry
# --------------------------------------------------------------------------------------------


def test_every_measure_is_in_the_table() -> None:
    """A measure added to the registry without a row here fails this test."""
    covered = {c.measure.NAME for c in CASES}
    missing = [e.measure.NAME for e in catalogue.MEASURES if e.measure.NAME not in covered]
    assert not missing, f"add rows for {missing} to CASES in tests/test_properties.py"


def test_every_flag_and_choice_is_in_the_table() -> None:
    """Every measure with ``judged_only`` has a judged_only row, every value of a choice
    parameter (``mode``, ``variant``) has a row, and every ``cutoff`` has an @k row."""
    for entry in catalogue.MEASURES:
        m = entry.measure
        rows = [c.measure for c in CASES if c.measure.NAME == m.NAME]
        for param, info in m.SUPPORTED_PARAMS.items():
            if info.dtype is bool:
                assert any(r[param] is True for r in rows), f"{m.NAME}: no row with {param}=True"
            if isinstance(info.choices, list):
                for choice in info.choices:
                    assert any(r[param] == choice for r in rows), f"{m.NAME}: no row with {param}={choice!r}"
            if param == "cutoff":
                assert any("cutoff" in r.params for r in rows), f"{m.NAME}: no @k row"


def test_every_row_is_registered() -> None:
    names = {e.measure.NAME for e in catalogue.MEASURES}
    assert {c.measure.NAME for c in CASES} <= names


# --------------------------------------------------------------------------------------------
# generated inputs
# --------------------------------------------------------------------------------------------

#: document ids chosen to exercise the byte order of ties: digits vs letters, prefixes, case,
#: Latin-1, a BMP character above the surrogates and an astral one (UTF-16 would order them the
#: other way round)
POOL = ["d1", "d10", "d2", "d9", "D1", "a", "b", "z", "10", "9", "\u00e9", "\uff5a", "\U0001d538"]
#: None: not in the qrels (unjudged); -1: in the pool but unjudged; 0: judged non-relevant
LABELS = st.sampled_from([None, None, -1, 0, 0, 1, 1, 2, 3])
QIDS = ["q1", "10", "9"]

Labels = dict[str, int]
Topic = tuple[Labels, list[str]]

SETTINGS = settings(
    max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)


@st.composite
def topics(draw: st.DrawFn, labels: st.SearchStrategy = LABELS) -> Topic:
    """(qrels labels of one query, its run as document ids best first). Every topic has at least
    one judged document so that every input type can express its qrels."""
    qrels = {}
    for doc in POOL:
        label = draw(labels)
        if label is not None:
            qrels[doc] = label
    if not qrels:
        qrels[draw(st.sampled_from(POOL))] = draw(st.integers(0, 3))
    order = draw(st.permutations(POOL))
    return qrels, order[: draw(st.integers(0, len(POOL)))]


@st.composite
def collections(draw: st.DrawFn, ties: bool = True) -> tuple[dict[str, Labels], dict[str, dict[str, float]]]:
    """qrels and a run (dict of dicts) over 1..4 queries; scores tie often when ``ties``.

    A query whose generated ranking is empty is left out of the run dict (no lines), so that the
    dict, DataFrame and namedtuple forms are the same run; ``{qid: {}}`` is tested on its own in
    test_an_empty_entry_in_a_run_dict_is_a_query_without_lines."""
    qids = draw(st.lists(st.sampled_from(QIDS), min_size=1, max_size=len(QIDS), unique=True))
    qrels, run = {}, {}
    for qid in qids:
        labels, order = draw(topics())
        qrels[qid] = labels
        if ties:
            size = len(order)
            scores = draw(st.lists(st.sampled_from([1.0, 2.0, 3.0]), min_size=size, max_size=size))
        else:
            scores = [float(len(order) - r) for r in range(len(order))]
        if order:
            run[qid] = dict(zip(order, scores))
    return qrels, run


def ranked(order: list[str]) -> dict[str, float]:
    """A run of one query with distinct scores in the given order."""
    return {doc: float(len(order) - r) for r, doc in enumerate(order)}


def evaluate(measure: ir_measures.Measure, qrels: object, run: object) -> dict[str, float]:
    """Per-query values through the public ir_measures entry point; one value per query."""
    out: dict[str, float] = {}
    for metric in ir_measures.iter_calc([measure], qrels, run):
        assert metric.query_id not in out, f"two values for query {metric.query_id}"
        out[metric.query_id] = metric.value
    return out


def one(measure: ir_measures.Measure, labels: Labels, order: list[str]) -> float:
    return evaluate(measure, {"q": labels}, {"q": ranked(order)})["q"]


def qrels_tuples(qrels: dict[str, Labels]) -> list[Qrel]:
    return [Qrel(q, d, v) for q, docs in qrels.items() for d, v in docs.items()]


def run_tuples(run: dict[str, dict[str, float]]) -> list[ScoredDoc]:
    return [ScoredDoc(q, d, s) for q, docs in run.items() for d, s in docs.items()]


def as_type(kind: str, rows: list, fields: tuple[str, ...]) -> object:
    if kind == "tuples":
        return rows
    if kind == "frame":
        return pd.DataFrame(rows, columns=list(fields))
    raise AssertionError(kind)


EPS = 1e-12  # float slack for bounds and monotonicity only

case_param = pytest.mark.parametrize("case", GENERIC, ids=IDS)


# --------------------------------------------------------------------------------------------
# generic properties, one run per row
# --------------------------------------------------------------------------------------------


@case_param
@SETTINGS
@given(collection=collections())
def test_values_are_within_zero_and_one(case: Case, collection) -> None:
    qrels, run = collection
    values = evaluate(case.measure, qrels, run)
    assert set(values) == set(qrels)
    for qid, v in values.items():
        assert -EPS <= v <= 1 + EPS, f"{case.id} query {qid}: {v}"


@case_param
@SETTINGS
@given(topic=topics(), data=st.data())
def test_an_ideal_ranking_scores_the_ideal_value(case: Case, topic: Topic, data: st.DataObject) -> None:
    """All relevant documents first, by level descending, then any other documents."""
    labels, _ = topic
    relevant = sorted((d for d, v in labels.items() if v >= case.relevant_from), key=lambda d: -labels[d])
    others = [d for d in data.draw(st.permutations(POOL)) if d not in relevant]
    order = relevant + others[: data.draw(st.integers(0, len(others)))]
    n = len(relevant)
    if not order:  # nothing retrieved: an empty ranking, what a query the run lacks scores
        expected: float | None = _empty_ranking(case, labels)
    else:  # no relevant document scores 0 (docs/measures.md)
        expected = 0.0 if n == 0 else case.ideal(n)
    assume(expected is not None)
    assert one(case.measure, labels, order) == pytest.approx(expected, abs=1e-12)


def _empty_ranking(case: Case, labels: Labels) -> float:
    """What an empty ranking scores on a topic, which is what a topic the run lacks scores
    (docs/conventions.md): the row's DEFAULT, except on a topic without relevant documents, which
    scores 0 for every measure (docs/measures.md: R_norm's n = 0 gives 0, in Bollmann's mode too)."""
    relevant = any(v is not None and v >= case.relevant_from for v in labels.values())
    return case.default if relevant else 0.0


def _grade(labels: Labels, doc: str, case: Case) -> int:
    v = labels.get(doc)
    return v if v is not None and v >= case.relevant_from else 0


def _monotone_swaps(case: Case, labels: Labels, order: list[str]) -> list[tuple[int, int]]:
    """(i, j): order[j] relevant, order[i] not, i < j, and the row's swap condition holds."""
    grades = [_grade(labels, d, case) for d in order]
    pairs = []
    for j, gj in enumerate(grades):
        if gj == 0 or (case.within is not None and j + 1 > case.within):
            continue
        for i in range(j):
            if grades[i] != 0:
                continue
            between = grades[i + 1 : j]
            if case.swap == SWAP_NOT_BELOW and any(g > gj for g in between):
                continue
            if case.swap == SWAP_NO_RELEVANT_BETWEEN and any(between):
                continue
            pairs.append((i, j))
    return pairs


@case_param
@settings(SETTINGS, max_examples=20)
@given(topic=topics(), data=st.data())
def test_moving_a_relevant_document_up_never_lowers_the_score(
    case: Case, topic: Topic, data: st.DataObject
) -> None:
    labels, order = topic
    pairs = _monotone_swaps(case, labels, order)
    assume(pairs)
    i, j = data.draw(st.sampled_from(pairs))
    swapped = list(order)
    swapped[i], swapped[j] = swapped[j], swapped[i]
    before = one(case.measure, labels, order)
    after = one(case.measure, labels, swapped)
    assert after >= before - EPS, f"{case.id}: swap {i}<->{j} of {order} lowered {before} to {after}"


@case_param
@SETTINGS
@given(collection=collections(), seed=st.integers(0, 2**32 - 1))
def test_line_and_query_order_change_nothing(case: Case, collection, seed: int) -> None:
    qrels, run = collection
    rng = random.Random(seed)
    run_lines, qrels_lines = run_tuples(run), qrels_tuples(qrels)
    shuffled_run, shuffled_qrels = list(run_lines), list(qrels_lines)
    rng.shuffle(shuffled_run)
    rng.shuffle(shuffled_qrels)
    reversed_dict = {q: dict(reversed(list(run[q].items()))) for q in reversed(list(run))}
    expected = evaluate(case.measure, qrels_lines, run_lines)
    assert evaluate(case.measure, shuffled_qrels, shuffled_run) == expected
    assert evaluate(case.measure, qrels, reversed_dict) == expected


@case_param
@SETTINGS
@given(collection=collections(ties=True))
def test_tied_scores_are_broken_by_doc_id_descending(case: Case, collection) -> None:
    """A tie-heavy run scores as the same run sorted explicitly (score descending, then doc id
    descending in code-point = UTF-8 byte order) and given distinct scores."""
    qrels, run = collection
    explicit = {}
    for qid, docs in run.items():
        order = [d for d, _ in sorted(docs.items(), key=lambda x: (x[1], x[0]), reverse=True)]
        explicit[qid] = ranked(order)
    assert evaluate(case.measure, qrels, run) == evaluate(case.measure, qrels, explicit)


@case_param
@SETTINGS
@given(collection=collections(), data=st.data())
def test_a_query_missing_from_the_run_gets_the_default(case: Case, collection, data: st.DataObject) -> None:
    qrels, run = collection
    dropped = data.draw(st.lists(st.sampled_from(sorted(qrels)), unique=True, min_size=1))
    partial = {q: docs for q, docs in run.items() if q not in dropped}
    full_values = evaluate(case.measure, qrels, run)
    values = evaluate(case.measure, qrels, partial)
    assert set(values) == set(qrels)
    for q in qrels:
        assert values[q] == (_empty_ranking(case, qrels[q]) if q in dropped else full_values[q])


@case_param
def test_an_empty_run_gets_the_default_for_every_query(case: Case) -> None:
    qrels = {"q1": {"a": 1, "b": 0}, "q2": {"c": 2, "d": 1}}
    empty_frame = pd.DataFrame(
        {
            "query_id": pd.Series([], dtype=object),
            "doc_id": pd.Series([], dtype=object),
            "score": pd.Series([], dtype=float),
        }
    )
    runs: list[object] = [{}, [], empty_frame, {"q1": {}, "q2": {}}]
    for run in runs:
        expected = {q: _empty_ranking(case, labels) for q, labels in qrels.items()}
        assert evaluate(case.measure, qrels, run) == expected


@case_param
def test_an_empty_entry_in_a_run_dict_is_a_query_without_lines(case: Case) -> None:
    """``{qid: {}}`` in a run dict cannot be written as DataFrame or namedtuple lines: it must
    score as a query the run lacks. q1 has relevant documents, q2 has none."""
    qrels = {"q1": {"a": 1, "b": 0}, "q2": {"c": 0}}
    without = evaluate(case.measure, qrels, {"q1": {"b": 1.0}})
    assert without["q2"] == _empty_ranking(case, qrels["q2"])
    assert evaluate(case.measure, qrels, {"q1": {"b": 1.0}, "q2": {}}) == without


@case_param
@SETTINGS
@given(collection=collections(), extra=topics())
def test_queries_only_in_the_run_are_ignored(case: Case, collection, extra: Topic) -> None:
    qrels, run = collection
    run_only = {**run, "not-in-qrels": ranked(extra[1]), "q-extra": ranked(POOL)}
    values = evaluate(case.measure, qrels, run_only)
    assert set(values) == set(qrels)
    assert values == evaluate(case.measure, qrels, run)


@case_param
@SETTINGS
@given(
    collection=collections(),
    qrels_kind=st.sampled_from(["dict", "tuples", "frame"]),
    run_kind=st.sampled_from(["dict", "tuples", "frame", "generator"]),
)
def test_dict_frame_and_namedtuple_inputs_agree(
    case: Case, collection, qrels_kind: str, run_kind: str
) -> None:
    qrels, run = collection
    expected = evaluate(case.measure, qrels, run)
    q_in = qrels if qrels_kind == "dict" else as_type(qrels_kind, qrels_tuples(qrels), Qrel._fields)
    if run_kind == "dict":
        r_in: object = run
    elif run_kind == "generator":
        r_in = (sd for sd in run_tuples(run))
    else:
        r_in = as_type(run_kind, run_tuples(run), ScoredDoc._fields)
    assert evaluate(case.measure, q_in, r_in) == expected


# --------------------------------------------------------------------------------------------
# cross-checks with pytrec_eval on tie-heavy runs (Sakai's measures: Q(beta=0) = AP, O(beta=0) = RR)
# --------------------------------------------------------------------------------------------


@settings(SETTINGS, max_examples=60)
@given(collection=collections(ties=True))
def test_ties_agree_with_pytrec_eval_through_q_and_o_at_beta_zero(collection) -> None:
    qrels, run = collection
    binary = {q: {d: min(v, 1) for d, v in docs.items()} for q, docs in qrels.items()}
    reference = {
        (m.query_id, str(m.measure)): m.value
        for m in ir_measures.pytrec_eval.iter_calc([AP, RR], binary, run)
    }
    q0 = evaluate(QMeasure(beta=0.0), binary, run)
    o0 = evaluate(OMeasure(beta=0.0), binary, run)
    for qid in binary:
        assert q0[qid] == pytest.approx(reference[(qid, "AP")], abs=1e-12)
        assert o0[qid] == pytest.approx(reference[(qid, "RR")], abs=1e-12)


# --------------------------------------------------------------------------------------------
# why the graded swap conditions are what they are (arithmetic from Sakai's formulas)
# --------------------------------------------------------------------------------------------

S, B = 3, 1  # levels (default gains g(L) = L): S = 3, B = 1


def test_o_measure_can_drop_when_jumping_a_better_document() -> None:
    """Qrels: one S, one B (cgI = 3, 4). [n, S, B] -> swap n and B -> [B, S, n].
    Before: O = BR(2) = (3 + 1)/(4 + 2) = 2/3. After: O = BR(1) = (1 + 1)/(3 + 1) = 1/2."""
    labels = {"s": S, "b": B, "n": 0}
    assert one(OMeasure, labels, ["n", "s", "b"]) == pytest.approx(2 / 3)
    assert one(OMeasure, labels, ["b", "s", "n"]) == pytest.approx(1 / 2)


def test_p_measure_can_drop_when_its_preferred_rank_jumps_relevant_documents() -> None:
    """Qrels: one S and four B (R = 5, cgI = 3, 4, 5, 6, 7, 7, ...). Run: n1..n6, B x 4, S.
    Before: rp = 11, cg = 7, count = 5: P = (7 + 5)/(7 + 11) = 2/3. Swap n6 with S: rp = 6,
    cg = 3, count = 1: P = (3 + 1)/(7 + 6) = 4/13. The S document moved up, yet P fell."""
    labels = {"s": S, **{f"b{i}": B for i in range(4)}, **{f"n{i}": 0 for i in range(6)}}
    before = [f"n{i}" for i in range(6)] + [f"b{i}" for i in range(4)] + ["s"]
    after = list(before)
    after[5], after[10] = after[10], after[5]
    assert one(PMeasure, labels, before) == pytest.approx(2 / 3)
    assert one(PMeasure, labels, after) == pytest.approx(4 / 13)


def test_p_measure_at_k_can_drop_when_a_better_level_enters_the_cutoff() -> None:
    """Qrels: one S, one B (cgI = 3, 4, 4, ...). P@10 on [B, n x 8, n, S]: S is beyond the
    cutoff, the best level in the top 10 is B at rank 1: P = (1 + 1)/(3 + 1) = 1/2. Swap the n
    at rank 10 with S: rp = 10, cg = 4, count = 2: P = (4 + 2)/(4 + 10) = 3/7 < 1/2."""
    labels = {"s": S, "b": B, **{f"n{i}": 0 for i in range(9)}}
    before = ["b"] + [f"n{i}" for i in range(9)] + ["s"]
    after = list(before)
    after[9], after[10] = after[10], after[9]
    assert one(PMeasure @ 10, labels, before) == pytest.approx(1 / 2)
    assert one(PMeasure @ 10, labels, after) == pytest.approx(3 / 7)


# --------------------------------------------------------------------------------------------
# documentation of every measure
# --------------------------------------------------------------------------------------------

#: an author of the paper each measure comes from (docs/measures.md); a new measure adds its
#: row here, next to its rows of CASES
CITED = {
    "PRES": "Magdy",
    "R_norm": "Rocchio",
    "QMeasure": "Sakai",
    "OMeasure": "Sakai",
    "PMeasure": "Sakai",
    "PPlusMeasure": "Sakai",
    "Bpref10": "Buckley",
    "NumCandidates": "Kanoulas",
    "NumFeedback": "Kanoulas",
    "NumShown": "Kanoulas",
    "LastRel": "Kanoulas",
    "WSS": "Cohen",
    "RecallPct": "Kanoulas",
    "NormArea": "Kanoulas",
    "TarLoss": "Cormack",
    "TarCost": "Kanoulas",
    "Threshold": "Kanoulas",
    "RecallAtThreshold": "Kanoulas",
    "TarUtility": "Kanoulas",
    "APSeen": "Baeza-Yates",
    "F": "Baeza-Yates",
    "E": "van Rijsbergen",
    "Coverage": "Baeza-Yates",
    "Novelty": "Baeza-Yates",
    "RelativeRecall": "Baeza-Yates",
    "RecallEffort": "Baeza-Yates",
    "CG": "Järvelin",
    "DCG": "Järvelin",
    "NCU": "Robertson",
    "GAP": "Kanoulas",
    "NTCIR_RBP": "Moffat",
    "NTCIR_ERR": "Chapelle",
    "NTCIR_nERR": "Chapelle",
    "EBR": "Sakai",
    "iRBU": "Amigó",
    "NTCIR_nDCG": "Järvelin",
    "MSnDCG": "Burges",
    "NTCIR_bpref": "Buckley",
    "NTCIR_rpref": "De Beer",
    "unj": "Soboroff",
    "rbp": "Moffat",
    "rbp_resid": "Moffat",
    "yaap": "Robertson",
    "D_nDCG": "Sakai",
    "D_Q": "Sakai",
    "Dsharp_nDCG": "Sakai",
    "Dsharp_Q": "Sakai",
    "D_nERR": "Sakai",
    "D_ERR": "Sakai",
    "D_EBR": "Sakai",
    "D_RBP": "Sakai",
    "Dsharp_ERR": "Sakai",
    "Dsharp_EBR": "Sakai",
    "Dsharp_RBP": "Sakai",
    "DIN_nDCG": "Sakai",
    "DIN_Q": "Sakai",
    "DINsharp_nDCG": "Sakai",
    "DINsharp_Q": "Sakai",
    "I_rec": "Zhai",
    "IA_nDCG": "Agrawal",
    "IA_Q": "Agrawal",
    "IA_ERR": "Agrawal",
    "IA_nERR": "Agrawal",
    "IA_EBR": "Agrawal",
    "IA_RBP": "Agrawal",
    "PplusQ": "Sakai",
    "PplusQsharp": "Sakai",
    "statAP": "Aslam",
    "statRprec": "Aslam",
    "statP": "Aslam",
    "xinfAP": "Yilmaz",
    "infNDCG": "Yilmaz",
    "infP": "Yilmaz",
    "inum_rel": "Yilmaz",
    "inum_rel_ret": "Yilmaz",
    "infIPrec": "Yilmaz",
    "GMAP": "Robertson",
    "GMBpref": "Buckley",
    "BinG": "Buckley",
    "G": "Buckley",
    "RnDCG": "Järvelin",
    "nDCG_rel": "Järvelin",
    "Utility": "Hull",
    "IPrec11pt": "Buckley",
    "RprecMult": "Buckley",
    "RelP": "Buckley",
    "NumNonRelJudgedRet": "Buckley",
}


@pytest.mark.parametrize("entry", catalogue.MEASURES, ids=lambda e: e.measure.NAME)
def test_every_measure_documents_itself(entry) -> None:
    m = entry.measure
    doc = type(m).__doc__ or ""
    assert CITED[m.NAME] in doc, f"{m.NAME}: docstring does not cite {CITED[m.NAME]}"
    assert re.search(r"\b(19[5-9]\d|20[0-4]\d)\b", doc), f"{m.NAME}: no year in the citation"
    assert isinstance(m.PRETTY_NAME, str) and m.PRETTY_NAME.strip()
    assert isinstance(m.SHORT_DESC, str) and len(m.SHORT_DESC.strip()) > 10
    for param, info in m.SUPPORTED_PARAMS.items():
        assert info.desc, f"{m.NAME}.{param} has no description"


def test_every_measure_has_a_cited_author() -> None:
    assert set(CITED) == {e.measure.NAME for e in catalogue.MEASURES}
