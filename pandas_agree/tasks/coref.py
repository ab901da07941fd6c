r"""Reliability of coreference annotation (Passonneau 1997; Vilain et al. 1995).

Each coder sorts the same *markables* (mentions) into equivalence classes (*chains*) of
expressions that corefer; a markable in a class of its own is a *singleton*, a coded value
like any other. Two ways to compare codings:

* :func:`chains_to_codes` turns the chains into reliability data: the unit is the
  markable and its value the set of the *other* markables in its class, so that
  ``pandas_agree.alpha(codes, distance="masi")`` is Passonneau's set-valued coreference
  reliability (Passonneau 2006, section 3.3: "the coding unit itself must be removed").
* :func:`link_table` counts coreference links in the manner of Vilain et al. (1995) and
  arranges them in Passonneau's (1997, section 2.1) 2-by-2 table of links both coders make
  (``a``), links only one makes (``b``, ``c``) and possible links neither makes (``d``),
  from which come recall, precision, kappa and alpha (:func:`table_agreement` does the same
  for a given table).

Input is long data, one row per (document, coder, mention, chain). Chain ids are local to
a (document, coder): chain ``1`` of one coder has nothing to do with chain ``1`` of
another. A missing chain id (NaN, None) means the mention is in no chain, so it is a
singleton; it is not a missing rating.

References
----------
Passonneau, R. J. (1997). Applying reliability metrics to co-reference annotation.
Technical Report CUCS-017-97, Columbia University.

Passonneau, R. J. (2006). Measuring Agreement on Set-valued Items (MASI) for Semantic and
Pragmatic Annotation. LREC.

Vilain, M., Burger, J., Aberdeen, J., Connolly, D. and Hirschman, L. (1995). A
model-theoretic coreference scoring scheme. MUC-6.
"""

from __future__ import annotations

import numbers
import warnings
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd

from .._core.kernels import NominalKernel
from ..data.prepare import check_columns
from ..declare import declared
from ..errors import (
    DegenerateDataWarning,
    InvalidParameterError,
    user_stacklevel,
)
from ..results import Result
from .classes import Roles, check_flag, partition, partition_codes, show

__all__ = [
    "LinkAgreement",
    "MissingMarkables",
    "chains_to_codes",
    "link_table",
    "link_table_by_document",
    "table_agreement",
]

MissingMarkables = Literal["raise", "singleton"]
# The partition engine is shared with pandas_agree.tasks.pyramid.annotation: see
# pandas_agree.tasks.classes.
_COREF = Roles(
    group="document",
    coder="coder",
    item="mention",
    cls="chain",
    missing="missing_markables",
    item_noun="markable",
    cls_noun="chain",
)



# ---------------------------------------------------------------------------------------------
# Public: chains -> reliability data


