"""Examples from Passonneau's coreference (1997) and MASI (2006) papers, as long DataFrames.

* :func:`coref_sample2`: sample 2 of Passonneau (1997), the Trains 91 dialogue excerpt,
  coded for coreference (Figure 1: codings CA1 and CA2; Figure 2: CA1 and CA3).
* :func:`pyramid_figure1` and :func:`pyramid_figure5`: the SCUs of two annotators in
  Passonneau (2006), Figures 1 and 5.

Each loader returns a new DataFrame, so callers may modify it freely.
"""

from __future__ import annotations

import pandas as pd

from ..errors import InvalidParameterError

__all__ = ["coref_sample2", "pyramid_figure1", "pyramid_figure5"]

# Passonneau (1997), Figures 1 and 2: token, string, and each coding's chain index.
_SAMPLE2 = [
    # token, string, CA1 (Figure 1), CA2 (Figure 1), CA1 (Figure 2), CA3 (Figure 2)
    ("A", "engine E1", 1, 1, 1, 1),
    ("B", "it", 1, 1, 1, 1),
    ("C", "a boxcar", 2, 2, 2, 2),
    ("D", "it", 1, 2, 1, 3),
    ("D'", "that", None, None, 4, 3),
    ("E", "the boxcar", 2, 2, 2, 2),
    ("F", "the boxcar", 2, 2, 2, 2),
    ("G", "E1", 1, 1, 1, 1),
    ("H", "the oranges", 3, 3, 3, 4),
    ("I", "E1", 1, 1, 1, 1),
    ("J", "the oranges", 3, 3, 3, 4),
]


def coref_sample2(figure: int = 2) -> pd.DataFrame:
    """Sample 2 of Passonneau (1997), coded for coreference by two coders.

    Parameters
    ----------
    figure : {1, 2}, default 2
        ``2``: codings CA1 and CA3 of Figure 2, eleven markables A-J and D' ("that"),
        which CA1 leaves a singleton (index 4) and CA3 puts with D (the report's worked
        example of section 2.1). ``1``: codings CA1 and CA2 of Figure 1, ten markables
        A-J (no D'); CA2 puts D with the boxcar instead of the engine.

    Returns
    -------
    pandas.DataFrame
        Columns ``document`` (``"sample2"``), ``coder``, ``mention`` (the report's token
        letter), ``string`` (the expression) and ``chain`` (the coding's index), one row
        per (coder, mention), in the figure's order.

    Examples
    --------
    >>> coref_sample2().groupby("coder")["chain"].nunique().to_dict()
    {'CA1': 4, 'CA3': 4}
    >>> coref_sample2(figure=1).shape
    (20, 5)
    """
    if figure not in (1, 2) or isinstance(figure, bool):
        raise InvalidParameterError(f"`figure` must be 1 or 2, got {figure!r}")
    codings = {"CA1": 2, "CA2": 3} if figure == 1 else {"CA1": 4, "CA3": 5}
    records = [
        ("sample2", name, row[0], row[1], row[col])
        for name, col in codings.items()
        for row in _SAMPLE2
        if row[col] is not None
    ]
    df = pd.DataFrame(records, columns=["document", "coder", "mention", "string", "chain"])
    return df.astype({"chain": "int64"})


_SPANS = {
    1: "Saudi Arabian officials, under American pressure",
    2: "sought help from Saudi officials",
    3: "Through the Saudis, the United States asked",
    4: "U.S. and Saudi Arabian requests",
    5: "asked Afghan leaders",
    6: "U.S. and Saudi officials then attempted",
    7: "who tried to convince Taliban leaders",
}


