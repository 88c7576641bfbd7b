"""The measure catalogue (issue #15): one verdict for a measure name on every surface, output
names that read back, and results in the user's order whatever the hash seed.

Expected measures are written out as ir_measures objects (``ir_measures.P @ 10`` for ``P.10``, as
trec_eval's ``-m P.10`` means precision at 10); expected messages are the ones docs/cli.md
documents. The command lines run on the sample data shipped with the package.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import textwrap
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any, List, Tuple, Union

import ir_measures
import pytest

import ir_measures_pres
from ir_measures_pres import PRES, Bpref10, OMeasure, PMeasure, PPlusMeasure, QMeasure, R_norm
from ir_measures_pres.cli.evaluate import main
from ir_measures_pres.measures import catalogue
from ir_measures_pres.measures.catalogue import MeasureNameError, parse_measures, trec_name, trec_names
from ir_measures_pres.measures.trec_eval import names as trec_eval
from ir_measures_pres.measures.trec_eval.judgement_aware import rbp, rbp_resid, unj, yaap

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "ir_measures_pres" / "data" / "sample"
DATA_TE = REPO / "tests" / "data" / "trec_eval_test"
QRELS, RUN = str(DATA / "qrels.test"), str(DATA / "results.test")


def error_lines(*messages: str) -> str:
    """What both command lines print for refused measures: one error line per problem."""
    return "".join(f"ir_measures_pres: error: {line}\n" for m in messages for line in m.splitlines())


NEEDS_SIZE = (
    "invalid measure 'Rnorm': R_norm needs the collection size (collection_size: N, the number of "
    "documents in the collection); write it into the name after N, e.g. Rnorm_N1000000, or as "
    "R_norm(collection_size=1000000)"
)

#: (token, the measures it names, or the message that rejects it)
TOKENS: List[Tuple[str, Union[List[Any], str]]] = [
    # standard measures, ir_measures syntax
    ("AP", [ir_measures.AP]),
    ("nDCG@10", [ir_measures.nDCG @ 10]),
    ("AP(rel=2)@100", [ir_measures.AP(rel=2) @ 100]),
    # trec_eval names
    ("map", [ir_measures.AP]),
    ("P.10", [ir_measures.P @ 10]),
    ("P_10", [ir_measures.P @ 10]),
    ("P_5,10", [ir_measures.P @ 5, ir_measures.P @ 10]),
    ("ndcg_cut.10", [ir_measures.nDCG @ 10]),
    ("recall.1000", [ir_measures.R @ 1000]),
    ("bpref", [ir_measures.Bpref]),
    # ours, ir_measures syntax and trec-style output names
    ("PRES@1000", [PRES @ 1000]),
    ("PRES_1000", [PRES @ 1000]),
    ("PRES_est_100", [PRES(estimate=True) @ 100]),
    ("Q-measure", [QMeasure]),
    ("Q-measure_cut_10", [QMeasure @ 10]),
    ("QMeasure(beta=0.5)@10", [QMeasure(beta=0.5) @ 10]),
    ("bpref_top10pRnonrel", [Bpref10]),
    ("old_bpref_top10pRnonrel", [Bpref10(variant="old")]),
    ("Rnorm_N1000", [R_norm(collection_size=1000)]),
    ("R_norm(collection_size=1000)", [R_norm(collection_size=1000)]),
    # trec_eval 10's names and -m syntax (tests/test_trec_eval10.py)
    ("unj", [unj @ 5, unj @ 10, unj @ 20]),
    ("unj.5,10", [unj @ 5, unj @ 10]),
    ("rbp.p=0.5", [rbp(p=0.5)]),
    ("rbp_resid_p=0.95", [rbp_resid(p=0.95)]),
    ("yaap", [yaap]),
    # rejected
    ("Rnorm", NEEDS_SIZE),
    ("Bpref-10", "unknown measure 'Bpref-10' (did you mean Bpref10 or Bpref_10 or Bpref?)"),
    ("Foo", "unknown measure 'Foo'"),
    ("Success", "invalid measure 'Success': cutoff required, e.g. Success@10"),
    ("rbp@10", "invalid measure 'rbp@10': rbp has no parameter 'cutoff'; its parameters are: p"),
]
ACCEPTED = [(t, e) for t, e in TOKENS if isinstance(e, list)]
REJECTED = [(t, e) for t, e in TOKENS if isinstance(e, str)]


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory of three runs over the sample qrels, for the meta-evaluation commands."""
    folder = tmp_path_factory.mktemp("runs")
    lines = Path(RUN).read_text().splitlines()
    (folder / "a.test").write_text("\n".join(lines) + "\n")
    flipped = [" ".join(f[:4] + [str(-float(f[4]))] + f[5:]) for f in (line.split() for line in lines)]
    (folder / "b.test").write_text("\n".join(flipped) + "\n")
    (folder / "c.test").write_text("\n".join(lines[::2]) + "\n")
    return folder


