r"""Items to adjudicate: the units that hold alpha's observed disagreement, worst first.

:func:`disagreements` ranks units by their share of the observed disagreement of
Krippendorff's alpha and puts every coder's value side by side, ready for an adjudication
round (``.to_csv()``). :func:`ranked_disagreements` does the same for an
:class:`~pandas_agree.AlphaResult` (``result.disagreements()``). :func:`span_disagreements`
lists the span annotations that :func:`pandas_agree.span_f1` could not match, paired with the
other coder's overlapping span and the text of both.

A unit's part of the observed disagreement comes from the coincidence definition. With
:math:`m_u` pairable values in unit :math:`u`, its coincidences are
:math:`o^{(u)}_{ck} = \#\{(i, j): i \ne j,\ v_i = c,\ v_j = k\} / (m_u - 1)` over ordered pairs of
values by different coders, :math:`o_{ck} = \sum_u o^{(u)}_{ck}`, and

.. math::

    D_o = \frac{1}{n} \sum_c \sum_k o_{ck}\, \delta_{ck}
        = \frac{1}{n} \sum_u O_u, \qquad
    O_u = \sum_c \sum_k o^{(u)}_{ck}\, \delta_{ck}.

The unit's share is :math:`O_u / \sum_u O_u` (see
:func:`pandas_agree.unit_disagreement`, which computes it). Units whose coders all agree
(:math:`O_u = 0`) have nothing to adjudicate and are left out.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from pandas_agree.declare import declared
from pandas_agree.errors import (
    ColumnNotFoundError,
    DegenerateDataWarning,
    DuplicateRatingError,
    InvalidParameterError,
    ValueTypeError,
)
from pandas_agree.results import fitted

__all__ = [
    "RANK_COLUMNS",
    "disagreements",
    "nested_units",
    "ranked_disagreements",
    "span_disagreements",
]

#: The columns of :func:`disagreements` after the unit (and its groups), before the coders.
RANK_COLUMNS = ("share", "disagreement", "mean_distance", "n_values")


def _check_top(top: Any) -> int | None:
    if top is None:
        return None
    if isinstance(top, (bool, np.bool_)) or not isinstance(top, (int, np.integer)) or top < 1:
        raise InvalidParameterError(f"`top` must be a positive integer or None, got {top!r}")
    return int(top)


def ranked_disagreements(
    result: Any,
    top: int | None = 50,
    *,
    unit_name: Hashable = "unit",
    unit_keys: pd.MultiIndex | None = None,
) -> pd.DataFrame:
    """The units of an alpha ranked by their share of its observed disagreement.

    Parameters
    ----------
    result : AlphaResult
        From :func:`pandas_agree.alpha` (it keeps the codes the ranking needs).
    top : int or None, default 50
        Keep the first ``top`` units; ``None`` keeps every unit with some disagreement.
    unit_name : hashable, default "unit"
        Name of the unit column.
    unit_keys : pandas.MultiIndex, optional
        The group and unit labels of units nested in groups (from :func:`nested_units`,
        whose unit codes the result's units are): they replace the unit column, one column
        per level, named by the levels.

    Returns
    -------
    pandas.DataFrame
        One row per unit with disagreement, worst first (ties keep the unit order), indexed
        by ``rank`` (1, 2, ...). Columns: the unit; ``share`` (its part of the observed
        disagreement, :math:`O_u / \\sum_u O_u`); ``disagreement`` (its part of ``D_o``,
        :math:`O_u / n`); ``mean_distance`` (:math:`O_u / m_u`); ``n_values``
        (:math:`m_u`); then one column per coder with a rating, holding that coder's value
        (as the distance compared it) or None where the coder did not rate the unit.

    Raises
    ------
    InvalidParameterError
        A coder is named like one of the other columns (rename the coder).

    Examples
    --------
    Krippendorff (2011), section C: unit 6 (values 1, 2, 3, 4) holds half of the nominal
    observed disagreement, units 2 and 8 a quarter each.

    >>> import pandas_agree as pa
    >>> from pandas_agree.krippendorff.disagreements import ranked_disagreements
    >>> ranked_disagreements(pa.alpha(pa.datasets.krippendorff_2011()))
          unit  share  disagreement  mean_distance  n_values  A  B  C  D
    rank
    1        6   0.50          0.10            1.0         4  1  2  3  4
    2        2   0.25          0.05            0.5         4  2  2  3  2
    3        8   0.25          0.05            0.5         4  1  1  2  1
    """
    import pandas_agree as pa

    result = fitted(result)
    top = _check_top(top)
    coded = result.fit.coded
    by_unit = pa.unit_disagreement(result)
    by_unit = by_unit[by_unit["disagreement"].to_numpy() > 0]
    if top is not None:
        by_unit = by_unit.iloc[:top]
    codes = coded.units.get_indexer(by_unit.index)
    k = codes.size
    position = np.full(len(coded.units), -1, dtype=np.intp)
    position[codes] = np.arange(k)
    rated = np.unique(coded.coder_codes)
    column = np.full(len(coded.coders), -1, dtype=np.intp)
    column[rated] = np.arange(rated.size)
    grid = np.full((k, rated.size), None, dtype=object)
    chosen = position[coded.unit_codes] >= 0
    values = coded.values.to_numpy(dtype=object)
    grid[position[coded.unit_codes[chosen]], column[coded.coder_codes[chosen]]] = values[
        coded.value_codes[chosen]
    ]
    coders = coded.coders[rated]
    if unit_keys is None:
        front = {unit_name: pd.Series(by_unit.index.to_numpy(dtype=object), dtype=object)}
    else:
        keys = unit_keys[by_unit.index.to_numpy(dtype=np.intp)]
        front = {
            name: pd.Series(keys.get_level_values(i).to_numpy(dtype=object), dtype=object)
            for i, name in enumerate(unit_keys.names)
        }
    _refuse_clash(
        front,
        RANK_COLUMNS,
        "the unit or group column",
        lambda name: "rename it, e.g. data.rename(columns={" + f"{name!r}: 'item'" + "})",
    )
    _refuse_clash(
        coders,
        [*front, *RANK_COLUMNS],
        "coder",
        lambda name: (
            "rename that coder, e.g. data.replace({<coder column>: {"
            + f"{name!r}: 'coder ' + str({name!r})"
            + "}})"
        ),
    )
    frame = pd.DataFrame({**front, **{c: by_unit[c].to_numpy() for c in RANK_COLUMNS}})
    frame.index = pd.RangeIndex(1, k + 1, name="rank")
    values_frame = pd.DataFrame(grid, columns=coders, index=frame.index, dtype=object)
    return pd.concat([frame, values_frame], axis=1)


def _refuse_clash(
    names: Iterable[Hashable],
    fixed: Sequence[Hashable],
    who: str,
    fix: Callable[[Hashable], str],
) -> None:
    """Raise when one of ``names`` is named like one of ``fixed``, the list's other columns.

    The message names the first such name as ``who`` does (``"coder"``) and ends with
    ``fix(name)``: how to rename it.
    """
    clash = [n for n in names if any(_same_name(n, f) for f in fixed)]
    if clash:
        raise InvalidParameterError(
            f"{who} {clash[0]!r} is named like a column of the list of disagreements "
            f"({[str(f) for f in fixed]}); {fix(clash[0])}"
        )


def _same_name(a: Any, b: Any) -> bool:
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return False


def _columns(data: Any, **columns: Hashable) -> None:
    if not isinstance(data, pd.DataFrame):
        raise ValueTypeError(f"`data` must be a pandas DataFrame, got {type(data).__name__}")
    for param, col in columns.items():
        try:
            present = col in data.columns
        except TypeError:
            raise InvalidParameterError(f"`{param}` must be one column name, got {col!r}") from None
        if not present:
            raise ColumnNotFoundError(
                f"`{param}` column {col!r} is not in the DataFrame; its columns are "
                f"{list(data.columns)} (pass {param}=<column name>)"
            )


def _as_list(by: Any) -> list[Hashable]:
    if by is None:
        return []
    if isinstance(by, str) or not isinstance(by, Sequence):
        return [by]
    out = list(by)
    if not out:
        raise InvalidParameterError(f"`by` must not be empty, got {by!r}")
    return out


@declared()
def disagreements(
    data: pd.DataFrame,
    distance: Any = "nominal",
    *,
    by: Hashable | Sequence[Hashable] | None = None,
    top: int | None = 50,
    unit, coder, value, categories, on_duplicate,
    sep,
    weights: Any = None,
) -> pd.DataFrame:
    r"""The units to adjudicate: ranked by their share of alpha's observed disagreement.

    Each row is a unit on which the coders disagree, with every coder's value side by
    side, worst first: the list a project lead works through in an adjudication round
    (``disagreements(df).to_csv("adjudicate.csv")``). The ranking is
    :func:`pandas_agree.unit_disagreement` of ``alpha(data, distance)``: a unit's share is
    its part of the observed disagreement :math:`D_o` (see
    :mod:`pandas_agree.krippendorff.disagreements` for the coincidence definition).

    Parameters
    ----------
    data : pandas.DataFrame
        Long data, one row per rating. Not modified.
    distance : str, callable or Distance, default "nominal"
        The distance of the alpha whose disagreement is ranked.
    by : column name or list of names, optional
        Grouping columns, as in :func:`pandas_agree.report`: units are nested in their
        group (unit ``7`` of two groups is two units), the ranking is that of the pooled
        alpha over all groups, and the group columns come first.
    top : int or None, default 50
        Keep the first ``top`` units; ``None`` keeps every unit with some disagreement.
    weights : mapping or callable, optional
        Element weights of ``weighted_dice`` and ``weighted_jaccard``, as for
        :func:`pandas_agree.alpha`.

    Returns
    -------
    pandas.DataFrame
        Indexed by ``rank`` (1, 2, ...). Columns: the ``by`` columns, the unit column
        (under its own name), ``share``, ``disagreement``, ``mean_distance``,
        ``n_values`` (see :func:`ranked_disagreements`), then one column per coder with
        that coder's value (as the distance compared it: a set under a set distance when
        the data hold sets, or after ``sep=``/``on_duplicate="union"``), None where the
        coder did not rate the unit. Units where every coder agrees are left out, so a
        frame with no rows means nothing to adjudicate.

    Raises
    ------
    NoPairableUnitsError
        No unit has two values.
    InvalidParameterError
        ``top`` not a positive integer; a missing group or unit label; a coder named like
        another column.
    ColumnNotFoundError, DuplicateRatingError, UnknownDistanceError, ValueTypeError
        As :func:`pandas_agree.alpha`.

    Examples
    --------
    Krippendorff (2011), section C, interval distance (squared differences): unit 6, rated
    1, 2, 3, 4, holds :math:`O_6 = 40/3` of the :math:`\sum_u O_u = 52/3` (share 10/13).

    >>> import pandas_agree as pa
    >>> df = pa.datasets.krippendorff_2011()
    >>> df.agree.disagreements("interval", top=2).round(3)
          unit  share  disagreement  mean_distance  n_values  A  B  C  D
    rank
    1        6  0.769         0.333          3.333         4  1  2  3  4
    2        2  0.115         0.050          0.500         4  2  2  3  2
    """
    import pandas_agree as pa

    top = _check_top(top)
    by_cols = _as_list(by)
    _columns(data, unit=unit, coder=coder, value=value)
    for col in by_cols:
        _columns(data, by=col)
    with warnings.catch_warnings():
        # D_e = 0 makes alpha NaN; the ranking of D_o is still defined (and empty).
        warnings.simplefilter("ignore", DegenerateDataWarning)
        if not by_cols:
            result = pa.alpha(
                data,
                distance,
                unit=unit,
                coder=coder,
                value=value,
                categories=categories,
                on_duplicate=on_duplicate,
                weights=weights,
                sep=sep,
            )
            return ranked_disagreements(result, top, unit_name=unit)
        nested, keys = nested_units(data, by_cols, unit=unit, coder=coder, value=value)
        try:
            result = pa.alpha(
                nested,
                distance,
                categories=categories,
                on_duplicate=on_duplicate,
                weights=weights,
                sep=sep,
            )
        except DuplicateRatingError:
            from .report import duplicates_in_groups

            raise duplicates_in_groups(data, by_cols, unit, coder, value) from None
    return ranked_disagreements(result, top, unit_keys=keys)


def nested_units(
    data: pd.DataFrame,
    by: Sequence[Hashable],
    *,
    unit: Hashable = "unit",
    coder: Hashable = "coder",
    value: Hashable = "value",
) -> tuple[pd.DataFrame, pd.MultiIndex]:
    """Long data whose units are nested in their groups, and the labels of the new units.

    Unit ``7`` of two groups becomes two units, as in :func:`pandas_agree.report`.

    Parameters
    ----------
    data : pandas.DataFrame
        Long data. Not modified.
    by : list of column names
        The grouping columns.
    unit, coder, value : hashable
        Column names.

    Returns
    -------
    nested : pandas.DataFrame
        Columns ``unit`` (an integer code per (groups..., unit)), ``coder`` and ``value``,
        with the index of ``data``.
    keys : pandas.MultiIndex
        The (groups..., unit) labels of each code, levels named by ``by`` and ``unit``.

    Examples
    --------
    >>> import pandas as pd
    >>> from pandas_agree.krippendorff.disagreements import nested_units
    >>> df = pd.DataFrame({"g": ["a", "a", "b"], "unit": [1, 1, 1], "coder": ["x", "y", "x"],
    ...                    "value": [0, 1, 1]})
    >>> nested, keys = nested_units(df, ["g"])
    >>> nested["unit"].tolist(), keys.tolist()
    ([0, 0, 1], [('a', 1), ('b', 1)])
    """
    by = list(by)
    _columns(data, unit=unit, coder=coder, value=value)
    for col in by:
        _columns(data, by=col)
    for param, col in [*(("by", c) for c in by), ("unit", unit)]:
        missing = data[col].isna().to_numpy()
        if missing.any():
            raise InvalidParameterError(
                f"`{param}` column {col!r} has {int(missing.sum())} missing label(s); fill them "
                "or drop those rows explicitly"
            )
    # One integer key per row, column by column (numbered again after each column, so it
    # stays below the number of rows), then the rows' unit codes in order of appearance.
    columns = [*by, unit]
    parts = [pd.factorize(data[col]) for col in columns]
    key = np.zeros(len(data), dtype=np.int64)
    for col_codes, col_labels in parts:
        key = pd.factorize(key * len(col_labels) + col_codes)[0].astype(np.int64)
    codes, uniques = pd.factorize(key)
    first = np.empty(len(uniques), dtype=np.intp)
    first[codes[::-1]] = np.arange(len(codes) - 1, -1, -1)  # first row of each unit
    keys = pd.MultiIndex(
        levels=[col_labels for _, col_labels in parts],
        codes=[col_codes[first] for col_codes, _ in parts],
        names=columns,
        verify_integrity=False,
    )
    nested = pd.DataFrame(
        {"unit": codes, "coder": data[coder].array, "value": data[value].array},
        index=data.index,
    )
    return nested, keys


# ---------------------------------------------------------------------------------------------
# spans


@declared(frontends=(), register=False)  # match, coders, the span columns: declare.SHARED
def span_disagreements(
    spans: pd.DataFrame,
    match,
    *,
    texts: Mapping[Hashable, str] | None = None,
    top: int | None = 50,
    coders,
    coverage: Any = None,
    document, coder, start, end, label,
) -> pd.DataFrame:
    """The span annotations that failed to match, paired, with their text.

    For every pair of coders, the spans that :func:`pandas_agree.span_f1` leaves unmatched
    under ``match`` (see :func:`pandas_agree.spans.unmatched_pairs`): an unmatched span of
    one coder is paired with an unmatched span of the other that overlaps it in the same
    document (larger overlap first), else it stands alone.

    Parameters
    ----------
    spans : pandas.DataFrame
        The span frame (``document, coder, start, end, label``). Not modified.
    match : {"exact", "overlap"}, default "exact"
        The matching of :func:`pandas_agree.span_f1`.
    texts : mapping, optional
        document -> text; gives the snippets ``text_a`` and ``text_b``.
    top : int or None, default 50
        Keep the first ``top`` rows; ``None`` keeps all.
    coders : sequence, optional
        The coders to compare, in order, as for :func:`pandas_agree.span_f1`.
    coverage : iterable of (document, coder) pairs, optional
        Who saw which document, as for :func:`pandas_agree.span_f1`.

    Returns
    -------
    pandas.DataFrame
        One row per unmatched span or pair of spans, in the order of document, position
        and coder pair, indexed by ``rank`` (1, 2, ...): ``document``, ``coder_a``,
        ``coder_b``, ``kind`` (``"label"``: same offsets, other label; ``"boundary"``: same
        label, other offsets; ``"boundary and label"``; ``"only a"``/``"only b"``: no
        overlapping span of the other coder was left), ``start_a``, ``end_a``,
        ``label_a``, ``text_a``, ``start_b``, ``end_b``, ``label_b``, ``text_b`` (missing
        on the absent side; texts None without ``texts``).

    Examples
    --------
    >>> import pandas as pd
    >>> from pandas_agree.krippendorff.disagreements import span_disagreements
    >>> spans = pd.DataFrame({
    ...     "document": "d1", "coder": ["A", "A", "B", "B"],
    ...     "start": [0, 9, 0, 9], "end": [4, 13, 4, 17], "label": "PER"})
    >>> table = span_disagreements(spans, texts={"d1": "Bill met Jill Ann ."})
    >>> table[["kind", "text_a", "text_b"]]
              kind text_a    text_b
    rank
    1     boundary   Jill  Jill Ann
    """
    from pandas_agree.spans import unmatched_pairs

    top = _check_top(top)
    pairs = unmatched_pairs(
        spans,
        match,
        coders=coders,
        coverage=coverage,
        document=document,
        coder=coder,
        start=start,
        end=end,
        label=label,
    )
    first = pairs["start_a"].fillna(pairs["start_b"]).to_numpy(dtype=np.int64)
    try:
        doc_order = pd.factorize(pairs["document"], sort=True)[0]
    except TypeError:  # documents of mixed types do not sort: order of appearance
        doc_order = pd.factorize(pairs["document"])[0]
    order = np.lexsort((np.arange(len(pairs)), first, doc_order))
    pairs = pairs.iloc[order].reset_index(drop=True)
    if top is not None:
        pairs = pairs.iloc[:top]
    kind = np.full(len(pairs), "boundary and label", dtype=object)
    a_only = pairs["start_b"].isna().to_numpy()
    b_only = pairs["start_a"].isna().to_numpy()
    same_place = (pairs["start_a"] == pairs["start_b"]).to_numpy(dtype=bool, na_value=False) & (
        pairs["end_a"] == pairs["end_b"]
    ).to_numpy(dtype=bool, na_value=False)
    same_label = np.array(
        [_same_name(a, b) for a, b in zip(pairs["label_a"], pairs["label_b"])], dtype=bool
    ).reshape(len(pairs))
    kind[same_place & ~same_label] = "label"
    kind[~same_place & same_label] = "boundary"
    kind[a_only] = "only a"
    kind[b_only] = "only b"

    def text(values: Any) -> pd.Series:  # labels and texts keep None on an absent side
        return pd.Series(np.asarray(values, dtype=object), dtype=object)

    out = pd.DataFrame(
        {
            "document": text(pairs["document"]),
            "coder_a": text(pairs["coder_a"]),
            "coder_b": text(pairs["coder_b"]),
            "kind": text(kind),
            "start_a": pairs["start_a"],
            "end_a": pairs["end_a"],
            "label_a": text(pairs["label_a"]),
            "text_a": text(_snippets(texts, pairs["document"], pairs["start_a"], pairs["end_a"])),
            "start_b": pairs["start_b"],
            "end_b": pairs["end_b"],
            "label_b": text(pairs["label_b"]),
            "text_b": text(_snippets(texts, pairs["document"], pairs["start_b"], pairs["end_b"])),
        }
    )
    out.index = pd.RangeIndex(1, len(out) + 1, name="rank")
    return out


def _snippets(
    texts: Mapping[Hashable, str] | None, docs: pd.Series, starts: pd.Series, ends: pd.Series
) -> np.ndarray:
    out = np.full(len(docs), None, dtype=object)
    if texts is None:
        return out
    if not isinstance(texts, Mapping):
        raise InvalidParameterError(
            f"`texts` must map each document to its text, got {type(texts).__name__}"
        )
    for i, (d, s, e) in enumerate(zip(docs, starts, ends)):
        text = texts.get(d)
        if isinstance(text, str) and not pd.isna(s):
            out[i] = text[int(s) : int(e)]
    return out