@declared(frontends=("frame",))
def chains_to_codes(
    data: pd.DataFrame,
    *,
    document: Hashable | None = "document",
    coder: Hashable = "coder",
    mention: Hashable = "mention",
    chain: Hashable = "chain",
    keep_self: bool = False,
    missing_markables: MissingMarkables = "raise",
) -> pd.DataFrame:
    """Coreference chains as set-valued reliability data (Passonneau 2004, 2006).

    Each markable becomes a unit; a coder's value for it is the frozenset of the other
    markables in the chain that coder put it in (the empty set for a singleton). Then
    ``pandas_agree.alpha(codes, distance="masi")`` is Passonneau's coreference reliability.

    Parameters
    ----------
    data : pandas.DataFrame
        Long data, one row per (document, coder, mention, chain). Not modified.
    document : hashable or None, default "document"
        Column naming the document; ``None`` when all rows belong to one document.
    coder, mention, chain : hashable
        Columns naming the coder, the markable and the coder's chain (equivalence class)
        for it. Chain ids are local to a (document, coder). A missing chain id (NaN, None)
        puts the mention in no chain: a singleton.
    keep_self : bool, default False
        Keep the markable itself in its set. The papers remove it ("Before comparing the
        sets [...] the coding unit itself must be removed. Otherwise, the coding values
        will necessarily intersect", Passonneau 2006, section 3.3).
    missing_markables : {"raise", "singleton"}, default "raise"
        Passonneau (1997, section 2.1) requires every coder to classify the same markables.
        When a coder of a document lacks a markable another coder of that document has,
        raise (default) or add it for that coder as a singleton. A coder with no row at all
        in a document did not code it (missing data, which alpha allows) and is not checked.

    Returns
    -------
    pandas.DataFrame
        One row per (document, coder, mention), the input rows first in input order, then
        any added singletons. Columns: ``document`` (under its own name, when given), the
        mention column (under its own name, unless named ``unit``, ``coder`` or ``value``),
        ``unit``, ``coder`` and ``value``. With a document column, ``unit`` is the pair
        ``(document, mention)`` and the sets hold such pairs, so units and set elements from
        different documents never coincide; without, both are the mention labels.

    Raises
    ------
    ColumnNotFoundError
        A named column is not in ``data`` (pass ``document=None`` for one document).
    InvalidParameterError
        Missing document, coder or mention labels; markables that differ between coders
        (with ``missing_markables="raise"``); a bad ``keep_self`` or ``missing_markables``.
    DuplicateRatingError
        A coder lists the same mention twice in a document (a markable belongs to exactly
        one chain).

    See Also
    --------
    link_table : Passonneau's (1997) 2-by-2 link table, recall, precision and kappa.
    pandas_agree.tasks.pyramid.annotation.scus_to_codes : the same conversion for pyramid SCUs.

    Examples
    --------
    Sample 2 of Passonneau (1997), Figure 2: coder CA1 puts D in the engine chain
    {A, B, D, G, I}, CA3 puts it with D' ("that").

    >>> import pandas_agree as pa
    >>> from pandas_agree import coref
    >>> from pandas_agree.datasets.passonneau import coref_sample2
    >>> codes = coref.chains_to_codes(coref_sample2(), document=None)
    >>> rows = codes[codes["mention"].isin(["D", "D'"])].sort_values(["mention", "coder"])
    >>> rows.assign(value=rows["value"].map(sorted))
       mention unit coder         value
    3        D    D   CA1  [A, B, G, I]
    14       D    D   CA3          [D']
    4       D'   D'   CA1            []
    15      D'   D'   CA3           [D]
    >>> pa.alpha(codes, distance="masi")
    AlphaResult(alpha=0.6100, distance='masi', n_units=11, n_coders=2, n_pairable=22)
    """
    return partition_codes(
        data, document, coder, mention, chain, keep_self, missing_markables, _COREF
    )


# ---------------------------------------------------------------------------------------------
# Public: the 2-by-2 link table

# The statistics of a link table (from _table_stats), in the order of LinkAgreement.to_series.
_STAT_COLUMNS = (
    "kappa",
    "alpha",
    "krippendorff_alpha",
    "recall",
    "precision",
    "observed_agreement",
    "expected_agreement",
)


@dataclass(frozen=True)
class LinkAgreement(Result):
    """Passonneau's (1997) 2-by-2 link table and the statistics computed from it.

    ``float(result)`` is Cohen's ``kappa``, the statistic the report tabulates (Tables 3, 4).

    Attributes
    ----------
    kappa : float
        Cohen's kappa, ``(p_AO - p_AE) / (1 - p_AE)``, each coder's own marginals
        (Passonneau 1997, eqs. (1), (20)-(23)).
    alpha : float
        ``1 - p_DO / p_DE`` as the report computes it from the table (eqs. (2), (24)-(27)):
        ``p_DO = (b + c) / n``, ``p_DE`` from each coder's own marginals. The report shows
        (eqs. (5)-(8)) that this equals ``kappa``; both are given as the report gives both.
    krippendorff_alpha : float
        Krippendorff's alpha of the table read as two coders rating ``n`` links, nominal
        (pooled marginals and the ``2n - 1`` small-sample correction): what
        :func:`pandas_agree.alpha` returns on those links. Not in the 1997 report.
    recall, precision : float
        Vilain et al.'s recall ``a / (a + c)`` and precision ``a / (a + b)`` of the second
        coding (the response) against the first (the key) (eqs. (16), (17)). NaN when the
        key (recall) or the response (precision) has no links.
    observed_agreement, expected_agreement : float
        ``p_AO = (a + d) / n`` and ``p_AE`` (eqs. (21), (22)).
    a, b, c, d : int or float
        Links both codings make; links only the response makes; links only the key makes;
        possible links neither makes (``d = n - a - b - c``).
    n_markables, n_documents : int or None
        Markables and documents counted (None for a table given directly).
    coders : tuple or None
        ``(key, response)``: the column and the row coding of the table.
    """

    kappa: float
    alpha: float
    krippendorff_alpha: float
    recall: float
    precision: float
    observed_agreement: float
    expected_agreement: float
    a: float
    b: float
    c: float
    d: float
    n_markables: int | None = None
    n_documents: int | None = None
    coders: tuple[Hashable, Hashable] | None = None

    _headline = "kappa"
    _series_fields = (*_STAT_COLUMNS, "a", "b", "c", "d", "n", "n_markables", "n_documents")
    _series_name = "link_table"

    @property
    def n(self) -> float:
        """Table total: possible links, ``sum(markables - 1)`` over documents."""
        return self.a + self.b + self.c + self.d

    @property
    def table(self) -> pd.DataFrame:
        """The table as printed in the report: rows the response, columns the key."""
        key, resp = self.coders if self.coders is not None else ("key", "response")
        labels = ["+link", "-link"]
        return pd.DataFrame(
            [[self.a, self.b], [self.c, self.d]],
            index=pd.Index(labels, name=resp),
            columns=pd.Index(labels, name=key),
        )

    def __repr__(self) -> str:
        return (
            f"LinkAgreement(kappa={self.kappa:.4f}, recall={self.recall:.4f}, "
            f"precision={self.precision:.4f}, a={self.a:g}, b={self.b:g}, c={self.c:g}, "
            f"d={self.d:g})"
        )


