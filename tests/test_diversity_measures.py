"""The registered diversity measures (docs/diversity.md, "Registered measures"): ``D_nDCG``,
``D_Q``, ``Dsharp_nDCG``, ``Dsharp_Q``, ``DIN_nDCG``, ``DIN_Q``, ``DINsharp_nDCG``,
``DINsharp_Q`` and ``I_rec`` with ``probs=``, ``dqrels=``, ``gains=``, ``gamma`` and ``@l``.

Expected values: the reference files NTCIREVAL's scripts wrote for set A (tests/data/
ntcireval-diversity, per topic and NEV2mean's means), on the set A runs rewritten with scores
that put each topic's lines in their file order (the scripts ignore the scores, the registered
measures rank by them: trec_eval's order), and the naive loop written from the spec's formulas
(tests/_naive_diversity.py) on seeded random collections.
"""

from __future__ import annotations

import contextlib
import gzip
import io
from collections import defaultdict
from pathlib import Path
from typing import Any, Dict, Iterable, List, Mapping, NamedTuple, Tuple

import ir_measures
import pytest
from _naive_diversity import naive_topic
from conftest import DATA
from test_diversity_command import _random_collection

import ir_measures_pres  # noqa: F401  (registers the measures)
from ir_measures_pres.cli.evaluate import main
from ir_measures_pres.data.inputs import InputError
from ir_measures_pres.measures.base import MeasureParameterError

SET_A = DATA / "ntcireval-diversity" / "setA"
#: set A's runs, as its run list (the tool's ``runl``) names them
RUNS = (SET_A / "runl").read_text().split()
#: reference file (evalname, suffix, gains) -> {printed name at l: registered name}
LINES = {
    "Dnev": {
        "MSnDCG": "D_nDCG",
        "Q": "D_Q",
        "I-rec": "I_rec",
        "D#-nDCG": "Dsharp_nDCG",
        "D#-Q": "Dsharp_Q",
        "nERR": "D_nERR",
        "ERR": "D_ERR",
        "EBR": "D_EBR",
        "RBP": "D_RBP",
    },
    "DINnev": {"MSnDCG": "DIN_nDCG", "Q": "DIN_Q", "DIN#-nDCG": "DINsharp_nDCG", "DIN#-Q": "DINsharp_Q"},
}
#: the intent-aware files' lines ``TID SUMp= s NAME@l= v``: printed name -> registered name
IA_LINES = {
    "nevIA": {
        "IA-MSnDCG": "IA_nDCG",
        "IA-Q": "IA_Q",
        "IA-ERR": "IA_ERR",
        "IA-nERR": "IA_nERR",
        "IA-EBR": "IA_EBR",
        "IA-RBP": "IA_RBP",
    },
    "nevPQ": {"PplusQ": "PplusQ"},
}
IA_FILES = [
    ("l10", 10, "nevIA", "setA.Iprob", "linear"),
    ("l20", 20, "nevIA", "setA.Iprob", "linear"),
    ("ia2l10", 10, "nevIA", "setA.Iprob", "linear"),
    ("ia2l20", 20, "nevIA", "setA.Iprob", "linear"),
    ("xia2l10", 10, "nevIA", "setA.Iprob", "exp"),
    ("l10", 10, "nevPQ", "setA.DINprob", "linear"),
    ("l20", 20, "nevPQ", "setA.DINprob", "linear"),
]
FILES = [
    ("l10", 10, "Dnev", "linear"),
    ("l20", 20, "Dnev", "linear"),
    ("l1000", 1000, "Dnev", "linear"),
    ("l10", 10, "DINnev", "linear"),
    ("l20", 20, "DINnev", "linear"),
    ("x10", 10, "Dnev", "exp"),
    ("x10", 10, "DINnev", "exp"),
]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Dict[str, Path]:
    """The set A judgements as files (the Dqrels unpacked; TREC qrels of every topic of the
    probabilities: the Dqrels' documents, their highest level, and a judged non-relevant
    placeholder so that a topic without relevant documents is scored)."""
    d = tmp_path_factory.mktemp("diversity")
    dqrels = gzip.open(SET_A / "setA.Dqrels.gz").read()
    (d / "setA.Dqrels").write_bytes(dqrels)
    best: Dict[Tuple[str, str], int] = {}
    for line in dqrels.decode().splitlines():
        t, _, doc, level = line.split()
        best[(t, doc)] = max(best.get((t, doc), 0), int(level[1:]))
    topics = sorted({line.split()[0] for line in (SET_A / "setA.DINprob").read_text().splitlines()})
    lines = [f"{t} 0 {doc} {v}\n" for (t, doc), v in best.items()]
    lines += [f"{t} 0 placeholder-not-retrieved 0\n" for t in topics]
    (d / "setA.qrels").write_text("".join(lines))
    return {"dir": d, "dqrels": d / "setA.Dqrels", "qrels": d / "setA.qrels"}


