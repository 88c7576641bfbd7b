"""Record every command's output on the real data, and compare a later recording with it.

A refactoring that moves code must not move a byte of output. This script runs each command of
the package (the main command in every output format, ``tar`` for both tools, ``compare`` with
every test and format, the four meta-evaluation commands with their files and plots) on the TREC
Robust 2003 and CLEF TAR 2017 data of ``../shared/data/real`` and keeps, per case, the standard
output, the standard error, the exit status and every file the case writes::

    python bench/output_snapshot.py record /tmp/before     # on the old code
    python bench/output_snapshot.py record /tmp/after      # on the new code
    python bench/output_snapshot.py compare /tmp/before /tmp/after

``compare`` lists each case whose bytes differ (the first differing line of each file) and exits
1 when any does, 0 when every byte is the same. Progress bars are turned off (``-q`` where a
command has it), so that what is recorded carries no timing. About two minutes on two cores.
"""

from __future__ import annotations

import argparse
import filecmp
import gzip
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, List

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "real"
ROBUST = SHARED / "trec-robust-2003"
CLEF = SHARED / "clef-tar-2017"

OUR = "PRES@1000 PRES@100 QMeasure OMeasure PMeasure PPlusMeasure Bpref10 R_norm(collection_size=528155)"
STANDARD = "AP nDCG@10 P@10 R@1000 Rprec RR"
TAR = "WSS WSS(recall=1.0) LastRel NumShown NumShown(rel=1) AP PRES@100"


