"""The C accelerator pandas_agree._core._firstcodes: sets and short strings numbered.

``sets(indptr, labels)`` must give what the definition gives, written here with Python
frozensets: each row's set numbered by first appearance, and each number's first row; and
the same as numpy's road (``_masks`` then ``_codes_of_keys``), which runs where the
accelerator is not built. ``short_strings(offsets, data)`` must number Arrow strings by
first appearance as Python's own dict does, with keys that unpack to the strings.
"""

from __future__ import annotations

import itertools
import sys

import numpy as np
import pandas as pd
import pytest

from pandas_agree._core import setcodes

_firstcodes = pytest.importorskip("pandas_agree._core._firstcodes")


def by_definition(indptr, labels):
    """Codes of the rows' sets by first appearance and each code's first row, in Python."""
    seen: dict[frozenset, int] = {}
    first: list[int] = []
    codes = []
    for row, (a, b) in enumerate(itertools.pairwise(indptr.tolist())):
        s = frozenset(labels[a:b].tolist())
        if s not in seen:
            seen[s] = len(seen)
            first.append(row)
        codes.append(seen[s])
    return codes, first


def random_rows(rng, n_rows, n_labels, longest):
    lengths = rng.integers(0, longest + 1, n_rows)
    indptr = np.zeros(n_rows + 1, dtype=np.intp)
    np.cumsum(lengths, out=indptr[1:])
    return indptr, rng.integers(0, n_labels, int(indptr[-1])).astype(np.intp)


@pytest.mark.parametrize("seed", range(30))
def test_sets_by_definition_and_as_numpy(seed):
    """Random rows with repeats and empty rows, from few distinct sets to thousands (the
    hash table grows from 1,024 slots), labels up to 63."""
    rng = np.random.default_rng(seed)
    n_labels = int(rng.choice([1, 2, 5, 12, 40, 64]))
    n_rows = int(rng.choice([0, 1, 7, 300, 5000]))
    indptr, labels = random_rows(rng, n_rows, n_labels, int(rng.integers(0, 8)))
    codes, first = _firstcodes.sets(indptr, labels)
    want_codes, want_first = by_definition(indptr, labels)
    assert codes.tolist() == want_codes
    assert first.tolist() == want_first
    assert codes.dtype == first.dtype == np.intp
    numpy_codes, numpy_first = setcodes._codes_of_keys(setcodes._masks(indptr, labels))
    assert np.array_equal(codes, numpy_codes) and np.array_equal(first, numpy_first)


def test_many_distinct_sets_grow_the_table():
    """200,000 rows, each a distinct set of labels 0..63 (the table doubles 9 times)."""
    rng = np.random.default_rng(0)
    masks = np.unique(rng.integers(0, 2**63, 200_000, dtype=np.uint64))
    bits = (masks[:, None] >> np.arange(64, dtype=np.uint64)) & np.uint64(1)
    rows, labels = np.nonzero(bits)
    indptr = np.zeros(masks.size + 1, dtype=np.intp)
    np.cumsum(np.bincount(rows, minlength=masks.size), out=indptr[1:])
    order = rng.permutation(masks.size)  # rows in random order: codes follow the rows
    codes, first = _firstcodes.sets(indptr, labels.astype(np.intp))
    assert np.array_equal(codes, np.arange(masks.size))
    assert np.array_equal(first, np.arange(masks.size))
    repeated = np.concatenate([order, order[::-1]])  # each set twice
    ptr = np.zeros(repeated.size + 1, dtype=np.intp)
    np.cumsum(np.diff(indptr)[repeated], out=ptr[1:])
    lab = np.concatenate([labels[indptr[r] : indptr[r + 1]] for r in repeated]).astype(np.intp)
    codes, first = _firstcodes.sets(ptr, lab)
    assert np.array_equal(codes[: order.size], np.arange(order.size))
    assert np.array_equal(codes[order.size :], np.arange(order.size)[::-1])
    assert np.array_equal(first, np.arange(order.size))