def _calc(measures: List[Any], qrels: Any, run: List[Any], check: Any = None) -> Dict[Tuple[str, Any], float]:
    """Per (topic, measure), what ``ir_measures.iter_calc`` gives, once our provider is seen to
    yield every topic of the run itself: ir_measures adds the DEFAULT, 0, of a qrels topic the
    provider does not yield, which would hide a dropped topic wherever the reference value is 0.
    ``check``: the qrels for that check when ``qrels`` can be read once only (an iterator)."""
    from ir_measures_pres.engine.provider import PresProvider

    evaluator = PresProvider()._evaluator(measures, qrels if check is None else check)
    yielded = {(r.query_id, r.measure) for r in evaluator._iter_calc(run)}
    judged = set(evaluator.qrels.query_ids)
    dropped = [(d.query_id, str(m)) for d in run for m in measures if d.query_id in judged]
    dropped = sorted({(t, m) for t, m in dropped} - {(t, str(m)) for t, m in yielded})
    assert not dropped, f"topics of the run without a value: {dropped[:5]}"
    return {(r.query_id, r.measure): r.value for r in ir_measures.iter_calc(measures, qrels, run)}


def _topic(ours: Mapping[Any, float], key: Any, run: Iterable[Any]) -> float:
    """Our value of one topic (``key``: the topic, or (topic, measure)). Every topic the run
    holds must have one: a topic dropped on the way fails here, whatever its reference value. A
    topic the run lacks has none (ir_measures yields the run's topics); the tools score it 0."""
    if key in ours:
        return ours[key]
    tid = key[0] if isinstance(key, tuple) else key
    assert tid not in {d.query_id for d in run}, f"topic {tid} of the run has no value: dropped"
    return 0.0


def _in_file_order(run: str, out: Path) -> List[ir_measures.ScoredDoc]:
    """The run with distinct scores descending in file order, written to ``out`` too (so that
    trec_eval's order, score descending, is the scripts' file order)."""
    seen: Dict[str, int] = defaultdict(int)
    docs, lines = [], []
    for line in gzip.open(SET_A / f"{run}.gz").read().decode().splitlines():
        t, _, doc, *_ = line.split()
        seen[t] += 1
        score = 100000 - seen[t]
        docs.append(ir_measures.ScoredDoc(t, doc, float(score)))
        lines.append(f"{t} Q0 {doc} {seen[t]} {score} r\n")
    out.write_text("".join(lines))
    return docs


def _reference(name: str) -> Dict[Tuple[str, str], float]:
    values = {}
    for line in gzip.open(SET_A / "out" / f"{name}.gz").read().decode().splitlines():
        tokens = line.split()
        if len(tokens) == 3 and tokens[1].endswith("="):
            values[(tokens[0], tokens[1][:-1])] = float(tokens[2])
    return values


def _measure(name: str, files: Dict[str, Path], prob: str = "setA.DINprob", **params: object) -> str:
    extra = "".join(f",{k}={v!r}" for k, v in params.items() if k != "cutoff")
    at = f"@{params['cutoff']}" if "cutoff" in params else ""
    return f"{name}(probs='{SET_A / prob}',dqrels='{files['dqrels']}'{extra}){at}"


