"""``ir_measures_pres diversity`` (docs/diversity.md): the output files of NTCIREVAL 190111's
diversity scripts, byte for byte, the readers' one-line errors, and the kernels against a naive
per-document loop written from the formulas (tests/_naive_diversity.py).

Each reference case is named by the file it reproduces; :data:`CASES` gives the tool's command
that wrote it (tests/data/ntcireval-diversity/README.md, the shared folder's README).
"""

from __future__ import annotations

import gzip
import io
import random
from pathlib import Path
from typing import Dict, List, Tuple

import numpy as np
import pytest
from _naive_diversity import naive_topic
from conftest import DATA, needs_shared, shared_path

from ir_measures_pres.cli.diversity import diversity_cli
from ir_measures_pres.cli.evaluate import main
from ir_measures_pres.data.diversity import read_dqrels, read_intent_probs
from ir_measures_pres.data.readers import read_run_lines
from ir_measures_pres.measures.diversity.kernels import (
    d_sharp,
    found,
    gcompute,
    intent_aware,
    intent_found,
    intent_recall,
    intent_segments,
    judgements,
    printed,
    run_lists,
)

SET_A = DATA / "ntcireval-diversity" / "setA"
UPSTREAM = shared_path("ntcireval-diversity", "upstream")
#: set A's runs, as its run list (the tool's ``runl``) names them
RUNS = (SET_A / "runl").read_text().split()

#: (script, cutoff, the tool's evalname, output suffix, relprefix of DIN-splitqrels)
SCRIPT_FILES = [
    ("D-NTCIR-eval", 10, "l10", "Dnev", "div"),
    ("D-NTCIR-eval", 20, "l20", "Dnev", "div"),
    ("D-NTCIR-eval", 1000, "l1000", "Dnev", "div"),
    ("D-NTCIR-eval2", 10, "e2l10", "Dnev", "div"),
    ("D-NTCIR-eval2", 20, "e2l20", "Dnev", "div"),
    ("DIN-NTCIR-eval", 10, "l10", "DINnev", "div"),
    ("DIN-NTCIR-eval", 20, "l20", "DINnev", "div"),
    ("DIN-NTCIR-eval", 1000, "l1000", "DINnev", "div"),
    ("D-NTCIR-eval", 10, "x10", "Dnev", "divx"),
    ("DIN-NTCIR-eval", 10, "x10", "DINnev", "divx"),
    ("D-NTCIR-IAeval", 10, "l10", "nevIA", "div"),
    ("D-NTCIR-IAeval", 20, "l20", "nevIA", "div"),
    ("D-NTCIR-IAeval2", 10, "ia2l10", "nevIA", "div"),
    ("D-NTCIR-IAeval2", 20, "ia2l20", "nevIA", "div"),
    ("D-NTCIR-IAeval2", 10, "xia2l10", "nevIA", "divx"),
    ("DIN-NTCIR-PQeval", 10, "l10", "nevPQ", "div"),
    ("DIN-NTCIR-PQeval", 20, "l20", "nevPQ", "div"),
    # the 17-decimal build (``--digits 17``: the values ntcir_eval prints, not the awk lines)
    ("D-NTCIR-eval2", 10, "p10", "Dnev", "div"),
    ("D-NTCIR-eval2", 20, "p20", "Dnev", "div"),
    ("DIN-NTCIR-eval", 10, "p10", "DINnev", "div"),
    ("DIN-NTCIR-eval", 20, "p20", "DINnev", "div"),
    ("D-NTCIR-IAeval2", 10, "pia10", "nevIA", "div"),
    ("D-NTCIR-IAeval2", 20, "pia20", "nevIA", "div"),
    # the post-processing script that turns a run's .Dnev and .nevPQ into P+Q and P+Q#
    ("NEVIAPQ2sharpnev", 10, "PplusQ#@0010", "nev", "div"),
    ("NEVIAPQ2sharpnev", 20, "PplusQ#@0020", "nev", "div"),
]
#: the probability file each script was given (the IA scripts: the .Iprob, as README.diversity)
PROB_OF = {"D-NTCIR-IAeval": "setA.Iprob", "D-NTCIR-IAeval2": "setA.Iprob"}


def _tool_command(script: str, tid: str, prob: str, rel: str, cutoff: int, name: str) -> str:
    """The script's command line (README.diversity; the shared data's README)."""
    if script == "NEVIAPQ2sharpnev":  # after D-NTCIR-eval and DIN-NTCIR-PQeval at that cutoff
        at = f"@{cutoff:04d}"
        return f"NEVIAPQ2sharpnev {tid} l{cutoff}.Dnev I-rec{at} l{cutoff}.nevPQ PplusQ{at} PplusQ#{at}"
    if script in ("D-NTCIR-IAeval", "D-NTCIR-IAeval2", "DIN-NTCIR-PQeval"):
        return f"{script} {tid} {prob} {rel}.Irelv {cutoff} {name}"
    return f"{script} {tid} {rel} {cutoff} {name}"


