"""trec_eval 10.0's measures that ir_measures lacks, registered (docs/trec_eval.md, "Registered
measures"): ``GMAP`` (gm_map), ``GMBpref`` (gm_bpref), ``BinG`` (binG), ``G``, ``RnDCG`` (Rndcg),
``nDCG_rel`` (ndcg_rel), ``Utility`` (utility), ``IPrec11pt`` (11pt_avg), ``RprecMult@m``
(Rprec_mult), ``RelP@k`` (relative_P), ``NumNonRelJudgedRet`` (num_nonrel_judged_ret).

Expected values are trec_eval 10.0's own outputs of its quick test (tests/data/trec_eval_test,
README.md there lists the commands): per query from ``out.test.aq`` (``-m all_trec -q``), the
summary from ``out.test.a``, ``-l2`` from ``out.test.aql``, parameters from
``out.test.meas_params``, all to the 4 decimals trec_eval prints. results.test's scores are
distinct in float32, so the package's ranking and trec_eval's see the same lists.
"""

from __future__ import annotations

import io
import subprocess
import sys
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any, Dict, List, Tuple

import ir_measures
import numpy as np
import pytest

import ir_measures_pres  # noqa: F401  (registers the measures)
from ir_measures_pres.cli.evaluate import main
from ir_measures_pres.measures import catalogue
from ir_measures_pres.measures.base import MeasureParameterError
from ir_measures_pres.measures.catalogue import MeasureNameError, parse_measures, trec_name
from ir_measures_pres.measures.direction import direction_of
from ir_measures_pres.measures.entry import HIGHER, NEITHER
from ir_measures_pres.measures.trec_eval import kernels
from ir_measures_pres.measures.trec_eval.measures import (
    GMAP,
    RELATIVE_P_CUTOFFS,
    RPREC_MULTIPLES,
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

TE = Path(__file__).parent / "data" / "trec_eval_test"
REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs" / "trec_eval.md"

#: the trec_eval name each registered measure's per-query values are printed under by trec_eval
#: (GMAP's per-query value is AP, GMBpref's bpref: trec_eval prints gm_* in the summary only)
PER_QUERY: Dict[str, Any] = {
    "map": GMAP,
    "bpref": GMBpref,
    "binG": BinG,
    "G": G,
    "Rndcg": RnDCG,
    "ndcg_rel": nDCG_rel,
    "utility": Utility,
    "11pt_avg": IPrec11pt,
    **{f"Rprec_mult_{m:4.2f}": RprecMult @ m for m in RPREC_MULTIPLES},
    **{f"relative_P_{k}": RelP @ k for k in RELATIVE_P_CUTOFFS},
    "num_nonrel_judged_ret": NumNonRelJudgedRet,
}
#: the summary line of each registered measure
SUMMARY: Dict[str, Any] = {
    "gm_map": GMAP,
    "gm_bpref": GMBpref,
    **{n: m for n, m in PER_QUERY.items() if n not in ("map", "bpref")},
}
#: each registered measure's NAME and its trec_eval name, as docs/trec_eval.md lists them
REGISTERED = {
    "GMAP": "gm_map",
    "GMBpref": "gm_bpref",
    "BinG": "binG",
    "G": "G",
    "RnDCG": "Rndcg",
    "nDCG_rel": "ndcg_rel",
    "Utility": "utility",
    "IPrec11pt": "11pt_avg",
    "RprecMult": "Rprec_mult",
    "RelP": "relative_P",
    "NumNonRelJudgedRet": "num_nonrel_judged_ret",
}


def printed(name: str) -> Dict[Tuple[str, str], float]:
    """trec_eval output: (measure, query or 'all') -> value."""
    out = {}
    for line in (TE / name).read_text().splitlines():
        measure, qid, value = line.split("\t")
        if measure.strip() != "runid" and not measure.startswith("relstring"):
            out[(measure.strip(), qid)] = float(value)
    return out


def close(ours: float, theirs: float) -> bool:
    """Equal at the 4 decimals trec_eval prints (a count exactly)."""
    return abs(ours - theirs) <= 0.00005 + 1e-9


def with_rel(measure: Any, rel: int) -> Any:
    """``measure`` with trec_eval's -l, where it has the parameter."""
    return measure(rel=rel) if "rel" in measure.SUPPORTED_PARAMS else measure


def per_query(measures: List[Any], qrels: str, run: str) -> Dict[Tuple[Any, str], float]:
    qrels_ = list(ir_measures.read_trec_qrels(str(TE / qrels)))
    run_ = list(ir_measures.read_trec_run(str(TE / run)))
    return {(m.measure, m.query_id): m.value for m in ir_measures.iter_calc(measures, qrels_, run_)}


def summary(measures: List[Any], qrels: str, run: str) -> Dict[Any, float]:
    qrels_ = list(ir_measures.read_trec_qrels(str(TE / qrels)))
    run_ = list(ir_measures.read_trec_run(str(TE / run)))
    return ir_measures.calc_aggregate(measures, qrels_, run_)


# --------------------------------------------------------------------------------------------
# values: trec_eval 10.0's quick test through the Python API
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "out, qrels, rel", [("out.test.aq", "qrels.test", 1), ("out.test.aql", "qrels.rel_level", 2)]
)
def test_per_query_values_are_trec_evals(out: str, qrels: str, rel: int) -> None:
    """``trec_eval -m all_trec -q [-l2]``: every registered measure, every query."""
    expected = printed(out)
    measures = {name: with_rel(m, rel) for name, m in PER_QUERY.items()}
    ours = per_query(list(dict.fromkeys(measures.values())), qrels, "results.test")
    queries = sorted({q for (_, q) in expected if q != "all"})
    assert queries == ["301", "302", "303"]
    checked = 0
    for name, m in measures.items():
        for q in queries:
            assert close(ours[(m, q)], expected[(name, q)]), (name, q, ours[(m, q)], expected[(name, q)])
            checked += 1
    assert checked == 3 * len(PER_QUERY)