def _table_stats(a: Any, b: Any, c: Any, d: Any) -> dict[str, np.ndarray]:
    """Statistics of 2-by-2 link tables, vectorised over arrays of cells."""
    a, b, c, d = (np.asarray(x, dtype=float) for x in (a, b, c, d))
    n = a + b + c + d
    with np.errstate(divide="ignore", invalid="ignore"):
        response_pos = (a + b) / n  # row marginal: links the response makes
        key_pos = (a + c) / n  # column marginal: links the key makes
        p_ao = (a + d) / n
        p_ae = response_pos * key_pos + (1 - response_pos) * (1 - key_pos)
        kappa = (p_ao - p_ae) / (1 - p_ae)
        p_do = (b + c) / n
        p_de = response_pos * (1 - key_pos) + key_pos * (1 - response_pos)
        alpha = 1 - p_do / p_de
        # Krippendorff's alpha of n links rated by two coders: 2n pairable values, value
        # marginals 2a + b + c (+link) and 2d + b + c (-link), E from the nominal kernel;
        # O = 2 (b + c), two ordered pairs of different values per link the coders split.
        n_values = 2 * n
        marginals = np.stack([2 * a + b + c, 2 * d + b + c], axis=-1).reshape(-1, 2)
        expected = NominalKernel().expected_sums(marginals).reshape(np.shape(n))
        k_alpha = 1 - (n_values - 1) * (2 * (b + c)) / expected
        recall = a / (a + c)
        precision = a / (a + b)
    # 0/0 and x/0 are undefined here, never infinite
    out = {
        "kappa": kappa,
        "alpha": alpha,
        "krippendorff_alpha": k_alpha,
        "recall": recall,
        "precision": precision,
        "observed_agreement": p_ao,
        "expected_agreement": p_ae,
    }
    return {k: np.where(np.isfinite(v), v, np.nan) for k, v in out.items()}


def _cell(value: Any, name: str) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise InvalidParameterError(f"`{name}` must be a non-negative count, got {value!r}")
    if not np.isfinite(float(value)) or value < 0:
        raise InvalidParameterError(f"`{name}` must be a non-negative count, got {value!r}")
    return int(value) if isinstance(value, numbers.Integral) else float(value)


def _warn_undefined(kappa: float, where: str = "") -> None:
    if np.isnan(kappa):
        warnings.warn(
            f"kappa is NaN{where}: expected agreement is 1 (every link, or every non-link, "
            "is agreed by both codings and the table has no other margin)",
            DegenerateDataWarning,
            stacklevel=user_stacklevel(),
        )


