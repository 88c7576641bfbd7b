"""Corner cases of ``ir_measures_pres diversity`` and of the registered diversity measures that set
A does not hold, each with the lines NTCIREVAL 190111's scripts print for it (given where the tool
was run on that input, else derived by the arithmetic written out below from the tool's
definitions, shared spec diversity.md):

- an intent of probability 0 (its documents have GG(d) = 0: they stay in the tool's ideal-list
  file with gain 0, counted in ``jnonrel``; a topic whose only relevant documents are of such an
  intent has no ``gcompute`` lines but keeps its I-rec lines);
- Dqrels without any relevant document (no crash: the D# lines, 0, as for set A's topic 0130);
- intent-aware values summed as the scripts sum them (4-decimal per-intent values), so that a
  topic whose probabilities add up to more than 1 prints the tool's line;
- ``--output-dir`` creating its folder.
"""

from __future__ import annotations

from pathlib import Path
from typing import Dict, List, Tuple

import ir_measures
import pytest

import ir_measures_pres  # noqa: F401  (registers the measures)
from ir_measures_pres.cli.evaluate import main


def _files(tmp_path: Path, prob: str, dqrels: str, run: str, qrels: str) -> Dict[str, Path]:
    paths = {}
    for name, text in (("prob", prob), ("dqrels", dqrels), ("run", run), ("qrels", qrels)):
        paths[name] = tmp_path / name
        paths[name].write_text(text)
    return paths


def _command(
    script: str, files: Dict[str, Path], capsys: pytest.CaptureFixture, *extra: str
) -> Tuple[int, str, str]:
    argv = [
        "diversity",
        script,
        str(files["prob"]),
        str(files["dqrels"]),
        str(files["run"]),
        "--cutoff",
        "10",
    ]
    status = main([*argv, *extra])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _registered(names: List[str], files: Dict[str, Path], cutoff: int = 10) -> Dict[str, float]:
    spec = f"probs='{files['prob']}',dqrels='{files['dqrels']}'"
    measures = {name: ir_measures.parse_measure(f"{name}({spec})@{cutoff}") for name in names}
    values = ir_measures.calc_aggregate(
        list(measures.values()),
        list(ir_measures.read_trec_qrels(str(files["qrels"]))),
        list(ir_measures.read_trec_run(str(files["run"]))),
    )
    return {name: values[m] for name, m in measures.items()}


# --------------------------------------------------------------------------------------------
# an intent of probability 0
# --------------------------------------------------------------------------------------------