def test_rows_after_the_first_offset():
    """Row pointers need not start at 0: labels before indptr[0] belong to no row."""
    labels = np.array([5, 1, 2, 1, 2, 9], dtype=np.intp)
    codes, first = _firstcodes.sets(np.array([1, 3, 5, 5], dtype=np.intp), labels)
    assert codes.tolist() == [0, 0, 1] and first.tolist() == [0, 2]


@pytest.mark.parametrize(
    "indptr, labels",
    [
        ([0, 2, 1], [0, 1]),  # pointers going back
        ([0, 3], [0, 1]),  # past the labels
        ([-1, 1], [0, 1]),  # before them
        ([3], [0, 1]),  # no rows, but a pointer past the labels
    ],
)
def test_bad_row_pointers_raise(indptr, labels):
    with pytest.raises(ValueError, match="indptr"):
        _firstcodes.sets(np.array(indptr, dtype=np.intp), np.array(labels, dtype=np.intp))


@pytest.mark.parametrize("label", [-1, 64, np.iinfo(np.intp).max, np.iinfo(np.intp).min])
def test_labels_outside_0_to_63_raise(label):
    with pytest.raises(ValueError, match=r"0\.\.63"):
        _firstcodes.sets(np.array([0, 1, 2], dtype=np.intp), np.array([3, label], np.intp))


def test_labels_0_and_63_and_those_outside_every_row():
    """Labels outside 0..63 before the first row pointer or after the last belong to no
    row and are not read."""
    labels = np.array([-5, 63, 0, 63, 99], dtype=np.intp)
    codes, first = _firstcodes.sets(np.array([1, 2, 3, 4], dtype=np.intp), labels)
    assert codes.tolist() == [0, 1, 0] and first.tolist() == [0, 1]
    codes, first = _firstcodes.sets(np.array([2], dtype=np.intp), labels[:2])
    assert codes.size == first.size == 0  # no rows, the pointer at the end


def test_sets_that_differ_only_in_high_labels():
    """Every subset of labels 48..63, in random order: the masks differ only in their high
    bits (a hash of the low bits of the product put them all in one slot: 1.1 s here
    instead of 2 ms, found in review)."""
    rng = np.random.default_rng(1)
    masks = rng.permutation(2**16)
    bits = (masks[:, None] >> np.arange(16)) & 1
    rows, labels = np.nonzero(bits)
    indptr = np.zeros(masks.size + 1, dtype=np.intp)
    np.cumsum(np.bincount(rows, minlength=masks.size), out=indptr[1:])
    labels = (labels + 48).astype(np.intp)
    codes, first = _firstcodes.sets(indptr, labels)
    numpy_codes, numpy_first = setcodes._codes_of_keys(setcodes._masks(indptr, labels))
    assert np.array_equal(codes, numpy_codes) and np.array_equal(first, numpy_first)
    assert np.array_equal(first, np.arange(masks.size))  # every row a new set


_UNREADABLE = {
    "int32": lambda a: a.astype(np.int32),
    "float": lambda a: a.astype(np.float64),
    "swapped": lambda a: a.astype(a.dtype.newbyteorder()),  # same type number
    "strided": lambda a: np.repeat(a, 2)[::2],
    "2-d": lambda a: a[None, :],
    "list": lambda a: a.tolist(),
}


@pytest.mark.parametrize("make", list(_UNREADABLE.values()), ids=list(_UNREADABLE))
def test_arrays_it_cannot_read_raise_type_error(make):
    indptr = np.array([0, 1, 2], dtype=np.intp)
    labels = np.array([1, 2], dtype=np.intp)
    with pytest.raises(TypeError, match="intp"):
        _firstcodes.sets(make(indptr), labels)
    with pytest.raises(TypeError, match="intp"):
        _firstcodes.sets(indptr, make(labels))


def test_row_pointers_may_not_be_empty():
    with pytest.raises(TypeError, match="non-empty"):
        _firstcodes.sets(np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.intp))


