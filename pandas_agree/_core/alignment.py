r"""Best alignments of annotated continua and their disorder, for Mathet et al.'s :math:`\gamma`.

numpy and scipy only (no pandas). A continuum is a set of *units* (start, end, category)
placed by :math:`n` coders; several continua (documents, or random samples) are solved in one
call, each unit carrying its ``group`` and each group its own number of coders :math:`n_g`.

Dissimilarity of two units (Mathet, Widlöcher & Métivier 2015, section 4.2), with
:math:`\Delta_\emptyset` the cost of a unit aligned with nothing:

.. math::

    d(u, v) = \Delta_\emptyset \left[ \alpha \left(
        \frac{|s_u - s_v| + |e_u - e_v|}{(e_u - s_u) + (e_v - s_v)} \right)^2
        + \beta\, M_{c_u c_v} \right]

with :math:`M` a categorical dissimilarity matrix (values in [0, 1], zero diagonal).

A *unitary alignment* :math:`a` holds at most one unit per coder; with :math:`k` units, the
sum :math:`S(a)` of :math:`d` over its :math:`\binom{k}{2}` pairs of units and
:math:`P = \binom{n_g}{2}` coder pairs, its disorder is the mean over the coder pairs, a pair
with :math:`\emptyset` on either or both sides costing :math:`\Delta_\emptyset`:

.. math::

    \delta(a) = \frac{S(a) + \left(P - \binom{k}{2}\right) \Delta_\emptyset}{P}

so a unit alone costs :math:`\Delta_\emptyset`. An *alignment* partitions the units into
unitary alignments; its disorder is :math:`\sum_a \delta(a) / \bar{x}` with
:math:`\bar{x}` the mean number of units per coder. The *best alignment* minimises it.

**Pruning rule.** Let :math:`a = b \sqcup c` be split into two non-empty parts and
:math:`X(b, c) = \sum_{x \in b, y \in c} d(x, y)` the dissimilarity across the split. Since
:math:`S(a) = S(b) + S(c) + X(b, c)` and
:math:`\binom{|a|}{2} = \binom{|b|}{2} + \binom{|c|}{2} + |b||c|`,

.. math::

    P \left[\delta(a) - \delta(b) - \delta(c)\right] = X(b, c) - (P + |b||c|)\,\Delta_\emptyset.

If :math:`X(b, c) > (P + |b||c|)\Delta_\emptyset` for some split, replacing :math:`a` by
:math:`b` and :math:`c` in any alignment that contains it gives a valid alignment (the same
units, still at most one per coder in each part) with a strictly smaller disorder, so
:math:`a` belongs to no best alignment. Only unitary alignments that pass every split are
candidates; singletons always are, so the candidates always contain an alignment. Every
pair :math:`\{x, y\}` of a candidate passes the split :math:`\{y\}, a \setminus \{y\}`,
whence :math:`d(x, y) \le (P + |a| - 1)\Delta_\emptyset \le (P + n_g - 1)\Delta_\emptyset`:
candidates are cliques of the graph of unit pairs under that bound. With
:math:`\alpha > 0` such a pair has
:math:`|s_x + e_x - s_y - e_y| \le |s_x - s_y| + |e_x - e_y| \le r\,(l_x + l_y)` with
:math:`r = \sqrt{(P + n_g - 1)/\alpha}`: the intervals of half-width :math:`r l / 2` around
the midpoints overlap, which one sort and one ``searchsorted`` find without looking at the
other pairs.

**Solvers.** Two coders: a unit is aligned with at most one other, so the best alignment is
a minimum-cost matching, saving :math:`2\Delta_\emptyset - d(x, y)` per matched pair;
``scipy.optimize.linear_sum_assignment`` solves each connected component of the candidate
pairs. More coders: a set-partitioning integer program over the candidates
(minimise :math:`\sum_a \delta(a) z_a` with every unit covered exactly once) solved by
``scipy.optimize.milp`` (HiGHS), for all components with more than one unit at once.

References
----------
Mathet, Y., Widlöcher, A., & Métivier, J.-P. (2015). The unified and holistic method gamma
(γ) for inter-annotator agreement measure and alignment. Computational Linguistics 41(3),
437-479. Mathet, Y. (2017). The agreement measure γcat, a complement to γ focused on
categorization of a continuum. Computational Linguistics 43(3), 661-681.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

import numpy as np

__all__ = [
    "MAX_CANDIDATES",
    "Alignment",
    "CandidateLimitError",
    "Dissimilarity",
    "Units",
    "best_alignment",
    "candidate_pairs",
    "categorical_sums",
    "shuffle_sample",
    "statistical_sample",
    "statistical_stats",
    "unitary_disorder",
]

#: Most candidate unitary alignments (cliques of the candidate pair graph) one call builds.
MAX_CANDIDATES = 3_000_000

# Relative slack of the pruning comparisons: a candidate is dropped only when it loses by
# more than rounding, so rounding can keep a useless candidate but never drop a needed one.
_RTOL = 1e-12


class CandidateLimitError(ValueError):
    """More candidate unitary alignments than :data:`MAX_CANDIDATES`."""


@dataclass(frozen=True)
class Dissimilarity:
    """The combined dissimilarity :math:`d(u, v)` of the module docstring.

    ``categories`` is the matrix :math:`M` (square, symmetric, zero diagonal, values in
    [0, 1]), indexed by category code.
    """

    alpha: float = 1.0
    beta: float = 1.0
    delta_empty: float = 1.0
    categories: np.ndarray = field(default_factory=lambda: np.zeros((1, 1)), repr=False)

    def positional(
        self, s1: np.ndarray, e1: np.ndarray, s2: np.ndarray, e2: np.ndarray
    ) -> np.ndarray:
        """:math:`\\Delta_\\emptyset` times the squared positional ratio (no :math:`\\alpha`)."""
        ratio = (np.abs(s1 - s2) + np.abs(e1 - e2)) / ((e1 - s1) + (e2 - s2))
        return self.delta_empty * ratio * ratio

    def categorical(self, k1: np.ndarray, k2: np.ndarray) -> np.ndarray:
        """:math:`\\Delta_\\emptyset M_{k_1 k_2}` (no :math:`\\beta`)."""
        return self.delta_empty * self.categories[k1, k2]

    def __call__(
        self,
        s1: np.ndarray,
        e1: np.ndarray,
        k1: np.ndarray,
        s2: np.ndarray,
        e2: np.ndarray,
        k2: np.ndarray,
    ) -> np.ndarray:
        out = np.zeros(np.broadcast(s1, s2).shape)
        if self.alpha:
            out = out + self.alpha * self.positional(s1, e1, s2, e2)
        if self.beta:
            out = out + self.beta * self.categorical(k1, k2)
        return out


@dataclass(frozen=True)
class Units:
    """Units of one or more continua.

    ``coder`` codes are < ``n_coders[group]`` within each group (a coder's slot in its
    group); ``n_coders[g]`` counts every coder of group ``g``, those without units included.
    """

    start: np.ndarray  # float64
    end: np.ndarray  # float64, > start
    category: np.ndarray  # intp
    coder: np.ndarray  # intp
    group: np.ndarray  # intp
    n_coders: np.ndarray  # intp, one per group

    @property
    def size(self) -> int:
        return int(self.start.size)

    @property
    def n_groups(self) -> int:
        return int(self.n_coders.size)

    def units_per_group(self) -> np.ndarray:
        return np.bincount(self.group, minlength=self.n_groups)


@dataclass(frozen=True)
class Alignment:
    """An alignment: unitary alignments as rows of unit indices (-1 for no unit)."""

    members: np.ndarray  # intp (m, width): unit index per coder slot, -1 for the empty unit
    group: np.ndarray  # intp (m,)
    disorder: np.ndarray  # float64 (m,): delta of each unitary alignment

    def sums(self, n_groups: int) -> np.ndarray:
        """Sum of the unitary disorders per group."""
        return np.bincount(self.group, weights=self.disorder, minlength=n_groups)


def _between(units: Units, dissim: Dissimilarity, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """:math:`d` between units ``u`` and ``v`` (index arrays of equal length)."""
    return dissim(
        units.start[u],
        units.end[u],
        units.category[u],
        units.start[v],
        units.end[v],
        units.category[v],
    )


def _pairs_per_group(n: np.ndarray) -> np.ndarray:
    n = np.asarray(n, dtype=np.float64)
    return n * (n - 1.0) / 2.0


def unitary_disorder(
    members: np.ndarray, units: Units, dissim: Dissimilarity, group: np.ndarray
) -> np.ndarray:
    """:math:`\\delta(a)` of each row of ``members`` (unit indices per slot, -1 for none)."""
    members = np.asarray(members, dtype=np.intp)
    m, width = members.shape
    present = members >= 0
    k = present.sum(axis=1).astype(np.float64)
    total = np.zeros(m)
    for i, j in combinations(range(width), 2):
        both = present[:, i] & present[:, j]
        if both.any():
            u, v = members[both, i], members[both, j]
            total[both] += _between(units, dissim, u, v)
    p = _pairs_per_group(units.n_coders)[group]
    return (total + (p - k * (k - 1.0) / 2.0) * dissim.delta_empty) / p


# ---------------------------------------------------------------------------------------------
# candidate pairs


def _expand_ranges(lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For ranges ``[lo_i, hi_i)``: the owner ``i`` and the position of every element."""
    counts = np.maximum(hi - lo, 0)
    owner = np.repeat(np.arange(lo.size), counts)
    if owner.size == 0:
        return owner, owner.copy()
    starts = np.cumsum(counts) - counts
    pos = np.arange(owner.size) - np.repeat(starts, counts) + np.repeat(lo, counts)
    return owner, pos