@pytest.mark.parametrize(
    "out, qrels, rel", [("out.test.a", "qrels.test", 1), ("out.test.aql", "qrels.rel_level", 2)]
)
def test_summaries_are_trec_evals(out: str, qrels: str, rel: int) -> None:
    """The ``all`` lines, gm_map and gm_bpref geometric means, num_nonrel_judged_ret a sum."""
    expected = printed(out)
    measures = {name: with_rel(m, rel) for name, m in SUMMARY.items()}
    ours = summary(list(measures.values()), qrels, "results.test")
    for name, m in measures.items():
        assert close(ours[m], expected[(name, "all")]), (name, ours[m], expected[(name, "all")])


def test_gm_map_is_the_geometric_mean_of_the_printed_aps() -> None:
    """out.test.aq's map of each topic, floored at 0.00001, averaged geometrically (the
    arithmetic written out), is out.test.a's gm_map; ours is the same."""
    aq = printed("out.test.aq")
    aps = [aq[("map", q)] for q in ("301", "302", "303")]
    by_hand = float(np.exp(np.mean(np.log(np.maximum(aps, 0.00001)))))
    assert close(by_hand, printed("out.test.a")[("gm_map", "all")])
    assert close(summary([GMAP], "qrels.test", "results.test")[GMAP], by_hand)


def test_measure_parameters_as_trec_evals_m() -> None:
    """out.test.meas_params: ``-m Rprec_mult.5.0,0.2,0.35 -mutility.2,-1,0,0 -m 11pt_avg..25,.5,.75``."""
    expected = printed("out.test.meas_params")
    measures = {
        "Rprec_mult_5.00": RprecMult @ 5.0,
        "Rprec_mult_0.35": RprecMult @ 0.35,
        "utility_2,-1,0,0": Utility(a=2.0),
        "11pt_avg_.25,.5,.75": IPrec11pt(levels=".25,.5,.75"),
    }
    ours = per_query(list(measures.values()), "qrels.test", "results.test")
    means = summary(list(measures.values()), "qrels.test", "results.test")
    for name, m in measures.items():
        for q in ("301", "302", "303"):
            assert close(ours[(m, q)], expected[(name, q)]), (name, q)
        assert close(means[m], expected[(name, "all")]), name


