"""Qrels given as an ir_datasets id, in every command that reads qrels (issue #20, item 9).

ir_datasets is an optional dependency and this machine is offline, so the tests put a stand-in
module in ``sys.modules``: ``load(id)`` returns a dataset whose qrels are the sample collection's
lines (or whose ``qrels_iter`` fails as a download does offline). Expected values: the same
command on the qrels file itself.
"""

from __future__ import annotations

import sys
import types
from pathlib import Path
from typing import Any, List, Tuple

import ir_measures
import pytest

from ir_measures_pres.cli.evaluate import main

SAMPLE = Path(__file__).resolve().parents[1] / "ir_measures_pres" / "data" / "sample"
QRELS, RUN = str(SAMPLE / "qrels.test"), str(SAMPLE / "results.test")
DATASET = "stand-in/sample"


class _Dataset:
    def __init__(self, qrels: Any) -> None:
        self._qrels = qrels

    def has_qrels(self) -> bool:
        return self._qrels is not None

    def qrels_iter(self) -> Any:
        if isinstance(self._qrels, BaseException):
            raise self._qrels
        return iter(self._qrels)


def _stand_in(qrels: Any) -> types.ModuleType:
    module = types.ModuleType("ir_datasets")

    def load(name: str) -> _Dataset:
        if name != DATASET:
            raise KeyError(name)
        return _Dataset(qrels)

    module.load = load  # type: ignore[attr-defined]
    return module


def _command(argv: List[str], capsys: Any) -> Tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def sample_dataset(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ir_datasets", _stand_in(list(ir_measures.read_trec_qrels(QRELS))))


def test_the_main_command_reads_an_ir_datasets_id(sample_dataset: None, capsys: Any) -> None:
    measures = ["AP nDCG@10 PRES@100 QMeasure", "-q"]
    by_file = _command([QRELS, RUN, *measures], capsys)
    by_id = _command([DATASET, RUN, *measures], capsys)
    assert by_file[0] == 0 and by_id == by_file


def test_compare_and_meta_read_an_ir_datasets_id(sample_dataset: None, capsys: Any, tmp_path: Path) -> None:
    pytest.importorskip("scipy")
    runs = tmp_path / "runs"
    runs.mkdir()
    lines = Path(RUN).read_text().splitlines()
    (runs / "a").write_text("\n".join(lines) + "\n")
    # a second run: the same documents, scores reversed within each query
    (runs / "b").write_text(
        "\n".join(f"{q} Q0 {d} {r} {-float(s)} b" for q, _, d, r, s, _ in map(str.split, lines)) + "\n"
    )
    for command in (["compare"], ["agreement"]):
        tail = ["-m", "AP", "R@10", "-q"]
        by_file = _command([*command, QRELS, str(runs), *tail], capsys)
        by_id = _command([*command, DATASET, str(runs), *tail], capsys)
        assert by_file[0] == 0, by_file[2]
        assert by_id == by_file


@pytest.mark.parametrize("command", [[], ["compare"], ["robustness"]])
def test_an_unreachable_dataset_is_an_input_error_naming_ir_datasets(
    command: List[str], monkeypatch: pytest.MonkeyPatch, capsys: Any, tmp_path: Path
) -> None:
    """Offline, a download fails inside ir_datasets: exit 1 (input), not 70 (a bug)."""
    monkeypatch.setitem(sys.modules, "ir_datasets", _stand_in(ConnectionError("Max retries exceeded")))
    runs = [RUN, RUN] if command else [RUN]
    tail = ["-m", "AP"] if command else ["AP"]
    code, out, err = _command([*command, DATASET, *runs, *tail], capsys)
    assert code == 1 and out == ""
    assert err == (
        f"ir_measures_pres: error: {DATASET}: ir_datasets could not provide the qrels "
        "(ConnectionError: Max retries exceeded)\n"
    )


@pytest.mark.parametrize("command", [[], ["compare"]])
def test_an_unknown_id_and_a_missing_ir_datasets_say_so(
    command: List[str], monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    """ir_measures' CLI's words for both."""
    tail = ["-m", "AP"] if command else ["AP"]
    monkeypatch.setitem(sys.modules, "ir_datasets", _stand_in([]))
    code, _, err = _command([*command, "no/such/id", RUN, RUN, *tail], capsys)
    assert (
        code == 1 and err == "ir_measures_pres: error: no/such/id not found. (checked file and ir_datasets)\n"
    )
    monkeypatch.setitem(sys.modules, "ir_datasets", None)  # not installed
    code, _, err = _command([*command, "no/such/id", RUN, RUN, *tail], capsys)
    assert code == 1 and err == (
        "ir_measures_pres: error: no/such/id not found. "
        "(Skipping ir_datasets lookup. To use this feature, install ir_datasets.)\n"
    )


@pytest.mark.parametrize("command", [[], ["compare"], ["agreement"]])
def test_runs_folder_given_as_qrels_says_so(command: List[str], capsys: Any, tmp_path: Path) -> None:
    """``compare RUNS_DIR QRELS`` (swapped) said 'needs at least 2 runs, got 1' (issue #20,
    item 12): the folder in the qrels' place is named."""
    (tmp_path / "a").write_text(Path(RUN).read_text())
    tail = ["-m", "AP"] if command else ["AP"]
    code, out, err = _command([*command, str(tmp_path), QRELS, *tail], capsys)
    assert code == 1 and out == ""
    assert err == (
        f"ir_measures_pres: error: {tmp_path}: a folder, where the qrels file was expected "
        "(the qrels come first: QRELS RUN ...)\n"
    )


@pytest.mark.parametrize("command", [[], ["compare"], ["robustness"]])
def test_a_run_file_given_as_qrels_says_so(command: List[str], capsys: Any) -> None:
    """``compare RUN QRELS ...`` (swapped): the six-column line is named a run line, and the
    order of the arguments is said (issue #20, item 12)."""
    tail = ["-m", "AP"] if command else ["AP"]
    code, out, err = _command([*command, RUN, QRELS, RUN, *tail], capsys)
    assert code == 1 and out == ""
    assert err.startswith(
        f"ir_measures_pres: error: {RUN}:1: expected 4 columns (qid iter docno relevance), found 6: "
    )
    assert err.endswith(" (a run line: the qrels file comes first, QRELS RUN)\n")
