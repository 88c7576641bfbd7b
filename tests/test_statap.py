"""statAP_MQ_eval_v3.pl's estimators (issue #29, spec judgements §1.3, docs/judgements.md):
statAP, statRprec and statP as registered measures on every surface, and the tool's printed
lines, from Python (printers.statap.write_statap) and from the command line (``sampled --tool statap``).

Expected values come from outside the code under test: the tool's outputs in
../shared/data/sampled-judgements/statap/ (17 Robust 2003 runs, every line), arithmetic written
out in the hand-made cases, and a loop written here straight from the formulas (the tool's own
loop: a running sum of 1/π, prec = (1 + sum) / r at each judged relevant document).
"""

from __future__ import annotations

import io
import math
import os
import re
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Dict, List, Tuple

import ir_measures
import numpy as np
import pytest
from conftest import needs_shared, shared_path
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ir_measures_pres  # registers the measures
from ir_measures_pres.cli.evaluate import main as evaluate_main
from ir_measures_pres.cli.sampled import sampled_cli
from ir_measures_pres.data.inputs import InputError
from ir_measures_pres.data.prels import read_prels
from ir_measures_pres.data.readers import read_qrels, read_run
from ir_measures_pres.measures.catalogue import parse_measures, trec_name
from ir_measures_pres.printers.statap import statap_text, write_statap

SAMPLED = shared_path("sampled-judgements")
PRELS = SAMPLED / "prels"
RUNS = shared_path("real", "trec-robust-2003", "runs")
NAMES = sorted(p.name[: -len(".statap")] for p in (SAMPLED / "statap").glob("*.statap"))


# --------------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------------


def _write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def _run_text(rankings: Dict[str, List[Tuple[str, float]]]) -> str:
    return "".join(
        f"{q} Q0 {d} {i} {s!r} r\n" for q, docs in rankings.items() for i, (d, s) in enumerate(docs, 1)
    )


def _measures(prels: str, k: int = 30):
    return parse_measures(f"statAP(prels={prels!r}) statRprec(prels={prels!r}) statP(prels={prels!r})@{k}")


def _per_query(measure, qrels, run) -> Dict[str, float]:
    return {m.query_id: m.value for m in ir_measures.iter_calc([measure], qrels, run)}


def _printed(prels: str, run: str, per_topic: bool = True) -> str:
    out = io.StringIO()
    write_statap(prels, [run], per_topic, out)
    return out.getvalue()


def naive(rows: Dict[str, Tuple[int, float]], ranking: List[str], k: int = 30) -> Tuple[float, float, float]:
    """(statAP, statRprec, statP@k) of one topic from the formulas: ``rows`` maps a judged
    document to (rel, π)."""
    r_hat = sum(1 / pi for rel, pi in rows.values() if rel >= 1)
    if r_hat == 0:
        return math.nan, math.nan, math.nan
    rounded = int(r_hat + 0.5)
    found = up = 0.0
    at_k = at_r = None
    for r, d in enumerate(ranking, 1):
        rel, pi = rows.get(d, (0, 1.0))
        if rel >= 1:
            up += (1 + found) / r / pi
            found += 1 / pi
        if r == k:
            at_k = found / k
        if r == rounded:
            at_r = found / rounded
    return up / r_hat, found / r_hat if at_r is None else at_r, found / k if at_k is None else at_k


# --------------------------------------------------------------------------------------------
# the tool's outputs: every line of every run
# --------------------------------------------------------------------------------------------


def _without_ndcg_and_variance(text: str) -> str:
    """The tool's output without the fields we do not print (docs/judgements.md): the AP
    line's ``  nDCG=...``, the ``varAP=`` lines, the MAP line's ``    VAR_MAP=... `` and the
    ``statMNDCG_on_valid_topics`` line."""
    text = re.sub(r"  nDCG=\S*\n", "\n", text)
    text = re.sub(r"\tvarAP=\S*\n", "", text)
    text = re.sub(r"    VAR_MAP=\S* \n", "\n", text)
    return re.sub(r"\n statMNDCG_on_valid_topics=\S* \n", "\n", text)


