"""One meaning per measure, the same on every surface (docs/conventions.md, "Queries that are
scored"; ``ir_measures_pres/measures/summary.py``).

The catalogue is walked whole (every entry of ``catalogue.MEASURES``, with the configurations of
``tests/test_properties.py``): on each surface that scores it (ir_measures' ``iter_calc`` and
``calc_aggregate``, the main command, the engine under ``compare`` and the meta-evaluation,
``compare``'s means, PyTerrier's ``pt.Evaluate`` and ``pt.Experiment``),

* a topic the run lacks scores what the measure's own kernel gives an **empty ranking** of that
  topic: the test lays the empty list out itself and calls the entry's compute function on it;
* the one number equals the measure's rule applied to that surface's per-topic values, the rule
  written here from the documentation (trec_eval's geometric mean for ``gm_map`` / ``gm_bpref``,
  the sum for the counts, the mean over the defined values otherwise) and computed with numpy.

Then the cases of the issue, on the quick-test files of trec_eval (``results.trunc`` lacks topic
302): yaap's and Utility's values for 302 and their means from arithmetic and trec_eval 10.0's
printed values, GMAP in PyTerrier against trec_eval's ``gm_map``, NumNonRelJudgedRet's sum, and
the refusals of a geometric mean by the surfaces that test per-topic values.
"""

from __future__ import annotations

import contextlib
import io
import math
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

import ir_measures
import numpy as np
import pytest
from conftest import DATA
from test_diversity_measures import _random_files
from test_properties import CASES
from test_statap import HAND_PRELS
from test_tar_measures import QRELS as TAR_QRELS
from test_tar_measures import RUN as TAR_RUN

import ir_measures_pres  # noqa: F401 - registers the measures
from ir_measures_pres.cli.evaluate import main
from ir_measures_pres.data.qrels import Qrels
from ir_measures_pres.data.ranking import RankedRun, rank_run
from ir_measures_pres.data.readers import read_qrels, read_run
from ir_measures_pres.engine.scores import Core
from ir_measures_pres.measures import catalogue
from ir_measures_pres.measures.catalogue import MeasureNameError, entry_of
from ir_measures_pres.measures.sampled.estimators import check_strata
from ir_measures_pres.measures.trec_eval.measures import GMAP, Utility

TE = DATA / "trec_eval_test"

# --------------------------------------------------------------------------------------------
# the rule of each measure, from the documentation (docs/trec_eval.md's table of registered
# measures, docs/tar.md's ALL lines), computed with numpy
# --------------------------------------------------------------------------------------------

#: trec_eval's gm_map and gm_bpref: exp(mean(log(max(v, 0.00001))))
GEOMETRIC = {"GMAP", "GMBpref"}
#: counts, whose one number is their sum (trec_eval's num_nonrel_judged_ret; the TAR tools'
#: num_docs, num_feedback, num_shown and rels_found)
SUMS = {"NumNonRelJudgedRet", "NumCandidates", "NumFeedback", "NumShown"}


def by_rule(measure: Any, values: List[float]) -> float:
    x = np.asarray(values, dtype=np.float64)
    if measure.NAME in GEOMETRIC:
        return float(np.exp(np.mean(np.log(np.maximum(x, 0.00001)))))
    if measure.NAME in SUMS:
        return float(np.sum(x))
    x = x[~np.isnan(x)]  # a topic where the measure is undefined is left out of its mean
    return float(np.mean(x)) if len(x) else math.nan


def close(a: float, b: float, abs_tol: float = 1e-9) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=abs_tol)


# --------------------------------------------------------------------------------------------
# the families of inputs: every measure of the catalogue gets inputs it can read, and a run that
# lacks some qrels topics
# --------------------------------------------------------------------------------------------


@dataclass
class Family:
    name: str
    qrels_path: Path
    run_path: Path
    measures: List[Any]
    #: the run read for ir_measures and the engine (file order for the TAR measures)
    read: Callable[[], Any]
    #: the surfaces that cannot read these inputs (the main command reads no column 2)
    skip: Tuple[str, ...] = ()
    qrels: Any = None
    lacking: List[str] = field(default_factory=list)