def run_main(argv: List[str]) -> Tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main(argv)
    return status, out.getvalue(), err.getvalue()


# --------------------------------------------------------------------------------------------
# one verdict everywhere
# --------------------------------------------------------------------------------------------


def test_the_token_list_covers_the_issue() -> None:
    assert len(TOKENS) >= 22 and len(ACCEPTED) >= 18 and len(REJECTED) >= 3


@pytest.mark.parametrize("token, expected", TOKENS, ids=[t for t, _ in TOKENS])
def test_catalogue_verdict(token: str, expected: Union[List[Any], str]) -> None:
    if isinstance(expected, list):
        assert parse_measures(token) == expected
        assert [str(m) for m in parse_measures(token)] == [str(m) for m in expected]
    else:
        with pytest.raises(MeasureNameError) as info:
            parse_measures(token)
        assert str(info.value) == expected


@pytest.mark.parametrize("token, expected", TOKENS, ids=[t for t, _ in TOKENS])
def test_same_verdict_in_the_main_cli_the_meta_cli_and_pyterrier(
    token: str, expected: Union[List[Any], str], runs: Path
) -> None:
    pytest.importorskip("pandas")
    pytest.importorskip("scipy")
    main_status, main_out, main_err = run_main([QRELS, RUN, token])
    meta_status, meta_out, meta_err = run_main(
        ["robustness", QRELS, str(runs), "-m", token, "--fractions", "0.5", "--samples", "1", "-q"]
    )
    if isinstance(expected, list):
        assert (main_status, meta_status) == (0, 0), (main_err, meta_err)
        # the main command's summary rows name exactly the expected measures, in order
        assert [line.split("\t")[0] for line in main_out.splitlines()] == [str(m) for m in expected]
        assert "Kendall's tau" in meta_out
        assert ir_measures.parse_trec_measure(token) == expected
    else:
        report = error_lines(expected)
        assert (main_status, main_out, main_err) == (2, "", report)
        assert (meta_status, meta_out, meta_err) == (2, "", report)
        with pytest.raises(MeasureNameError) as info:
            ir_measures.parse_trec_measure(token)
        assert str(info.value) == expected


@pytest.mark.parametrize("name", catalogue.TREC_EVAL_NAMES)
def test_the_trec_eval_names_are_those_ir_measures_knows(name: str) -> None:
    # the catalogue's copy of ir_measures' table (a local dict there): each name is one that
    # ir_measures' own function knows, whether or not a provider computes it
    original = trec_eval.original_parse_trec_measure()
    try:
        assert original(name)
    except ValueError as error:
        assert str(error) == f"known trec name {name}, but not yet supported"


def test_the_meta_api_reads_measures_with_the_catalogue() -> None:
    from ir_measures_pres import meta

    assert meta.parse_measures is catalogue.parse_measures
    with pytest.raises(MeasureNameError, match="unknown measure 'Foo'"):
        meta.parse_measures(["AP", "Foo"])


def test_real_processes_exit_with_2_and_name_every_bad_token(runs: Path) -> None:
    bad = [t for t, _ in REJECTED]
    report = error_lines(*(message for _, message in REJECTED))
    for argv in ([QRELS, RUN, "AP", *bad], ["agreement", QRELS, str(runs), "-m", "AP", *bad, "-q"]):
        done = subprocess.run(
            [sys.executable, "-m", "ir_measures_pres", *argv], capture_output=True, text=True, timeout=300
        )
        assert (done.returncode, done.stdout, done.stderr) == (2, "", report)


