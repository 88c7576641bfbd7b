"""The command line's argument rules, over every command and entry point.

* Options may come anywhere among the positional arguments, measures included (``QRELS RUN -q
  AP``, as the stock ``ir_measures`` command reads it): every ordering of one call prints the same.
* Every measure is parsed, and a provider found for it, before any input is opened: an
  unsupported measure is a usage error (2) whatever the files are.
* A bootstrap interval needs at least ``MIN_RESAMPLES`` resamples: fewer is a usage error (2) in
  the commands, a ValueError in Python; no library warning reaches the user.
* Errors speak the command line (the columns a file needs), a refused measure parameter gives the
  measure's own reason, and bad input is one error type (``InputError``) in every Python entry point.
* ``--header`` names tsv's columns, as many as every row has, with jsonl's names.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import warnings
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Callable, Dict, List, Sequence, Tuple

import ir_measures
import pytest
from conftest import DATA

import ir_measures_pres
from ir_measures_pres.cli.evaluate import main
from ir_measures_pres.data.inputs import InputError
from ir_measures_pres.stats.significance import MIN_RESAMPLES

SAMPLE = Path(ir_measures_pres.__file__).resolve().parent / "data" / "sample"
QRELS, RUN = str(SAMPLE / "qrels.test"), str(SAMPLE / "results.test")
TRUNC = str(DATA / "trec_eval_test" / "results.trunc")
TAR_QRELS = str(DATA / "clef-tar-2017" / "qrels" / "qrel_abs_test.txt")
TAR_RUN = str(DATA / "clef-tar-2017" / "runs" / "amc.run.gz")
PACKAGE_ROOT = str(Path(ir_measures_pres.__file__).resolve().parents[1])


def run_cli(argv: Sequence[str]) -> Tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err), warnings.catch_warnings():
        warnings.simplefilter("always")
        status = main([str(a) for a in argv])
    return status, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Dict[str, str]:
    """Files made from the sample collection: its qrels as sampled judgements (a stratum column)
    and as statAP's prels, and an empty file."""
    tmp = tmp_path_factory.mktemp("cli_args")
    lines = Path(QRELS).read_text().split("\n")
    rows = [line.split() for line in lines if line.strip()]
    (tmp / "qrels.sampled").write_text("".join(f"{q} {i} {d} s1 {r}\n" for q, i, d, r in rows))
    (tmp / "prels").write_text("".join(f"{q} {d} {r} 1 1.0\n" for q, _, d, r in rows))
    (tmp / "empty.txt").write_text("")
    # NTCIREVAL's diversity files: one intent per topic, P = 1, the level as Ln
    (tmp / "iprob").write_text("".join(f"{q} 1 1\n" for q in dict.fromkeys(q for q, *_ in rows)))
    (tmp / "dqrels").write_text("".join(f"{q} 1 {d} L{r}\n" for q, i, d, r in rows))
    return {name: str(tmp / name) for name in ("qrels.sampled", "prels", "empty.txt", "iprob", "dqrels")}


# --------------------------------------------------------------------------------------------
# options anywhere: every command, every ordering of one call prints the same
# --------------------------------------------------------------------------------------------

#: trec_eval 10's measures as docs/judgements.md's example names them
TREC10 = ["unj", "rbp", "rbp_resid", "yaap", "rbp.p=0.5", "unj.1,3,1000"]

