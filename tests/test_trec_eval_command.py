"""``ir_measures_pres trec_eval``: trec_eval 10.0's quick test byte for byte, its errors, and its
measures checked against pytrec_eval and naive loops on seeded random inputs.

Expected outputs come from outside: the quick test's ``out.*`` files (trec_eval 10.0's own
outputs, tests/data/trec_eval_test/README.md), pytrec_eval (trec_eval 9.0.8's C code) on inputs
where 9.x and 10.0 agree, and loops written from the help text's definitions below.
"""

from __future__ import annotations

import io
import math
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, Iterator, List, Tuple

import pytest

from ir_measures_pres.cli.trec_eval import run

TE = Path(__file__).parent / "data" / "trec_eval_test"

#: (expected output, the trec_eval 10.0 command line that made it: its Makefile's quick test)
QUICK_TEST = [
    ("out.test", "qrels.test results.test"),
    ("out.test.a", "-m all_trec qrels.test results.test"),
    ("out.test.aq", "-m all_trec -q qrels.test results.test"),
    ("out.test.aqc", "-m all_trec -q -c qrels.test results.trunc"),
    ("out.test.aqcM", "-m all_trec -q -c -M100 qrels.test results.trunc"),
    ("out.test.aql", "-m all_trec -mrelstring.20 -q -l2 qrels.rel_level results.test"),
    (
        "out.test.meas_params",
        "-q -miprec_at_recall..10,.20,.25,.75,.50 -m P.5,7,3 -m recall.20,2000 -m Rprec_mult.5.0,0.2,0.35 "
        "-mutility.2,-1,0,0 -m 11pt_avg..25,.5,.75 -mndcg.1=3,2=9,4=4.5 -mndcg_cut.10,20,23.4 "
        "-msuccess.2,5,20 qrels.test results.test",
    ),
    ("out.test.aqZ", "-q -m all_trec -Z zscores_file qrels.test results.test"),
    ("out.comment.test", "qrels.comment.test results.comment.test"),
    ("out.test.qrels_jg", "-m qrels_jg -q -R qrels_jg qrels.123 results.test"),
    ("out.test.prefs", "-m all_prefs -q -R prefs prefs.test prefs.results.test"),
    ("out.test.qrels_prefs", "-m all_prefs -q -R qrels_prefs qrels.test results.test"),
]
#: the quick test's judgement files with comment lines ('#'): the outputs of the files without them
COMMENTED = [
    ("out.test.aq", "-m all_trec -q qrels.test.with-comments results.test"),
    ("out.test.prefs", "-m all_prefs -q -R prefs prefs.comment.test prefs.results.test"),
    ("out.test.qrels_jg", "-m qrels_jg -q -R qrels_jg qrels.comments.123 results.test"),
]


def _run(args: List[str], cwd: Path = TE) -> str:
    out = io.StringIO()
    here = os.getcwd()
    os.chdir(cwd)
    try:
        assert run(args, out) == 0
    finally:
        os.chdir(here)
    return out.getvalue()


@pytest.mark.parametrize("expected, command", QUICK_TEST, ids=[q[0] for q in QUICK_TEST])
def test_quick_test_byte_identical(expected: str, command: str) -> None:
    """``trec_eval COMMAND`` of trec_eval 10.0's quick test: the same bytes."""
    assert _run(command.split()).encode() == (TE / expected).read_bytes()


@pytest.mark.parametrize("expected, command", QUICK_TEST, ids=[q[0] for q in QUICK_TEST])
def test_quick_test_read_in_blocks(monkeypatch: pytest.MonkeyPatch, expected: str, command: str) -> None:
    """The results files read block by block of whole queries (blocks of at least 60 lines, so
    that the quick test's runs are read in several): the same bytes. The qrels-format commands
    on a run grouped by query do go through the blocks; the others read their files whole."""
    from ir_measures_pres.data import runblocks

    monkeypatch.setattr(runblocks, "BLOCK_LINES", 60)
    blocks: List[int] = []
    original = runblocks.RunBlocks.__iter__

    def counted(self: runblocks.RunBlocks) -> Iterator[Any]:
        for block in original(self):
            blocks.append(len(block))
            yield block

    monkeypatch.setattr(runblocks.RunBlocks, "__iter__", counted)
    assert _run(command.split()).encode() == (TE / expected).read_bytes()
    queries = [
        line.split()[0] for line in (TE / command.split()[-1]).read_text().splitlines() if line.strip()
    ]
    grouped = len([q for k, q in enumerate(queries) if k == 0 or q != queries[k - 1]]) == len(set(queries))
    if "-R" not in command and grouped:  # results.trunc interleaves its queries: read whole
        assert len(blocks) > 1, blocks


