"""Speed and memory of ``ir_measures_pres trec_eval -m all_trec`` against pytrec_eval.

usage: python bench/bench_trec_eval.py [QUERIES=5000] [--reps N]

Makes (once) the synthetic collection of ``../shared/bench/make_synthetic.py`` (QUERIES x 1,000
run lines, graded qrels) under /tmp/ir_measures_pres_bench/, then times, each in a fresh process
(wall time and peak resident memory of the child):

* **ours**: ``python -m ir_measures_pres trec_eval -m all_trec QRELS RUN`` (reading included);
* **pytrec_eval**: ``pytrec_eval.parse_qrel`` / ``parse_run`` of the same files and
  ``RelevanceEvaluator(qrels, measures).evaluate(run)`` with every all_trec measure pytrec_eval
  knows (it has no ``unj``, ``rbp``, ``rbp_resid``), then the mean of each value (no printing).

The spec's target is trec_eval 10.0's own time on the same files (the C binary is measured
outside this repository); pytrec_eval, the same C code behind a Python dict interface, is the
reference available here. Medians over ``--reps`` repetitions.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
MAKER = HERE.parent.parent / "shared" / "bench" / "make_synthetic.py"

PYTREC = """
import sys, pytrec_eval
qrels = pytrec_eval.parse_qrel(open(sys.argv[1]))
run = pytrec_eval.parse_run(open(sys.argv[2]))
measures = {"num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
            "recip_rank", "iprec_at_recall", "P", "relstring", "recall", "infAP", "gm_bpref",
            "Rprec_mult", "utility", "11pt_avg", "binG", "G", "ndcg", "ndcg_rel", "Rndcg",
            "ndcg_cut", "map_cut", "relative_P", "success", "set_P", "set_relative_P",
            "set_recall", "set_map", "set_F", "num_nonrel_judged_ret"}
res = pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run)
names = next(iter(res.values())).keys()
means = {m: sum(v[m] for v in res.values()) / len(res) for m in names}
print(len(means))
"""


def _child(cmd: list) -> tuple:
    """(wall seconds, peak resident MiB) of one child process (its own rusage, by wait4)."""
    t0 = time.perf_counter()
    child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - t0
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        sys.exit(f"{cmd[:4]} failed with status {child.returncode}")
    return wall, usage.ru_maxrss / 1024.0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("queries", nargs="?", type=int, default=5000)
    parser.add_argument("--reps", type=int, default=1)
    args = parser.parse_args()
    out = Path(f"/tmp/ir_measures_pres_bench/s{args.queries}")
    if not (out / "run.txt").exists():
        subprocess.run([sys.executable, str(MAKER), str(out), str(args.queries)], check=True)
    qrels, run = str(out / "qrels.txt"), str(out / "run.txt")
    ours_cmd = [sys.executable, "-m", "ir_measures_pres", "trec_eval", "-m", "all_trec", qrels, run]
    ref_cmd = [sys.executable, "-c", PYTREC, qrels, run]
    ours, ref = [], []
    for _ in range(args.reps):
        ref.append(_child(ref_cmd))
        ours.append(_child(ours_cmd))
    o, r = statistics.median(w for w, _ in ours), statistics.median(w for w, _ in ref)
    print(f"lines: {sum(1 for _ in open(run))}  cores: {os.cpu_count()}")
    print(f"pytrec_eval: {r:.1f} s, peak {max(m for _, m in ref):.0f} MiB")
    print(f"ours:        {o:.1f} s, peak {max(m for _, m in ours):.0f} MiB")
    print(f"ratio ours / pytrec_eval: {o / r:.2f}")


if __name__ == "__main__":
    main()