def test_a_bare_r_norm_output_name_says_how_to_give_the_collection_size() -> None:
    with pytest.raises(MeasureNameError) as info:
        parse_measures("Rnorm_bollmann_cut_100")
    message = str(info.value)
    assert "collection size" in message
    written, canonical = message.split("e.g. ")[1].split(", or as ")
    # both examples the message gives read as the measure with that size
    expected = [R_norm(collection_size=1_000_000, mode="bollmann") @ 100]
    assert parse_measures(written) == parse_measures(canonical) == expected


def test_strict_where_parse_trec_measure_is_lenient() -> None:
    # ir_measures reads 'P_10abc' as P_10 (its pattern is not anchored at the end); the catalogue
    # does not, and PyTerrier keeps ir_measures' own answer (the wrapper only adds names)
    with pytest.raises(MeasureNameError, match="unknown measure 'P_10abc'"):
        parse_measures("P_10abc")
    assert run_main([QRELS, RUN, "P_10abc"])[0] == 2
    assert ir_measures.parse_trec_measure("P_10abc") == [ir_measures.P @ 10]


def test_lists_keep_the_users_order_without_repeats() -> None:
    got = parse_measures(["nDCG@10 map", "AP P_5,10", PRES, "PRES", "Q-measure QMeasure"])
    assert got == [
        ir_measures.nDCG @ 10,
        ir_measures.AP,
        ir_measures.P @ 5,
        ir_measures.P @ 10,
        PRES,
        QMeasure,
    ]


def test_blanks_inside_brackets_and_around_at_do_not_split() -> None:
    assert parse_measures("QMeasure(beta=0.5, gains={1: 1, 2: 4})@10  PRES @ 100") == [
        QMeasure(beta=0.5, gains={1: 1, 2: 4}) @ 10,
        PRES @ 100,
    ]


def test_nicknames_come_in_trec_evals_order() -> None:
    # trec_eval's own output for its official measures, minus runid (not a measure); gm_map is
    # the registered GMAP (docs/trec_eval.md, "Registered measures")
    printed = [line.split()[0] for line in (DATA_TE / "out.test").read_text().splitlines()]
    expected = [name for name in printed if name != "runid"]
    assert [trec_name(m) for m in parse_measures("official")] == expected


# --------------------------------------------------------------------------------------------
# output names read back
# --------------------------------------------------------------------------------------------


def _every_style_of_every_entry() -> List[Any]:
    """For each catalogue entry with trec-style names: one measure per base name, with and
    without a cutoff (so a measure added to the catalogue is covered here by itself)."""
    out = []
    for entry in catalogue.MEASURES:
        style = entry.trec
        assert style is not None, f"{entry.measure.NAME} has no trec-style name"
        for value, _ in style.bases:
            params = {style.by: value} if style.by is not None else {}
            if style.number is not None:
                params[style.number.param] = 4321
            for param, info in entry.measure.SUPPORTED_PARAMS.items():  # known=FILE
                if info.required and info.dtype is str and param not in params:
                    params[param] = "known.txt"
            measure = entry.measure(**params)
            if style.at != "value":  # PRES without @k prints its default N_max (tested below)
                out.append(measure)
            if style.at != "none":
                out.append(measure @ 7)
    return out


STANDARD = [
    ir_measures.AP,
    ir_measures.AP @ 10,
    ir_measures.P @ 5,
    ir_measures.R @ 1000,
    ir_measures.nDCG,
    ir_measures.nDCG @ 10,
    ir_measures.RR,
    ir_measures.Bpref,
    ir_measures.Rprec,
    ir_measures.infAP,
    ir_measures.NumRet,
    ir_measures.NumRet(rel=1),
    ir_measures.NumRel,
    ir_measures.NumQ,
    ir_measures.SetP,
    ir_measures.SetP(relative=True),
    ir_measures.SetR,
    ir_measures.SetF,
    ir_measures.SetAP,
    ir_measures.Success @ 5,
    ir_measures.IPrec @ 0.1,
    # no trec_eval name: the canonical form
    ir_measures.AP(rel=2),
    ir_measures.RR @ 10,
    ir_measures.nDCG(dcg="exp-log2") @ 10,
]
OURS = [
    *_every_style_of_every_entry(),
    PRES @ 1000,
    PRES(rel=2) @ 100,
    R_norm(collection_size=1000, judged_only=True) @ 5,
    QMeasure(beta=0.5),
    QMeasure(gains={1: 1, 2: 4}) @ 3,
    OMeasure @ 1,
    PMeasure,
    PPlusMeasure @ 20,
    Bpref10(rel=2),
    unj @ 1000,
    rbp(p=0.5),
    rbp_resid(p=0.95),
    rbp_resid(p=0.123),
    yaap(rel=2),
]


