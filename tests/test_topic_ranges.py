"""A run read and scored in ranges of whole queries by forked workers
(:mod:`ir_measures_pres.data.topic_ranges`) gives what reading it in order gives: the same blocks'
lines scored in the same order, the same query ids, tags, line count and duplicates warning, and
for anything that needs the one-core reading (a bad line, a query in two places) the signal to
read it so.

The expected values come from the one-core reader (:class:`RunBlocks`, itself checked line by
line against a reference parser in ``test_io`` and ``test_byteranges``) and from the files as
written here (where the queries change, which lines are bad). Ranges are forced small so seeded
files of a few thousand lines cross many range boundaries.
"""

from __future__ import annotations

import gzip
import os
import sys
import warnings
from pathlib import Path
from typing import Any, List, Tuple

import pytest
from test_byteranges import bad_lines, random_run

import ir_measures_pres.data.byteranges as byteranges
from ir_measures_pres.data.readers import TrecFormatError
from ir_measures_pres.data.runblocks import RunBlocks, UngroupedRun
from ir_measures_pres.data.topic_ranges import RangesFailed, ScoredRanges, pays, query_ranges

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forks are used on Linux only"),
    pytest.mark.filterwarnings("ignore::ir_measures_pres.data.readers.TrecFormatWarning"),
]

RANGE = 700  # bytes per range (the default: 8 MiB)


