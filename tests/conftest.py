"""Fixtures shared by the tests."""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd
import pytest

# The shared oracles (tests/definitions.py) are imported as ``definitions`` from every folder.
sys.path.insert(0, str(Path(__file__).resolve().parent))


@pytest.fixture
def k2011() -> pd.DataFrame:
    """Krippendorff (2011), section C: 4 coders x 12 units, values 1-5 (nominal .743)."""
    import pandas_agree as pa

    return pa.datasets.krippendorff_2011()
