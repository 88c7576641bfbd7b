"""``ir_measures_pres trec_eval`` copies trec_eval 10.0 off the quick test's path too.

One test per class of behaviour that the generated differential cases
(``../shared/data/trec_eval_diff/``, what trec_eval 10.0 printed for each) showed apart, each on
a tiny input. Expected values come from the tool: its recorded outputs (the cases, replayed
in-process), the quick-test values the tool printed, or arithmetic from its C source written out
here; never from this package's output.
"""

from __future__ import annotations

import base64
import gzip
import io
import json
import os
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

from ir_measures_pres.cli.trec_eval import TrecEvalError, run, trec_eval_cli

TE = Path(__file__).parent / "data" / "trec_eval_test"
CASES = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "trec_eval_diff" / "cases.jsonl.gz"


def _run(args: List[str], cwd: Path) -> Tuple[int, str]:
    """The command in-process in ``cwd``: (exit status, standard output)."""
    out = io.StringIO()
    here = os.getcwd()
    os.chdir(cwd)
    try:
        try:
            return run(args, out), out.getvalue()
        except TrecEvalError as error:
            return error.status, out.getvalue()
    finally:
        os.chdir(here)


def _command(args: List[str], cwd: Path, capsys: pytest.CaptureFixture[str]) -> Tuple[int, str, str]:
    """The subcommand in-process in ``cwd``, its errors as one line: (status, stdout, stderr)."""
    here = os.getcwd()
    os.chdir(cwd)
    try:
        code = trec_eval_cli(args)
    finally:
        os.chdir(here)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _lines(text: str) -> Dict[Tuple[str, str], str]:
    return {(n.strip(), q): v for n, q, v in (line.split("\t") for line in text.splitlines())}


def _write(folder: Path, **files: str) -> Path:
    for name, text in files.items():
        (folder / name).write_text(text)
    return folder


# --------------------------------------------------------------------------------------------
# the tool's own outputs: one generated case per class, replayed byte for byte
# --------------------------------------------------------------------------------------------

#: seed -> what the case shows (the class of the issue it stands for)
TOOL_CASES = {
    180: "duplicates past -M are not checked; -M 0 keeps nothing",
    317: "-c -M 3: a document listed twice at ranks past 3",
    578: "num_q alone never forms the lists: no duplicate check",
    49: "NaN: iprec_at_recall of an empty list (-M 0) prints -nan",
    282: "NaN under -J -l -1",
    61: "NaN: Rndcg with -l 0 and no positive gain",
    528: "inf: map_avgjg under -l -1",
    83: "-l -1: num_rel_ret counts judged documents only",
    146: "-l -1: set_relative_P over the judged count",
    10: "-l -1: binG and infAP",
    463: "-l -1: Rprec_mult's backward scan",
    584: "-l -1: yaap counts every list value >= -l",
    214: "-c -l -1: num_rel's summary counts level > 0 lines",
    481: "-c -l 3: num_rel's summary ignores -l",
    433: "-c -Z: Znum_rel's summary is the count",
    522: "-c -M 0 -Z: Znum_rel",
    474: "-c -J: a missing topic's bogus ranking is dropped by -J",
    230: "rbp.p=0 gives values",
    579: "gains compared as trec_eval's qsort compares them",
}


def _cases() -> Dict[int, dict]:
    if not CASES.exists():
        return {}
    wanted = set(TOOL_CASES)
    with gzip.open(CASES, "rt") as f:
        return {r["seed"]: r for r in map(json.loads, f) if r["seed"] in wanted}


@pytest.fixture(scope="module")
def tool_cases() -> Dict[int, dict]:
    cases = _cases()
    if not cases:
        pytest.skip("the shared differential cases are not here")
    return cases


