"""Monte Carlo error (meta-evaluation spec 3.4): repetitions seeded from one seed, mean +- sd."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pandas")

from ir_measures_pres.engine.scores import Scores  # noqa: E402
from ir_measures_pres.meta.discrimination import discriminative_power_from_scores  # noqa: E402
from ir_measures_pres.meta.sampling import repeat_rng  # noqa: E402


def _scores(seed=0, measures=2, runs=5, topics=25):
    rng = np.random.default_rng(seed)
    values = rng.random((measures, runs, topics)) * rng.random(topics)
    return Scores(
        [f"r{i}" for i in range(runs)],
        [f"M{m}" for m in range(measures)],
        [str(q) for q in range(topics)],
        values,
    )


def test_repeat_seeds_derive_from_one_seed():
    a = [repeat_rng(3, r).random(4) for r in range(3)]
    b = [repeat_rng(3, r).random(4) for r in range(3)]
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    assert not np.array_equal(a[0], a[1]) and not np.array_equal(a[1], a[2])
    assert np.array_equal(a[0], np.random.default_rng(3).random(4))  # repetition 0 = a single run


def test_discriminative_power_repeats_report_mean_and_sd():
    sc = _scores()
    one = discriminative_power_from_scores(sc, B=100, seed=4, progress=False)
    three = discriminative_power_from_scores(sc, B=100, seed=4, progress=False, repeats=3)
    # repetition 0 is the single run; its pairs table is the one kept
    assert one.pairs.equals(three.pairs)
    first = three.repeats_table[three.repeats_table["repeat"] == 0].reset_index(drop=True)
    assert np.allclose(first["discriminative_power"], one.summary["discriminative_power"])
    g = three.repeats_table.groupby("measure", sort=False)
    for col in ("discriminative_power", "estimated_diff"):
        assert np.allclose(three.summary[col], g[col].mean().to_numpy())
        assert np.allclose(three.summary[f"{col}_sd"], g[col].std(ddof=1).to_numpy())
    assert three.summary["repeats"].iloc[0] == 3
    assert one.summary[["discriminative_power_sd", "estimated_diff_sd"]].isna().all().all()
    assert (three.summary["estimated_diff_sd"] > 0).any()  # the draws differ between repetitions