@pytest.mark.parametrize("run", RUNS)
@pytest.mark.parametrize("evalname,cutoff,suffix,gains", FILES)
def test_registered_values_are_the_reference_files(
    files: Dict[str, Path], run: str, evalname: str, cutoff: int, suffix: str, gains: str
) -> None:
    """Per topic, each registered measure is the line the script wrote, to its 4 decimals (the
    D# lines, which the script computes from two printed values and prints again, within 1e-4)."""
    expected = _reference(f"{run}.{evalname}.{suffix}")
    scored = _in_file_order(run, files["dir"] / f"{run}.run")
    qrels = list(ir_measures.read_trec_qrels(str(files["qrels"])))
    at = f"@{cutoff:04d}"
    measures = {
        printed: ir_measures.parse_measure(_measure(name, files, gains=gains, cutoff=cutoff))
        for printed, name in LINES[suffix].items()
    }
    ours = _calc(list(measures.values()), qrels, scored)
    checked = 0
    for (tid, line), value in expected.items():
        if not line.endswith(at) or line[: -len(at)] not in measures:
            continue
        printed = line[: -len(at)]
        got = _topic(ours, (tid, measures[printed]), scored)
        tolerance = 1e-4 if "#" in printed else 5e-5
        assert abs(got - value) <= tolerance + 1e-9, (tid, printed, got, value)
        checked += 1
    assert checked >= 30 * (len(measures) - 2)


@pytest.mark.parametrize("run", RUNS)
@pytest.mark.parametrize("cutoff", [10, 20])
def test_eval2_lines_are_the_reference_files(files: Dict[str, Path], run: str, cutoff: int) -> None:
    """D-NTCIR-eval2's ``.Dnev`` (RBP with p = 0.99, and D#-ERR, D#-EBR, D#-RBP): ``D_RBP`` with
    ``p=0.99`` and the three D# measures at their defaults (``Dsharp_RBP``'s p is eval2's 0.99),
    per topic, the line the script wrote (the D# lines within 1e-4)."""
    expected = _reference(f"{run}.e2l{cutoff}.Dnev")
    scored = _in_file_order(run, files["dir"] / f"{run}.run")
    qrels = list(ir_measures.read_trec_qrels(str(files["qrels"])))
    lines = {
        "RBP": _measure("D_RBP", files, p=0.99, cutoff=cutoff),
        "ERR": _measure("D_ERR", files, cutoff=cutoff),
        "D#-ERR": _measure("Dsharp_ERR", files, cutoff=cutoff),
        "D#-EBR": _measure("Dsharp_EBR", files, cutoff=cutoff),
        "D#-RBP": _measure("Dsharp_RBP", files, cutoff=cutoff),
    }
    measures = {printed: ir_measures.parse_measure(text) for printed, text in lines.items()}
    ours = _calc(list(measures.values()), qrels, scored)
    at = f"@{cutoff:04d}"
    checked = 0
    for (tid, line), value in expected.items():
        if line.endswith(at) and line[: -len(at)] in measures:
            printed = line[: -len(at)]
            got = _topic(ours, (tid, measures[printed]), scored)
            tolerance = 1e-4 if "#" in printed else 5e-5
            assert abs(got - value) <= tolerance + 1e-9, (tid, printed, got, value)
            checked += 1
    assert checked >= 5 * 29


def _reference_ia(name: str) -> Dict[Tuple[str, str], float]:
    values = {}
    for line in gzip.open(SET_A / "out" / f"{name}.gz").read().decode().splitlines():
        tokens = line.split()
        if len(tokens) == 5 and tokens[1] == "SUMp=":
            values[(tokens[0], tokens[3][:-1])] = float(tokens[4])
    return values


