"""Reliability of pyramid annotation: Summary Content Units as set-valued codes.

To build a pyramid (Nenkova and Passonneau 2004) an annotator groups the words of a
docset's model summaries into Summary Content Units (SCUs): sets of *contributors* that
express the same content, at most one per model summary. Every word is in exactly one
SCU; a word the annotator grouped with no other word is a singleton. Two annotators'
pyramids are compared as coreference codings are (Passonneau 2006, section 3.3;
Passonneau 2005, section 4):

* :func:`scus_to_codes`: the unit is the word (or span) and its value the set of the other
  words in its SCU ("each coding value is the set of tokens in the SCU the word was
  assigned to, excluding the current token", Passonneau 2005, section 4), so that
  ``pandas_agree.alpha`` with ``nominal``, ``jaccard``, ``dice`` or ``masi`` per docset
  gives the tables of those papers.
* :func:`scu_weights` and :func:`mean_scu_weight`: an SCU's weight is the number of model
  summaries that contribute to it; the mean SCU weight (MSW) of a pyramid compares
  pyramids (Passonneau 2005, section 7, Table 7).

Input is long data, one row per (docset, annotator, token, scu[, summary]). SCU ids are
local to a (docset, annotator). A missing SCU id (NaN, None) marks a word the annotator put
in no SCU: a singleton for :func:`scus_to_codes`, and no SCU at all for the weights.

References
----------
Passonneau, R. J. (2005). Evaluating an Evaluation Method: The Pyramid Method Applied to
2003 Document Understanding Conference (DUC) Data. Technical Report CUCS-010-06,
Columbia University.

Passonneau, R. J. (2006). Measuring Agreement on Set-valued Items (MASI) for Semantic and
Pragmatic Annotation. LREC.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Literal

import numpy as np
import pandas as pd

from ...data.prepare import check_columns
from ...declare import declared
from ...errors import InvalidParameterError
from ..classes import Roles, partition_codes, show

__all__ = ["mean_scu_weight", "scu_weights", "scus_to_codes"]

MissingTokens = Literal["raise", "singleton"]

_PYRAMID = Roles(
    group="docset",
    coder="annotator",
    item="token",
    cls="scu",
    missing="missing_tokens",
    item_noun="token",
    cls_noun="SCU",
)


@declared(frontends=("frame",))
def scus_to_codes(
    data: pd.DataFrame,
    *,
    docset,
    annotator: Hashable = "annotator",
    scu,
    token: Hashable = "token",
    keep_self: bool = False,
    missing_tokens: MissingTokens = "raise",
) -> pd.DataFrame:
    """SCU annotations as set-valued reliability data (Passonneau 2005, section 4).

    Each token (word, or span of words) becomes a unit; an annotator's value for it is
    the frozenset of the other tokens in the SCU that annotator put it in (the empty set
    for a token in an SCU of its own). Then ``pandas_agree.alpha`` on each docset gives
    the agreement of the two pyramids.

    Parameters
    ----------
    data : pandas.DataFrame
        Long data, one row per (docset, annotator, token, scu). Include every word of the
        model summaries, unassigned ones too (with a missing SCU id or one of their own):
        a word no annotator lists is not a unit. Not modified.
    annotator, scu, token : hashable
        Columns naming the annotator, the SCU id (local to a (docset, annotator); missing
        for a word in no SCU, which is then a singleton) and the token or span id.
    keep_self : bool, default False
        Keep the token itself in its set. The default follows Passonneau (2005, section
        4) and (2006, section 3.3); Figure 4 of Passonneau (2006) prints the sets *with*
        the span, which ``keep_self=True`` reproduces.
    missing_tokens : {"raise", "singleton"}, default "raise"
        When an annotator of a docset lacks a token another annotator of it has: raise,
        or add it for that annotator as a singleton (an unassigned word). An annotator
        with no row in a docset did not annotate it and is not checked.

    Returns
    -------
    pandas.DataFrame
        One row per (docset, annotator, token): input rows in input order, then any added
        singletons. Columns: ``docset`` (under its own name, when given), the token column
        (under its own name, unless named ``unit``, ``coder`` or ``value``), ``unit``,
        ``coder`` (the annotator) and ``value``. With a docset column ``unit`` is the pair
        ``(docset, token)`` and the sets hold such pairs, so that docsets never share
        units or set elements; without, both are the token labels.

    Raises
    ------
    ColumnNotFoundError
        A named column is not in ``data`` (pass ``docset=None`` for one docset).
    InvalidParameterError
        Missing docset, annotator or token labels; tokens that differ between annotators
        (with ``missing_tokens="raise"``); a bad ``keep_self`` or ``missing_tokens``.
    DuplicateRatingError
        An annotator lists the same token twice in a docset.

    See Also
    --------
    pandas_agree.tasks.coref.chains_to_codes : the same conversion for coreference chains.

    Examples
    --------
    Passonneau (2006), Figure 4: the agreement matrix of Figure 1's two annotators, with
    spans as units, printed with the span in its own set (``keep_self=True``).

    >>> import pandas_agree as pa
    >>> from pandas_agree import pyramid
    >>> from pandas_agree.datasets.passonneau import pyramid_figure1
    >>> codes = pyramid.scus_to_codes(
    ...     pyramid_figure1(), docset=None, token="span", keep_self=True
    ... )
    >>> pa.matrix(codes).T.map(sorted)
    coder            A1                     A2
    unit
    1      [1, 2, 3, 4]  [1, 2, 3, 4, 5, 6, 7]
    2      [1, 2, 3, 4]  [1, 2, 3, 4, 5, 6, 7]
    3      [1, 2, 3, 4]  [1, 2, 3, 4, 5, 6, 7]
    4      [1, 2, 3, 4]  [1, 2, 3, 4, 5, 6, 7]
    5            [5, 7]  [1, 2, 3, 4, 5, 6, 7]
    6               [6]  [1, 2, 3, 4, 5, 6, 7]
    7            [5, 7]  [1, 2, 3, 4, 5, 6, 7]
    """
    return partition_codes(
        data, docset, annotator, token, scu, keep_self, missing_tokens, _PYRAMID
    )


@declared(frontends=(), register=False)  # docset, scu, summary: declare.SHARED
def scu_weights(
    data: pd.DataFrame,
    *,
    docset,
    annotator: Hashable = "annotator",
    scu, summary,
) -> pd.DataFrame:
    """The weight of every SCU: how many distinct model summaries contribute to it.

    Parameters
    ----------
    data : pandas.DataFrame
        Long data, one row per (docset, annotator, token, scu, summary). Rows with a
        missing SCU id (unassigned words) belong to no SCU and are not counted. Not
        modified.
    annotator, scu, summary : hashable
        Columns naming the annotator, the SCU id (local to a (docset, annotator)) and the
        model summary a token comes from.

    Returns
    -------
    pandas.DataFrame
        One row per SCU, in order of first appearance, with the docset (when given),
        annotator and scu columns under their own names, ``weight`` (distinct summaries)
        and ``n_tokens`` (rows).

    Raises
    ------
    ColumnNotFoundError
        A named column is not in ``data``.
    InvalidParameterError
        A row of an SCU has no summary, or missing docset or annotator labels.

    Examples
    --------
    Passonneau (2006), Figure 1: A1's SCU has weight 4, A2's weight 5 (seven spans,
    two each from A2's Sum1 and Sum3). The figure prints no summaries for A1's spans
    5-7, so those rows are left out here.

    >>> from pandas_agree import pyramid
    >>> from pandas_agree.datasets.passonneau import pyramid_figure1
    >>> df = pyramid_figure1()
    >>> pyramid.scu_weights(df[df["summary"].notna()])
       docset annotator  scu  weight  n_tokens
    0   31038        A1    1       4         4
    1   31038        A2    1       5         7
    """
    keys = [k for k in (docset, annotator, scu) if k is not None]
    columns = {"annotator": annotator, "scu": scu, "summary": summary}
    if docset is not None:
        columns = {"docset": docset, **columns}
    check_columns(data, **columns)
    for param, col in (("docset", docset), ("annotator", annotator)):
        if col is not None and data[col].isna().any():
            rows = list(data.index[data[col].isna().to_numpy()])
            raise InvalidParameterError(
                f"`{param}` column {col!r} has missing labels (rows {show(rows)}); every row "
                f"needs a {param}"
            )
    assigned = data[data[scu].notna().to_numpy()]
    no_summary = assigned[summary].isna().to_numpy()
    if no_summary.any():
        raise InvalidParameterError(
            f"`summary` column {summary!r} is missing in {int(no_summary.sum())} row(s) of SCUs "
            f"(rows {show(list(assigned.index[no_summary]))}); an SCU's weight counts the "
            "summaries of its contributors"
        )
    grouped = assigned.groupby(keys, sort=False)
    out = pd.DataFrame({"weight": grouped[summary].nunique(), "n_tokens": grouped.size()})
    return out.reset_index()


@declared(frontends=("frame",))
def mean_scu_weight(
    data: pd.DataFrame,
    *,
    docset,
    annotator: Hashable = "annotator",
    scu, summary,
) -> pd.Series:
    """Mean SCU weight (MSW) of each annotator's pyramid (Passonneau 2005, section 7).

    The mean over an annotator's SCUs in a docset of the SCU weights of
    :func:`scu_weights`. Unassigned words (missing SCU id) are not SCUs and do not count;
    an SCU of one word is an SCU of weight 1.

    Parameters
    ----------
    data : pandas.DataFrame
        As for :func:`scu_weights`. Not modified.
    docset, annotator, scu, summary : hashable
        Column names, as for :func:`scu_weights`.

    Returns
    -------
    pandas.Series
        Named ``"mean_scu_weight"``, indexed by (docset, annotator), or by annotator when
        ``docset=None``: the layout of Table 7 of the report.

    Examples
    --------
    Passonneau (2006), Figure 5: each annotator made one SCU of weight 2 and one of
    weight 1.

    >>> from pandas_agree import pyramid
    >>> from pandas_agree.datasets.passonneau import pyramid_figure5
    >>> pyramid.mean_scu_weight(pyramid_figure5(), docset=None)
    annotator
    A1    1.5
    A2    1.5
    Name: mean_scu_weight, dtype: float64
    """
    weights = scu_weights(data, docset=docset, annotator=annotator, scu=scu, summary=summary)
    keys = [k for k in (docset, annotator) if k is not None]
    msw = weights.groupby(keys, sort=False)["weight"].mean()
    return msw.astype(np.float64).rename("mean_scu_weight")