@pytest.mark.parametrize("expected, options", [("out.test.aqc", []), ("out.test.aqcM", ["-M100"])])
def test_complete_in_blocks(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, expected: str, options: List[str]
) -> None:
    """``-c`` read in blocks: results.trunc (which lacks query 302 of the qrels) with its lines
    grouped by query (a stable sort: trec_eval orders each query's documents by score itself),
    in blocks of at least 60 lines: the quick test's ``-c`` outputs, the lacking query included."""
    from ir_measures_pres.data import runblocks

    lines = (TE / "results.trunc").read_text().splitlines(keepends=True)
    (tmp_path / "results.grouped").write_text("".join(sorted(lines, key=lambda line: line.split()[0])))
    monkeypatch.setattr(runblocks, "BLOCK_LINES", 60)
    args = ["-m", "all_trec", "-q", "-c", *options, str(TE / "qrels.test"), str(tmp_path / "results.grouped")]
    assert _run(args) == (TE / expected).read_text()


def test_a_run_not_grouped_by_query_is_read_whole(tmp_path: Path) -> None:
    """A results file whose queries are interleaved cannot be read in blocks: it is read whole,
    as trec_eval reads any order, and prints what the grouped file prints."""
    lines = (TE / "results.test").read_text().splitlines(keepends=True)
    shuffled = lines[::2] + lines[1::2]  # every query appears in two places
    (tmp_path / "results.shuffled").write_text("".join(shuffled))
    args = ["-m", "all_trec", "-q", str(TE / "qrels.test")]
    assert _run([*args, str(tmp_path / "results.shuffled")]) == (TE / "out.test.aq").read_text()


@pytest.mark.parametrize("expected, command", COMMENTED, ids=[c[1].split()[-2] for c in COMMENTED])
def test_comment_lines_in_judgements_change_nothing(expected: str, command: str) -> None:
    """trec_eval 10.0's test folder holds these commented copies of its judgement files: read as
    the plain files (comment lines skipped), they give the plain files' outputs."""
    assert _run(command.split()).encode() == (TE / expected).read_bytes()


