"""Intervals over topics (issue #30, spec judgements.md §3.1): every interval against scipy called
directly on the same per-topic values (the t interval from ``scipy.stats.t.interval``, the
bootstrap ones from the literal ``scipy.stats.bootstrap((values,), np.mean, ..., method='BCa',
random_state=np.random.default_rng(S))``), to 1e-9; the per-topic values from
``ir_measures.iter_calc`` and every mean equal to ``ir_measures.calc_aggregate``'s. Through the
statistics function, ``calc_intervals``, the main command (tsv and jsonl parsed, runs scored
block by block too) and ``compare``'s JSON."""

from __future__ import annotations

import io
import json
import math
import warnings
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Dict, List, Tuple

import ir_measures
import numpy as np
import pytest
from conftest import DATA, needs_shared, shared_path

pytest.importorskip("scipy")
import scipy.stats  # noqa: E402

import ir_measures_pres  # noqa: E402
from ir_measures_pres.cli.evaluate import main  # noqa: E402
from ir_measures_pres.data import runblocks  # noqa: E402
from ir_measures_pres.data.runfiles import run_labels  # noqa: E402
from ir_measures_pres.stats import mean_interval  # noqa: E402

SAMPLE = Path(ir_measures_pres.__file__).resolve().parent / "data" / "sample"
QRELS = SAMPLE / "qrels.test"
RUN = SAMPLE / "results.test"
CLEF = DATA / "clef-tar-2017"
ROBUST = shared_path("real", "trec-robust-2003")
TOL = 1e-9


# --------------------------------------------------------------------------------------------
# the references: scipy called directly
# --------------------------------------------------------------------------------------------


def scipy_t(values, level: float) -> Tuple[float, float]:
    v = np.asarray(values, dtype=np.float64)
    low, high = scipy.stats.t.interval(level, len(v) - 1, loc=np.mean(v), scale=scipy.stats.sem(v))
    return float(low), float(high)


def scipy_bootstrap(values, level: float, n: int, seed: int, method: str = "BCa") -> Tuple[float, float]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # random_state, as the issue writes it
        res = scipy.stats.bootstrap(
            (np.asarray(values, dtype=np.float64),),
            np.mean,
            confidence_level=level,
            n_resamples=n,
            method=method,
            random_state=np.random.default_rng(seed),
        )
    return float(res.confidence_interval.low), float(res.confidence_interval.high)


def reference(values, level: float, method: str, n: int = 9999, seed: int = 0) -> Tuple[float, float]:
    if method == "t":
        return scipy_t(values, level)
    return scipy_bootstrap(values, level, n, seed, "BCa" if method == "bootstrap" else "percentile")


def per_topic(measures, qrels, run) -> Dict[str, List[float]]:
    """ir_measures' own per-topic values (DEFAULT for the qrels topics the run lacks), by measure
    name, in query-id order (the order the package's intervals are made in, docs/uncertainty.md)."""
    out: Dict[str, List[Tuple[str, float]]] = {}
    for metric in ir_measures.iter_calc(measures, qrels, run):
        out.setdefault(str(metric.measure), []).append((metric.query_id, metric.value))
    return {m: [v for _, v in sorted(pairs)] for m, pairs in out.items()}


def close(got: Tuple[float, float], want: Tuple[float, float]) -> bool:
    return all(abs(g - w) <= TOL for g, w in zip(got, want))


# --------------------------------------------------------------------------------------------
# the statistics function
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("level", [0.5, 0.9, 0.95, 0.99])
@pytest.mark.parametrize("method", ["t", "bootstrap", "bootstrap-percentile"])
def test_mean_interval_is_scipys(level, method):
    rng = np.random.default_rng(11)
    for n in (2, 5, 50):
        values = rng.beta(0.5, 2.0, size=n)
        got = mean_interval(values, level, method, n_resamples=2000, seed=7)
        assert close(got, reference(values, level, method, 2000, 7)), (n, got)


