#!/usr/bin/env python3
"""Speed at scale (issue #13): the command line against the stock ir_measures command, side by side.

usage: python bench/bench_speed.py [--reps 3] [--only NAMES] [--sizes 500,1000,2500,5000]
                                   [--data DIR] [--robust DIR] [--json FILE]

Every figure is the median of ``--reps`` repetitions, ours and the reference interleaved in the
same run (the machine is shared and noisy: only the ratios are targets). Wall time and peak
resident memory are those of the whole command, its forked workers included (``os.wait4``).

  mixed    ``ir_measures_pres QRELS RUN "AP P@10 nDCG@10 R@1000 PRES@1000 QMeasure Bpref10"`` on
           the 5M-line run <= 0.3 x ``ir_measures QRELS RUN AP P@10 nDCG@10 R@1000``; <= 1 GiB
  ours     ``ir_measures_pres QRELS RUN "PRES@1000 QMeasure Bpref10"`` <= 0.12 x
           ``ir_measures QRELS RUN AP``; <= 600 MiB
  many     the 17 TREC 2003 Robust runs, seven measures, one call (default ``--jobs``, and
           ``--jobs 1``: all in one process) <= 0.15 x the stock command run once per file for
           the four standard measures; values checked against the stock command's
  scaling  ``mixed`` and ``ours`` from 0.5M to 5M run lines (``--sizes``, queries x 1,000)
  peers    on the 5M-line run, same measures as ``mixed``'s standard four: pytrec_eval on dicts
           read by ir_measures (in one process) and ranx (``Qrels.from_file``/``Run.from_file``,
           numba compiled once beforehand), when installed

Data: the synthetic collections of bench_core.py (``../shared/bench/make_synthetic.py``, made on
first use under ``/tmp/ir_measures_pres_bench``) and ``../shared/data/real/trec-robust-2003``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Sequence, Tuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_core import collection  # noqa: E402  (one generator of the synthetic collections)

PY = sys.executable
STANDARD = ["AP", "P@10", "nDCG@10", "R@1000"]
OURS = ["PRES@1000", "QMeasure", "Bpref10"]
ROBUST = HERE.parents[1] / "shared" / "data" / "real" / "trec-robust-2003"


def ours_cmd(*args: str) -> List[str]:
    return [PY, "-m", "ir_measures_pres", *args]


def stock_cmd(*args: str) -> List[str]:
    return [PY, "-m", "ir_measures", *args]


def measure(cmd: Sequence[str]) -> Tuple[float, float, str]:
    """(wall seconds, peak resident MiB of the command and its workers, standard output)."""
    out_path = Path("/tmp/ir_measures_pres_bench_out.txt")
    with open(out_path, "wb") as out:
        start = time.perf_counter()
        proc = subprocess.Popen(list(cmd), stdout=out, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode() if proc.stderr else ""
    if proc.returncode != 0:
        sys.exit(f"failed ({proc.returncode}): {' '.join(cmd)}\n{err}")
    return wall, usage.ru_maxrss / 1024, out_path.read_text()


def _tree(pid: int) -> List[int]:
    """``pid`` and its descendants (Linux: /proc/PID/task/PID/children)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            todo.extend(int(c) for c in Path(f"/proc/{p}/task/{p}/children").read_text().split())
        except OSError:
            pass
    return out


