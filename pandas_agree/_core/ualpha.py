r"""Krippendorff's u-alpha family on unitized continua (numpy only, no pandas).

Each of :math:`m_d` coders divides the continuum :math:`[0, L_d)` of document :math:`d` into
mutually exclusive segments: *units*, each with one of :math:`V` values (codes ``0 .. V-1``),
and the *gaps* between them (code ``V``, written :math:`\varnothing`). Everything the family
needs is a sum over documents of per-document statistics, computed here in one pass over
all documents:

* the observed coincidences (Krippendorff 2019, eq. 32; Krippendorff et al. 2016, eq. 1)

  .. math:: l_{ck} = \frac{1}{m - 1} \sum_i \sum_{j \ne i} \sum_g \sum_h
            |c_{ig} \cap k_{jh}|,

  the length shared by a segment of value :math:`c` of one coder and a segment of value
  :math:`k` of another, over ordered pairs of coders. Its margins are
  :math:`l_{c\cdot} = \sum_i \sum_g l_{icg}`, the total length of value :math:`c`;
  :math:`l_{\cdot\cdot} = mL`;
* the *self-pairing* sums that keep a unit from being paired with itself in the expected
  coincidences (eq. 33): :math:`S_c = \sum_i \sum_g l_{icg}^2` for a value and
  :math:`S_\varnothing = \sum_i \sum_g l_{i\varnothing g}` for the gaps, which count as
  one-position pieces;
* for :math:`{}_{cu}\alpha`, the restriction :math:`l^*_{ck}` of :math:`l_{ck}` to values
  (no gap row or column), its margins :math:`l^*_{c\cdot}` and the self-pairing sums
  :math:`S^*_c = \sum_i \sum_g (l^*_{icg})^2`, where :math:`l^*_{icg}` is unit :math:`g`'s
  own share of :math:`l^*_{c\cdot}`:

  .. math:: l^*_{icg} = \frac{1}{m - 1} \sum_{j \ne i} |c_{ig} \cap \textstyle\bigcup_h
            k_{jh \ne \varnothing}|.

How: in each document, the boundaries of all coders' units cut the continuum into
elementary pieces on which every coder has one segment. With :math:`n_{tc}` coders holding
value :math:`c` on piece :math:`t` of length :math:`\lambda_t`,
:math:`l_{ck} = \sum_t \lambda_t (n_{tc} n_{tk} - [c = k] n_{tc}) / (m - 1)`, and a unit's
:math:`l^*_{icg}` is :math:`\sum_{t \subseteq g} \lambda_t (n^*_t - 1) / (m - 1)` with
:math:`n^*_t` the coders holding any value on :math:`t`. The pieces number at most twice
the units plus one per document; no loop over positions or coder pairs.

:func:`family` turns (sums of) these statistics into the four coefficients, vectorised over
a leading axis (documents, the pooled data, bootstrap replicates).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = [
    "UnitizedStats",
    "family",
    "observed_by_value",
    "statistics",
]


@dataclass(frozen=True)
class UnitizedStats:
    """Per-document sufficient statistics of the u-alpha family (``D`` documents, ``V`` values).

    Attributes
    ----------
    m : (D,) int
        Coders per document. Documents with fewer than two coders have all-zero statistics.
    length : (D,) int
        :math:`L_d`.
    margin : (D, V + 1)
        :math:`l_{c\\cdot}`, the gap last.
    self_pairs : (D, V + 1)
        :math:`S_c`, the gap last.
    diagonal : (D, V + 1)
        :math:`l_{cc}`, the gap last.
    cu_margin, cu_self_pairs : (D, V)
        :math:`l^*_{c\\cdot}` and :math:`S^*_c`.
    cell_doc, cell_c, cell_k, cell_value : (E,)
        The non-zero :math:`l^*_{ck}` of every document, one entry per (document, c, k).
    unit_share : (U,)
        :math:`l^*_{icg}` of each unit, in input order.
    """

    m: np.ndarray
    length: np.ndarray
    margin: np.ndarray
    self_pairs: np.ndarray
    diagonal: np.ndarray
    cu_margin: np.ndarray
    cu_self_pairs: np.ndarray
    cell_doc: np.ndarray
    cell_c: np.ndarray
    cell_k: np.ndarray
    cell_value: np.ndarray
    unit_share: np.ndarray


def statistics(
    pair: np.ndarray,
    value: np.ndarray,
    start: np.ndarray,
    end: np.ndarray,
    pair_doc: np.ndarray,
    doc_length: np.ndarray,
    n_values: int,
) -> UnitizedStats:
    """The statistics of :class:`UnitizedStats` for units given as flat arrays.

    Parameters
    ----------
    pair : (U,) int
        The (document, coder) pair of each unit: an index into ``pair_doc``.
    value : (U,) int
        The unit's value, ``0 .. n_values - 1``.
    start, end : (U,) int
        The unit's positions ``[start, end)`` on its document, ``0 <= start < end <= L``.
        Units of one pair must not overlap (checked by the caller).
    pair_doc : (P,) int
        The document of each (document, coder) pair, ``0 .. D - 1``; a document's pairs are
        its coders.
    doc_length : (D,) int
        :math:`L_d > 0` of each document.
    n_values : int
        ``V``.
    """
    pair = np.asarray(pair, dtype=np.int64)
    value = np.asarray(value, dtype=np.int64)
    start = np.asarray(start, dtype=np.int64)
    end = np.asarray(end, dtype=np.int64)
    pair_doc = np.asarray(pair_doc, dtype=np.int64)
    doc_length = np.asarray(doc_length, dtype=np.int64)
    n_docs, n_pairs, v1 = doc_length.size, pair_doc.size, n_values + 1
    gap = n_values
    m = np.bincount(pair_doc, minlength=n_docs).astype(np.int64)
    ok_doc = m >= 2
    u_doc = pair_doc[pair]
    u_len = (end - start).astype(float)
    u_ok = ok_doc[u_doc]

    # Margins and the self-pairing sums of eq. 33: values from the units, the gap the rest.
    key_dv = u_doc * v1 + value
    margin = np.bincount(key_dv[u_ok], weights=u_len[u_ok], minlength=n_docs * v1)
    margin = margin.reshape(n_docs, v1)
    self_pairs = np.bincount(key_dv[u_ok], weights=u_len[u_ok] ** 2, minlength=n_docs * v1)
    self_pairs = self_pairs.reshape(n_docs, v1)
    gap_len = np.where(ok_doc, m * doc_length.astype(float) - margin[:, :gap].sum(axis=1), 0.0)
    margin[:, gap] = gap_len
    self_pairs[:, gap] = gap_len

    # Elementary pieces: every document cut at 0, L and every unit boundary.
    scale = int(doc_length.max(initial=0)) + 1
    docs = np.arange(n_docs, dtype=np.int64)
    bounds = np.unique(
        np.concatenate(
            [u_doc * scale + start, u_doc * scale + end, docs * scale, docs * scale + doc_length]
        )
    )
    b_doc, b_pos = np.divmod(bounds, scale)
    inner = b_doc[1:] == b_doc[:-1]
    t_doc = b_doc[:-1][inner]
    t_start = b_pos[:-1][inner]
    t_len = (b_pos[1:] - b_pos[:-1])[inner].astype(float)
    n_pieces = np.bincount(t_doc, minlength=n_docs)
    t_first = np.cumsum(n_pieces) - n_pieces

    # Cells: every coder of a document on every piece of it, with the segment it holds there.
    per_pair = n_pieces[pair_doc]
    n_cells = int(per_pair.sum())
    cell_pair = np.repeat(np.arange(n_pairs, dtype=np.int64), per_pair)
    pair_first = np.cumsum(per_pair) - per_pair
    offset = np.arange(n_cells, dtype=np.int64) - np.repeat(pair_first, per_pair)
    cell_t = t_first[pair_doc[cell_pair]] + offset
    cell_unit = np.full(n_cells, -1, dtype=np.int64)
    cell_val = np.full(n_cells, gap, dtype=np.int64)
    if pair.size:  # the unit of the cell's coder starting last at or before the piece
        order = np.lexsort((start, pair))
        s_key = pair[order] * scale + start[order]
        q = np.searchsorted(s_key, cell_pair * scale + t_start[cell_t], side="right") - 1
        qc = np.clip(q, 0, None)
        held = (q >= 0) & (pair[order][qc] == cell_pair) & (end[order][qc] > t_start[cell_t])
        cell_unit = np.where(held, order[qc], -1)
        cell_val = np.where(held, value[order][qc], gap)
    cell_ok = ok_doc[pair_doc[cell_pair]]
    cell_t, cell_unit, cell_val = cell_t[cell_ok], cell_unit[cell_ok], cell_val[cell_ok]
    n_t = t_doc.size

    # n_tc: coders per (piece, value); then ordered pairs of entries within a piece.
    e_key, e_count = np.unique(cell_t * v1 + cell_val, return_counts=True)
    e_t, e_val = np.divmod(e_key, v1)
    e_count = e_count.astype(float)
    size = np.bincount(e_t, minlength=n_t)
    g_first = np.cumsum(size) - size
    reps = size[e_t]
    first = np.repeat(np.arange(e_key.size, dtype=np.int64), reps)
    within = np.arange(int(reps.sum()), dtype=np.int64) - np.repeat(np.cumsum(reps) - reps, reps)
    second = g_first[e_t[first]] + within
    p_t = e_t[first]
    p_doc = t_doc[p_t]
    weight = t_len[p_t] / (m[p_doc] - 1.0) * e_count[first] * (e_count[second] - (first == second))
    c, k = e_val[first], e_val[second]
    same = c == k
    diagonal = np.bincount(
        p_doc[same] * v1 + c[same], weights=weight[same], minlength=n_docs * v1
    ).reshape(n_docs, v1)
    valued = (c != gap) & (k != gap) & (weight != 0)
    cell_key = (p_doc[valued] * n_values + c[valued]) * n_values + k[valued]
    uniq, inverse = np.unique(cell_key, return_inverse=True)
    cell_value = np.bincount(inverse, weights=weight[valued], minlength=uniq.size)
    cell_dc, cell_k = np.divmod(uniq, n_values) if n_values else (uniq, uniq)
    cell_doc, cell_c = np.divmod(cell_dc, n_values) if n_values else (uniq, uniq)

    # Each unit's share of the valued margin: its pieces times the other coders holding values.
    holding = np.bincount(cell_t[cell_val != gap], minlength=n_t).astype(float)
    in_unit = cell_unit >= 0
    share_part = (
        t_len[cell_t[in_unit]]
        * (holding[cell_t[in_unit]] - 1.0)
        / (m[t_doc[cell_t[in_unit]]] - 1.0)
    )
    unit_share = np.bincount(cell_unit[in_unit], weights=share_part, minlength=pair.size)
    key_dv0 = u_doc * n_values + value
    cu_margin = np.bincount(key_dv0, weights=unit_share, minlength=n_docs * n_values)
    cu_self = np.bincount(key_dv0, weights=unit_share**2, minlength=n_docs * n_values)
    return UnitizedStats(
        m=m,
        length=doc_length,
        margin=margin,
        self_pairs=self_pairs,
        diagonal=diagonal,
        cu_margin=cu_margin.reshape(n_docs, n_values),
        cu_self_pairs=cu_self.reshape(n_docs, n_values),
        cell_doc=cell_doc,
        cell_c=cell_c,
        cell_k=cell_k,
        cell_value=cell_value,
        unit_share=unit_share,
    )


def observed_by_value(
    stats: UnitizedStats,
    cell_delta: np.ndarray,
    doc_weights: np.ndarray | None = None,
) -> np.ndarray:
    r""":math:`\sum_c \delta_{ck} l^*_{ck}` for each value :math:`k`, per document or weighted.

    ``cell_delta`` is :math:`\delta` of each entry of ``stats`` (shape ``(E,)``, or
    ``(S, E)`` when it differs between the ``S`` rows of ``doc_weights``). Without
    ``doc_weights`` the result is per document, ``(D, V)``; with ``doc_weights`` of shape
    ``(S, D)`` it is ``(S, V)``: row ``s`` sums the documents with those weights.
    """
    n_docs, n_values = stats.cu_margin.shape
    term = cell_delta * stats.cell_value
    if doc_weights is None:
        return np.bincount(
            stats.cell_doc * n_values + stats.cell_k, weights=term, minlength=n_docs * n_values
        ).reshape(n_docs, n_values)
    w = np.asarray(doc_weights, dtype=float)
    weighted = w[:, stats.cell_doc] * term  # (S, E)
    out = np.zeros((w.shape[0], n_values))
    if stats.cell_k.size:
        order = np.argsort(stats.cell_k, kind="stable")
        ks, starts = np.unique(stats.cell_k[order], return_index=True)
        out[:, ks] = np.add.reduceat(weighted[:, order], starts, axis=1)
    return out


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)


def family(
    margin: np.ndarray,
    self_pairs: np.ndarray,
    diagonal: np.ndarray,
    cu_margin: np.ndarray,
    cu_self_pairs: np.ndarray,
    observed_k: np.ndarray,
    expected_k: np.ndarray,
) -> dict[str, np.ndarray]:
    r"""The four coefficients from (sums of) the statistics, over a leading axis.

    Parameters
    ----------
    margin, self_pairs, diagonal : (..., V + 1)
        :math:`l_{c\cdot}`, :math:`S_c`, :math:`l_{cc}` (gap last).
    cu_margin, cu_self_pairs : (..., V)
        :math:`l^*_{c\cdot}`, :math:`S^*_c`.
    observed_k : (..., V)
        :math:`O_k = \sum_c \delta_{ck} l^*_{ck}`.
    expected_k : (..., V)
        :math:`\sum_c \delta_{ck} l^*_{c\cdot}`.

    Returns
    -------
    dict
        ``u``, ``bar_u``, ``cu``, ``cu_coverage`` of shape ``(...)``; ``ku``,
        ``ku_coverage`` of shape ``(..., V)``. NaN where a coefficient is undefined (its
        expected disagreement is 0).

    Notes
    -----
    With :math:`n = l_{\cdot\cdot}` and :math:`S = \sum_c S_c`, the expected coincidences are
    :math:`e_{ck} = n (l_{c\cdot} l_{\cdot k} - [c = k] S_c) / (n^2 - S)` and

    * :math:`{}_u\alpha = 1 - (n - \sum_c l_{cc}) / (n - \sum_c e_{cc})` (nominal);
    * :math:`{}_{|u}\alpha = 1 - (l_{\varnothing\cdot} - l_{\varnothing\varnothing}) /
      (e_{\varnothing\cdot} - e_{\varnothing\varnothing})`, the binary gap-versus-unit
      alpha of the same matrices;
    * with :math:`n^* = l^*_{\cdot\cdot}`, :math:`S^* = \sum_c S^*_c` and
      :math:`e^*_{ck} = (l^*_{c\cdot} l^*_{\cdot k} - [c = k] S^*_c) / (n^* - S^*/n^*)`:
      :math:`{}_{cu}\alpha = 1 - \sum_{ck} \delta_{ck} l^*_{ck} / \sum_{ck} \delta_{ck}
      e^*_{ck}`, covering :math:`n^* / n` of the continuum;
    * :math:`{}_{(k)u}\alpha = 1 - e^*_{k\cdot} \sum_c \delta_{ck} l^*_{ck} /
      (l^*_{k\cdot} \sum_c \delta_{ck} e^*_{ck})`, covering
      :math:`l^*_{k\cdot} / l_{k\cdot}` of value :math:`k`.
    """
    n = margin.sum(axis=-1)
    s_all = self_pairs.sum(axis=-1)
    den = n * n - s_all
    e_diag = _ratio(n[..., None] * (margin**2 - self_pairs), den[..., None])
    u = 1.0 - _ratio(n - diagonal.sum(axis=-1), n - e_diag.sum(axis=-1))
    gap_m, gap_d = margin[..., -1], diagonal[..., -1]
    e_gap_row = _ratio(n * (gap_m * n - self_pairs[..., -1]), den)
    bar_u = 1.0 - _ratio(gap_m - gap_d, e_gap_row - e_diag[..., -1])

    n_star = cu_margin.sum(axis=-1)
    den_star = n_star - _ratio(cu_self_pairs.sum(axis=-1), n_star)
    obs = observed_k.sum(axis=-1)
    exp = _ratio((cu_margin * expected_k).sum(axis=-1), den_star)
    cu = 1.0 - _ratio(obs, exp)
    cu_coverage = _ratio(n_star, n)
    # (k)u: 1 - e*_k. O_k / (l*_k. E_k) with e*_k. = (l*_k n* - S*_k) / den*,
    # E_k = l*_k. expected_k / den*, so den* cancels.
    ku = 1.0 - _ratio(
        (cu_margin * n_star[..., None] - cu_self_pairs) * observed_k,
        cu_margin**2 * expected_k,
    )
    ku = np.where(den_star[..., None] > 0, ku, np.nan)
    ku_coverage = _ratio(cu_margin, margin[..., :-1])
    return {
        "u": u,
        "bar_u": bar_u,
        "cu": np.where(den_star > 0, cu, np.nan),
        "cu_coverage": cu_coverage,
        "ku": ku,
        "ku_coverage": ku_coverage,
    }
