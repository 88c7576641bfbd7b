"""A run parsed in byte ranges by forked workers (:mod:`ir_measures_pres.data.byteranges`) reads
exactly as the one-core reader: the same columns, codes, tags, warnings, and every error the same
message with the line counted over the whole file.

The ranges are forced small here (blocks of a few hundred bytes, ranges of a few blocks, no size
threshold) so that seeded random files of a few thousand lines cross many range boundaries; the
expected columns come from the line-by-line reference parser of ``test_io`` and from the one-core
reader on the same file, the expected line numbers from the files as written.
"""

from __future__ import annotations

import gzip
import io
import os
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path
from typing import Any, Iterator, List, Tuple

import numpy as np
import pytest
from test_io import reference

import ir_measures_pres.data.blocks as trec_io
import ir_measures_pres.data.byteranges as byteranges
from ir_measures_pres.data._trec_parse import Reader
from ir_measures_pres.data.readers import RUN_KIND, TrecFormatError, ids_as_str, read_run, read_run_lines
from ir_measures_pres.data.runblocks import RunBlocks
from ir_measures_pres.runtime.pool import forked_map

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forks are used on Linux only"),
    pytest.mark.filterwarnings("ignore::ir_measures_pres.data.readers.TrecFormatWarning"),
]

BLOCK = 256  # bytes per read of the reader (its default: 1 MiB)
RANGE = 3 * BLOCK  # bytes per range (its default: 8 MiB)


