"""``ir_measures.parse_trec_measure`` extended to every name of the measure catalogue, and
unchanged for every string it accepted before.

The reference is a pristine copy of ir_measures' own ``util`` module, loaded from its file under
another name: its ``parse_trec_measure`` (and its recursion over nicknames) never sees our
wrapper, so "unchanged" is checked against ir_measures itself, not against our code. Where the
original rejects a string, the wrapper must answer exactly as the catalogue does (the verdict and
message the command lines give).
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import ir_measures
import ir_measures.util
import pytest
import pytrec_eval
from hypothesis import given, settings
from hypothesis import strategies as st

from ir_measures_pres import PRES, Bpref10, OMeasure, PMeasure, PPlusMeasure, QMeasure, R_norm
from ir_measures_pres.measures.catalogue import MeasureNameError, parse_measures
from ir_measures_pres.measures.trec_eval import parse_names as _trec_names
from ir_measures_pres.measures.trec_eval.judgement_aware import rbp, rbp_resid, unj, yaap

_trec_names.install()  # the lead wires this into register(); calling it again is a no-op

_spec = importlib.util.spec_from_file_location("_pristine_ir_measures_util", ir_measures.util.__file__)
_pristine = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_pristine)
ORIGINAL: Callable[[str], list[Any]] = _pristine.parse_trec_measure

#: every trec_eval name pytrec_eval knows (all keys of ir_measures' table are among them)
TREC_NAMES = sorted(pytrec_eval.supported_measures)
NICKNAMES = sorted(pytrec_eval.supported_nicknames)
#: parameterised spellings the original parses, or rejects for a reason of its own
PARAMETERISED = [
    "P_10",
    "P.5",
    "P.5,10,1000",
    "P_7",
    "ndcg_cut_10",
    "ndcg_cut.5,10",
    "recall_1000",
    "recall.5,100",
    "map_cut_100",
    "success_1",
    "success.1,5",
    "set_F_0.5",
    "set_F.1",
    "iprec_at_recall_0.10",
    "map_5",
    "bpref_10",
    "ndcg_rel_5",
    "Rprec_mult_2",
    "P_",
    "P.x",
    "ndcg_cut_",
    "recall_10,",
]
#: names ir_measures alone rejects: unknown names, standard ir_measures syntax, our trec-style
#: names, near misses of ours, odd spellings
UNKNOWN = [
    "",
    " ",
    "foo",
    "nDCG@10",
    "AP",
    "AP(rel=2)",
    "P@10",
    "R@1000",
    "RR",
    "Bpref",
    "ERR@20",
    "PRESS@10",
    "pres@10",
    "PRES_10",
    "QMeasure2",
    "bpref10",
    "Rnormal",
    "P_measurement",
    "map ",
    " map",
    " PRES@10",
    "\tQMeasure",
    "MAP",
    "NDCG_CUT_10",
    "P-measure",
    "Q-measure",
    "Bpref-10",
    "official2",
]


def outcome(fn: Callable[[Any], list[Any]], name: Any, capsys: Any = None) -> tuple:
    """What ``fn(name)`` did: ('ok', [(type, repr) ...]) or ('raise', type, message), plus stdout."""
    try:
        result = ("ok", [(type(m), repr(m)) for m in fn(name)])
    except Exception as error:  # noqa: BLE001 -- compared, not swallowed
        result = ("raise", type(error), str(error))
    printed = capsys.readouterr().out if capsys is not None else ""
    return result + (printed,)


def expected_outcome(name: Any, capsys: Any = None) -> tuple:
    """The original's outcome where it accepts ``name`` (or fails otherwise than with a
    ValueError, or ``name`` is no string), else the catalogue's."""
    original = outcome(ORIGINAL, name, capsys)
    if original[0] == "raise" and issubclass(original[1], ValueError) and isinstance(name, str):
        catalogue = outcome(parse_measures, name, capsys)
        return catalogue[:-1] + (original[-1] + catalogue[-1],)
    return original


@pytest.mark.parametrize("name", TREC_NAMES + NICKNAMES + PARAMETERISED + UNKNOWN)
def test_the_original_where_it_accepts_else_the_catalogue(name: str, capsys: Any) -> None:
    capsys.readouterr()
    expected = expected_outcome(name, capsys)
    assert outcome(ir_measures.parse_trec_measure, name, capsys) == expected
    assert outcome(ir_measures.util.parse_trec_measure, name, capsys) == expected