def test_recall_levels_must_be_from_0_to_1() -> None:
    for bad in ("", ".5,x", "1.5", "-0.1,.5"):
        with pytest.raises(MeasureParameterError, match="'levels' must be comma-separated recall levels"):
            IPrec11pt(levels=bad)


def test_utility_counts_the_collection_for_its_fourth_weight() -> None:
    """d (N - |ret ∪ rel|): with N = 100000 and d = 1, each topic gains N - n - R + rel_ret,
    from out.test.aq's counts (n = num_ret, R = num_rel, num_rel_ret)."""
    aq = printed("out.test.aq")
    m = Utility(d=1.0, collection_size=100000)
    ours = per_query([m], "qrels.test", "results.test")
    for q in ("301", "302", "303"):
        n, big_r, rr = (aq[(x, q)] for x in ("num_ret", "num_rel", "num_rel_ret"))
        assert ours[(m, q)] == aq[("utility", q)] + 100000 - n - big_r + rr


def test_the_kernels_are_the_commands() -> None:
    """One kernel per measure: the compute functions call :mod:`.trec_tool.kernels`."""
    import inspect

    from ir_measures_pres.measures.trec_eval import measures as tt

    source = inspect.getsource(tt)
    for kernel in (
        "average_precision",
        "bpref",
        "bin_g",
        "g_measure",
        "rndcg",
        "ndcg_rel",
        "utility",
        "eleven_pt_avg",
        "rprec_mult",
        "relative_precision",
        "num_nonrel_judged_ret",
    ):
        assert hasattr(kernels, kernel)
        assert f"k.{kernel}(" in source, kernel


# --------------------------------------------------------------------------------------------
# names: the trec_eval names read as the registered measures, and are printed back
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(SUMMARY), ids=str)
def test_trec_eval_names_read_and_print_back(name: str) -> None:
    measure = SUMMARY[name]
    assert parse_measures(name) == [measure]
    assert trec_name(measure) == name
    assert ir_measures.parse_trec_measure(name) == [measure]  # PyTerrier's path


@pytest.mark.parametrize(
    "text, expected",
    [
        ("utility(a=1,b=-1)", [Utility]),
        ("utility(b=-2)", [Utility(b=-2.0)]),
        ("Rndcg", [RnDCG]),
        ("RnDCG(gains={1: 2, 2: 5})", [RnDCG(gains={1: 2, 2: 5})]),
        ("relative_P", [RelP @ k for k in RELATIVE_P_CUTOFFS]),
        ("relative_P.5,10", [RelP @ 5, RelP @ 10]),
        ("Rprec_mult@0.35", [RprecMult @ 0.35]),
        ("Rprec_mult", [RprecMult @ m for m in RPREC_MULTIPLES]),  # trec_eval's default multiples
        ("gm_map(rel=2)", [GMAP(rel=2)]),
    ],
)
def test_ir_measures_syntax_and_trec_eval_forms(text: str, expected: List[Any]) -> None:
    assert parse_measures(text) == expected


def test_nicknames_are_trec_evals_in_the_catalogue_and_ir_measures_in_pyterrier() -> None:
    """The catalogue (main command, compare, Python API): ``official`` is out.test's measures,
    gm_map included; ``all_trec`` holds every registered measure. PyTerrier's
    ``parse_trec_measure`` gives what ir_measures gives for a string it accepts (its own
    measures), as the wrapper promises."""
    names = [trec_name(m) for m in parse_measures("official")]
    assert names == [n for (n, q) in printed("out.test") if q == "all"]
    every = parse_measures("all_trec")
    assert set(SUMMARY.values()) <= set(every)
    assert [trec_name(m) for m in every if m in set(SUMMARY.values())] == [
        n for (n, q) in printed("out.test.a") if q == "all" and n in SUMMARY
    ]  # in trec_eval's order
    assert GMAP not in ir_measures.parse_trec_measure("official")


def test_per_query_lines_of_a_geometric_mean_are_not_printed_in_trec_format() -> None:
    """trec_eval prints gm_map in the summary only (out.test.aq), and so does ``--format trec``."""
    out = io.StringIO()
    with redirect_stdout(out):
        args = [str(TE / "qrels.test"), str(TE / "results.test"), "map", "gm_map", "-q"]
        assert main([*args, "--format", "trec"]) == 0
    reference = [
        line for line in (TE / "out.test.aq").read_text().splitlines() if line.startswith(("gm_map", "map "))
    ]
    assert out.getvalue().splitlines() == reference