@pytest.mark.parametrize("measure", STANDARD + OURS, ids=str)
def test_every_output_name_reads_back(measure: Any) -> None:
    name = trec_name(measure)
    assert " " not in name
    assert parse_measures(name) == [measure]
    assert ir_measures.parse_trec_measure(name) == [measure]  # PyTerrier reads it too


def test_every_base_name_of_every_entry_is_printed() -> None:
    printed = {trec_name(m) for m in _every_style_of_every_entry()}
    for entry in catalogue.MEASURES:
        assert entry.trec is not None
        for _, base in entry.trec.bases:
            assert any(name.startswith(base) for name in printed), base


def test_pres_prints_its_default_n_max() -> None:
    # PRES is PRES@1000 (N_max defaults to 1000, as PRESeval): the name says so
    assert trec_name(PRES) == "PRES_1000"
    assert parse_measures("PRES_1000") == [PRES @ 1000]


def test_r_norm_names_carry_the_collection_size() -> None:
    assert trec_names([R_norm(collection_size=1000), R_norm(collection_size=1000) @ 100]) == {
        R_norm(collection_size=1000): "Rnorm_N1000",
        R_norm(collection_size=1000) @ 100: "Rnorm_N1000_cut_100",
    }
    assert trec_name(R_norm(collection_size=1000, mode="bollmann")) == "Rnorm_bollmann_N1000"


# --------------------------------------------------------------------------------------------
# the same order whatever the hash seed
# --------------------------------------------------------------------------------------------

#: standard measures from several providers, ours, in no sorted order
ORDERED = "nDCG@10 PRES@1000 AP Q-measure P_5,10 bpref_top10pRnonrel RR Rnorm_N100000 bpref ERR@10 Judged@10"

SEED_SCRIPT = textwrap.dedent(
    """
    import io, sys
    from contextlib import redirect_stdout
    import ir_measures
    from ir_measures_pres.measures.catalogue import parse_measures
    from ir_measures_pres.cli.evaluate import main

    qrels, run, runs, measures = sys.argv[1:5]
    for options in ([], ["-q"], ["-q", "-o", "jsonl"], ["-q", "--format", "trec"], ["-q", "-p", "-1"]):
        out = io.StringIO()
        with redirect_stdout(out):
            assert main([qrels, run, measures, *options]) == 0
        print(out.getvalue())
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["agreement", qrels, runs, "-m", measures, "-q"]) == 0
    print(out.getvalue())
    qrels_rows = list(ir_measures.read_trec_qrels(qrels))
    run_rows = list(ir_measures.read_trec_run(run))
    for spec in ("PRES@1000 Q-measure bpref_top10pRnonrel Rnorm_N100000 OMeasure@5", measures):
        metrics = ir_measures.iter_calc(parse_measures(spec), qrels_rows, run_rows)
        print([(m.query_id, str(m.measure)) for m in metrics])
    """
)


def test_output_and_iter_calc_order_do_not_follow_the_hash_seed(runs: Path) -> None:
    pytest.importorskip("pandas")
    pytest.importorskip("scipy")
    outputs = set()
    for seed in ("0", "1", "2", "3", "4"):
        done = subprocess.run(
            [sys.executable, "-c", SEED_SCRIPT, QRELS, RUN, str(runs), ORDERED],
            capture_output=True,
            text=True,
            timeout=300,
            env={**os.environ, "PYTHONHASHSEED": seed},
        )
        assert done.returncode == 0, done.stderr
        outputs.add(done.stdout)
    assert len(outputs) == 1
    assert "Rnorm_N100000" in outputs.pop()  # --format trec was printed


