"""Speed of ``compare`` against PyTerrier's ``pt.Experiment`` and ranx's ``compare``, side by side.

The 17 TREC Robust 2003 runs (``../shared/data/real/trec-robust-2003``), AP and nDCG@10, paired
t-test with Holm's correction. Times are medians over ``--reps`` repetitions, end to end from the
files unless said otherwise:

* ours, all 136 pairs: ``compare(qrels, runs_dir, "AP nDCG@10")`` (read, rank, score, test);
* ours, baseline design: ``compare(..., baseline="InexpC2")`` (16 pairs: what PyTerrier can do);
* PyTerrier: ``pt.io.read_results`` of every run + ``pt.Experiment(..., baseline=0, test="t",
  correction="holm")`` (PyTerrier corrects only baseline-vs-all);
* ranx *warm*: ``ranx.compare(qrels, runs, ["map", "ndcg@10"], stat_test="student")`` with the
  Qrels/Run objects already built and the numba JIT warmed by a first call (not timed); ranx has
  no correction. ranx's *cold* first call and the time to build its objects are reported too.

Targets (spec compare.md, decision 8): ours end to end <= 0.2 x PyTerrier with the same test and
correction, and <= ranx warm. Usage: ``python bench/bench_compare.py [--reps 3] [--json out.json]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import warnings
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "real" / "trec-robust-2003"


def _median_time(fn, reps):
    times = []
    out = None
    for _ in range(reps):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--data", default=str(DATA))
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    data = Path(args.data)
    qrels_path = data / "qrels" / "robust03_qrels.txt"
    run_files = sorted(p for p in (data / "runs").iterdir() if p.is_file())
    warnings.simplefilter("ignore")
    results = {}

    from ir_measures_pres import compare

    t_ours, res = _median_time(lambda: compare(qrels_path, data / "runs", "AP nDCG@10"), args.reps)
    sig = res.pairs.groupby("measure", sort=False)["reject"].sum().to_dict()
    results["ours_all_pairs_t_holm"] = t_ours
    print(f"ours, all 136 pairs, t + Holm:        {t_ours:7.2f} s   significant {sig}")
    t_base, _ = _median_time(
        lambda: compare(qrels_path, data / "runs", "AP nDCG@10", baseline="InexpC2"), args.reps
    )
    results["ours_baseline_t_holm"] = t_base
    print(f"ours, baseline InexpC2, t + Holm:     {t_base:7.2f} s")

    try:
        import ir_measures
        import pyterrier as pt

        def pyterrier():
            qrels = pt.io.read_qrels(str(qrels_path))
            systems = [pt.Transformer.from_df(pt.io.read_results(str(f))) for f in run_files]
            topics = qrels[["qid"]].drop_duplicates().assign(query="x")
            return pt.Experiment(
                systems,
                topics,
                qrels,
                [ir_measures.AP, ir_measures.nDCG @ 10],
                names=[f.name for f in run_files],
                baseline=0,
                test="t",
                correction="holm",
            )

        t_pt, _ = _median_time(pyterrier, args.reps)
        results["pyterrier_baseline_t_holm"] = t_pt
        print(f"PyTerrier pt.Experiment, baseline:    {t_pt:7.2f} s   ours/PyTerrier {t_base / t_pt:.3f}")
        results["ratio_ours_baseline_vs_pyterrier"] = t_base / t_pt
        results["ratio_ours_all_pairs_vs_pyterrier"] = t_ours / t_pt
    except ImportError as exc:  # pragma: no cover
        print(f"PyTerrier not available: {exc}")

    try:
        import gzip
        import tempfile

        from ranx import Qrels, Run
        from ranx import compare as ranx_compare

        tmp = Path(tempfile.mkdtemp(prefix="bench_compare_"))
        plain = []  # ranx 0.3.21 reads TREC runs as text only: gunzip first (not timed)
        for f in run_files:
            out = tmp / f.name.removesuffix(".gz")
            out.write_bytes(gzip.decompress(f.read_bytes()))
            plain.append(out)
        t0 = time.perf_counter()
        rq = Qrels.from_file(str(qrels_path), kind="trec")
        rruns = []
        for f in plain:
            r = Run.from_file(str(f), kind="trec")
            r.name = f.name
            rruns.append(r)
        results["ranx_build_objects"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        ranx_compare(rq, rruns, ["map", "ndcg@10"], stat_test="student")
        results["ranx_cold_first_call"] = time.perf_counter() - t0
        t_rx, _ = _median_time(
            lambda: ranx_compare(rq, rruns, ["map", "ndcg@10"], stat_test="student"), args.reps
        )
        results["ranx_warm"] = t_rx
        print(
            f"ranx compare, warm (objects built):   {t_rx:7.2f} s   ours/ranx {t_ours / t_rx:.3f} "
            f"(building objects {results['ranx_build_objects']:.2f} s, first call "
            f"{results['ranx_cold_first_call']:.2f} s)"
        )
        results["ratio_ours_all_pairs_vs_ranx_warm"] = t_ours / t_rx
    except ImportError as exc:  # pragma: no cover
        print(f"ranx not available: {exc}")

    for test in ("wilcoxon", "perm", "tukey", "rtukey"):
        t, _ = _median_time(lambda t=test: compare(qrels_path, data / "runs", "AP nDCG@10", test=t), 1)
        results[f"ours_all_pairs_{test}"] = t
        print(f"ours, all pairs, {test:8s}:            {t:7.2f} s")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