def test_mean_interval_edge_cases():
    # one topic: no spread to estimate, NaN (scipy's bootstrap refuses one observation)
    for method in ("t", "bootstrap", "bootstrap-percentile"):
        assert all(math.isnan(x) for x in mean_interval([0.4], 0.95, method))
        assert all(math.isnan(x) for x in mean_interval([0.4, float("nan"), 0.2], 0.95, method))
        # zero spread: the point [mean, mean], also for BCa (scipy: nan and a warning)
        assert mean_interval([0.25] * 7, 0.95, method) == (0.25, 0.25)
        assert mean_interval([0.1 + 0.2, 0.3, 0.3], 0.95, method)[0] == pytest.approx(0.3, abs=1e-15)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        degenerate = scipy.stats.bootstrap((np.full(7, 0.25),), np.mean, method="BCa").confidence_interval
    assert math.isnan(degenerate.low)  # why the package defines the case itself
    # the percentile bootstrap of equal values is the point in scipy as well
    assert scipy_bootstrap([0.25] * 7, 0.95, 99, 0, "percentile") == (0.25, 0.25)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"level": 0.0},
        {"level": 1.0},
        {"level": 95},
        {"level": -0.5},
        {"level": True},
        {"method": "bca"},
        {"n_resamples": 0},
        {"seed": -1},
    ],
)
def test_calc_intervals_bad_parameters(kwargs):
    with pytest.raises(ValueError):
        ir_measures_pres.calc_intervals("AP", str(QRELS), str(RUN), **kwargs)


def test_sums_have_no_interval_of_a_mean():
    with pytest.raises(ValueError, match="NumRet"):
        ir_measures_pres.calc_intervals("AP NumRet", str(QRELS), str(RUN))


# --------------------------------------------------------------------------------------------
# calc_intervals: means are calc_aggregate's, intervals scipy's on iter_calc's values
# --------------------------------------------------------------------------------------------

MEASURES = "AP nDCG@10 P@10 PRES@1000 RR QMeasure"


def _clef() -> Tuple[Path, List[Path]]:
    qrels = CLEF / "qrels" / "qrel_abs_test.txt"
    runs = sorted((CLEF / "runs").glob("*"))
    if not qrels.exists() or len(runs) < 2:
        pytest.skip("tests/data/clef-tar-2017 is not there")
    return qrels, runs


@pytest.mark.parametrize("as_objects", [False, True])
@pytest.mark.parametrize("method", ["t", "bootstrap", "bootstrap-percentile"])
def test_calc_intervals_against_scipy_and_calc_aggregate(as_objects, method):
    qrels_path, runs = _clef()
    qrels = list(ir_measures.read_trec_qrels(str(qrels_path)))
    run = list(ir_measures.read_trec_run(str(runs[0])))
    measures = [ir_measures.parse_measure(m) for m in MEASURES.split()]
    args = (qrels, run) if as_objects else (str(qrels_path), str(runs[0]))
    got = ir_measures_pres.calc_intervals(measures, *args, level=0.9, method=method, n_resamples=999, seed=3)
    aggregate = ir_measures.calc_aggregate(measures, qrels, run)
    values = per_topic(measures, qrels, run)
    assert list(got) == measures
    for m in measures:
        iv = got[m]
        assert iv.mean == aggregate[m]  # the same bits as calc_aggregate
        assert iv.n == len(values[str(m)]) == len({q.query_id for q in qrels})
        assert (iv.level, iv.method) == (0.9, method)
        assert close((iv.low, iv.high), reference(values[str(m)], 0.9, method, 999, 3)), m