@pytest.mark.parametrize("seed", sorted(TOOL_CASES), ids=lambda s: f"{s}-{TOOL_CASES[s][:30]}")
def test_the_tools_recorded_output(seed: int, tool_cases: Dict[int, dict], tmp_path: Path) -> None:
    case = tool_cases[seed]
    for name, data in case["files"].items():
        (tmp_path / name).write_bytes(base64.b64decode(data))
    assert case["rc"] == 0
    status, out = _run(case["args"], tmp_path)
    assert status == 0
    assert out.encode("utf-8", "surrogateescape") == base64.b64decode(case["stdout"])


# --------------------------------------------------------------------------------------------
# 1. -c: a topic the run lacks is scored on the tool's one-document bogus ranking
# --------------------------------------------------------------------------------------------


def test_c_scores_a_missing_topic_on_the_bogus_ranking() -> None:
    """trec_eval 10.0 on the quick test (results.trunc lacks 302): ``utility.2,-1,0,0`` is
    2 * 0 - 1 * 1 = -1 on the one unjudged document, the mean over 4 topics -118.0000;
    ``relstring.5`` is '-' (that document, not in the pool); ``rbp_resid.p=0.5`` is
    1 - 0 = 1.0000 (all unjudged). The names trec_eval resets exactly (``utility``,
    ``relstring``, ``rbp_resid``, ``num_ret``, ``unj*``) print 0 / ''."""
    _, out = _run(["-c", "-q", "-m", "utility.2,-1,0,0", "qrels.test", "results.trunc"], TE)
    assert _lines(out)[("utility_2,-1,0,0", "302")] == "-1.0000"
    assert _lines(out)[("utility_2,-1,0,0", "all")] == "-118.0000"
    _, out = _run(
        ["-c", "-q", "-m", "relstring.5", "-m", "rbp_resid.p=0.5", "qrels.test", "results.trunc"], TE
    )
    assert _lines(out)[("relstring_5", "302")] == "'-'"
    assert _lines(out)[("rbp_resid_p=0.5", "302")] == "1.0000"
    assert _lines(out)[("rbp_resid_p=0.5", "all")] == "0.3334"
    names = ["utility", "relstring", "rbp_resid", "num_ret", "unj"]
    _, out = _run(["-c", "-q", *[a for n in names for a in ("-m", n)], "qrels.test", "results.trunc"], TE)
    reset = {n: v for (n, q), v in _lines(out).items() if q == "302"}
    assert reset == {
        "utility": "0.0000",
        "relstring": "''",
        "rbp_resid": "0.0000",
        "num_ret": "0",
        "unj_5": "0.0000",
        "unj_10": "0.0000",
        "unj_20": "0.0000",
    }


# --------------------------------------------------------------------------------------------
# 2. num_rel's summary under -c, and under -c -Z
# --------------------------------------------------------------------------------------------


def test_num_rel_under_c_counts_level_above_0_over_every_topic(tmp_path: Path) -> None:
    """trec_eval 10.0: ``-c -l2 -m num_rel qrels.rel_level results.test`` prints 559 (the lines
    of level > 0, ignoring -l). Tiny: judgements q1 a 1, q1 b 0, q2 c 2, q2 d -1 give 2 (a and
    c), -l 2 or not, and under -Z the count replaces the sum of the z-scores: 2.0000."""
    _, out = _run(["-c", "-l2", "-m", "num_rel", "qrels.rel_level", "results.test"], TE)
    assert out == "num_rel               \tall\t559\n"
    _write(tmp_path, qrels="q1 0 a 1\nq1 0 b 0\nq2 0 c 2\nq2 0 d -1\n", run="q1 Q0 a 1 1 r\n")
    _write(tmp_path, zfile="q1 num_rel 5 1\nq2 num_rel 0 1\n")
    _, out = _run(["-c", "-l2", "-m", "num_rel", "qrels", "run"], tmp_path)
    assert out == "num_rel               \tall\t2\n"
    _, out = _run(["-c", "-Z", "zfile", "-m", "num_rel", "qrels", "run"], tmp_path)
    assert out == "Znum_rel               \tall\t2.0000\n"


# --------------------------------------------------------------------------------------------
# 3. negative levels and -l <= 0
# --------------------------------------------------------------------------------------------