#: command -> orderings of one call (the first is options last); {sampled}, {prels}: files
ORDERINGS: Dict[str, List[List[str]]] = {
    "main -q": [
        [QRELS, RUN, "AP", "P@10", "-q"],
        [QRELS, RUN, "-q", "AP", "P@10"],
        ["-q", QRELS, RUN, "AP", "P@10"],
        [QRELS, "-q", RUN, "AP", "P@10"],
        [QRELS, RUN, "AP", "-q", "P@10"],
    ],
    "main --ci": [
        [QRELS, RUN, "AP", "P@10", "--ci", "0.95"],
        [QRELS, RUN, "--ci", "0.95", "AP", "P@10"],
        [QRELS, RUN, "AP", "--ci", "0.95", "P@10"],
    ],
    "main runs": [
        [QRELS, RUN, TRUNC, "AP", "-p", "3", "--format", "jsonl"],
        [QRELS, "-p", "3", RUN, TRUNC, "AP", "--format", "jsonl"],
        [QRELS, RUN, "--format", "jsonl", TRUNC, "-p", "3", "AP"],
    ],
    # docs/judgements.md's example (its placeholders: the sample collection)
    "main trec": [
        [
            QRELS,
            RUN,
            "unj",
            "rbp",
            "rbp_resid",
            "yaap",
            "rbp.p=0.5",
            "unj.1,3,1000",
            "-q",
            "--format",
            "trec",
        ],
        [
            QRELS,
            RUN,
            "-q",
            "--format",
            "trec",
            "unj",
            "rbp",
            "rbp_resid",
            "yaap",
            "rbp.p=0.5",
            "unj.1,3,1000",
        ],
    ],
    "compare": [
        ["compare", QRELS, RUN, TRUNC, "-m", "AP", "P@10", "--quiet"],
        ["compare", "--quiet", QRELS, RUN, TRUNC, "-m", "AP", "P@10"],
        ["compare", QRELS, RUN, "--quiet", TRUNC, "-m", "AP", "P@10"],
        ["compare", QRELS, RUN, TRUNC, "-m", "AP", "--quiet", "-m", "P@10"],
    ],
    "agreement": [
        ["agreement", QRELS, RUN, TRUNC, "-m", "AP", "P@10", "--quiet"],
        ["agreement", QRELS, "--quiet", RUN, TRUNC, "-m", "AP", "-m", "P@10"],
    ],
    "robustness": [
        ["robustness", QRELS, RUN, TRUNC, "-m", "AP", "--samples", "1", "--fractions", "0.5", "--quiet"],
        ["robustness", QRELS, "--samples", "1", RUN, "--quiet", TRUNC, "--fractions", "0.5", "-m", "AP"],
    ],
    "discriminative-power": [
        ["discriminative-power", QRELS, RUN, TRUNC, "-m", "AP", "-B", "100", "--quiet"],
        ["discriminative-power", QRELS, "-B", "100", RUN, TRUNC, "--quiet", "-m", "AP"],
    ],
    "sensitivity": [
        ["sensitivity", QRELS, RUN, TRUNC, "-m", "AP", "-B", "10", "--quiet"],
        ["sensitivity", "--quiet", QRELS, RUN, "-B", "10", TRUNC, "-m", "AP"],
    ],
    "curves": [
        ["curves", QRELS, RUN, "--kind", "dcg", "--depth", "5"],
        ["curves", "--kind", "dcg", QRELS, RUN, "--depth", "5"],
        ["curves", QRELS, "--depth", "5", RUN, "--kind", "dcg"],
    ],
    "curves histogram": [
        ["curves", QRELS, RUN, TRUNC, "--kind", "histogram", "-m", "AP"],
        ["curves", QRELS, RUN, "--kind", "histogram", TRUNC, "-m", "AP"],
    ],
    "tar": [
        ["tar", TAR_QRELS, TAR_RUN, "--edition", "2017"],
        ["tar", TAR_QRELS, "--edition", "2017", TAR_RUN],
        ["tar", "--edition", "2017", TAR_QRELS, TAR_RUN],
    ],
    "ntcir": [
        ["ntcir", QRELS, RUN, "-cutoffs", "10", "--mean"],
        ["ntcir", QRELS, "-cutoffs", "10", RUN, "--mean"],
        ["ntcir", "--mean", "-cutoffs", "10", QRELS, RUN],
    ],
    "sampled": [
        ["sampled", "{sampled}", RUN, TRUNC, "-q"],
        ["sampled", "{sampled}", "-q", RUN, TRUNC],
        ["sampled", "-q", "{sampled}", RUN, TRUNC],
    ],
    # trec_eval takes its measures with -m, as the binary does; its options may follow the files
    "trec_eval": [
        ["trec_eval", "-q", "-m", "map", "-m", "P.5", QRELS, RUN],
        ["trec_eval", QRELS, "-q", RUN, "-m", "map", "-m", "P.5"],
        ["trec_eval", QRELS, RUN, "-m", "map", "-q", "-m", "P.5"],
    ],
    "diversity": [
        [
            "diversity",
            "D-NTCIR-eval",
            "{iprob}",
            "{dqrels}",
            RUN,
            "--cutoff",
            "10",
            "--digits",
            "5",
            "--mean",
        ],
        [
            "diversity",
            "D-NTCIR-eval",
            "{iprob}",
            "--cutoff",
            "10",
            "{dqrels}",
            RUN,
            "--mean",
            "--digits",
            "5",
        ],
        [
            "diversity",
            "--mean",
            "--digits",
            "5",
            "--cutoff",
            "10",
            "D-NTCIR-eval",
            "{iprob}",
            "{dqrels}",
            RUN,
        ],
    ],
    "sampled statap": [
        ["sampled", "--tool", "statap", "{prels}", RUN, "-q"],
        ["sampled", "{prels}", "--tool", "statap", RUN, "-q"],
        ["sampled", "{prels}", "-q", RUN, "--tool", "statap"],
    ],
}


