"""Fixtures shared by the tests."""

from __future__ import annotations

import pandas as pd
import pytest


@pytest.fixture
def k2011() -> pd.DataFrame:
    """Krippendorff (2011), section C: 4 coders x 12 units, values 1-5 (nominal .743)."""
    import pandas_agree as pa

    return pa.datasets.krippendorff_2011()