def _special(m: Any) -> Optional[str]:
    """The family of a measure that needs inputs of its own, else None."""
    entry = entry_of(m)
    assert entry is not None
    params = m.params
    if "known" in params:
        return "known"
    if "prels" in params:
        return "prels"
    if "probs" in params or "dqrels" in params:
        return "diversity"
    if entry.check_qrels is check_strata:
        return "sampled"
    if type(m).__module__.endswith(".tar.measures"):
        return "tar"
    if m.NAME == "R_norm":
        return "rnorm"
    return None


def _rows(kind: Optional[str]) -> List[Any]:
    return [c.measure for c in CASES if _special(c.measure) == kind]


def _with(m: Any, **params: Any) -> Any:
    return m.__class__(**{**m.params, **params})


@pytest.fixture(scope="module")
def families(tmp_path_factory: pytest.TempPathFactory) -> List[Family]:
    d = tmp_path_factory.mktemp("families")
    trunc = d / "results.trunc"  # grouped by topic (the file is not): read in blocks
    lines = (TE / "results.trunc").read_text().splitlines(keepends=True)
    trunc.write_text("".join(sorted(lines, key=lambda s: s.split()[0])))
    qrels_test = TE / "qrels.test"
    out = [
        Family("generic", qrels_test, trunc, _rows(None), lambda: read_run(trunc)),
        # R_norm's collection: larger than any run of the files
        Family(
            "rnorm",
            qrels_test,
            trunc,
            [_with(m, collection_size=100_000) for m in _rows("rnorm")],
            lambda: read_run(trunc),
        ),
    ]
    # the documents the user knows: a few of each topic's judged ones
    known = d / "known.txt"
    judged = [line.split() for line in qrels_test.read_text().splitlines()]
    known.write_text("".join(f"{q} 0 {doc} 1\n" for q, _, doc, rel in judged if rel == "1" and hash(doc) % 3))
    out.append(
        Family(
            "known",
            qrels_test,
            trunc,
            [_with(m, known=str(known)) for m in _rows("known")],
            lambda: read_run(trunc),
        )
    )
    # statAP: the hand prels (test_statap.py); the run lacks q4
    prels = d / "prels"
    prels.write_text(HAND_PRELS)
    pq, pr = d / "prels.qrels", d / "prels.run"
    pq.write_text("q1 0 d1 1\nq2 0 e1 0\nq3 0 f1 1\nq4 0 g1 1\n")
    pr.write_text("q1 Q0 d3 1 4 r\nq1 Q0 d1 2 3 r\nq1 Q0 d2 3 1 r\nq2 Q0 e1 1 2 r\nq3 Q0 f1 1 4 r\n")
    out.append(
        Family("prels", pq, pr, [_with(m, prels=str(prels)) for m in _rows("prels")], lambda: read_run(pr))
    )
    # sampled judgements: the shared sampled qrels, a real run without its first topic
    sampled = DATA.parent.parent.parent / "shared" / "data" / "sampled-judgements" / "qrels.sampled"
    robust = DATA.parent.parent.parent / "shared" / "data" / "real" / "trec-robust-2003" / "runs"
    if sampled.exists() and robust.exists():
        import gzip

        text = gzip.open(sorted(robust.glob("input.*.gz"))[0], "rt").read().splitlines(keepends=True)
        first = text[0].split()[0]
        sr = d / "sampled.run"
        sr.write_text("".join(line for line in text if line.split()[0] != first))
        out.append(Family("sampled", sampled, sr, _rows("sampled"), lambda: read_run(sr)))
    else:  # without the shared data (its licence keeps it out of the repository): a small set
        # written here, two strata per topic, judged and unjudged samples, a topic the run lacks
        sq, sr = d / "sampled.qrels", d / "sampled.run"
        sq.write_text(
            "".join(
                f"{t} 0 {t}{doc} {stratum} {rel}\n"
                for t in ("t1", "t2", "t3")
                for doc, stratum, rel in (
                    ("a1", 1, 1),
                    ("a2", 1, 0),
                    ("a3", 1, -1),
                    ("b1", 2, 1),
                    ("b2", 2, -1),
                )
            )
        )
        sr.write_text(
            "".join(
                f"{t} Q0 {t}{doc} {k + 1} {10 - k} r\n"
                for t in ("t1", "t2")
                for k, doc in enumerate(("b1", "x1", "a1", "a3", "a2", "b2"))
            )
        )
        out.append(Family("sampled", sq, sr, _rows("sampled"), lambda: read_run(sr)))
    # diversity: a generated collection (test_diversity_measures.py), the run lacking a topic
    prob, dqrels, qrels, run, topics = _random_files(5, d)
    gone = sorted(topics)[-1]
    dq, dr = d / "div.qrels", d / "div.run"
    dq.write_text("".join(f"{q.query_id} 0 {q.doc_id} {q.relevance}\n" for q in qrels))
    dr.write_text("".join(f"{r.query_id} Q0 {r.doc_id} 1 {r.score} r\n" for r in run if r.query_id != gone))
    div = [_with(m, probs=str(prob), dqrels=str(dqrels)) for m in _rows("diversity")]
    out.append(Family("diversity", dq, dr, div, lambda: read_run(dr)))
    # TAR: the hand 2017 run (test_tar_measures.py) without topic D, read in file order; the
    # 2018 measures read threshold flags: the same lines with flags in column 2
    tq, tr, tf = d / "tar.qrels", d / "tar.run", d / "tar18.run"
    tq.write_text(TAR_QRELS)
    kept = [line for line in TAR_RUN.splitlines(keepends=True) if not line.startswith("D ")]
    tr.write_text("".join(kept))
    tf.write_text(
        "".join(
            f"{p[0]} {int(k == 3)} {p[2]} {k + 1} {p[4]} x\n" for k, p in enumerate(s.split() for s in kept)
        )
    )
    flags = ("Threshold", "RecallAtThreshold", "TarUtility")
    tar = _rows("tar")
    codes = [m for m in tar if m.NAME not in flags and not m.params.get("threshold")]
    out.append(
        Family(
            "tar", tq, tr, codes, lambda: read_run(tr, order="file"), skip=("command", "engine", "pyterrier")
        )
    )
    out.append(
        Family(
            "tar2018",
            tq,
            tf,
            [m for m in tar if m not in codes],
            lambda: read_run(tf, order="file"),
            skip=("command", "engine", "pyterrier"),
        )
    )
    for f in out:
        f.qrels = read_qrels(f.qrels_path)
        q = Qrels.from_any(f.qrels)
        in_run = set(read_run(f.run_path).query_names or [])
        f.lacking = [t for t in q.query_ids if t not in in_run]
        assert f.lacking, f.name
    return out