def _filled(argv: Sequence[str], files: Dict[str, str]) -> List[str]:
    named = {
        "{sampled}": files["qrels.sampled"],
        "{prels}": files["prels"],
        "{iprob}": files["iprob"],
        "{dqrels}": files["dqrels"],
    }
    return [named.get(a, a) for a in argv]


def test_every_command_is_walked() -> None:
    """ORDERINGS covers the main command and every subcommand its --help lists."""
    from ir_measures_pres.cli.evaluate import SUBCOMMANDS

    walked = {key.split()[0] for key in ORDERINGS}
    assert walked == {"main", *SUBCOMMANDS}


@pytest.mark.parametrize("command", list(ORDERINGS))
def test_options_may_come_anywhere(command: str, files: Dict[str, str]) -> None:
    """Every ordering of a call exits 0 and prints what the options-last ordering prints."""
    first, *others = [_filled(argv, files) for argv in ORDERINGS[command]]
    status, expected, err = run_cli(first)
    assert status == 0, err
    assert expected.strip()
    for argv in others:
        got = run_cli(argv)
        assert got[:2] == (0, expected), (argv, got[2])


def test_measures_after_options_match_ir_measures() -> None:
    """``QRELS RUN -q AP``: the per-query and mean values of the stock ir_measures command's
    reading, computed here by ir_measures itself."""
    status, out, err = run_cli([QRELS, RUN, "-q", "AP"])
    assert status == 0, err
    qrels = list(ir_measures.read_trec_qrels(QRELS))
    run = list(ir_measures.read_trec_run(RUN))
    expected = {m.query_id: m.value for m in ir_measures.iter_calc([ir_measures.AP], qrels, run)}
    expected["all"] = ir_measures.calc_aggregate([ir_measures.AP], qrels, run)[ir_measures.AP]
    rows = [line.split("\t") for line in out.splitlines()]
    assert {q: float(v) for q, m, v in rows} == pytest.approx({q: round(v, 4) for q, v in expected.items()})


