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

from pandas_agree.data import sets as setvalues
from pandas_agree.errors import ValueTypeError

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
    for bad in ("ab", np.array(["a", "b"]), _objects([["a"]]).reshape(1, 1)):
        with pytest.raises(TypeError, match="1-d aligned numpy object array"):
            _cells.read(bad)


def _unaligned(cells: list) -> np.ndarray:
    """An object column whose pointers are not aligned (a field of a packed record)."""
    records = np.zeros(len(cells), dtype=np.dtype([("pad", "u1"), ("cell", object)]))
    records["cell"] = _objects(cells)
    column = records["cell"]
    assert not column.flags.aligned
    return column


def test_unaligned_columns_and_cells_are_read_safely():
    """An unaligned column is copied first; an unaligned array cell is handed back."""
    cells = [["a", "b"], None, ("c",)]
    present, flat, lengths = setvalues._read_in_c(_unaligned(cells))
    assert (present.tolist(), flat.tolist(), lengths.tolist()) == (
        [True, False, True], ["a", "b", "c"], [2, 1])
    with pytest.raises(TypeError, match="aligned"):
        _cells.read(_unaligned(cells))
    assert setvalues._read_in_c(_objects([["a"], _unaligned(["a", "b"])])) is None


def test_more_items_than_an_array_can_index_are_refused():
    """Cells of 2**59 items each (a broadcast view costs no memory): the total would
    overflow, so the general passes get the column, and refuse it (review: they summed
    the lengths past 2**63 to a negative total and answered an empty reading)."""
    huge = np.broadcast_to(_objects(["a"]), (2**59,))
    column = _objects([huge] * 16)
    assert setvalues._read_in_c(column) is None
    with pytest.raises(ValueTypeError, match="more than an array can index"):
        setvalues.from_objects(column, False, "value")  # review: the sum wrapped around


def _definition(column: np.ndarray) -> tuple[list, list, list]:
    present = [c is not None for c in column]
    cells = [c for c in column if c is not None]
    return present, [x for c in cells for x in c], [len(c) for c in cells]


@pytest.mark.parametrize("change", ["swap two lists' items", "drop the set", "empty a list"])
def test_the_column_is_read_at_one_moment(change):
    """Allocating a set's iterator could start the garbage collector (Python 3.11), whose
    callbacks and __del__ methods may change the column (review: swapping the items of a
    list read already and one not yet read gave a column that never was). The collector
    is off during the read, so the reading is the column at one moment: as it was before
    the change, or after it (a collection may start just before the read, or after it)."""
    import gc

    armed = []

    def callback(phase, info):
        if phase == "start" and armed and not armed[-1]:
            armed[-1] = True
            if change == "swap two lists' items":
                column[0][0], column[2][0] = column[2][0], column[0][0]
            elif change == "drop the set":
                column[1] = None
            else:
                column[2].clear()

    threshold = gc.get_threshold()
    gc.callbacks.append(callback)
    try:
        for _ in range(50):
            column = _objects([["a"], {f"s{i}" for i in range(50)}, ["b"]])
            before = _definition(column)
            armed.append(False)
            gc.set_threshold(1)
            try:
                got = _cells.read(column)
            finally:
                gc.set_threshold(*threshold)
            assert got is not None  # (a collection may also come just before or after)
            assert tuple(x.tolist() for x in got) in (before, _definition(column))
    finally:
        gc.callbacks.remove(callback)
    assert gc.isenabled()  # and the collector is on again
