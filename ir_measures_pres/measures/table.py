"""The measure table: one :class:`~.entry.Entry` per measure of this package.

Each entry ties a measure class of its family module to its aliases, its ``compute_*`` adapter,
its parameter check, its trec-style names (:class:`~.entry.TrecStyle`, what ``--format trec``
prints and reads back) and what it needs of a run. The provider dispatches through
:data:`BY_NAME`; :mod:`.catalogue` reads and writes every measure name from this table. Adding a
measure is one entry here (the three steps are in :mod:`.catalogue`'s docstring).
"""

from __future__ import annotations

from typing import Any, Dict, Iterable, Optional, Tuple

import numpy as np

from . import ntcir as nt
from .base import MeasureParameterError
from .bounds_spec import COMPLETIONS, EXTREMES, FREE, SKIPS, BoundSpec
from .diversity import measures as dvm
from .diversity import scoring as dv
from .entry import GEOMETRIC, HIGHER, LOWER, NEITHER, SUM, Entry, NamedNumber, TrecStyle, higher_with_rel
from .ntcir.blended_ratio import (
    OMeasure,
    PMeasure,
    PPlusMeasure,
    QMeasure,
    check_gains_cover,
    compute_o,
    compute_p,
    compute_pplus,
    compute_q,
    gain_of,
)
from .recall.bpref import Bpref10, compute_bpref10
from .recall.normalized import PRES, R_norm, compute_pres, compute_rnorm
from .sampled import estimators as sm
from .sampled import measures as sampled
from .sampled import statap as sa
from .tar import (
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
    compute_last_rel,
    compute_norm_area,
    compute_num_candidates,
    compute_num_feedback,
    compute_num_shown,
    compute_recall_at_threshold,
    compute_recall_pct,
    compute_tar_cost,
    compute_tar_loss,
    compute_tar_utility,
    compute_threshold,
    compute_wss,
)
from .textbook import measures as tb
from .trec_eval import judgement_aware as te10
from .trec_eval import measures as tt

#: trec-style names of the NTCIREVAL families with several members: the tool's own names
_NCU = (("gu", "NCUgu"), ("rb", "NCUrb"))
_BPREF = tuple(
    (v, "NTCIR_bpref" + (f"_{v}" if v != "bpref" else "")) for v in ("bpref", "R", "N", "relative")
)
_RPREF = tuple((v, f"NTCIR_rpref_{v}") for v in ("N", "relative", "relative2"))


def _SAMPLED(base: str) -> Tuple[Tuple[str, str], ...]:  # noqa: N802 - reads as a constant
    """trec-style names of a sampled-judgement measure: sample_eval.pl's name for the cds
    variant (``xinfAP`` for its ``infAP``, which is trec_eval's other measure), ``_trecvid`` after it
    for the other."""
    return (("cds", base), ("trecvid", f"{base}_trecvid"))


# -- how the bounds over unjudged documents treat the measures (engine/bounds.py) --


def _gains_at(measure: Any, levels: np.ndarray, rel: int) -> np.ndarray:
    """The gain :func:`.ntcir.blended_ratio.gain_of` gives each level (nan where ``gains`` leave a
    relevant level out: the measure refuses such a level)."""
    out = np.full(len(levels), np.nan)
    for i, level in enumerate(levels.tolist()):
        try:
            out[i] = gain_of(np.array([level]), measure.params.get("gains"), str(measure), rel)[0]
        except MeasureParameterError:
            pass
    return out


def _rel_gains(measure: Any, levels: np.ndarray) -> np.ndarray:
    return _gains_at(measure, levels, measure["rel"])


def _ntcir_gains(measure: Any, levels: np.ndarray) -> np.ndarray:
    return _gains_at(measure, levels, 1)  # NTCIREVAL's measures: every level >= 1 is relevant


def _rnorm_bounds_check(measure: Any) -> Optional[str]:
    return None if measure["mode"] == "pessimistic" else "for Bollmann's pairwise R_norm (pessimistic only)"


