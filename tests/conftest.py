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
    from pandas_agree.data import sets as setvalues

    if request.param == "c" and setvalues._cells is None:
        pytest.skip("the C accelerator pandas_agree._cells is not built here")
    if request.param != "c":
        monkeypatch.setattr(setvalues, "_cells", None)
    if request.param == "chain":
        monkeypatch.setattr(setvalues, "_pandas_explode", None)
    return request.param


@pytest.fixture(params=["c", "numpy"])
def key_numbering(request, monkeypatch) -> str:
    """Each way sets and short strings are numbered by first appearance: the C accelerator
    `pandas_agree._core._firstcodes`, and numpy and pyarrow without it (set masks in
    `setcodes.dedupe_sets`, short strings in `shortstrings` and Arrow list labels)."""
    from pandas_agree._core import setcodes
    from pandas_agree.data import strings as shortstrings

    if request.param == "c" and setcodes._firstcodes is None:
        pytest.skip("the C accelerator pandas_agree._core._firstcodes is not built here")
    if request.param == "numpy":
        monkeypatch.setattr(setcodes, "_firstcodes", None)
        monkeypatch.setattr(shortstrings, "_firstcodes", None)
    return request.param
