"""Registration in ir_measures: idempotent, our provider claims only our measures, every measure
documents itself, and the ir_measures internals we rely on still exist.

ir_measures 0.4.3 asserts that a measure name is new, has no plugin discovery, and needs the
provider appended to ``DefaultPipeline.providers`` (docs/pyterrier.md, "ir_measures versions that
discover plugins"). These tests pin
what ``ir_measures_pres.register()`` promises: any number of imports, reloads and calls leave one
entry per name and one provider in the pipeline.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
import textwrap
from pathlib import Path

import ir_measures
import pytest
from ir_measures import AP, ERR, RR, Bpref, IPrec, Judged, P, R, Rprec, nDCG

import ir_measures_pres
from ir_measures_pres.measures import catalogue

NAME = "ir_measures_pres"
OUR_NAMES = {
    "PRES",
    "R_norm",
    "Rnorm",
    "QMeasure",
    "Q_measure",
    "OMeasure",
    "O_measure",
    "PMeasure",
    "P_measure",
    "PPlusMeasure",
    "P_plus",
    "Bpref10",
    "Bpref_10",
}
REPO = Path(__file__).resolve().parents[1]


def snapshot() -> tuple[dict, dict, list]:
    return (
        dict(ir_measures.measures.registry),
        dict(ir_measures.providers.registry),
        list(ir_measures.DefaultPipeline.providers),
    )


def ours_in_pipeline() -> list:
    return [p for p in ir_measures.DefaultPipeline.providers if getattr(p, "NAME", None) == NAME]


def assert_same_state(before: tuple[dict, dict, list]) -> None:
    measures, providers, pipeline = before
    now_measures, now_providers, now_pipeline = snapshot()
    assert now_measures.keys() == measures.keys()
    assert all(now_measures[k] is measures[k] for k in measures)
    assert now_providers.keys() == providers.keys()
    assert all(now_providers[k] is providers[k] for k in providers)
    assert len(now_pipeline) == len(pipeline)
    assert all(a is b for a, b in zip(now_pipeline, pipeline))
    assert len(ours_in_pipeline()) == 1


# --------------------------------------------------------------------------------------------
# idempotence
# --------------------------------------------------------------------------------------------


def test_every_name_and_alias_is_registered() -> None:
    registry = ir_measures.measures.registry
    assert OUR_NAMES <= registry.keys()
    for entry in catalogue.MEASURES:
        for name in (entry.measure.NAME, *entry.aliases):
            assert registry[name] is entry.measure
    assert registry["Rnorm"] is registry["R_norm"] is ir_measures_pres.Rnorm


def test_registering_again_changes_nothing() -> None:
    before = snapshot()
    ir_measures_pres.register()
    ir_measures_pres.register()
    ir_measures_pres.register()
    assert_same_state(before)


def test_importing_twice_and_reloading_change_nothing() -> None:
    before = snapshot()
    import ir_measures_pres as again  # noqa: F401 - the second import is the point

    importlib.reload(ir_measures_pres)
    importlib.reload(ir_measures_pres)
    assert_same_state(before)
    assert ir_measures.calc_aggregate([ir_measures_pres.PRES @ 10], {"q": {"a": 1}}, {"q": {"a": 1.0}}) == {
        ir_measures_pres.PRES @ 10: 1.0
    }


def run_python(script: str) -> str:
    """Run ``script`` in a new interpreter (so that module surgery cannot leak into this session)."""
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_a_fresh_copy_of_the_package_registers_nothing_new() -> None:
    """In a new interpreter: import, then drop every ir_measures_pres module and import it again
    (new module objects and new singletons, as a second copy on sys.path would give), reload it
    and call register(): the registries and the pipeline keep one entry each, and the registered
    measures still evaluate."""
    out = run_python("""
        import importlib, sys
        import ir_measures
        import ir_measures_pres as first
        names = dict(ir_measures.measures.registry)
        providers = dict(ir_measures.providers.registry)
        pipeline = len(ir_measures.DefaultPipeline.providers)
        for mod in [m for m in sys.modules if m == "ir_measures_pres" or m.startswith("ir_measures_pres.")]:
            del sys.modules[mod]
        import ir_measures_pres as second
        assert second is not first and second.PRES is not first.PRES
        importlib.reload(second)
        second.register()
        first.register()
        assert ir_measures.measures.registry == names, "names changed"
        assert ir_measures.providers.registry == providers, "providers changed"
        assert len(ir_measures.DefaultPipeline.providers) == pipeline, "pipeline grew"
        ours = [p for p in ir_measures.DefaultPipeline.providers if p.NAME == "ir_measures_pres"]
        assert len(ours) == 1
        qrels, run = {"q": {"a": 1, "b": 0}}, {"q": {"b": 2.0, "a": 1.0}}
        # n = 1, rank 2, N_max = 10: PRES = 1 - (2 - 1)/10 = 0.9
        for pres in (first.PRES @ 10, ir_measures.parse_measure("PRES@10")):
            print(ir_measures.calc_aggregate([pres], qrels, run)[pres])
    """)
    assert [float(v) for v in out.split()] == pytest.approx([0.9, 0.9])


def test_a_measure_of_a_reloaded_family_module_still_evaluates() -> None:
    """supports() matches by NAME, so the evaluator must too (it once checked the class and refused
    a reloaded module's measure after claiming it)."""
    out = run_python("""
        import importlib
        import ir_measures
        import ir_measures_pres
        from ir_measures_pres.measures.recall import normalized as normalized_recall
        importlib.reload(normalized_recall)  # what %autoreload or a notebook re-run can do
        pres = normalized_recall.PRES @ 10
        assert ir_measures.providers.registry["ir_measures_pres"].supports(pres)
        qrels, run = {"q": {"a": 1, "b": 0}}, {"q": {"b": 2.0, "a": 1.0}}
        print(ir_measures.calc_aggregate([pres], qrels, run)[pres])
    """)
    assert float(out) == pytest.approx(0.9)


# --------------------------------------------------------------------------------------------
# the provider
# --------------------------------------------------------------------------------------------


def provider() -> ir_measures.providers.Provider:
    return ir_measures.providers.registry[NAME]


def test_the_provider_is_registered_under_its_name_and_in_the_pipeline() -> None:
    assert ir_measures_pres.PresProvider.NAME == NAME
    p = provider()
    assert isinstance(p, ir_measures_pres.PresProvider)
    assert ours_in_pipeline() == [p]
    assert p.is_available()
    from ir_measures_pres import _entry_points

    assert _entry_points.provider() is p  # the entry-point factory hands back the same instance


def test_the_provider_supports_exactly_our_measures() -> None:
    p = provider()
    for entry in catalogue.MEASURES:
        m = entry.measure
        required = [k for k, info in m.SUPPORTED_PARAMS.items() if info.required]
        if required:  # R_norm's collection size, the textbook's known=FILE, infIPrec's recall level
            values = {str: "known.txt", float: 1.0}
            m = m(**{k: values.get(m.SUPPORTED_PARAMS[k].dtype, 1000) for k in required})
        assert p.supports(m)
    assert {m.NAME for m in p.SUPPORTED_MEASURES} == {e.measure.NAME for e in catalogue.MEASURES}


STANDARD = [
    AP,
    AP @ 100,
    nDCG,
    nDCG @ 10,
    P @ 10,
    R @ 100,
    RR,
    RR @ 10,
    Bpref,
    Judged @ 10,
    ERR @ 10,
    IPrec @ 0.5,
    Rprec,
]


@pytest.mark.parametrize("measure", STANDARD, ids=str)
def test_the_provider_never_claims_a_standard_measure(measure) -> None:
    assert not provider().supports(measure)


def test_the_provider_claims_no_other_registered_measure() -> None:
    p = provider()
    ours = {e.measure.NAME for e in catalogue.MEASURES}
    checked = 0
    for name, measure in ir_measures.measures.registry.items():
        if measure.NAME in ours:
            continue
        try:
            measure.validate_params()  # singletons with a required parameter cannot be asked
        except AssertionError:
            continue
        assert not p.supports(measure), name
        checked += 1
    assert checked > 30


@pytest.mark.parametrize("measures", [[AP], [nDCG @ 10, AP], [ir_measures_pres.PRES @ 10, AP]], ids=str)
def test_a_standard_measure_given_to_the_provider_anyway_is_refused_by_name(measures) -> None:
    """What ``ir_measures --provider ir_measures_pres ... AP`` does: a ValueError naming AP."""
    with pytest.raises(ValueError) as info:
        provider().evaluator(measures, {"q": {"a": 1}})
    message = str(info.value)
    for m in measures:
        if m.NAME not in {e.measure.NAME for e in catalogue.MEASURES}:
            assert str(m) in message
    assert NAME in message


def test_the_cli_with_our_provider(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture, tmp_path: Path
) -> None:
    """``ir_measures qrels run PRES@10 --provider ir_measures_pres`` (run in-process, after our
    import): our measure evaluates, a standard one is refused by name."""
    from ir_measures.__main__ import main_cli

    qrels = tmp_path / "qrels"
    run = tmp_path / "run"
    qrels.write_text("q 0 a 1\nq 0 b 0\n")
    run.write_text("q Q0 b 1 2.0 t\nq Q0 a 2 1.0 t\n")
    monkeypatch.setattr(sys, "argv", ["ir_measures", str(qrels), str(run), "PRES@10", "--provider", NAME])
    main_cli()
    assert capsys.readouterr().out.split() == ["PRES@10", "0.9000"]  # 1 - (2 - 1)/10
    monkeypatch.setattr(sys, "argv", ["ir_measures", str(qrels), str(run), "AP", "--provider", NAME])
    with pytest.raises(ValueError, match="AP"):
        main_cli()


# --------------------------------------------------------------------------------------------
# guard: the ir_measures internals we touch
# --------------------------------------------------------------------------------------------


def test_the_ir_measures_internals_we_touch_still_exist() -> None:
    """If ir_measures renames any of these, registration or input handling breaks: fail here,
    with a clear name, rather than deep inside a calc call."""
    import ir_measures.__main__ as cli
    from ir_measures import measures, providers, util
    from ir_measures.measures.base import _NOT_PROVIDED, Measure, ParamInfo  # noqa: F401
    from ir_measures.providers.base import Any, Evaluator, Provider  # noqa: F401

    assert isinstance(measures.registry, dict)
    assert callable(measures.register)
    assert isinstance(providers.registry, dict)
    assert callable(providers.register)
    assert isinstance(ir_measures.DefaultPipeline.providers, list)
    assert callable(util.QrelsConverter) and callable(util.RunConverter)
    assert callable(cli.main_cli)
    for attr in ("AT_PARAM", "SUPPORTED_PARAMS", "DEFAULT", "NAME"):
        assert hasattr(Measure, attr), attr
    for attr in ("dtype", "required", "choices", "default", "desc"):
        assert hasattr(ParamInfo(), attr), attr
    assert "_iter_calc" in vars(Evaluator) and "iter_calc" in vars(Evaluator)
    for attr in ("evaluator", "supports", "iter_calc", "calc_aggregate", "calc", "_evaluator"):
        assert hasattr(Provider, attr), attr
    for fn in ("iter_calc", "calc_aggregate", "calc", "evaluator", "parse_measure"):
        assert callable(getattr(ir_measures, fn)), fn