def test_negative_l_counts_judged_documents_in_num_rel_ret(tmp_path: Path) -> None:
    """form_res_rels counts num_rel_ret over judged documents (level >= 0) only, while P's loop
    compares every list value with -l. Judgements a 1, b 0, c -1 (in the pool, unjudged); the
    run a, x (not in the pool, -1), c (-2), b. With -l -1: num_rel = judged at >= -1 = 2,
    num_rel_ret = a, b = 2 (not 3), set_relative_P = 2 / min(4, 2) = 1, P_5 = (a, x, b) / 5 =
    0.6."""
    _write(
        tmp_path,
        qrels="q1 0 a 1\nq1 0 b 0\nq1 0 c -1\n",
        run="q1 Q0 a 1 4 r\nq1 Q0 x 2 3 r\nq1 Q0 c 3 2 r\nq1 Q0 b 4 1 r\n",
    )
    _, out = _run(
        [
            "-q",
            "-l",
            "-1",
            "-m",
            "num_rel",
            "-m",
            "num_rel_ret",
            "-m",
            "set_relative_P",
            "-m",
            "P.5",
            "qrels",
            "run",
        ],
        tmp_path,
    )
    got = _lines(out)
    assert got[("num_rel", "q1")] == "2"
    assert got[("num_rel_ret", "q1")] == "2"
    assert got[("set_relative_P", "q1")] == "1.0000"
    assert got[("P_5", "q1")] == "0.6000"


# --------------------------------------------------------------------------------------------
# 4. NaN and inf as the C library prints them
# --------------------------------------------------------------------------------------------


def test_zero_by_zero_prints_minus_nan(tmp_path: Path) -> None:
    """m_iprec_at_recall.c: precis = num_rel_ret / num_ret, 0 / 0 on a list -M 0 empties, and the
    cutoffs at 0 relevant documents take it: glibc prints ``  -nan``; 11pt_avg averages it."""
    _write(tmp_path, qrels="q1 0 a 1\n", run="q1 Q0 a 1 1 r\n")
    _, out = _run(["-M", "0", "-m", "iprec_at_recall.0", "-m", "11pt_avg", "qrels", "run"], tmp_path)
    assert out == "iprec_at_recall_0.00  \tall\t  -nan\n11pt_avg              \tall\t  -nan\n"


# --------------------------------------------------------------------------------------------
# 5. duplicates among the kept documents only
# --------------------------------------------------------------------------------------------


def test_a_document_twice_past_m_is_not_a_duplicate(tmp_path: Path) -> None:
    """form_res_rels checks duplicates after cutting at -M: d listed at ranks 3 and 4, -M 2
    keeps a, b (P_2 = 1 / 2, a relevant); -M 4 keeps both copies of d: exit 4."""
    run_text = "q1 Q0 a 1 4 r\nq1 Q0 b 2 3 r\nq1 Q0 d 3 2 r\nq1 Q0 d 4 1 r\n"
    _write(tmp_path, qrels="q1 0 a 1\n", run=run_text)
    status, out = _run(["-M", "2", "-m", "P.2", "qrels", "run"], tmp_path)
    assert (status, out) == (0, "P_2                   \tall\t0.5000\n")
    assert _run(["-M", "4", "-m", "P.2", "qrels", "run"], tmp_path)[0] == 4


# --------------------------------------------------------------------------------------------
# 7, 8. parameters read as the tool reads them
# --------------------------------------------------------------------------------------------


def test_parameters_read_with_strtol_and_atof(tmp_path: Path) -> None:
    """meas_init.c reads cutoffs with strtol: ``P.1e2`` is P_1 and ``ndcg_cut.1e20`` is
    ndcg_cut_1. Judgements a 1; run a, b: P_1 = 1, ndcg_cut_1 = 1."""
    _write(tmp_path, qrels="q1 0 a 1\n", run="q1 Q0 a 1 2 r\nq1 Q0 b 2 1 r\n")
    _, out = _run(["-m", "P.1e2", "-m", "ndcg_cut.1e20", "qrels", "run"], tmp_path)
    assert out == "P_1                   \tall\t1.0000\nndcg_cut_1            \tall\t1.0000\n"