def cases() -> Dict[str, List[str]]:
    """Each case's arguments after ``ir_measures_pres`` (``{out}``: the case's output folder)."""
    rq = str(ROBUST / "qrels" / "robust03_qrels.txt")
    rruns = str(ROBUST / "runs")
    one = str(ROBUST / "runs" / "input.aplrob03a.gz")
    two = [str(ROBUST / "runs" / n) for n in ("input.aplrob03a.gz", "input.Sel50.gz", "input.uwmtCR0.gz")]
    cq_abs = str(CLEF / "qrels" / "qrel_abs_test.txt")
    cq_content = str(CLEF / "qrels" / "qrel_content_test.txt")
    cq = str(CLEF / "qrels" / "test.clef2017.qrels")
    cruns = str(CLEF / "runs")
    amc = str(CLEF / "runs" / "amc.run.gz")
    meta_robust = [rq, rruns, "-m", "AP@100", "PRES@100", "R@100", "QMeasure@100", "-q"]
    meta_clef = [cq_abs, cruns, "-m", "AP", "PRES@100", "R@100", "WSS", "-q"]
    c: Dict[str, List[str]] = {
        # the main command
        "main_robust_all_q": [rq, rruns, OUR, STANDARD, "-q"],
        "main_robust_jsonl": [rq, rruns, OUR, STANDARD, "-o", "jsonl"],
        "main_robust_trec": [
            rq,
            rruns,
            "map P.10 ndcg_cut.10 recall.1000 PRES_1000 Q-measure",
            "--format",
            "trec",
        ],
        "main_robust_one_full": [rq, one, OUR, STANDARD, "-q", "-p", "-1"],
        "main_robust_one_trec_q": [rq, one, "official", "PRES@1000", "-o", "trec", "-q"],
        "main_robust_jobs1": [rq, *two, OUR, STANDARD, "--jobs", "1", "-q", "-n"],
        "main_robust_provider": [rq, one, "PRES@100 QMeasure", "--provider", "ir_measures_pres", "-q"],
        "main_clef_tar": [cq, cruns, TAR, "R@100 nDCG@10 QMeasure", "-q"],
        "main_clef_cross": [cq, one, "AP PRES@1000"],
        "main_bad_measure": [rq, one, "nDCG@1O"],
        "main_missing_file": [rq, "/nonexistent/run", "AP"],
        # tar
        "tar_2017_abs": ["tar", "--edition", "2017", cq_abs, amc],
        "tar_2017_content": ["tar", "--edition", "2017", cq_content, amc],
        "tar_2017_many": [
            "tar",
            "--edition",
            "2017",
            cq_abs,
            *[str(p) for p in sorted(Path(cruns).glob("*.gz"))[:6]],
        ],
        "tar_2017_rel2_tsv": ["tar", "--edition", "2017", "--rel", "2", "--format", "tsv", cq, amc],
        "tar_2018_refused": ["tar", cq, amc],
        "tar_2018": ["tar", cq, "{run2018}"],
        "tar_2018_task1": ["tar", "--task", "1", cq, "{run2018}"],
        "tar_2018_rel2_tsv": ["tar", "--rel", "2", "--format", "tsv", cq, "{run2018}"],
        "tar_2018_jsonl": ["tar", "--format", "jsonl", "--notices", "stdout", cq, "{run2018}"],
        # compare
        "compare_text": ["compare", rq, rruns, "-m", "AP", "nDCG@10", "PRES@1000", "-q"],
        "compare_baseline_md": [
            "compare",
            rq,
            rruns,
            "-m",
            "AP",
            "PRES@1000",
            "--baseline",
            "input.aplrob03a",
            "--format",
            "md",
            "-q",
        ],
        "compare_latex": ["compare", rq, *two, "-m", "AP", "QMeasure", "--format", "latex", "-q"],
        "compare_csv_wilcoxon": [
            "compare",
            rq,
            *two,
            "-m",
            "AP",
            "--test",
            "wilcoxon",
            "--format",
            "csv",
            "-q",
        ],
        "compare_json_perm": [
            "compare",
            rq,
            *two,
            "-m",
            "AP",
            "PRES@100",
            "--test",
            "perm",
            "--B",
            "2000",
            "--format",
            "json",
            "-q",
        ],
        "compare_tukey": ["compare", rq, *two, "-m", "AP", "--test", "tukey", "-q"],
        "compare_rtukey": ["compare", rq, *two, "-m", "nDCG@10", "--test", "rtukey", "--B", "500", "-q"],
        "compare_intersection": ["compare", rq, *two, "-m", "AP", "--topics", "intersection", "-q"],
        "compare_files": [
            "compare",
            rq,
            *two,
            "-m",
            "AP",
            "PRES@1000",
            "-o",
            "{out}",
            "--plot",
            "forest",
            "-q",
        ],
        "compare_scores": ["compare", rq, "{scores}", "-m", "map", "P_10", "--scores", "-q"],
        "compare_matrix": ["compare", rq, *two, "-m", "AP", "-o", "{out}", "--plot", "matrix", "-q"],
        "compare_clef": ["compare", cq_abs, cruns, "-m", "AP", "WSS", "--format", "md", "-q"],
        # meta-evaluation
        "robustness_robust": ["robustness", *meta_robust, "--samples", "2", "-o", "{out}"],
        "robustness_clef": ["robustness", *meta_clef, "--samples", "2", "--format", "json"],
        "agreement_robust": ["agreement", *meta_robust, "-o", "{out}"],
        "agreement_clef": ["agreement", *meta_clef, "--format", "tsv", "-o", "{out}", "--plot-format", "svg"],
        "discpower_robust": [
            "discriminative-power",
            *meta_robust,
            "-B",
            "200",
            "--splits",
            "20",
            "--repeats",
            "2",
            "-o",
            "{out}",
        ],
        "discpower_clef": [
            "discriminative-power",
            *meta_clef,
            "-B",
            "100",
            "--splits",
            "20",
            "--repeats",
            "1",
        ],
        "sensitivity_robust": [
            "sensitivity",
            *meta_robust,
            "-B",
            "100",
            "--repeats",
            "2",
            "-o",
            "{out}",
            "--bins",
        ],
        "sensitivity_clef": [
            "sensitivity",
            *meta_clef,
            "-B",
            "50",
            "--sampling",
            "disjoint",
            "--repeats",
            "1",
        ],
    }
    return c


