"""f-qrels: qrels that know only a fraction f of each topic's relevant documents.

Magdy & Jones (ECIR 2010, CLEF-IP study) build, for each fraction f and sample s, qrels in which
each topic keeps a random subset of its relevant documents and loses the others entirely (they
become unjudged); judged non-relevant lines stay, and topics without relevant documents stay as
they are.

Subset size: ``max(1, round(f * n))`` for a topic with n relevant documents (label >= ``rel``).
The paper does not say how halves are rounded; here they are rounded **up** (round half away from
zero, ``floor(f * n + 0.5)``), not to even as Python's ``round`` does: 0.5 * 3 keeps 2 documents,
0.5 * 5 keeps 3. A tolerance of 1e-9 absorbs binary representation errors (0.3 * 5 is 1.5).

Randomness: the sample (f, s) draws from ``numpy.random.default_rng`` seeded with
``SeedSequence(seed, spawn_key=(round(f * 1e6), s))``, so one sample depends only on the seed,
its fraction and its number (adding a fraction does not change the others), and two samples of
one fraction differ (unless every topic has too few relevant documents to differ).
"""

from __future__ import annotations

from typing import Any, Optional, Union

import numpy as np

from ..data.arrays import offsets_from_counts, segment_ids
from ..data.qrels import Qrels

_EPS = 1e-9


def kept_count(n_relevant: np.ndarray, fraction: float) -> np.ndarray:
    """``max(1, floor(f * n + 0.5))`` relevant documents kept per topic (0 when n = 0)."""
    n = np.asarray(n_relevant, dtype=np.int64)
    k = np.floor(fraction * n + 0.5 + _EPS).astype(np.int64)
    k = np.minimum(np.maximum(k, 1), n)
    return np.where(n > 0, k, 0)


def check_fraction(fraction: float) -> float:
    f = float(fraction)
    if not 0.0 < f <= 1.0:
        raise ValueError(f"a fraction of the qrels must be in (0, 1], got {fraction!r}")
    return f


def sample_rng(seed: int, fraction: float, sample: int) -> np.random.Generator:
    """The generator of sample ``sample`` (1-based) of fraction ``fraction``."""
    key = (int(round(check_fraction(fraction) * 1_000_000)), int(sample))
    return np.random.default_rng(np.random.SeedSequence(int(seed), spawn_key=key))


def f_qrels_mask(
    line_qidx: np.ndarray,
    line_labels: np.ndarray,
    n_queries: int,
    fraction: float,
    rng: np.random.Generator,
    rel: int = 1,
) -> np.ndarray:
    """Which qrels lines an f-qrels keeps (bool per line).

    Every line with label < ``rel`` is kept; per query, ``kept_count(n, f)`` of its n lines with
    label >= ``rel`` are kept, chosen uniformly without replacement (one uniform key per line,
    the smallest keys win).
    """
    fraction = check_fraction(fraction)
    line_qidx = np.asarray(line_qidx)
    relevant = np.flatnonzero(np.asarray(line_labels) >= rel)
    keep = np.ones(len(line_qidx), dtype=bool)
    if len(relevant) == 0:
        return keep
    q = line_qidx[relevant]
    n = np.bincount(q, minlength=n_queries)
    k = kept_count(n, fraction)
    keys = rng.random(len(relevant))
    order = np.lexsort((keys, q))
    q_sorted = q[order]
    within = np.arange(len(order)) - offsets_from_counts(n)[q_sorted]  # 0-based rank in its query
    keep[relevant] = False
    keep[relevant[order[within < k[q_sorted]]]] = True
    return keep


def sample_qrels(
    qrels: Any, fraction: float, seed: Union[int, np.random.Generator] = 0, sample: int = 1, rel: int = 1
) -> Qrels:
    """One f-qrels of ``qrels`` (any qrels input, or a path) as a :class:`Qrels`.

    ``seed`` is an int (the sample is then the one :func:`~ir_measures_pres.meta.robustness`
    uses for the same seed, fraction and sample number) or a numpy Generator.
    """
    from ._core import load_qrels

    full = load_qrels(qrels)
    rng = seed if isinstance(seed, np.random.Generator) else sample_rng(seed, fraction, sample)
    lookup = full.lookup
    # the lines numbered as Core numbers them: query by query, each query's docs in dict order
    offsets = offsets_from_counts(np.fromiter(map(len, lookup), dtype=np.int64, count=len(lookup)))
    labels = np.fromiter((v for d in lookup for v in d.values()), dtype=np.int64, count=int(offsets[-1]))
    keep = f_qrels_mask(segment_ids(offsets), labels, len(lookup), fraction, rng, rel).tolist()
    out = {}
    for qid, d, a, b in zip(full.query_ids, lookup, offsets[:-1].tolist(), offsets[1:].tolist()):
        out[qid] = {doc: lab for (doc, lab), k in zip(d.items(), keep[a:b]) if k}
    return Qrels.from_any(out)


def new_seed(seed: Optional[int]) -> int:
    """``seed`` itself, or a fresh random one (reported in the results) when None."""
    if seed is not None:
        return int(seed)
    entropy = np.random.SeedSequence().entropy
    return int(entropy) % (2**63)  # type: ignore[arg-type]


def repeat_rng(seed: int, repeat: int) -> np.random.Generator:
    """The generator of Monte Carlo repetition ``repeat`` (0, 1, ...) of an experiment seeded with
    ``seed``: ``default_rng(seed)`` for repetition 0 (a single run draws what it drew before
    repetitions existed), ``default_rng(SeedSequence(seed, spawn_key=(repeat,)))`` after. One
    repetition depends only on the seed and its number, so asking for more repetitions keeps the
    first ones."""
    if repeat == 0:
        return np.random.default_rng(int(seed))
    return np.random.default_rng(np.random.SeedSequence(int(seed), spawn_key=(int(repeat),)))