#: output file -> (the tool's commands that wrote it, our probability file, our command's
#: arguments after the files)
CASES: Dict[str, Tuple[str, str, List[str]]] = {
    f"{run}.{name}.{suffix}": (
        f"DIN-splitqrels{'-exp' if rel == 'divx' else ''} setA.DINprob setA.Dqrels {rel}; "
        f"echo {run} | TRECsplitruns setA.DINprob.tid 1000; echo {run} | "
        + _tool_command(script, "setA.DINprob.tid", PROB_OF.get(script, "setA.DINprob"), rel, cutoff, name)
        + (" (ntcir_eval printing %.17f)" if name.startswith("p") else ""),
        PROB_OF.get(script, "setA.DINprob"),
        [
            script,
            "--cutoff",
            str(cutoff),
            *(["--gains", "exp"] if rel == "divx" else []),
            *(["--digits", "17"] if name.startswith("p") else []),
        ],
    )
    for run in RUNS
    for script, cutoff, name, suffix, rel in SCRIPT_FILES
}


def _ours(script_args: List[str], prob: Path, dqrels: Path, run: Path) -> str:
    script, *options = script_args
    out = io.StringIO()
    assert diversity_cli([script, str(prob), str(dqrels), str(run), *options], out) == 0
    return out.getvalue()


@pytest.mark.parametrize("output", list(CASES))
def test_set_a_output_file_byte_for_byte(output: str) -> None:
    """Set A (project-owned, in tests/data): the file the tool's command wrote, byte for byte."""
    command, prob, args = CASES[output]
    run = output.split(".")[0]
    expected = gzip.open(SET_A / "out" / f"{output}.gz").read().decode()
    got = _ours(args, SET_A / prob, SET_A / "setA.Dqrels.gz", SET_A / f"{run}.gz")
    assert got == expected, f"differs from `{command}` ({output})"


def test_iprob_and_dinprob_give_the_same_d_measures() -> None:
    """D-NTCIR-eval reads the Grelv only: the .Iprob (no inf|nav column) gives the same file."""
    args = CASES["setA-divgood.l10.Dnev"][2]
    run = SET_A / "setA-divgood.gz"
    dqrels = SET_A / "setA.Dqrels.gz"
    assert _ours(args, SET_A / "setA.Iprob", dqrels, run) == _ours(args, SET_A / "setA.DINprob", dqrels, run)


UPSTREAM_CASES = {
    f"{run}.{name}": (
        script,
        prob,
        f"echo {run} | " + _tool_command(script, "Dtest.DINprob.tid", prob, "test", 10, name.split(".")[0]),
        digits,
    )
    for run in ("TRECRUN", "TRECRUN2")
    for script, prob, name, digits in (
        ("D-NTCIR-eval", "Dtest.DINprob", "l10.Dnev", "4"),
        ("D-NTCIR-eval2", "Dtest.DINprob", "e2l10.Dnev", "4"),
        ("DIN-NTCIR-eval", "Dtest.DINprob", "l10.DINnev", "4"),
        ("D-NTCIR-IAeval", "Dtest.Iprob", "l10.nevIA", "4"),
        ("D-NTCIR-IAeval2", "Dtest.Iprob", "ia2l10.nevIA", "4"),
        ("DIN-NTCIR-PQeval", "Dtest.DINprob", "l10.nevPQ", "4"),
        # the 17-decimal build
        ("D-NTCIR-eval2", "Dtest.DINprob", "p10.Dnev", "17"),
        ("DIN-NTCIR-eval", "Dtest.DINprob", "p10.DINnev", "17"),
        ("D-NTCIR-IAeval2", "Dtest.Iprob", "pia10.nevIA", "17"),
        ("NEVIAPQ2sharpnev", "Dtest.DINprob", "PplusQ#@0010.nev", "4"),
    )
    if script != "NEVIAPQ2sharpnev" or run == "TRECRUN"  # README.diversity ran it on TRECRUN only
}


@needs_shared("ntcireval-diversity", "upstream")
@pytest.mark.parametrize("output", list(UPSTREAM_CASES))
def test_upstream_output_file_byte_for_byte(output: str) -> None:
    """NTCIREVAL's own diversity test files (README.diversity's examples; in ../shared only)."""
    script, prob, command, digits = UPSTREAM_CASES[output]
    expected = (UPSTREAM / "out" / output).read_text()
    run = UPSTREAM / output.split(".")[0]
    got = _ours(
        [script, "--cutoff", "10", "--digits", digits], UPSTREAM / prob, UPSTREAM / "Dtest.Dqrels", run
    )
    assert got == expected, f"differs from `{command}` ({output})"