@pytest.mark.parametrize(
    "name, expected",
    [
        ("nDCG@10", [ir_measures.nDCG @ 10]),
        ("AP(rel=2)", [ir_measures.AP(rel=2)]),
        ("P@10", [ir_measures.P @ 10]),
        ("PRES_10", [PRES @ 10]),
        ("Q-measure", [QMeasure]),
        ("P-measure", [PMeasure]),
        ("Rnorm_N500", [R_norm(collection_size=500)]),
        ("map ", [ir_measures.AP]),
        ("AP nDCG@10", [ir_measures.AP, ir_measures.nDCG @ 10]),
        # trec_eval 10's names: its output names and its -m syntax
        ("unj_5", [unj @ 5]),
        ("unj.5,10", [unj @ 5, unj @ 10]),
        ("unj", [unj @ 5, unj @ 10, unj @ 20]),
        ("rbp_p=0.5", [rbp(p=0.5)]),
        ("rbp.p=0.5", [rbp(p=0.5)]),
        ("rbp_resid.p=0.95", [rbp_resid(p=0.95)]),
        ("yaap", [yaap]),
        ("RBP@10", [ir_measures.RBP @ 10]),  # ir_measures' RBP keeps its name
    ],
)
def test_strings_the_original_rejects_and_the_catalogue_reads(name: str, expected: list) -> None:
    with pytest.raises(ValueError):
        ORIGINAL(name)
    assert ir_measures.parse_trec_measure(name) == expected


@pytest.mark.parametrize(
    "name, message",
    [
        ("foo", "unknown measure 'foo'"),
        ("Bpref-10", "unknown measure 'Bpref-10' (did you mean Bpref10 or Bpref_10 or Bpref?)"),
        # as docs/cli.md shows them
        (
            "Q-measure@10",
            "unknown measure 'Q-measure@10' (did you mean QMeasure@10 or Q_measure@10?)",
        ),
        ("", "no measure given"),
    ],
)
def test_strings_both_reject_raise_the_catalogues_error(name: str, message: str) -> None:
    with pytest.raises(MeasureNameError) as info:
        ir_measures.parse_trec_measure(name)
    assert str(info.value) == message


def test_reference_is_meaningful(capsys: Any) -> None:
    # the pristine copy does parse trec names and expand nicknames, so the comparison above bites
    assert ORIGINAL("map") == [ir_measures.AP]
    assert ORIGINAL("P.5,10") == [ir_measures.P @ 5, ir_measures.P @ 10]
    official = ORIGINAL("official")
    assert ir_measures.AP in official and ir_measures.P @ 10 in official and len(official) > 10
    assert "gm_map" in capsys.readouterr().out  # it reports the trec names it skipped
    with pytest.raises(ValueError):
        ORIGINAL("nDCG@10")


@pytest.mark.parametrize("value", [None, 5, 1.5, ir_measures.AP, ("map",)])
def test_non_strings_fail_as_before(value: Any) -> None:
    assert outcome(ir_measures.parse_trec_measure, value)[:3] == outcome(ORIGINAL, value)[:3]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("PRES@1000", PRES @ 1000),
        ("PRES", PRES),
        ("PRES(estimate=True)@100", PRES(estimate=True) @ 100),
        ("PRES @ 10 ", PRES @ 10),
        ("QMeasure", QMeasure),
        ("QMeasure(beta=0.5)@100", QMeasure(beta=0.5) @ 100),
        ("QMeasure(gains={1: 1, 2: 4})", QMeasure(gains={1: 1, 2: 4})),
        ("Q_measure(beta=0)", QMeasure(beta=0.0)),
        ("OMeasure@10", OMeasure @ 10),
        ("O_measure", OMeasure),
        ("PMeasure", PMeasure),
        ("P_measure(beta=2)", PMeasure(beta=2.0)),  # 'P_' looks like trec's P_k, but is not a cutoff
        ("PPlusMeasure@5", PPlusMeasure @ 5),
        ("P_plus", PPlusMeasure),
        ("R_norm(collection_size=1000)", R_norm(collection_size=1000)),
        ("Rnorm(collection_size=50, mode='bollmann')@20", R_norm(collection_size=50, mode="bollmann") @ 20),
        ("Bpref10", Bpref10),
        ("Bpref_10(variant='old')", Bpref10(variant="old")),
    ],
)
def test_our_measures_parse(text: str, expected: Any) -> None:
    with pytest.raises(ValueError):
        ORIGINAL(text)  # ir_measures alone does not know them
    for fn in (ir_measures.parse_trec_measure, ir_measures.util.parse_trec_measure):
        got = fn(text)
        assert len(got) == 1
        assert type(got[0]) is type(expected) and got[0] == expected
        assert repr(got[0]) == repr(expected)
        # the canonical string form goes round (PyTerrier shows the user's own string)
        assert fn(str(got[0])) == got


def test_deprecated_alias_follows() -> None:
    with pytest.warns(DeprecationWarning):
        assert ir_measures.util.convert_trec_name("PRES@10") == [PRES @ 10]


@pytest.mark.parametrize(
    "text, words",
    [
        ("PRES(foo=1)@10", ["foo"]),
        ("PRES@0", ["cutoff", "from 1 to"]),
        ("PRES(rel='2')", ["rel", "integer"]),
        ("QMeasure(beta=-1)", ["beta"]),
        ("R_norm", ["collection_size"]),
        ("Rnorm@10", ["collection_size"]),
        ("Bpref10(variant='x')", ["variant"]),
        ("PRES-10", ["PRES-10"]),
        ("PRES(1000)", ["PRES(1000)"]),
        ("QMeasure(beta=0.5", ["QMeasure(beta=0.5"]),
    ],
)
def test_our_names_with_bad_parameters_explain(text: str, words: list[str]) -> None:
    with pytest.raises(ValueError) as info:
        ir_measures.parse_trec_measure(text)
    for word in words:
        assert word in str(info.value)


