"""What the bounds over unjudged documents know of each measure (measures/bounds_spec.py): one
record beside the measure's kernel, from which the lists are derived (engine/bounds_catalogue.py),
and the two surfaces that
ask it (``calc_bounds`` and ``ir_measures_pres QRELS RUN ... --bounds``), which must agree on
every measure: which are refused, with which message, and every number.
"""

from __future__ import annotations

import io
import json
import re
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import ir_measures
import numpy as np
import pytest

import ir_measures_pres
from ir_measures_pres.cli.evaluate import main
from ir_measures_pres.data.inputs import InputError
from ir_measures_pres.engine import bounds
from ir_measures_pres.engine.bounds import BoundsError, calc_bounds, refusal
from ir_measures_pres.engine.bounds_catalogue import all_specs, docs_table, spec_of
from ir_measures_pres.measures.base import MeasureParameterError
from ir_measures_pres.measures.bounds_spec import COMPLETIONS, EXTREMES, FREE, REFUSED
from ir_measures_pres.measures.catalogue import MeasureNameError, parse_measures

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "ir_measures_pres" / "data" / "sample"
QRELS, RUN = SAMPLE / "qrels.test", SAMPLE / "results.test"


def test_the_docs_table_is_the_derived_one() -> None:
    """docs/uncertainty.md's table "Which measures, and how exact" is what the specs say."""
    page = (ROOT / "docs" / "uncertainty.md").read_text()
    assert docs_table() in page
    # and every row of that table names only measures whose spec says what the row says
    for line in docs_table().splitlines()[2:]:
        names, kind = line.split(" | ")[0:2]
        for label in re.findall(r"`([^`]+)`", names):
            if label == "judged_only=True":
                continue
            (spec,) = [s for s in all_specs() if s.label == label]
            expected = {EXTREMES: "exact", COMPLETIONS: "exact", REFUSED: "refused", FREE: "none needed"}
            assert kind.startswith(expected[spec.kind]), (label, kind)


def test_the_refusal_lists_the_measures_that_have_bounds() -> None:
    """The message of a measure without a spec lists every spec of a bounded kind, by label."""
    message = refusal(ir_measures.ERR @ 10)
    assert message is not None
    listed = message.split("they are given for ")[1].rstrip(")").split(", ")
    bounded = [s.label for s in all_specs() if s.kind in (EXTREMES, COMPLETIONS)]
    assert sorted(listed) == sorted(bounded) and len(set(listed)) == len(listed)
    assert {"P@k", "RR", "Success@k", "DCG", "CG", "NTCIR_RBP", "AP", "R@k", "Rprec", "nDCG"} <= set(listed)
    assert {"PRES", "QMeasure", "R_norm"} <= set(listed)


def test_every_spec_is_reached_by_its_measure() -> None:
    """Each spec hangs off one measure, and spec_of finds it there (and none for a measure of
    another library that shares a name)."""
    from ir_measures_pres.measures.standard.kernels import STANDARD_KERNELS, STANDARD_REFUSED
    from ir_measures_pres.measures.table import MEASURES

    for entry in MEASURES:
        assert spec_of(entry.measure) is entry.bounds
    for name, kernel in STANDARD_KERNELS.items():
        assert spec_of(ir_measures.measures.registry[name]) is kernel.bounds
    for name, spec in STANDARD_REFUSED.items():
        assert spec_of(ir_measures.measures.registry[name]) is spec
    assert spec_of(ir_measures.ERR) is None


def test_a_relevance_free_measure_is_its_own_bounds() -> None:
    """unj@10 does not depend on relevance: lo = hi = value, exact, per query and as the means
    (d1 and d3 unjudged in q's top 10: 2/10; q2, which the run lacks: DEFAULT 0)."""
    qrels = {"q": {"d2": 1}, "q2": {"x": 1}}
    run = {"q": {"d1": 3.0, "d2": 2.0, "d3": 1.0}}
    (unj,) = parse_measures("unj@10")
    b = calc_bounds([unj], qrels, run)[unj]
    assert (b.value, b.lo, b.hi, b.exact) == (0.1, 0.1, 0.1, True)
    assert [(q.value, q.lo, q.hi, q.exact) for q in b.per_query.values()] == [
        (0.2, 0.2, 0.2, True),
        (0.0, 0.0, 0.0, True),
    ]