# --------------------------------------------------------------------------------------------
# the main command
# --------------------------------------------------------------------------------------------


def test_the_main_command_takes_the_trec_eval_names() -> None:
    """``ir_measures_pres QRELS RUN gm_map Rndcg "utility(a=1,b=-1)"`` (the issue's example):
    the values of out.test.a, under trec_eval's names with ``--format trec``."""
    out = io.StringIO()
    args = [str(TE / "qrels.test"), str(TE / "results.test"), "gm_map", "Rndcg", "utility(a=1,b=-1)"]
    with redirect_stdout(out):
        assert main([*args, "--format", "trec"]) == 0
    expected = printed("out.test.a")
    lines = [line.split("\t") for line in out.getvalue().splitlines()]
    assert [name.strip() for name, _, _ in lines] == ["gm_map", "Rndcg", "utility"]
    for name, qid, value in lines:
        assert qid == "all"
        assert close(float(value), expected[(name.strip(), "all")])


def test_the_main_command_per_query_and_default_names() -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main([str(TE / "qrels.test"), str(TE / "results.test"), "gm_map binG", "-q"]) == 0
    rows = [line.split("\t") for line in out.getvalue().splitlines()]
    aq = printed("out.test.aq")
    values = {(r[0], r[1]): float(r[2]) for r in rows}
    for q in ("301", "302", "303"):
        assert close(values[(q, "GMAP")], aq[("map", q)])  # per query: AP
        assert close(values[(q, "BinG")], aq[("binG", q)])
    assert close(values[("all", "GMAP")], printed("out.test.a")[("gm_map", "all")])


# --------------------------------------------------------------------------------------------
# geometric means: compare and the meta-evaluation refuse them, with one line
# --------------------------------------------------------------------------------------------


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ir_measures_pres", *args], capture_output=True, cwd=REPO, timeout=300
    )


@pytest.mark.parametrize("measure", ["gm_map", "GMBpref"])
def test_compare_refuses_a_geometric_mean(measure: str, tmp_path: Path) -> None:
    other = tmp_path / "other.test"
    other.write_text((TE / "results.test").read_text().replace("STANDARD", "OTHER"))
    done = _cli("compare", str(TE / "qrels.test"), str(TE / "results.test"), str(other), "-m", measure)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.decode().splitlines()
    assert len(lines) == 1
    assert "geometric mean" in lines[0] and "not a mean of per-query values" in lines[0]


def test_the_python_api_refuses_a_geometric_mean_for_per_query_statistics() -> None:
    from ir_measures_pres import compare
    from ir_measures_pres.meta import Core

    qrels, run = str(TE / "qrels.test"), str(TE / "results.test")
    with pytest.raises(MeasureNameError, match="geometric mean"):
        compare(qrels, {"a": run, "b": run}, "AP gm_map")
    with pytest.raises(MeasureNameError, match="GMBpref"):
        Core(qrels, {"a": run, "b": run}, [GMBpref])


def test_compare_of_scores_refuses_a_geometric_mean_by_its_label() -> None:
    """Per-topic values labelled GMAP (the main command's ``-q`` rows: AP) would be tested and
    averaged as MAP under GMAP's name."""
    from ir_measures_pres import compare_scores

    table = {r: {"GMAP": {"1": 0.1, "2": 0.5}, "AP": {"1": 0.1, "2": 0.5}} for r in ("a", "b")}
    with pytest.raises(MeasureNameError, match="geometric mean"):
        compare_scores(table)
    assert compare_scores(table, measures=["AP"]).n == 2


def test_meta_refuses_a_geometric_mean(tmp_path: Path) -> None:
    other = tmp_path / "other.test"
    other.write_text((TE / "results.test").read_text().replace("STANDARD", "OTHER"))
    done = _cli("agreement", str(TE / "qrels.test"), str(TE / "results.test"), str(other), "-m", "GMAP")
    assert done.returncode == 2, done.stderr
    assert "geometric mean" in done.stderr.decode()