def _subprocess(args: Sequence[str]) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([PACKAGE_ROOT, os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env, timeout=300)


#: the entry points: the console script's function, ``python -m ir_measures_pres`` and the meta
#: commands' own ``python -m ir_measures_pres.meta``
ENTRY_POINTS = {
    "console script": ["-c", "import sys; from ir_measures_pres.cli import main; sys.exit(main())"],
    "python -m ir_measures_pres": ["-m", "ir_measures_pres"],
}


@pytest.mark.parametrize("entry", list(ENTRY_POINTS))
def test_entry_points_take_options_anywhere(entry: str) -> None:
    done = _subprocess([*ENTRY_POINTS[entry], QRELS, RUN, "--ci", "0.95", "AP", "P@10"])
    assert done.returncode == 0, done.stderr
    assert run_cli([QRELS, RUN, "AP", "P@10", "--ci", "0.95"])[1] == done.stdout
    done = _subprocess([*ENTRY_POINTS[entry], "agreement", QRELS, RUN, "--quiet", TRUNC, "-m", "AP", "P@10"])
    assert done.returncode == 0, done.stderr
    assert run_cli(ORDERINGS["agreement"][0])[1] == done.stdout


def test_meta_entry_point_takes_options_anywhere() -> None:
    done = _subprocess(["-m", "ir_measures_pres.meta", "agreement", QRELS, RUN, "--quiet", TRUNC, "-m", "AP"])
    assert done.returncode == 0, done.stderr
    assert run_cli(["agreement", QRELS, RUN, TRUNC, "-m", "AP", "--quiet"])[1] == done.stdout


# --------------------------------------------------------------------------------------------
# measures are checked before any input is opened
# --------------------------------------------------------------------------------------------

#: every command that takes measures, with the measure as {m} and the qrels as {q}
MEASURE_COMMANDS = {
    "main": ["{q}", RUN, "{m}"],
    "compare": ["compare", "{q}", RUN, TRUNC, "-m", "{m}"],
    "agreement": ["agreement", "{q}", RUN, TRUNC, "-m", "{m}"],
    "robustness": ["robustness", "{q}", RUN, TRUNC, "-m", "{m}"],
    "discriminative-power": ["discriminative-power", "{q}", RUN, TRUNC, "-m", "{m}"],
    "sensitivity": ["sensitivity", "{q}", RUN, TRUNC, "-m", "{m}"],
    "curves": ["curves", "{q}", RUN, TRUNC, "--kind", "histogram", "-m", "{m}"],
}


def _provider_of(measure: object) -> List[str]:
    """The installed providers of ir_measures' default pipeline that compute ``measure``."""
    return [p.NAME for p in ir_measures.DefaultPipeline.providers if p.is_available() and p.supports(measure)]


@pytest.mark.parametrize("command", list(MEASURE_COMMANDS))
@pytest.mark.parametrize("qrels", ["empty.txt", "sample", "missing"])
def test_unsupported_measure_before_any_file(command: str, qrels: str, files: Dict[str, str]) -> None:
    """A measure no installed provider computes (RBP: cwl_eval's, and only with rel=) is a usage
    error naming it, whether the qrels are empty, good or missing: no file was opened."""
    measure = "RBP(rel=1)" if not _provider_of(ir_measures.parse_measure("RBP(rel=1)")) else "RBP"
    assert not _provider_of(ir_measures.parse_measure(measure))
    path = {"empty.txt": files["empty.txt"], "sample": QRELS, "missing": "no/such/qrels"}[qrels]
    argv = [path if a == "{q}" else measure if a == "{m}" else a for a in MEASURE_COMMANDS[command]]
    status, out, err = run_cli(argv)
    assert (status, out) == (2, "")
    assert (
        err.startswith(f"ir_measures_pres: error: unsupported measure '{measure}'") and err.count("\n") == 1
    )


def test_unsupported_measure_says_which_provider_would() -> None:
    status, _, err = run_cli([QRELS, RUN, "alpha_nDCG@10"])
    if _provider_of(ir_measures.parse_measure("alpha_nDCG@10")):
        pytest.skip("pyndeval is installed here")
    assert status == 2
    assert "pyndeval would: pip install" in err


# --------------------------------------------------------------------------------------------
# resamples of a bootstrap interval
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["bootstrap", "bootstrap-percentile"])
@pytest.mark.parametrize("B", [1, 2, MIN_RESAMPLES - 1])
def test_too_few_resamples_is_a_usage_error(method: str, B: int) -> None:
    """``-B 1`` gave a NaN with raw numpy warnings (BCa) or an 'interval' that excluded the mean
    (percentile); below the documented minimum it is refused, one line, exit 2."""
    status, out, err = run_cli([QRELS, RUN, "AP", "--ci", "0.95", "--ci-method", method, "-B", str(B)])
    assert (status, out) == (2, "")
    assert err == (
        f"ir_measures_pres: error: -B {B}: a bootstrap interval needs at least {MIN_RESAMPLES} resamples "
        "(see 'ir_measures_pres --help')\n"
    )
    with pytest.raises(ValueError, match=f"at least {MIN_RESAMPLES} resamples"):
        ir_measures_pres.calc_intervals("AP", QRELS, RUN, method=method, n_resamples=B)
    status, out, err = run_cli(["compare", QRELS, RUN, TRUNC, "-m", "AP", "--run-ci", method, "-B", str(B)])
    assert (status, out) == (2, "") and err.count("\n") == 1 and f"at least {MIN_RESAMPLES}" in err
    with pytest.raises(ValueError, match=f"at least {MIN_RESAMPLES} resamples"), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the truncated run lacks a topic: said, not under test
        ir_measures_pres.compare(QRELS, [RUN, TRUNC], "AP", run_ci=method, B=B)


