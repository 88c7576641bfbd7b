"""Shared test helpers: where the reference data lives."""

import os
from pathlib import Path

import pytest

#: Reference data copied into the repository (see tests/data/README.md).
DATA = Path(__file__).resolve().parent / "data"

#: The project's shared data folder, beside the clone (holds the large real-run collections).
SHARED_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


def shared_data(*parts: str) -> Path:
    """A path under ../shared/data; skips the test when that folder is absent outside CI."""
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        if os.environ.get("CI"):
            raise FileNotFoundError(f"CI needs the shared data at {path}")
        pytest.skip(f"shared data not found at {path}")
    return path