def record(folder: Path) -> None:
    if not ROBUST.is_dir() or not CLEF.is_dir():
        sys.exit(f"output_snapshot: needs {ROBUST} and {CLEF}")
    folder.mkdir(parents=True, exist_ok=True)
    # a fixed salt for the ids of matplotlib's SVG elements (random otherwise)
    inputs = folder / "_inputs"
    scores = inputs / "scores"
    scores.mkdir(parents=True, exist_ok=True)
    (inputs / "matplotlibrc").write_text("svg.hashsalt: output_snapshot\n")
    env = dict(
        os.environ, PYTHONHASHSEED="0", MPLBACKEND="Agg", SOURCE_DATE_EPOCH="0", MATPLOTLIBRC=str(inputs)
    )
    # compare --scores reads trec_eval -q files: two of them, written by the main command
    for run in ("input.aplrob03a", "input.Sel50"):
        with open(scores / run, "wb") as out:
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "ir_measures_pres",
                    str(ROBUST / "qrels" / "robust03_qrels.txt"),
                    str(ROBUST / "runs" / f"{run}.gz"),
                    "map P.10",
                    "-q",
                    "--format",
                    "trec",
                    "-p",
                    "-1",
                ],
                stdout=out,
                check=True,
                env=env,
            )
    # the 2018 tool reads a threshold flag in column 2: amc.run with its 2017 codes replaced
    # by 0, and 1 on each topic's 100th line
    lines = gzip.decompress((CLEF / "runs" / "amc.run.gz").read_bytes()).decode().splitlines()
    seen: Dict[str, int] = {}
    with open(inputs / "amc.2018", "w") as out2018:
        for line in lines:
            f = line.split()
            seen[f[0]] = seen.get(f[0], 0) + 1
            f[1] = "1" if seen[f[0]] == 100 else "0"
            out2018.write(" ".join(f) + "\n")
    for name, args in cases().items():
        out = folder / name
        if out.exists():
            shutil.rmtree(out)
        out.mkdir()
        files = out / "files"
        argv = [a.replace("{out}", str(files)) for a in args]
        argv = [a.replace("{run2018}", str(inputs / "amc.2018")) for a in argv]
        if "{scores}" in argv:
            i = argv.index("{scores}")
            argv[i : i + 1] = sorted(str(p) for p in scores.iterdir())
        t = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "ir_measures_pres", *argv], capture_output=True, env=env)
        # paths of the output folder differ between recordings: keep them out of the bytes
        for stream, text in (("stdout", done.stdout), ("stderr", done.stderr)):
            text = text.replace(str(files).encode(), b"{out}").replace(str(inputs).encode(), b"{inputs}")
            (out / stream).write_bytes(text)
        (out / "rc").write_text(f"{done.returncode}\n")
        print(f"{name:28} rc={done.returncode} {time.perf_counter() - t:6.1f} s", flush=True)


def _first_difference(a: Path, b: Path) -> str:
    la, lb = a.read_bytes().splitlines(), b.read_bytes().splitlines()
    for i, (x, y) in enumerate(zip(la, lb), 1):
        if x != y:
            return f"line {i}: {x[:100]!r} != {y[:100]!r}"
    return f"{len(la)} lines != {len(lb)} lines"


def compare(before: Path, after: Path) -> int:
    differ = 0
    names = sorted({p.name for p in [*before.iterdir(), *after.iterdir()] if not p.name.startswith("_")})
    for name in names:
        a, b = before / name, after / name
        if not a.is_dir() or not b.is_dir():
            print(f"{name}: only in {'after' if b.is_dir() else 'before'}")
            differ += 1
            continue
        rel_a = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file())
        rel_b = sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file())
        if rel_a != rel_b:
            print(f"{name}: files differ: {set(rel_a) ^ set(rel_b)}")
            differ += 1
            continue
        bad = [r for r in rel_a if not filecmp.cmp(a / r, b / r, shallow=False)]
        for r in bad:
            print(f"{name}/{r}: {_first_difference(a / r, b / r)}")
        differ += bool(bad)
        if not bad:
            print(f"{name}: identical ({len(rel_a)} files)")
    print(f"{len(names) - differ} of {len(names)} cases byte-identical")
    return 1 if differ else 0


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="action", required=True)
    sub.add_parser("record").add_argument("folder", type=Path)
    cmp = sub.add_parser("compare")
    cmp.add_argument("before", type=Path)
    cmp.add_argument("after", type=Path)
    args = parser.parse_args()
    if args.action == "record":
        record(args.folder)
        return 0
    return compare(args.before, args.after)


if __name__ == "__main__":
    sys.exit(main())