def _pss_mib(pids: List[int]) -> float:
    """Proportional set size of the processes, added up (MiB): pages shared copy-on-write by
    forked workers count once in all, split between them."""
    total = 0
    for p in pids:
        try:
            for line in Path(f"/proc/{p}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
                    break
        except OSError:
            pass
    return total / 1024


def peak_memory(cmd: Sequence[str]) -> float:
    """One untimed run of ``cmd``, its memory sampled every 20 ms: the peak of the summed PSS of
    the command and its forked workers (MiB). (The timed runs report the largest single
    process's peak RSS, which counts pages shared with the workers in each of them.)"""
    with open(os.devnull, "wb") as out:
        proc = subprocess.Popen(list(cmd), stdout=out, stderr=subprocess.DEVNULL)
        peak = 0.0
        while proc.poll() is None:
            peak = max(peak, _pss_mib(_tree(proc.pid)))
            time.sleep(0.02)
    return round(peak, 1)


def medians(jobs: Dict[str, Callable[[], Tuple[float, float]]], reps: int) -> Dict[str, Dict[str, Any]]:
    """Run each job ``reps`` times, interleaved; per job the median time, the runs and peak MiB."""
    times: Dict[str, List[float]] = {k: [] for k in jobs}
    peaks: Dict[str, List[float]] = {k: [] for k in jobs}
    for _ in range(reps):
        for name, job in jobs.items():
            t, mib = job()
            times[name].append(t)
            peaks[name].append(mib)
    return {
        k: {
            "median": statistics.median(times[k]),
            "runs": [round(t, 3) for t in times[k]],
            "peak_mib": max(peaks[k]),
        }
        for k in jobs
    }


def once(cmd: Sequence[str]) -> Callable[[], Tuple[float, float]]:
    def job() -> Tuple[float, float]:
        t, mib, _ = measure(cmd)
        return t, mib

    return job


def report(
    name: str,
    ours: Dict[str, Any],
    ref: Dict[str, Any],
    target: float,
    mib_target: float = 0,
    cmd: Sequence[str] = (),
) -> Dict[str, Any]:
    """A ratio row; with ``cmd`` also the peak memory of all its processes (one untimed run),
    which is what ``mib_target`` bounds."""
    ratio = ours["median"] / ref["median"]
    row = {"ours": ours, "reference": ref, "ratio": round(ratio, 3), "target": target, "met": ratio <= target}
    mem = ""
    if cmd:
        row["peak_pss_mib"] = peak_memory(cmd)
        mem = f", memory: all processes {row['peak_pss_mib']:.0f} MiB, largest {ours['peak_mib']:.0f} MiB"
        if mib_target:
            row["memory_met"] = row["peak_pss_mib"] <= mib_target
            mem += f" (<= {mib_target:.0f})"
    print(
        f"{name:<24} ours {ours['median']:.2f} s / reference {ref['median']:.2f} s = {ratio:.3f} "
        f"(<= {target}){mem}",
        flush=True,
    )
    return row


def bench_single(qrels: Path, run: Path, reps: int) -> Dict[str, Any]:
    q, r = str(qrels), str(run)
    mixed = ours_cmd(q, r, " ".join(STANDARD + OURS))
    alone = ours_cmd(q, r, " ".join(OURS))
    res = medians(
        {
            "mixed": once(mixed),
            "stock_four": once(stock_cmd(q, r, *STANDARD)),
            "ours_alone": once(alone),
            "stock_ap": once(stock_cmd(q, r, "AP")),
        },
        reps,
    )
    name = run.parent.name
    return {
        "mixed": report(f"mixed {name}", res["mixed"], res["stock_four"], 0.3, 1024, mixed),
        "ours": report(f"ours alone {name}", res["ours_alone"], res["stock_ap"], 0.12, 600, alone),
    }


def bench_many(reps: int, robust: Path) -> Dict[str, Any]:
    qrels = str(robust / "qrels" / "robust03_qrels.txt")
    runs = sorted(str(p) for p in (robust / "runs").iterdir())
    runs_dir = str(robust / "runs")
    seven = " ".join(STANDARD + OURS)

    def stock_per_file() -> Tuple[float, float]:
        total, peak = 0.0, 0.0
        for run in runs:
            t, mib, _ = measure(stock_cmd(qrels, run, *STANDARD))
            total, peak = total + t, max(peak, mib)
        return total, peak

    res = medians(
        {
            "ours": once(ours_cmd(qrels, runs_dir, seven)),
            "ours_one_process": once(ours_cmd(qrels, runs_dir, seven, "--jobs", "1")),
            "stock": stock_per_file,
        },
        reps,
    )
    out = {
        "default_jobs": report(
            "many runs (17 Robust)",
            res["ours"],
            res["stock"],
            0.15,
            0,
            ours_cmd(qrels, runs_dir, seven),
        ),
        "jobs_1": report("many runs, --jobs 1", res["ours_one_process"], res["stock"], 0.15),
        "check": check_many(qrels, runs, seven),
    }
    return out


def check_many(qrels: str, runs: List[str], seven: str) -> str:
    """Our many-run output against the stock command's, run by run (standard measures, all
    digits), and against our own one-run command (our measures)."""
    _, _, many = measure(ours_cmd(qrels, *runs, seven, "-p", "-1"))
    got = {tuple(line.split("\t")[:2]): line.split("\t")[2] for line in many.splitlines()}
    for run in runs:
        name = Path(run).name[: -len(".gz")] if run.endswith(".gz") else Path(run).name
        _, _, stock = measure(stock_cmd(qrels, run, *STANDARD, "-p", "17"))
        for line in stock.splitlines():
            measure_name, value = line.split("\t")
            if float(got[(name, measure_name)]) != float(value):
                sys.exit(
                    f"value check: {name} {measure_name}: ours {got[(name, measure_name)]}, stock {value}"
                )
        _, _, single = measure(ours_cmd(qrels, run, " ".join(OURS), "-p", "-1"))
        for line in single.splitlines():
            measure_name, value = line.split("\t")
            if got[(name, measure_name)] != value:
                sys.exit(
                    f"value check: {name} {measure_name}: "
                    f"many runs {got[(name, measure_name)]}, one run {value}"
                )
    print(
        f"check: {len(runs)} runs, standard measures = stock ir_measures (17 places), ours = one-run command"
    )
    return "ok"


def bench_scaling(data: Path, sizes: List[int], reps: int) -> Dict[str, Any]:
    rows = {}
    for nq in sizes:
        qrels, run = collection(data, nq)
        lines = nq * 1000
        res = bench_single(qrels, run, reps)
        rows[str(lines)] = {
            k: {
                "ours_s": v["ours"]["median"],
                "ratio": v["ratio"],
                "us_per_line": 1e6 * v["ours"]["median"] / lines,
            }
            for k, v in res.items()
        }
        print(
            f"  {lines:>9,} lines: "
            + ", ".join(f"{k} {v['us_per_line']:.3f} us/line" for k, v in rows[str(lines)].items())
        )
    return rows


PYTREC_PEER = """
import sys, ir_measures, pytrec_eval
q = ir_measures.util.QrelsConverter(ir_measures.read_trec_qrels(sys.argv[1])).as_dict_of_dict()
r = ir_measures.util.RunConverter(ir_measures.read_trec_run(sys.argv[2])).as_dict_of_dict()
pytrec_eval.RelevanceEvaluator(q, {"map", "P_10", "ndcg_cut_10", "recall_1000"}).evaluate(r)
"""

RANX_PEER = """
import sys
from ranx import Qrels, Run, evaluate
q = Qrels.from_file(sys.argv[1], kind="trec")
r = Run.from_file(sys.argv[2], kind="trec")
print(evaluate(q, r, ["map", "precision@10", "ndcg@10", "recall@1000"]))
"""


def bench_peers(qrels: Path, run: Path, reps: int) -> Dict[str, Any]:
    q, r = str(qrels), str(run)
    jobs = {
        "ours_mixed": once(ours_cmd(q, r, " ".join(STANDARD + OURS))),
        "ours_standard_four": once(ours_cmd(q, r, " ".join(STANDARD))),
        "pytrec_eval_script": once([PY, "-c", PYTREC_PEER, q, r]),
    }
    try:
        import ranx  # noqa: F401

        small = collection(qrels.parents[1], 1000)
        measure([PY, "-c", RANX_PEER, str(small[0]), str(small[1])])  # numba compiles (cached) once
        jobs["ranx"] = once([PY, "-c", RANX_PEER, q, r])
    except ImportError:
        print("peers: ranx not installed (pip install ranx) - left out")
    res = medians(jobs, reps)
    for k, v in res.items():
        print(f"peer {k:<22} {v['median']:.2f} s, peak {v['peak_mib']:.0f} MiB")
    return res


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--only", default="single,many,scaling,peers")
    ap.add_argument("--sizes", default="500,1000,2500,5000")
    ap.add_argument("--data", type=Path, default=Path("/tmp/ir_measures_pres_bench"))
    ap.add_argument("--robust", type=Path, default=ROBUST)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    only = set(args.only.split(","))
    import ir_measures
    import numpy

    import ir_measures_pres

    results: Dict[str, Any] = {
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, {platform.platform()}, "
        f"Python {platform.python_version()}",
        "versions": {
            "ir_measures_pres": ir_measures_pres.__version__,
            "ir_measures": ir_measures.__version__,
            "numpy": numpy.__version__,
        },
        "reps": args.reps,
    }
    print(results["machine"], results["versions"], f"medians of {args.reps}", flush=True)
    qrels5, run5 = collection(args.data, 5000)
    if "single" in only:
        results["single"] = bench_single(qrels5, run5, args.reps)
    if "many" in only:
        if not (args.robust / "runs").is_dir():
            print(f"many: no {args.robust} - left out")
        else:
            results["many"] = bench_many(args.reps, args.robust)
    if "scaling" in only:
        results["scaling"] = bench_scaling(args.data, [int(s) for s in args.sizes.split(",")], args.reps)
    if "peers" in only:
        results["peers"] = bench_peers(qrels5, run5, args.reps)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