def test_every_entry_is_walked(families: List[Family]) -> None:
    covered = {m.NAME for f in families for m in f.measures}
    missing = [e.measure.NAME for e in catalogue.MEASURES if e.measure.NAME not in covered]
    assert not missing, f"no inputs for {missing}"


# --------------------------------------------------------------------------------------------
# what an empty ranking scores, laid out by the test
# --------------------------------------------------------------------------------------------


def empty_ranking_values(f: Family, m: Any) -> Dict[str, float]:
    """The entry's compute function on the run's ranking with an empty list added, by hand, for
    each topic the run lacks (what it reads of the whole run, column 2, stays the run's)."""
    from ir_measures_pres.measures.diversity.scoring import qrels_intents

    qrels_obj, intents = qrels_intents([m], f.qrels)
    qrels = Qrels.from_any(qrels_obj)
    if intents is not None:
        qrels.intents = intents
    ranked = rank_run(f.read(), qrels)
    qpos = np.array([qrels.query_ids.index(t) for t in f.lacking], dtype=np.int64)
    offsets = np.concatenate((ranked.offsets, np.full(len(qpos), ranked.offsets[-1])))
    docs = ranked.docs
    grown = RankedRun(qrels, np.concatenate((ranked.qpos, qpos)), offsets, ranked.labels, docs)
    grown.column2 = ranked.column2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        values = entry_of(m).compute(m, grown)  # type: ignore[union-attr]
    return {t: float(v) for t, v in zip(f.lacking, np.asarray(values)[len(ranked.qpos) :].tolist())}