def test_unaligned_arrays_raise_type_error():
    raw = np.zeros(3 * 8 + 1, dtype=np.uint8)
    unaligned = raw[1:].view(np.intp)
    assert not unaligned.flags.aligned
    with pytest.raises(TypeError, match="intp"):
        _firstcodes.sets(unaligned, np.zeros(0, dtype=np.intp))
    with pytest.raises(TypeError, match="intp"):
        _firstcodes.sets(np.array([0, 1], dtype=np.intp), unaligned)


def test_read_only_arrays_and_equivalent_integer_types_are_read():
    indptr = np.array([0, 1, 2], dtype=np.intp)
    labels = np.array([4, 4], dtype=np.intp)
    indptr.flags.writeable = labels.flags.writeable = False
    codes, first = _firstcodes.sets(indptr, labels)
    assert codes.tolist() == [0, 0] and first.tolist() == [0]
    same = next((t for t in (np.longlong, np.int_, np.intc)
                 if np.dtype(t) != np.dtype(np.intp) and np.dtype(t).itemsize
                 == np.dtype(np.intp).itemsize and np.dtype(t).kind == "i"), None)
    if same is not None:  # long long beside long on Linux: the same C type width
        codes, _ = _firstcodes.sets(indptr.astype(same), labels.astype(same))
        assert codes.tolist() == [0, 0]


def test_dedupe_sets_reads_any_integer_arrays(key_numbering):
    """The caller's arrays may be int32, strided or unaligned: dedupe_sets converts them."""
    indptr = np.array([0, 2, 3, 5, 5], dtype=np.int32)
    labels = np.repeat(np.array([1, 0, 2, 0, 1], dtype=np.int64), 2)[::2]
    codes, ptr, lab = setcodes.dedupe_sets(indptr, labels, 3)
    assert codes.tolist() == [0, 1, 0, 2]
    assert ptr.tolist() == [0, 2, 3, 3] and lab.tolist() == [0, 1, 2]


def test_no_reference_or_memory_is_kept_or_lost():
    """On success and on each error: the inputs' reference counts are unchanged, the
    results are held by the caller alone, and repeated errors leave no memory behind."""
    import tracemalloc

    indptr = np.array([0, 1, 2], dtype=np.intp)
    labels = np.array([1, 2], dtype=np.intp)
    bad_labels = np.array([1, 64], dtype=np.intp)
    bad_indptr = np.array([0, 3], dtype=np.intp)
    before = [sys.getrefcount(a) for a in (indptr, labels, bad_labels, bad_indptr)]
    for _ in range(100):
        codes, first = _firstcodes.sets(indptr, labels)
    fresh = np.zeros(1)
    assert sys.getrefcount(codes) == sys.getrefcount(first) == sys.getrefcount(fresh)

    def errors(n):
        for _ in range(n):
            for args in ((indptr, bad_labels), (bad_indptr, labels)):
                with pytest.raises(ValueError):
                    _firstcodes.sets(*args)

    big = np.arange(0, 2 * 10**5 + 1, dtype=np.intp)  # a 1.6 MB result on success
    big_labels = np.zeros(2 * 10**5, dtype=np.intp)
    big_labels[-1] = 64  # fails at the last row: the codes array is full, then dropped
    errors(10)
    tracemalloc.start()
    try:
        start = tracemalloc.get_traced_memory()[0]
        errors(200)
        for _ in range(20):
            with pytest.raises(ValueError):
                _firstcodes.sets(big, big_labels)
        grown = tracemalloc.get_traced_memory()[0] - start
    finally:
        tracemalloc.stop()
    assert grown < 100_000  # a leaked codes array would be 1.6 MB each time
    assert [sys.getrefcount(a) for a in (indptr, labels, bad_labels, bad_indptr)] == before


def test_module_exports_two_functions():
    assert _firstcodes.__all__ == ["sets", "short_strings"]
    with pytest.raises(TypeError):
        _firstcodes.sets(np.zeros(1, dtype=np.intp))
    with pytest.raises(TypeError):
        _firstcodes.short_strings(np.zeros(1, dtype=np.int32))


# --- short strings ----------------------------------------------------------------------------

pyarrow = pytest.importorskip("pyarrow")

SHORT = ["", "a", "ab", "b", "ba", "\u00e9", "e\u0301", "\u65e5\u672c", "a\x00", "a\x00b",
         "1234567", "\x00", "\x7f\x7f", "\U0001f600"]