def test_seeds_reproduce_and_differ():
    qrels, runs = _clef()
    files = (str(qrels), str(runs[0]))
    kw = {"method": "bootstrap", "n_resamples": 500}
    a = ir_measures_pres.calc_intervals("AP", *files, seed=1, **kw)
    b = ir_measures_pres.calc_intervals("AP", *files, seed=1, **kw)
    c = ir_measures_pres.calc_intervals("AP", *files, seed=2, **kw)
    assert a == b
    assert a != c
    # an interval does not depend on which other measures were asked for (a generator each)
    d = ir_measures_pres.calc_intervals("nDCG@10 AP", *files, seed=1, **kw)
    assert d[ir_measures.AP] == a[ir_measures.AP]
    # the command: the same seed, the same bytes; its default seed is 0
    argv = [*files, "AP", "--ci", "0.95", "--ci-method", "bootstrap", "-B", "500"]
    assert run_cli(argv)[1] == run_cli(argv)[1] == run_cli([*argv, "--seed", "0"])[1]
    assert run_cli(argv)[1] != run_cli([*argv, "--seed", "2"])[1]


def test_undefined_topics_are_left_out_as_the_mean_leaves_them(tmp_path):
    """Coverage(known=FILE) is undefined (NaN) where K ∩ R is empty; its mean (DefinedMean) and
    hence its interval are over the other topics."""
    known = tmp_path / "known.txt"
    lines = QRELS.read_text().splitlines()
    first = lines[0].split()[0]  # K: the judged documents of one topic only
    known.write_text("".join(x + "\n" for x in lines if x.split()[0] == first))
    measure = ir_measures.parse_measure(f"Coverage(known='{known}')@100")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = ir_measures_pres.calc_intervals([measure], str(QRELS), str(RUN))[measure]
        qrels = list(ir_measures.read_trec_qrels(str(QRELS)))
        run = list(ir_measures.read_trec_run(str(RUN)))
        values = [v for v in per_topic([measure], qrels, run)[str(measure)] if v == v]
        aggregate = ir_measures.calc_aggregate([measure], qrels, run)[measure]
    assert got.mean == aggregate
    assert got.n == len(values) == 1  # one topic defined: the interval is NaN
    assert math.isnan(got.low) and math.isnan(got.high)


# --------------------------------------------------------------------------------------------
# the main command
# --------------------------------------------------------------------------------------------


def run_cli(argv: List[str]) -> Tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err), warnings.catch_warnings():
        warnings.simplefilter("always")
        status = main([str(a) for a in argv])
    return status, out.getvalue(), err.getvalue()


def _expected(qrels: Path, runs: List[Path], measures: str, level: float, method: str, n: int, seed: int):
    """run label -> measure -> (mean, (low, high)) from ir_measures and scipy."""
    q = list(ir_measures.read_trec_qrels(str(qrels)))
    ms = [ir_measures.parse_measure(m) for m in measures.split()]
    out = {}
    for label, path in zip(run_labels([str(p) for p in runs]), runs):
        r = list(ir_measures.read_trec_run(str(path)))
        agg = ir_measures.calc_aggregate(ms, q, r)
        vals = per_topic(ms, q, r)
        out[label] = {str(m): (agg[m], reference(vals[str(m)], level, method, n, seed)) for m in ms}
    return out


@pytest.mark.parametrize("blocks", [False, True])
@pytest.mark.parametrize("method", ["t", "bootstrap", "bootstrap-percentile"])
def test_command_tsv_and_jsonl(method, blocks, monkeypatch):
    qrels, runs = _clef()
    runs = runs[:3]
    if blocks:  # every run scored in blocks of a few queries (engine/streaming.py's RunTable)
        monkeypatch.setattr(runblocks, "BLOCK_LINES", 700)
    extra = ["--ci", "0.9", "--ci-method", method] + ([] if method == "t" else ["-B", "999", "--seed", "5"])
    want = _expected(qrels, runs, "AP nDCG@10 PRES@1000", 0.9, method, 999, 5)
    status, out, _ = run_cli([qrels, *runs, "AP nDCG@10 PRES@1000", "-p", "-1", "--jobs", "1", *extra])
    assert status == 0
    rows = [line.split("\t") for line in out.splitlines()]
    assert len(rows) == 9 and all(len(r) == 5 for r in rows)
    for run, measure, value, low, high in rows:
        mean, interval = want[run][measure]
        assert float(value) == mean
        assert close((float(low), float(high)), interval)
    status, out, _ = run_cli([qrels, *runs, "AP nDCG@10 PRES@1000", "--format", "jsonl", *extra])
    records = [json.loads(line) for line in out.splitlines()]
    assert [sorted(r) for r in records] == [["ci_high", "ci_low", "measure", "run", "value"]] * 9
    for r in records:
        mean, interval = want[r["run"]][r["measure"]]
        assert r["value"] == mean
        assert close((r["ci_low"], r["ci_high"]), interval)


