"""Disagreement kernels: observed disagreement per unit and expected disagreement from marginals.

Krippendorff's alpha is ``1 - (n - 1) * O / E`` with

* ``O = sum_u sum_{c,k} n_uc n_uk delta_ck / (m_u - 1)`` (ordered pairs of values in a unit),
* ``E = sum_{c,k} n_c n_k delta_ck`` (ordered pairs over the pooled pairable values).

A kernel computes the per-unit terms of ``O`` and the function ``n_c -> E``. Keeping the
two apart lets resampling reuse them: resampling units reweights the per-unit terms and
only re-evaluates ``E``. Every kernel works on the value domain (``V`` distinct values),
never on every pair of observations, and none builds an ``N x V x V`` tensor.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import scipy.sparse as sp

from .counts import UnitValueCounts, column_squares, unit_slots, within_unit_pairs
from .setpairs import PairSums, SubsetSums, pair_sums
from .states import Precision, combine_precision
from .tuning import (
    BLOCK_CELLS,
    DISJOINT_CHECK_SIZES,
    PAIR_TABLE_PER_KEY,
    SMALL_TABLE_CELLS,
    TABLE_CELLS_PER_PAIR,
)

__all__ = [
    "Kernel",
    "NominalKernel",
    "PairwiseKernel",
    "ScoreKernel",
    "SetKernel",
    "alpha_from_sums",
    "centred_scores",
    "midranks",
]

# Block and table sizes: see pandas_agree._core.tuning (one place, with how each was chosen).
DeltaCodes = Callable[[np.ndarray, np.ndarray], np.ndarray]


def alpha_from_sums(
    n: float, observed_sum: float, expected_sum: float
) -> tuple[float, float, float]:
    """Return ``(alpha, D_o, D_e)`` from the sums ``O`` and ``E`` and the pairable count ``n``.

    ``D_o = O / n`` and ``D_e = E / (n (n - 1))`` as in Krippendorff (2011). ``alpha`` is
    NaN when ``D_e`` is 0 (every pairable value the same): the coefficient is undefined.
    """
    d_o = observed_sum / n
    d_e = expected_sum / (n * (n - 1.0))
    if d_e == 0:
        return float("nan"), float(d_o), 0.0
    return float(1.0 - d_o / d_e), float(d_o), float(d_e)


def midranks(n_c: np.ndarray) -> np.ndarray:
    """Krippendorff's ordinal positions: ``sum_{g<c} n_g + n_c / 2`` for values in rank order.

    The ordinal metric ``delta_ck = (sum_{g=c..k} n_g - (n_c + n_k) / 2) ** 2`` equals
    ``(r_k - r_c) ** 2`` for these ``r``, so ordinal alpha is interval alpha on ``r``.
    Works on the last axis, so a stack of marginals gives a stack of positions.
    """
    n_c = np.asarray(n_c, dtype=float)
    return np.cumsum(n_c, axis=-1) - n_c / 2.0


class Kernel:
    """Interface: ``observed_by_unit(counts)`` and ``expected_sum(n_c)``."""

    def observed_by_unit(self, counts: UnitValueCounts) -> np.ndarray:
        """Per-unit terms of ``O`` (length: all unit codes; 0 for units not pairable)."""
        raise NotImplementedError

    def expected_sum(self, n_c: np.ndarray) -> float:
        """``E = sum_{c,k} n_c n_k delta_ck`` for the marginals ``n_c``."""
        raise NotImplementedError

    def precision(self, n_c: np.ndarray | None = None) -> Precision | None:
        """What float64 did to the values in use under marginals ``n_c`` (None: nothing).

        Only interval scores are ever shifted, scaled or merged (:class:`ScoreKernel`).
        """
        return None

    #: Whether :meth:`precision` depends on which values are in use (else one record holds
    #: for every group of a report).
    precision_in_use = False

    def sums(self, counts: UnitValueCounts) -> tuple[float, float]:
        """``(O, E)`` for ``counts``."""
        return float(self.observed_by_unit(counts).sum()), float(self.expected_sum(counts.n_c))

    #: Whether ``delta`` itself depends on the marginals (ordinal): resampling must then
    #: recompute observed disagreement from counts instead of reweighting per-unit terms.
    marginal_dependent = False

    def delta_pairs(self, c: np.ndarray, k: np.ndarray, n_c: np.ndarray) -> np.ndarray:
        """``delta_ck`` for code arrays ``c``, ``k`` (``n_c``: the marginals, for ordinal)."""
        raise NotImplementedError

    def expected_sums(self, marginals: np.ndarray | sp.spmatrix) -> np.ndarray:
        """``E`` for every row of a (rows x V) matrix of marginals."""
        rows = sp.csr_matrix(marginals)
        return np.array(
            [self.expected_sum(rows[i].toarray().ravel()) for i in range(rows.shape[0])]
        )

    def entry_terms(self, counts: UnitValueCounts) -> np.ndarray:
        """Per-entry terms of ``O``: one rating's mean distance to the others in its unit.

        For each entry ``e`` of ``counts`` (unit ``u``, value ``c``),
        ``t_e = sum_k n_uk delta_ck / (m_u - 1)``, so that ``count[e] * t_e`` summed over a
        unit's entries is its term of :meth:`observed_by_unit`. Decompositions of the
        observed disagreement (by coder, by rating) sum these terms. This generic version
        evaluates :meth:`delta_pairs` once per distinct pair of values that meet in a unit.
        """
        m = counts.entry_m().astype(float)
        first, second, _ = within_unit_pairs(counts)
        out = np.zeros(counts.unit.size)
        if first.size == 0:
            return out
        c, k = counts.value[first], counts.value[second]
        uniq, inverse = np.unique(c * counts.n_values + k, return_inverse=True)
        pairs = self.delta_pairs(uniq // counts.n_values, uniq % counts.n_values, counts.n_c)
        d = np.asarray(pairs, dtype=float)[inverse] / (m[first] - 1.0)
        out += np.bincount(first, weights=counts.count[second] * d, minlength=out.size)
        out += np.bincount(second, weights=counts.count[first] * d, minlength=out.size)
        return out


def _slot_sum_by_unit(
    counts: UnitValueCounts, pair_term: Callable[[np.ndarray, np.ndarray], np.ndarray]
) -> np.ndarray:
    """Per-unit observed terms from the reliability matrix (``counts.slots``).

    ``pair_term(a, b)`` gives, for two coders' rows of value codes, each unit's distance
    between the two values (0 where either coder gave none, code ``V``). The unit's term is
    ``2 * sum_{s<t} pair_term / (m_u - 1)``: one vectorised step per pair of coders.
    """
    rows = counts.slots
    acc = np.zeros(rows.shape[1])
    for t in range(1, rows.shape[0]):
        for s in range(t):
            acc += pair_term(rows[s], rows[t])
    return _unit_terms(acc, counts.m)


def _unit_terms(pair_sums: np.ndarray, m: np.ndarray) -> np.ndarray:
    """``2 * pair_sums / (m - 1)`` for units with ``m >= 2``, 0 for the others.

    ``pair_sums`` holds each unit's sum of distances over its unordered pairs of values.
    """
    out = np.zeros(m.size)
    np.divide(2.0 * pair_sums, m - 1.0, out=out, where=m >= 2)
    return out


class NominalKernel(Kernel):
    """``delta = 0`` for equal values, 1 otherwise: closed forms, no value pairs at all."""

    def observed_by_unit(self, counts: UnitValueCounts) -> np.ndarray:
        if counts.slots is not None:
            missing = counts.n_values

            def differ(a: np.ndarray, b: np.ndarray) -> np.ndarray:
                return (a != b) & (a != missing) & (b != missing)

            return _slot_sum_by_unit(counts, differ)
        if counts.dense is not None:
            squares = column_squares(counts.dense).astype(float)
        else:
            squares = np.bincount(counts.unit, weights=counts.count**2.0, minlength=counts.m.size)
        m = counts.m
        out = np.zeros(m.size)
        ok = m >= 2
        out[ok] = (m[ok] ** 2 - squares[ok]) / (m[ok] - 1.0)
        return out

    def expected_sum(self, n_c: np.ndarray) -> float:
        n_c = np.asarray(n_c, dtype=float)
        return float(n_c.sum() ** 2 - (n_c**2).sum())

    def delta_pairs(self, c: np.ndarray, k: np.ndarray, n_c: np.ndarray) -> np.ndarray:
        return (np.asarray(c) != np.asarray(k)).astype(float)

    def entry_terms(self, counts: UnitValueCounts) -> np.ndarray:
        # Every other rating of the unit with a different value is at distance 1.
        m = counts.entry_m().astype(float)
        return (m - counts.count) / (m - 1.0)

    def expected_sums(self, marginals: np.ndarray | sp.spmatrix) -> np.ndarray:
        n = np.asarray(marginals.sum(axis=1), dtype=float).ravel()
        if sp.issparse(marginals):
            squares = np.asarray(marginals.multiply(marginals).sum(axis=1), dtype=float).ravel()
        else:
            squares = (np.asarray(marginals, dtype=float) ** 2).sum(axis=1)
        return n**2 - squares


# Interval scores whose largest distance from the centre is above ``2 ** SCALE_EXPONENT``
# or below ``2 ** -SCALE_EXPONENT`` are divided by a power of two first: sums of squares of
# about n^2 such terms then neither overflow nor underflow for any realistic n (chosen with
# room to spare: float64 spans 2 ** +-1022, and n^2 < 2 ** 100 for n < 10 ** 15).
SCALE_EXPONENT = 200

# Integers whose distance from the centre exceeds this lose exactness as float64.
_EXACT_FLOAT_INT = 1 << 53

# Float scores closer than this (squared: 2 ** -800) may underflow in sums of squares.
_TINY_GAP = 2.0 ** (-2 * SCALE_EXPONENT)


def centred_scores(values: np.ndarray) -> tuple[np.ndarray, float, Precision | None]:
    """Interval scores centred (and, when extreme, scaled) so float64 keeps their differences.

    Interval alpha does not change under a shift of the values, and interval and ratio
    alpha not under a common scale, so alpha may use ``(x - centre) / scale``. The centre
    is chosen so that the subtraction loses nothing: integers (int64, uint64) whose range
    lies on one side of 0 are centred on the middle of their range in integer arithmetic
    before the cast to float, so values such as ``10**17 + k`` keep their differences;
    floats are centred on their smallest magnitude when every value lies within a factor 2
    of it (the subtraction is then exact, Sterbenz's lemma), else left as they are (the
    kernel subtracts means itself). ``scale`` is a power of two (exact), 1 unless the
    largest score is beyond ``2 ** +-SCALE_EXPONENT``; it then brings it to about that,
    not to 1, so that small differences keep as much room as large ones.

    Returns
    -------
    scores : ndarray of float
        ``(x - centre) / scale``.
    scale : float
        The power of two divided out.
    precision : Precision or None
        Why the scores cannot be trusted to full precision, or that they were scaled (so
        that ``D_o`` and ``D_e`` are in units of ``scale ** 2``); None otherwise. A record,
        not a sentence: :func:`pandas_agree.reasons.precision_note` renders it.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([10**17 + 1, 10**17 + 4], dtype=np.int64)
    >>> scores, scale, precision = centred_scores(x)
    >>> scores.tolist(), scale, precision
    ([-1.0, 2.0], 1.0, None)
    >>> centred_scores(np.array([-(2**62), 2**62], dtype=np.int64))[2]
    Precision(span=9223372036854775808, spread=4611686018427387904, shift=None, merged=None)
    """
    x = np.asarray(values)
    note: Precision | None = None
    if x.size == 0:
        return x.astype(float), 1.0, None
    if x.dtype.kind in "iu":
        lo, hi = int(x.min()), int(x.max())
        if lo <= 0 <= hi:  # centring could not shrink the largest magnitude
            scores = x.astype(float)
            spread = max(-lo, hi)
        else:
            half = (hi - lo) // 2
            # x - lo in uint64 arithmetic (wrapping, exact as 0 <= x - lo < 2 ** 64), then
            # the signed distance from lo + half, each side as a non-negative uint64.
            offset = x.astype(np.uint64) - np.uint64(lo % (1 << 64))
            h = np.uint64(half)
            above = offset >= h
            scores = np.where(above, (offset - h).astype(float), -(h - offset).astype(float))
            spread = hi - lo - half
        if spread > _EXACT_FLOAT_INT:
            note = Precision(span=hi - lo, spread=spread)
    else:
        scores = x.astype(float)
        lo, hi = float(scores.min()), float(scores.max())
        if 0 < lo and hi <= 2.0 * lo:
            scores = scores - lo
        elif hi < 0 and 2.0 * hi <= lo:
            scores = scores - hi
    top = float(np.abs(scores).max())
    scale = 1.0
    exponent = int(np.frexp(top)[1]) if top > 0 else 0
    if abs(exponent) > SCALE_EXPONENT:
        # The largest score goes to about 2 ** +-SCALE_EXPONENT, not to 1, so that small
        # differences (another group's, in a report) keep room below as the largest do above.
        shift = exponent - SCALE_EXPONENT if exponent > 0 else exponent + SCALE_EXPONENT
        scale = float(np.ldexp(1.0, shift))
        scores = scores / scale
        note = combine_precision(note, Precision(shift=shift))
    return scores, scale, note


class ScoreKernel(Kernel):
    """``delta_ck = (x_c - x_k) ** 2`` through centred moments (interval; ordinal on midranks).

    ``sum_{i,j in u} (x_i - x_j)^2 = 2 m_u sum_i (x_i - mean_u)^2``, computed with the unit
    mean subtracted first, so there is no cancellation for large values with small spread.
    Interval scores are first centred (exactly for integers) and, when extreme, scaled by a
    power of two (:func:`centred_scores`); ``scale`` and :meth:`precision` say what was done.
    """

    def __init__(self, scores: np.ndarray | None = None, *, ordinal: bool = False) -> None:
        self.scale = 1.0
        self._precision: Precision | None = None
        # The values as given, kept when one centre and scale for the whole domain would
        # lose differences that the values in use still have (see ``_scores``).
        self._exact: np.ndarray | None = None
        # A memo of the last re-centring: (values in use, scores, precision). The same
        # values in use always give the same entry, so no result depends on call order.
        self._in_use: tuple[bytes, np.ndarray, Precision | None] | None = None
        self._float_id: np.ndarray | None = None
        if scores is None:
            self.scores = None
        else:
            raw = np.asarray(scores)
            self.scores, self.scale, self._precision = centred_scores(raw)
            if raw.dtype.kind in "iu" and self._precision is not None:
                self._exact = raw  # integers too far apart for one float centre
            elif raw.dtype.kind == "f" and raw.size > 1:
                # A gap whose square (times n^2) could underflow once scaled: re-scale on
                # the values in use, which may all be that close (0 and 1e-200 paired next
                # to an unpaired 1 or 1e200). Gaps of the values as given never underflow.
                # (The domain holds distinct values, usually sorted already: no unique.)
                ordered = raw if bool(np.all(raw[1:] >= raw[:-1])) else np.sort(raw)
                gaps = np.diff(ordered)
                if not gaps.all():
                    # Distinct values (Python integers beyond 2**53, say) that float64
                    # makes equal: which float each value became, to count the merged.
                    self._float_id = np.unique(raw, return_inverse=True)[1]
                gaps = gaps[gaps > 0]
                if gaps.size and gaps.min() / self.scale < _TINY_GAP:
                    self._exact = raw
        self.ordinal = ordinal

    def precision(self, n_c: np.ndarray | None = None) -> Precision | None:
        """What float64 did to the scores of the values in use under marginals ``n_c``.

        None when every difference is kept at full precision. A function of ``n_c`` only
        (the whole domain when ``n_c`` is None), never of earlier calls.
        """
        if self.ordinal or self.scores is None:
            return None
        if self._exact is None or n_c is None:
            precision = self._precision
        else:
            precision = self._centred_in_use(n_c)[1]
        if self._float_id is not None:
            ids = self._float_id if n_c is None else self._float_id[np.asarray(n_c) != 0]
            merged = ids.size - np.unique(ids).size
            if merged:
                precision = combine_precision(precision, Precision(merged=merged))
        return precision

    def _scores(self, n_c: np.ndarray) -> np.ndarray:
        if self.ordinal:
            return midranks(n_c)
        if self._exact is None:
            return self.scores
        return self._centred_in_use(n_c)[0]

    def _centred_in_use(self, n_c: np.ndarray) -> tuple[np.ndarray, Precision | None]:
        # A domain too wide for one float centre or scale: centre and scale again on the
        # values in use (nonzero marginals: the pairable ones). Values that occur only in
        # units that are not pairable then cost no precision. Unused values score 0.
        used = np.asarray(n_c)
        used = (used.any(axis=0) if used.ndim == 2 else used) != 0
        key = used.tobytes()
        if self._in_use is None or self._in_use[0] != key:
            scores = np.zeros(self._exact.size)
            scores[used], _, precision = centred_scores(self._exact[used])
            self._in_use = (key, scores, precision)
        return self._in_use[1], self._in_use[2]

    def observed_by_unit(self, counts: UnitValueCounts) -> np.ndarray:
        m = counts.m
        if counts.slots is not None:
            # The same moments from the reliability matrix, one coder's row at a time.
            x = np.append(self._scores(counts.n_c), 0.0)  # code V (no value) scores 0
            total = np.zeros(m.size)
            for row in counts.slots:
                total += x[row]
            mean = np.divide(total, m, out=np.zeros(m.size), where=m > 0)
            ss = np.zeros(m.size)
            for row in counts.slots:
                dev = x[row] - mean
                dev[row == counts.n_values] = 0.0  # before squaring: no spurious overflow
                dev *= dev
                ss += dev
        else:
            x = self._scores(counts.n_c)[counts.value]
            total = np.bincount(counts.unit, weights=counts.count * x, minlength=m.size)
            mean = np.divide(total, m, out=np.zeros(m.size), where=m > 0)
            dev = x - mean[counts.unit]
            ss = np.bincount(counts.unit, weights=counts.count * dev**2, minlength=m.size)
        out = np.zeros(m.size)
        ok = m >= 2
        out[ok] = 2.0 * m[ok] * ss[ok] / (m[ok] - 1.0)
        return out

    def expected_sum(self, n_c: np.ndarray) -> float:
        n_c = np.asarray(n_c, dtype=float)
        x = self._scores(n_c)
        n = n_c.sum()
        if n == 0:
            return 0.0
        mean = (n_c * x).sum() / n
        return float(2.0 * n * (n_c * (x - mean) ** 2).sum())

    @property
    def precision_in_use(self) -> bool:  # type: ignore[override]
        # Merged floats matter only where two of them are in use; a domain re-centred on
        # the values in use has the precision of those values.
        return self._float_id is not None or self._exact is not None

    @property
    def marginal_dependent(self) -> bool:  # type: ignore[override]
        # Ordinal: the metric itself. A domain too wide for one float centre or scale: the
        # scores depend on the values in use, so groups are evaluated one by one.
        return self.ordinal or self._exact is not None

    def delta_pairs(self, c: np.ndarray, k: np.ndarray, n_c: np.ndarray) -> np.ndarray:
        x = self._scores(np.asarray(n_c, dtype=float))
        return (x[c] - x[k]) ** 2

    def entry_terms(self, counts: UnitValueCounts) -> np.ndarray:
        # sum_k n_uk (x - x_k)^2 = m_u (x - mean_u)^2 + sum_k n_uk (x_k - mean_u)^2
        m_u = counts.m
        m = counts.entry_m().astype(float)
        x = self._scores(counts.n_c)[counts.value]
        total = np.bincount(counts.unit, weights=counts.count * x, minlength=m_u.size)
        mean = np.divide(total, m_u, out=np.zeros(m_u.size), where=m_u > 0)
        dev = x - mean[counts.unit]
        ss = np.bincount(counts.unit, weights=counts.count * dev**2, minlength=m_u.size)
        return (m * dev**2 + ss[counts.unit]) / (m - 1.0)

    def observed_by_unit_stack(
        self, table: sp.csr_matrix, m: np.ndarray, marginals: np.ndarray
    ) -> np.ndarray:
        """Per-unit observed terms (units x rows) with the scores of each row of marginals.

        ``table`` is the (units x values) count table and ``m`` its row sums. Scores are
        centred per row first, so ``S2 - S1^2 / m`` has no large cancellation.
        """
        n_c = np.asarray(marginals, dtype=float)
        x = np.broadcast_to(self._scores(n_c), n_c.shape)
        n = n_c.sum(axis=1)
        mean = np.divide((n_c * x).sum(axis=1), n, out=np.zeros_like(n), where=n > 0)
        xc = x - mean[:, None]
        s1 = np.asarray(table @ xc.T)
        s2 = np.asarray(table @ (xc**2).T)
        m = np.asarray(m, dtype=float)[:, None]
        ok = m >= 2
        terms = np.zeros_like(s1)
        np.divide(2.0 * m * s2 - 2.0 * s1**2, m - 1.0, out=terms, where=ok)
        return terms

    def expected_sums(self, marginals: np.ndarray | sp.spmatrix) -> np.ndarray:
        n_c = marginals.toarray() if sp.issparse(marginals) else np.asarray(marginals)
        n_c = n_c.astype(float)
        x = self._scores(n_c)  # midranks per row for ordinal, shared scores for interval
        n = n_c.sum(axis=1)
        s1 = (n_c * x).sum(axis=1)
        mean = np.divide(s1, n, out=np.zeros_like(n), where=n > 0)
        centred = x - mean[:, None]
        return 2.0 * n * (n_c * centred**2).sum(axis=1)


def _pair_sum_by_unit(
    counts: UnitValueCounts, delta_pairs: Callable[[np.ndarray, np.ndarray], np.ndarray]
) -> np.ndarray:
    """Per-unit ``sum n_uc n_uk delta_ck / (m_u - 1)`` over ordered pairs of distinct values.

    ``delta_pairs(c, k)`` is evaluated once per distinct value pair that meets in a unit.
    """
    first, second, weight = within_unit_pairs(counts)
    out = np.zeros(counts.m.size)
    if first.size == 0:
        return out
    c = counts.value[first]
    k = counts.value[second]  # c < k: entries are sorted by value within a unit
    key = c * counts.n_values + k
    n_keys = counts.n_values * counts.n_values
    if n_keys <= max(BLOCK_CELLS, PAIR_TABLE_PER_KEY * key.size):
        # Small domain: a lookup table over all value pairs instead of sorting the keys.
        present = np.zeros(n_keys, dtype=bool)
        present[key] = True
        uniq = np.flatnonzero(present)
        table = np.zeros(n_keys)
        table[uniq] = delta_pairs(uniq // counts.n_values, uniq % counts.n_values)
        delta = table[key]
    else:
        uniq, inverse = np.unique(key, return_inverse=True)
        pairs = np.asarray(delta_pairs(uniq // counts.n_values, uniq % counts.n_values))
        delta = pairs.astype(float)[inverse]
    contrib = 2.0 * weight * delta
    return np.bincount(counts.unit[first], weights=contrib, minlength=out.size)


def _padded(table: np.ndarray) -> np.ndarray:
    """``table`` with a row and a column of zeros appended (the code ``V`` means "no value")."""
    v = table.shape[0]
    out = np.zeros((v + 1, v + 1))
    out[:v, :v] = table
    return out


def _table_sum_by_unit(counts: UnitValueCounts, padded: np.ndarray) -> np.ndarray:
    """:func:`_pair_sum_by_unit` with a distance table (``V + 1`` square, see :func:`_padded`).

    With few coders, each pair of coders is one vectorised lookup over the reliability
    matrix (``counts.slots``); with few distinct values per unit, each pair of slots of the
    sorted entries is. Neither builds per-pair arrays.
    """
    if counts.slots is not None:
        flat, width = padded.ravel(), padded.shape[1]  # a flat take beats 2-D indexing 2.5x
        return _slot_sum_by_unit(counts, lambda a, b: flat.take(a.astype(np.intp) * width + b))
    slots = unit_slots(counts)
    if slots is None:
        return _pair_sum_by_unit(counts, lambda c, k: padded[c, k])
    units, values, slot_counts = slots
    acc = np.zeros(counts.m.size)
    for t in range(1, values.shape[0]):
        for s in range(t):
            acc[units] += slot_counts[s] * slot_counts[t] * padded[values[s], values[t]]
    return _unit_terms(acc, counts.m)


class PairwiseKernel(Kernel):
    """Any distance given as a vectorised ``delta(c_codes, k_codes)`` on the value domain.

    ``E`` evaluates ``delta`` on the pairs ``c < k`` of the values in use, in row blocks of at
    most :data:`BLOCK_CELLS` cells, so memory stays bounded for any ``V``; the time is
    ``V (V - 1) / 2`` evaluations. When ``V`` is small the matrix is built once and cached
    (reports and resampling reuse it).
    """

    def __init__(self, delta_codes: DeltaCodes, n_values: int) -> None:
        self.delta_codes = delta_codes
        self.n_values = n_values
        self._dense: np.ndarray | None = None
        self._padded: np.ndarray | None = None

    def observed_by_unit(self, counts: UnitValueCounts) -> np.ndarray:
        if self.dense() is not None:
            if self._padded is None:
                self._padded = _padded(self._dense)
            return _table_sum_by_unit(counts, self._padded)
        return _pair_sum_by_unit(counts, self.delta_codes)

    def delta_pairs(self, c: np.ndarray, k: np.ndarray, n_c: np.ndarray) -> np.ndarray:
        return self.delta_codes(np.asarray(c), np.asarray(k))

    def expected_sums(self, marginals: np.ndarray | sp.spmatrix) -> np.ndarray:
        rows = sp.csr_matrix(marginals, dtype=float)
        dense = self.dense()
        if dense is not None:
            return np.asarray(rows.multiply(rows @ dense).sum(axis=1)).ravel()
        return np.array(
            [
                self._restricted(
                    rows.indices[rows.indptr[i] : rows.indptr[i + 1]],
                    rows.data[rows.indptr[i] : rows.indptr[i + 1]],
                )
                for i in range(rows.shape[0])
            ]
        )

    def dense(self) -> np.ndarray | None:
        """The full ``V x V`` distance matrix when it fits in one block, else None."""
        v = self.n_values
        if self._dense is None and v * v <= BLOCK_CELLS:
            c, k = np.triu_indices(v, 1)
            mat = np.zeros((v, v))
            mat[c, k] = self.delta_codes(c, k)
            self._dense = mat + mat.T
        return self._dense

    def expected_sum(self, n_c: np.ndarray) -> float:
        n_c = np.asarray(n_c, dtype=float)
        dense = self.dense()
        if dense is not None:
            return float(n_c @ dense @ n_c)
        used = np.flatnonzero(n_c)
        return self._restricted(used, n_c[used])

    def _restricted(self, codes: np.ndarray, weight: np.ndarray) -> float:
        """``sum_{c,k} w_c w_k delta_ck`` over the given values only, in bounded blocks.

        Values with zero marginal contribute nothing, so a group or replicate that uses
        ``V_g`` values costs ``V_g (V_g - 1) / 2`` evaluations, not ``V (V - 1) / 2``.
        """
        v = codes.size
        rows = max(1, BLOCK_CELLS // max(v, 1))
        total = 0.0
        for start in range(0, v, rows):
            stop = min(v, start + rows)
            i, j = np.nonzero(np.arange(start, stop)[:, None] < np.arange(v)[None, :])
            i = i + start
            total += float((weight[i] * weight[j] * self.delta_codes(codes[i], codes[j])).sum())
        return 2.0 * total


def _stats_table(
    delta_stats: Callable[..., np.ndarray], inter: np.ndarray, sizes: np.ndarray
) -> np.ndarray:
    """``delta_stats(inter[c, k], sizes[c], sizes[k])`` for every cell, flattened.

    Plain (unweighted) sets have integer sizes and intersections, and a domain of many sets
    has few distinct (intersection, size, size) triples: the distance is then evaluated once
    per triple that occurs and looked up (the same arguments, so the same numbers).
    Otherwise (weights: sizes and intersections are sums of weights) it is evaluated on
    every cell. ``delta_stats`` always gets flat arrays of equal length.
    """
    v = sizes.size
    top = int(sizes.max()) + 1 if v else 0
    whole = np.array_equal(sizes, np.round(sizes)) and np.array_equal(inter, np.round(inter))
    if v and top**3 <= inter.size and whole:
        small = sizes.astype(np.intp)
        key = (inter.astype(np.intp) * top + small[:, None]) * top + small[None, :]
        key = key.ravel()
        used = np.zeros(top**3, dtype=bool)
        used[key] = True
        triples = np.flatnonzero(used)
        i, rest = np.divmod(triples, top * top)
        a, b = np.divmod(rest, top)
        lookup = np.zeros(top**3)
        lookup[triples] = delta_stats(i.astype(float), a.astype(float), b.astype(float))
        return lookup[key]
    flat = delta_stats(inter.ravel(), np.repeat(sizes, v), np.tile(sizes, v))
    return np.asarray(flat, dtype=float)


class SetKernel(Kernel):
    """Set distances that are 1 for disjoint sets: only intersecting pairs need work.

    (A vectorised set distance that is not 1 for some disjoint pair is evaluated on every
    pair of values instead: see :meth:`disjoint_is_one` and
    :func:`pandas_agree.krippendorff.alpha.make_kernel`.)

    ``E = (n^2 - sum n_c^2) - sum_{c != k, A_c & A_k != {}} n_c n_k s_ck`` with similarity
    ``s = 1 - delta``. The last sum is :class:`~pandas_agree._core.setpairs.PairSums`: pairs
    that share only frequent labels are counted by groups of (size, label pattern), the
    others come from a sparse incidence product in row blocks, so memory stays bounded
    whatever the overlap.

    Parameters
    ----------
    incidence : scipy.sparse matrix, shape (V, L)
        ``incidence[c, e]`` is the weight of element ``e`` in set ``c`` (1 for plain sets).
    delta_stats : callable
        ``delta_stats(inter, size_a, size_b)`` -> distance, vectorised over arrays of
        (weighted) intersection sizes and set sizes.
    """

    def __init__(
        self,
        incidence: sp.csr_matrix,
        delta_stats: Callable[..., np.ndarray],
        n_lookups: int = 0,
    ) -> None:
        v = incidence.shape[0]
        # Decided once, from the domain and the data size: the route never depends on the
        # order of earlier calls (a report, then a bootstrap, or the other way round).
        self.use_table = v * v <= min(
            BLOCK_CELLS, max(SMALL_TABLE_CELLS, TABLE_CELLS_PER_PAIR * n_lookups)
        )
        self.incidence = sp.csr_matrix(incidence, dtype=float)
        self.binary = self.incidence.copy()
        self.binary.data[:] = 1.0
        self.sizes = np.asarray(self.incidence.sum(axis=1)).ravel()
        self.delta_stats = delta_stats
        self._pairs: PairSums | SubsetSums | None = None
        self._table: np.ndarray | None = None

    def table(self) -> np.ndarray | None:
        """The ``V x V`` distance table when :attr:`use_table` (else None), built once.

        Made from the dense intersection matrix, with a zero row and column appended
        (:func:`_padded`); the diagonal is exactly 0.
        """
        if self.use_table and self._table is None:
            v = self.incidence.shape[0]
            if self.incidence.shape[1] <= v:  # fewer labels than sets: a small BLAS product
                inter = self.incidence.toarray() @ self.binary.toarray().T
            else:
                inter = np.asarray((self.incidence @ self.binary.T).todense(), dtype=float)
            table = _stats_table(self.delta_stats, inter, self.sizes).reshape(v, v)
            np.fill_diagonal(table, 0.0)
            self._table = _padded(table)
        return self._table

    def disjoint_is_one(self, most: int = DISJOINT_CHECK_SIZES) -> bool:
        """Whether ``delta_stats`` gives 1 for every pair of disjoint sets of this domain.

        Every built-in set distance does (Jaccard, Dice, MASI and their variants), and the
        sums above rely on it. The check evaluates ``delta_stats(0, a, b)`` for every pair of
        set sizes in the domain, or for ``most`` sizes spread over their range when there
        are more distinct sizes (weighted sets).
        """
        sizes = np.unique(self.sizes)
        if sizes.size > most:
            sizes = np.quantile(sizes, np.linspace(0.0, 1.0, most), method="nearest")
        a = np.repeat(sizes, sizes.size)
        b = np.tile(sizes, sizes.size)
        some = (a > 0) | (b > 0)  # two empty sets are equal, not disjoint
        out = np.asarray(self.delta_stats(np.zeros(int(some.sum())), a[some], b[some]))
        return bool(np.all(out == 1.0))

    def intersections(self, c: np.ndarray, k: np.ndarray) -> np.ndarray:
        """Weighted sizes of the intersections of the sets with codes ``c`` and ``k`` (elementwise).

        The weight of an element is taken from the set ``c`` (its ``incidence`` row).
        """
        return np.asarray(
            self.incidence[c].multiply(self.binary[k]).sum(axis=1), dtype=float
        ).ravel()

    def delta_codes(self, c: np.ndarray, k: np.ndarray) -> np.ndarray:
        """Distances between the sets with codes ``c`` and ``k`` (elementwise)."""
        return self.delta_stats(self.intersections(c, k), self.sizes[c], self.sizes[k])

    def observed_by_unit(self, counts: UnitValueCounts) -> np.ndarray:
        table = self.table()
        if table is not None:
            return _table_sum_by_unit(counts, table)
        return _pair_sum_by_unit(counts, self.delta_codes)

    def delta_pairs(self, c: np.ndarray, k: np.ndarray, n_c: np.ndarray) -> np.ndarray:
        c, k = np.asarray(c), np.asarray(k)
        if self.use_table:
            return self.table()[c, k]
        out = np.zeros(c.shape)
        off = c != k
        if off.any():
            out[off] = self.delta_codes(c[off], k[off])
        return out

    def expected_sums(self, marginals: np.ndarray | sp.spmatrix) -> np.ndarray:
        rows = sp.csr_matrix(marginals, dtype=float)
        n = np.asarray(rows.sum(axis=1)).ravel()
        squares = np.asarray(rows.multiply(rows).sum(axis=1)).ravel()
        return n**2 - squares - self.pair_sums().sums(rows)

    def pair_sums(self) -> PairSums | SubsetSums:
        """``sum_{c != k} n_c n_k s_ck`` over intersecting sets, in bounded memory (built once)."""
        if self._pairs is None:
            delta = self.delta_stats
            self._pairs = pair_sums(self.incidence, lambda i, a, b: 1.0 - delta(i, a, b))
        return self._pairs

    def expected_sum(self, n_c: np.ndarray) -> float:
        n_c = np.asarray(n_c, dtype=float)
        if self.use_table:
            v = n_c.size
            return float(n_c @ self.table()[:v, :v] @ n_c)
        all_pairs = n_c.sum() ** 2 - (n_c**2).sum()
        return float(all_pairs - self.pair_sums().sum(n_c))