def buffers(arr):
    """An Arrow string array's offsets (from its own offset on) and data, as numpy."""
    _, offsets, data = arr.buffers()
    wide = pyarrow.types.is_large_string(arr.type)
    offsets = np.frombuffer(offsets, dtype=np.int64 if wide else np.int32)
    return offsets[arr.offset : arr.offset + len(arr) + 1], np.frombuffer(data or b"", np.uint8)


def key_of(s: str) -> int:
    """The key by definition: the UTF-8 bytes from the top byte down, the length below."""
    b = s.encode()
    return int.from_bytes(b.ljust(7, b"\0"), "big") << 8 | len(b)


@pytest.mark.parametrize("large", [False, True], ids=["string", "large_string"])
@pytest.mark.parametrize("seed", range(10))
def test_short_strings_by_definition(seed, large):
    rng = np.random.default_rng(seed)
    words = [SHORT[i] for i in rng.integers(0, len(SHORT), int(rng.integers(0, 400)))]
    arr = pyarrow.array(words, type=pyarrow.large_string() if large else pyarrow.string())
    start = int(rng.integers(0, len(words) + 1))
    arr = arr.slice(start)  # offsets that do not start at 0
    words = words[start:]
    codes, keys = _firstcodes.short_strings(*buffers(arr))
    seen = list(dict.fromkeys(words))
    assert codes.tolist() == [seen.index(w) for w in words]
    assert keys.dtype == np.uint64 and keys.tolist() == [key_of(w) for w in seen]
    from pandas_agree.data.strings import strings_of

    assert strings_of(keys) == seen


def test_short_string_keys_sort_as_the_strings():
    _, keys = _firstcodes.short_strings(*buffers(pyarrow.array(SHORT)))
    assert [SHORT[i] for i in np.argsort(keys)] == sorted(SHORT)


@pytest.mark.parametrize("long", ["12345678", "\u65e5\u672c\u8a9e", "abcdefgh"[::-1]])
def test_a_string_over_7_bytes_gives_none(long):
    for words in ([long], ["a", "b", long], ["a", long, "a"]):
        assert _firstcodes.short_strings(*buffers(pyarrow.array(words))) is None


@pytest.mark.parametrize(
    "offsets, n_bytes",
    [([0, 2, 1], 4), ([0, 5], 4), ([-1, 1], 4), ([5], 4)],
    ids=["back", "past the data", "before it", "no strings, past the data"],
)
@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_bad_offsets_raise(offsets, n_bytes, dtype):
    with pytest.raises(ValueError, match="offsets"):
        _firstcodes.short_strings(np.array(offsets, dtype=dtype), np.zeros(n_bytes, np.uint8))


@pytest.mark.parametrize(
    "offsets, data",
    [
        (np.array([0, 1], np.int16), np.zeros(1, np.uint8)),
        (np.array([0, 1], np.uint64), np.zeros(1, np.uint8)),
        (np.array([0, 1], np.int32), np.zeros(1, np.int8)),
        (np.array([0, 1], np.int32), np.zeros((1, 1), np.uint8)),
        (np.array([0, 0, 1, 1], np.int32)[::2], np.zeros(1, np.uint8)),
        (np.array([0, 1], np.int32).astype(">i4"), np.zeros(1, np.uint8)),
        (np.zeros(0, np.int32), np.zeros(1, np.uint8)),
        ([0, 1], b"a"),
    ],
    ids=["int16", "uint64", "int8 data", "2-d data", "strided", "swapped", "empty", "lists"],
)
def test_buffers_it_cannot_read_raise_type_error(offsets, data):
    with pytest.raises(TypeError, match="offsets"):
        _firstcodes.short_strings(offsets, data)


