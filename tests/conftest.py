"""Fixtures shared by the tests."""

from __future__ import annotations

import pandas as pd
import pytest


@pytest.fixture
def k2011() -> pd.DataFrame:
    """Krippendorff (2011), section C: 4 coders x 12 units, values 1-5 (nominal .743)."""
    import pandas_agree as pa

    return pa.datasets.krippendorff_2011()


@pytest.fixture(params=["c", "explode", "chain"])
def cells_reader(request, monkeypatch) -> str:
    """Each way `setvalues.from_objects` can read lists, tuples, sets and arrays: the C
    accelerator, pandas' explode loop (without the accelerator), and the standard library's
    two passes (without either). Tests taking this fixture run once per way."""
    from pandas_agree import setvalues

    if request.param == "c" and setvalues._cells is None:
        pytest.skip("the C accelerator pandas_agree._cells is not built here")
    if request.param != "c":
        monkeypatch.setattr(setvalues, "_cells", None)
    if request.param == "chain":
        monkeypatch.setattr(setvalues, "_pandas_explode", None)
    return request.param


@pytest.fixture(params=["c", "numpy"])
def set_masks(request, monkeypatch) -> str:
    """Each way `setcodes.dedupe_sets` numbers rows by their bit masks: the C accelerator
    `pandas_agree._core._setmasks` and numpy (without it)."""
    from pandas_agree._core import setcodes

    if request.param == "c" and setcodes._setmasks is None:
        pytest.skip("the C accelerator pandas_agree._core._setmasks is not built here")
    if request.param == "numpy":
        monkeypatch.setattr(setcodes, "_setmasks", None)
    return request.param
