"""The C accelerator of set cells, ``pandas_agree._cells`` (issue 15).

It must read every column it accepts exactly as the general passes do (the same present
cells, the same item objects in the same order, hence the same element form), hand every
other column back to them, keep Python's reference counts right, and fail cleanly on
misuse. The definition it is checked against is written here: the items of a present
cell are ``list(cell)``.
"""

from __future__ import annotations

import math
import sys

import numpy as np
import pandas as pd
import pytest

from pandas_agree import setvalues

_cells = pytest.importorskip("pandas_agree._cells", reason="the C accelerator is not built")


def _objects(values) -> np.ndarray:
    out = np.empty(len(values), dtype=object)
    out[:] = list(values)
    return out


def _is_missing(cell) -> bool:
    return cell is None or (type(cell) is float and math.isnan(cell))


class _MyList(list):
    pass


_LABELS = ["a", "b", "NA", "", "ab;cd", 2, 2.5, True, b"a", np.str_("b"), ("t", 1)]

# Cells the accelerator reads (with labels drawn from _LABELS), and cells it hands back.
_READ = {
    "list": lambda xs: list(xs),
    "tuple": lambda xs: tuple(xs),
    "set": lambda xs: set(xs),
    "frozenset": lambda xs: frozenset(xs),
    "object array": lambda xs: _objects(xs),
    "strided object array": lambda xs: _objects([y for x in xs for y in (x, "skipped")])[::2],
    "None": lambda xs: None,
    "NaN": lambda xs: float("nan"),
}
_HANDED_BACK = {
    "str array": lambda xs: np.array([str(x) for x in xs], dtype=str),
    "int array": lambda xs: np.arange(len(xs)),
    "2-d object array": lambda xs: _objects(xs).reshape(1, -1),
    "0-d array": lambda xs: np.array("a"),
    "numpy NaN": lambda xs: np.float64("nan"),
    "pd.NA": lambda xs: pd.NA,
    "str": lambda xs: "a",
    "int": lambda xs: 3,
    "float": lambda xs: 2.5,
    "dict": lambda xs: dict.fromkeys(xs),
    "list subclass": lambda xs: _MyList(xs),
    "Series": lambda xs: pd.Series(list(xs), dtype=object),
}


def _column(rng, makers) -> np.ndarray:
    cells = []
    for _ in range(40):
        make = makers[int(rng.integers(0, len(makers)))]
        k = int(rng.integers(0, 4))
        cells.append(make([_LABELS[i] for i in rng.integers(0, len(_LABELS), k)]))
    return _objects(cells)


@pytest.mark.parametrize("seed", range(30))
def test_read_in_c_is_list_of_each_present_cell(seed):
    """Columns of the kinds it reads: presence and items by the definition, the very
    objects of the cells; a column with any other kind of cell is handed back (None)."""
    rng = np.random.default_rng(seed)
    kinds = list(_READ.values())
    column = _column(rng, kinds)
    present, flat, lengths = setvalues._read_in_c(column)
    assert present.tolist() == [not _is_missing(c) for c in column]
    items = [x for c in column if not _is_missing(c) for x in c]
    assert lengths.tolist() == [len(c) for c in column if not _is_missing(c)]
    assert len(flat) == len(items) and all(a is b for a, b in zip(flat, items))
    odd = list(_HANDED_BACK.values())[seed % len(_HANDED_BACK)]
    column[int(rng.integers(0, column.size))] = odd(["a", "b"])
    assert setvalues._read_in_c(column) is None


def _form_or_error(column: np.ndarray, scalars_as_sets: bool):
    try:
        form = setvalues.from_objects(column, scalars_as_sets, "value")
    except Exception as error:  # the same error either way, by type and message
        return type(error), str(error)
    domain = [(type(x), x) for x in form.label_domain]
    return form.present.tolist(), form.indptr.tolist(), form.labels.tolist(), domain


@pytest.mark.parametrize("scalars_as_sets", [False, True])
@pytest.mark.parametrize("seed", range(40))
def test_from_objects_with_and_without_c_agree(seed, scalars_as_sets, monkeypatch):
    """Random columns of every kind of cell, read and handed back alike: the element form
    (or the error) is the same with the accelerator as with the general passes."""
    rng = np.random.default_rng(seed)
    makers = list(_READ.values())
    if seed % 2:
        makers += list(_HANDED_BACK.values())
    column = _column(rng, makers)
    with_c = _form_or_error(column, scalars_as_sets)
    monkeypatch.setattr(setvalues, "_cells", None)
    assert _form_or_error(column, scalars_as_sets) == with_c


def test_references_are_counted():
    """Every item the flat array holds is one reference more, given back when it goes;
    the cells keep theirs."""
    label, cell = object(), []
    cell.extend([label, label])
    column = _objects([cell, (label,), {label}, _objects([label]), None])
    before = (sys.getrefcount(label), sys.getrefcount(cell))
    _, flat, _ = setvalues._read_in_c(column)
    assert sys.getrefcount(label) == before[0] + 5
    del flat
    assert (sys.getrefcount(label), sys.getrefcount(cell)) == before


def test_misuse_is_a_clean_error():
    cells = _objects([["a"], ["b", "c"]])
    present, lengths = np.empty(2, dtype=bool), np.empty(2, dtype=np.intp)
    with pytest.raises(TypeError, match="contiguous 1-d object array"):
        _cells.lengths(np.array(["a", "b"]), present, lengths)
    with pytest.raises(ValueError, match="lengths must hold 2 items"):
        _cells.lengths(cells, present, np.empty(3, dtype=np.intp))
    with pytest.raises(BufferError, match="not writable"):
        _cells.lengths(cells, b"\0\0", lengths)
    assert _cells.lengths(cells, present, lengths) == 3
    with pytest.raises(RuntimeError, match="changed"):
        _cells.fill(cells, np.empty(2, dtype=object))  # too small
    with pytest.raises(RuntimeError, match="changed"):
        _cells.fill(cells, np.empty(4, dtype=object))  # too large
    frozen = np.empty(3, dtype=object)
    frozen.flags.writeable = False
    with pytest.raises(TypeError, match="writable"):
        _cells.fill(cells, frozen)
    cells[1].append("d")  # a cell that grew between the two calls
    with pytest.raises(RuntimeError, match="changed"):
        _cells.fill(cells, np.empty(3, dtype=object))
    flat = np.empty(4, dtype=object)
    assert _cells.fill(cells, flat) is None
    assert flat.tolist() == ["a", "b", "c", "d"]