def test_short_strings_keep_no_memory_on_errors_or_none():
    """A bad offset or a long string at the end: the codes are full, then dropped."""
    import tracemalloc

    offsets = np.arange(0, 200_001, dtype=np.int64)
    bad = offsets.copy()
    bad[-1] = 400_000  # the last string is past the data
    long = offsets.copy()
    long[-1] = long[-2] + 8  # the last string has 8 bytes
    data = np.zeros(200_010, np.uint8)
    tracemalloc.start()
    try:
        start = tracemalloc.get_traced_memory()[0]
        for _ in range(20):
            with pytest.raises(ValueError):
                _firstcodes.short_strings(bad, data)
            assert _firstcodes.short_strings(long, data) is None
        grown = tracemalloc.get_traced_memory()[0] - start
    finally:
        tracemalloc.stop()
    assert grown < 100_000
    before = sys.getrefcount(offsets), sys.getrefcount(data)
    codes, keys = _firstcodes.short_strings(offsets, data)
    assert (sys.getrefcount(offsets), sys.getrefcount(data)) == before
    assert sys.getrefcount(codes) == sys.getrefcount(keys) == sys.getrefcount(np.zeros(1))


def test_many_distinct_short_strings_grow_the_table():
    words = [f"{i:07d}" for i in range(150_000)]
    words += words[::-1]
    codes, keys = _firstcodes.short_strings(*buffers(pyarrow.array(words)))
    assert codes.tolist() == list(range(150_000)) + list(range(150_000))[::-1]
    assert keys.tolist() == [key_of(w) for w in words[:150_000]]


@pytest.mark.parametrize("offsets", [None, b""], ids=["no offsets buffer", "empty one"])
def test_an_empty_string_array_without_offsets(offsets, key_numbering):
    """Arrow allows a length-0 string array without offsets (Java IPC writers make them)."""
    from pandas_agree.data import sets as setvalues
    from pandas_agree.data import strings as shortstrings

    empty = pyarrow.StringArray.from_buffers(
        0, None if offsets is None else pyarrow.py_buffer(offsets), pyarrow.py_buffer(b"")
    )
    codes, keys = shortstrings.first_codes(empty)
    assert codes.size == keys.size == 0
    lists = pyarrow.ListArray.from_arrays(pyarrow.array([0, 0, 0], pyarrow.int32()), empty)
    form = setvalues.from_arrow(pd.Series(pd.arrays.ArrowExtensionArray(lists)))
    assert form.present.tolist() == [True, True] and form.indptr.tolist() == [0, 0, 0]
    assert form.labels.size == 0


@pytest.mark.parametrize("seed", range(4))
def test_arrow_labels_numbered_in_c_as_dictionary_encode(seed, key_numbering, monkeypatch):
    """Labels of an Arrow list column without nulls: numbered in C (short ones) or
    dictionary-encoded (a long one among them, or without C), codes by first appearance."""
    from pandas_agree.data import sets as setvalues

    if key_numbering == "c" and seed % 2 == 0:  # short labels only: the C road, or a failure
        from pyarrow import compute

        def refused(*args, **kwargs):
            raise AssertionError("short labels were dictionary-encoded")

        monkeypatch.setattr(compute, "dictionary_encode", refused)
    rng = np.random.default_rng(seed)
    pool = SHORT + (["a label over seven bytes"] if seed % 2 else [])
    items = [pool[i] for i in rng.integers(0, len(pool), 300)]
    for large in (False, True):
        flat = pyarrow.array(items, type=pyarrow.large_string() if large else pyarrow.string())
        codes, labels = setvalues._encoded(flat)
        seen = list(dict.fromkeys(items))
        assert labels == seen and all(type(x) is str for x in labels)
        assert codes.tolist() == [seen.index(x) for x in items]


def test_c_packs_as_many_bytes_as_python_says():
    """The 7-byte limit is written twice (MAX_BYTES in Python, SHORT_BYTES in C)."""
    from pandas_agree.data.strings import MAX_BYTES

    fits, over = "x" * MAX_BYTES, "x" * (MAX_BYTES + 1)
    codes, keys = _firstcodes.short_strings(*buffers(pyarrow.array([fits, ""])))
    assert codes.tolist() == [0, 1] and keys.tolist() == [key_of(fits), 0]
    assert _firstcodes.short_strings(*buffers(pyarrow.array([over]))) is None
