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
import json
import sys
from typing import Any, Dict, List, Optional, Sequence

from ._command import (
    QRELS_HELP,
    ArgumentParser,
    UsageError,
    add_format_option,
    add_output_dir_option,
    add_quiet_option,
    add_resamples_option,
    check_sampled_qrels,
    command_measures,
    float_option,
    int_option,
)

COMMANDS = ("robustness", "agreement", "discriminative-power", "sensitivity")
#: --format words: what standard output holds (text: plain tables) and the tables' files
FORMATS = ("text", "csv", "tsv", "json", "md", "latex")


def _fractions(text: str) -> List[float]:
    """``'0.2 0.4'`` or ``'0.2,0.4'``: fractions of the relevant documents kept, each in (0, 1]."""
    fraction = float_option(0.0, 1.0, low_open=True)
    values = [fraction(x) for x in text.replace(",", " ").split()]
    if not values:
        raise argparse.ArgumentTypeError("expected at least one fraction, found none")
    return values


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("qrels", metavar="QRELS", help=QRELS_HELP)
    p.add_argument("runs", nargs="+", metavar="RUN", help="run files and/or directories of run files")
    p.add_argument(
        "-m",
        "--measures",
        nargs="+",
        action="extend",
        required=True,
        help="measures, as the main command reads them (ir_measures or trec_eval syntax), e.g. "
        "-m PRES@100 AP@100 'R@100' (or one quoted string with spaces); up to the next option, "
        "and -m may be repeated",
    )
    p.add_argument(
        "--exclude",
        action="append",
        default=[],
        metavar="GLOB",
        help="skip run files whose name matches GLOB (repeatable)",
    )
    add_output_dir_option(p, "write the tables, the paper table and the plot into DIR")
    add_format_option(
        p,
        FORMATS,
        "text",
        "the tables on standard output, and in DIR (text: csv there); md, latex: the paper table",
    )
    p.add_argument(
        "--plot-format",
        choices=("png", "svg", "none"),
        default="png",
        help="plot format with --output-dir (default png; none: no plot)",
    )
    add_quiet_option(p)


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
    add_resamples_option(p, 1000, "bootstrap samples", old=["--bootstrap-samples"])
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
    add_resamples_option(p, 1000, "pairs of topic samples per repetition", old=["--samples"])
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


class _Shown:
    """Standard output of an experiment in the ``--format`` asked for: each table as plain text
    (``text``), CSV or TSV under a ``# title`` line, or all of them as one JSON object keyed by
    title; ``md`` and ``latex`` print the experiments' paper tables instead (what a paper
    holds; the full tables are in the files of ``--output-dir``)."""

    def __init__(self, fmt: str, out: Any) -> None:
        self.fmt = fmt
        self.out = out
        self.tables: Dict[str, Any] = {}

    def __call__(self, title: str, df: Any) -> None:
        if self.fmt == "text":
            self.out.write(f"# {title}\n")
            self.out.write(df.to_string(index=False, float_format=lambda v: f"{v:.4f}") + "\n\n")
        elif self.fmt in ("csv", "tsv"):
            self.out.write(f"# {title}\n")
            self.out.write(df.to_csv(index=False, sep="," if self.fmt == "csv" else "\t") + "\n")
        elif self.fmt == "json":
            self.tables[title] = [
                {k: None if isinstance(v, float) and v != v else v for k, v in row.items()}
                for row in df.to_dict(orient="records")
            ]

    def finish(self, results: List[Any]) -> None:
        if self.fmt == "json":
            self.out.write(json.dumps(self.tables, indent=1, default=lambda v: v.item()) + "\n")
        elif self.fmt in ("md", "latex"):
            tables = [t for t in (r.paper_table() for r in results) if t is not None]
            self.out.write("\n".join(t.markdown() if self.fmt == "md" else t.latex() for t in tables))


def _run(args: argparse.Namespace, out: Any) -> None:
    from ..data.datasets import qrels_source
    from ..engine.scores import Core, check_means

    measures = command_measures(args.measures)  # a usage error, before any file is read
    check_means(measures, args.command)  # a geometric mean, in the command's own terms
    if args.command == "robustness":
        from ..meta.robustness import refuse_judgements_elsewhere

        try:
            refuse_judgements_elsewhere(measures, [str(m) for m in measures])
        except ValueError as error:
            raise UsageError(str(error)) from None
    check_sampled_qrels(args.qrels, measures)
    show = _Shown(args.format, out)
    runs = _runs(args)
    plot_format = None if args.plot_format == "none" else args.plot_format
    core = Core(
        qrels_source(args.qrels), runs, measures, progress=False if args.quiet else None, command=args.command
    )
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
        show("lowest Kendall's tau per fraction", robustness_table(res, "min_tau").reset_index())
        mean = robustness_table(res, "mean_tau")
        sd = robustness_table(res, "sd_tau")
        spread = mean.copy().astype(object)
        for col in mean.columns:
            spread[col] = [f"{m:.4f} ± {v:.4f}" if v == v else f"{m:.4f}" for m, v in zip(mean[col], sd[col])]
        show(
            f"mean Kendall's tau per fraction (± sd over the {args.samples} samples)",
            spread.reset_index(),
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
        show("Kendall's tau between measures", res.tau)
        show(
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
        )
        triples = res.triples[res.triples["same_cutoff"]] if res.triples["same_cutoff"].any() else res.triples
        if len(triples):
            title = "two measures agree, the third disagrees" + (
                " (same cut-off; all triples in the files)" if len(triples) < len(res.triples) else ""
            )
            show(title, triples[["measure_a", "measure_b", "dissenting", "count", "share"]])
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
        show(
            f"sensitivity by the swap method ({args.sampling} samples of {res.sample_size} topics, "
            f"B={res.B}, swap rate <= {args.max_swap_rate}"
            + (f", {args.repeats} repetitions: mean ± sd)" if args.repeats > 1 else ")"),
            res.table().reset_index(),
        )
        if args.bins:
            show("swap rate per bin of |difference|", res.bins)
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
        show(
            f"discriminative power (paired bootstrap, B={args.B}, alpha={args.alpha}"
            + (f", {args.repeats} repetitions: mean and sd)" if args.repeats > 1 else ")"),
            res.summary,
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
            show(f"split-half stability ({args.splits} splits, fuzziness {args.fuzziness})", stab.summary)
            results.append(stab)
    show.finish(results)
    if args.output:
        written = []
        files = args.format if args.format in ("csv", "tsv", "json") else "csv"
        for r in results:
            written.extend(r.save(args.output, files, plot_format))
        sys.stderr.write("wrote " + ", ".join(str(p) for p in written) + "\n")  # as compare says it


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