def test_the_subcommand_prints_the_same_bytes() -> None:
    """Through the console entry point, as a script calls it (``trec_eval qrels.test results.test``)."""
    done = subprocess.run(
        [sys.executable, "-m", "ir_measures_pres", "trec_eval", "qrels.test", "results.test"],
        cwd=TE,
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == (TE / "out.test").read_bytes()


def test_options_after_the_files_and_long_forms() -> None:
    """getopt's permutation and long options: the same output as ``-m all_trec -q``."""
    args = ["qrels.test", "results.test", "--query_eval_wanted", "--measure=all_trec"]
    assert _run(args).encode() == (TE / "out.test.aq").read_bytes()
    assert (
        _run(["-qm", "all_trec", "qrels.test", "results.test"]).encode() == (TE / "out.test.aq").read_bytes()
    )


def test_several_results_files_print_one_block_each_in_order() -> None:
    one = _run(["-q", "qrels.test", "results.test"])
    other = _run(["-q", "qrels.test", "results.trunc"])
    assert _run(["-q", "qrels.test", "results.trunc", "results.test"]) == other + one


def test_nosummary_prints_the_query_lines_only() -> None:
    """-n: out.test.aq without its summary lines."""
    expected = [x for x in (TE / "out.test.aq").read_text().splitlines(True) if "\tall\t" not in x]
    assert _run(["-q", "-n", "-m", "all_trec", "qrels.test", "results.test"]) == "".join(expected)


def _write(tmp: Path, name: str, text: str) -> str:
    (tmp / name).write_text(text)
    return str(tmp / name)


def test_runid_is_the_last_lines_tag(tmp_path: Path) -> None:
    """trec_eval 10 keeps the run_id of the last line (get_trec_results.c)."""
    qrels = _write(tmp_path, "q", "1 0 a 1\n")
    res = _write(tmp_path, "r", "1 Q0 a 1 2.0 first\n1 Q0 b 2 1.0 last\n")
    assert _run(["-m", "runid", qrels, res], tmp_path) == "runid                 \tall\tlast\n"


def test_ranking_by_double_scores_then_docno_descending(tmp_path: Path) -> None:
    """100000.002 > 100000.001 as doubles (equal as float32): the relevant b is second, AP 1/2;
    equal scores: docno descending, so c (relevant) before a."""
    qrels = _write(tmp_path, "q", "1 0 b 1\n1 0 a 0\n2 0 c 1\n")
    res = _write(tmp_path, "r", "1 Q0 a 1 100000.002 t\n1 Q0 b 2 100000.001 t\n2 Q0 a 1 5 t\n2 Q0 c 2 5 t\n")
    out = _run(["-q", "-m", "map", qrels, res], tmp_path)
    assert out.splitlines() == [
        f"{'map':<22}\t1\t0.5000",
        f"{'map':<22}\t2\t1.0000",
        f"{'map':<22}\tall\t0.7500",
    ]


def test_max_docs_cuts_before_judged_only_drops(tmp_path: Path) -> None:
    """-M 2 keeps x (unjudged), a; -J then drops x: one document, relevant, P_1 = 1, num_ret 1.
    The other order (drop x, keep 2) would keep a and b: num_ret 2."""
    qrels = _write(tmp_path, "q", "1 0 a 1\n1 0 b 1\n")
    res = _write(tmp_path, "r", "1 Q0 x 1 3 t\n1 Q0 a 2 2 t\n1 Q0 b 3 1 t\n")
    out = _run(["-M2", "-J", "-m", "num_ret", "-m", "P.1", qrels, res], tmp_path)
    assert out == "num_ret               \tall\t1\nP_1                   \tall\t1.0000\n"


# --------------------------------------------------------------------------------------------
# errors: one line, trec_eval's exit status, never a traceback
# --------------------------------------------------------------------------------------------


def _cli(args: List[str], cwd: Path) -> Tuple[int, str, str]:
    done = subprocess.run(
        [sys.executable, "-m", "ir_measures_pres", "trec_eval", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
    )
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize(
    "args, status, words",
    [
        (["-m", "nosuch", "qrels.test", "results.test"], 1, "illegal measure 'nosuch'"),
        (["-m", "P.0", "qrels.test", "results.test"], 2, "a cutoff is not positive"),
        (["-m", "P.5,5", "qrels.test", "results.test"], 2, "duplicate cutoffs"),
        (["-m", "utility.1,2", "qrels.test", "results.test"], 4, "4 coefficients"),
        (["-m", "ndcg.1", "qrels.test", "results.test"], 2, "malformed pair parameters"),
        (["-m", "P.", "qrels.test", "results.test"], 1, "improper measure in parameter"),
        (["-m", "prefs_simp", "qrels.test", "results.test"], 4, "Can't calculate measure 'prefs_simp'"),
        (["-m", "map_avgjg", "qrels.test", "results.test"], 4, "Can't calculate measure 'map_avgjg'"),
        (["-m", "map", "-R", "qrels_jg", "qrels.123", "results.test"], 4, "Can't calculate measure 'map'"),
        (["-R", "prefs", "-m", "all_prefs", "qrels.test", "results.test"], 2, "expected 'qid jg jsg"),
        (["-R", "nosuch", "qrels.test", "results.test"], 2, "Illegal rel_format"),
        (["-x", "qrels.test", "results.test"], 1, "option -x not recognized"),
        (["qrels.test"], 1, "need a rel_info_file"),
        (["-l", "two", "qrels.test", "results.test"], 1, "takes an integer"),
        (["qrels.test", "missing.file"], 2, "missing.file"),
        (["-D", "1", "qrels.test", "results.test"], 1, "-D"),
    ],
)
def test_errors_are_one_line_with_trec_evals_status(args: List[str], status: int, words: str) -> None:
    code, out, err = _cli(args, TE)
    assert code == status
    assert out == ""
    assert err.count("\n") == 1, err
    assert err.startswith("ir_measures_pres: error: trec_eval: ") and words in err
    assert "Traceback" not in err


def test_input_errors(tmp_path: Path) -> None:
    qrels = _write(tmp_path, "q", "1 0 a 1\n")
    dup = _write(tmp_path, "dup", "1 Q0 a 1 2 t\n1 Q0 a 2 1 t\n")
    code, _, err = _cli([qrels, dup], tmp_path)
    assert code == 4 and "duplicate docs" in err and "query '1'" in err and "Traceback" not in err
    # a document repeated for a query trec_eval does not evaluate (not in the qrels) is no error
    other_dup = _write(tmp_path, "dup2", "1 Q0 a 1 2 t\n9 Q0 z 1 2 t\n9 Q0 z 2 1 t\n")
    code, out, err = _cli(["-m", "num_ret", qrels, other_dup], tmp_path)
    assert (code, out, err) == (0, f"{'num_ret':<22}\tall\t1\n", "")
    other = _write(tmp_path, "other", "2 Q0 a 1 2 t\n")
    code, _, err = _cli([qrels, other], tmp_path)
    assert code == 7 and "No queries with both results and relevance info" in err
    bad = _write(tmp_path, "bad", "1 Q0 a 1 high t\n")
    code, _, err = _cli([qrels, bad], tmp_path)
    assert code == 2 and f"{bad}:1" in err and "Traceback" not in err
    badq = _write(tmp_path, "badq", "1 0 a yes\n")
    code, _, err = _cli([badq, dup], tmp_path)
    assert code == 2 and f"{badq}:1" in err


def test_qrels_jg_input_errors(tmp_path: Path) -> None:
    run_ = _write(tmp_path, "r", "1 Q0 a 1 2 t\n")
    for text, words in [
        ("1 u1 a 1 extra\n", ":1: expected 'qid jg docno rel'"),
        ("1 u1 a 1\n1 u1 a 0\n", ":2: duplicate docs"),
    ]:
        qrels = _write(tmp_path, "q", text)
        code, _, err = _cli(["-R", "qrels_jg", "-m", "qrels_jg", qrels, run_], tmp_path)
        assert code == 2 and words in err and "Traceback" not in err, err


def test_qrels_jg_averages_over_groups(tmp_path: Path) -> None:
    """Two users judge topic 1: u1 finds a relevant (AP 1), u2 finds b relevant at rank 2 (AP 1/2):
    map_avgjg = (1 + 1/2) / 2 = 0.75; topic 2 has one group, b relevant at rank 1: AP 1.
    P_avgjg_1 = (1 + 0) / 2 for topic 1, 1 for topic 2."""
    qrels = _write(tmp_path, "q", "1 u1 a 1\n1 u2 b 1\n1 u2 a 0\n2 u1 b 1\n")
    res = _write(tmp_path, "r", "1 Q0 a 1 2 t\n1 Q0 b 2 1 t\n2 Q0 b 1 2 t\n")
    out = _run(["-q", "-R", "qrels_jg", "-m", "map_avgjg", "-m", "P_avgjg.1", qrels, res], tmp_path)
    assert out.splitlines() == [
        f"{'map_avgjg':<22}\t1\t0.7500",
        f"{'P_avgjg_1':<22}\t1\t0.5000",
        f"{'map_avgjg':<22}\t2\t1.0000",
        f"{'P_avgjg_1':<22}\t2\t1.0000",
        f"{'map_avgjg':<22}\tall\t{(0.75 + 1) / 2:6.4f}",
        f"{'P_avgjg_1':<22}\tall\t{(0.5 + 1) / 2:6.4f}",
    ]


def test_rndcg_takes_the_lists_end_only_past_rank_m_plus_one(tmp_path: Path) -> None:
    """Rndcg averages nDCG at the ideal ranking's gain changes (ranks 1 and 2 here: gains 2, 1),
    and at the list's end only when the list is longer than m + 1 = 3 (m_Rndcg.c's first loop
    also takes rank m + 1). List c, d, a (levels 0, 0, 2): nDCG@1 = nDCG@2 = 0, no third point:
    0. With e (unjudged) appended, n = 4: a third point DCG(4) / IDCG(2) = (2 / log2 4) / (2 + 1 /
    log2 3), averaged with the two zeros."""
    qrels = _write(tmp_path, "q", "1 0 a 2\n1 0 b 1\n1 0 c 0\n1 0 d 0\n")
    short = _write(tmp_path, "r3", "1 Q0 c 1 3 t\n1 Q0 d 2 2 t\n1 Q0 a 3 1 t\n")
    long_ = _write(tmp_path, "r4", "1 Q0 c 1 3 t\n1 Q0 d 2 2 t\n1 Q0 a 3 1 t\n1 Q0 e 4 0.5 t\n")
    assert _run(["-m", "Rndcg", qrels, short], tmp_path) == f"{'Rndcg':<22}\tall\t0.0000\n"
    third = (2 / math.log2(4)) / (2 + 1 / math.log2(3))
    assert _run(["-m", "Rndcg", qrels, long_], tmp_path) == f"{'Rndcg':<22}\tall\t{third / 3:6.4f}\n"


def test_utility_with_collection_size(tmp_path: Path) -> None:
    """utility.0,0,0,1 with -N 100 is d = N + rr - n - R: one relevant retrieved of two retrieved,
    three relevant: 100 + 1 - 2 - 3 = 96."""
    qrels = _write(tmp_path, "q", "1 0 a 1\n1 0 b 1\n1 0 c 1\n")
    res = _write(tmp_path, "r", "1 Q0 a 1 2 t\n1 Q0 x 2 1 t\n")
    out = _run(["-N", "100", "-m", "utility.0,0,0,1", qrels, res], tmp_path)
    assert out == f"{'utility_0,0,0,1':<22}\tall\t{100 + 1 - 2 - 3:6.4f}\n"


def test_help_describes_the_measures_asked() -> None:
    text = _run(["-h", "-m", "official"])
    assert "Evaluate each results file" in text
    for name in ("map", "gm_map", "iprec_at_recall", "Buckley"):
        assert name in text


# --------------------------------------------------------------------------------------------
# against pytrec_eval (trec_eval 9.0.8) and naive loops, on seeded random inputs
# --------------------------------------------------------------------------------------------


def _random_collection(
    seed: int, tmp: Path
) -> Tuple[str, str, Dict[str, Dict[str, int]], Dict[str, Dict[str, float]]]:
    rng = random.Random(seed)
    qrels: Dict[str, Dict[str, int]] = {}
    run_: Dict[str, Dict[str, float]] = {}
    for q in range(1, 9):
        qid = f"q{q}"
        docs = [f"d{i}" for i in range(rng.randint(5, 60))]
        judged = rng.sample(docs, rng.randint(1, len(docs)))
        qrels[qid] = {d: rng.choice([-1, 0, 0, 0, 1, 1, 2, 3]) for d in judged}  # -1: pooled, unjudged
        if q % 4 == 0:
            qrels[qid] = {d: 0 for d in judged}  # a topic without relevant documents
        ret = rng.sample(docs, rng.randint(1, len(docs)))
        # integer scores, distinct: float32 (pytrec_eval) and double (trec_eval 10) rank alike
        scores = rng.sample(range(1, 10_000), len(ret))
        run_[qid] = {d: float(s) for d, s in zip(ret, scores)}
    qtext = "".join(f"{q} 0 {d} {r}\n" for q, ds in qrels.items() for d, r in ds.items())
    rtext = "".join(f"{q} Q0 {d} 0 {s:.1f} rnd\n" for q, ds in run_.items() for d, s in ds.items())
    return _write(tmp, f"q{seed}", qtext), _write(tmp, f"r{seed}", rtext), qrels, run_


def _per_query(text: str) -> Dict[Tuple[str, str], str]:
    out = {}
    for line in text.splitlines():
        name, qid, value = line.split("\t")
        out[(name.strip(), qid)] = value
    return out


#: measures trec_eval 9.0.8 (pytrec_eval) computes as 10.0 does (iprec_at_recall and 11pt_avg
#: changed their rounding in 10.0, and are checked by a loop below)
SAME_AS_9 = (
    "map Rprec bpref recip_rank P recall infAP Rprec_mult utility binG G ndcg ndcg_rel Rndcg ndcg_cut "
    "map_cut relative_P success set_P set_relative_P set_recall set_map set_F num_nonrel_judged_ret "
    "num_ret num_rel num_rel_ret"
).split()


@pytest.mark.parametrize(
    "seed, options", [(1, []), (2, []), (3, []), (6, ["-J"]), (7, ["-l", "2"]), (8, ["-J", "-l", "3"])]
)
def test_per_query_values_equal_pytrec_evals(seed: int, options: List[str], tmp_path: Path) -> None:
    """Per query, every measure trec_eval 9 computes as 10.0 does, with -J and -l as pytrec_eval's
    judged_docs_only_flag and relevance_level."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qpath, rpath, qrels, run_ = _random_collection(seed, tmp_path)
    level = int(options[options.index("-l") + 1]) if "-l" in options else 1
    # queries without relevant documents: pytrec_eval's C divides by zero for relative_P, we print 0
    with_rel = {q: d for q, d in qrels.items() if any(v >= level for v in d.values())}
    evaluator = pytrec_eval.RelevanceEvaluator(
        with_rel, set(SAME_AS_9), relevance_level=level, judged_docs_only_flag="-J" in options
    )
    expected = evaluator.evaluate(run_)
    measures = [a for m in SAME_AS_9 for a in ("-m", m)]
    ours = _per_query(_run(["-q", "-n"] + options + measures + [qpath, rpath], tmp_path))
    checked = 0
    for qid, values in expected.items():
        for name, value in values.items():
            got = ours[(name, qid)]
            assert float(got) == pytest.approx(value, abs=5e-5), (qid, name)
            assert got == (f"{value:6.4f}" if "." in got else str(int(value))), (qid, name)
            checked += 1
    assert checked > 150


def _iprec_naive(levels: List[int], num_rel: int, cutoffs: List[float]) -> List[float]:
    """Interpolated precision at recall p, trec_eval 10: the c = lround(p R)-th relevant document's
    interpolated precision (max precision at or after it); c = 0: the best precision anywhere;
    c beyond the relevant retrieved: 0. ``levels`` the ranked list's levels (1 relevant)."""
    found = [i + 1 for i, v in enumerate(levels) if v >= 1]
    precisions = [(k + 1) / r for k, r in enumerate(found)]
    out = []
    for p in cutoffs:
        x = p * num_rel
        c = int(math.floor(x + 0.5))  # lround for x >= 0
        if c > len(found):
            out.append(0.0)
        elif c == 0:
            out.append(max(precisions, default=0.0))
        else:
            out.append(max(precisions[c - 1 :]))
    return out


@pytest.mark.parametrize("seed", [4, 5])
def test_iprec_at_recall_and_11pt_avg_follow_trec_eval_10s_rounding(seed: int, tmp_path: Path) -> None:
    qpath, rpath, qrels, run_ = _random_collection(seed, tmp_path)
    cut = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]
    ours = _per_query(_run(["-q", "-n", "-m", "iprec_at_recall", "-m", "11pt_avg", qpath, rpath], tmp_path))
    for qid, docs in run_.items():
        ranked = sorted(docs, key=lambda d: -docs[d])  # distinct scores
        levels = [qrels[qid].get(d, -1) for d in ranked]
        num_rel = sum(1 for v in qrels[qid].values() if v >= 1)
        want = _iprec_naive(levels, num_rel, cut)
        for p, w in zip(cut, want):
            assert ours[(f"iprec_at_recall_{p:3.2f}", qid)] == f"{w:6.4f}", (qid, p)
        assert float(ours[("11pt_avg", qid)]) == pytest.approx(sum(want) / len(want), abs=5e-5)


# --------------------------------------------------------------------------------------------
# preferences: a naive loop over document pairs, written from the help text's definitions
# --------------------------------------------------------------------------------------------


def _random_prefs(seed: int, tmp: Path) -> Tuple[str, str, list, Dict[str, List[str]]]:
    """Preference lines (qid, jg, jsg, doc, level) whose sub-groups agree within a group (each
    group has one hidden level per document, each sub-group shows some of them), and a run."""
    rng = random.Random(seed)
    lines = []
    ranked: Dict[str, List[str]] = {}
    for q in range(1, 7):
        qid = f"t{q}"
        docs = [f"D{i:02d}" for i in range(rng.randint(3, 14))]
        for g in range(rng.randint(1, 3)):
            truth = {d: rng.choice([0, 0, 1, 2, 3]) for d in rng.sample(docs, rng.randint(2, len(docs)))}
            for s in range(rng.randint(1, 3)):
                shown = rng.sample(sorted(truth), rng.randint(2, len(truth)))
                lines += [(qid, f"u{g}", f"s{s}", d, truth[d]) for d in shown]
        pool = docs + [f"X{i}" for i in range(3)]  # X: documents no one judged
        ranked[qid] = rng.sample(pool, rng.randint(0, len(pool)))
    ptext = "".join(f"{q} {g} {s} {d} {lv}\n" for q, g, s, d, lv in lines)
    rtext = "".join(f"{q} Q0 {d} {i} {100 - i} r\n" for q, docs in ranked.items() for i, d in enumerate(docs))
    return _write(tmp, f"p{seed}", ptext), _write(tmp, f"pr{seed}", rtext), lines, ranked


def _naive_prefs(lines: list, ranked: Dict[str, List[str]], qid: str) -> Dict[str, float]:
    """Per the help text: within a sub-group a higher level is preferred; a group's preferences
    are its sub-groups' closed under transitivity; A > B is fulfilled when A is ranked above B or
    A is retrieved and B not; *_ret counts only pairs both retrieved, *_imp drops pairs neither
    retrieved; simp = fulfilled / possible over all groups, avgjg its mean over the groups, pair
    the mean over document pairs of the share of the groups' preferences on the pair fulfilled."""
    pos = {d: i for i, d in enumerate(ranked.get(qid, []))}
    groups: Dict[str, set] = {}
    for q, g, s, d, lv in lines:
        if q != qid:
            continue
        prefs = groups.setdefault(g, set())
        for q2, g2, s2, d2, lv2 in lines:
            if (q2, g2, s2) == (q, g, s) and lv > lv2:
                prefs.add((d, d2))
    for prefs in groups.values():  # transitive closure, naively
        changed = True
        while changed:
            new = {(a, c) for a, b in prefs for b2, c in prefs if b == b2} - prefs
            changed = bool(new)
            prefs |= new

    def kind(a: str, b: str) -> Tuple[str, bool]:
        if a in pos and b in pos:
            return "ret", pos[a] < pos[b]
        if a in pos or b in pos:
            return "imp", a in pos
        return "none", False

    out: Dict[str, float] = {}
    counts = {k: [0, 0] for k in ("ret", "imp", "none")}
    avg: Dict[str, List[float]] = {"all": [], "ret": [], "imp": []}
    for prefs in groups.values():
        c = {k: [0, 0] for k in ("ret", "imp", "none")}
        for a, b in prefs:
            k, ok = kind(a, b)
            c[k][0] += ok
            c[k][1] += 1
        for k in c:
            counts[k][0] += c[k][0]
            counts[k][1] += c[k][1]
        for name, ks in (("all", ("ret", "imp", "none")), ("ret", ("ret",)), ("imp", ("ret", "imp"))):
            poss = sum(c[k][1] for k in ks)
            avg[name].append(sum(c[k][0] for k in ks) / poss if poss else 0.0)
    out["prefs_num_prefs_poss"] = sum(v[1] for v in counts.values())
    out["prefs_num_prefs_ful"] = counts["ret"][0] + counts["imp"][0]
    out["prefs_num_prefs_ful_ret"] = counts["ret"][0]
    for name, ks in (("", ("ret", "imp", "none")), ("_ret", ("ret",)), ("_imp", ("ret", "imp"))):
        poss = sum(counts[k][1] for k in ks)
        out["prefs_simp" + name] = sum(counts[k][0] for k in ks) / poss if poss else 0.0
    for name, key in (("", "all"), ("_ret", "ret"), ("_imp", "imp")):
        out["prefs_avgjg" + name] = sum(avg[key]) / len(avg[key]) if sum(avg[key]) > 0 else 0.0
    pairs: Dict[frozenset, List[Tuple[str, str]]] = {}
    for prefs in groups.values():
        for a, b in prefs:
            pairs.setdefault(frozenset((a, b)), []).append((a, b))
    shares: Dict[str, List[float]] = {"": [], "_ret": [], "_imp": []}
    for found in pairs.values():
        k, _ = kind(*found[0])
        share = sum(kind(a, b)[1] for a, b in found) / len(found)
        shares[""].append(share if k != "none" else 0.0)
        if k == "ret":
            shares["_ret"].append(share)
        if k != "none":
            shares["_imp"].append(share)
    for name, values in shares.items():
        out["prefs_pair" + name] = sum(values) / len(values) if values else 0.0
    return out


@pytest.mark.parametrize("seed", [11, 12, 13, 14])
def test_preference_measures_equal_a_naive_pair_loop(seed: int, tmp_path: Path) -> None:
    ppath, rpath, lines, ranked = _random_prefs(seed, tmp_path)
    ours = _per_query(_run(["-q", "-n", "-c", "-R", "prefs", "-m", "all_prefs", ppath, rpath], tmp_path))
    qids = sorted({q for q, *_ in lines})
    checked = 0
    for qid in qids:
        for name, value in _naive_prefs(lines, ranked, qid).items():
            text = str(int(value)) if "num_prefs" in name else f"{value:6.4f}"
            assert ours[(name, qid)] == text, (qid, name)
            checked += 1
    assert checked == 12 * len(qids)


def _naive_11pt(levels: List[int], num_rel: int, params: List[float]) -> float:
    """11pt_avg as trec_eval 10's m_11pt_avg.c scans, written as the plain loop: cutoffs c =
    lround(p R) in the order given; walking the list upwards from the bottom, the running best
    precision is given to the last not-yet-served cutoff while it equals the relevant count at a
    relevant document; cutoffs above the relevant retrieved get 0, the rest the final best."""
    cut = [int(math.floor(p * num_rel + 0.5)) for p in params]
    rel = [1 if v >= 1 else 0 for v in levels]
    n, rr = len(rel), sum(rel)
    current = len(cut) - 1
    values = [0.0] * len(cut)
    while current >= 0 and cut[current] > rr:
        current -= 1
    best = rr / n if n else 0.0
    so_far = rr
    i = n
    while i > 0 and so_far > 0:
        best = max(best, so_far / i)
        if rel[i - 1]:
            while current >= 0 and so_far == cut[current]:
                values[current] = best
                current -= 1
            so_far -= 1
        i -= 1
    while current >= 0:
        values[current] = best
        current -= 1
    return sum(reversed(values)) / len(cut)


@pytest.mark.parametrize("seed", [21, 22, 23])
def test_11pt_avg_with_parameters_in_any_order(seed: int, tmp_path: Path) -> None:
    """Unsorted recall levels (11pt_avg keeps the order given): each query against the loop."""
    rng = random.Random(seed)
    qpath, rpath, qrels, run_ = _random_collection(seed, tmp_path)
    for _ in range(4):
        params = rng.sample([0.0, 0.1, 0.25, 0.3, 0.5, 0.6, 0.75, 0.9, 1.0], rng.randint(1, 6))
        text = ",".join(f"{p:g}" for p in params)
        ours = _per_query(_run(["-q", "-n", "-m", f"11pt_avg.{text}", qpath, rpath], tmp_path))
        for qid, docs in run_.items():
            ranked = sorted(docs, key=lambda d: -docs[d])
            levels = [qrels[qid].get(d, -1) for d in ranked]
            num_rel = sum(1 for v in qrels[qid].values() if v >= 1)
            want = _naive_11pt(levels, num_rel, params)
            assert ours[(f"11pt_avg_{text}", qid)] == f"{want:6.4f}", (qid, params)


@pytest.mark.parametrize("seed", [31, 32, 33])
@pytest.mark.parametrize(
    "options",
    [
        ["-q", "-m", "all_trec"],
        ["-q", "-c", "-m", "all_trec", "-M", "7"],
        ["-q", "-J", "-l", "2", "-N", "50", "-c"],
    ],
    ids=["q", "cM", "JlNc"],
)
def test_blocks_print_what_the_whole_file_prints(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, seed: int, options: List[str]
) -> None:
    """Seeded random collections (8 topics, ties in the scores, a topic without relevant
    documents, run topics without judgements; the run lacks a topic of the qrels): read in blocks
    of at least 13 lines, the command prints byte for byte what it prints reading the file whole."""
    from ir_measures_pres.cli import trec_eval
    from ir_measures_pres.data import runblocks

    qpath, rpath, _, _ = _random_collection(seed, tmp_path)
    lines = Path(rpath).read_text().splitlines(keepends=True)
    rng = random.Random(seed)
    lines = [line for line in lines if not line.startswith("q3 ")]  # a qrels topic the run lacks
    lines += [f"q99 Q0 d{k} 0 {rng.choice([1.0, 2.0])} rnd\n" for k in range(20)]  # a topic without qrels
    tied = [line.replace(line.split()[4], "5.0") if rng.random() < 0.3 else line for line in lines]
    Path(rpath).write_text("".join(tied))
    monkeypatch.setattr(runblocks, "BLOCK_LINES", 13)
    in_blocks = _run([*options, qpath, rpath], tmp_path)
    monkeypatch.setattr(trec_eval, "_in_blocks", lambda *args: None)
    whole = _run([*options, qpath, rpath], tmp_path)
    assert in_blocks == whole and in_blocks