@pytest.fixture(autouse=True)
def small_ranges(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(byteranges, "RANGE_BYTES", RANGE)
    monkeypatch.setattr(byteranges, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(byteranges, "usable_cpus", lambda: 2)


def lines_of(block: Any) -> List[Tuple[str, str, float, int]]:
    """What a scorer sees of a block: each line's query, document, score, and the lines the
    reader dropped for its query (repeated documents)."""
    docs = block.doc_ids
    docs = [d.decode("utf-8", "surrogateescape") if isinstance(d, bytes) else d for d in docs.tolist()]
    dropped = dict(zip(block.query_names, block.dropped.tolist())) if block.dropped is not None else {}
    return [
        (q, d, v, dropped.get(q, 0)) for q, d, v in zip(block.query_ids.tolist(), docs, block.values.tolist())
    ]


def read(reading: Any) -> Tuple[List[Any], List[str], Any]:
    """Every block's lines of ``reading`` (ScoredRanges scoring with :func:`lines_of`, or a
    RunBlocks), its warnings and its attributes."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = [
            line
            for block in reading
            for line in (block if isinstance(reading, ScoredRanges) else lines_of(block))
        ]
    about = (reading.query_names, reading.tag, reading.last_tag, reading.lines)
    return got, [f"{w.category.__name__}: {w.message}" for w in caught], about


def result_lines(data: bytes) -> List[Tuple[int, bytes]]:
    """(offset of the line start, query id) of every result line, from the bytes as written."""
    out = []
    at = 0
    for line in data.split(b"\n"):
        parts = line.split()
        if parts and not parts[0].startswith(b"#"):
            out.append((at, parts[0]))
        at += len(line) + 1
    return out


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
@pytest.mark.parametrize(
    "eol, final, bom", [(b"\n", True, False), (b"\r\n", True, True), (b"\n", False, False)]
)
def test_each_cut_is_between_two_queries(seed: int, eol: bytes, final: bool, bom: bool) -> None:
    data = (b"\xef\xbb\xbf" if bom else b"") + random_run(seed, eol=eol, final=final)
    buffer = byteranges.Buffer(len(data), data=data)
    spans = list(query_ranges(buffer))
    assert spans[0][0] == buffer.start and spans[-1][1] == len(data)
    assert all(a[1] == b[0] for a, b in zip(spans, spans[1:]))
    results = result_lines(data)
    starts = {at: k for k, (at, _) in enumerate(results)}
    for start, end in spans[:-1]:
        k = starts[end]  # a cut is a result line's start ...
        assert k > 0 and results[k][1] != results[k - 1][1]  # ... whose query is not the one before
        assert end - start >= RANGE
    assert len(spans) > 20


def test_a_query_longer_than_a_range_and_lines_longer_than_the_look() -> None:
    long_id = b"q" + b"x" * 70000  # longer than the bytes read at a time around a cut
    lines = [b"a Q0 D%d 1 1 t" % k for k in range(200)] + [long_id + b" Q0 D1 1 1 t"] * 3
    lines += [b"b Q0 D%d 1 1 t" % k for k in range(5)] + [b"# " + b"c" * 70000] + [b"c Q0 D1 1 1 t"]
    data = b"\n".join(lines) + b"\n"
    spans = list(query_ranges(byteranges.Buffer(len(data), data=data)))
    cuts = [end for _, end in spans[:-1]]
    a_ends = data.index(long_id)
    b_starts = data.index(b"b Q0")
    c_starts = data.index(b"c Q0")
    assert cuts == [a_ends, b_starts, c_starts]


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("doc_ids", ["bytes", "str"])
@pytest.mark.parametrize("eol, final", [(b"\n", True), (b"\r\n", True), (b"\n", False)])
def test_the_ranges_score_what_the_one_core_reading_gives(
    tmp_path: Path, seed: int, doc_ids: str, eol: bytes, final: bool
) -> None:
    data = random_run(seed, eol=eol, final=final)
    path = tmp_path / "run.txt"
    path.write_bytes(data)
    ranged = ScoredRanges(path, lines_of, doc_ids, block_lines=50)
    got, got_warnings, got_about = read(ranged)
    expected, expected_warnings, expected_about = read(RunBlocks(path, doc_ids, 50))
    assert got == expected and len(got) > 1500
    assert got_about == expected_about
    assert got_warnings == expected_warnings and len(got_warnings) == 1  # the duplicates, once
    assert "on lines" in got_warnings[0]


def test_the_scores_come_from_the_workers_in_file_order(tmp_path: Path) -> None:
    path = tmp_path / "run.txt"
    path.write_bytes(random_run(8))
    where = list(ScoredRanges(path, lambda block: (os.getpid(), block.query_names), "bytes", 50))
    pids = {pid for pid, _ in where}
    assert len(pids) == 2 and os.getpid() not in pids and len(where) > 20
    queries = [q for _, names in where for q in names]
    assert queries == [f"q{k}" for k in range(1, len(queries) + 1)]  # random_run's q1, q2 ... in order


def warns(block: Any) -> int:
    warnings.warn("a scorer's warning", UserWarning, stacklevel=1)
    return len(block)


def test_a_scorers_warnings_are_given_once_here(tmp_path: Path) -> None:
    path = tmp_path / "run.txt"
    path.write_bytes(random_run(9))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sizes = list(ScoredRanges(path, warns, "bytes", 50))
    messages = [str(w.message) for w in caught]
    assert len(sizes) > 20
    assert messages.count("a scorer's warning") == 1
    assert caught[0].filename == __file__ and caught[0].category is UserWarning


@pytest.mark.parametrize("bad, expected", bad_lines())
def test_a_bad_line_sends_the_file_to_the_one_core_reading(tmp_path: Path, bad: bytes, expected: str) -> None:
    lines = random_run(7, lines=1200).split(b"\n")[:-1]
    for target in (0, 400, len(lines) - 1):
        path = tmp_path / "bad.txt"
        path.write_bytes(b"\n".join(lines[:target] + [bad] + lines[target + 1 :]) + b"\n")
        with pytest.raises(RangesFailed) as failed:
            list(ScoredRanges(path, len, "bytes", 50))
        assert failed.value.reason.startswith("TrecFormatError: ")
        with pytest.raises(
            TrecFormatError, match=f":{target + 1}: {expected[:20]}"
        ):  # what the reading in order says
            list(RunBlocks(path, "bytes", 50))


def test_a_query_in_two_places_sends_the_file_to_the_one_core_reading(tmp_path: Path) -> None:
    grouped = [b"q%d Q0 D%d %d 1 t" % (k // 30, k, k) for k in range(900)]
    for moved in (grouped[:5] + grouped[100:] + grouped[5:100], grouped + [b"q0 Q0 D9999 1 1 t"]):
        path = tmp_path / "run.txt"
        path.write_bytes(b"\n".join(moved) + b"\n")
        with pytest.raises(RangesFailed):
            list(ScoredRanges(path, len, "bytes", 50))
        with pytest.raises(UngroupedRun):
            list(RunBlocks(path, "bytes", 50))


def test_comments_only(tmp_path: Path) -> None:
    path = tmp_path / "run.txt"
    path.write_bytes(b"# nothing\n" * 300)
    with pytest.raises(RangesFailed):
        list(ScoredRanges(path, len, "bytes", 50))
    # a cut needs a result line on each side: no range is comments only
    path.write_bytes(
        b"# a long preamble\n" * 100 + b"q1 Q0 D1 1 1 t\n" + b"# more\n" * 100 + b"q2 Q0 D1 1 1 t\n"
    )
    ranged = ScoredRanges(path, len, "bytes", 50)
    assert list(ranged) == [1, 1]  # two ranges, one result line each
    assert ranged.query_names == ["q1", "q2"] and ranged.lines == 2


def test_one_core_when_ranges_do_not_pay(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "run.txt"
    path.write_bytes(random_run(10))
    monkeypatch.setattr(byteranges, "usable_cpus", lambda: 1)
    pids = {pid for pid, _ in ScoredRanges(path, lambda b: (os.getpid(), 0), "bytes", 50)}
    assert pids == {os.getpid()}


def test_a_gzipped_run_is_decompressed_once_and_split(tmp_path: Path) -> None:
    data = random_run(13)
    path = tmp_path / "run.gz"
    path.write_bytes(gzip.compress(data))
    got = read(ScoredRanges(path, lines_of, "bytes", 50))
    assert got == read(RunBlocks(path, "bytes", 50)) and len(got[0]) > 1500
    path.write_bytes(gzip.compress(data)[: len(data) // 5])  # damaged: read in order, which says so
    with pytest.raises(RangesFailed, match="EOFError"):
        list(ScoredRanges(path, len, "bytes", 50))


def test_what_pays(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(byteranges, "PARALLEL_MIN_BYTES", 4000)
    plain, packed = tmp_path / "run.txt", tmp_path / "run.gz"
    plain.write_bytes(b"q1 Q0 D1 1 1 t\n" * 300)  # 4,500 bytes
    packed.write_bytes(gzip.compress(random_run(14), compresslevel=0)[:1100])  # x4 >= 4000
    assert pays(plain) and pays(str(packed)) and not pays("-") and not pays(tmp_path)
    plain.write_bytes(b"q1 Q0 D1 1 1 t\n" * 100)
    packed.write_bytes(gzip.compress(b"q1 Q0 D1 1 1 t\n" * 300))
    assert not pays(plain) and not pays(packed) and not pays(tmp_path / "missing")
    monkeypatch.setattr(byteranges, "usable_cpus", lambda: 1)
    plain.write_bytes(b"q1 Q0 D1 1 1 t\n" * 300)
    assert not pays(plain)


def test_gzipped_edge_files_go_to_the_one_core_reading(tmp_path: Path) -> None:
    """An empty or comments-only text and a file with garbage after its gzip data: the ranges
    hand them over (the one-core reading reports them); two gzip members are one text."""
    path = tmp_path / "run.gz"
    data = random_run(15)
    for bad in (gzip.compress(b""), gzip.compress(b"# only a comment\n" * 50), gzip.compress(data) + b"junk"):
        path.write_bytes(bad)
        with pytest.raises(RangesFailed):
            list(ScoredRanges(path, len, "bytes", 50))
        with pytest.raises(TrecFormatError):
            list(RunBlocks(path, "bytes", 50))
    half = len(data) // 2
    cut = data.rfind(b"\n", 0, half) + 1
    path.write_bytes(gzip.compress(data[:cut]) + gzip.compress(data[cut:]))
    assert read(ScoredRanges(path, lines_of, "bytes", 50)) == read(RunBlocks(path, "bytes", 50))