def pyramid_figure1() -> pd.DataFrame:
    """The two annotators' SCUs of Passonneau (2006), Figure 1 (docset 31038), by span.

    Annotator A1 made the SCU "Americans asked Saudi officials for help" (weight 4) of
    spans 1-4, put spans 5 and 7 in a distinct SCU ("Saudi officials asked Afghan leaders
    to release Bin Laden", whose other contributors the paper omits) and span 6 in a
    singleton SCU (no label printed). A2 made one SCU, "Through the Saudis, the U.S. tried
    to get cooperation from the Taliban" (weight 5), of all seven spans.

    Returns
    -------
    pandas.DataFrame
        Columns ``docset`` (31038), ``annotator``, ``scu`` (an id local to the annotator),
        ``label``, ``summary``, ``span`` (the span's number in the figure) and ``text``.
        ``summary`` is the model summary a span comes from *as printed in that
        annotator's SCU box* (``"Sum1"`` ...): the numbering is per box, not global (span
        2 is Sum2 for A1, Sum3 for A2), so it is only meaningful within an SCU. It is
        missing for A1's spans 5-7, whose SCUs the figure does not print.

    Examples
    --------
    >>> pyramid_figure1().groupby("annotator")["scu"].nunique().to_dict()
    {'A1': 3, 'A2': 1}
    """
    a1_label = "Americans asked Saudi officials for help"
    a1_57 = "Saudi officials asked Afghan leaders to release Bin Laden"
    a2_label = "Through the Saudis, the U.S. tried to get cooperation from the Taliban"
    rows = [
        ("A1", 1, a1_label, "Sum1", 1),
        ("A1", 1, a1_label, "Sum2", 2),
        ("A1", 1, a1_label, "Sum3", 3),
        ("A1", 1, a1_label, "Sum4", 4),
        ("A1", 2, a1_57, None, 5),
        ("A1", 3, None, None, 6),
        ("A1", 2, a1_57, None, 7),
        ("A2", 1, a2_label, "Sum1", 1),
        ("A2", 1, a2_label, "Sum1", 5),
        ("A2", 1, a2_label, "Sum2", 6),
        ("A2", 1, a2_label, "Sum3", 2),
        ("A2", 1, a2_label, "Sum3", 7),
        ("A2", 1, a2_label, "Sum4", 3),
        ("A2", 1, a2_label, "Sum5", 4),
    ]
    df = pd.DataFrame(rows, columns=["annotator", "scu", "label", "summary", "span"])
    df.insert(0, "docset", 31038)
    df["text"] = df["span"].map(_SPANS)
    return df


def pyramid_figure5() -> pd.DataFrame:
    """Two annotators' non-monotonic SCUs of Passonneau (2006), Figure 5, by span.

    A1: SCU-101 "Worker's agree to Estrada's terms" (weight 2: spans 1, 2) and SCU-102
    "Ground crew accepts 2 weeks after initial rejection" (weight 1: span 3). A2: SCU-201
    "The settlement was finally accepted" (weight 2: spans 1, 3) and SCU-202 "Unions agree
    to some employee cuts" (weight 1: span 2). The paper notes (footnote 2) that SCU-201
    is simplified: in the actual data it had a third contributor. The figure names no
    docset, so there is no docset column.

    Returns
    -------
    pandas.DataFrame
        Columns ``annotator``, ``scu``, ``label``, ``summary`` (as printed in each SCU
        box), ``span`` and ``text``.

    Examples
    --------
    >>> pyramid_figure5()[["annotator", "scu", "span"]].to_numpy().tolist()[:3]
    [['A1', 101, 1], ['A1', 101, 2], ['A1', 102, 3]]
    """
    texts = {
        1: "61% voted yes",
        2: "Unions agreed to some employee cuts with separation benefits",
        3: "which it accepted two weeks later",
    }
    rows = [
        ("A1", 101, "Worker's agree to Estrada's terms", "Sum1", 1),
        ("A1", 101, "Worker's agree to Estrada's terms", "Sum2", 2),
        ("A1", 102, "Ground crew accepts 2 weeks after initial rejection", "Sum3", 3),
        ("A2", 201, "The settlement was finally accepted", "Sum1", 1),
        ("A2", 201, "The settlement was finally accepted", "Sum2", 3),
        ("A2", 202, "Unions agree to some employee cuts", "Sum3", 2),
    ]
    df = pd.DataFrame(rows, columns=["annotator", "scu", "label", "summary", "span"])
    df["text"] = df["span"].map(texts)
    return df