# --------------------------------------------------------------------------------------------
# the command's refusals and the readers' errors: one line, exit 2 (usage) or 1 (input)
# --------------------------------------------------------------------------------------------


def _cli(argv: List[str], capsys: pytest.CaptureFixture) -> Tuple[int, str, str]:
    status = main(["diversity", *argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_an_unknown_script_is_a_usage_error(capsys: pytest.CaptureFixture) -> None:
    status, out, err = _cli(["D-NTCIR-evil", "p", "q", "r", "--cutoff", "10"], capsys)
    assert (
        (status, out) == (2, "")
        and err.count("\n") == 1
        and "'D-NTCIR-evil' is not a diversity script" in err
    )


PROB = "1 a 0.6\n1 b 0.4\n2 a 1\n"
DQRELS = "1 a d1 L2\n1 b d2 L1\n1 0 d3 L0\n2 a d1 L1\n"
RUN = "1 Q0 d1 1 3 r\n1 Q0 d3 2 2 r\n2 Q0 d1 1 1 r\n"


@pytest.mark.parametrize(
    "prob, dqrels, message",
    [
        ("1 a 1.5\n", DQRELS, "prob:1: expected a probability P(i|q) in [0, 1], found 1.5"),
        ("1 a -0.1\n", DQRELS, "prob:1: expected a probability P(i|q) in [0, 1], found -0.1"),
        ("1 a x\n", DQRELS, "prob:1: expected a probability P(i|q), a number in [0, 1], found 'x'"),
        (
            PROB + "1 a 0.2\n", DQRELS,
            "prob:4: expected each (topic, intent) once"
            ", found topic '1' intent 'a' again (line 1)",
        ),
        (
            "1 a 0.6 inf\n1 b 0.4\n", DQRELS,
            "prob:2: expected 4 columns (topic intent P(i|q) inf|nav), as on the first line"
            ", found 3: '1 b 0.4'",
        ),
        ("1 a 0.6 web\n", DQRELS, "prob:1: expected 'inf' or 'nav' in column 4, found 'web'"),
        ("", DQRELS, "prob: expected probability lines (topic intent P(i|q) [inf|nav]), found an empty file"),
        (
            PROB, "1 a d1 L1\n1 b d2 2\n",
            "dqrels:2: expected a relevance level L0 .. L9 in column 4, found '2'",
        ),
        (
            PROB, "1 a d1 1\n1 b d2 L2\n",
            "dqrels:2: expected an integer relevance in column 4 (a TREC diversity qrels file, as "
            "line 1 is; .Dqrels levels are L0 .. L9 on every line), found 'L2'",
        ),
        (
            PROB, "1 a d1 1.5\n",
            "dqrels:1: expected an integer relevance in column 4 (a TREC diversity qrels file, as "
            "line 1 is; .Dqrels levels are L0 .. L9 on every line), found '1.5'",
        ),
        (PROB, "1 a d1 L10\n", "dqrels:1: expected a relevance level L0 .. L9 in column 4, found 'L10'"),
        (
            PROB,
            "1 a d1 L1 x\n", "dqrels:1: expected 4 columns (topic intent docno Ln (L0 .. L9))"
            ", found 5: '1 a d1 L1 x'",
        ),
        (
            PROB, DQRELS + "1 a d1 L1\n",
            "dqrels:5: expected each (topic, intent, docno) once"
            ", found topic '1' intent 'a' document 'd1' again (line 1)",
        ),
        (
            PROB, DQRELS + "3 a d1 L1\n",
            "dqrels:5: expected a topic of the probabilities prob"
            ", found topic '3', which has no intent probability there",
        ),
        (
            PROB, DQRELS + "2 c d5 L1\n",
            "dqrels:5: expected an intent of topic '2' with a probability in prob"
            ", found intent 'c', which has none",
        ),
    ],
)  # fmt: skip
def test_bad_judgements_are_one_line_input_errors(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture,
    prob: str,
    dqrels: str,
    message: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    for name, text in (("prob", prob), ("dqrels", dqrels), ("run", RUN)):
        (tmp_path / name).write_text(text)
    status, out, err = _cli(["D-NTCIR-eval", "prob", "dqrels", "run", "--cutoff", "10"], capsys)
    assert (status, out, err) == (1, "", f"ir_measures_pres: error: {message}\n")


def test_trec_diversity_qrels_are_read_as_the_dqrels(tmp_path: Path) -> None:
    """TREC diversity qrels (``topic intent docno rel``, the intent in the iteration column, an
    integer level; 0 or below not relevant) print what the same judgements as a ``.Dqrels``
    print, for every script."""
    (tmp_path / "prob").write_text("1 a 0.6 nav\n1 b 0.4 inf\n2 a 1 inf\n")
    (tmp_path / "dqrels").write_text(DQRELS)
    (tmp_path / "trec").write_text("1 a d1 2\n1 b d2 1\n1 0 d3 0\n2 a d1 1\n2 a d9 -2\n")
    (tmp_path / "run").write_text(RUN + "2 Q0 d9 2 0.5 r\n")
    from ir_measures_pres.cli.diversity import SCRIPTS

    for script in SCRIPTS:
        args = [script, "--cutoff", "10"]
        dq = _ours(args, tmp_path / "prob", tmp_path / "dqrels", tmp_path / "run")
        trec = _ours(args, tmp_path / "prob", tmp_path / "trec", tmp_path / "run")
        assert trec == dq and dq, script


def test_an_intent_with_a_probability_and_no_judgement_is_allowed(tmp_path: Path) -> None:
    """Intent c of topic 1 has a probability, no relevant document: it is not in I-rec's n and
    adds nothing (spec §8, set A's 0125)."""
    (tmp_path / "prob").write_text(PROB + "1 c 0.3\n")
    (tmp_path / "dqrels").write_text(DQRELS)
    (tmp_path / "run").write_text(RUN)
    text = _ours(["D-NTCIR-eval", "--cutoff", "10"], tmp_path / "prob", tmp_path / "dqrels", tmp_path / "run")
    assert "1 #intent_num=2\n" in text and "1 I-rec@0010=          0.5000\n" in text


def test_a_bad_run_line_names_its_line(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    (tmp_path / "prob").write_text(PROB)
    (tmp_path / "dqrels").write_text(DQRELS)
    (tmp_path / "run").write_text(RUN + "2 Q0 d2 2 high r\n")
    args = [str(tmp_path / n) for n in ("prob", "dqrels", "run")]
    status, out, err = _cli(["D-NTCIR-eval", *args, "--cutoff", "10"], capsys)
    assert (status, out) == (1, "") and err.startswith(f"ir_measures_pres: error: {args[2]}:4: ")
    assert err.count("\n") == 1


def test_a_repeated_run_line_counts_again() -> None:
    """TRECsplitruns keeps every line: a document listed twice takes two ranks (spec §8)."""
    run = read_run_lines(io.BytesIO(b"1 Q0 d1 1 3 r\n1 Q0 d1 2 2 r\n"))
    assert run.doc_ids.tolist() == [b"d1", b"d1"]


# --------------------------------------------------------------------------------------------
# the kernels against the naive loop, on seeded random collections
# --------------------------------------------------------------------------------------------


def _random_collection(seed: int) -> Tuple[str, str, str, Dict[str, Tuple[Dict, List, List]]]:
    """(prob, dqrels, run texts, per topic (probs, qrels lines, ranking)): ties in the scores,
    single-intent topics, probabilities not summing to 1, an intent without documents, a
    topic without a relevant document, unjudged and repeated documents."""
    rng = random.Random(seed)
    prob_lines, qrels_lines, run_lines = [], [], []
    topics: Dict[str, Tuple[Dict, List, List]] = {}
    for t in range(rng.randint(3, 7)):
        tid = f"T{t:02d}"
        n_int = rng.choice([1, 1, 2, 3, 4, 6])
        decimals = rng.choice([1, 2, 4, 6])
        raw = [rng.random() for _ in range(n_int)]
        scale = rng.choice([1.0, 1.0, 0.8])
        probs = {}
        for k, v in enumerate(raw):
            p = f"{scale * v / sum(raw):.{decimals}f}"
            probs[str(k + 1)] = (float(p), rng.random() < 0.4)
            prob_lines.append(f"{tid} {k + 1} {p} {'nav' if probs[str(k + 1)][1] else 'inf'}\n")
        docs = [f"{tid}-d{j}" for j in range(rng.randint(3, 15))]
        lines = []
        empty_topic = t == 0
        for d in docs:
            for k in rng.sample(range(n_int), rng.randint(1, n_int)):
                level = 0 if empty_topic else rng.choice([0, 1, 1, 2, 3])
                intent = "0" if level == 0 else str(k + 1)
                if intent == "0" and any(x[:2] == ("0", d) for x in lines):
                    continue
                if rng.random() < 0.2 and n_int > 1 and k == n_int - 1:
                    continue  # the last intent often without documents
                lines.append((intent, d, level))
                qrels_lines.append(f"{tid} {intent} {d} L{level}\n")
        pool = docs + [f"{tid}-u{j}" for j in range(5)]
        ranking = [rng.choice(pool) for _ in range(rng.randint(0, 25))]
        for r, d in enumerate(ranking):
            run_lines.append(f"{tid} Q0 {d} {r + 1} {rng.choice([1.0, 2.0])} r\n")
        topics[tid] = (probs, lines, ranking)
    return "".join(prob_lines), "".join(qrels_lines), "".join(run_lines), topics


NAIVE_KEYS = {  # the naive loop's name -> (gains, gcompute's printed name; @l: the cutoff)
    "D-nDCG@l": ("D", "MSnDCG@l"),
    "D-Q@l": ("D", "Q@l"),
    "D-AP@l": ("D", "AP@l"),
    "D-Q-measure": ("D", "Q-measure"),
    "D-O-measure": ("D", "O-measure"),
    "D-ERR": ("D", "ERR"),
    "D-nERR@l": ("D", "nERR@l"),
    "D-RBP": ("D", "RBP"),
    "D-P@l": ("D", "P@l"),
    "DIN-nDCG@l": ("DIN", "MSnDCG@l"),
    "DIN-Q@l": ("DIN", "Q@l"),
    "DIN-ERR": ("DIN", "ERR"),
}


@pytest.mark.parametrize("seed", range(30))
@pytest.mark.parametrize("cutoff", [1, 3, 10])
def test_kernels_match_the_naive_loop(seed: int, cutoff: int) -> None:
    prob, dqrels, run, topics = _random_collection(seed)
    judg = judgements(
        read_intent_probs(io.BytesIO(prob.encode())), read_dqrels(io.BytesIO(dqrels.encode())), "linear"
    )
    lists = run_lists(judg, read_run_lines(io.BytesIO(run.encode())) if run else _empty_run())
    values = {}
    for kind in ("D", "DIN"):
        got = gcompute(found(judg, lists, cutoff, din=kind == "DIN"), judg.ideal, cutoff)
        for key, (k, name) in NAIVE_KEYS.items():
            if k == kind:
                values[key] = got[name.replace("@l", f"@{cutoff:04d}")]
    irec_l = intent_recall(judg, lists, np.full(len(judg.topics), cutoff))
    values["I-rec@l"] = irec_l
    values["I-rec@n"] = intent_recall(judg, lists, judg.n_intents)
    values["D#-nDCG@l"] = d_sharp(irec_l, values["D-nDCG@l"])
    values["D#-Q@l"] = d_sharp(irec_l, values["D-Q@l"])
    segs = intent_segments(judg)
    per_intent = gcompute(intent_found(judg, segs, lists, cutoff), segs.ideal, cutoff)
    p = judg.probs.prob[segs.row]
    at = f"@{cutoff:04d}"
    # the scripts weigh each intent's value as gcompute printed it (4 decimals)
    for key, name in (("IA-nDCG@l", f"MSnDCG{at}"), ("IA-Q@l", f"Q{at}"), ("IA-ERR", "ERR")):
        values[key] = intent_aware(p, printed(per_intent[name]), segs.offsets)
    pq = np.where(judg.probs.nav[segs.row], per_intent["P-plus"], per_intent[f"Q{at}"])
    values["P+Q@l"] = intent_aware(p, printed(pq), segs.offsets)
    for k, tid in enumerate(judg.topics):
        expected = naive_topic(*topics[tid], cutoff)
        for key in values:
            assert values[key][k] == pytest.approx(expected[key], abs=1e-12), (tid, key)


def _empty_run():  # a run file cannot be empty: a run of another topic set
    return read_run_lines(io.BytesIO(b"none Q0 x 1 1 r\n"))


# --------------------------------------------------------------------------------------------
# --mean: NEV2mean's mean of the printed values over the tid list
# --------------------------------------------------------------------------------------------

MEANS = sorted(p.name for p in (SET_A / "means").iterdir())


@pytest.mark.parametrize("mean_file", MEANS)
def test_mean_lines_are_nev2means_values(mean_file: str) -> None:
    """``NEV2mean runl setA.DINprob.tid lL.Dnev METRIC`` (or ``.DINnev``) wrote ``run mean`` per
    run: our ``ALL METRIC=`` line of each run prints the same value."""
    _, _, _, evalname, suffix, metric = mean_file.split(".", 5)
    script = "D-NTCIR-eval" if suffix == "Dnev" else "DIN-NTCIR-eval"
    cutoff = evalname[1:]
    for line in (SET_A / "means" / mean_file).read_text().splitlines():
        run, value = line.split()
        text = _ours(
            [script, "--cutoff", cutoff, "--mean"],
            SET_A / "setA.DINprob",
            SET_A / "setA.Dqrels.gz",
            SET_A / f"{run}.gz",
        )
        alls = dict(row.split()[1:] for row in text.splitlines() if row.startswith("ALL "))
        assert alls[f"{metric}="] == value, (
            run,
            f"NEV2mean runl setA.DINprob.tid {evalname}.{suffix} {metric}",
        )


def test_mean_of_the_intent_aware_lines() -> None:
    """The ALL lines of a .nevIA: the IA-X lines' mean over the 30 topics (no per-intent line)."""
    text = _ours(
        ["D-NTCIR-IAeval", "--cutoff", "10", "--mean"],
        SET_A / "setA.Iprob",
        SET_A / "setA.Dqrels.gz",
        SET_A / "setA-divgood.gz",
    )
    alls = [row.split()[1] for row in text.splitlines() if row.startswith("ALL ")]
    assert alls == ["IA-ERR@0010=", "IA-nERR@0010=", "IA-MSnDCG@0010="]
    values = [
        float(row.split()[-1]) for row in text.splitlines() if "IA-ERR@0010=" in row and row.startswith("0")
    ]
    assert len(values) == 30
    assert text.splitlines()[-3] == f"ALL {'IA-ERR@0010=':<21}{sum(values) / 30:.4f}"


UPSTREAM_MEANS = ["D#-Q@0010", "D#-nDCG@0010", "I-rec@0010", "MSnDCG@0010", "Q@0010"]


@needs_shared("ntcireval-diversity", "upstream")
@pytest.mark.parametrize("metric", UPSTREAM_MEANS)
def test_upstream_mean_lines_are_nev2means_values(metric: str) -> None:
    """README.diversity's ``NEV2mean runl Dtest.DINprob.tid l10.Dnev ... METRIC``."""
    for line in (UPSTREAM / "out" / f"runl.Dtest.DINprob.l10.Dnev.{metric}").read_text().splitlines():
        run, value = line.split()
        text = _ours(
            ["D-NTCIR-eval", "--cutoff", "10", "--mean"],
            UPSTREAM / "Dtest.DINprob",
            UPSTREAM / "Dtest.Dqrels",
            UPSTREAM / run,
        )
        alls = dict(row.split()[1:] for row in text.splitlines() if row.startswith("ALL "))
        assert alls[f"{metric}="] == value, (run, f"NEV2mean runl Dtest.DINprob.tid l10.Dnev {metric}")


def test_long_document_ids(tmp_path: Path) -> None:
    """A run with an id over 64 bytes (read as str, not bytes) matches the qrels as any other."""
    long = "d" * 80
    (tmp_path / "prob").write_text("1 a 1\n")
    (tmp_path / "dqrels").write_text(f"1 a {long} L1\n")
    (tmp_path / "run").write_text(f"1 Q0 x 1 2 r\n1 Q0 {long} 2 1 r\n")
    text = _ours(["D-NTCIR-eval", "--cutoff", "10"], tmp_path / "prob", tmp_path / "dqrels", tmp_path / "run")
    assert "1 # r1=2 rp=2\n" in text and "1 I-rec@0010=          1.0000\n" in text


def test_the_command_names_the_printers_scripts() -> None:
    """The command names the scripts the printer writes, in its order (one list, the measures')."""
    from ir_measures_pres.cli.diversity import SCRIPTS as COMMAND_SCRIPTS
    from ir_measures_pres.printers.diversity import SCRIPTS as PRINTER_SCRIPTS

    assert COMMAND_SCRIPTS == PRINTER_SCRIPTS


def test_set_a_run_list_names_its_seven_runs() -> None:
    """The tests walk set A's runs through its run list: an empty list must not pass by testing nothing."""
    assert len(RUNS) == 7 and all((SET_A / f"{run}.gz").exists() for run in RUNS)


@pytest.mark.parametrize(
    "script, prob, name, cutoff, suffix",
    [
        ("D-NTCIR-eval", "setA.DINprob", None, 10, "l10.Dnev"),  # the default name: l<L>
        ("D-NTCIR-IAeval2", "setA.Iprob", "ia2l20", 20, "ia2l20.nevIA"),
        ("NEVIAPQ2sharpnev", "setA.DINprob", None, 10, "PplusQ#@0010.nev"),
    ],
)
def test_several_runs_write_the_scripts_files(
    tmp_path: Path, capsys: pytest.CaptureFixture, script: str, prob: str, name: str, cutoff: int, suffix: str
) -> None:
    """Set A's seven runs in one call, ``--output-dir``: each run's file, named as the scripts
    name it (``<run>.<evalname>.<suffix>``, ``<run>.PplusQ#@LLLL.nev``), byte for byte the file
    the tool wrote; nothing on standard output."""
    runs = [str(SET_A / f"{run}.gz") for run in RUNS]
    named = [] if name is None else ["--name", name]
    argv = [script, str(SET_A / prob), str(SET_A / "setA.Dqrels.gz"), *runs, "--cutoff", str(cutoff)]
    status, out, _ = _cli([*argv, "--output-dir", str(tmp_path), *named], capsys)
    assert (status, out) == (0, "")
    made = sorted(p.name for p in tmp_path.iterdir())
    assert made == sorted(f"{run}.{suffix}" for run in RUNS)
    for file in made:
        assert (tmp_path / file).read_bytes() == gzip.open(SET_A / "out" / f"{file}.gz").read(), file


def test_several_runs_keep_going_past_a_bad_run(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """A run that cannot be read is reported in one line and the others written (exit 1, the
    commands' run policy); several runs without ``--output-dir`` and ``--name`` alone are usage
    errors."""
    (tmp_path / "bad").write_text("0101 Q0 d1 1\n")
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    good = str(SET_A / "setA-divgood.gz")
    base = ["D-NTCIR-eval", str(SET_A / "setA.DINprob"), str(SET_A / "setA.Dqrels.gz")]
    status, out, err = _cli(
        [*base, good, str(tmp_path / "bad"), "--cutoff", "10", "--output-dir", str(out_dir)], capsys
    )
    assert (status, out) == (1, "")
    assert err.count("error:") == 2 and "bad:1: expected at least 6 columns" in err, err
    assert [p.name for p in out_dir.iterdir()] == ["setA-divgood.l10.Dnev"]
    status, out, err = _cli([*base, good, good + "x", "--cutoff", "10"], capsys)
    assert (status, out) == (2, "") and "give --output-dir DIR" in err
    status, out, err = _cli([*base, good, "--cutoff", "10", "--name", "l10"], capsys)
    assert (status, out) == (2, "") and "--name names the files of --output-dir" in err


#: NEVIA2nev's metrics per intent-aware evalname of set A (its README's commands)
NEV_METRICS = {
    ("D-NTCIR-IAeval", "l"): ["IA-ERR", "IA-nERR", "IA-MSnDCG"],
    ("D-NTCIR-IAeval2", "ia2l"): ["IA-MSnDCG", "IA-Q", "IA-ERR", "IA-EBR", "IA-RBP"],
}


@pytest.mark.parametrize("cutoff", [10, 20])
@pytest.mark.parametrize("script, prefix", list(NEV_METRICS))
def test_nevia2nev_files_byte_for_byte(
    tmp_path: Path, capsys: pytest.CaptureFixture, script: str, prefix: str, cutoff: int
) -> None:
    """``--nev``: the ``<run>.<name>.nevIA.<metric>.nev`` files NEVIA2nev wrote for set A's
    seven runs, every metric, byte for byte (112 files over the four cases), beside each run's
    ``.nevIA`` file."""
    runs = [str(SET_A / f"{run}.gz") for run in RUNS]
    metrics = NEV_METRICS[(script, prefix)]
    nev = [x for m in metrics for x in ("--nev", m)]
    name = f"{prefix}{cutoff}"
    argv = [script, str(SET_A / "setA.Iprob"), str(SET_A / "setA.Dqrels.gz"), *runs, "--cutoff", str(cutoff)]
    status, out, _ = _cli([*argv, "--output-dir", str(tmp_path), "--name", name, *nev], capsys)
    assert (status, out) == (0, "")
    at = f"@{cutoff:04d}"
    expected = [f"{run}.{name}.nevIA" for run in RUNS]
    expected += [f"{run}.{name}.nevIA.{m}{at}.nev" for run in RUNS for m in metrics]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(expected)
    for file in expected:
        assert (tmp_path / file).read_bytes() == gzip.open(SET_A / "out" / f"{file}.gz").read(), file
    # one run, no --output-dir: the lines of standard output (the metric with or without @L)
    status, out, _ = _cli([*argv[:3], runs[0], "--cutoff", str(cutoff), "--nev", metrics[0] + at], capsys)
    assert status == 0
    assert out == gzip.open(SET_A / "out" / f"{RUNS[0]}.{name}.nevIA.{metrics[0]}{at}.nev.gz").read().decode()


def test_matrix_is_topicsys_matrix(capsys: pytest.CaptureFixture) -> None:
    """``--matrix``: what ``Topicsys-matrix setA.DINprob.tid runl l10.Dnev D#-nDCG@0010`` printed
    (a row per topic, a column per run of the run list), the line named with or without its
    cutoff; a line the files lack is a usage error naming theirs."""
    runs = [str(SET_A / f"{run}.gz") for run in RUNS]
    argv = [
        "D-NTCIR-eval",
        str(SET_A / "setA.DINprob"),
        str(SET_A / "setA.Dqrels.gz"),
        *runs,
        "--cutoff",
        "10",
    ]
    expected = gzip.open(SET_A / "out" / "l10.Dnev.D#-nDCG@0010.tsmatrix.gz").read().decode()
    for line in ("D#-nDCG", "D#-nDCG@0010"):
        status, out, _ = _cli([*argv, "--matrix", line], capsys)
        assert (status, out) == (0, expected)
    status, out, err = _cli([*argv, "--matrix", "D#-nDCGx"], capsys)
    assert (status, out) == (2, "") and "no line 'D#-nDCGx' in the script's output; its lines: AP," in err


@needs_shared("ntcireval-diversity", "upstream")
def test_upstream_matrix_and_nevia2nev() -> None:
    """NTCIREVAL's own test runs: README.diversity's ``NEVIA2nev runl Dtest.DINprob.tid l10.nevIA
    IA-MSnDCG@0010 IA-nERR@0010`` files and the ``Topicsys-matrix`` of D#-nDCG@0010 (read from
    ../shared: their licence is not stated, so they are not in the repository)."""
    up = shared_path("ntcireval-diversity", "upstream")
    runs = [str(up / run) for run in ("TRECRUN", "TRECRUN2")]
    out = io.StringIO()
    argv = ["D-NTCIR-eval", str(up / "Dtest.DINprob"), str(up / "Dtest.Dqrels"), *runs, "--cutoff", "10"]
    assert diversity_cli([*argv, "--matrix", "D#-nDCG@0010"], out) == 0
    assert out.getvalue() == (up / "out" / "l10.Dnev.D#-nDCG@0010.tsmatrix").read_text()
    for run in ("TRECRUN", "TRECRUN2"):
        for metric in ("IA-MSnDCG@0010", "IA-nERR@0010"):
            out = io.StringIO()
            argv = ["D-NTCIR-IAeval", str(up / "Dtest.Iprob"), str(up / "Dtest.Dqrels"), str(up / run)]
            assert diversity_cli([*argv, "--cutoff", "10", "--nev", metric], out) == 0
            assert out.getvalue() == (up / "out" / f"{run}.l10.nevIA.{metric}.nev").read_text(), (run, metric)


def test_the_worked_example_of_the_docs() -> None:
    """docs/diversity.md's worked example, NTCIREVAL's test topic 0001 at cutoff 10: the
    arithmetic written out (natural logarithms; every judgement L1, so a document's gain is the
    sum of its intents' probabilities), the lines the docs quote, and, where ../shared holds
    the tool's files, the command's lines and the tool's own."""
    ln = np.log
    ideal = [0.7143, 0.7143] + [0.4286] * 8
    ideal_dcg = sum(g / ln(r + 1) for r, g in enumerate(ideal, start=1))
    d_ndcg = (0.4286 / ln(4) + 0.2857 / ln(5) + 0.4286 / ln(6)) / ideal_dcg
    din_ndcg = (0.4286 / ln(4) + 0.1429 / ln(6)) / ideal_dcg
    i_rec = 2 / 3
    cg_star = np.cumsum(ideal)
    d_q = (
        (0.4286 + 1) / (cg_star[2] + 3) + (0.7143 + 2) / (cg_star[3] + 4) + (1.1429 + 3) / (cg_star[4] + 5)
    ) / 10
    values = {
        "Q@0010": d_q,
        "MSnDCG@0010": d_ndcg,
        "I-rec@0010": i_rec,
        "D#-nDCG@0010": 0.5 * float("%.4f" % i_rec) + 0.5 * float("%.4f" % d_ndcg),
    }
    quoted = [f"0001 {(name + '=').ljust(21)}{'%.4f' % v}" for name, v in values.items()]
    quoted.append(f"0001 {'MSnDCG@0010='.ljust(21)}{'%.4f' % din_ndcg}")
    doc = (Path(__file__).parents[1] / "docs" / "diversity.md").read_text()
    assert "".join(f"    {line}\n" for line in quoted) in doc
    assert ["%.4f" % v for v in (d_ndcg, i_rec, din_ndcg, d_q)] == ["0.2085", "0.6667", "0.1117", "0.1263"]
    up = shared_path("ntcireval-diversity", "upstream")
    if not (up / "TRECRUN").exists():
        pytest.skip(
            "../shared/data/ntcireval-diversity/upstream is absent (the tool's files, licence not stated)"
        )
    for script, suffix, lines in (
        ("D-NTCIR-eval", "Dnev", quoted[:4]),
        ("DIN-NTCIR-eval", "DINnev", quoted[4:]),
    ):
        out = io.StringIO()
        argv = [
            script,
            str(up / "Dtest.DINprob"),
            str(up / "Dtest.Dqrels"),
            str(up / "TRECRUN"),
            "--cutoff",
            "10",
        ]
        assert diversity_cli(argv, out) == 0
        tool = (up / "out" / f"TRECRUN.l10.{suffix}").read_text().splitlines()
        for line in lines:
            assert line in out.getvalue().splitlines() and line in tool, line