def table_agreement(a: float, b: float, c: float, d: float) -> LinkAgreement:
    """Recall, precision, kappa and alpha of a 2-by-2 link table (Passonneau 1997, Figure 3).

    Parameters
    ----------
    a, b, c, d : non-negative int or float
        Links both codings make; links only the response (row coding) makes; links only
        the key (column coding) makes; possible links neither makes. For an ordinary
        agreement table: ``[[a, b], [c, d]]`` with rows one coder, columns the other.

    Returns
    -------
    LinkAgreement
        ``float(result)`` is kappa; ``n_markables``, ``n_documents`` and ``coders`` are
        None. kappa and alpha are NaN, with a
        :class:`~pandas_agree.errors.DegenerateDataWarning`, when the expected agreement is 1.

    Raises
    ------
    InvalidParameterError
        A cell is negative, not finite or not a number, or all cells are zero.

    Examples
    --------
    Passonneau (1997), Table 3 (a coder against the consensus coding of a Pear story):
    kappa .65.

    >>> from pandas_agree import coref
    >>> res = coref.table_agreement(166, 19, 13, 44)
    >>> round(res.kappa, 2)
    0.65

    Table 1 of the report, judges X and Y: alpha = kappa = .50.

    >>> t1 = coref.table_agreement(47, 14, 10, 29)
    >>> round(t1.kappa, 2), round(t1.alpha, 2)
    (0.5, 0.5)
    """
    a, b, c, d = (_cell(v, name) for v, name in zip((a, b, c, d), "abcd"))
    if a + b + c + d == 0:
        raise InvalidParameterError("the table is empty: a + b + c + d must be positive, got 0")
    stats = {k: float(v) for k, v in _table_stats(a, b, c, d).items()}
    _warn_undefined(stats["kappa"])
    return LinkAgreement(**stats, a=a, b=b, c=c, d=d)


def _resolve_pair(data: pd.DataFrame, coders: Any, coder: Hashable) -> tuple[Hashable, Hashable]:
    present = pd.unique(data[coder].dropna())
    if coders is None:
        if len(present) != 2:
            raise InvalidParameterError(
                f"`coders` is needed when the `coder` column {coder!r} does not hold exactly "
                f"two coders; it holds {len(present)}: {show(list(present))}. Pass "
                "coders=(key, response)"
            )
        return present[0], present[1]
    if isinstance(coders, (str, bytes)) or not isinstance(coders, Sequence) or len(coders) != 2:
        raise InvalidParameterError(
            f"`coders` must be a pair (key, response) of coder labels, got {coders!r}"
        )
    key, resp = coders
    if key == resp:
        raise InvalidParameterError(f"`coders` must name two different coders, got {coders!r}")
    known = set(present.tolist())
    for label in (key, resp):
        if label not in known:
            raise InvalidParameterError(
                f"`coders` names {label!r}, which is not in the `coder` column {coder!r}; "
                f"its coders are {show(list(present))}"
            )
    return key, resp