def test_gains_sorted_as_trec_evals_qsort_sorts_them(tmp_path: Path) -> None:
    """gain_init.c's comp_rel_gain returns the gains' difference as an int: 0.5 and 0 compare
    equal, the sort keeps level 1 (0.5) below level 0 (0), the ideal walk starts at gain 0 and
    finds nothing: trec_eval 10.0 prints ndcg.1=0.5 as 0.0000 (the issue's quick-test value)."""
    _, out = _run(["-m", "ndcg.1=0.5", "qrels.test", "results.test"], TE)
    assert out == "ndcg_1=0.5            \tall\t0.0000\n"


def test_lenient_parameters(tmp_path: Path) -> None:
    """trec_eval 10.0 keeps the first parameters of a measure (a second ``-m P.0`` is never
    read), ignores the parameters of a measure that has none (``map.5``) and of a nickname
    (``official.5``), the gain pairs whose level is not an integer (``ndcg.x=2``), and reads
    rbp's p as any number: p = 0 is the gain at rank 1, (1 - 0) * 1 = 1."""
    _write(tmp_path, qrels="q1 0 a 1\nq1 0 b 0\n", run="q1 Q0 a 1 2 r\nq1 Q0 b 2 1 r\n")
    _, out = _run(["-m", "P.1", "-m", "P.0", "qrels", "run"], tmp_path)
    assert out == "P_1                   \tall\t1.0000\n"
    assert (
        _run(["-m", "map.5", "qrels", "run"], tmp_path)[1] == _run(["-m", "map", "qrels", "run"], tmp_path)[1]
    )
    assert _run(["-m", "official.5", "qrels", "run"], tmp_path)[1] == _run(["qrels", "run"], tmp_path)[1]
    _, out = _run(["-m", "ndcg.x=2", "qrels", "run"], tmp_path)
    assert out == "ndcg_x=2              \tall\t1.0000\n"
    _, out = _run(["-m", "rbp.p=0", "qrels", "run"], tmp_path)
    assert out == "rbp_p=0               \tall\t1.0000\n"