def candidate_pairs(
    units: Units, dissim: Dissimilarity, bound: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Unit pairs of different coders, same group, with :math:`d \\le` ``bound[group]``.

    Default bound: :math:`(P + n_g - 1)\\Delta_\\emptyset`, the most any pair of a candidate
    unitary alignment can have (module docstring). Returns ``(a, b, d)`` with
    ``coder[a] < coder[b]``, sorted by ``(a, b)``.
    """
    n_g = units.n_coders.astype(np.float64)
    if bound is None:
        bound = (_pairs_per_group(n_g) + n_g - 1.0) * dissim.delta_empty
    bound = np.asarray(bound, dtype=np.float64)
    s, e, g = units.start, units.end, units.group
    if units.size == 0:
        empty = np.zeros(0, dtype=np.intp)
        return empty, empty.copy(), np.zeros(0)
    # Keys on one line: group g occupies [g * width, (g + 1) * width), so no two groups meet.
    if dissim.alpha > 0:
        r = np.sqrt(bound / (dissim.alpha * dissim.delta_empty))[g] * (1.0 + 1e-9)
        half = r * (e - s) / 2.0
        mid = (s + e) / 2.0
        lo, hi = mid - half, mid + half
    else:  # no positional term: every pair of a group is a candidate pair
        lo, hi = np.zeros_like(s), np.ones_like(s)
    lo_min = np.full(units.n_groups, np.inf)
    hi_max = np.full(units.n_groups, -np.inf)
    np.minimum.at(lo_min, g, lo)
    np.maximum.at(hi_max, g, hi)
    has = np.isfinite(lo_min)
    width = float(np.max(hi_max[has] - lo_min[has])) + 1.0
    base = lo_min[g]
    slack = 1e-9 * width
    key_lo = (lo - base) + g * 2.0 * width
    key_hi = (hi - base) + g * 2.0 * width + slack
    order = np.argsort(key_lo, kind="stable")
    sorted_lo = key_lo[order]
    stop = np.searchsorted(sorted_lo, key_hi[order], side="right")
    owner, pos = _expand_ranges(np.arange(units.size) + 1, stop)
    a, b = order[owner], order[pos]
    keep = (units.coder[a] != units.coder[b]) & (g[a] == g[b])
    a, b = a[keep], b[keep]
    swap = units.coder[a] > units.coder[b]
    a, b = np.where(swap, b, a), np.where(swap, a, b)
    d = dissim(s[a], e[a], units.category[a], s[b], e[b], units.category[b])
    keep = d <= bound[g[a]] * (1.0 + _RTOL)
    a, b, d = a[keep], b[keep], d[keep]
    order = np.lexsort((b, a))
    return a[order].astype(np.intp), b[order].astype(np.intp), d[order]


# ---------------------------------------------------------------------------------------------
# two coders: assignment


def _two_coders(
    units: Units, dissim: Dissimilarity, sel: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Matched pairs ``(a, b)`` of the best alignment of the two-coder groups in ``sel``."""
    from scipy.optimize import linear_sum_assignment
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    delta = dissim.delta_empty
    a, b, d = candidate_pairs(units, dissim, bound=np.full(units.n_groups, 2.0 * delta))
    in_sel = sel[units.group[a]]
    gain = d - 2.0 * delta  # negative: aligning the pair beats leaving both alone
    use = in_sel & (gain < 0)
    a, b, gain = a[use], b[use], gain[use]
    if a.size == 0:
        return a, b
    n = units.size
    graph = coo_matrix((np.ones(a.size), (a, b)), shape=(n, n))
    _, label = connected_components(graph, directed=False)
    comp = label[a]
    sizes = np.bincount(label, minlength=label.max() + 1)
    single_edge = np.bincount(comp, minlength=sizes.size) == 1
    easy = single_edge[comp] & (sizes[comp] == 2)
    out_a = [a[easy]]
    out_b = [b[easy]]
    hard = ~easy
    if hard.any():
        ha, hb, hg, hc = a[hard], b[hard], gain[hard], comp[hard]
        order = np.argsort(hc, kind="stable")
        ha, hb, hg, hc = ha[order], hb[order], hg[order], hc[order]
        cuts = np.flatnonzero(np.diff(hc)) + 1
        for ea, eb, eg in zip(
            np.split(ha, cuts), np.split(hb, cuts), np.split(hg, cuts), strict=True
        ):
            rows, ri = np.unique(ea, return_inverse=True)
            cols, ci = np.unique(eb, return_inverse=True)
            cost = np.zeros((rows.size, cols.size))
            cost[ri, ci] = eg
            r, c = linear_sum_assignment(cost)
            good = cost[r, c] < 0
            out_a.append(rows[r[good]])
            out_b.append(cols[c[good]])
    return np.concatenate(out_a), np.concatenate(out_b)


# ---------------------------------------------------------------------------------------------
# more coders: candidates and set partitioning


def _cliques(n_units: int, a: np.ndarray, b: np.ndarray, max_size: int) -> list[np.ndarray]:
    """Cliques of 2..max_size units (one per coder) of the graph with edges ``a -> b``.

    Edges go from the lower coder to the higher one and are sorted by ``(a, b)``; a clique
    is a row of unit indices in increasing coder order. Returns one array per size.
    """
    out: list[np.ndarray] = []
    if a.size == 0 or max_size < 2:
        return out
    keys = a.astype(np.int64) * n_units + b
    indptr = np.searchsorted(a, np.arange(n_units + 1))
    current = np.stack([a, b], axis=1)
    total = current.shape[0]
    while True:
        out.append(current)
        if current.shape[1] >= max_size:
            break
        last = current[:, -1]
        owner, pos = _expand_ranges(indptr[last], indptr[last + 1])
        if owner.size == 0:
            break
        w = b[pos]
        ok = np.ones(owner.size, dtype=bool)
        for col in range(current.shape[1] - 1):
            probe = current[owner, col].astype(np.int64) * n_units + w
            at = np.searchsorted(keys, probe)
            at = np.minimum(at, keys.size - 1)
            ok &= keys[at] == probe
        owner, w = owner[ok], w[ok]
        if owner.size == 0:
            break
        total += owner.size
        if total > MAX_CANDIDATES:
            raise CandidateLimitError(f"more than {MAX_CANDIDATES:,} candidate unitary alignments")
        current = np.concatenate([current[owner], w[:, None]], axis=1)
    return out


def _split_masks(k: int) -> list[tuple[np.ndarray, int, int]]:
    """For each split of ``k`` positions into two non-empty parts (position 0 in the first):
    the 0/1 vector over the position pairs that cross it and the two part sizes."""
    pairs = list(combinations(range(k), 2))
    masks = []
    for mask in range(1, 2 ** (k - 1)):
        bits = [(mask << 1 | 1) >> i & 1 for i in range(k)]  # position 0 always in part 1
        kb = sum(bits)
        if kb == k:
            continue
        cross = np.array([bits[i] != bits[j] for i, j in pairs], dtype=np.float64)
        masks.append((cross, kb, k - kb))
    return masks


def _many_coders(
    units: Units, dissim: Dissimilarity, sel: np.ndarray
) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Unitary alignments (rows of unit indices in coder order) of the best alignment of the
    groups in ``sel``, and their disorders; units left out are singletons."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    delta = dissim.delta_empty
    a, b, _ = candidate_pairs(units, dissim)
    keep = sel[units.group[a]]
    a, b = a[keep], b[keep]
    max_size = int(units.n_coders[sel].max()) if sel.any() else 0
    p_group = _pairs_per_group(units.n_coders)
    kept_sets: list[np.ndarray] = []
    kept_disorder: list[np.ndarray] = []
    for sets in _cliques(units.size, a, b, max_size):
        k = sets.shape[1]
        g = units.group[sets[:, 0]]
        pairs = list(combinations(range(k), 2))
        dm = np.empty((sets.shape[0], len(pairs)))
        for col, (i, j) in enumerate(pairs):
            u, v = sets[:, i], sets[:, j]
            dm[:, col] = _between(units, dissim, u, v)
        p = p_group[g]
        ok = np.ones(sets.shape[0], dtype=bool)
        for cross, kb, kc in _split_masks(k):
            x = dm @ cross
            limit = (p + kb * kc) * delta
            ok &= x <= limit * (1.0 + _RTOL)
        if ok.any():
            sets, dm, p = sets[ok], dm[ok], p[ok]
            kept_sets.append(sets)
            kept_disorder.append((dm.sum(axis=1) + (p - k * (k - 1) / 2.0) * delta) / p)
    if not kept_sets:
        return [], []
    # Candidates of all sizes, flat: the units of candidate c are flat[ptr[c]:ptr[c + 1]].
    sizes = np.concatenate([np.full(t.shape[0], t.shape[1]) for t in kept_sets])
    ptr = np.concatenate([[0], np.cumsum(sizes)])
    flat = np.concatenate([t.ravel() for t in kept_sets])
    cost = np.concatenate(kept_disorder)
    # Units linked by a candidate form independent problems; units in no candidate of two
    # or more stay singletons, outside every program.
    n = units.size
    owner = np.repeat(np.arange(cost.size), sizes)
    graph = coo_matrix((np.ones(flat.size), (flat, flat[ptr[owner]])), shape=(n, n))
    _, label = connected_components(graph, directed=False)
    comp = label[flat[ptr[:-1]]]
    chosen = []
    for members in _chunks(comp, label, flat, ptr):
        chosen.append(_partition(members, flat, ptr, sizes, cost, comp, n, delta))
    pick = np.concatenate(chosen) if chosen else np.zeros(0, dtype=np.intp)
    out_sets: list[np.ndarray] = []
    out_dis: list[np.ndarray] = []
    for k in np.unique(sizes[pick]):
        here = pick[sizes[pick] == k]
        out_sets.append(flat[ptr[here][:, None] + np.arange(k)])
        out_dis.append(cost[here])
    return out_sets, out_dis


# Candidates per integer program: HiGHS takes far longer on one program of many independent
# blocks than on the blocks one by one, and each call has a fixed cost, so independent
# problems are solved together up to about this many candidates.
_CHUNK = 4000


def _chunks(
    comp: np.ndarray, label: np.ndarray, flat: np.ndarray, ptr: np.ndarray
) -> list[np.ndarray]:
    """Candidate indices grouped by component, components packed into chunks."""
    order = np.argsort(comp, kind="stable")
    per_comp = np.bincount(comp, minlength=label.max() + 1)
    ends = np.cumsum(per_comp)
    # a new chunk starts at the first component whose end passes the next multiple of _CHUNK
    chunk_of_comp = np.zeros(per_comp.size, dtype=np.int64)
    chunk_of_comp[1:] = np.cumsum(
        (ends[:-1] // _CHUNK) != (np.concatenate([[0], ends[:-2]]) // _CHUNK)
    )
    chunk = chunk_of_comp[comp[order]]
    cuts = np.flatnonzero(np.diff(chunk)) + 1
    return np.split(order, cuts)


def _partition(
    cands: np.ndarray,
    flat: np.ndarray,
    ptr: np.ndarray,
    sizes: np.ndarray,
    cost: np.ndarray,
    comp: np.ndarray,
    n_units: int,
    delta: float,
) -> np.ndarray:
    r"""The candidates (indices into ``cost``) of the best partition of their units, by
    set partitioning: every unit covered once, by a candidate or by itself alone.

    The linear relaxation (:math:`\min c^T z`, :math:`Az = 1`, :math:`z \ge 0`) is solved
    first. Its components (``comp``: independent blocks) whose solution is a partition
    already are optimal: no integer solution beats the relaxation. For the others, with the
    relaxation's duals :math:`y`, reduced costs :math:`r = c - A^T y` and
    :math:`D = \sum y`, every partition :math:`z` costs
    :math:`c^T z = D + r^T z \ge D + r_j + \sum_i \min(r_i, 0)` when it uses column
    :math:`j`; a column for which that exceeds the cost of a known partition (the
    relaxation's candidates above 1/2, and singletons) is in no best partition and is
    dropped before the integer program, which is solved on what is left of those
    components.
    """
    from scipy.optimize import LinearConstraint, linprog, milp
    from scipy.sparse import csc_matrix

    # columns: the candidates, then one singleton per unit
    k = sizes[cands]
    owner = np.repeat(np.arange(cands.size), k)
    unit = flat[np.repeat(ptr[cands], k) + np.arange(owner.size) - np.repeat(np.cumsum(k) - k, k)]
    units_here = np.unique(unit)
    m = units_here.size
    row_of = np.full(n_units, -1, dtype=np.intp)
    row_of[units_here] = np.arange(m)
    n_col = cands.size + m
    col_rows = np.concatenate([row_of[unit], np.arange(m)])
    col_ids = np.concatenate([owner, cands.size + np.arange(m)])
    # Costs in units of 1e-6 delta: HiGHS's tolerances (1e-7 on reduced costs, an absolute
    # gap of 1e-6) become about 1e-13 and 1e-12 of delta.
    c = np.concatenate([cost[cands], np.full(m, delta)]) * (1e6 / delta)
    unit_comp = np.zeros(m, dtype=np.intp)
    unit_comp[row_of[unit]] = comp[cands][owner]
    col_comp = np.concatenate([comp[cands], unit_comp])

    def matrix(cols: np.ndarray) -> tuple[csc_matrix, np.ndarray]:
        """The constraint matrix of the columns ``cols`` over the rows they touch."""
        take = np.zeros(n_col, dtype=bool)
        take[cols] = True
        new_id = np.full(n_col, -1, dtype=np.intp)
        new_id[cols] = np.arange(cols.size)
        sel = take[col_ids]
        rows = np.unique(col_rows[sel])
        new_row = np.full(m, -1, dtype=np.intp)
        new_row[rows] = np.arange(rows.size)
        a = csc_matrix(
            (np.ones(int(sel.sum())), (new_row[col_rows[sel]], new_id[col_ids[sel]])),
            shape=(rows.size, cols.size),
        )
        return a, rows

    everything = np.arange(n_col)
    a_all, _ = matrix(everything)
    lp = linprog(c, A_eq=a_all, b_eq=np.ones(m), bounds=(0, None), method="highs")
    if lp.x is None or lp.status != 0:
        raise RuntimeError(f"the set-partitioning relaxation failed: {lp.message}")
    x = lp.x
    frac = (x > 1e-6) & (x < 1.0 - 1e-6)
    hard = np.zeros(int(col_comp.max()) + 1, dtype=bool)
    hard[col_comp[frac]] = True
    easy_cols = np.flatnonzero(~hard[col_comp] & (x > 0.5))
    chosen = [easy_cols[easy_cols < cands.size]]
    if hard.any():
        in_hard = hard[col_comp]
        # a partition of the hard components: the candidates above 1/2 in the relaxation
        # (two of them never share a unit, whose coverage is 1), then singletons
        greedy = np.flatnonzero(in_hard[: cands.size] & (x[: cands.size] > 0.5))
        covered = np.zeros(m, dtype=bool)
        covered[row_of[unit[np.isin(owner, greedy)]]] = True
        hard_rows = np.flatnonzero(hard[unit_comp])
        upper = float(c[greedy].sum()) + 1e6 * float((~covered[hard_rows]).sum())
        y = lp.eqlin.marginals
        reduced = c - a_all.T @ y
        cols_h = np.flatnonzero(in_hard)
        rows_h = hard_rows
        dual = float(y[rows_h].sum())
        slack = float(np.minimum(reduced[cols_h], 0.0).sum())
        keep = cols_h[dual + reduced[cols_h] + slack <= upper + 1e-9 * max(1.0, abs(upper))]
        # the known partition stays whatever rounding says, so every unit stays covered
        alone = cands.size + hard_rows[~covered[hard_rows]]
        keep = np.union1d(keep, np.concatenate([np.asarray(greedy, dtype=np.intp), alone]))
        a_keep, _ = matrix(keep)
        res = milp(
            c[keep],
            constraints=LinearConstraint(a_keep, lb=1.0, ub=1.0),
            integrality=np.ones(keep.size),
            bounds=(0.0, 1.0),
            options={"mip_rel_gap": 0.0, "presolve": False},
        )
        if res.x is None or not res.success:
            raise RuntimeError(f"the set-partitioning program failed: {res.message}")
        picked = keep[res.x > 0.5]
        chosen.append(picked[picked < cands.size])
    return cands[np.concatenate(chosen)]


def best_alignment(units: Units, dissim: Dissimilarity) -> Alignment:
    """The best alignment of every group of ``units`` (exact; see the module docstring).

    Groups of two coders are solved as assignment problems, groups of three or more as one
    set-partitioning program. ``members`` has one column per coder slot
    (``max(n_coders)`` columns).
    """
    width = int(units.n_coders.max()) if units.n_groups else 0
    n = units.size
    two = units.n_coders == 2
    many = units.n_coders > 2
    rows: list[np.ndarray] = []
    disorders: list[np.ndarray] = []
    used = np.zeros(n, dtype=bool)
    if two.any():
        pa_, pb_ = _two_coders(units, dissim, two)
        if pa_.size:
            block = np.full((pa_.size, width), -1, dtype=np.intp)
            block[np.arange(pa_.size), units.coder[pa_]] = pa_
            block[np.arange(pb_.size), units.coder[pb_]] = pb_
            rows.append(block)
            disorders.append(_between(units, dissim, pa_, pb_))
            used[pa_] = used[pb_] = True
    if many.any():
        sets_list, dis_list = _many_coders(units, dissim, many)
        for sets, dis in zip(sets_list, dis_list, strict=True):
            block = np.full((sets.shape[0], width), -1, dtype=np.intp)
            for j in range(sets.shape[1]):
                block[np.arange(sets.shape[0]), units.coder[sets[:, j]]] = sets[:, j]
            rows.append(block)
            disorders.append(dis)
            used[sets.ravel()] = True
    alone = np.flatnonzero(~used)
    if alone.size:
        block = np.full((alone.size, width), -1, dtype=np.intp)
        block[np.arange(alone.size), units.coder[alone]] = alone
        rows.append(block)
        disorders.append(np.full(alone.size, float(dissim.delta_empty)))
    if not rows:
        return Alignment(
            np.zeros((0, width), dtype=np.intp), np.zeros(0, dtype=np.intp), np.zeros(0)
        )
    members, disorder = _merge_ties(np.concatenate(rows), np.concatenate(disorders), units, dissim)
    first = np.where(members >= 0, members, np.iinfo(np.intp).max).min(axis=1)
    order = np.lexsort((units.start[first], units.group[first]))
    members = members[order]
    first = first[order]
    return Alignment(members, units.group[first], disorder[order])


def _merge_ties(
    members: np.ndarray, disorder: np.ndarray, units: Units, dissim: Dissimilarity
) -> tuple[np.ndarray, np.ndarray]:
    """Join two unitary alignments of a best alignment when joining them costs exactly as
    much as keeping them apart (a tie between best alignments), until none can be.

    The disorder stays the same (to rounding); the alignment becomes the one that aligns
    units whenever that costs nothing, whichever vertex the solver stopped at.
    """
    a, b, _ = candidate_pairs(units, dissim)
    if a.size == 0:
        return members, disorder
    members = members.copy()
    disorder = disorder.copy()
    alive = np.ones(members.shape[0], dtype=bool)
    tol = 1e-12 * dissim.delta_empty
    while True:
        r, c = np.nonzero(members >= 0)
        row_of = np.empty(units.size, dtype=np.intp)
        row_of[members[r, c]] = r
        ra, rb = row_of[a], row_of[b]
        keep = (ra != rb) & alive[ra] & alive[rb]
        pairs = np.unique(np.stack([np.minimum(ra, rb), np.maximum(ra, rb)], axis=1)[keep], axis=0)
        if pairs.size == 0:
            break
        ra, rb = pairs[:, 0], pairs[:, 1]
        apart = ~((members[ra] >= 0) & (members[rb] >= 0)).any(axis=1)
        ra, rb = ra[apart], rb[apart]
        merged = np.where(members[ra] >= 0, members[ra], members[rb])
        group = units.group[np.where(members[ra] >= 0, members[ra], -1).max(axis=1)]
        joined = unitary_disorder(merged, units, dissim, group)
        tie = np.flatnonzero(joined <= disorder[ra] + disorder[rb] + tol)
        if tie.size == 0:
            break
        taken = np.zeros(members.shape[0], dtype=bool)
        for t in tie:  # ties are rare: one pass over them, each row joined once per pass
            x, y = ra[t], rb[t]
            if taken[x] or taken[y]:
                continue
            taken[x] = taken[y] = True
            members[x] = merged[t]
            disorder[x] = joined[t]
            members[y] = -1
            alive[y] = False
    return members[alive], disorder[alive]


# ---------------------------------------------------------------------------------------------
# gamma-cat and gamma-k


def categorical_sums(
    alignment: Alignment, units: Units, dissim: Dissimilarity, n_categories: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    r"""The sums behind :math:`\gamma_{cat}` and :math:`\gamma_k` (Mathet 2017), per group.

    Every pair of units of a unitary alignment with :math:`n_v \ge 2` units weighs
    :math:`w = p / (n_v - 1)`, :math:`p = \max(0, 1 - d_{pos}(u, v))` (the pairing
    confidence, :math:`d_{pos}` the positional dissimilarity without :math:`\alpha`), and
    carries the categorical dissimilarity :math:`\Delta_\emptyset M_{c_u c_v}`. Returns
    ``(num, den)`` per group (:math:`\sum w\,d_{cat}` and :math:`\sum w`) and, for
    :math:`\gamma_k`, the same per (group, category) over the pairs with a unit of that
    category, each shaped ``(n_groups, n_categories)``.
    """
    members = alignment.members
    present = members >= 0
    nv = present.sum(axis=1)
    n_groups = units.n_groups
    num = np.zeros(n_groups)
    den = np.zeros(n_groups)
    num_k = np.zeros((n_groups, n_categories))
    den_k = np.zeros((n_groups, n_categories))
    width = members.shape[1]
    for i, j in combinations(range(width), 2):
        both = present[:, i] & present[:, j]
        if not both.any():
            continue
        u, v = members[both, i], members[both, j]
        g = alignment.group[both]
        conf = np.maximum(
            0.0, 1.0 - dissim.positional(units.start[u], units.end[u], units.start[v], units.end[v])
        )
        w = conf / (nv[both] - 1.0)
        cu, cv = units.category[u], units.category[v]
        dc = dissim.categorical(cu, cv)
        num += np.bincount(g, weights=w * dc, minlength=n_groups)
        den += np.bincount(g, weights=w, minlength=n_groups)
        size = n_groups * n_categories
        num_k += np.bincount(g * n_categories + cu, weights=w * dc, minlength=size).reshape(
            n_groups, n_categories
        )
        den_k += np.bincount(g * n_categories + cu, weights=w, minlength=size).reshape(
            n_groups, n_categories
        )
        other = cv != cu  # a pair of two units of one category counts once for it
        num_k += np.bincount(
            g[other] * n_categories + cv[other], weights=(w * dc)[other], minlength=size
        ).reshape(n_groups, n_categories)
        den_k += np.bincount(
            g[other] * n_categories + cv[other], weights=w[other], minlength=size
        ).reshape(n_groups, n_categories)
    return num, den, num_k, den_k


# ---------------------------------------------------------------------------------------------
# random continua


@dataclass(frozen=True)
class StatisticalStats:
    """What the statistical sampler draws from, per group."""

    n_mean: np.ndarray
    n_std: np.ndarray
    gap_mean: np.ndarray
    gap_std: np.ndarray
    dur_mean: np.ndarray
    dur_std: np.ndarray
    cat_cdf: np.ndarray  # (n_groups, n_categories): cumulative category frequencies
    n_coders: np.ndarray


def statistical_stats(units: Units, begin: np.ndarray, n_categories: int) -> StatisticalStats:
    """The statistics of each group that the statistical sampler reproduces.

    Per group: the number of units per coder (mean and standard deviation over the group's
    coders, those without units included); the gaps (a 0, the distance from each coder's
    previous unit to the next in start order, and each coder's first start after
    ``begin`` when positive); unit durations; category frequencies. Standard deviations
    are population ones (``ddof=0``), as in pygamma-agreement's sampler.
    """
    g_count = units.n_groups
    n_c = units.n_coders.astype(np.float64)
    slot = units.group * (int(units.n_coders.max()) if g_count else 1) + units.coder
    width = int(units.n_coders.max()) if g_count else 1
    per_slot = np.bincount(slot, minlength=g_count * width).reshape(g_count, width)
    valid = np.arange(width)[None, :] < units.n_coders[:, None]
    counts = np.where(valid, per_slot, 0).astype(np.float64)
    n_mean = counts.sum(axis=1) / n_c
    n_std = np.sqrt(np.where(valid, (counts - n_mean[:, None]) ** 2, 0.0).sum(axis=1) / n_c)
    # gaps: units sorted by (group, coder, start, end, category)
    order = np.lexsort((units.category, units.end, units.start, units.coder, units.group))
    s, e, sl, g = units.start[order], units.end[order], slot[order], units.group[order]
    same = np.concatenate([[False], sl[1:] == sl[:-1]])
    inner = np.flatnonzero(same)
    first = np.flatnonzero(~same)
    lead = s[first] - begin[g[first]]
    lead_ok = lead > 0
    gap_vals = np.concatenate([s[inner] - e[inner - 1], lead[lead_ok], np.zeros(g_count)])
    gap_grp = np.concatenate([g[inner], g[first][lead_ok], np.arange(g_count)])
    gap_n = np.bincount(gap_grp, minlength=g_count)
    gap_mean = np.bincount(gap_grp, weights=gap_vals, minlength=g_count) / gap_n
    gap_std = np.sqrt(
        np.bincount(gap_grp, weights=(gap_vals - gap_mean[gap_grp]) ** 2, minlength=g_count) / gap_n
    )
    dur = units.end - units.start
    nu = np.bincount(units.group, minlength=g_count)
    with np.errstate(invalid="ignore", divide="ignore"):
        dur_mean = np.bincount(units.group, weights=dur, minlength=g_count) / nu
        dur_std = np.sqrt(
            np.bincount(units.group, weights=(dur - dur_mean[units.group]) ** 2, minlength=g_count)
            / nu
        )
        freq = (
            np.bincount(
                units.group * n_categories + units.category, minlength=g_count * n_categories
            ).reshape(g_count, n_categories)
            / nu[:, None]
        )
    cdf = np.cumsum(freq, axis=1)
    return StatisticalStats(
        n_mean, n_std, gap_mean, gap_std, dur_mean, dur_std, cdf, units.n_coders.copy()
    )


# Shortest unit the statistical sampler draws (its durations are redrawn below this).
MIN_DURATION = 1e-6


def statistical_sample(
    stats: StatisticalStats, rng: np.random.Generator, groups: np.ndarray | None = None
) -> Units:
    """One random continuum per group from :func:`statistical_stats` (pygamma-agreement's
    default sampler).

    Each coder of a group draws a number of units :math:`|\\lfloor N(\\mu_n, \\sigma_n)
    \\rceil_0|` (truncated towards 0; the group's first coder at least 1); each unit starts
    a gap :math:`N(\\mu_g, \\sigma_g)` after the end of that coder's previous unit (or 0),
    lasts :math:`|N(\\mu_d, \\sigma_d)|` (redrawn below :data:`MIN_DURATION`), and takes a
    category drawn from the group's frequencies.
    """
    n_groups = stats.n_coders.size
    if groups is None:
        groups = np.arange(n_groups)
    n_c = stats.n_coders[groups]
    slot_group = np.repeat(groups, n_c)
    slot_coder = np.concatenate([np.arange(k) for k in n_c]) if n_c.size else np.zeros(0, int)
    draw = rng.normal(stats.n_mean[slot_group], stats.n_std[slot_group])
    counts = np.abs(np.trunc(draw)).astype(np.int64)
    first_slot = np.ones(counts.size, dtype=bool)
    first_slot[1:] = slot_group[1:] != slot_group[:-1]
    counts[first_slot] = np.maximum(counts[first_slot], 1)
    unit_slot = np.repeat(np.arange(counts.size), counts)
    g = slot_group[unit_slot]
    gap = rng.normal(stats.gap_mean[g], stats.gap_std[g])
    dur = np.abs(rng.normal(stats.dur_mean[g], stats.dur_std[g]))
    short = dur < MIN_DURATION
    while short.any():
        dur[short] = np.abs(rng.normal(stats.dur_mean[g[short]], stats.dur_std[g[short]]))
        short = dur < MIN_DURATION
    step = gap + dur
    csum = np.cumsum(step)
    before = np.concatenate([[0.0], csum])[np.cumsum(counts) - counts]  # sum before each slot
    end = csum - before[unit_slot]
    start = end - dur
    u = rng.random(g.size)
    cdf = stats.cat_cdf[g]
    category = (u[:, None] >= cdf).sum(axis=1)
    category = np.minimum(category, stats.cat_cdf.shape[1] - 1)
    local = np.full(n_groups, -1, dtype=np.intp)
    local[groups] = np.arange(groups.size)
    return Units(
        start=start,
        end=end,
        category=category.astype(np.intp),
        coder=slot_coder[unit_slot].astype(np.intp),
        group=local[g],
        n_coders=n_c.astype(np.intp),
    )


def shuffle_sample(
    units: Units,
    begin: np.ndarray,
    end: np.ndarray,
    rng: np.random.Generator,
    min_distance: np.ndarray,
) -> Units:
    """One random continuum per group by shifting whole coders (Mathet et al. 2015, 5.2).

    For each of the :math:`n_g` coder slots of a group, a coder of the group is drawn with
    replacement and all its units are shifted by ``pivot - begin``. The integer pivot is
    drawn uniformly from what is left of ``[begin, end)`` once
    ``[pivot - min_distance, pivot + min_distance]`` is cut out around each earlier pivot
    (uniformly from the whole continuum, not rounded, once nothing is left); a unit whose
    shifted start passes ``end`` wraps around by the continuum's length. A draw without any
    unit is drawn again (a group without units gives none).
    """
    n_groups = units.n_groups
    width = int(units.n_coders.max()) if n_groups else 1
    slot = units.group * width + units.coder
    order = np.argsort(slot, kind="stable")
    slot_ptr = np.searchsorted(slot[order], np.arange(n_groups * width + 1))
    has_units = units.units_per_group() > 0
    parts: list[tuple[np.ndarray, ...]] = []
    for grp in np.flatnonzero(has_units):
        b0, b1 = float(begin[grp]), float(end[grp])
        length = b1 - b0
        n = int(units.n_coders[grp])
        cut = float(min_distance[grp])
        while True:
            avail = [(b0, b1)]
            drawn = []
            for new_slot in range(n):
                if avail:
                    lens = np.array([hi - lo for lo, hi in avail])
                    lo, hi = avail[int(rng.choice(len(avail), p=lens / lens.sum()))]
                    pivot = float(np.floor(rng.uniform(lo, hi)))
                    avail = [
                        piece
                        for lo, hi in avail
                        for piece in ((lo, min(hi, pivot - cut)), (max(lo, pivot + cut), hi))
                        if piece[1] > piece[0]
                    ]
                else:
                    pivot = float(rng.uniform(b0, b1))
                ref = int(rng.integers(n))
                idx = order[slot_ptr[grp * width + ref] : slot_ptr[grp * width + ref + 1]]
                s = units.start[idx] + (pivot - b0)
                e = units.end[idx] + (pivot - b0)
                wrap = s > b1
                drawn.append(
                    (
                        np.where(wrap, s - length, s),
                        np.where(wrap, e - length, e),
                        units.category[idx],
                        np.full(idx.size, new_slot, dtype=np.intp),
                        np.full(idx.size, grp, dtype=np.intp),
                    )
                )
            if any(d[0].size for d in drawn):
                break
        parts.extend(drawn)

    def join(k: int, dtype: type) -> np.ndarray:
        return np.concatenate([p[k] for p in parts]).astype(dtype) if parts else np.zeros(0, dtype)

    return Units(
        start=join(0, np.float64),
        end=join(1, np.float64),
        category=join(2, np.intp),
        coder=join(3, np.intp),
        group=join(4, np.intp),
        n_coders=units.n_coders.copy(),
    )