@declared(frontends=("frame",))
def link_table(
    data: pd.DataFrame,
    coders: tuple[Hashable, Hashable] | None = None,
    *,
    document: Hashable | None = "document",
    coder: Hashable = "coder",
    mention: Hashable = "mention",
    chain: Hashable = "chain",
    missing_markables: MissingMarkables = "raise",
    per_document: bool = False,
) -> LinkAgreement:
    r"""Passonneau's (1997) 2-by-2 table of coreference links, from Vilain et al. (1995).

    Links are counted as in Vilain et al.'s scorer: a class of ``k`` markables has
    ``k - 1`` links (a spanning tree), and links are compared through partitions. With
    ``N`` markables, ``K`` classes in the key coding, ``R`` in the response and ``M``
    cells in the partition both codings induce together (the non-empty intersections of a
    key class with a response class, Passonneau's ``p(CA)``):

    .. math::

        a = N - M, \quad b = M - K_R, \quad c = M - K_K, \quad d = K_R + K_K - M - 1

    writing ``K_K = K`` and ``K_R = R``; so ``a + b + c + d = N - 1``, the table total of
    section 2.1. ``a`` is :math:`\sum_i |C_i| - |p(C_i)|` over key classes (eqs. (11),
    (16)), ``b`` and ``c`` the links of the response and of the key less ``a``.

    Parameters
    ----------
    data : pandas.DataFrame
        Long data, one row per (document, coder, mention, chain), as for
        :func:`chains_to_codes`. Rows of other coders are ignored. Not modified.
    coders : (key, response), optional
        The two codings compared. The key is the table's column coding, the target of
        recall (``a / (a + c)``); the response its row coding, judged by precision
        (``a / (a + b)``). kappa and alpha are symmetric. Default: the two coders of
        ``data`` in order of first appearance (an error if there are not exactly two).
    document, coder, mention, chain : hashable
        Column names, as for :func:`chains_to_codes`; ``document=None`` for one document.
    missing_markables : {"raise", "singleton"}, default "raise"
        When one of the two coders lacks a markable of a document the other has: raise,
        or count it as a singleton for that coder (what the report does with D' in CA1).
    per_document : bool, default False
        Deprecated: ``per_document=True`` returns
        :func:`link_table_by_document` (a DataFrame) with a ``DeprecationWarning``; call
        that function instead.

    Returns
    -------
    LinkAgreement
        The tables summed over documents (summing cells is summing links, so the total is
        ``sum(N_doc - 1)``); ``float(result)`` is kappa.

    Raises
    ------
    InvalidParameterError
        Bad ``coders``; a document that only one of the two coders coded; markables that
        differ between the two (with ``missing_markables="raise"``); the errors of
        :func:`chains_to_codes`.

    Warns
    -----
    DegenerateDataWarning
        When ``d < 0``: the codings cross (for example {A, B}, {C, D} against {A, C},
        {B, D}) so that the links of the two codings outnumber the ``N - 1`` possible links
        the report's table total allows; the cells are still reported as defined. Also when
        kappa is undefined.

    See Also
    --------
    link_table_by_document : one table per document, as a DataFrame.

    Examples
    --------
    Passonneau (1997), Figure 2 and Table 2: codings CA1 (key) and CA3 of sample 2.

    >>> from pandas_agree import coref
    >>> from pandas_agree.datasets.passonneau import coref_sample2
    >>> res = coref.link_table(coref_sample2(), coders=("CA1", "CA3"))
    >>> res
    LinkAgreement(kappa=0.5238, recall=0.8571, precision=0.8571, a=6, b=1, c=1, d=2)
    >>> res.table
    CA1    +link  -link
    CA3
    +link      6      1
    -link      1      2
    >>> round(res.alpha, 2), round(res.observed_agreement, 2), round(res.expected_agreement, 2)
    (0.52, 0.8, 0.58)
    """
    if check_flag(per_document, "per_document"):
        warnings.warn(
            "link_table(per_document=True) is deprecated: it returns a DataFrame, not a "
            "LinkAgreement; call coref.link_table_by_document(...) instead",
            DeprecationWarning,
            stacklevel=user_stacklevel(),
        )
        return link_table_by_document(  # type: ignore[return-value]
            data,
            coders,
            document=document,
            coder=coder,
            mention=mention,
            chain=chain,
            missing_markables=missing_markables,
        )
    cells, n_items, key, resp = _link_cells(
        data, coders, document, coder, mention, chain, missing_markables
    )
    totals = {k: int(v) for k, v in cells.sum().items()}
    stats = {k: float(v) for k, v in _table_stats(**totals).items()}
    _warn_undefined(stats["kappa"])
    return LinkAgreement(
        **stats,
        **totals,
        n_markables=int(n_items.sum()),
        n_documents=len(cells),
        coders=(key, resp),
    )