@pytest.mark.parametrize("run", RUNS)
@pytest.mark.parametrize("evalname,cutoff,suffix,prob,gains", IA_FILES)
def test_intent_aware_values_are_the_reference_files(
    files: Dict[str, Path], run: str, evalname: str, cutoff: int, suffix: str, prob: str, gains: str
) -> None:
    """Per topic, IA_* and PplusQ are the ``SUMp=`` lines of the ``.nevIA`` / ``.nevPQ`` files,
    to their 4 decimals: the scripts add P(i|q) times the 4-decimal printed per-intent values,
    and so do the registered measures."""
    expected = _reference_ia(f"{run}.{evalname}.{suffix}")
    scored = _in_file_order(run, files["dir"] / f"{run}.run")
    qrels = list(ir_measures.read_trec_qrels(str(files["qrels"])))
    at = f"@{cutoff:04d}"
    measures = {
        printed: ir_measures.parse_measure(_measure(name, files, prob, gains=gains, cutoff=cutoff))
        for printed, name in IA_LINES[suffix].items()
    }
    ours = _calc(list(measures.values()), qrels, scored)
    checked, seen = 0, set()
    for (tid, line), value in expected.items():
        printed = line[: -len(at)]
        if not line.endswith(at) or printed not in measures:
            continue
        got = _topic(ours, (tid, measures[printed]), scored)
        assert "%.4f" % got == "%.4f" % value, (tid, printed, got, value)
        checked += 1
        seen.add(printed)
    assert checked >= 30 * len(seen)
    assert seen == {p for p in measures if any(line == f"{p}{at}" for _, line in expected)}


@pytest.mark.parametrize("run", RUNS)
@pytest.mark.parametrize("cutoff", [10, 20])
def test_pplusq_sharp_is_the_reference_file(files: Dict[str, Path], run: str, cutoff: int) -> None:
    """PplusQsharp is NEVIAPQ2sharpnev's ``PplusQ#@l`` line (from printed values: within 1e-4)."""
    at = f"@{cutoff:04d}"
    expected = {}
    for line in gzip.open(SET_A / "out" / f"{run}.PplusQ#{at}.nev.gz").read().decode().splitlines():
        tid, name, value = line.split()
        if name == f"PplusQ#{at}=":
            expected[tid] = float(value)
    scored = _in_file_order(run, files["dir"] / f"{run}.run")
    qrels = list(ir_measures.read_trec_qrels(str(files["qrels"])))
    m = ir_measures.parse_measure(_measure("PplusQsharp", files, cutoff=cutoff))
    ours = {tid: value for (tid, _), value in _calc([m], qrels, scored).items()}
    assert len(expected) == 30
    for tid, value in expected.items():
        assert abs(_topic(ours, tid, scored) - value) <= 1e-4 + 1e-9, (tid, ours.get(tid), value)


def test_the_main_command_prints_nev2means_values(files: Dict[str, Path]) -> None:
    """``ir_measures_pres QRELS RUN MEASURE``: the mean over the topics is the one NEV2mean
    wrote (set A, every run, D#-nDCG@10 and I-rec@10)."""
    for line, name in (("D#-nDCG@0010", "Dsharp_nDCG"), ("I-rec@0010", "I_rec")):
        means = dict(
            row.split()
            for row in (SET_A / "means" / f"runl.setA.DINprob.l10.Dnev.{line}").read_text().splitlines()
        )
        for run in RUNS:
            path = files["dir"] / f"{run}.run"
            _in_file_order(run, path)
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                assert main([str(files["qrels"]), str(path), _measure(name, files, cutoff=10)]) == 0
            value = float(out.getvalue().split()[-1])
            assert abs(value - float(means[run])) <= 1e-4 + 1e-9, (run, name, out.getvalue())