_BOUNDS_PRES = BoundSpec(
    COMPLETIONS,
    "PRES",
    monotone=lambda m: not m["estimate"],
    per_relevant=True,
    concave=True,
    full_cutoff=True,
)
_BOUNDS_Q = BoundSpec(
    COMPLETIONS,
    "QMeasure",
    gain=_rel_gains,
    grades_matter=lambda m: float(m["beta"]) != 0.0,
    monotone=True,
)
_BOUNDS_TE10_RBP = BoundSpec.refused(
    "rbp",
    "trec_eval 10's rbp divides the gains by the query's top judged grade, which an unjudged "
    "document judged higher would raise, lowering the others' gains (not monotone in the labels); "
    "NTCIR_RBP has bounds",
)


MEASURES: Tuple[Entry, ...] = (
    Entry(
        PRES,
        (),
        compute_pres,
        trec=TrecStyle(((False, "PRES"), (True, "PRES_est")), by="estimate", at="value"),
        direction=HIGHER,
        bounds=_BOUNDS_PRES,
    ),
    Entry(
        R_norm,
        ("Rnorm",),
        compute_rnorm,
        trec=TrecStyle(
            (("pessimistic", "Rnorm"), ("bollmann", "Rnorm_bollmann")),
            by="mode",
            number=NamedNumber("collection_size", "N", 1_000_000),
        ),
        direction=HIGHER,
        bounds=BoundSpec(COMPLETIONS, "R_norm", check=_rnorm_bounds_check),
    ),
    Entry(
        QMeasure,
        ("Q_measure",),
        compute_q,
        check_gains_cover,
        TrecStyle.named("Q-measure"),
        direction=HIGHER,
        bounds=_BOUNDS_Q,
    ),
    Entry(
        OMeasure, ("O_measure",), compute_o, check_gains_cover, TrecStyle.named("O-measure"), direction=HIGHER
    ),
    Entry(
        PMeasure, ("P_measure",), compute_p, check_gains_cover, TrecStyle.named("P-measure"), direction=HIGHER
    ),
    Entry(
        PPlusMeasure,
        ("P_plus",),
        compute_pplus,
        check_gains_cover,
        TrecStyle.named("P-plus"),
        direction=HIGHER,
    ),
    Entry(
        Bpref10,
        ("Bpref_10",),
        compute_bpref10,
        trec=TrecStyle(
            (
                ("trec", "bpref_top10pRnonrel"),  # trec_eval 8.1's name
                ("old", "old_bpref_top10pRnonrel"),  # trec_eval 8.1's name
                ("paper", "bpref_top10pRnonrel_paper"),
            ),
            by="variant",
            at="none",
        ),
        direction=HIGHER,
        bounds=BoundSpec.refused("Bpref10", SKIPS.format("Bpref-10")),
    ),
    # technology-assisted review (CLEF TAR 2017-2019 tools; docs/tar.md)
    Entry(
        NumCandidates,
        (),
        compute_num_candidates,
        trec=TrecStyle.named("num_docs", at="none"),
        direction=NEITHER,
        summary=SUM,
    ),
    Entry(
        NumFeedback,
        (),
        compute_num_feedback,
        trec=TrecStyle.named("num_feedback", at="none"),
        direction=NEITHER,
        summary=SUM,
    ),
    Entry(
        NumShown,
        (),
        compute_num_shown,
        trec=TrecStyle.named("num_shown", at="none"),
        direction=higher_with_rel,
        summary=SUM,
    ),
    Entry(
        LastRel,
        (),
        compute_last_rel,
        trec=TrecStyle(((False, "last_rel"), (True, "norm_last_rel")), by="normalised", at="none"),
        direction=LOWER,
    ),
    Entry(
        WSS,
        (),
        compute_wss,
        trec=TrecStyle(((0.95, "wss_95"), (1.0, "wss_100")), by="recall", at="none"),
        direction=HIGHER,
    ),
    Entry(
        RecallPct,
        (),
        compute_recall_pct,
        trec=TrecStyle((("2018", "recall_pct"), ("2017", "NCG_pct")), by="positions", at="none"),
        direction=HIGHER,
    ),
    Entry(NormArea, (), compute_norm_area, trec=TrecStyle.named("norm_area", at="none"), direction=HIGHER),
    Entry(
        TarLoss,
        (),
        compute_tar_loss,
        trec=TrecStyle((("er", "loss_er"), ("e", "loss_e"), ("r", "loss_r")), by="part", at="none"),
        direction=LOWER,
    ),
    Entry(
        TarCost,
        (),
        compute_tar_cost,
        trec=TrecStyle(
            (("none", "total_cost"), ("uniform", "total_cost_uniform"), ("weighted", "total_cost_weighted")),
            by="penalty",
            at="none",
        ),
        direction=LOWER,
    ),
    Entry(
        Threshold,
        (),
        compute_threshold,
        trec=TrecStyle((("last", "threshold"), ("first", "num_seen")), by="flag", at="none"),
        direction=NEITHER,
    ),
    Entry(
        RecallAtThreshold,
        (),
        compute_recall_at_threshold,
        trec=TrecStyle((("last", "recall_threshold"), ("first", "recall_seen")), by="flag", at="none"),
        direction=HIGHER,
    ),
    Entry(
        TarUtility, (), compute_tar_utility, trec=TrecStyle.named("utility_cost", at="none"), direction=LOWER
    ),
    # Modern Information Retrieval's retrieval-evaluation chapter (docs/textbook.md)
    Entry(tb.APSeen, ("AP_seen",), tb.compute_apseen, trec=TrecStyle.named("APSeen"), direction=HIGHER),
    Entry(tb.F, (), tb.compute_f, trec=TrecStyle.named("F"), direction=HIGHER),
    Entry(tb.E, (), tb.compute_e, trec=TrecStyle.named("E"), direction=LOWER),
    Entry(
        tb.Coverage,
        (),
        tb.compute_coverage,
        tb.check_known,
        TrecStyle.named("Coverage"),
        needs_docs=True,
        direction=HIGHER,
    ),
    Entry(
        tb.Novelty,
        (),
        tb.compute_novelty,
        tb.check_known,
        TrecStyle.named("Novelty"),
        needs_docs=True,
        direction=HIGHER,
    ),
    Entry(
        tb.RelativeRecall,
        (),
        tb.compute_relative_recall,
        tb.check_known,
        TrecStyle.named("RelativeRecall"),
        needs_docs=True,
        direction=HIGHER,
    ),
    Entry(
        tb.RecallEffort,
        (),
        tb.compute_recall_effort,
        tb.check_known,
        TrecStyle.named("RecallEffort", at="none"),
        needs_docs=True,
        direction=HIGHER,
    ),
    Entry(
        tb.CG,
        (),
        tb.compute_cg,
        check_gains_cover,
        TrecStyle.named("CG"),
        direction=HIGHER,
        bounds=BoundSpec(EXTREMES, "CG", gain=_rel_gains),
    ),
    Entry(
        tb.DCG,
        (),
        tb.compute_dcg,
        check_gains_cover,
        TrecStyle.named("DCG"),
        direction=HIGHER,
        bounds=BoundSpec(EXTREMES, "DCG", gain=_rel_gains),
    ),
    # NTCIREVAL 190111's ntcir_eval compute beyond Q/O/P/P+ (docs/ntcir.md)
    Entry(
        nt.NCU,
        (),
        nt.compute_ncu,
        nt.check_levels,
        TrecStyle(_NCU, by="stopping", at="none"),
        direction=HIGHER,
    ),
    Entry(nt.GAP, (), nt.compute_gap, trec=TrecStyle.named("GAP"), direction=HIGHER),
    Entry(
        nt.NTCIR_RBP,
        (),
        nt.compute_rbp,
        nt.check_levels,
        TrecStyle.named("NTCIR_RBP"),
        direction=HIGHER,
        bounds=BoundSpec(EXTREMES, "NTCIR_RBP", gain=_ntcir_gains, reads_scale=True),
    ),
    Entry(nt.NTCIR_ERR, (), nt.compute_err, nt.check_levels, TrecStyle.named("NTCIR_ERR"), direction=HIGHER),
    Entry(
        nt.NTCIR_nERR, (), nt.compute_nerr, nt.check_levels, TrecStyle.named("NTCIR_nERR"), direction=HIGHER
    ),
    Entry(nt.EBR, (), nt.compute_ebr, nt.check_levels, TrecStyle.named("EBR"), direction=HIGHER),
    Entry(nt.iRBU, (), nt.compute_irbu, nt.check_levels, TrecStyle.named("iRBU"), direction=HIGHER),
    Entry(
        nt.NTCIR_nDCG, (), nt.compute_ndcg, nt.check_levels, TrecStyle.named("NTCIR_nDCG"), direction=HIGHER
    ),
    Entry(nt.MSnDCG, (), nt.compute_msndcg, nt.check_levels, TrecStyle.named("MSnDCG"), direction=HIGHER),
    Entry(
        nt.NTCIR_bpref,
        (),
        nt.compute_bpref,
        trec=TrecStyle(_BPREF, by="variant", at="none"),
        direction=HIGHER,
        bounds=BoundSpec.refused("NTCIR_bpref", SKIPS.format("bpref")),
    ),
    Entry(
        nt.NTCIR_rpref,
        (),
        nt.compute_rpref,
        nt.check_levels,
        TrecStyle(_RPREF, by="variant", at="none"),
        direction=HIGHER,
        bounds=BoundSpec.refused("NTCIR_rpref", SKIPS.format("rpref")),
    ),
    # sampled judgements: sample_eval.pl's estimators (docs/judgements.md)
    Entry(
        sampled.xinfAP,
        (),
        sampled.compute_xinfap,
        sm.check_strata,
        TrecStyle(_SAMPLED("xinfAP"), by="variant", at="none"),
        needs_docs=True,
        direction=HIGHER,
    ),
    Entry(
        sampled.infNDCG,
        (),
        sampled.compute_infndcg,
        sm.check_strata,
        TrecStyle(_SAMPLED("infNDCG"), by="variant", at="none"),
        needs_docs=True,
        direction=HIGHER,
    ),
    Entry(
        sampled.infP,
        (),
        sampled.compute_infp,
        sm.check_strata,
        TrecStyle(_SAMPLED("iP"), by="variant", at="value"),
        needs_docs=True,
        direction=HIGHER,
    ),
    Entry(
        sampled.inum_rel,
        (),
        sampled.compute_inum_rel,
        sm.check_strata,
        TrecStyle(_SAMPLED("inum_rel"), by="variant", at="none"),
        needs_docs=True,
        direction=NEITHER,
    ),
    Entry(
        sampled.inum_rel_ret,
        (),
        sampled.compute_inum_rel_ret,
        sm.check_strata,
        TrecStyle(_SAMPLED("inum_rel_ret"), by="variant", at="none"),
        needs_docs=True,
        direction=HIGHER,
    ),
    # one name per recall level of the tool (a float @ parameter): infIPrec_0.50 for iprec@rec0.50
    Entry(
        sampled.infIPrec,
        (),
        sampled.compute_infiprec,
        sm.check_strata,
        TrecStyle(tuple((x, f"infIPrec_{x:4.2f}") for x in sm.RECALL_LEVELS), by="recall", at="none"),
        needs_docs=True,
        direction=HIGHER,
    ),
    # statAP_MQ_eval_v3.pl's estimators from a prels file (docs/judgements.md)
    Entry(
        sa.statAP,
        (),
        sa.compute_statap,
        sa.check_prels,
        TrecStyle.named("statAP", at="none"),
        needs_docs=True,
        direction=HIGHER,
        judgements_elsewhere=True,
    ),
    Entry(
        sa.statRprec,
        (),
        sa.compute_statrprec,
        sa.check_prels,
        TrecStyle.named("statRprec", at="none"),
        needs_docs=True,
        direction=HIGHER,
        judgements_elsewhere=True,
    ),
    Entry(
        sa.statP,
        (),
        sa.compute_statp,
        sa.check_prels,
        TrecStyle.named("statP", at="value"),
        needs_docs=True,
        direction=HIGHER,
        judgements_elsewhere=True,
    ),
    # NTCIREVAL's diversity measures from intent probabilities and per-intent judgements
    # (docs/diversity.md, "Registered measures")
    *(
        Entry(
            m,
            (),
            dv.compute_diversity,
            dv.check_diversity,
            TrecStyle.named(m.NAME),
            needs_docs=True,
            direction=HIGHER,
            judgements_elsewhere=True,
        )
        for m in dvm.MEASURES
    ),
    # trec_eval 10's judgement-aware measures (docs/judgements.md)
    Entry(
        te10.unj,
        (),
        te10.compute_unj,
        trec=TrecStyle.named("unj", at="value", cuts=te10.UNJ_CUTOFFS),
        direction=LOWER,
        bounds=BoundSpec(FREE, "unj@k"),
    ),
    Entry(
        te10.rbp,
        (),
        te10.compute_rbp,
        trec=TrecStyle.named("rbp", at="none", param="p"),
        direction=HIGHER,
        bounds=_BOUNDS_TE10_RBP,
    ),
    Entry(
        te10.rbp_resid,
        (),
        te10.compute_rbp_resid,
        trec=TrecStyle.named("rbp_resid", at="none", param="p"),
        direction=LOWER,
    ),
    Entry(te10.yaap, (), te10.compute_yaap, trec=TrecStyle.named("yaap", at="none"), direction=HIGHER),
    # trec_eval 10.0's measures that ir_measures lacks, computed by the kernels of the
    # trec_eval command (docs/trec_eval.md, "Registered measures"); the trec_eval names are
    # aliases where they are Python names, and trec-style names otherwise
    # their one number is trec_eval's geometric mean of AP and of bpref
    *(
        Entry(m, (name,), compute, trec=TrecStyle.named(name, at="none"), direction=HIGHER, summary=GEOMETRIC)
        for m, name, compute in (
            (tt.GMAP, "gm_map", tt.compute_gmap),
            (tt.GMBpref, "gm_bpref", tt.compute_gmbpref),
        )
    ),
    Entry(tt.BinG, ("binG",), tt.compute_bing, trec=TrecStyle.named("binG", at="none"), direction=HIGHER),
    Entry(tt.G, (), tt.compute_g, trec=TrecStyle.named("G", at="none"), direction=HIGHER),
    Entry(tt.RnDCG, ("Rndcg",), tt.compute_rndcg, trec=TrecStyle.named("Rndcg", at="none"), direction=HIGHER),
    Entry(
        tt.nDCG_rel,
        ("ndcg_rel",),
        tt.compute_ndcg_rel,
        trec=TrecStyle.named("ndcg_rel", at="none"),
        direction=HIGHER,
    ),
    Entry(
        tt.Utility,
        ("utility",),
        tt.compute_utility,
        trec=TrecStyle.named("utility", at="none"),
        direction=HIGHER,
    ),
    Entry(
        tt.IPrec11pt, (), tt.compute_iprec11pt, trec=TrecStyle.named("11pt_avg", at="none"), direction=HIGHER
    ),
    # one name per default multiple of trec_eval (a float @ parameter): Rprec_mult_0.20
    Entry(
        tt.RprecMult,
        ("Rprec_mult",),
        tt.compute_rprec_mult,
        trec=TrecStyle(
            tuple((m, f"Rprec_mult_{m:4.2f}") for m in tt.RPREC_MULTIPLES), by="multiple", at="none"
        ),
        direction=HIGHER,
    ),
    Entry(
        tt.RelP,
        ("relative_P",),
        tt.compute_relp,
        trec=TrecStyle.named("relative_P", at="value", cuts=tt.RELATIVE_P_CUTOFFS),
        direction=HIGHER,
    ),
    Entry(
        tt.NumNonRelJudgedRet,
        ("num_nonrel_judged_ret",),
        tt.compute_num_nonrel_judged_ret,
        trec=TrecStyle.named("num_nonrel_judged_ret", at="none"),
        direction=NEITHER,
        summary=SUM,
    ),
)

#: measure NAME -> entry; the provider dispatches through this table.
BY_NAME: Dict[str, Entry] = {e.measure.NAME: e for e in MEASURES}

# each measure class makes its aggregator by its entry's summary (PluginMeasure.aggregator, which
# ir_measures' calc_aggregate and PyTerrier call)
for _entry in MEASURES:
    type(_entry.measure).SUMMARY = _entry.summary


def entry_of(measure: Any) -> Optional[Entry]:
    """The catalogue entry of ``measure`` when it is one of this package's measures, else None."""
    entry = BY_NAME.get(str(getattr(measure, "NAME", "")))
    if entry is not None and isinstance(measure, type(entry.measure)):
        return entry
    return None


def check_qrels(measures: Iterable[Any], qrels: Any) -> None:
    """Run the qrels check of each of ``measures`` that is this package's and has one (e.g.
    :func:`~.ntcir.blended_ratio.check_gains_cover`), once per evaluation; raises what the check raises."""
    for m in measures:
        entry = entry_of(m)
        if entry is not None and entry.check_qrels is not None:
            entry.check_qrels(m, qrels)
