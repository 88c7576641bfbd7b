"""The main command's ``--bounds`` (docs/uncertainty.md): the option, its usage errors
and the unjudged fraction printed beside the bounds (:mod:`ir_measures_pres.engine.bounds`
computes them; :func:`._rows.write_ir_measures` writes them)."""

from __future__ import annotations

import argparse
from typing import Any, List, Sequence

from ._command import UsageError


def add_bounds_option(parser: argparse.ArgumentParser) -> None:
    """``--bounds`` of the main command."""
    parser.add_argument(
        "--bounds",
        action="store_true",
        help="also print each value's bounds over the unjudged documents the run retrieved: how low "
        "and how high it could go if they were judged (columns lo hi exact; docs/uncertainty.md)",
    )


def bounded_measures(args: argparse.Namespace, measures: Sequence[Any]) -> List[Any]:
    """The measures whose bounds ``--bounds`` asks for (all of them but the relevance-free ones,
    ``unj``, whose bounds are their value: their cells stay empty; none without the option); a
    usage error naming every measure that has none (the message ``calc_bounds`` raises), or for
    ``--format trec`` or ``--provider``."""
    if not args.bounds:
        return []
    from ..engine.bounds import BoundsError, check_boundable, needs_bounds

    if args.output_format == "trec":
        raise UsageError("--bounds adds columns to tsv and jsonl; --format trec has no place for them")
    if args.provider is not None:
        raise UsageError("--bounds scores with the package's kernels; it cannot be combined with --provider")
    bounded = [m for m in measures if needs_bounds(m)]
    try:
        check_boundable(bounded)
    except BoundsError as error:
        raise UsageError(f"--bounds: {error}") from None
    return bounded


def with_unjudged_fraction(measures: List[Any]) -> List[Any]:
    """With ``--bounds`` each run also reports ``unj@10`` (trec_eval 10's), the
    fraction of its top 10 nobody judged, so the size of the hole is in front of the user;
    printed without bounds (its value does not depend on relevance). Not added
    twice when the user asked for it."""
    from ..measures.catalogue import parse_measures

    return measures + [m for m in parse_measures(["unj@10"]) if m not in measures]