def _random_files(seed: int, d: Path) -> Tuple[Path, Path, List, List, Dict]:
    prob, dqrels, _, topics = _random_collection(seed)
    (d / "p.DINprob").write_text(prob)
    (d / "q.Dqrels").write_text(dqrels)
    qrels, run = [], []
    for tid, (_, lines, ranking) in topics.items():
        qrels.append(ir_measures.Qrel(tid, "placeholder-not-retrieved", 0))
        first = list(dict.fromkeys(ranking))  # a registered ranking has each document once
        run += [ir_measures.ScoredDoc(tid, doc, float(100 - k)) for k, doc in enumerate(first)]
        topics[tid] = (topics[tid][0], lines, first)
    return d / "p.DINprob", d / "q.Dqrels", qrels, run, topics


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("cutoff", [1, 3, 10])
def test_registered_values_match_the_naive_loop(tmp_path: Path, seed: int, cutoff: int) -> None:
    prob, dqrels, qrels, run, topics = _random_files(seed, tmp_path)
    base = f"probs='{prob}',dqrels='{dqrels}'"
    names = {
        "D_nDCG": "D-nDCG@l",
        "D_Q": "D-Q@l",
        "D_nERR": "D-nERR@l",
        "D_ERR": "D-ERR",
        "D_EBR": "D-EBR",
        "D_RBP": "D-RBP",
        "Dsharp_nDCG": "D#-nDCG@l",
        "Dsharp_Q": "D#-Q@l",
        "I_rec": "I-rec@l",
        "DIN_nDCG": "DIN-nDCG@l",
        "DIN_Q": "DIN-Q@l",
        "IA_nDCG": "IA-nDCG@l",
        "IA_Q": "IA-Q@l",
        "IA_ERR": "IA-ERR",
        "PplusQ": "P+Q@l",
    }
    measures = {ir_measures.parse_measure(f"{n}({base})@{cutoff}"): key for n, key in names.items()}
    gamma = ir_measures.parse_measure(f"DINsharp_Q({base},gamma=0.25)@{cutoff}")
    sharp = {n: ir_measures.parse_measure(f"Dsharp_{n}({base})@{cutoff}") for n in ("ERR", "EBR", "RBP")}
    every = [*measures, gamma, *sharp.values()]
    ours = _calc(every, qrels, run)
    for tid, (probs, lines, ranking) in topics.items():
        expected = naive_topic(probs, lines, ranking, cutoff)
        for m, key in measures.items():
            got = _topic(ours, (tid, m), run)
            assert got == pytest.approx(expected[key], abs=1e-12), (seed, tid, key)
        want = 0.25 * expected["I-rec@l"] + 0.75 * expected["DIN-Q@l"]
        assert _topic(ours, (tid, gamma), run) == pytest.approx(want, abs=1e-12), (seed, tid)
        eval2 = naive_topic(probs, lines, ranking, cutoff, rbp_p=0.99)  # Dsharp_RBP's p: eval2's
        for n, m in sharp.items():
            want = 0.5 * expected["I-rec@l"] + 0.5 * eval2[f"D-{n}"]
            assert _topic(ours, (tid, m), run) == pytest.approx(want, abs=1e-12), (seed, tid, n)


def test_exponential_gains_match_the_naive_loop(tmp_path: Path) -> None:
    prob, dqrels, qrels, run, topics = _random_files(3, tmp_path)
    m = ir_measures.parse_measure(f"D_nDCG(probs='{prob}',dqrels='{dqrels}',gains='exp')@5")
    ours = {tid: value for (tid, _), value in _calc([m], qrels, run).items()}
    for tid, (probs, lines, ranking) in topics.items():
        expected = naive_topic(probs, lines, ranking, 5, exp=True)["D-nDCG@l"]
        assert _topic(ours, tid, run) == pytest.approx(expected, abs=1e-12), tid


def test_the_ranking_is_the_packages_not_the_file_order(tmp_path: Path) -> None:
    """The registered measures rank by score (then document id descending): a run whose lines
    are in ascending score order scores as its reverse in file order does."""
    prob, dqrels, qrels, run, topics = _random_files(5, tmp_path)
    m = ir_measures.parse_measure(f"Dsharp_nDCG(probs='{prob}',dqrels='{dqrels}')@10")
    forward = {r.query_id: r.value for r in ir_measures.iter_calc([m], qrels, run)}
    backward = {r.query_id: r.value for r in ir_measures.iter_calc([m], qrels, run[::-1])}
    assert forward == backward