def test_no_bound_is_clamped_to_the_value(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bounds are the search's numbers, not clamped to the value: a search that undershot
    would show. AP of d01 (relevant), nine judged non-relevant, d11 (unjudged): the value is 1
    and every unjudged document relevant gives (1 + 2/11) / 2 = 13/22; a search that returns
    only that end (m = u) for both sides makes hi 13/22, below the value, and it is printed so."""
    qrels = {"q": {"d01": 1, **{f"d{k:02d}": 0 for k in range(2, 11)}}}
    run = {"q": {f"d{k:02d}": float(20 - k) for k in range(1, 12)}}
    honest = calc_bounds("AP", qrels, run)[ir_measures.AP].per_query["q"]
    assert (honest.value, honest.lo, honest.hi) == pytest.approx((1.0, 13 / 22, 1.0))

    def undershoot(layout: Any, plan: Any, top: bool, ends: np.ndarray, n_relevant: np.ndarray) -> Any:
        return ends[layout.ranked.num_queries :]

    monkeypatch.setattr(bounds, "branch_and_bound", undershoot)
    b = calc_bounds("AP", qrels, run)[ir_measures.AP].per_query["q"]
    assert (b.value, b.lo, b.hi) == pytest.approx((1.0, 13 / 22, 13 / 22))


def test_completed_qrels_are_built_through_the_constructor() -> None:
    """Qrels known by labels alone: counted and indexed as any qrels, no document to look up."""
    from ir_measures_pres.data.qrels import Qrels

    qrels = Qrels.of_labels(["a", "b"], np.array([0, 3, 4]), np.array([1, 2, 0, 2]))
    assert qrels.count(lo=1).tolist() == [2, 1] and qrels.count(lo=2).tolist() == [1, 1]
    assert qrels.index == {"a": 0, "b": 1}
    with pytest.raises(ValueError, match="no document ids"):
        _ = qrels.lookup
    for path in (ROOT / "ir_measures_pres" / "engine").glob("bounds*.py"):
        text = path.read_text()
        assert not re.search(r"\._(lookup|cache|docs)\b", text), path.name
        assert "(Qrels)" not in text, path.name  # no subclass that skips the constructor


# --------------------------------------------------------------------------------------------
# calc_bounds and the command agree on every measure
# --------------------------------------------------------------------------------------------


def _measures() -> List[str]:
    """Every measure of the catalogue and every standard measure with a native kernel or a
    spec, each with the parameters it needs; and measures of ir_measures without one."""
    from ir_measures_pres.measures.standard.kernels import STANDARD_KERNELS, STANDARD_REFUSED
    from ir_measures_pres.measures.table import MEASURES

    names = [str(e.measure) for e in MEASURES] + list(STANDARD_KERNELS) + list(STANDARD_REFUSED)
    names += [
        "ERR@10",
        "NumRet",
        "nDCG(gains={0:1,1:2})",
        "nDCG(gains={1:3,2:1})@5",
        "R_norm(collection_size=100000,mode='bollmann')",
    ]
    out = []
    for name in names:
        for candidate in (name, f"{name}@10", f"{name}(collection_size=100000)"):
            try:
                parse_measures(candidate)
            except (MeasureNameError, ValueError):
                continue
            out.append(candidate)
            break
    return out


def _command(measure: str) -> Tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main([str(QRELS), str(RUN), measure, "--bounds", "-q", "--format", "jsonl"])
    return status, out.getvalue(), err.getvalue()


def _python(measure: str) -> Tuple[Optional[str], Dict[Any, Any]]:
    """calc_bounds' bounds, or its refusal: a BoundsError, or ``other: ...`` for one of the
    package's errors about the inputs or the measure (a measure that needs what the sample lacks:
    known=FILE, strata). Any other exception is a crash and fails the test here."""
    try:
        return None, calc_bounds(measure, str(QRELS), str(RUN))
    except BoundsError as error:
        return str(error), {}
    except (InputError, MeasureParameterError, MeasureNameError) as error:
        return f"other: {error}", {}


@pytest.mark.parametrize("name", _measures())
def test_python_and_the_command_agree(name: str) -> None:
    refused, python = _python(name)
    status, out, err = _command(name)
    if refused is not None and refused.startswith("other: "):
        # e.g. known=FILE or strata: not a bounds matter; the command refuses it in one line as
        # a usage (2) or input (1) error, never an internal error (70)
        assert status in (1, 2) and out == "", (name, refused, status, err)
        assert len(err.strip().splitlines()) == 1 and "internal error" not in err, (name, err)
        return
    if refused is not None:
        assert status == 2 and out == "", (name, err)
        assert err.strip() == f"ir_measures_pres: error: --bounds: {refused}", name
        return
    assert status == 0, (name, err)
    rows = [json.loads(line) for line in out.splitlines()]
    for measure, b in python.items():
        mine = [r for r in rows if r["measure"] == str(measure)]
        assert len(mine) == len(b.per_query) + 1, name
        free = spec_of(measure) is not None and spec_of(measure).kind == FREE  # type: ignore[union-attr]
        for row in mine:
            q = b if row["query_id"] == "all" else b.per_query[row["query_id"]]
            assert row["value"] == pytest.approx(q.value, abs=1e-12), (name, row)
            if free:  # the command leaves the cells empty: they are the value itself
                assert "lo" not in row and (q.lo, q.hi, q.exact) == (q.value, q.value, True)
            else:
                assert (row["lo"], row["hi"], row["exact"]) == (
                    pytest.approx(q.lo, abs=1e-12),
                    pytest.approx(q.hi, abs=1e-12),
                    q.exact,
                ), (name, row)


def test_the_walk_covers_every_kind() -> None:
    kinds = set()
    for name in _measures():
        spec = spec_of(parse_measures(name)[0])
        kinds.add(None if spec is None else spec.kind)
    assert kinds == {None, EXTREMES, COMPLETIONS, REFUSED, FREE}
    assert ir_measures_pres.calc_bounds is calc_bounds