def test_rows_follow_the_users_measure_order() -> None:
    user_order = [str(m) for m in parse_measures(ORDERED)]
    assert user_order[:4] == ["nDCG@10", "PRES@1000", "AP", "QMeasure"]
    for options in ([], ["-q"], ["-q", "-o", "jsonl"]):
        status, out, _ = run_main([QRELS, RUN, ORDERED, *options])
        assert status == 0
        rows = [line.split("\t") for line in out.splitlines()] if "jsonl" not in options else None
        if rows is None:
            rows = [[r.get("query_id", "all"), r["measure"]] for r in map(json.loads, out.splitlines())]
        if not options:
            assert [r[0] for r in rows] == user_order
            continue
        by_query: dict = {}
        for row in rows:
            by_query.setdefault(row[0], []).append(row[1])
        # query by query in the qrels' order, each with the measures in the user's order
        assert list(by_query) == ["301", "302", "303", "all"]
        assert all(names == user_order for names in by_query.values())
    status, out, _ = run_main([QRELS, RUN, ORDERED, "-q", "--format", "trec"])
    names = [line.split("\t")[0].strip() for line in out.splitlines() if "\t301\t" in line]
    assert names == [
        "ndcg_cut_10",
        "PRES_1000",
        "map",
        "Q-measure",
        "P_5",
        "P_10",
        "bpref_top10pRnonrel",
        "recip_rank",
        "Rnorm_N100000",
        "bpref",
        "ERR@10",
        "Judged@10",
    ]


def test_the_provider_puts_a_set_in_a_fixed_order() -> None:
    from ir_measures_pres.engine.provider import in_fixed_order

    measures = {QMeasure, PRES @ 10, Bpref10, R_norm(collection_size=9)}
    assert in_fixed_order(measures) == [Bpref10, PRES @ 10, QMeasure, R_norm(collection_size=9)]
    assert in_fixed_order([QMeasure, PRES]) == [QMeasure, PRES]


def test_the_package_exports_the_error() -> None:
    assert ir_measures_pres.MeasureNameError is MeasureNameError
    assert issubclass(MeasureNameError, ValueError)


@pytest.mark.parametrize(
    "token,message",
    [
        (
            "nDCG@1O",
            "invalid measure 'nDCG@1O': the value after '@' must be a number, found '1O'; "
            "did you mean nDCG@10?",
        ),
        (
            "PRES@l000",
            "invalid measure 'PRES@l000': the value after '@' must be a number, found 'l000'; "
            "did you mean PRES@1000?",
        ),
        ("AP@", "invalid measure 'AP@': nothing after '@' (e.g. AP@10)"),
        ("PRES@-1", "invalid measure 'PRES@-1': the value after '@' cannot be negative, found '-1'"),
        (
            "QMeasure(beta=O.5)",
            "invalid measure 'QMeasure(beta=O.5)': parameter 'beta': 'O.5' is not a value (a number, 'text', "
            "True/False or {...}); did you mean QMeasure(beta=0.5)?",
        ),
        (
            "RR(rel=x)@10",
            "invalid measure 'RR(rel=x)@10': parameter 'rel': 'x' is not a value "
            "(a number, 'text', True/False or {...})",
        ),
        (
            "QMeasure(beta=0.5",
            "invalid measure 'QMeasure(beta=0.5': the parameters must be in brackets, found '(beta=0.5'",
        ),
        ("map_cut.1O", "unknown measure 'map_cut.1O' (did you mean map_cut.10 or map_cut?)"),
        ("Q-measure@10", "unknown measure 'Q-measure@10' (did you mean QMeasure@10 or Q_measure@10?)"),
    ],
)
def test_syntax_errors_name_the_token_and_the_likely_fix(token: str, message: str) -> None:
    """Our words instead of Python's parser's ('invalid decimal literal', 'values must be str,
    float, int, bool, etc.'), and a suggestion only when it parses (issue #20, item 11)."""
    with pytest.raises(MeasureNameError) as caught:
        parse_measures(token)
    assert str(caught.value) == message
    for suggestion in re.findall(r"did you mean ([^?]*)\?", message):
        for name in suggestion.split(" or "):
            assert parse_measures(name)