def test_command_per_query_rows_stay_rectangular():
    status, out, _ = run_cli([QRELS, RUN, "AP P@10", "--ci", "0.95", "-q"])
    assert status == 0
    rows = [line.split("\t") for line in out.splitlines()]
    assert {len(r) for r in rows} == {5}
    per_query = [r for r in rows if r[0] != "all"]
    assert len(per_query) == 6 and all(r[3:] == ["", ""] for r in per_query)
    values = per_topic(
        [ir_measures.AP],
        list(ir_measures.read_trec_qrels(str(QRELS))),
        list(ir_measures.read_trec_run(str(RUN))),
    )
    (ap,) = [r for r in rows if r[:2] == ["all", "AP"]]
    low, high = scipy_t(values["AP"], 0.95)
    assert (ap[3], ap[4]) == (f"{low:.4f}", f"{high:.4f}")
    # jsonl: per-query records as before, mean records with the two keys
    status, out, _ = run_cli([QRELS, RUN, "AP", "--ci", "0.95", "-q", "--format", "jsonl"])
    records = [json.loads(line) for line in out.splitlines()]
    assert all("ci_low" not in r for r in records if r["query_id"] != "all")
    (mean,) = [r for r in records if r["query_id"] == "all"]
    assert close((mean["ci_low"], mean["ci_high"]), (low, high))


def test_command_without_ci_is_unchanged():
    assert run_cli([QRELS, RUN, "AP P@10"])[1] == "AP\t0.1785\nP@10\t0.3000\n"


def test_command_sum_measures_get_empty_cells():
    status, out, err = run_cli([QRELS, RUN, "AP NumRet", "--ci", "0.95"])
    assert status == 0 and out.splitlines()[1] == "NumRet\t1500.0000\t\t"
    assert "NumRet" in err and "no interval" in err
    status, out, _ = run_cli([QRELS, RUN, "NumRet", "--ci", "0.95", "--format", "jsonl"])
    assert json.loads(out)["ci_low"] is None


@pytest.mark.parametrize(
    "options",
    [
        ["--ci", "1"],
        ["--ci", "0"],
        ["--ci", "1.5"],
        ["--ci", "nan"],
        ["--ci", "x"],
        ["--ci", "0.9", "--ci-method", "bca"],
        ["--ci", "0.9", "--ci-method", "bootstrap", "-B", "0"],
        ["--ci", "0.9", "--ci-method", "bootstrap", "-B", "many"],
        ["--ci", "0.9", "--ci-method", "bootstrap", "--seed", "-1"],
        ["--ci", "0.9", "-B", "100"],  # t has no resamples
        ["--ci-method", "t"],  # without --ci
        ["-B", "100"],
        ["--ci", "0.9", "-q", "-n"],  # no mean printed
        ["--ci", "0.9", "--format", "trec"],
    ],
)
def test_command_usage_errors(options):
    status, out, err = run_cli([QRELS, RUN, "AP", *options])
    assert status == 2 and out == "" and "error:" in err


# --------------------------------------------------------------------------------------------
# TREC Robust 2003: three runs, 100 topics, against scipy
# --------------------------------------------------------------------------------------------


