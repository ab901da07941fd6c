r"""Sums over pairs of intersecting sets, in bounded memory: the expected part of set alpha.

For a set distance :math:`\delta = 1 - s` that depends only on the (weighted) sizes of two
sets and of their intersection, :math:`s = s(|A \cap B|, |A|, |B|)`, and is 1 for disjoint
sets (:math:`s(0, a, b) = 0`), the expected disagreement needs

.. math::

    S(n) = \sum_{c \ne k} n_c\, n_k\, s_{ck}

over the distinct sets :math:`c, k` of the value domain with marginals :math:`n_c`. Listing
every intersecting pair costs time and memory quadratic in the number of sets that share a
label: 20,000 sets that all hold one label make 200 million pairs. This module avoids that:

1. **Heavy labels.** Labels held by many sets (more than :data:`HEAVY_SETS`) are *heavy*.
   Sets are grouped by their size and their pattern of heavy labels. For two sets whose
   only common labels are heavy, :math:`s` depends on their groups alone, so those pairs
   are summed group by group: :math:`\sum_{g, g'} N_g N_{g'} s(h_{gg'}, a_g, a_{g'})` with
   :math:`N_g` the marginal mass of group :math:`g` and :math:`h_{gg'}` the weight of the
   heavy labels the two patterns share. That is :math:`G^2` evaluations for :math:`G`
   groups, whatever the number of pairs.
2. **Light corrections.** Pairs that also share a light label are found by a sparse
   product of the light incidence matrix with its transpose, block of rows by block of
   rows (each block's product holds at most :data:`~pandas_agree._core.tuning.BLOCK_CELLS`
   entries), and add :math:`n_c n_k (s(h + l) - s(h))`; nothing is kept between blocks
   unless all corrections fit in one block.

Without heavy labels this is the plain blocked sparse product: time linear in the number of
pairs that share a label, memory bounded by the block size.

When sets are small and drawn from at most 63 labels (multi-label tags, dialogue acts,
emotions), :class:`SubsetSums` needs no pairs at all: it counts, for every pair of set sizes
``(a, b)``, the mass of pairs whose intersection has ``i`` labels, from the subsets the sets
contain (:math:`\sum_{c,k} n_c n_k z^{|A_c \cap A_k|} = \sum_S (z-1)^{|S|} N(S)^2` with
:math:`N(S)` the mass of the sets that contain :math:`S`). Its cost is the number of subsets,
:math:`\sum_c 2^{|A_c|}`, whatever the overlap. :func:`pair_sums` picks the route.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

import numpy as np
import scipy.sparse as sp
from scipy.linalg import blas
from scipy.sparse.csgraph import connected_components

from .tuning import (
    BLOCK_CELLS,
    DENSE_EVAL_COST,
    DENSE_MIN_SETS,
    DENSE_SPEEDUP,
    HEAVY_SETS,
    KEEP_PAIRS_ENTRIES,
    MAX_GROUPS,
    MAX_HEAVY,
    SUBSET_ENTRIES,
)

__all__ = ["PairSums", "SubsetSums", "pair_sums"]


def _canonical(incidence: sp.csr_matrix) -> sp.csr_matrix:
    """``incidence`` as a float CSR matrix in canonical form (duplicates summed, sorted)."""
    inc = sp.csr_matrix(incidence, dtype=float)
    inc.sum_duplicates()
    inc.sort_indices()
    return inc


class PairSums:
    """:math:`S(n) = \\sum_{c \\ne k} n_c n_k s_{ck}` for a set domain, in bounded memory.

    Parameters
    ----------
    incidence : scipy.sparse.csr_matrix, shape (V, L)
        Weight of label ``l`` in set ``c`` (1 for plain sets; a label's weight is the same
        in every set that holds it).
    similarity : callable
        ``similarity(inter, size_a, size_b)``: ``1 - delta`` for arrays of (weighted)
        intersection sizes and set sizes, only ever called with ``inter > 0``.

    Examples
    --------
    Jaccard similarity on {a}, {a, b}, {c} with marginals 1, 2, 3: only the first two
    intersect (similarity 1/2), so S = 2 * 1 * 2 * 1/2 = 2.

    >>> inc = sp.csr_matrix(np.array([[1, 0, 0], [1, 1, 0], [0, 0, 1]], dtype=float))
    >>> ps = PairSums(inc, lambda i, a, b: i / (a + b - i))
    >>> float(ps.sum(np.array([1.0, 2.0, 3.0])))
    2.0
    """

    def __init__(self, incidence: sp.csr_matrix, similarity: Callable[..., np.ndarray]) -> None:
        inc = _canonical(incidence)
        self.weighted = bool(inc.nnz and not np.all(inc.data == 1.0))
        self.similarity = similarity
        self.n_sets = inc.shape[0]
        self.sizes = np.asarray(inc.sum(axis=1)).ravel()
        binary = inc.copy()
        binary.data[:] = 1.0
        holders = np.asarray(binary.sum(axis=0)).ravel()
        label_weight = np.zeros(inc.shape[1])
        label_weight[inc.indices] = inc.data  # the same in every set
        # Weighted sets are not grouped: a subset must be recognised exactly (inter == size),
        # so intersections add their weights in the same order as the set sizes do.
        heavy = np.zeros(0, dtype=np.intp) if self.weighted else self._choose_heavy(binary, holders)
        if heavy.size:
            light = np.setdiff1d(np.arange(inc.shape[1]), heavy)
            self.light = inc[:, light].tocsr()
            light_binary = binary[:, light].tocsr()
            self.light_holders = holders[light]
        else:
            self.light, light_binary, self.light_holders = inc, binary, holders
        self._split_components(light_binary)
        # groups of (size, heavy pattern) and the heavy weight shared by two groups
        pattern = binary[:, heavy].toarray().astype(bool)
        key = np.column_stack([self.sizes, pattern.astype(float)])
        uniq, self.group = np.unique(key, axis=0, return_inverse=True)
        self.group = self.group.ravel()
        self.group_size = uniq[:, 0]
        group_pattern = uniq[:, 1:]
        self.shared = (group_pattern * label_weight[heavy]) @ group_pattern.T  # G x G
        self.base = self._similarity_or_zero(
            self.shared, self.group_size[:, None], self.group_size[None, :]
        )
        self._cache: list[tuple[np.ndarray, np.ndarray, np.ndarray]] | None = None

    def _split_components(self, light_binary: sp.csr_matrix) -> None:
        """Sets that share light labels form components; large ones get dense products.

        A component of ``m`` sets costs ``m^2`` cells as a dense block (BLAS), but up to
        ``m^2`` times the labels they share as a sparse product: chains of coreference
        mentions, whose codes share almost all their labels, are the case in point.
        """
        v, n_labels = light_binary.shape
        graph = sp.csr_matrix(
            (light_binary.data, light_binary.indices + v, light_binary.indptr),
            shape=(v, v + n_labels),
        )
        graph.resize((v + n_labels, v + n_labels))
        _, comp_all = connected_components(graph, directed=True, connection="weak")
        comp = comp_all[:v]
        n_comp = int(comp_all.max()) + 1
        members = np.bincount(comp, minlength=n_comp).astype(float)
        labels = np.bincount(comp_all[v:], minlength=n_comp).astype(float)
        # sparse work of a component: its rows' products; dense work: members^2 x labels
        # multiply-adds in BLAS, about DENSE_SPEEDUP times cheaper each
        holders = np.asarray(light_binary.sum(axis=0)).ravel()
        sparse_work = np.bincount(comp, weights=light_binary @ holders, minlength=n_comp)
        dense_work = members**2 * (labels + DENSE_EVAL_COST) / DENSE_SPEEDUP
        # Weighted sets stay sparse: their intersections must add the weights in the same
        # order as their sizes, so that a subset is recognised exactly (MASI's 2/3).
        use = (members >= DENSE_MIN_SETS) & (members**2 <= BLOCK_CELLS) & (dense_work < sparse_work)
        use &= not self.weighted
        dense = use[comp]
        order = np.argsort(np.where(dense, comp, -1), kind="stable")
        self.sparse_rows = np.sort(order[~dense[order]])
        dense_rows = order[dense[order]]
        bounds = np.flatnonzero(np.diff(comp[dense_rows])) + 1
        self.dense_groups = np.split(dense_rows, bounds) if dense_rows.size else []
        self.light_binary_t = light_binary.T.tocsr()

    @staticmethod
    def _choose_heavy(binary: sp.csr_matrix, holders: np.ndarray) -> np.ndarray:
        """Labels held by more than HEAVY_SETS sets (most held first), while groups stay few."""
        order = np.argsort(-holders, kind="stable")
        heavy = order[holders[order] > HEAVY_SETS][:MAX_HEAVY]
        sizes = np.asarray(binary.sum(axis=1)).ravel()
        while heavy.size:
            pattern = binary[:, heavy].toarray()
            key = np.column_stack([sizes, pattern])
            if np.unique(key, axis=0).shape[0] <= MAX_GROUPS:
                break
            heavy = heavy[:-1]
        return np.sort(heavy)

    def _similarity_or_zero(
        self, inter: np.ndarray, size_a: np.ndarray, size_b: np.ndarray
    ) -> np.ndarray:
        inter, size_a, size_b = np.broadcast_arrays(inter, size_a, size_b)
        out = np.zeros(inter.shape)
        some = inter > 0
        if some.any():
            out[some] = self.similarity(inter[some], size_a[some], size_b[some])
        return out

    def _blocks(self):
        """``(c, k, delta_s)`` for the pairs ``c != k`` that share a light label, by blocks."""
        if self._cache is not None:
            yield from self._cache
            return
        keep = self.light.nnz <= KEEP_PAIRS_ENTRIES
        kept = []
        for item in itertools.chain(self._sparse_blocks(), self._dense_blocks()):
            if keep:
                kept.append(item)
            yield item
        if keep:
            self._cache = kept

    def _corrections(
        self, c: np.ndarray, k: np.ndarray, light: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        gc, gk = self.group[c], self.group[k]
        h = self.shared[gc, gk]
        size_c, size_k = self.group_size[gc], self.group_size[gk]
        delta_s = self.similarity(h + light, size_c, size_k) - self.base[gc, gk]
        return c, k, np.asarray(delta_s, dtype=float)

    def _sparse_blocks(self):
        rows = self.sparse_rows
        if rows.size == 0 or self.light.nnz == 0:
            return
        light = self.light[rows] if rows.size < self.n_sets else self.light
        products = light @ self.light_holders
        total = float(products.sum())
        cuts = np.searchsorted(np.cumsum(products), np.arange(BLOCK_CELLS, total, BLOCK_CELLS))
        starts = np.unique(np.concatenate(([0], np.minimum(cuts + 1, rows.size), [rows.size])))
        for start, stop in itertools.pairwise(starts):
            block = (light[start:stop] @ self.light_binary_t).tocoo()
            c = rows[block.row + start]
            k = block.col.astype(np.intp)
            off = c != k
            yield self._corrections(c[off], k[off], block.data[off])

    def _dense_blocks(self):
        for members in self.dense_groups:
            sub = self.light[members]
            present = np.zeros(sub.shape[1], dtype=bool)
            present[sub.indices] = True
            local = (np.cumsum(present) - 1)[sub.indices]
            row_of = np.repeat(np.arange(members.size), np.diff(sub.indptr))
            # counts below 2**24 are exact in float32, at twice the BLAS speed
            x = np.zeros((members.size, int(present.sum())), dtype=np.float32)
            x[row_of, local] = 1.0
            inter = blas.ssyrk(1.0, x).astype(float)
            np.fill_diagonal(inter, 0.0)
            i, j = np.nonzero(inter)  # the upper triangle: each pair once, counted twice
            c, k, delta_s = self._corrections(members[i], members[j], inter[i, j])
            yield c, k, 2.0 * delta_s

    def sum(self, n_c: np.ndarray) -> float:
        """:math:`S(n)` for one vector of marginals."""
        n_c = np.asarray(n_c, dtype=float)
        mass = np.bincount(self.group, weights=n_c, minlength=self.group_size.size)
        self_terms = np.diag(self.base)[self.group]
        total = float(mass @ self.base @ mass) - float((n_c**2 * self_terms).sum())
        for c, k, delta_s in self._blocks():
            total += float((n_c[c] * n_c[k] * delta_s).sum())
        return total

    def sums(self, marginals: sp.csr_matrix) -> np.ndarray:
        """:math:`S(n)` for every row of a (rows x V) matrix of marginals."""
        rows = sp.csr_matrix(marginals, dtype=float)
        onehot = sp.csr_matrix(
            (np.ones(self.n_sets), (np.arange(self.n_sets), self.group)),
            shape=(self.n_sets, self.group_size.size),
        )
        mass = np.asarray((rows @ onehot).todense())
        out = np.einsum("rg,gh,rh->r", mass, self.base, mass)
        out -= np.asarray(rows.multiply(rows) @ np.diag(self.base)[self.group]).ravel()
        for c, k, delta_s in self._blocks():
            pairs = sp.csr_matrix((delta_s, (c, k)), shape=(self.n_sets, self.n_sets))
            out += np.asarray(rows.multiply(rows @ pairs).sum(axis=1)).ravel()
        return out


class SubsetSums:
    r""":math:`S(n)` through intersection-size counts per pair of set sizes (no pairs listed).

    For unweighted sets of at most 63 labels. Let :math:`N_a(T)` be the mass of the sets of
    size :math:`a` that contain the label set :math:`T`. Summed over all :math:`j`-subsets
    :math:`T`, :math:`M_j[a, b] = \sum_{|T| = j} N_a(T) N_b(T) = \sum_i \binom{i}{j}
    W_i[a, b]`, where :math:`W_i[a, b]` is the mass of ordered pairs of sets of sizes
    :math:`(a, b)` with exactly :math:`i` common labels. Inverting the binomial transform,
    :math:`W_i = \sum_{j \ge i} (-1)^{j - i} \binom{j}{i} M_j`, and

    .. math::

        S(n) = \sum_{a, b} \sum_{i \ge 1} W_i[a, b]\, s(i, a, b)
               - \sum_c n_c^2\, s(a_c, a_c, a_c)

    (a set paired with itself is counted in :math:`W` and taken out). With integer
    marginals every step is exact in float64 below :math:`2^{53}`.

    Examples
    --------
    The sets of :class:`PairSums`' example: both routes give the same sum.

    >>> inc = sp.csr_matrix(np.array([[1, 0, 0], [1, 1, 0], [0, 0, 1]], dtype=float))
    >>> jaccard = lambda i, a, b: i / (a + b - i)
    >>> n = np.array([1.0, 2.0, 3.0])
    >>> float(SubsetSums(inc, jaccard).sum(n)), float(PairSums(inc, jaccard).sum(n))
    (2.0, 2.0)
    """

    def __init__(self, incidence: sp.csr_matrix, similarity: Callable[..., np.ndarray]) -> None:
        inc = _canonical(incidence)
        self.n_sets = inc.shape[0]
        sizes = np.diff(inc.indptr)
        self.size_values, self.size_class = np.unique(sizes, return_inverse=True)
        self.size_class = self.size_class.ravel()
        keys, owners = [], []
        for a in self.size_values.tolist():
            if a == 0:
                continue
            rows = np.flatnonzero(sizes == a)
            labels = inc.indices[inc.indptr[rows][:, None] + np.arange(a)].astype(np.uint64)
            bits = np.left_shift(np.uint64(1), labels)  # n_a x a
            for pick in range(1, 1 << a):  # every non-empty subset of each set
                chosen = [t for t in range(a) if pick >> t & 1]
                keys.append(np.bitwise_or.reduce(bits[:, chosen], axis=1))
                owners.append(rows)
        if keys:
            key = np.concatenate(keys)
            owner = np.concatenate(owners)
            uniq, subset = np.unique(key, return_inverse=True)
            self.subset_size = _popcount(uniq)
            self.contains = sp.csr_matrix(
                (np.ones(key.size), (subset.ravel(), owner)), shape=(uniq.size, self.n_sets)
            )
        else:
            self.subset_size = np.zeros(0, dtype=np.intp)
            self.contains = sp.csr_matrix((0, self.n_sets))
        # similarity on the grid (i common labels, sizes a and b), 0 where i > min(a, b)
        top = int(self.size_values.max()) if self.size_values.size else 0
        i = np.arange(1, top + 1, dtype=float)[:, None, None]
        a = self.size_values.astype(float)[None, :, None]
        b = self.size_values.astype(float)[None, None, :]
        i, a, b = np.broadcast_arrays(i, a, b)
        ok = i <= np.minimum(a, b)
        grid = np.zeros(i.shape)
        grid[ok] = similarity(i[ok], a[ok], b[ok])
        self.grid = grid  # top x A x A
        # W_i = sum_j (-1)^(j-i) C(j, i) M_j, for i, j = 1..top
        j = np.arange(1, top + 1)
        binom = np.array([[math.comb(int(jj), int(ii)) for jj in j] for ii in j], dtype=float)
        sign = (-1.0) ** (j[None, :] - j[:, None])
        self.inverse = np.triu(binom * sign)  # rows i, columns j
        # a set paired with itself: i = a common labels, as counted in W
        self_similarity = np.zeros(self.size_values.size)
        for idx, size in enumerate(self.size_values.tolist()):
            if size > 0:
                self_similarity[idx] = grid[size - 1, idx, idx]
        self.self_similarity = self_similarity[self.size_class]

    @staticmethod
    def applies(incidence: sp.csr_matrix) -> bool:
        """Whether the subset route is exact and cheap for these sets."""
        inc = sp.csr_matrix(incidence)
        if inc.shape[1] > 63 or (inc.nnz and not np.all(inc.data == 1.0)):
            return False
        sizes = np.diff(inc.indptr)
        return bool(sizes.max(initial=0) <= 20 and np.sum(2.0**sizes) <= SUBSET_ENTRIES)

    def _moments(self, mass: np.ndarray) -> np.ndarray:
        """M_j[a, b] for j = 1..top from N (subsets x size classes x rows)."""
        top = self.grid.shape[0]
        out = np.zeros((top, *mass.shape[1:2], *mass.shape[1:2], mass.shape[2]))
        for jj in range(1, top + 1):
            sel = mass[self.subset_size == jj]
            out[jj - 1] = np.einsum("sar,sbr->abr", sel, sel)
        return out

    def sums(self, marginals: sp.csr_matrix | np.ndarray) -> np.ndarray:
        """:math:`S(n)` for every row of a (rows x V) matrix of marginals."""
        rows = np.asarray(
            marginals.toarray() if sp.issparse(marginals) else marginals, dtype=float
        )
        rows = np.atleast_2d(rows)
        if self.contains.shape[0] == 0:  # no set holds a label: no pair intersects
            return np.zeros(rows.shape[0])
        n_classes = self.size_values.size
        out = np.empty(rows.shape[0])
        chunk = max(1, BLOCK_CELLS // max(1, self.contains.shape[0] * n_classes))
        for start in range(0, rows.shape[0], chunk):
            block = rows[start : start + chunk]  # r x V
            spread = np.zeros((self.n_sets, n_classes, block.shape[0]))
            spread[np.arange(self.n_sets), self.size_class, :] = block.T
            mass = (self.contains @ spread.reshape(self.n_sets, -1)).reshape(
                -1, n_classes, block.shape[0]
            )
            moments = self._moments(mass)  # j x A x A x r
            exact = np.einsum("ij,jabr->iabr", self.inverse, moments)
            total = np.einsum("iabr,iab->r", exact, self.grid)
            out[start : start + chunk] = total - (block**2 * self.self_similarity).sum(axis=1)
        return out

    def sum(self, n_c: np.ndarray) -> float:
        """:math:`S(n)` for one vector of marginals."""
        return float(self.sums(np.asarray(n_c, dtype=float)[None, :])[0])


def _popcount(x: np.ndarray) -> np.ndarray:
    x = x.astype(np.uint64)
    count = np.zeros(x.shape, dtype=np.intp)
    while np.any(x):
        count += (x & np.uint64(1)).astype(np.intp)
        x = x >> np.uint64(1)
    return count


def pair_sums(
    incidence: sp.csr_matrix, similarity: Callable[..., np.ndarray]
) -> PairSums | SubsetSums:
    """The cheaper exact route for :math:`S(n)` on this set domain."""
    if SubsetSums.applies(incidence):
        return SubsetSums(incidence, similarity)
    return PairSums(incidence, similarity)
