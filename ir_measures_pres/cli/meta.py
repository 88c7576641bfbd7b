"""Command line of the meta-evaluation experiments.

``main(argv)`` takes the arguments from the subcommand name on::

    ir_measures_pres robustness QRELS RUN [RUN ...] -m "PRES@100 AP@100 R@100" -o out/
    ir_measures_pres agreement QRELS RUNS_DIR -m "PRES@1000 AP@1000 R@1000" --confidence 0.95
    ir_measures_pres discriminative-power QRELS RUNS_DIR -m "QMeasure AP PMeasure" -B 1000
    ir_measures_pres sensitivity QRELS RUNS_DIR -m "QMeasure AP PMeasure" -B 1000 --repeats 3

A RUN is a run file or a directory of run files (``.gz`` allowed). Measures are read by the
measure catalogue, as in the main command (:mod:`ir_measures_pres.measures.catalogue`). Tables go to
stdout, and with ``-o DIR`` to CSV/TSV/JSON files there with a PNG/SVG plot. Exit status: 0 on
success, 1 on bad input (message on stderr), 2 on bad usage (an unknown or invalid measure
included, reported exactly as the main command reports it).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, List, Optional, Sequence

from ._command import ArgumentParser, float_option, int_option

COMMANDS = ("robustness", "agreement", "discriminative-power", "sensitivity")


def _fractions(text: str) -> List[float]:
    """``'0.2 0.4'`` or ``'0.2,0.4'``: fractions of the relevant documents kept, each in (0, 1]."""
    fraction = float_option(0.0, 1.0, low_open=True)
    values = [fraction(x) for x in text.replace(",", " ").split()]
    if not values:
        raise argparse.ArgumentTypeError("expected at least one fraction, found none")
    return values


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("qrels", help="qrels file (TREC format, .gz allowed)")
    p.add_argument("runs", nargs="+", metavar="RUN", help="run files and/or directories of run files")
    p.add_argument(
        "-m",
        "--measures",
        nargs="+",
        required=True,
        help="measures, as the main command reads them (ir_measures or trec_eval syntax), e.g. "
        "-m PRES@100 AP@100 'R@100' (or one quoted string with spaces)",
    )
    p.add_argument(
        "--exclude",
        action="append",
        default=[],
        metavar="GLOB",
        help="skip run files whose name matches GLOB (repeatable)",
    )
    p.add_argument("-o", "--output", metavar="DIR", help="write the tables and the plot into DIR")
    p.add_argument(
        "--format", choices=("csv", "tsv", "json"), default="csv", help="table format (default csv)"
    )
    p.add_argument(
        "--plot-format",
        choices=("png", "svg", "none"),
        default="png",
        help="plot format with -o (default png; none: no plot)",
    )
    p.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")


def build_parser() -> ArgumentParser:
    parser = ArgumentParser(prog="ir_measures_pres", description="Meta-evaluation of IR measures.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="{" + ",".join(COMMANDS) + "}")

    p = sub.add_parser(
        "robustness",
        help="robustness to incomplete judgements (Kendall's tau vs f-qrels)",
        description="Kendall's tau between the system rankings under the full qrels and under "
        "f-qrels keeping a fraction f of each topic's relevant documents "
        "(Magdy & Jones 2010).",
    )
    _common(p)
    p.add_argument(
        "--fractions",
        type=_fractions,
        default=[0.2, 0.4, 0.6, 0.8],
        help="fractions of relevant documents kept, e.g. '0.2 0.4 0.6 0.8' (default)",
    )
    p.add_argument("--samples", type=int_option(1), default=3, help="samples per fraction (default 3)")
    p.add_argument("--seed", type=int_option(0, 2**63 - 1), default=0, help="random seed (default 0)")
    p.add_argument(
        "--rel",
        type=int_option(1, 2**31 - 1),
        default=1,
        help="minimum relevant label for the sampling (default 1)",
    )

    p = sub.add_parser(
        "agreement",
        help="Kendall's tau between measures and Wilcoxon agreement on run pairs",
        description="Kendall's tau between the system rankings of each pair of measures, and for "
        "each pair of runs a paired two-sided Wilcoxon signed-rank test per measure "
        "(Magdy & Jones, SIGIR 2010).",
    )
    _common(p)
    p.add_argument(
        "--confidence",
        type=float_option(0.0, 1.0, True, True),
        default=0.95,
        help="confidence of the tests (default 0.95)",
    )
    p.add_argument(
        "--wilcoxon-method",
        choices=("auto", "exact", "asymptotic"),
        default="auto",
        help="scipy.stats.wilcoxon method (default auto: exact for small samples without ties)",
    )

    p = sub.add_parser(
        "discriminative-power",
        help="Sakai's bootstrap discriminative power and split-half stability",
        description="Sakai's paired bootstrap test on every pair of runs (discriminative power, "
        "estimated difference required) and the Buckley-Voorhees split-half error "
        "rate against the proportion of ties.",
    )
    _common(p)
    p.add_argument(
        "-B",
        "--bootstrap-samples",
        type=int_option(1, 10**7),
        default=1000,
        dest="B",
        help="bootstrap samples (default 1000)",
    )
    p.add_argument(
        "--alpha",
        type=float_option(0.0, 1.0, True, True),
        default=0.05,
        help="significance level (default 0.05)",
    )
    p.add_argument("--seed", type=int_option(0, 2**63 - 1), default=0, help="random seed (default 0)")
    p.add_argument(
        "--repeats",
        type=int_option(1, 10**4),
        default=3,
        help="Monte Carlo repetitions of the bootstrap, seeds derived from --seed; the summary "
        "gives mean and sd (default 3; the pairs table holds the first)",
    )
    p.add_argument(
        "--splits",
        type=int_option(0, 10**6),
        default=100,
        help="random split-halves for the stability experiment (default 100; 0 skips it)",
    )
    p.add_argument(
        "--fuzziness",
        type=float_option(0.0, 1.0, high_open=True),
        default=0.05,
        help="tie threshold, a share of the larger mean (default 0.05)",
    )
    p.add_argument(
        "--bucket-width",
        type=float_option(0.0, 1.0, low_open=True),
        default=0.01,
        help="width of the difference buckets (0.01)",
    )

    p = sub.add_parser(
        "sensitivity",
        help="swap-method sensitivity: difference required and sensitivity per measure",
        description="Voorhees & Buckley's swap method (Sakai's bootstrap variant by default): "
        "the difference required for a swap rate <= 5 % and the share of run-pair comparisons "
        "at least that large, per measure, mean +- sd over --repeats repetitions.",
    )
    _common(p)
    p.add_argument(
        "-B",
        "--samples",
        type=int_option(1, 10**7),
        default=1000,
        dest="B",
        help="pairs of topic samples per repetition (default 1000)",
    )
    p.add_argument(
        "--sampling",
        choices=("bootstrap", "disjoint"),
        default="bootstrap",
        help="bootstrap: both samples with replacement, n topics (Sakai, default); disjoint: two "
        "disjoint sets of --size topics (Voorhees & Buckley)",
    )
    p.add_argument(
        "--size",
        type=int_option(1, 10**9),
        default=None,
        help="topics per sample (default n for bootstrap, n/2 for disjoint)",
    )
    p.add_argument(
        "--bin-width",
        type=float_option(0.0, 1.0, low_open=True),
        default=0.01,
        help="width of the bins of |difference| (default 0.01)",
    )
    p.add_argument(
        "--max-swap-rate",
        type=float_option(0.0, 1.0, high_open=True),
        default=0.05,
        help="swap rate the difference required must keep (default 0.05)",
    )
    p.add_argument(
        "--repeats",
        type=int_option(1, 10**4),
        default=3,
        help="Monte Carlo repetitions, seeds derived from --seed (default 3)",
    )
    p.add_argument("--seed", type=int_option(0, 2**63 - 1), default=0, help="random seed (default 0)")
    p.add_argument("--bins", action="store_true", help="also print the per-bin swap rates")
    return parser


def _runs(args: argparse.Namespace) -> List[Any]:
    from ..data.runfiles import run_files

    return list(run_files(args.runs, args.exclude))


def _show(title: str, df: Any, out: Any) -> None:
    out.write(f"# {title}\n")
    out.write(df.to_string(index=False, float_format=lambda v: f"{v:.4f}") + "\n\n")


def _run(args: argparse.Namespace, out: Any) -> None:
    from ..data.datasets import qrels_source
    from ..engine.scores import Core
    from ..measures.catalogue import parse_measures

    measures = parse_measures(args.measures)  # a usage error, before any file is read
    runs = _runs(args)
    plot_format = None if args.plot_format == "none" else args.plot_format
    core = Core(qrels_source(args.qrels), runs, measures, progress=False if args.quiet else None)
    res: Any
    results: List[Any]
    if args.command == "robustness":
        from ..meta.robustness import robustness, robustness_table

        res = robustness(
            fractions=args.fractions,
            samples=args.samples,
            seed=args.seed,
            rel=args.rel,
            progress=False if args.quiet else None,
            core=core,
        )
        _show("lowest Kendall's tau per fraction", robustness_table(res, "min_tau").reset_index(), out)
        mean = robustness_table(res, "mean_tau")
        sd = robustness_table(res, "sd_tau")
        spread = mean.copy().astype(object)
        for col in mean.columns:
            spread[col] = [f"{m:.4f} ± {v:.4f}" if v == v else f"{m:.4f}" for m, v in zip(mean[col], sd[col])]
        _show(
            f"mean Kendall's tau per fraction (± sd over the {args.samples} samples)",
            spread.reset_index(),
            out,
        )
        results = [res]
    elif args.command == "agreement":
        from ..meta.agreement import agreement

        res = agreement(
            confidence=args.confidence,
            progress=False if args.quiet else None,
            core=core,
            method=args.wilcoxon_method,
        )
        _show("Kendall's tau between measures", res.tau, out)
        _show(
            f"Wilcoxon agreement over {len(res.pairs) // max(1, len(res.measures))} run pairs "
            f"(confidence {args.confidence})",
            res.counts[
                [
                    "measure_a",
                    "measure_b",
                    "agree",
                    "disagree",
                    "only_a_significant",
                    "only_b_significant",
                    "opposite",
                    "agreement_rate",
                ]
            ],
            out,
        )
        triples = res.triples[res.triples["same_cutoff"]] if res.triples["same_cutoff"].any() else res.triples
        if len(triples):
            title = "two measures agree, the third disagrees" + (
                " (same cut-off; all triples in the files)" if len(triples) < len(res.triples) else ""
            )
            _show(title, triples[["measure_a", "measure_b", "dissenting", "count", "share"]], out)
        results = [res]
    elif args.command == "sensitivity":
        from ..meta.sensitivity import sensitivity

        res = sensitivity(
            B=args.B,
            sampling=args.sampling,
            size=args.size,
            bin_width=args.bin_width,
            max_swap_rate=args.max_swap_rate,
            repeats=args.repeats,
            seed=args.seed,
            progress=False if args.quiet else None,
            core=core,
        )
        _show(
            f"sensitivity by the swap method ({args.sampling} samples of {res.sample_size} topics, "
            f"B={res.B}, swap rate <= {args.max_swap_rate}"
            + (f", {args.repeats} repetitions: mean ± sd)" if args.repeats > 1 else ")"),
            res.table().reset_index(),
            out,
        )
        if args.bins:
            _show("swap rate per bin of |difference|", res.bins, out)
        results = [res]
    else:
        from ..data.extras import require
        from ..meta.discrimination import discriminative_power_from_scores, stability_from_scores

        require("pandas")
        scores = core.scores()
        res = discriminative_power_from_scores(
            scores,
            args.B,
            args.alpha,
            args.seed,
            progress=False if args.quiet else None,
            repeats=args.repeats,
        )
        _show(
            f"discriminative power (paired bootstrap, B={args.B}, alpha={args.alpha}"
            + (f", {args.repeats} repetitions: mean and sd)" if args.repeats > 1 else ")"),
            res.summary,
            out,
        )
        results = [res]
        if args.splits > 0:
            stab = stability_from_scores(
                scores,
                args.splits,
                args.fuzziness,
                bucket_width=args.bucket_width,
                seed=args.seed,
                progress=False if args.quiet else None,
            )
            _show(
                f"split-half stability ({args.splits} splits, fuzziness {args.fuzziness})", stab.summary, out
            )
            results.append(stab)
    if args.output:
        written = []
        for r in results:
            written.extend(r.save(args.output, args.format, plot_format))
        out.write("wrote " + ", ".join(str(p) for p in written) + "\n")


def run(argv: Sequence[str]) -> int:
    """Run one experiment (``argv`` starts with the subcommand name); errors are raised for
    :func:`~ir_measures_pres.cli._command.guarded`. Every option and measure is checked before a
    file is read."""
    args = build_parser().parse_args(list(argv))
    _run(args, sys.stdout)  # reads the measures first: a bad one is a usage error before any file
    return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of ``python -m ir_measures_pres.meta``; ``argv`` starts with the subcommand."""
    from ._command import guarded, split_debug

    args, debug = split_debug(sys.argv[1:] if argv is None else argv)
    return guarded(lambda: run(args), debug)
