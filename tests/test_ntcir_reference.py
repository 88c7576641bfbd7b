"""``ir_measures_pres ntcir`` and the NTCIREVAL measures against NTCIREVAL 190111 itself.

tests/data/ntcireval-full (README there): every line ``ntcir_eval compute`` prints for the 20
CLEF TAR 2017 runs x 30 topics under four option sets, with the stock 4-decimal values and the
same values printed with 17 decimals. Checked here:

* the command's output is the tool's, byte for byte, for every run and option set;
* ``--digits 17`` values are within 1e-9 of the 17-decimal column;
* for every printed name, the measure string ``--list`` gives computes the same values through
  ``ir_measures.iter_calc`` (1e-9), so the names are the measures, on every surface.
"""

from __future__ import annotations

import gzip
import io
from collections import defaultdict
from functools import cache

import ir_measures
import pytest
from conftest import DATA

import ir_measures_pres  # noqa: F401 - registers the measures
from ir_measures_pres.cli.ntcir import ntcir_cli

#: uos.sis.TMAL30Q_BM25 repeats 311 (topic, document) pairs: the last line counts, as in the data
pytestmark = pytest.mark.filterwarnings("ignore:.*duplicate \\(query, document\\)")

REF = DATA / "ntcireval-full" / "clef-tar-2017.tsv.gz"
TAR = DATA / "clef-tar-2017"
QRELS = TAR / "qrels" / "test.clef2017.qrels"

#: the README's command lines, as ``ir_measures_pres ntcir`` options
OPTIONS = {
    "g12": ["-g", "1:2", "-cutoffs", "1,5,10,20,100,1000"],
    "g14b05": [
        "-g",
        "1:4",
        "-beta",
        "0.5",
        "-gap",
        "-rbup",
        "0.9",
        "-rbp",
        "0.8",
        "-gamma",
        "0.9",
        "-cutoffs",
        "10,1000",
    ],
    "g13logb10": ["-g", "1:3", "-logb", "10", "-cutoffs", "10,1000"],
    "g12j": ["-j", "-g", "1:2", "-cutoffs", "10,1000"],
}


@cache
def reference() -> dict[tuple[str, str], list[tuple[str, str, str, str]]]:
    """(run, options) -> [(topic, measure, value4, value17)] in the file's order."""
    out: dict[tuple[str, str], list[tuple[str, str, str, str]]] = defaultdict(list)
    with gzip.open(REF, "rt", encoding="utf-8") as f:
        assert next(f).rstrip("\n").split("\t") == [
            "collection",
            "run",
            "query",
            "options",
            "measure",
            "value4",
            "value17",
        ]
        for line in f:
            _, run, query, opts, measure, v4, v17 = line.rstrip("\n").split("\t")
            out[(run, opts)].append((query, measure, v4, v17))
    return dict(out)


def expected_lines(rows: list[tuple[str, str, str, str]], column: int) -> list[str]:
    """The tool's lines, rebuilt from the rows as its README says they are printed."""
    lines = []
    heads: dict[str, str] = {}
    for query, measure, *values in rows:
        value = values[column]
        if measure.startswith("#"):
            heads[measure[1:]] = value
            if measure == "#jnonrel":
                lines.append(f"{query} # syslen={heads['syslen']} jrel={heads['jrel']} jnonrel={value}")
            elif measure == "#rp":
                lines.append(f"{query} # r1={heads['r1']} rp={value}")
            continue
        lines.append(f"{query} {measure + '=':<21}{value}")
    return lines


def run_command(args: list[str]) -> str:
    out = io.StringIO()
    assert ntcir_cli(args, out=out) == 0
    return out.getvalue()


CASES = sorted(reference())


def test_reference_covers_every_run_and_option_set() -> None:
    assert len(CASES) == 80
    assert {o for _, o in CASES} == set(OPTIONS)
    assert sum(len(v) for v in reference().values()) == 122_400


@pytest.mark.parametrize(("run", "opts"), CASES, ids=[f"{r}-{o}" for r, o in CASES])
def test_command_prints_the_tools_lines_byte_for_byte(run: str, opts: str) -> None:
    got = run_command([str(QRELS), str(TAR / "runs" / f"{run}.gz"), *OPTIONS[opts]])
    assert got.splitlines() == expected_lines(reference()[(run, opts)], 0)


@pytest.mark.parametrize("opts", sorted(OPTIONS))
def test_digits_17_within_1e9_of_the_17_decimal_column(opts: str) -> None:
    for run in sorted({r for r, o in CASES if o == opts}):
        got = run_command([str(QRELS), str(TAR / "runs" / f"{run}.gz"), *OPTIONS[opts], "--digits", "17"])
        want = expected_lines(reference()[(run, opts)], 1)
        got_lines = got.splitlines()
        assert len(got_lines) == len(want)
        for g, w in zip(got_lines, want):
            g_head, _, g_value = g.rpartition(" ")
            w_head, _, w_value = w.rpartition(" ")
            assert g_head == w_head
            if "#" in g_head:
                assert g == w
            else:
                assert abs(float(g_value) - float(w_value)) <= 1e-9, (run, g, w)


@pytest.mark.parametrize("opts", sorted(OPTIONS))
def test_list_strings_give_the_same_values_through_iter_calc(opts: str) -> None:
    listed = [line.split("\t") for line in run_command(["--list", *OPTIONS[opts]]).splitlines()]
    names = {name: ir_measures.parse_measure(text) for name, text in listed}
    assert all(str(m) == text for (_, text), m in zip(listed, names.values()))
    qrels = list(ir_measures.read_trec_qrels(str(QRELS)))
    by_measure = {m: name for name, m in names.items()}
    for run in ["amc.run", "iiit.run1", "waterloo.B-rank-normal"]:
        want = {(q, m): float(v17) for q, m, _, v17 in reference()[(run, opts)] if not m.startswith("#")}
        scored = ir_measures.iter_calc(
            list(names.values()), qrels, ir_measures.read_trec_run(str(TAR / "runs" / f"{run}.gz"))
        )
        seen = 0
        for metric in scored:
            key = (metric.query_id, by_measure[metric.measure])
            assert abs(metric.value - want[key]) <= 1e-9, (run, key, metric.value, want[key])
            seen += 1
        # iter_calc gives no value for a topic the run lacks (its DEFAULT, 0, is the tool's)
        lacking = {q for q, _ in want} - {
            m.query_id for m in ir_measures.read_trec_run(str(TAR / "runs" / f"{run}.gz"))
        }
        assert all(want[(q, n)] == 0 for q in lacking for n in names)
        assert seen >= len(want) - len(lacking) * len(names)


@pytest.mark.parametrize("opts", sorted(OPTIONS))
def test_mean_is_nev2means_mean_of_the_printed_values(opts: str) -> None:
    # NEV2mean: awk sums the printed (4-decimal) values of each topic id, divides by the number
    # of topic ids (30; iiit.run1 lacks 3, whose lines are the empty list's zeros) and prints %.4f
    for run in ["amc.run", "iiit.run1"]:
        sums: dict[str, float] = defaultdict(float)
        for _, measure, v4, _ in reference()[(run, opts)]:
            if not measure.startswith("#"):
                sums[measure] += float(v4)
        want = [f"ALL {name + '=':<21}{total / 30:.4f}" for name, total in sums.items()]
        got = run_command([str(QRELS), str(TAR / "runs" / f"{run}.gz"), *OPTIONS[opts], "--mean"])
        assert got.splitlines()[-len(want) :] == want