def test_bad_parameters_and_inputs_are_one_line_errors(tmp_path: Path) -> None:
    prob, dqrels, qrels, run, _ = _random_files(1, tmp_path)
    with pytest.raises(MeasureParameterError, match="requires the parameter 'probs'"):
        ir_measures.calc_aggregate([ir_measures.parse_measure(f"D_nDCG(dqrels='{dqrels}')@10")], qrels, run)
    with pytest.raises(MeasureParameterError, match="'gains' must be one of"):
        ir_measures.parse_measure(f"D_nDCG(probs='{prob}',dqrels='{dqrels}',gains='log')@10")
    with pytest.raises(MeasureParameterError, match="'p' must be between 0 and 1"):
        ir_measures.parse_measure(f"D_RBP(probs='{prob}',dqrels='{dqrels}',p=1.0)@10")
    with pytest.raises(MeasureParameterError, match="'gamma' must be from 0 to 1"):
        ir_measures.parse_measure(f"Dsharp_Q(probs='{prob}',dqrels='{dqrels}',gamma=1.5)@10")
    stranger = [*qrels, ir_measures.Qrel("no-such-topic", "d", 1)]
    m = ir_measures.parse_measure(f"I_rec(probs='{prob}',dqrels='{dqrels}')@10")
    with pytest.raises(InputError, match=r"1 topic\(s\) of the qrels have no intent probabilities") as info:
        ir_measures.calc_aggregate([m], stranger, run)
    assert "\n" not in str(info.value)


def test_compare_reads_the_registered_measures(files: Dict[str, Path]) -> None:
    """``ir_measures_pres compare`` with a registered diversity measure: each run's mean is the
    one NEV2mean wrote (set A, D#-Q@10)."""
    means = dict(
        row.split()
        for row in (SET_A / "means" / "runl.setA.DINprob.l10.Dnev.D#-Q@0010").read_text().splitlines()
    )
    paths = []
    for run in ("setA-divgood", "setA-short"):
        paths.append(str(files["dir"] / f"{run}.run"))
        _in_file_order(run, Path(paths[-1]))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["compare", str(files["qrels"]), *paths, "-m", _measure("Dsharp_Q", files, cutoff=10)])
    assert status == 0
    for run in ("setA-divgood", "setA-short"):
        row = next(line for line in out.getvalue().splitlines() if f" {run}.run " in f" {line} ")
        assert means[run] in row, (run, row)


@pytest.fixture(scope="module")
def trec_diversity_qrels(files: Dict[str, Path]) -> Path:
    """Set A's Dqrels as a TREC diversity qrels file, ``topic intent docno rel`` (the intent in
    the iteration column, the level as an integer), lines in the Dqrels' order."""
    lines = []
    for line in files["dqrels"].read_text().splitlines():
        t, intent, doc, level = line.split()
        lines.append(f"{t} {intent} {doc} {level[1:]}\n")
    path = files["dir"] / "setA.div-qrels"
    path.write_text("".join(lines))
    return path


def _without_dqrels(name: str, prob: str = "setA.DINprob", cutoff: int = 10) -> str:
    return f"{name}(probs='{SET_A / prob}')@{cutoff}"


class SubtopicQrel(NamedTuple):
    """ir_datasets' TrecSubQrel (its TREC Web diversity qrels): the intent in ``subtopic_id``."""

    query_id: str
    doc_id: str
    relevance: int
    subtopic_id: str