# --------------------------------------------------------------------------------------------
# every registered measure: a direction, a place in the docs
# --------------------------------------------------------------------------------------------


def test_the_table_here_is_every_registered_measure() -> None:
    assert {m.NAME for m in SUMMARY.values()} == set(REGISTERED)
    tool = {
        e.measure.NAME
        for e in catalogue.MEASURES
        if e.compute.__module__.endswith("measures.trec_eval.measures")
    }
    assert tool == set(REGISTERED)


@pytest.mark.parametrize("name", sorted(REGISTERED))
def test_each_registered_measure_has_a_direction(name: str) -> None:
    entry = catalogue.BY_NAME[name]
    assert direction_of(entry.measure) == (NEITHER if name == "NumNonRelJudgedRet" else HIGHER)
    assert entry.bounds is None  # the bounds over unjudged documents refuse them


def test_docs_list_every_registered_measure_with_its_trec_eval_name() -> None:
    text = DOCS.read_text()
    section = text[text.index("## Registered measures") :]
    section = section[: section.index("\n## ")]
    for name, trec in REGISTERED.items():
        assert f"`{name}" in section, name
        assert f"`{trec}" in section, trec
    status = text[text.index("## Status") :]
    status = status[: status.index("\n## ")]
    assert "not yet" not in status


def test_the_count_prints_as_trec_eval_prints_it() -> None:
    """``num_nonrel_judged_ret`` is a count (``%ld``): out.test.aq's lines, byte for byte."""
    out = io.StringIO()
    with redirect_stdout(out):
        args = [str(TE / "qrels.test"), str(TE / "results.test"), "num_nonrel_judged_ret", "-q"]
        assert main([*args, "--format", "trec"]) == 0
    reference = [
        line
        for line in (TE / "out.test.aq").read_text().splitlines()
        if line.startswith("num_nonrel_judged_ret")
    ]
    assert out.getvalue().splitlines() == reference


def test_no_interval_of_a_mean_for_a_geometric_mean() -> None:
    done = _cli(str(TE / "qrels.test"), str(TE / "results.test"), "gm_map", "--ci", "0.95")
    assert done.returncode == 0, done.stderr
    assert done.stderr.decode() == (
        "ir_measures_pres: warning: --ci: GMAP: a geometric mean over topics, not a mean of the "
        "values: no interval (empty cells)\n"
    )
    assert done.stdout.decode() == "GMAP\t0.1051\t\t\n"


# --------------------------------------------------------------------------------------------
# the registered measures and the trec_eval command: one kernel, one value
# --------------------------------------------------------------------------------------------


def _random_collection(seed: int, folder: Path) -> Tuple[Path, Path]:
    """Graded qrels with judged-nonrelevant, in-pool-unjudged (-1) and missing documents; a run
    whose scores are distinct in float32 (multiples of 1/8), lacking some topics."""
    import random

    rng = random.Random(seed)
    qrels, run = [], []
    for t in range(6):
        docs = [f"d{i}" for i in range(rng.randint(5, 40))]
        for d in docs:
            if rng.random() < 0.7:
                qrels.append(f"q{t} 0 {d} {rng.choice([-1, 0, 0, 0, 1, 1, 2, 3])}")
        if not any(line.startswith(f"q{t} ") for line in qrels):
            qrels.append(f"q{t} 0 {docs[0]} 1")
        if t == 4:  # a topic the run lacks: the DEFAULT, as trec_eval -c
            continue
        retrieved = rng.sample(docs + [f"x{i}" for i in range(10)], rng.randint(1, len(docs)))
        scores = rng.sample(range(1000), len(retrieved))
        run += [f"q{t} Q0 {d} 0 {s / 8} R" for d, s in zip(retrieved, scores)]
    (folder / "qrels").write_text("\n".join(qrels) + "\n")
    (folder / "run").write_text("\n".join(run) + "\n")
    return folder / "qrels", folder / "run"


def _as_flags(measure: Any, flags: List[str]) -> Any:
    """``measure`` with the parameters of trec_eval's ``-J`` and ``-l2``."""
    params = {}
    if "-J" in flags:
        params["judged_only"] = True
    if "-l2" in flags and "rel" in measure.SUPPORTED_PARAMS:
        params["rel"] = 2
    return measure(**params) if params else measure