@pytest.fixture
def ranges(monkeypatch: pytest.MonkeyPatch) -> Iterator[List[int]]:
    """Small blocks and ranges, every file read in ranges by two workers; yields a list that
    counts the calls of the range reader (so a test can see it ran)."""
    monkeypatch.setattr(trec_io, "BLOCK_SIZE", BLOCK)
    monkeypatch.setattr(byteranges, "RANGE_BYTES", RANGE)
    monkeypatch.setattr(byteranges, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(byteranges, "usable_cpus", lambda: 2)
    calls: List[int] = []
    real = byteranges.parse_in_ranges

    def counted(*args: Any) -> Any:
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(trec_io, "parse_in_ranges", counted)
    yield calls


def one_core(read: Any, *args: Any, **kwargs: Any) -> Tuple[Any, List[str]]:
    """``read(...)`` on the one-core path (the size threshold out of reach), and its warnings."""
    old = byteranges.PARALLEL_MIN_BYTES
    byteranges.PARALLEL_MIN_BYTES = 1 << 62
    try:
        return outcome(read, *args, **kwargs)
    finally:
        byteranges.PARALLEL_MIN_BYTES = old


def outcome(read: Any, *args: Any, **kwargs: Any) -> Tuple[Any, List[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result: Any = read(*args, **kwargs)
        except TrecFormatError as error:
            result = error
    return result, [str(w.message) for w in caught]


def error_text(read: Any, *args: Any, **kwargs: Any) -> str:
    result, _ = outcome(read, *args, **kwargs)
    assert isinstance(result, TrecFormatError), result
    return str(result)


def random_run(
    seed: int, lines: int = 3000, eol: bytes = b"\n", final: bool = True, unique: bool = False
) -> bytes:
    """Queries of various lengths (grouped), tied scores, repeated documents, comments, blank
    lines, non-ASCII and non-UTF-8 ids, an id wider than 64 bytes, tags with spaces."""
    rng = np.random.default_rng(seed)
    out: List[bytes] = []
    q = 0
    left = 0
    for k in range(lines):
        if left == 0:
            q += 1
            left = int(rng.integers(1, 200))
        left -= 1
        r = rng.random()
        if r < 0.02:
            out.append(b"# a comment " + str(k).encode())
            continue
        if r < 0.03:
            out.append(b"   ")
            continue
        doc = b"D%d" % int(rng.integers(0, 150))  # repeats inside a query: duplicates
        if unique:  # none (trec_eval refuses them)
            doc = b"D%d" % (200 - left)
        if r < 0.04:
            doc = "dé文書".encode() + doc
        elif r < 0.045:
            doc = b"bad\xff" + doc
        elif r < 0.047:
            doc = b"W" * 70 + doc
        score = [b"1", b"0.5", b"%.6f" % rng.random(), b"-3.25", b"1e-05"][int(rng.integers(0, 5))]
        tag = b"tag one" if r > 0.9 else b"t"
        out.append(b"q%d Q0 %s %d %s %s" % (q, doc, k, score, tag))
    data = eol.join(out)
    return data + eol if final else data


def columns_of(cols: Any) -> Tuple[Any, ...]:
    docs = cols.doc_ids
    return (
        cols.query_ids.tolist(),
        (ids_as_str(docs) if docs.dtype.kind == "S" else docs).tolist(),
        docs.dtype.str,
        cols.values.tolist(),
        None if cols.query_codes is None else cols.query_codes.tolist(),
        cols.query_names,
        cols.tag,
        cols.last_tag,
        cols.non_utf8_at,
        None if cols.dropped is None else cols.dropped.tolist(),
    )


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("eol, final", [(b"\n", True), (b"\r\n", True), (b"\n", False)])
@pytest.mark.parametrize("doc_ids", ["bytes", "str"])
def test_ranges_give_the_one_core_columns(
    ranges: List[int], tmp_path: Path, seed: int, eol: bytes, final: bool, doc_ids: str
) -> None:
    data = random_run(seed, eol=eol, final=final)
    path = tmp_path / "run.txt"
    path.write_bytes(data)
    expected, expected_warnings = one_core(read_run, path, doc_ids=doc_ids)
    got, got_warnings = outcome(read_run, path, doc_ids=doc_ids)
    assert ranges, "the range reader did not run"
    assert columns_of(got) == columns_of(expected)
    assert got_warnings == expected_warnings and len(got_warnings) == 1  # the duplicates
    # and both are the reference's (line by line, from the format)
    assert list(zip(got.query_ids.tolist(), columns_of(got)[1], got.values.tolist())) == reference(
        data, run=True
    )


def test_file_order_and_every_line_readings(ranges: List[int], tmp_path: Path) -> None:
    path = tmp_path / "run.txt"
    path.write_bytes(random_run(4))
    expected, expected_warnings = one_core(read_run, path, doc_ids="bytes", order="file")
    got, got_warnings = outcome(read_run, path, doc_ids="bytes", order="file")
    assert columns_of(got) == columns_of(expected)
    assert got.column2.tolist() == expected.column2.tolist()
    assert got.duplicates == expected.duplicates and got.duplicates
    assert [got.lines[i] for i in range(0, len(got), 97)] == [
        expected.lines[i] for i in range(0, len(got), 97)
    ]
    assert got_warnings == expected_warnings
    assert columns_of(read_run_lines(path)) == columns_of(one_core(read_run_lines, path)[0])
    assert len(ranges) == 2


def test_the_blocks_are_the_one_core_readers_blocks(ranges: List[int], tmp_path: Path) -> None:
    """Same cuts, same line numbers: each block of the ranges is the one-core reader's block."""
    path = tmp_path / "run.txt"
    path.write_bytes(b"\xef\xbb\xbf" + random_run(5, final=False) + b"q9999 Q0 " + b"x" * 600 + b" 1 1 t")

    def blocks(parallel: bool) -> List[Tuple[int, int, int, Any]]:
        old = byteranges.PARALLEL_MIN_BYTES
        byteranges.PARALLEL_MIN_BYTES = 0 if parallel else 1 << 62
        try:
            with open(path, "rb") as stream:
                reader = Reader(RUN_KIND, str(path), True)
                return [
                    (
                        b.first_line,
                        b.skipped,
                        len(b.docs),
                        None if b.entry_lines is None else b.entry_lines.tolist(),
                    )
                    for b in trec_io.parsed_blocks(reader, stream, str(path))
                ]
        finally:
            byteranges.PARALLEL_MIN_BYTES = old

    expected = blocks(False)
    assert len(expected) > 40  # many blocks, a line longer than a block, no final newline
    assert blocks(True) == expected


def test_ranges_end_at_the_readers_cuts(ranges: List[int], tmp_path: Path) -> None:
    data = random_run(6)
    buffer = byteranges.Buffer(len(data), data=data)
    spans = list(byteranges.line_ranges(buffer, BLOCK, RANGE))
    assert spans[0][0] == 0 and spans[-1][1] == len(data)
    assert all(a[1] == b[0] for a, b in zip(spans, spans[1:]))
    cuts = {data.rfind(b"\n", k, k + BLOCK) + 1 for k in range(0, len(data), BLOCK)} - {0}
    assert {end for _, end in spans} <= cuts
    assert len(spans) > 20


def bad_lines() -> List[Tuple[bytes, str]]:
    return [
        (b"q1 Q0 D1 1 0.5", "expected at least 6 columns (qid iter docno rank score tag), found 5"),
        (b"q1 Q0 D1 1 abc t", "expected a number in column 5 (score), found 'abc'"),
        (b"q1 Q0 D1 1 inf t", "expected a finite number in column 5 (score), found 'inf'"),
        (b"q1 Q0 D\x001 1 1 t", "expected text, found a NUL byte"),
        (b"q1 Q0 D\r1 1 1 t", "expected lines ending with LF or CRLF, found a lone carriage return"),
    ]


@pytest.mark.parametrize("bad, expected", bad_lines())
def test_a_bad_line_anywhere_is_the_same_error_on_its_line(
    ranges: List[int], tmp_path: Path, bad: bytes, expected: str
) -> None:
    """A bad line on each side of every range boundary (and inside ranges): the message is the
    one-core reader's, and its line number is the bad line's in the whole file."""
    lines = random_run(7, lines=1200).split(b"\n")[:-1]
    data = b"\n".join(lines) + b"\n"
    spans = list(byteranges.line_ranges(byteranges.Buffer(len(data), data=data), BLOCK, RANGE))
    starts = [data.count(b"\n", 0, a) for a, _ in spans]  # 0-based line index of each range's start
    targets = sorted({max(0, s + d) for s in starts[1:8] for d in (-1, 0, 1)} | {0, len(lines) - 1})
    for target in targets:
        path = tmp_path / "bad.txt"
        path.write_bytes(b"\n".join(lines[:target] + [bad] + lines[target + 1 :]) + b"\n")
        message = error_text(read_run, path, doc_ids="bytes")
        assert message.startswith(f"{path}:{target + 1}: {expected}"), (target, message)
        assert message == str(one_core(read_run, path, doc_ids="bytes")[0])
        assert error_text(lambda p: list(RunBlocks(p)), path) == message


def test_a_bad_line_in_the_second_range_names_its_line_in_the_file(ranges: List[int], tmp_path: Path) -> None:
    good = [b"q%d Q0 D%d %d %d.5 t" % (k // 50, k, k, k) for k in range(400)]
    data = b"\n".join(good) + b"\n"
    first, second = list(byteranges.line_ranges(byteranges.Buffer(len(data), data=data), BLOCK, RANGE))[:2]
    line = data.count(b"\n", 0, second[0]) + 3  # the third line of the second range
    good[line - 1] = b"q0 Q0 D1 1 x t"
    path = tmp_path / "run.txt"
    path.write_bytes(b"\n".join(good) + b"\n")
    assert line > 3 and first[1] == second[0]
    assert error_text(read_run, path) == (f"{path}:{line}: expected a number in column 5 (score), found 'x'")
    assert ranges


def test_gzip_is_decompressed_once_and_split(ranges: List[int], tmp_path: Path) -> None:
    data = random_run(8)
    plain, packed = tmp_path / "run.txt", tmp_path / "run.gz"
    plain.write_bytes(data)
    packed.write_bytes(gzip.compress(data))
    got, got_warnings = outcome(read_run, packed, doc_ids="bytes")
    expected, expected_warnings = one_core(read_run, packed, doc_ids="bytes")
    assert len(ranges) == 1 and columns_of(got) == columns_of(expected)
    assert got_warnings == expected_warnings
    assert columns_of(got)[:8] == columns_of(one_core(read_run, plain, doc_ids="bytes")[0])[:8]
    # blocks in bounded memory: a gzipped file read in order on one core, a plain one in ranges
    in_blocks = [columns_of(b)[:8] for b in RunBlocks(packed, block_lines=500)]
    assert len(ranges) == 1
    assert [columns_of(b)[:8] for b in RunBlocks(plain, block_lines=500)] == in_blocks
    assert len(ranges) == 2 and len(in_blocks) > 3


def test_a_truncated_gzip_still_reports_a_bad_line_before_the_damage(
    ranges: List[int], tmp_path: Path
) -> None:
    lines = random_run(9).split(b"\n")
    lines[5] = b"q1 Q0 D1 1 x t"
    packed = gzip.compress(b"\n".join(lines))
    path = tmp_path / "run.gz"
    path.write_bytes(packed[: len(packed) // 2])
    assert error_text(read_run, path) == f"{path}:6: expected a number in column 5 (score), found 'x'"
    path.write_bytes(gzip.compress(random_run(9))[:-30])
    assert error_text(read_run, path) == str(one_core(read_run, path)[0])
    assert "expected a readable run file, found EOFError" in error_text(read_run, path)


SNIPPET = """
import sys, hashlib
import ir_measures_pres.data.byteranges as byteranges
import ir_measures_pres.data.blocks as trec_io
from ir_measures_pres.data.readers import read_run
trec_io.BLOCK_SIZE = 256
byteranges.RANGE_BYTES = 768
byteranges.PARALLEL_MIN_BYTES = int(sys.argv[1])
byteranges.usable_cpus = lambda: 2
import ir_measures_pres.data.topic_ranges as topic_ranges
calls = []
real = trec_io.parse_in_ranges
trec_io.parse_in_ranges = lambda *a: calls.append(1) or real(*a)
scored = topic_ranges.ScoredRanges._merged
topic_ranges.ScoredRanges._merged = lambda *a: calls.append(1) or scored(*a)
failed = []  # the ranges handed the file to the one-core reading
handed = topic_ranges.RangesFailed.__init__
topic_ranges.RangesFailed.__init__ = lambda self, reason: failed.append(reason) or handed(self, reason)
try:
    cols = read_run("-", doc_ids="bytes")
except Exception as error:
    print(error)
else:
    print(len(calls), hashlib.sha256(repr((cols.query_ids.tolist(), cols.doc_ids.tolist(),
        cols.values.tolist(), cols.tag, cols.last_tag)).encode()).hexdigest())
"""


def test_standard_input_is_read_whole_and_split(tmp_path: Path) -> None:
    data = random_run(10)
    env = dict(os.environ, PYTHONWARNINGS="ignore")

    def run(threshold: int, text: bytes) -> str:
        done = subprocess.run(
            [sys.executable, "-c", SNIPPET, str(threshold)],
            input=text,
            capture_output=True,
            env=env,
            check=True,
        )
        return done.stdout.decode().strip()

    ranged, single = run(0, data), run(1 << 62, data)
    assert ranged.split()[0] == "1" and single.split()[0] == "0"
    assert ranged.split()[1] == single.split()[1]
    bad = data.replace(b"\n", b"\nq0 Q0 D 1 x t\n", 1)  # line 2
    assert run(0, bad) == run(1 << 62, bad) == "<stdin>:2: expected a number in column 5 (score), found 'x'"


def test_no_range_workers_inside_a_worker_or_beside_a_pool(ranges: List[int]) -> None:
    """Several runs in one call are scored by a pool's workers: each reads on one core; while a
    pool of this process runs, its reader reads on one core too (no oversubscription)."""
    assert byteranges.range_processes(1 << 30) == 2
    assert list(forked_map(lambda _: byteranges.range_processes(1 << 30), [0, 1], 2)) == [1, 1]
    inside = forked_map(lambda _: 0, iter([0, 1, 2]), 2)
    assert byteranges.range_processes(1 << 30) == 1
    assert list(inside) == [0, 0, 0]
    assert byteranges.range_processes(1 << 30) == 2
    assert byteranges.range_processes(1000) == 2  # the threshold is 0 here
    byteranges.PARALLEL_MIN_BYTES = 16 << 20
    assert byteranges.range_processes(1000) == 1  # a small file: no pool start


KILLER = """
import os, signal, sys, time
import ir_measures_pres.data.byteranges as byteranges
import ir_measures_pres.data.blocks as trec_io
trec_io.BLOCK_SIZE = 4096
byteranges.RANGE_BYTES = 8192
byteranges.PARALLEL_MIN_BYTES = 0
byteranges.usable_cpus = lambda: 2
import ir_measures_pres.data.topic_ranges as topic_ranges
def dying(real, at):
    def work(*args):
        span = args[at]
        if "{how}" == "kill" and span[0] > 40000:
            os.kill(os.getpid(), signal.SIGKILL)  # as the out-of-memory killer does
        if "{how}" == "slow":
            time.sleep(0.2)
        return real(*args)
    return work
# the ranges parsed here (byteranges), or parsed and scored in the worker (topic_ranges)
byteranges._parse_range = dying(byteranges._parse_range, 2)
topic_ranges._read_range = dying(topic_ranges._read_range, 1)
from ir_measures_pres.cli.evaluate import main
sys.exit(main())
"""


@pytest.fixture
def small_collection(tmp_path: Path) -> Path:
    (tmp_path / "qrels.txt").write_text("".join(f"q{q} 0 D{q} 1\n" for q in range(40)))
    run = b"".join(b"q%d Q0 D%d %d %d t\n" % (k // 100, k, k, k) for k in range(8000))
    (tmp_path / "run.txt").write_bytes(run)
    (tmp_path / "run.gz").write_bytes(gzip.compress(run))
    return tmp_path


def command(root: Path, how: str, run: str = "run.txt") -> subprocess.Popen:
    return subprocess.Popen(
        [
            sys.executable,
            "-c",
            KILLER.replace("{how}", how),
            "qrels.txt",
            run,
            "PRES@100",
            "--jobs",
            "2",
        ],
        cwd=root,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )


def children(pid: int) -> List[int]:
    found = []
    for entry in os.listdir("/proc"):
        try:
            stat = Path(f"/proc/{entry}/stat").read_text() if entry.isdigit() else ""
        except OSError:
            continue
        if stat and int(stat[stat.rindex(")") + 2 :].split()[1]) == pid:
            found.append(int(entry))
    return found


@pytest.mark.parametrize("run", ["run.txt", "run.gz"])
def test_a_killed_range_worker_ends_the_command_with_one_line(small_collection: Path, run: str) -> None:
    done = command(small_collection, "kill", run)
    out, err = done.communicate(timeout=120)
    assert (done.returncode, err.decode(), out) == (
        1,
        "ir_measures_pres: error: a worker process was killed (signal 9, often the out-of-memory killer); "
        "rerun with --jobs 1 or more memory\n",
        b"",
    )


@pytest.mark.parametrize("run", ["run.txt", "run.gz"])  # a gzipped one while a thread decompresses it
@pytest.mark.parametrize("number, status", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_stop_while_ranges_are_parsed_ends_every_worker_quietly(
    small_collection: Path, number: int, status: int, run: str
) -> None:
    done = command(small_collection, "slow", run)
    deadline = time.monotonic() + 60
    workers: List[int] = []
    while len(workers) < 2:  # the range workers parse (0.2 s a range, about 20 ranges)
        assert done.poll() is None and time.monotonic() < deadline, "the range workers never appeared"
        workers = children(done.pid)
        time.sleep(0.002)
    os.kill(done.pid, number)
    out, err = done.communicate(timeout=120)
    assert (done.returncode, err.decode(), out) == (status, "", b"")
    deadline = time.monotonic() + 10
    while any(alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not [w for w in workers if alive(w)], "range workers left behind"


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def test_a_stream_is_read_as_before(ranges: List[int]) -> None:
    """A binary file object that is not a regular file (here in memory) is read whole, split."""
    data = random_run(11)
    got = read_run(io.BytesIO(data), doc_ids="bytes")
    assert ranges and columns_of(got) == columns_of(one_core(read_run, io.BytesIO(data), doc_ids="bytes")[0])


FORCED = """
import sys
import ir_measures_pres.data.byteranges as byteranges
import ir_measures_pres.data.blocks as trec_io
trec_io.BLOCK_SIZE = 512
byteranges.RANGE_BYTES = 2048
byteranges.PARALLEL_MIN_BYTES = 0 if sys.argv.pop(1) == "ranges" else 1 << 62
byteranges.usable_cpus = lambda: 2
import ir_measures_pres.data.topic_ranges as topic_ranges
calls = []
real = trec_io.parse_in_ranges
trec_io.parse_in_ranges = lambda *a: calls.append(1) or real(*a)
scored = topic_ranges.ScoredRanges._merged
topic_ranges.ScoredRanges._merged = lambda *a: calls.append(1) or scored(*a)
failed = []  # the ranges handed the file to the one-core reading
handed = topic_ranges.RangesFailed.__init__
topic_ranges.RangesFailed.__init__ = lambda self, reason: failed.append(reason) or handed(self, reason)
from ir_measures_pres.cli.evaluate import main
status = main()
print("ranges used:", bool(calls), "read again in order:", bool(failed), file=sys.stderr)
sys.exit(status)
"""


@pytest.mark.parametrize(
    "args, status",
    [
        (["qrels.txt", "run.txt", "PRES@100 QMeasure Bpref10", "-q", "--jobs", "2"], 0),
        (["qrels.txt", "run.txt", "AP nDCG@10 PRES@100", "-q", "--jobs", "2"], 0),  # pytrec_eval's too
        (["qrels.txt", "dups.txt", "PRES@100 RR", "-q", "--jobs", "2"], 0),  # repeated documents
        (["qrels.txt", "dups.txt", "AP", "--jobs", "2"], 0),  # ids not in UTF-8, for pytrec_eval
        (["qrels.txt", "bad.txt", "PRES@100", "--jobs", "2"], 1),
        (["qrels.txt", "ungrouped.txt", "PRES@100 AP", "-q", "--jobs", "2"], 0),
        (["trec_eval", "-q", "-m", "all_trec", "qrels.txt", "run.txt"], 0),
        (["trec_eval", "-q", "-m", "all_trec", "qrels.txt", "bad.txt"], 2),
        (["trec_eval", "-q", "qrels.txt", "dups.txt"], 4),
        (["trec_eval", "-q", "-c", "-M", "50", "qrels.txt", "dups.txt"], 4),
        (["trec_eval", "-q", "qrels.txt", "ungrouped.txt"], 0),
        (["trec_eval", "-q", "-c", "-M", "50", "qrels.txt", "run.gz"], 0),
        (["qrels.txt", "run.gz", "PRES@100 AP", "-q", "--jobs", "2"], 0),  # decompressed once, split
        (["qrels.txt", "cut.gz", "PRES@100", "--jobs", "2"], 1),  # a damaged gzip file
        (["trec_eval", "qrels.txt", "cut.gz"], 2),
    ],
)
def test_the_commands_print_the_same_bytes_read_in_ranges(
    tmp_path: Path, args: List[str], status: int
) -> None:
    """Each command, its run read in ranges (parsed there, or parsed and scored there) and on one
    core: the same output, messages and exit status, for good runs and for those that the ranges
    hand to the one-core reading (a bad line, a query in two places)."""
    data = random_run(12, lines=4000, unique=True)
    lines = data.split(b"\n")
    rng = np.random.default_rng(12)
    (tmp_path / "qrels.txt").write_text(
        "".join(f"q{q} 0 D{d} {int(rng.integers(0, 3))}\n" for q in range(1, 40) for d in range(0, 150, 7))
    )
    (tmp_path / "run.txt").write_bytes(data)
    (tmp_path / "run.gz").write_bytes(gzip.compress(data))
    (tmp_path / "cut.gz").write_bytes(gzip.compress(data)[:20000])
    (tmp_path / "dups.txt").write_bytes(random_run(12, lines=4000))
    (tmp_path / "bad.txt").write_bytes(b"\n".join(lines[:2500] + [b"q30 Q0 D1 1 x t"] + lines[2501:]))
    (tmp_path / "ungrouped.txt").write_bytes(b"\n".join(lines[:10] + lines[300:] + lines[10:300]))
    outputs = {}
    for how in ("ranges", "one core"):
        done = subprocess.run(
            [sys.executable, "-c", FORCED, how, *args], cwd=tmp_path, capture_output=True, timeout=120
        )
        outputs[how] = (done.returncode, done.stdout, done.stderr.decode().splitlines()[:-1])
        ranged = how == "ranges"
        again = how == "ranges" and ("bad.txt" in args or "ungrouped.txt" in args or "cut.gz" in args)
        assert done.stderr.decode().splitlines()[-1] == f"ranges used: {ranged} read again in order: {again}"
    assert outputs["ranges"] == outputs["one core"]
    assert outputs["ranges"][0] == status
    if status == 0:
        assert outputs["ranges"][1].count(b"\n") > (60 if "-q" in args else 0)
    else:
        assert outputs["ranges"][2][-1].startswith("ir_measures_pres: error:")