# --------------------------------------------------------------------------------------------
# the surfaces: per-topic values {measure: {topic: value}} and the one numbers {measure: value}
# --------------------------------------------------------------------------------------------

PerTopic = Dict[Any, Dict[str, float]]
Surface = Tuple[PerTopic, Dict[Any, float]]


def via_ir_measures(f: Family) -> Surface:
    run = f.read()
    per: PerTopic = {m: {} for m in f.measures}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for metric in ir_measures.iter_calc(f.measures, f.qrels, run):
            per[metric.measure][metric.query_id] = metric.value
        agg = ir_measures.calc_aggregate(f.measures, f.qrels, f.read())
    return per, agg


def via_command(f: Family) -> Surface:
    names = {str(m): m for m in f.measures}
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        assert main([str(f.qrels_path), str(f.run_path), *names, "-q", "-p", "-1"]) == 0, stderr.getvalue()
    per: PerTopic = {m: {} for m in f.measures}
    agg: Dict[Any, float] = {}
    for line in stdout.getvalue().splitlines():
        qid, name, value = line.split("\t")
        if qid == "all":
            agg[names[name]] = float(value)
        else:
            per[names[name]][qid] = float(value)
    return per, agg


def via_engine(f: Family) -> Surface:
    """The engine of compare and the meta-evaluation (its per-topic table) and compare's means."""
    from ir_measures_pres.stats.comparison import compare

    measures = [m for m in f.measures if m.NAME not in GEOMETRIC]  # refused there (below)
    if not measures:
        return {}, {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        runs = {"a": f.read(), "b": f.read()}
        scores = Core(f.qrels, runs, measures, allow_undefined=True, warn_missing=False).scores()
        means = compare(f.qrels, runs, measures).means
    per = {m: dict(zip(scores.query_ids, scores.values[i, 0].tolist())) for i, m in enumerate(measures)}
    return per, {m: means[str(m)]["a"] for m in measures}


SURFACES = {"ir_measures": via_ir_measures, "command": via_command, "engine": via_engine}


@pytest.mark.parametrize("surface", sorted(SURFACES))
def test_every_surface_scores_a_lacking_topic_as_an_empty_ranking_and_applies_the_rule(
    families: List[Family], surface: str
) -> None:
    checked = 0
    for f in families:
        if surface in f.skip:
            continue
        per, agg = SURFACES[surface](f)
        for m in per:
            expected = empty_ranking_values(f, m)
            for t in f.lacking:
                assert close(per[m][t], expected[t], 1e-12), (
                    f.name,
                    surface,
                    str(m),
                    t,
                    per[m][t],
                    expected[t],
                )
            want = by_rule(m, list(per[m].values()))
            assert close(agg[m], want, 1e-9 if surface != "command" else 1e-12), (f.name, surface, str(m))
            checked += 1
    assert checked >= 20


# --------------------------------------------------------------------------------------------
# PyTerrier (pt.Evaluate, pt.Experiment, with and without perquery)
# --------------------------------------------------------------------------------------------


def _pt_frames(f: Family) -> Tuple[Any, Any, Any]:
    import pandas as pd

    q = [line.split() for line in f.qrels_path.read_text().splitlines()]
    qrels = pd.DataFrame(
        {"qid": [x[0] for x in q], "docno": [x[2] for x in q], "label": [int(x[3]) for x in q]}
    )
    r = [line.split() for line in f.run_path.read_text().splitlines()]
    res = pd.DataFrame(
        {
            "qid": [x[0] for x in r],
            "docno": [x[2] for x in r],
            "score": [float(x[4]) for x in r],
            "rank": [int(x[3]) for x in r],
        }
    )
    topics = pd.DataFrame({"qid": sorted(set(qrels.qid)), "query": ""})
    return qrels, res, topics


def test_pyterrier_scores_a_lacking_topic_as_an_empty_ranking_and_applies_the_rule(
    families: List[Family],
) -> None:
    pt = pytest.importorskip("pyterrier")
    checked = 0
    for f in families:
        if "pyterrier" in f.skip or f.name in ("sampled", "diversity"):
            continue  # the strata / intents need columns PyTerrier's frames lack here
        qrels, res, topics = _pt_frames(f)
        names = {str(m): m for m in f.measures}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            per = pt.Evaluate(res, qrels, metrics=list(names), perquery=True)
            means = pt.Evaluate(res, qrels, metrics=list(names))
            table = pt.Experiment([res], topics, qrels, eval_metrics=list(names), names=["r"])
            long = pt.Experiment([res], topics, qrels, eval_metrics=list(names), names=["r"], perquery=True)
        for name, m in names.items():
            values = {q: per[q][name] for q in per}
            expected = empty_ranking_values(f, m)
            for t in f.lacking:
                assert close(values[t], expected[t], 1e-12), (f.name, name, t)
                got = long[(long.qid == t) & (long.measure == name)].value.iloc[0]
                assert close(float(got), expected[t], 1e-12), (f.name, name, t)
            want = by_rule(m, list(values.values()))
            assert close(means[name], want), ("pt.Evaluate", f.name, name, means[name], want)
            assert close(float(table[name].iloc[0]), want), ("pt.Experiment", f.name, name)
            checked += 1
    assert checked >= 20


# --------------------------------------------------------------------------------------------
# the cases on the quick-test files
# --------------------------------------------------------------------------------------------

#: R of topic 302 in qrels.test (77 lines judged 1), and trec_eval 10.0 -c -q -m yaap on
#: qrels.test results.trunc: 302 -4.3567, all -2.8303 (the tool's output, as the issue quotes it)
R_302 = 77
YAAP_302 = math.log(1 / (1 + R_302))


def test_yaap_and_utility_of_a_lacking_topic(
    families: List[Family], capsys: pytest.CaptureFixture[str]
) -> None:
    f = families[0]
    assert main([str(TE / "qrels.test"), str(f.run_path), "yaap", "Utility(a=1,b=-1,c=-1,d=0)", "-q"]) == 0
    out = capsys.readouterr().out
    assert "302\tyaap\t-4.3567\n" in out and "all\tyaap\t-2.8303\n" in out
    # Utility = a·rel_ret + b·nonrel_ret + c·rel_not_ret (+ d·nonrel_not_ret): an empty ranking
    # of 302 leaves its 77 relevant documents unretrieved: -77
    assert "302\tUtility(c=-1.0)\t-77.0000\n" in out
    values = {m.query_id: m.value for m in ir_measures.iter_calc([Utility(c=-1.0)], f.qrels, f.read())}
    assert values["302"] == -77.0
    assert sum(values.values()) / 3 == pytest.approx((values["301"] + values["303"] - 77) / 3)
    yaap = {
        m.query_id: m.value
        for m in ir_measures.iter_calc([ir_measures.parse_measure("yaap")], f.qrels, f.read())
    }
    assert yaap["302"] == pytest.approx(YAAP_302, abs=1e-12)


def test_gmap_in_pyterrier_is_the_geometric_mean() -> None:
    """pt.Experiment printed 0.178545, the arithmetic mean of AP; trec_eval prints gm_map 0.1051
    (out.test.a: its output on qrels.test results.test), as calc_aggregate does."""
    pt = pytest.importorskip("pyterrier")
    import pandas as pd

    ap = {m.query_id: m.value for m in ir_measures.iter_calc([ir_measures.AP], *_te_inputs())}
    want = math.exp(sum(math.log(max(v, 0.00001)) for v in ap.values()) / 3)
    assert (
        round(want, 4) == 0.1051 and "gm_map                \tall\t0.1051" in (TE / "out.test.a").read_text()
    )
    qrels = pt.io.read_qrels(str(TE / "qrels.test"))
    run = pt.io.read_results(str(TE / "results.test"))
    topics = pd.DataFrame({"qid": sorted(qrels.qid.unique()), "query": ""})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table = pt.Experiment([run], topics, qrels, eval_metrics=["gm_map", "GMAP", GMAP, "map"], names=["r"])
        both = pt.Evaluate(run, qrels, metrics=["gm_map", "GMAP"])
    for name in ("gm_map", "GMAP"):
        assert float(table[name].iloc[0]) == pytest.approx(want, abs=1e-12)
    assert float(table["map"].iloc[0]) == pytest.approx(sum(ap.values()) / 3, abs=1e-12)
    assert both == {"gm_map": pytest.approx(want, abs=1e-12), "GMAP": pytest.approx(want, abs=1e-12)}


def _te_inputs() -> Tuple[Any, Any]:
    return list(ir_measures.read_trec_qrels(str(TE / "qrels.test"))), list(
        ir_measures.read_trec_run(str(TE / "results.test"))
    )


def test_num_nonrel_judged_ret_is_a_sum_on_every_surface(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """trec_eval 10.0 prints num_nonrel_judged_ret all 607 on qrels.test results.test (out.test.a),
    the sum of its per-topic lines; compare and pt.Experiment printed the mean 202.3333."""
    from ir_measures_pres.stats.comparison import compare

    text = (TE / "out.test.a").read_text()
    per = [
        int(line.split()[2])
        for line in (TE / "out.test.aq").read_text().splitlines()
        if line.startswith("num_nonrel_judged_ret") and "\tall\t" not in line
    ]
    assert sum(per) == 607 and "num_nonrel_judged_ret \tall\t607" in text
    qrels, run = _te_inputs()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = compare(qrels, {"a": run, "b": run}, "NumNonRelJudgedRet")
    assert res.means["NumNonRelJudgedRet"] == {"a": 607.0, "b": 607.0}
    pt = pytest.importorskip("pyterrier")
    import pandas as pd

    q = pt.io.read_qrels(str(TE / "qrels.test"))
    r = pt.io.read_results(str(TE / "results.test"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table = pt.Experiment(
            [r],
            pd.DataFrame({"qid": ["301", "302", "303"], "query": ""}),
            q,
            ["NumNonRelJudgedRet"],
            names=["r"],
        )
    assert float(table["NumNonRelJudgedRet"].iloc[0]) == 607.0


def test_a_test_of_a_geometric_mean_is_refused_in_each_surfaces_terms(tmp_path: Path) -> None:
    pt = pytest.importorskip("pyterrier")
    import pandas as pd

    q = pt.io.read_qrels(str(TE / "qrels.test"))
    r = pt.io.read_results(str(TE / "results.test"))
    topics = pd.DataFrame({"qid": ["301", "302", "303"], "query": ""})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError, match=r"^gm_map: pt.Experiment's baseline= test compares"):
            pt.Experiment([r, r], topics, q, ["gm_map", "map"], names=["a", "b"], baseline=0)
        # without a baseline, nothing is tested: the means are printed
        pt.Experiment([r, r], topics, q, ["gm_map", "map"], names=["a", "b"])
    qrels, run = _te_inputs()
    with pytest.raises(MeasureNameError, match="tests and statistics on per-query values do not test it"):
        Core(qrels, {"a": run, "b": run}, "GMAP AP")
    with pytest.raises(MeasureNameError, match=r"^GMAP: agreement ranks the runs by each measure's mean"):
        Core(qrels, {"a": run, "b": run}, "GMAP AP", command="agreement")


def test_robustness_ranks_a_geometric_mean_by_its_geometric_mean(tmp_path: Path) -> None:
    """robustness can honour GMAP's rule (it only ranks runs by their one number), so it takes it:
    the full-qrels score is trec_eval's gm_map of the quick test (out.test: 0.1051), and every
    f-qrels score and tau is the geometric mean of that sample's AP, computed here with numpy."""
    pytest.importorskip("pandas")
    pytest.importorskip("scipy")
    from scipy.stats import kendalltau

    from ir_measures_pres.meta import robustness

    qrels, run = _te_inputs()
    other = [r._replace(score=-r.score) if r.query_id == "301" else r for r in run]
    third = [r._replace(score=-r.score) if r.query_id == "303" else r for r in run]
    runs = {"a": run, "b": other, "c": third}
    res = robustness(qrels, runs, "GMAP AP", fractions=(0.2, 0.6), samples=3, seed=7, progress=False)
    scores = res.scores
    full = scores[(scores.fraction == 1.0) & (scores.measure == "GMAP")].set_index("run")["value"]
    assert round(float(full["a"]), 4) == 0.1051  # trec_eval's gm_map (out.test)
    ap = scores[scores.measure == "AP"]
    gm = scores[scores.measure == "GMAP"]
    assert (ap.fraction == 1.0).sum() == 3
    # under every f-qrels, a geometric mean of the same per-topic AP: never above AP's mean
    # (AM-GM), below it where the topics differ; and each sample's tau is scipy's on those numbers
    merged = gm.merge(ap, on=["run", "fraction", "sample"], suffixes=("_gm", "_ap"))
    assert (merged.value_gm <= merged.value_ap + 1e-12).all()
    assert (merged.value_gm < merged.value_ap - 1e-6).any()  # a geometric mean, not the mean
    for (f, s), group in gm[gm.fraction < 1.0].groupby(["fraction", "sample"]):
        sample = group.set_index("run")["value"].loc[list(runs)]
        want = kendalltau(full.loc[list(runs)].to_numpy(), sample.to_numpy()).statistic
        row = res.samples[
            (res.samples.measure == "GMAP") & (res.samples.fraction == f) & (res.samples["sample"] == s)
        ]
        got = float(row.tau.iloc[0])
        assert (math.isnan(want) and math.isnan(got)) or close(got, want)


def test_robustness_geometric_mean_is_trec_eval_s_of_its_per_topic_ap(tmp_path: Path) -> None:
    """Each run's GMAP under the full qrels equals exp(mean(log(max(AP_q, 1e-5)))) of trec_eval's
    per-topic AP (out.test.aq's map lines), written out here."""
    pytest.importorskip("pandas")
    pytest.importorskip("scipy")
    from ir_measures_pres.meta import robustness

    ap = {}
    for line in (TE / "out.test.aq").read_text().splitlines():
        name, topic, value = line.split()
        if name == "map" and topic != "all":
            ap[topic] = float(value)
    assert len(ap) == 3
    want = math.exp(sum(math.log(max(v, 0.00001)) for v in ap.values()) / len(ap))
    qrels, run = _te_inputs()
    res = robustness(qrels, {"a": run, "b": run}, "GMAP", fractions=(0.5,), samples=1, seed=1, progress=False)
    full = res.scores[(res.scores.fraction == 1.0)].set_index("run")["value"]
    assert abs(float(full["a"]) - want) < 5e-5  # out.test.aq prints AP to 4 decimals


@pytest.mark.parametrize("where", ["qrels", "run"])
def test_a_path_given_for_the_qrels_or_the_run_is_said(where: str) -> None:
    qrels, run = _te_inputs()
    path = str(TE / ("qrels.test" if where == "qrels" else "results.test"))
    args = (path, run) if where == "qrels" else (qrels, path)
    with pytest.raises(Exception) as caught:
        ir_measures.calc_aggregate([ir_measures_pres.PRES @ 100], *args)
    text = str(caught.value)
    assert text.startswith(f"a path string was given as the {where} ({path!r})")
    reader = "read_trec_qrels" if where == "qrels" else "read_trec_run"
    assert f"ir_measures.{reader}({path!r})" in text and "namedtuples" not in text