@pytest.mark.parametrize("given", ["tuples", "iterator", "frame", "file", "subtopic_id"])
def test_the_intents_of_trec_diversity_qrels_give_the_reference_values(
    files: Dict[str, Path], trec_diversity_qrels: Path, given: str
) -> None:
    """Without ``dqrels=``, the intents are the qrels' iteration column: a TREC diversity qrels
    file (the main command), ir_measures' Qrel tuples (a list or an iterator), ir_datasets'
    TrecSubQrel tuples (the intent in ``subtopic_id``), a DataFrame. Per
    topic, the values are the lines the scripts wrote (set A, setA-divgood, cutoff 10: the
    ``.Dnev``, ``.DINnev`` and ``.nevIA`` files), as with ``dqrels=``."""
    run = "setA-divgood"
    path = files["dir"] / f"{run}.run"
    scored = _in_file_order(run, path)
    expected = {
        "D_nDCG": ("l10.Dnev", "MSnDCG@0010"),
        "Dsharp_Q": ("l10.Dnev", "D#-Q@0010"),
        "I_rec": ("l10.Dnev", "I-rec@0010"),
        "DINsharp_nDCG": ("l10.DINnev", "DIN#-nDCG@0010"),
    }
    measures = {ir_measures.parse_measure(_without_dqrels(n)): where for n, where in expected.items()}
    ia = ir_measures.parse_measure(_without_dqrels("IA_nERR", "setA.Iprob"))
    if given == "file":
        ours: Dict[Tuple[str, object], float] = {}
        for m in [*measures, ia]:
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                assert main([str(trec_diversity_qrels), str(path), str(m), "-q"]) == 0
            for row in out.getvalue().splitlines():
                tid, _, value = row.split("\t")
                if tid != "all":
                    ours[(tid, m)] = float(value)
    else:
        qrels_list = list(ir_measures.read_trec_qrels(str(trec_diversity_qrels)))
        assert qrels_list[0].iteration == "1"  # the intent rides in the iteration column
        qrels: object = {
            "tuples": qrels_list,
            "iterator": iter(qrels_list),
            "subtopic_id": [SubtopicQrel(q.query_id, q.doc_id, q.relevance, q.iteration) for q in qrels_list],
        }.get(given)
        if given == "frame":
            import pandas as pd

            qrels = pd.DataFrame(qrels_list)
        ours = _calc([*measures, ia], qrels, scored, check=qrels_list)
    checked = 0
    for m, (suffix, line) in measures.items():
        for (tid, printed), value in _reference(f"{run}.{suffix}").items():
            if printed == line:
                tolerance = 1e-4 if "#" in printed else 5e-5
                assert abs(_topic(ours, (tid, m), scored) - value) <= tolerance + 1e-9, (given, tid, line)
                checked += 1
    for (tid, printed), value in _reference_ia(f"{run}.l10.nevIA").items():
        if printed == "IA-nERR@0010":
            assert abs(_topic(ours, (tid, ia), scored) - value) <= 5e-5 + 1e-9, (given, tid)
            checked += 1
    assert checked >= 4 * 29 + 29


def test_qrels_without_intents_are_a_one_line_error(
    files: Dict[str, Path], trec_diversity_qrels: Path, tmp_path: Path
) -> None:
    """Qrels that keep no iteration column (a dict of dicts; the qrels read from standard
    input, which cannot be read again) and no ``dqrels=``: one line saying what to give."""
    m = ir_measures.parse_measure(_without_dqrels("D_nDCG"))
    qrels = {"0101": {"0101-02817": 1}}
    with pytest.raises(InputError, match=r"the qrels hold no intents: give .* dqrels=FILE") as info:
        ir_measures.calc_aggregate([m], qrels, [ir_measures.ScoredDoc("0101", "0101-02817", 1.0)])
    assert "\n" not in str(info.value)
    run = files["dir"] / "setA-divgood.run"
    _in_file_order("setA-divgood", run)
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, "-m", "ir_measures_pres", "-", str(run), str(m)],
        input=trec_diversity_qrels.read_bytes(),
        capture_output=True,
    )
    assert proc.returncode == 1, proc.stderr
    errors = [x for x in proc.stderr.decode().splitlines() if "error" in x]
    assert len(errors) == 1 and "the qrels hold no intents" in errors[0], proc.stderr
    assert b"Traceback" not in proc.stderr and proc.stdout == b""


def test_plain_qrels_name_the_intent_without_a_probability(files: Dict[str, Path]) -> None:
    """Plain TREC qrels (iteration column 0) given to a measure without ``dqrels=``: the intent
    '0' has no probability, an error naming the file and line."""
    m = ir_measures.parse_measure(_without_dqrels("D_nDCG"))
    qrels = list(ir_measures.read_trec_qrels(str(files["qrels"])))
    with pytest.raises(InputError, match=r"qrels:1: expected an intent of topic '0101' .* found intent '0'"):
        ir_measures.calc_aggregate([m], qrels, [])