@pytest.mark.parametrize("method", ["bootstrap", "bootstrap-percentile"])
def test_the_minimum_gives_an_interval_around_the_mean(method: str) -> None:
    """At the minimum: no warning, and the interval holds the mean (ir_measures' mean)."""
    status, out, err = run_cli(
        [QRELS, RUN, "AP", "--ci", "0.95", "--ci-method", method, "-B", str(MIN_RESAMPLES)]
    )
    assert (status, err) == (0, "")
    _, mean, low, high = out.split("\t")
    qrels, run = list(ir_measures.read_trec_qrels(QRELS)), list(ir_measures.read_trec_run(RUN))
    assert float(mean) == round(ir_measures.calc_aggregate([ir_measures.AP], qrels, run)[ir_measures.AP], 4)
    assert float(low) <= float(mean) <= float(high)


def test_help_states_the_minimum() -> None:
    status, out, _ = run_cli(["--help"])
    assert status == 0 and f"at least {MIN_RESAMPLES}" in out


# --------------------------------------------------------------------------------------------
# errors in the command line's words
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("command", list(MEASURE_COMMANDS))
def test_sampled_measures_on_4_column_qrels_name_the_five_columns(command: str) -> None:
    """xinfAP on a 4-column file, in every command that takes measures: the 5 columns it needs,
    not a Python reader or a DataFrame."""
    argv = [QRELS if a == "{q}" else "xinfAP" if a == "{m}" else a for a in MEASURE_COMMANDS[command]]
    status, out, err = run_cli(argv)
    assert (status, out) == (1, "")
    assert err == (
        f"ir_measures_pres: error: {QRELS}: expected sampled judgements, 5 columns "
        "(qid iter docno stratum relevance), found a 4-column qrels file\n"
    )


@pytest.mark.parametrize("argv", [["sampled", "{empty}", RUN], ["{empty}", RUN, "xinfAP"]])
def test_empty_sampled_qrels_name_the_five_columns(argv: List[str], files: Dict[str, str]) -> None:
    """An empty file where sampled judgements are needed: their 5 columns, not the 4 of qrels."""
    empty = files["empty.txt"]
    status, out, err = run_cli([empty if a == "{empty}" else a for a in argv])
    assert (status, out) == (1, "")
    assert err == (
        f"ir_measures_pres: error: {empty}: expected qrels lines (qid iter docno stratum relevance), "
        "found an empty file\n"
    )


@pytest.mark.parametrize(
    "token", ["QMeasure(gains={1:5,2:1})", "QMeasure(gains={1: 5, 2: 1})", "nDCG(gains={0:0,1:-1})@10"]
)
def test_a_refused_parameter_gives_the_measures_reason(token: str) -> None:
    """A dict parameter holding commas was split at them and reported as a syntax error; the
    reason is the measure's own, as ``ir_measures.parse_measure`` raises it."""
    try:
        ir_measures.parse_measure(token)
    except Exception as error:  # noqa: BLE001 - whatever the measure raises: its text is the reason
        reason = str(error)
    else:
        pytest.skip(f"ir_measures accepts {token}")
    status, _, err = run_cli([QRELS, RUN, token])
    assert status == 2
    assert err == f"ir_measures_pres: error: invalid measure {token!r}: {reason}\n"