@pytest.mark.parametrize("flags", [[], ["-J"], ["-l2"], ["-J", "-l2"]], ids=" ".join)
@pytest.mark.parametrize("seed", range(3))
def test_the_registered_measures_print_the_commands_values(
    seed: int, flags: List[str], tmp_path: Path
) -> None:
    """``trec_eval -q -c -m all_trec [-J] [-l2]`` and the registered measures (``judged_only``,
    ``rel=2``) on the same seeded files: the same per-topic values (the same kernels over the
    same lists), the same summaries (gm_map with a topic the run lacks counting 0.00001). Both
    are checked against trec_eval 10.0 above."""
    from ir_measures_pres.cli.trec_eval import run as trec_eval

    qrels, run = _random_collection(seed, tmp_path)
    out = io.StringIO()
    assert trec_eval(["-q", "-c", *flags, "-m", "all_trec", str(qrels), str(run)], out) == 0
    command: Dict[Tuple[str, str], str] = {}
    for line in out.getvalue().splitlines():
        name, qid, value = line.split("\t")
        command[(name.strip(), qid)] = value
    per_topic = {name: _as_flags(m, flags) for name, m in PER_QUERY.items()}
    ours = per_query(list(dict.fromkeys(per_topic.values())), str(qrels), str(run))
    topics = sorted({q for (_, q) in command if q != "all"})
    assert len(topics) == 6
    # q4, which the run lacks, is scored by the command as trec_eval -c scores it, on a ranking of
    # one unjudged document: its values are the registered measures' DEFAULT (0); where -J leaves
    # a topic no document (q4's, or a run's list with nothing judged), the interpolated
    # precisions divide 0 by 0 in the command as in the tool (-nan) and are 0 when registered
    nan_under_j = {"iprec_at_recall_0.00", "11pt_avg"}
    for name, m in per_topic.items():
        for q in topics:
            value = ours.get((m, q), m.DEFAULT)
            if command[(name, q)] == "  -nan":
                assert "-J" in flags and name in nan_under_j and value == 0, (name, q)
                continue
            text = str(int(value)) if name == "num_nonrel_judged_ret" else f"{value:.4f}"
            assert text == command[(name, q)], (name, q)
    summarised = {name: _as_flags(m, flags) for name, m in SUMMARY.items()}
    means = summary(list(summarised.values()), str(qrels), str(run))
    for name, m in summarised.items():
        if command[(name, "all")] == "  -nan":
            assert "-J" in flags and name in nan_under_j
            continue
        assert close(means[m], float(command[(name, "all")])), (name, means[m], command[(name, "all")])


def test_scores_equal_in_float32_rank_as_the_package_ranks_them(tmp_path: Path) -> None:
    """docs/conventions.md's example: b (relevant) at 100000.001 and a at 100000.002 tie in
    float32, so the registered measures rank b first by document id descending (AP = 1, binG =
    1/log2(2) = 1); the trec_eval command ranks doubles, a first (AP = 1/2, binG = 1/log2(3))."""
    from ir_measures_pres.cli.trec_eval import run as trec_eval

    (tmp_path / "qrels").write_text("q1 0 b 1\nq1 0 a 0\n")
    (tmp_path / "run").write_text("q1 Q0 a 1 100000.002 r\nq1 Q0 b 2 100000.001 r\n")
    ours = per_query([GMAP, BinG], str(tmp_path / "qrels"), str(tmp_path / "run"))
    assert ours[(GMAP, "q1")] == 1.0 and ours[(BinG, "q1")] == 1.0
    out = io.StringIO()
    assert (
        trec_eval(["-q", "-m", "map", "-m", "binG", str(tmp_path / "qrels"), str(tmp_path / "run")], out) == 0
    )
    lines = {tuple(line.split("\t")[:2]): line.split("\t")[2] for line in out.getvalue().splitlines()}
    assert lines[("map                   ", "q1")] == "0.5000"
    assert lines[("binG                  ", "q1")] == f"{1 / np.log2(3):.4f}"