@needs_shared("real", "trec-robust-2003")
@pytest.mark.parametrize("method", ["t", "bootstrap"])
def test_robust_three_runs(method):
    runs = sorted((ROBUST / "runs").glob("input.*"))[:3]
    qrels = ROBUST / "qrels" / "robust03_qrels.txt"
    want = _expected(qrels, runs, "AP nDCG@10", 0.95, method, 9999, 0)
    extra = [] if method == "t" else ["--ci-method", method]
    status, out, _ = run_cli([qrels, *runs, "AP nDCG@10", "--ci", "0.95", "--format", "jsonl", *extra])
    assert status == 0
    records = [json.loads(line) for line in out.splitlines()]
    assert len(records) == 6
    for r in records:
        mean, interval = want[r["run"]][r["measure"]]
        assert r["value"] == mean
        assert close((r["ci_low"], r["ci_high"]), interval), r
    # the Python function says the same
    got = ir_measures_pres.calc_intervals("AP nDCG@10", str(qrels), str(runs[0]), method=method, seed=0)
    for m, iv in got.items():
        assert iv.n == 100
        assert close((iv.low, iv.high), want[run_labels([str(p) for p in runs])[0]][str(m)][1])


# --------------------------------------------------------------------------------------------
# compare: each run's interval in its JSON and its tables' per-run rows
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["t", "bootstrap", "bootstrap-percentile"])
def test_compare_json_and_tables(method):
    pytest.importorskip("statsmodels")
    qrels, runs = _clef()
    runs = runs[:3]
    want = _expected(qrels, runs, "AP nDCG@10", 0.9, method, 999, 4)
    argv = ["compare", qrels, *runs, "-m", "AP", "nDCG@10", "--ci", "0.9", "-B", "999", "--seed", "4", "-q"]
    status, out, _ = run_cli([*argv, "--format", "json", "--run-ci", method])
    assert status == 0
    meta = json.loads(out)["metadata"]
    assert meta["parameters"]["run_ci"] == method
    for measure, by_run in meta["intervals"].items():
        for run, cells in by_run.items():
            mean, interval = want[run][measure]
            assert meta["means"][measure][run] == pytest.approx(mean, abs=1e-12)
            assert close((cells["ci_low"], cells["ci_high"]), interval), (measure, run)
    # without --run-ci the JSON holds the t intervals, and the tables are as before
    status, out, _ = run_cli([*argv, "--format", "json"])
    meta = json.loads(out)["metadata"]
    t_want = _expected(qrels, runs, "AP nDCG@10", 0.9, "t", 999, 4)
    assert all(
        close((c["ci_low"], c["ci_high"]), t_want[r][m][1])
        for m, b in meta["intervals"].items()
        for r, c in b.items()
    )
    plain = run_cli([*argv, "--format", "md"])[1]
    assert "interval over the topics" not in plain
    # the tables' per-run rows: "mean (low, high)" in text and Markdown, LaTeX in brackets
    for fmt, pattern in (
        ("text", "{:.4f} ({:.4f}, {:.4f})"),
        ("md", "{:.4f} ({:.4f}, {:.4f})"),
        ("latex", "[{1:.4f}, {2:.4f}]"),
    ):
        status, out, _ = run_cli([*argv, "--format", fmt, "--run-ci", method])
        for run, by_measure in want.items():
            for measure, (mean, (low, high)) in by_measure.items():
                cell = pattern.format(mean, low, high)
                if fmt != "latex":  # the best mean carries its mark between the mean and the interval
                    cell = cell.split(" (")[1]
                assert cell in out, (fmt, run, measure, cell)


def test_compare_run_ci_usage_error():
    status, _, err = run_cli(["compare", QRELS, RUN, RUN, "-m", "AP", "--run-ci", "bca"])
    assert status == 2 and "error:" in err
    with pytest.raises(ValueError, match="run_ci"):
        ir_measures_pres.compare(str(QRELS), [str(RUN), str(RUN)], "AP", run_ci="bca")