@declared(frontends=("frame",))
def link_table_by_document(
    data: pd.DataFrame,
    coders: tuple[Hashable, Hashable] | None = None,
    *,
    document: Hashable = "document",
    coder: Hashable = "coder",
    mention: Hashable = "mention",
    chain: Hashable = "chain",
    missing_markables: MissingMarkables = "raise",
) -> pd.DataFrame:
    """Passonneau's (1997) 2-by-2 link table of each document, one row per document.

    The cells and statistics of :func:`link_table`, not summed over documents: the layout
    of the report's Table 4 (one table per narrative).

    Parameters
    ----------
    data : pandas.DataFrame
        Long data, one row per (document, coder, mention, chain). Not modified.
    coders : (key, response), optional
        The two codings compared, as for :func:`link_table`.
    document, coder, mention, chain : hashable
        Column names; a ``document`` column is required.
    missing_markables : {"raise", "singleton"}, default "raise"
        As for :func:`link_table`.

    Returns
    -------
    pandas.DataFrame
        Indexed by document (in order of first appearance), with columns ``a``, ``b``,
        ``c``, ``d``, ``n``, ``n_markables`` and the statistics of :class:`LinkAgreement`
        (``kappa``, ``alpha``, ``krippendorff_alpha``, ``recall``, ``precision``,
        ``observed_agreement``, ``expected_agreement``). A document whose kappa is
        undefined has NaN statistics and a :class:`~pandas_agree.errors.DegenerateDataWarning`.

    Raises
    ------
    InvalidParameterError
        ``document=None``, and everything :func:`link_table` raises.

    Examples
    --------
    Passonneau (1997), Figure 2 and Table 2 (codings CA1 and CA3 of sample 2, one document):

    >>> from pandas_agree import coref
    >>> from pandas_agree.datasets.passonneau import coref_sample2
    >>> per = coref.link_table_by_document(coref_sample2(), coders=("CA1", "CA3"))
    >>> per[["a", "b", "c", "d", "n", "n_markables"]]
              a  b  c  d   n  n_markables
    document
    sample2   6  1  1  2  10           11
    >>> round(float(per.loc["sample2", "kappa"]), 4)
    0.5238
    """
    if document is None:
        raise InvalidParameterError(
            "`link_table_by_document` needs a `document` column, got document=None (per "
            "document tables need documents; use link_table for one table)"
        )
    cells, n_items, _, _ = _link_cells(
        data, coders, document, coder, mention, chain, missing_markables
    )
    table = cells.assign(n=cells.sum(axis=1), n_markables=n_items)
    stats = _table_stats(cells["a"], cells["b"], cells["c"], cells["d"])
    table = table.assign(**stats)
    table.index = pd.Index(table.index, name=document)
    undefined = table.index[table["kappa"].isna()]
    if len(undefined):
        warnings.warn(
            f"kappa is NaN in {document!r} {show(list(undefined))}: expected agreement is 1 there",
            DegenerateDataWarning,
            stacklevel=user_stacklevel(),
        )
    return table


def _link_cells(
    data: pd.DataFrame,
    coders: Any,
    document: Hashable | None,
    coder: Hashable,
    mention: Hashable,
    chain: Hashable,
    missing_markables: Any,
) -> tuple[pd.DataFrame, pd.Series, Hashable, Hashable]:
    """Cells ``a, b, c, d`` per document (rows in order of appearance), markables per document,
    and the resolved ``(key, response)``; validates and warns when ``d < 0``."""
    check_columns(data, coder=coder)
    key, resp = _resolve_pair(data, coders, coder)
    subset = data[data[coder].isin([key, resp]).to_numpy()]
    frame = partition(
        subset,
        group=document,
        coder=coder,
        item=mention,
        cls=chain,
        missing=missing_markables,
        roles=_COREF,
    )
    n_coders = frame.groupby("g", sort=False)["coder"].nunique()
    single = n_coders[n_coders < 2]
    if len(single):
        raise InvalidParameterError(
            f"only one of `coders` {[key, resp]!r} coded the document(s) "
            f"{show(list(single.index))} of `document` column {document!r}; a link table "
            "compares two codings of the same markables: leave those documents out"
        )
    cols = ["g", "item", "cls"]
    both = frame.loc[frame["coder"] == key, cols].merge(
        frame.loc[frame["coder"] == resp, cols], on=["g", "item"], suffixes=("_key", "_resp")
    )
    both["pair"] = both["cls_key"] * (int(frame["cls"].max()) + 1) + both["cls_resp"]
    by_doc = both.groupby("g", sort=False)
    n_items = by_doc.size()
    k_key = by_doc["cls_key"].nunique()
    k_resp = by_doc["cls_resp"].nunique()
    meet = by_doc["pair"].nunique()
    cells = pd.DataFrame(
        {
            "a": n_items - meet,
            "b": meet - k_resp,
            "c": meet - k_key,
            "d": k_resp + k_key - meet - 1,
        }
    )
    negative = cells.index[cells["d"] < 0]
    if len(negative):
        where = f" in {document!r} {show(list(negative))}" if document is not None else ""
        warnings.warn(
            f"d < 0{where}: the codings cross, so their links outnumber the N - 1 possible "
            "links of the report's table total; the table is not a proper contingency table",
            DegenerateDataWarning,
            stacklevel=user_stacklevel(),
        )
    return cells, n_items, key, resp