def test_a_document_of_a_zero_probability_intent_is_judged_nonrelevant(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    """Probabilities ``1 1 0`` / ``1 2 1``, Dqrels ``1 1 a L1`` / ``1 2 b L1``, run ``b`` then
    ``a``: the tool prints ``# syslen=2 jrel=1 jnonrel=1`` (a: GG = 0 x 1 = 0, written ``0`` in
    the Grelv, an ideal entry of gain 0). The other lines: b has GG = 1 at rank 1 and is the only
    ideal document with a gain, so every D-measure of the list is the ideal one (RR, nDCG@10,
    Q@10 ... 1), RBP = (1 - 0.95) 1 / 1 = 0.05, ERR = (1/1)(1 / (1 + 1)) = 0.5; both intents
    have a relevant document (n = 2) and both are in the top 2: I-rec = 1, D# = 0.5 + 0.5 = 1."""
    files = _files(
        tmp_path,
        "1 1 0\n1 2 1\n",
        "1 1 a L1\n1 2 b L1\n",
        "1 Q0 b 1 2 r\n1 Q0 a 2 1 r\n",
        "1 0 a 1\n1 0 b 1\n",
    )
    for script in ("D-NTCIR-eval", "D-NTCIR-eval2", "DIN-NTCIR-eval"):
        status, out, _ = _command(script, files, capsys)
        lines = out.splitlines()
        assert status == 0 and lines[0] == "1 # syslen=2 jrel=1 jnonrel=1", (script, out)
        assert lines[1] == "1 # r1=1 rp=1"
        for name, value in (
            ("RR", "1.0000"),
            ("ERR", "0.5000"),
            ("MSnDCG@0010", "1.0000"),
            ("Q@0010", "1.0000"),
        ):
            assert f"1 {name + '=':<21}{value}" in lines, (script, name)
        assert "1 #intent_num=2" in lines and f"1 {'I-rec@0010=':<21}1.0000" in lines
    status, out, _ = _command("D-NTCIR-eval", files, capsys)
    assert f"1 {'RBP=':<21}0.0500" in out.splitlines()
    assert out.splitlines()[-2:] == ["1 D#-Q@0010=           1.0000", "1 D#-nDCG@0010=        1.0000"]


#: the tool's lines for ``1 1 0`` alone, Dqrels ``1 1 a L1``, run ``a``, D-NTCIR-eval at 10:
#: gcompute fails (its ideal list has no gain) and irec does not (intent 1 has a relevant
#: document): I-rec@n (n = 1 <= the list's length 1 and n < 10: printed first) = I-rec@10 = 1/1,
#: and D# = 0.5 x 1 + 0.5 x 0 (awk reads the missing Q@10 and MSnDCG@10 as 0) = 0.5
ZERO_ONLY = [
    "1 #intent_num=1",
    "1 I-rec@n=             1.0000",
    "1 I-rec@0010=          1.0000",
    "1 D#-Q@0010=           0.5000",
    "1 D#-nDCG@0010=        0.5000",
]


def test_a_topic_whose_only_intent_has_probability_0(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """The tool's lines (:data:`ZERO_ONLY`, printed by NTCIREVAL), in D-NTCIR-eval; eval2 adds
    D#-ERR, D#-EBR and D#-RBP the same way (0.5 x 1 + 0.5 x 0), DIN-NTCIR-eval names them DIN#,
    and NEVIAPQ2sharpnev's P+Q# is 0.5 x I-rec@10 (1, from the .Dnev) + 0.5 x P+Q (0 x Q = 0).
    The registered measures agree: I-rec 1, D#-nDCG and D#-Q 0.5, D-nDCG 0, P+Q# 0.5."""
    files = _files(tmp_path, "1 1 0\n", "1 1 a L1\n", "1 Q0 a 1 2 r\n", "1 0 a 1\n")
    status, out, _ = _command("D-NTCIR-eval", files, capsys)
    assert (status, out.splitlines()) == (0, ZERO_ONLY)
    status, out, _ = _command("D-NTCIR-eval2", files, capsys)
    extra = [f"1 {f'D#-{m}@0010=':<21}0.5000" for m in ("ERR", "EBR", "RBP")]
    assert (status, out.splitlines()) == (0, ZERO_ONLY + extra)
    status, out, _ = _command("DIN-NTCIR-eval", files, capsys)
    din = ZERO_ONLY[:3] + ["1 DIN#-Q@0010=         0.5000", "1 DIN#-nDCG@0010=      0.5000"]
    assert (status, out.splitlines()) == (0, din)
    status, out, _ = _command("NEVIAPQ2sharpnev", files, capsys)
    assert (status, out) == (0, "1 PplusQ@0010=\t0.0000\n1 PplusQ#@0010=\t0.5000\n")
    values = _registered(
        ["I_rec", "Dsharp_nDCG", "Dsharp_Q", "D_nDCG", "DINsharp_nDCG", "PplusQsharp"], files
    )
    assert values == {
        "I_rec": 1.0,
        "Dsharp_nDCG": 0.5,
        "Dsharp_Q": 0.5,
        "D_nDCG": 0.0,
        "DINsharp_nDCG": 0.5,
        "PplusQsharp": 0.5,
    }


# --------------------------------------------------------------------------------------------
# no relevant document in the whole Dqrels
# --------------------------------------------------------------------------------------------


def test_dqrels_without_any_relevant_document(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """Probabilities ``1 1 1``, Dqrels ``1 0 a L0``, run ``1 Q0 zz 1 2 run``: ntcir_eval fails
    on the topic and the scripts print only the D# lines, 0.5 x 0 + 0.5 x 0 (the tool's
    ``D#-Q@0010= 0.0000`` and ``D#-nDCG@0010= 0.0000``, as for set A's topic 0130); the
    intent-aware files only their SUMp lines. The registered measures score 0."""
    files = _files(tmp_path, "1 1 1\n", "1 0 a L0\n", "1 Q0 zz 1 2 run\n", "1 0 a 0\n")
    status, out, err = _command("D-NTCIR-eval", files, capsys)
    assert (status, out, err) == (0, "1 D#-Q@0010=           0.0000\n1 D#-nDCG@0010=        0.0000\n", "")
    status, out, _ = _command("D-NTCIR-eval2", files, capsys)
    assert status == 0 and out.splitlines() == [
        f"1 {f'D#-{m}@0010=':<21}0.0000" for m in ("Q", "nDCG", "ERR", "EBR", "RBP")
    ]
    status, out, _ = _command("DIN-NTCIR-eval", files, capsys)
    assert (status, out) == (0, "1 DIN#-Q@0010=         0.0000\n1 DIN#-nDCG@0010=      0.0000\n")
    status, out, _ = _command("D-NTCIR-IAeval", files, capsys)
    assert status == 0 and out.splitlines() == [
        f"1 SUMp= 0.0000 {m}@0010= 0.0000" for m in ("IA-ERR", "IA-nERR", "IA-MSnDCG")
    ]
    names = ["D_nDCG", "Dsharp_nDCG", "D_ERR", "D_Q", "D_nERR", "DIN_nDCG", "I_rec", "IA_nDCG", "PplusQsharp"]
    assert _registered(names, files) == dict.fromkeys(names, 0.0)


# --------------------------------------------------------------------------------------------
# intent-aware values: the scripts' order of operations
# --------------------------------------------------------------------------------------------


def test_intent_aware_sums_printed_values_as_the_script(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    """Probabilities 0.2693 (intent 1) and 1.0000 (intent 2), summing to 1.2693; intent 2's
    document at rank 1, intent 1's at rank 3, cutoff 1000. Per intent, RBP = (1 - 0.95) 0.95^(r-1)
    g / H with g = H = 1: intent 1 0.05 x 0.95 x 0.95 = 0.045125, printed ``0.0451``; intent 2
    0.05, printed ``0.0500``. D-NTCIR-IAeval2's awk adds P(i|q) x the printed values:
    0.2693 x 0.0451 + 1 x 0.05 = 0.06214543, printed 0.0621 (the sum of the values themselves,
    0.06215216, would print 0.0622). IA_RBP is the script's sum, so it prints the tool's line."""
    files = _files(
        tmp_path,
        "1 1 0.2693\n1 2 1.0000\n",
        "1 1 c L1\n1 2 a L1\n",
        "1 Q0 a 1 3 r\n1 Q0 b 2 2 r\n1 Q0 c 3 1 r\n",
        "1 0 a 1\n1 0 c 1\n",
    )
    status, out, _ = _command("D-NTCIR-IAeval2", files, capsys, "--cutoff", "1000")
    assert status == 0
    assert "1 1 0.2693 RBP@1000=            0.0451" in out.splitlines()
    assert "1 2 1.0000 RBP@1000=            0.0500" in out.splitlines()
    assert "1 SUMp= 1.2693 IA-RBP@1000= 0.0621" in out.splitlines()
    value = _registered(["IA_RBP"], files, cutoff=1000)["IA_RBP"]
    assert value == pytest.approx(0.2693 * 0.0451 + 1.0 * 0.05, abs=1e-15)
    assert "%.4f" % value == "0.0621"


# --------------------------------------------------------------------------------------------
# --output-dir
# --------------------------------------------------------------------------------------------


def test_output_dir_is_created(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """``--output-dir new/inner``: the folders are made (as compare and the meta commands make
    theirs) and the run's file written there; a file in the way is still a usage error."""
    files = _files(tmp_path, "1 1 1\n", "1 1 a L1\n", "1 Q0 a 1 2 r\n", "1 0 a 1\n")
    folder = tmp_path / "new" / "inner"
    status, out, err = _command("D-NTCIR-eval", files, capsys, "--output-dir", str(folder))
    assert (status, out, err) == (0, "", "")
    assert [p.name for p in folder.iterdir()] == ["run.l10.Dnev"]
    assert (folder / "run.l10.Dnev").read_text().startswith("1 # syslen=1 jrel=1 jnonrel=0\n")
    status, out, err = _command("D-NTCIR-eval", files, capsys, "--output-dir", str(files["run"]))
    assert (status, out) == (2, "") and f"--output-dir: {files['run']}: not a folder" in err


def test_the_docs_name_the_nev_file_the_command_and_nevia2nev_write(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    """``--nev IA-nERR`` at cutoff 10 writes ``<run>.l10.nevIA.IA-nERR@0010.nev``, the name
    NEVIA2nev gave set A's files (tests/data/ntcireval-diversity/setA/out), and the name
    docs/diversity.md shows."""
    set_a = Path(__file__).resolve().parent / "data" / "ntcireval-diversity" / "setA" / "out"
    assert (set_a / "setA-divgood.l10.nevIA.IA-nERR@0010.nev.gz").exists()
    files = _files(tmp_path, "1 1 1\n", "1 1 a L1\n", "1 Q0 a 1 2 r\n", "1 0 a 1\n")
    out_dir = tmp_path / "out"
    status, _, _ = _command("D-NTCIR-IAeval", files, capsys, "--output-dir", str(out_dir), "--nev", "IA-nERR")
    assert status == 0
    assert sorted(p.name for p in out_dir.iterdir()) == ["run.l10.nevIA", "run.l10.nevIA.IA-nERR@0010.nev"]
    docs = (Path(__file__).resolve().parent.parent / "docs" / "diversity.md").read_text()
    assert "`<run>.l10.nevIA.IA-nERR@0010.nev`" in docs
    assert "`<run>.<NAME>.nevIA.<METRIC>@LLLL.nev`" in docs
    assert "`meta`" not in docs and "issue" not in docs