def test_robustness_refuses_measures_with_judgements_of_their_own(
    files: Dict[str, Path], capsys: pytest.CaptureFixture
) -> None:
    """f-qrels remove judgements from the qrels, which a diversity measure with ``dqrels=`` or
    statAP (``prels=``) does not read: robustness would score every f-qrels as the full
    judgements. The command refuses such a measure as a usage error before reading any file, in
    one sentence, the Python function with a ValueError."""
    from ir_measures_pres.meta.robustness import robustness

    run = files["dir"] / "setA-divgood.run"
    _in_file_order("setA-divgood", run)
    measures = {
        "Dsharp_nDCG": _measure("Dsharp_nDCG", files, cutoff=10),
        "statAP": "statAP(prels='prels.txt')",
    }
    for name, measure in measures.items():
        assert main(["robustness", str(files["qrels"]), str(run), str(run), "-m", measure, "P@10"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1, err
        assert f"robustness removes judgements from the qrels, but {name}" in err, err
        assert "reads its judgements from a file of its own (prels=, dqrels=), which the reduced" in err
        assert "; leave it out" in err
    with pytest.raises(ValueError, match="but .* read their judgements from a file of their own") as error:
        both = f"{_measure('I_rec', files, cutoff=10)} {_measure('D_Q', files, cutoff=10)}"
        robustness(str(files["qrels"]), {"a": str(run), "b": str(run)}, both)
    assert "leave them out" in str(error.value)


def test_robustness_samples_the_intents_of_trec_diversity_qrels(
    files: Dict[str, Path], trec_diversity_qrels: Path, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    """A diversity measure without ``dqrels=`` reads its intents from the qrels' iteration column
    (TREC diversity qrels), which the f-qrels reduce: robustness accepts it. The sampled unit is
    the document (relevant when relevant to one of its intents); a document left out is unjudged
    for every intent. Checked from outside: under one f-qrels, the core's mean D#-nDCG@10 is the
    one ``calc_aggregate`` gives with the qrels file cut to the kept documents; under the full
    qrels, NEV2mean's 0.7882 (setA-divgood, cutoff 10)."""
    from ir_measures_pres.meta import Core
    from ir_measures_pres.meta.sampling import f_qrels_mask, sample_rng

    run = files["dir"] / "setA-divgood.run"
    _in_file_order("setA-divgood", run)
    other = files["dir"] / "setA-adhoc.run"
    _in_file_order("setA-adhoc", other)
    measure = _without_dqrels("Dsharp_nDCG")
    status = main(
        ["robustness", str(trec_diversity_qrels), str(run), str(other), "-m", measure, "--samples", "1"]
    )
    assert status == 0 and "fraction" in capsys.readouterr().out
    core = Core(
        str(trec_diversity_qrels), {"divgood": str(run), "adhoc": str(other)}, measure, progress=False
    )
    assert float(core.evaluate().mean(axis=2)[0, 0]) == pytest.approx(0.7882, abs=5e-5)
    labels = core.sampling_labels()
    keep = f_qrels_mask(core.line_qidx, labels, len(core.query_ids), 0.4, sample_rng(7, 0.4, 1), 1)
    assert 0 < int((keep & (labels >= 1)).sum()) < int((labels >= 1).sum())
    kept = {(core.query_ids[q], doc) for q, doc, k in zip(core.line_qidx, core._line_docs, keep) if k}
    cut = tmp_path / "cut.div-qrels"
    cut.write_text(
        "".join(
            line + "\n"
            for line in trec_diversity_qrels.read_text().splitlines()
            if tuple(line.split()[::2]) in kept
        )
    )
    m = ir_measures.parse_measure(measure)
    cut_qrels = list(ir_measures.read_trec_qrels(str(cut)))  # Qrel tuples: the intents ride along
    expected = ir_measures.calc_aggregate([m], cut_qrels, list(ir_measures.read_trec_run(str(run))))
    reduced = float(core.evaluate(keep).mean(axis=2)[0, 0])
    assert reduced == pytest.approx(expected[m], abs=1e-12)
    assert reduced < 0.7882 - 0.01  # the reduction reached the intents