def test_a_syntax_error_is_still_named() -> None:
    status, _, err = run_cli([QRELS, RUN, "QMeasure(gains={1:5,2:1}, beta=O.5)"])
    assert status == 2
    assert "parameter 'beta': 'O.5' is not a value" in err


# --------------------------------------------------------------------------------------------
# one error type for bad input in Python
# --------------------------------------------------------------------------------------------

MISSING = "no/such/file.txt"

ENTRY_POINTS_PY: Dict[str, Callable[[], object]] = {
    "calc_intervals run": lambda: ir_measures_pres.calc_intervals("AP", QRELS, MISSING),
    "calc_intervals run, qrels object": lambda: ir_measures_pres.calc_intervals(
        "AP", {"301": {"d": 1}}, MISSING
    ),
    "calc_intervals qrels": lambda: ir_measures_pres.calc_intervals("AP", MISSING, RUN),
    "calc_bounds run": lambda: ir_measures_pres.calc_bounds("AP", QRELS, MISSING),
    "calc_bounds qrels": lambda: ir_measures_pres.calc_bounds("AP", MISSING, RUN),
    "read_qrels": lambda: __import__("ir_measures_pres.data.readers").data.readers.read_qrels(MISSING),
    "read_run": lambda: __import__("ir_measures_pres.data.readers").data.readers.read_run(MISSING),
    "read_prels": lambda: __import__("ir_measures_pres.data.prels").data.prels.read_prels(MISSING),
    "iter_calc_blocks": lambda: list(ir_measures_pres.iter_calc_blocks(["AP"], QRELS, MISSING)),
    "compare": lambda: ir_measures_pres.compare(QRELS, [MISSING, RUN], "AP"),
    "compare_scores": lambda: ir_measures_pres.compare_scores([MISSING, RUN], "AP"),
}


@pytest.mark.parametrize("entry", list(ENTRY_POINTS_PY))
def test_a_missing_file_is_an_input_error_everywhere(entry: str) -> None:
    """``calc_intervals`` raised FileNotFoundError where ``calc_bounds`` raised InputError: every
    entry point raises InputError (a ValueError) naming the file."""
    with pytest.raises(InputError, match="no/such/file.txt"):
        ENTRY_POINTS_PY[entry]()


def test_a_missing_file_is_still_a_file_not_found_error() -> None:
    from ir_measures_pres.data.readers import read_run

    with pytest.raises(FileNotFoundError):
        read_run(MISSING)


# --------------------------------------------------------------------------------------------
# --header
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [[], ["-q"], ["--ci", "0.95"], ["--bounds"], ["-q", "--ci", "0.95", "--bounds"]],
)
@pytest.mark.parametrize("runs", [[RUN], [RUN, TRUNC]])
def test_header_names_every_column(options: List[str], runs: List[str]) -> None:
    """The header line has as many fields as every row, and names them as jsonl's keys."""
    status, out, err = run_cli([QRELS, *runs, "AP", *options, "--header"])
    assert status == 0, err
    header, *rows = out.splitlines()
    names = header.split("\t")
    assert rows and all(len(row.split("\t")) == len(names) for row in rows)
    status, jsonl, _ = run_cli([QRELS, *runs, "AP", *options, "--format", "jsonl"])
    keys = {k for line in jsonl.splitlines() for k in json.loads(line)} - {"residual"}
    assert set(names) == keys
    assert run_cli([QRELS, *runs, "AP", *options])[1] == "\n".join(rows) + "\n"


def test_help_names_the_columns_in_the_headers_order() -> None:
    """--help's column list, its optional brackets set aside, is the header of a call that has
    every column."""
    _, out, _ = run_cli(["--help"])
    listed = next(line for line in out.splitlines() if line.strip().startswith("[run]"))
    _, printed, _ = run_cli([QRELS, RUN, TRUNC, "AP", "-q", "--ci", "0.95", "--bounds", "--header"])
    assert listed.replace("[", "").replace("]", "").split() == printed.splitlines()[0].split("\t")


def test_header_is_for_tsv() -> None:
    status, out, err = run_cli([QRELS, RUN, "AP", "--header", "--format", "jsonl"])
    assert (status, out) == (2, "") and err.count("\n") == 1