@needs_shared("sampled-judgements")
@needs_shared("real", "trec-robust-2003")
@pytest.mark.parametrize("name", NAMES)
def test_every_line_the_tool_prints_for_each_robust_run(name: str) -> None:
    expected = (SAMPLED / "statap" / f"{name}.statap").read_text()
    # what we leave out is exactly those four fields: every other byte stays
    assert expected.count("nDCG=") == expected.count("varAP=") == 100
    wanted = _without_ndcg_and_variance(expected).split("\n")
    got = _printed(str(PRELS), str(RUNS / f"{name}.gz")).split("\n")
    assert len(got) == len(wanted) == 5 * 100 + 7
    for number, (line, want) in enumerate(zip(got, wanted), 1):
        assert line == want, (name, number)


@needs_shared("sampled-judgements")
@needs_shared("real", "trec-robust-2003")
def test_several_runs_one_block_each_and_the_summary_alone_without_q() -> None:
    runs = [str(RUNS / f"{n}.gz") for n in NAMES[:2]]
    out = io.StringIO()
    write_statap(str(PRELS), runs, True, out)
    both = [_without_ndcg_and_variance((SAMPLED / "statap" / f"{n}.statap").read_text()) for n in NAMES[:2]]
    assert out.getvalue() == "".join(both)
    summary = _printed(str(PRELS), runs[0], per_topic=False)
    assert summary == both[0][both[0].index("\n valid_topics=") :]


# --------------------------------------------------------------------------------------------
# the command line: ir_measures_pres sampled --tool statap PRELS RUN... [-q]
# --------------------------------------------------------------------------------------------

#: runs for the command's checks: every fourth (oce03noXbmD among them, the run whose scores tie
#: in float32 but not as doubles)
COMMAND_NAMES = NAMES[::4]


def _expected(name: str, per_topic: bool = True) -> str:
    """The tool's output for a run (its -q reference) without the fields we leave out; without
    -q, its summary lines alone (what follows the last topic block)."""
    text = _without_ndcg_and_variance((SAMPLED / "statap" / f"{name}.statap").read_text())
    return text if per_topic else text[text.index("\n valid_topics=") :]


def _command(*args: str) -> str:
    out = io.StringIO()
    assert sampled_cli(["--tool", "statap", *args], out=out) == 0
    return out.getvalue()


def _console(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    """``ir_measures_pres ARGS`` as a user runs it: the console script beside the interpreter
    (``python -m ir_measures_pres`` where it is not installed), importing this package."""
    script = Path(sys.executable).parent / "ir_measures_pres"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "ir_measures_pres"]
    root = str(Path(ir_measures_pres.__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))}
    return subprocess.run([*command, *args], input=stdin, capture_output=True, env=env, timeout=300)


@needs_shared("sampled-judgements")
@needs_shared("real", "trec-robust-2003")
@pytest.mark.parametrize("name", COMMAND_NAMES)
def test_the_command_prints_the_tools_lines(name: str) -> None:
    run = str(RUNS / f"{name}.gz")
    assert _command(str(PRELS), run, "-q") == _expected(name)
    # without -q the summary alone (the references are -q outputs: its last lines)
    assert _command(str(PRELS), run) == _expected(name, per_topic=False)


@needs_shared("sampled-judgements")
@needs_shared("real", "trec-robust-2003")
def test_the_console_command_several_runs_and_standard_input() -> None:
    a, b = COMMAND_NAMES[1], COMMAND_NAMES[3]
    done = _console(
        "sampled", "--tool", "statap", str(PRELS), str(RUNS / f"{a}.gz"), str(RUNS / f"{b}.gz"), "-q"
    )
    assert done.returncode == 0 and done.stderr == b"", done.stderr.decode()
    # several runs: each block after a runid line naming its run, as sample_eval's blocks
    assert done.stdout.decode() == f"runid\t\tall\t\t{a}\n{_expected(a)}runid\t\tall\t\t{b}\n{_expected(b)}"
    # one run, read from standard input (gzipped): the tool's lines alone
    done = _console("sampled", "--tool", "statap", str(PRELS), "-", stdin=(RUNS / f"{a}.gz").read_bytes())
    assert done.returncode == 0 and done.stdout.decode() == _expected(a, per_topic=False)