def test_bad_string_inside_a_nickname_walk_is_still_skipped() -> None:
    # the nickname loop catches only ValueError: all our errors must be ValueErrors
    with pytest.raises(ValueError):
        ir_measures.parse_trec_measure("PRES(foo=1)")
    with pytest.raises(ValueError):
        ir_measures.parse_trec_measure("R_norm")


def test_install_is_idempotent_and_wraps_both_names_once(monkeypatch: pytest.MonkeyPatch) -> None:
    mark = _trec_names._MARK
    current = ir_measures.parse_trec_measure
    original = getattr(current, mark, current)
    assert not hasattr(original, mark)
    monkeypatch.setattr(ir_measures, "parse_trec_measure", original)
    monkeypatch.setattr(ir_measures.util, "parse_trec_measure", original)
    assert not _trec_names.is_installed()
    with pytest.raises(ValueError):
        ir_measures.parse_trec_measure("PRES@10")

    _trec_names.install()
    wrapper = ir_measures.parse_trec_measure
    assert _trec_names.is_installed()
    assert ir_measures.util.parse_trec_measure is wrapper
    assert getattr(wrapper, mark) is original
    assert wrapper.__name__ == "parse_trec_measure"
    for _ in range(3):
        _trec_names.install()
        assert ir_measures.parse_trec_measure is wrapper
        assert ir_measures.util.parse_trec_measure is wrapper
    assert wrapper("PRES@10") == [PRES @ 10]
    assert wrapper("map") == [ir_measures.AP]


def test_install_wraps_a_name_someone_else_replaced(monkeypatch: pytest.MonkeyPatch) -> None:
    # another plugin put its own function under one of the names: wrap it too, do not drop it
    original = getattr(ir_measures.util.parse_trec_measure, _trec_names._MARK)

    def theirs(measure: str) -> list[Any]:
        if measure == "theirs":
            return [ir_measures.nDCG @ 3]
        return original(measure)

    monkeypatch.setattr(ir_measures, "parse_trec_measure", theirs)
    _trec_names.install()
    assert getattr(ir_measures.parse_trec_measure, _trec_names._MARK) is theirs
    assert ir_measures.parse_trec_measure("theirs") == [ir_measures.nDCG @ 3]
    assert ir_measures.parse_trec_measure("PRES@5") == [PRES @ 5]
    assert ir_measures.parse_trec_measure("map") == [ir_measures.AP]


_TOKENS = [
    "map",
    "P",
    "ndcg",
    "ndcg_cut",
    "recall",
    "success",
    "set_F",
    "official",
    "PRES",
    "QMeasure",
    "R_norm",
    "Rnorm",
    "P_measure",
    "Bpref10",
    "nDCG",
    "rbp",
    "unj",
    "p=0.5",
    "AP",
    "_",
    ".",
    "@",
    ",",
    "5",
    "10",
    "0.5",
    "(",
    ")",
    "beta=0.5",
    "collection_size=9",
    "=",
    "'",
    " ",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_TOKENS), max_size=6).map("".join))
def test_changes_only_rejected_strings_and_answers_as_the_catalogue(text: str) -> None:
    import contextlib
    import io

    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        original = outcome(ORIGINAL, text)
        got = outcome(ir_measures.parse_trec_measure, text)
        catalogue = outcome(parse_measures, text)
    if got == original:
        return
    # a difference only where the original raised ValueError, and then the catalogue's answer
    assert original[0] == "raise" and issubclass(original[1], ValueError), (text, original, got)
    assert got == catalogue, (text, got, catalogue)
    if got[0] == "raise":
        assert got[1] is MeasureNameError


def test_a_foreign_wrapper_around_ours_does_not_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    # another plugin wraps our wrapper and falls back on its own: the catalogue, reading a
    # trec_eval name through it, must get the original's answer, not come back to itself
    ours = ir_measures.util.parse_trec_measure

    def theirs(measure: str) -> list[Any]:
        return ours(measure)

    monkeypatch.setattr(ir_measures.util, "parse_trec_measure", theirs)
    monkeypatch.setattr(ir_measures, "parse_trec_measure", theirs)
    assert theirs("nDCG@10") == [ir_measures.nDCG @ 10]
    with pytest.raises(MeasureNameError, match="unsupported trec_eval measure 'relstring'"):
        theirs("relstring")


def test_importing_the_package_installs_the_extension() -> None:
    code = (
        "import ir_measures, ir_measures_pres; "
        "print(ir_measures.parse_trec_measure('PRES@1000'), "
        "ir_measures.util.parse_trec_measure('QMeasure'))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], check=False, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["[PRES@1000]", "[QMeasure]"]