def test_command_without_scipy_says_which_extra(monkeypatch):
    """A bootstrap needs scipy (the meta extra); without it a usage error names the extra.
    Student's t needs no scipy, nor does the command without --ci."""
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "scipy" else real(name, *a)
    )
    status, out, err = run_cli([QRELS, RUN, "AP", "--ci", "0.95", "--ci-method", "bootstrap"])
    assert status == 2 and out == "" and "ir_measures_pres[meta]" in err
    assert run_cli([QRELS, RUN, "AP", "--ci", "0.95"])[0] == 0
    assert run_cli([QRELS, RUN, "AP"])[0] == 0


def test_student_t_loads_no_scipy():
    """--ci with Student's t computes its quantile in the package: scipy (a third of a second
    to load, a tenth of the command's time on 17 Robust runs) stays unloaded."""
    import subprocess
    import sys

    code = (
        "import sys; from ir_measures_pres.cli.evaluate import main; "
        f"status = main([{str(QRELS)!r}, {str(RUN)!r}, 'AP', '--ci', '0.95']); "
        "print(status, sorted(m for m in sys.modules if m.split('.')[0] == 'scipy'), file=sys.stderr)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stderr.strip().splitlines()[-1] == "0 []"
    name, mean, low, high = done.stdout.splitlines()[-1].split("\t")  # the mean row and its interval
    assert name == "AP" and float(low) < float(mean) < float(high)


#: degrees of freedom and levels the quantile is checked at (topic counts of test collections run
#: to about 7,000: MS MARCO's dev queries); t_quantile's docstring lists them: keep the two alike
DFS = [*range(1, 60), 64, 99, 100, 149, 249, 250, 499, 999, 1000, 2047, 4999, 6979, 10000]
LEVELS = [0.05, 0.5, 0.8, 0.9, 0.95, 0.975, 0.99, 0.999, 0.9999]


@pytest.mark.parametrize("level", LEVELS)
def test_t_quantile_is_scipys(level):
    """t_{(1+level)/2, df} against ``scipy.special.stdtrit`` (what ``scipy.stats.t.ppf`` is):
    within 1e-11 relative (the finite sums in double precision; 1e-12 up to df 1,000)."""
    from scipy.special import stdtrit

    from ir_measures_pres.stats.student import t_quantile

    for df in DFS:
        expected = float(stdtrit(df, (1.0 + level) / 2.0))
        assert t_quantile(level, df + 1) == pytest.approx(expected, rel=1e-12 if df <= 1000 else 1e-11), df


def test_t_quantile_by_hand():
    """Closed forms: df = 1 (Cauchy), t = tan(pi level / 2); df = 2, t = level sqrt(2 / (1 -
    level^2)); one topic: nan."""
    from ir_measures_pres.stats.student import student_coverage, t_quantile

    for level in (0.5, 0.9, 0.95, 0.99):
        assert t_quantile(level, 2) == pytest.approx(math.tan(math.pi * level / 2), rel=1e-13)
        assert t_quantile(level, 3) == pytest.approx(level * math.sqrt(2 / (1 - level**2)), rel=1e-13)
    assert math.isnan(t_quantile(0.95, 1))
    assert student_coverage(1.0, 1) == pytest.approx(0.5)  # atan(1) = pi / 4


def test_t_quantile_docstring_names_what_is_checked():
    """The docstring states the degrees of freedom and levels checked here, not a range."""
    from ir_measures_pres.stats.student import t_quantile

    doc = " ".join((t_quantile.__doc__ or "").split())
    assert f"1 to {DFS[58]}" in doc and DFS[59:] == [
        64,
        99,
        100,
        149,
        249,
        250,
        499,
        999,
        1000,
        2047,
        4999,
        6979,
        10000,
    ]
    for level in LEVELS:
        assert f"{level:g}" in doc
    for df in (64, 99, 100, 149, 249, 250, 499, 999, "1,000", "2,047", "4,999", "6,979", "10,000"):
        assert str(df) in doc


def test_the_docstring_examples_run():
    """stats/intervals.py's example prints what the code gives (it was skipped, and showed other
    numbers)."""
    import doctest

    from ir_measures_pres.stats import intervals

    result = doctest.testmod(intervals, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 4 and result.failed == 0