@needs_shared("sampled-judgements")
@needs_shared("real", "trec-robust-2003")
def test_a_folder_of_runs_one_block_each_in_name_order(tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    runs.mkdir()
    chosen = [COMMAND_NAMES[2], COMMAND_NAMES[0], COMMAND_NAMES[4]]
    for name in chosen:
        (runs / f"{name}.gz").symlink_to(RUNS / f"{name}.gz")
    got = _command(str(PRELS), str(runs), "-q")
    assert got == "".join(f"runid\t\tall\t\t{n}\n{_expected(n)}" for n in sorted(chosen))
    # a folder of one run still names it: what was scored is not in the output otherwise
    alone = tmp_path / "alone"
    alone.mkdir()
    (alone / "x.run").symlink_to(RUNS / f"{chosen[0]}.gz")
    assert _command(str(PRELS), str(alone)) == f"runid\t\tall\t\tx.run\n{_expected(chosen[0], False)}"


@pytest.mark.parametrize(
    "option", [["--variant", "trecvid"], ["--variant", "cds"], ["--depth", "1000"], ["--ranks", "5,10"]]
)
def test_sample_eval_options_are_a_usage_error_with_statap(
    tmp_path: Path, option: List[str], capsys: pytest.CaptureFixture[str]
) -> None:
    prels = _write(tmp_path, "prels", HAND_PRELS)
    run = _write(tmp_path, "run", _run_text(HAND_RUN))
    # even the default value: the option is sample_eval.pl's, given, and would be ignored
    assert evaluate_main(["sampled", "--tool", "statap", prels, run, *option]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1
    assert err.startswith(f"ir_measures_pres: error: {option[0]}: sample_eval.pl's option, ")
    # and with sample_eval they are taken
    qrels = _write(tmp_path, "qrels", "q1 0 d1 1 1\n")
    assert evaluate_main(["sampled", qrels, run, *option]) == 0


def test_two_sample_eval_options_are_both_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    prels = _write(tmp_path, "prels", HAND_PRELS)
    run = _write(tmp_path, "run", _run_text(HAND_RUN))
    assert (
        evaluate_main(["sampled", "--depth", "10", "--tool", "statap", prels, run, "--variant", "cds"]) == 2
    )
    assert "error: --variant, --depth: sample_eval.pl's options, " in capsys.readouterr().err


def test_input_errors_are_one_line_naming_file_and_line(tmp_path: Path) -> None:
    prels = _write(tmp_path, "prels", HAND_PRELS)
    run = _write(tmp_path, "run", _run_text(HAND_RUN))
    bad_prels = _write(tmp_path, "bad_prels", "q1 d1 1 1 1\nq1 d2 1 1\n")
    bad_run = _write(tmp_path, "bad_run", "q1 Q0 d1 1 2 r\nq1 Q0 d2 2\n")
    for args, line in (
        # a 4-column line in the prels (line 2), named as the qrels line it looks like
        (
            [bad_prels, run],
            f"{bad_prels}:2: expected 5 columns (topic docno rel method iprob), found 4: 'q1 d2 1 1' "
            "(a 4-column qrels line: a prels file has 5 columns)",
        ),
        # sample_eval's sampled qrels given as prels: its docno stands where rel must be
        (
            [_write(tmp_path, "qrels", "303 0 FBIS3-13213 3 -1\n"), run],
            f"{tmp_path / 'qrels'}:1: expected an integer in column 3 (rel), found 'FBIS3-13213'",
        ),
        (
            [prels, bad_run],
            f"{bad_run}:2: expected at least 6 columns (qid iter docno rank score tag), "
            "found 4: 'q1 Q0 d2 2'",
        ),
        ([str(tmp_path / "nowhere"), run], f"{tmp_path / 'nowhere'}: No such file or directory"),
        ([prels, str(tmp_path / "nowhere")], f"{tmp_path / 'nowhere'}: No such file or directory"),
    ):
        done = _console("sampled", "--tool", "statap", *args, "-q")
        assert (done.returncode, done.stdout) == (1, b""), args
        assert done.stderr.decode() == f"ir_measures_pres: error: {line}\n"


# --------------------------------------------------------------------------------------------
# the registered measures against the tool's numbers
# --------------------------------------------------------------------------------------------


def _tool_values(name: str) -> Tuple[Dict[str, Tuple[str, str, str]], Tuple[float, float, float]]:
    text = (SAMPLED / "statap" / f"{name}.statap").read_text()
    topics = re.findall(r"topic=(\S+) .*?\n\tAP=(\S+)  R-prec=(\S+)  Prec_at_30=(\S+)", text, re.S)
    means = [
        float(re.search(rf"{k}_on_valid_topics=(\S+)", text).group(1))
        for k in ("statMAP", "statMRP", "statMPC_30 ")
    ]
    return {t: (a, r, p) for t, a, r, p in topics}, (means[0], means[1], means[2])


@needs_shared("sampled-judgements")
@needs_shared("real", "trec-robust-2003")
def test_the_registered_measures_give_the_tools_numbers() -> None:
    qrels = read_qrels(str(SAMPLED / "qrels.sampled.4col"))
    measures = _measures(str(PRELS))
    for name in NAMES:
        if name == "input.oce03noXbmD":
            # scores that differ only beyond float32 precision: the package's ranking (that of
            # every measure of a call, pytrec_eval's) ties them, the tool does not (see below)
            continue
        run = read_run(str(RUNS / f"{name}.gz"))
        per_topic, means = _tool_values(name)
        values: Dict[object, Dict[str, float]] = {m: {} for m in measures}
        for metric in ir_measures.iter_calc(measures, qrels, run):
            values[metric.measure][metric.query_id] = metric.value
        for topic, shown in per_topic.items():
            assert tuple(f"{values[m][topic]:f}" for m in measures) == shown, (name, topic)
        agg = ir_measures.calc_aggregate(measures, qrels, run)
        assert [agg[m] for m in measures] == pytest.approx(means, rel=1e-14, abs=0), name


@needs_shared("sampled-judgements")
@needs_shared("real", "trec-robust-2003")
def test_near_ties_in_float32_are_where_the_measures_and_the_printed_tool_differ() -> None:
    # oce03noXbmD's scores carry 15 digits (1015.84446716309): some differ only beyond float32
    # precision. The printed output compares doubles as the tool does (every line matches,
    # above); the registered measure ranks as every measure of the package does
    qrels = read_qrels(str(SAMPLED / "qrels.sampled.4col"))
    run = read_run(str(RUNS / "input.oce03noXbmD.gz"))
    per_topic, _ = _tool_values("input.oce03noXbmD")
    (ap, *_rest) = _measures(str(PRELS))
    values = _per_query(ap, qrels, run)
    differ = sorted(t for t, shown in per_topic.items() if f"{values[t]:f}" != shown[0])
    assert 0 < len(differ) <= 6
    for t in differ:
        assert abs(values[t] - float(per_topic[t][0])) < 1e-4


# --------------------------------------------------------------------------------------------
# hand-computed cases
# --------------------------------------------------------------------------------------------

HAND_PRELS = (
    # q1: d1 relevant with π = 1, d2 relevant with π = 0.5, d3 judged non-relevant
    "q1 d1 1 1 1\nq1 d2 1 1 0.5\nq1 d3 0 1 0.5\n"
    # q2: nothing relevant sampled
    "q2 e1 0 1 0.5\nq2 e2 0 1 1\n"
    # q3: one relevant with π = 0.4, R̂ = 2.5 (rounded up to 3); q4 the same with π = 0.8
    "q3 f1 1 1 0.4\nq3 f2 0 1 1\n"
    "q4 g1 1 1 0.8\n"
)
HAND_RUN = {
    "q1": [("d3", 4.0), ("d1", 3.0), ("x1", 2.0), ("d2", 1.0)],
    "q2": [("e1", 2.0), ("e2", 1.0)],
    "q3": [("f1", 4.0), ("x", 3.0), ("y", 2.0), ("z", 1.0)],
    "q4": [("g1", 2.0), ("x", 1.0)],
}


def test_hand_cases(tmp_path: Path) -> None:
    prels = _write(tmp_path, "prels", HAND_PRELS)
    run = _write(tmp_path, "run", _run_text(HAND_RUN))
    qrels = read_prels(prels).qrels()
    ap, rprec, p30 = _measures(prels)
    (p2,) = parse_measures(f"statP(prels={prels!r})@2")
    with pytest.warns(UserWarning, match=r"statAP: 1 topic has no relevant document sampled .*: q2"):
        got = {m: _per_query(m, qrels, read_run(run)) for m in (ap, rprec, p30, p2)}
    # q1: R̂ = 1/1 + 1/0.5 = 3. d1 at rank 2: prec = (1 + 0) / 2, adds 0.5 / 1; the sum of 1/π
    # becomes 1. d2 at rank 4: prec = (1 + 1) / 4 = 0.5, adds 0.5 / 0.5 = 1. statAP = 1.5 / 3.
    assert got[ap]["q1"] == 1.5 / 3
    # round(R̂) = 3 <= 4 documents: the estimated relevant in the top 3 (d1: 1) over 3
    assert got[rprec]["q1"] == pytest.approx(1 / 3)
    # a list shorter than 30: everything found (1 + 2) over 30; at 2: d1's 1 over 2
    assert got[p30]["q1"] == pytest.approx(3 / 30)
    assert got[p2]["q1"] == 1 / 2
    # q2: no relevant document sampled: undefined, left out of the mean
    assert all(math.isnan(got[m]["q2"]) for m in got)
    # q3: R̂ = 1 / 0.4 = 2.5, rounded as the tool rounds, int(2.5 + 0.5) = 3: f1 (2.5) in the
    # top 3, over 3; statAP: f1 at rank 1, prec 1, adds 1 / 0.4 = 2.5, over R̂ = 2.5
    assert got[rprec]["q3"] == pytest.approx(2.5 / 3)
    assert got[ap]["q3"] == pytest.approx(1.0)
    # q4: R̂ = 1 / 0.8 = 1.25, round 1: g1's 1.25 over 1 (an estimate above 1, as the tool's)
    assert got[rprec]["q4"] == pytest.approx(1.25)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        agg = ir_measures.calc_aggregate([ap], qrels, read_run(run))[ap]
    assert agg == pytest.approx((0.5 + 1.0 + 1.0) / 3)  # q1, q3, q4; q2 left out


def test_a_list_shorter_than_rounded_r_hat_divides_by_r_hat_itself(tmp_path: Path) -> None:
    # R̂ = 2.5, round 3, but the list holds 2 documents: the tool divides the whole list's
    # 2.5 by R̂ = 2.5, not by 3
    prels = _write(tmp_path, "prels", "q3 f1 1 1 0.4\n")
    run = read_run(_write(tmp_path, "run", _run_text({"q3": [("f1", 2.0), ("x", 1.0)]})))
    (_, rprec, _) = _measures(prels)
    assert _per_query(rprec, {"q3": {"f1": 1}}, run)["q3"] == pytest.approx(2.5 / 2.5)


def test_ties_are_broken_by_document_id_descending(tmp_path: Path) -> None:
    # da (relevant, π = 1) and db (judged non-relevant) tie: db comes first (ids descending),
    # so da is at rank 2: statAP = (1 / 2) / 1 / R̂ = 0.5 (in file order it would be 1)
    prels = _write(tmp_path, "prels", "q da 1 1 1\nq db 0 1 1\n")
    run = _write(tmp_path, "run", "q Q0 da 1 1.0 r\nq Q0 db 2 1.0 r\n")
    (ap, _, _) = _measures(prels)
    assert _per_query(ap, {"q": {"da": 1, "db": 0}}, read_run(run))["q"] == 0.5
    assert "\tAP=0.500000  R-prec=0.000000  Prec_at_30=0.033333\n" in _printed(prels, run)


def test_scores_equal_in_float32_only_tie_in_the_measure_not_in_the_printed_tool(tmp_path: Path) -> None:
    # 1000.00002 and 1000.00001 are one float32 (the package's ranking, pytrec_eval's: a tie,
    # db first) but two doubles (the tool's: da first)
    prels = _write(tmp_path, "prels", "q da 1 1 1\nq db 0 1 1\n")
    run = _write(tmp_path, "run", "q Q0 da 1 1000.00002 r\nq Q0 db 2 1000.00001 r\n")
    (ap, _, _) = _measures(prels)
    assert _per_query(ap, {"q": {"da": 1, "db": 0}}, read_run(run))["q"] == 0.5
    assert "\tAP=1.000000  R-prec=1.000000  Prec_at_30=0.033333\n" in _printed(prels, run)


def test_printed_blocks_for_every_kind_of_topic(tmp_path: Path) -> None:
    prels = _write(
        tmp_path,
        "prels",
        HAND_PRELS
        + "q5 h1 1 0 0.3\nq5 h2 1 1 0.5\n"  # MIXED: a UMass line (π = 1) and a NEU line
        + "q6 k1 1 0 0.5\n"  # UMass only: UMASS, skipped
        + "q7 m1 1 1 0.5\n",  # not in the run: not printed
    )
    run = _write(
        tmp_path,
        "run",
        _run_text({**HAND_RUN, "q5": [("h2", 2.0), ("h1", 1.0)], "q6": [("k1", 1.0)], "qx": [("a", 1.0)]}),
    )
    # q5: R̂ = 1 + 2 = 3; h2 at 1: prec 1, adds 1 / 0.5 = 2; h1 at 2: prec (1 + 2) / 2 = 1.5,
    # adds 1.5; statAP = 3.5 / 3; R-prec: round 3 > 2 documents, 3 / R̂ = 1; P@30 = 3 / 30
    assert _printed(prels, run) == (
        "\n\ttopic=q1  NEU \n\tRelevant=3.000000  sampled=3 sampled_relev=2\n"
        "\tsampled_in_list=3  sampled_relev_in_list=2\n"
        "\tAP=0.500000  R-prec=0.333333  Prec_at_30=0.100000\n"
        "\n\ttopic=q2  NEU \n\tRelevant=0.000000  sampled=2 sampled_relev=0\n"
        "\tsampled_in_list=0  sampled_relev_in_list=0\n"
        "\tAP=NA--no relevant docs  R-prec=NA--no relevant docs  Prec_at_30=0\n"
        "\n\ttopic=q3  NEU \n\tRelevant=2.500000  sampled=2 sampled_relev=1\n"
        "\tsampled_in_list=1  sampled_relev_in_list=1\n"  # f2 is not in the list
        "\tAP=1.000000  R-prec=0.833333  Prec_at_30=0.083333\n"
        "\n\ttopic=q4  NEU \n\tRelevant=1.250000  sampled=1 sampled_relev=1\n"
        "\tsampled_in_list=1  sampled_relev_in_list=1\n"
        "\tAP=1.000000  R-prec=1.250000  Prec_at_30=0.041667\n"
        "\n\ttopic=q5  MIXED \n\tRelevant=3.000000  sampled=2 sampled_relev=2\n"
        "\tsampled_in_list=2  sampled_relev_in_list=2\n"
        "\tAP=1.166667  R-prec=1.000000  Prec_at_30=0.100000\n"
        "\n\ttopic=q6  UMASS\n"
        # four topics scored: means of (0.5, 1, 1, 3.5/3), ...
        "\n valid_topics=4"
        f"\n statMAP_on_valid_topics={'%.15g' % ((((0.5 + 1.0) + 1.0) + 3.5 / 3) / 4)}"
        f"\n statMRP_on_valid_topics={'%.15g' % ((((1 / 3 + 2.5 / 3) + 1.25) + 1.0) / 4)}"
        f"\n statMPC_30 _on_valid_topics={'%.15g' % ((((3 / 30 + 2.5 / 30) + 1.25 / 30) + 3 / 30) / 4)} "
        "\n\n"
    )


def test_topics_in_numeric_order_as_the_tool_sorts_them(tmp_path: Path) -> None:
    prels = _write(tmp_path, "prels", "10 a 1 1 1\n9 b 1 1 1\n100 c 1 1 1\n")
    run = _write(tmp_path, "run", _run_text({"100": [("c", 1.0)], "10": [("a", 1.0)], "9": [("b", 1.0)]}))
    assert re.findall(r"topic=(\S+)", _printed(prels, run)) == ["9", "10", "100"]


def test_no_topic_scored_is_an_input_error(tmp_path: Path) -> None:
    prels = read_prels(_write(tmp_path, "prels", "q e1 0 1 0.5\n"))
    run = read_run(_write(tmp_path, "run", _run_text({"q": [("e1", 1.0)]})))
    with pytest.raises(InputError, match="no topic of the run has a relevant document sampled"):
        statap_text(prels, run, True)


# --------------------------------------------------------------------------------------------
# a loop from the formulas, on random rankings
# --------------------------------------------------------------------------------------------

POOL = [f"d{i}" for i in range(15)]
PROBS = [1.0, 0.5, 0.25, 0.3, 0.1, 0.7]


@st.composite
def collections(draw: st.DrawFn):
    prels, run = {}, {}
    for q in ("q1", "q2", "q3"):
        judged = draw(st.lists(st.sampled_from(POOL), unique=True, min_size=1))
        prels[q] = {d: (draw(st.sampled_from([0, 0, 1, 2])), draw(st.sampled_from(PROBS))) for d in judged}
        run[q] = draw(st.lists(st.sampled_from(POOL), unique=True, min_size=1))
    return prels, run, draw(st.integers(1, 20))


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(collection=collections())
def test_measures_equal_the_loop_from_the_formulas(tmp_path: Path, collection) -> None:
    rows, rankings, k = collection
    prels = _write(
        tmp_path,
        "prels",
        "".join(f"{q} {d} {rel} 1 {pi}\n" for q, docs in rows.items() for d, (rel, pi) in docs.items()),
    )
    run = {q: {d: float(len(docs) - i) for i, d in enumerate(docs)} for q, docs in rankings.items()}
    qrels = {q: {d: rel for d, (rel, _) in docs.items()} for q, docs in rows.items()}
    measures = _measures(prels, k)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = {m: _per_query(m, qrels, run) for m in measures}
    for q in rows:
        want = naive(rows[q], rankings[q], k)
        for m, w in zip(measures, want):
            if math.isnan(w):
                assert math.isnan(got[m][q]), (m, q)
            else:
                assert got[m][q] == pytest.approx(w, rel=1e-12), (m, q, rows[q], rankings[q])


# --------------------------------------------------------------------------------------------
# every surface
# --------------------------------------------------------------------------------------------


def test_names_parameters_and_errors(tmp_path: Path) -> None:
    prels = _write(tmp_path, "prels", HAND_PRELS)
    ap, rprec, p30 = _measures(prels)
    assert str(ap) == f"statAP(prels={prels!r})" and str(p30) == f"statP(prels={prels!r})@30"
    assert parse_measures(str(p30)) == [p30] and trec_name(ap) == str(ap)  # the file stays visible
    with pytest.raises(
        ValueError, match=r"statAP requires the parameter 'prels'.*statAP\(prels='prels.txt'\)"
    ):
        parse_measures("statAP")
    with pytest.raises(ValueError, match="cutoff"):
        parse_measures(f"statP(prels={prels!r})@0")


def test_main_command_compare_and_meta(tmp_path: Path) -> None:
    from ir_measures_pres.engine.scores import Core
    from ir_measures_pres.stats.comparison import compare

    prels = _write(tmp_path, "prels", HAND_PRELS)
    run = _write(tmp_path, "run", _run_text(HAND_RUN))
    qrels = _write(tmp_path, "qrels", "".join(f"{q} 0 x 0\n" for q in ("q1", "q2", "q3", "q4")))
    done = subprocess.run(
        [sys.executable, "-m", "ir_measures_pres", qrels, run, f"statAP(prels={prels!r})", "-q", "-p", "-1"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    rows = dict((line.split("\t")[0], line.split("\t")[2]) for line in done.stdout.splitlines())
    assert float(rows["q1"]) == 1.5 / 3 and float(rows["all"]) == pytest.approx((0.5 + 1 + 1) / 3)
    assert "no relevant document sampled" in done.stderr and "q2" in done.stderr
    # compare: q2 (undefined) left out of the paired topics
    other = {"q1": [("d1", 2.0), ("d2", 1.0)], "q3": [("x", 2.0), ("f1", 1.0)], "q4": [("g1", 1.0)]}
    runs = {"a": read_run(run), "b": read_run(_write(tmp_path, "run2", _run_text(other)))}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = compare(read_prels(prels).qrels(), runs, [f"statAP(prels={prels!r})"])
        # b: q1: d1 at 1 (prec 1, adds 1), d2 at 2 (prec (1 + 1) / 2, adds 2): 3 / 3; q3: f1 at 2:
        # (1 / 2) / 0.4 / 2.5; q4: 1
        assert res.means[f"statAP(prels={prels!r})"]["b"] == pytest.approx((1 + 0.5 + 1) / 3)
        assert res.query_ids == ["q1", "q3", "q4"]
        core = Core({q: {"x": 0} for q in ("q1", "q3", "q4")}, runs, [f"statAP(prels={prels!r})"])
        values = core.evaluate()
    assert values[0, :, 0].tolist() == [0.5, 1.0]


def test_an_unreadable_prels_file_is_an_input_error_naming_it(tmp_path: Path) -> None:
    run = _write(tmp_path, "run", _run_text(HAND_RUN))
    qrels = _write(tmp_path, "qrels", "q1 0 x 0\n")
    for prels, where in (
        (str(tmp_path / "nowhere"), "nowhere"),
        (_write(tmp_path, "bad", "q1 0 d1 1\n"), "bad:1"),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "ir_measures_pres", qrels, run, f"statAP(prels={prels!r})"],
            capture_output=True,
            text=True,
        )
        assert done.returncode == 1 and where in done.stderr and "Traceback" not in done.stderr


def test_pyterrier_evaluate(tmp_path: Path) -> None:
    pt = pytest.importorskip("pyterrier")
    pd = pytest.importorskip("pandas")
    prels = _write(tmp_path, "prels", HAND_PRELS)
    res = pd.DataFrame(
        [(q, d, s) for q, docs in HAND_RUN.items() for d, s in docs], columns=["qid", "docno", "score"]
    )
    res["rank"] = res.groupby("qid").cumcount()
    qrels = pd.DataFrame(
        [("q1", "d1", 1), ("q2", "e1", 0), ("q3", "f1", 1), ("q4", "g1", 1)],
        columns=["qid", "docno", "label"],
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = pt.Evaluate(res, qrels, [f"statAP(prels={prels!r})"], perquery=True)
    assert got["q1"][f"statAP(prels={prels!r})"] == 1.5 / 3
    assert got["q3"][f"statAP(prels={prels!r})"] == pytest.approx(1.0)
    assert np.isnan(got["q2"][f"statAP(prels={prels!r})"])


def test_a_topic_the_run_lacks_is_warned_of_as_what_happens(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The main command prints nan for a topic the run lacks and leaves it out of statAP's mean
    (the script leaves it out): the warning says so and names the topic, and says 0 only of the
    measures that score 0 there."""
    prels = _write(tmp_path, "prels", HAND_PRELS)
    qrels = _write(tmp_path, "qrels", "q1 0 d1 1\nq3 0 f1 1\nq4 0 g1 1\n")
    run = _write(tmp_path, "run", "q1 Q0 d1 1 2 r\nq3 Q0 f1 1 1 r\n")  # lacks q4
    measure = f"statAP(prels={prels!r})"
    assert evaluate_main([qrels, run, measure, "-q"]) == 0
    out, err = capsys.readouterr()
    assert f"q4\t{measure}\tnan\n" in out
    assert err == (
        "ir_measures_pres: warning: run run lacks 1 of the 3 topics (q4), nan there, left out of the mean\n"
    )
    assert evaluate_main([qrels, run, measure, "AP"]) == 0
    assert capsys.readouterr().err == (
        "ir_measures_pres: warning: run run lacks 1 of the 3 topics (q4), "
        f"{measure}: nan there, left out of the mean; AP: scored as an empty ranking on them "
        "(0 for most measures)\n"
    )