# --------------------------------------------------------------------------------------------
# 9, 10. exit statuses and lines
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "files, args, status, words",
    [
        ({}, ["-m", "utility.1,2", "qrels", "run"], 4, "4 coefficients"),
        ({}, ["-Z", "nosuch", "qrels", "run"], 255, "nosuch"),
        ({"zfile": "q1 map x\n"}, ["-Z", "zfile", "qrels", "run"], 255, "zfile:1"),
        ({"run": "# nothing\n\n"}, ["qrels", "run"], 4, "comment or blank"),
        ({"qrels": "q1 0 a 1\n\nq1 0 b 0\n"}, ["qrels", "run"], 2, "qrels:2: Malformed line"),
        ({"qrels": "q1 0 a 1\n \t\n"}, ["qrels", "run"], 2, "qrels:2: Malformed line"),
        ({"qrels": "# one\n# two\nq1 0 a 1\n"}, ["qrels", "run"], 2, "qrels:2: Malformed line"),
        ({"qrels": "q1 0 a s1 1\n"}, ["qrels", "run"], 2, "qrels:1: Malformed line"),
        ({}, ["-M", "-5", "qrels", "run"], 1, "-M"),
        ({}, ["-x", "qrels", "run"], 1, "option -x not recognized"),
        ({}, ["qrels"], 1, "need a rel_info_file"),
    ],
)
def test_exit_statuses_and_one_line(
    files: Dict[str, str],
    args: List[str],
    status: int,
    words: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _write(tmp_path, qrels="q1 0 a 1\n", run="q1 Q0 a 1 1 r\n")
    _write(tmp_path, **files)
    code, out, err = _command(args, tmp_path, capsys)
    assert (code, out) == (status, "")
    assert err.count("\n") == 1 and err.startswith("ir_measures_pres: error: trec_eval: ") and words in err, (
        err
    )


def test_one_comment_line_is_skipped(tmp_path: Path) -> None:
    """One comment line between judgements is skipped (the tool's quick test has them)."""
    _write(tmp_path, qrels="q1 0 a 1\n# one\nq1 0 b 0\n", run="q1 Q0 b 1 2 r\nq1 Q0 a 2 1 r\n")
    assert _run(["-m", "P.2", "qrels", "run"], tmp_path) == (0, "P_2                   \tall\t0.5000\n")


def test_several_results_files_say_whose_blocks_are_printed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With several results files and one failing, each printed block is the tool's block of its
    file and one stderr line names the failed file and the printed files in order."""
    _write(tmp_path, qrels="q1 0 a 1\n", good="q1 Q0 a 1 1 r\n", bad="# nothing\n", other="q1 Q0 b 1 1 r\n")
    code, out, err = _command(["-m", "P.1", "qrels", "good", "bad", "other"], tmp_path, capsys)
    assert code == 4
    assert out == "P_1                   \tall\t1.0000\nP_1                   \tall\t0.0000\n"
    assert (
        "trec_eval: the output holds the blocks of good, other, in this order; bad could not be evaluated"
        in err
    )
    assert err.endswith("1 of 3 runs could not be evaluated (see above); the others are in the output\n")


def test_the_blank_line_check_searches_only_where_one_may_be() -> None:
    """The qrels check skips its whitespace-only-line search when a substring test shows there
    can be none: on every text of a small alphabet (all of length 1 to 5, and random longer
    ones) the test holds wherever the search finds a line."""
    import itertools
    import random

    from ir_measures_pres.cli._trec_eval_read import _BLANK_LINE, _may_hold_a_blank_line

    alphabet = [b"a", b" ", b"\t", b"\r", b"\v", b"\f", b"\n", b"#"]
    texts = [b"".join(t) for n in range(1, 6) for t in itertools.product(alphabet, repeat=n)]
    rng = random.Random(7)
    texts += [b"".join(rng.choice(alphabet + [b"q1 0 d 1"] * 4) for _ in range(40)) for _ in range(20000)]
    found = 0
    for text in texts:
        if _BLANK_LINE.search(text) is not None:
            found += 1
            assert _may_hold_a_blank_line(text), text
    assert found > 1000
    assert not _may_hold_a_blank_line(b"q1 0 a 1\nq1 0 b 0\n#c\nq2 0 a 1")


def test_the_qrels_levels_are_counted_once_for_all_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """A run read in blocks builds trec_eval's lists once per block: the qrels' per-query level
    counts (a sort of every judgement) are made once, not once per block (a run of 50M lines
    against 50,000 topics took 70 s instead of 16 s); the lists are the same."""
    import numpy as np

    import ir_measures_pres.measures.trec_eval.lists as lists
    from ir_measures_pres.data.inputs import Columns
    from ir_measures_pres.data.qrels import Qrels

    def columns(q: list, d: list, v: list) -> Columns:
        return Columns(np.array(q, dtype=object), np.array(d, dtype=object), np.array(v))

    qrels = Qrels.from_columns(columns(["1", "1", "2", "2"], ["a", "b", "a", "c"], [1, 2, 0, 1]))
    calls = []
    real = lists._level_counts
    monkeypatch.setattr(lists, "_level_counts", lambda q: calls.append(1) or real(q))
    blocks = [columns(["1", "1"], ["a", "x"], [2.0, 1.0]), columns(["2"], ["c"], [1.0])]
    made = [lists.build_lists(qrels, block) for block in blocks]
    assert len(calls) == 1
    fresh = Qrels.from_columns(columns(["1", "1", "2", "2"], ["a", "b", "a", "c"], [1, 2, 0, 1]))
    for got, block in zip(made, blocks):
        expected = lists.build_lists(fresh, block)
        assert got.level_counts.tolist() == expected.level_counts.tolist()
        assert got.levels.tolist() == expected.levels.tolist()
    assert made[0].levels.tolist() == [1, 2] and made[1].levels.tolist() == [0, 1]
