"""Short Arrow strings coded from their bytes: codes into the sorted distinct strings, as
``pd.factorize(sort=True)`` gives them (checked here from the definition).

The packed key (up to 7 UTF-8 bytes and the length) is the string itself, so the codes are
exact by construction; these tests check the buffer reading: empty strings, strings that are
prefixes of others, multi-byte UTF-8, a zero byte inside a string, sliced and chunked arrays,
both offset widths, and the columns that must fall back (long strings, missing labels,
Python-backed strings).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from pandas_agree.data.strings import MAX_BYTES, short_string_codes

pa = pytest.importorskip("pyarrow")
pytestmark = pytest.mark.usefixtures("key_numbering")  # in C and by numpy

WORDS = ["", "a", "ab", "abc", "b", "ba", "\u00e9", "e\u0301", "\u65e5\u672c", "a\x00", "a\x00b",
         "1234567", "NA", " a", "a "]


def _expected(series: pd.Series) -> tuple[list[int], list[str]]:
    """Codes into the sorted distinct strings, from the definition (plain Python: pandas
    2.2's object factorize cuts strings at a NUL byte and merges "a" with "a\\x00")."""
    words = series.tolist()
    labels = sorted(set(words))
    code = {w: i for i, w in enumerate(labels)}
    return [code[w] for w in words], labels


def _dtypes():
    return [
        pd.StringDtype("pyarrow"),
        pd.ArrowDtype(pa.string()),
        pd.ArrowDtype(pa.large_string()),
    ]


@pytest.mark.parametrize("dtype", _dtypes(), ids=str)
@pytest.mark.parametrize("seed", range(5))
def test_same_codes_and_labels_as_factorize(dtype, seed):
    rng = np.random.default_rng(seed)
    words = [WORDS[i] for i in rng.integers(0, len(WORDS), 500)]
    series = pd.Series(words, dtype=dtype)
    got = short_string_codes(series)
    assert got is not None
    codes, labels = got
    assert (codes.tolist(), labels.tolist()) == _expected(series)
    assert labels.dtype == series.dtype  # the labels keep the column's dtype


@pytest.mark.parametrize("dtype", _dtypes(), ids=str)
def test_sliced_and_chunked_arrays(dtype):
    words = [WORDS[i % len(WORDS)] for i in range(100)]
    sliced = pd.Series(words, dtype=dtype).iloc[13:71]  # an Arrow array with an offset
    codes, labels = short_string_codes(sliced)
    assert (codes.tolist(), labels.tolist()) == _expected(sliced)
    kind = pa.large_string() if "large" in str(dtype) else pa.string()
    chunked = pa.chunked_array([pa.array(words[:40], kind), pa.array(words[40:], kind)])
    series = pd.Series(pd.arrays.ArrowExtensionArray(chunked))
    assert series.dtype.pyarrow_dtype == kind
    codes, labels = short_string_codes(series)
    assert (codes.tolist(), labels.tolist()) == _expected(series)


def test_columns_that_fall_back():
    long = "x" * (MAX_BYTES + 1)
    assert short_string_codes(pd.Series(["a", long], dtype="string[pyarrow]")) is None
    assert short_string_codes(pd.Series(["\u00e9" * 4], dtype="string[pyarrow]")) is None  # 8 B
    assert short_string_codes(pd.Series(["a", None], dtype="string[pyarrow]")) is None
    assert short_string_codes(pd.Series(["a", "b"], dtype="string[python]")) is None
    assert short_string_codes(pd.Series(["a", "b"], dtype=object)) is None
    assert short_string_codes(pd.Series([1, 2], dtype=pd.ArrowDtype(pa.int64()))) is None
    assert short_string_codes(pd.Series([], dtype="string[pyarrow]")) is None


def test_alpha_is_the_same_through_either_coding():
    """A coder column coded from bytes gives the alpha of the same column as objects."""
    import pandas_agree as pa_

    df = pa_.datasets.krippendorff_2011()
    as_arrow = df.assign(coder=df["coder"].astype(str).astype("string[pyarrow]"))
    as_object = df.assign(coder=df["coder"].astype(str).astype(object))
    for distance in ("nominal", "interval"):
        assert pa_.alpha(as_arrow, distance).alpha == pa_.alpha(as_object, distance).alpha
    # Krippendorff (2011), section C: nominal alpha 0.743
    assert pa_.alpha(as_arrow, "nominal").alpha == pytest.approx(0.743, abs=5e-4)


@pytest.mark.parametrize("dtype", _dtypes(), ids=str)
def test_many_distinct_strings(dtype):
    """Thousands of distinct strings of 0-7 bytes from an alphabet with 1- to 3-byte
    characters and the zero byte: sorted labels rebuilt from the keys alone."""
    rng = np.random.default_rng(7)
    alphabet = ["\x00", "a", "b", "z", "\u00e9", "\u00ff", "\u20ac", "\u65e5"]
    words = set()
    while len(words) < 3000:
        word = "".join(alphabet[i] for i in rng.integers(0, len(alphabet), rng.integers(0, 5)))
        if len(word.encode()) <= MAX_BYTES:
            words.add(word)
    ordered = sorted(words)
    shuffled = [ordered[i] for i in rng.permutation(len(ordered))]  # a list: numpy's str
    # arrays would drop trailing NUL characters
    series = pd.Series(shuffled * 2, dtype=dtype)
    codes, labels = short_string_codes(series)
    assert (codes.tolist(), labels.tolist()) == _expected(series)
    assert labels.tolist() == sorted(words)  # Python's order of str
