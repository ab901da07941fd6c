r"""Label hierarchies: a :class:`Taxonomy`, hierarchical F1, and tree distances for alpha.

A taxonomy is a forest of labels: each label has at most one parent. It can be given as
parent links (``{"Dog": "Mammal", "Mammal": "Animal"}``), a nested dict
(``{"Animal": {"Mammal": ["Dog", "Cat"]}}``) or paths (``"Animal/Mammal/Dog"``, tuples, or
Label Studio's taxonomy results, lists of paths such as ``[["Animal", "Mammal", "Dog"]]``).
The top-level labels hang from a virtual root that is not a label: it is never counted in
a label set and never chosen by a coder.

* :func:`hierarchical_f1`: hierarchical precision, recall and F of Kiritchenko, Matwin,
  Nock & Famili (2006): each coder's label set is augmented with every ancestor of its
  labels, then set precision and recall are micro-averaged over units; per coder pair and
  pooled over pairs.
* Distances for Krippendorff's alpha (:meth:`Taxonomy.distance`, :func:`bind_distance`):

  ``path``
      :math:`d(a, b) = \ell(a, b) / L`, where :math:`\ell(a, b)` is the number of edges
      on the path between ``a`` and ``b`` in the tree (through the virtual root when they
      are in different top-level trees) and :math:`L` is the longest such path between two
      labels of the taxonomy (its diameter), so that :math:`0 \le d \le 1` and the two
      labels farthest apart are at distance 1. The shortest-path length in a tree is a
      metric (Rada, Mili, Bicknell & Blettner 1989), and so is this multiple of it.
  ``wu_palmer``
      :math:`1 - 2\,\mathrm{depth}(c) / (\mathrm{depth}(a) + \mathrm{depth}(b))` with
      :math:`c` the lowest common ancestor, top-level labels at depth 1 and the virtual
      root at depth 0 (Wu & Palmer 1994; NLTK's ``wup_similarity`` on a taxonomy with one
      top-level label). In a tree this equals
      :math:`\ell(a, b) / (\mathrm{depth}(a) + \mathrm{depth}(b))`: the path length over the
      sum of depths, so a step deep in the tree costs less than one near the top. Labels in
      different top-level trees are at distance 1.
  ``jaccard``, ``masi``
      Label sets augmented with the ancestors of their labels, then the Jaccard or MASI
      distance (Passonneau 2006) between the augmented sets: the hierarchical analogue of
      MASI for multi-label annotation. Jaccard on augmented sets is a pseudometric: sets
      with the same closure, such as ``{Dog}`` and ``{Dog, Mammal}``, are at distance 0.

  On a flat taxonomy (no label has a parent) all four are the nominal distance on single
  labels, so alpha with them is nominal alpha.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Literal

import numpy as np
import pandas as pd
from pandas.api.types import is_hashable

from .._core.unique import sorted_unique
from ..declare import declared
from ..errors import (
    ColumnNotFoundError,
    DuplicateRatingError,
    InvalidParameterError,
    MissingInSetError,
    ValueTypeError,
)
from ..results import Result

if TYPE_CHECKING:
    from pandas_agree import Distance

__all__ = [
    "POOLED",
    "TREE_DISTANCES",
    "HierarchicalF1Result",
    "Taxonomy",
    "bind_distance",
    "hierarchical_f1",
]

#: The ``coder_a`` and ``coder_b`` of the pooled row of :meth:`HierarchicalF1Result.to_frame`.
POOLED = "(pooled)"

#: Names :func:`bind_distance` accepts, and the distance each means.
TREE_DISTANCES: dict[str, str] = {
    "tree": "path",
    "path": "path",
    "tree_path": "path",
    "wu_palmer": "wu_palmer",
    "tree_wu_palmer": "wu_palmer",
    "jaccard": "jaccard",
    "tree_jaccard": "jaccard",
    "masi": "masi",
    "tree_masi": "masi",
}

# Above this many labels the path and Wu-Palmer distances are computed pair by pair
# instead of from a label x label table built once.
_DENSE_LABELS = 1024

_SET_TYPES = (set, frozenset, list, tuple, np.ndarray)


def _is_missing(x: Any) -> bool:
    if x is None:
        return True
    try:
        return bool(isinstance(x, float) and math.isnan(x)) or x is pd.NA or x is pd.NaT
    except (TypeError, ValueError):
        return False


def _check_label(x: Any, where: str) -> None:
    if _is_missing(x):
        raise InvalidParameterError(
            f"{where}: a label is missing ({x!r}); every label needs a name"
        )
    if isinstance(x, (set, frozenset, list, dict, np.ndarray)):
        raise InvalidParameterError(f"{where}: a label must be one name, got {x!r}")
    try:
        hash(x)
    except TypeError:
        raise InvalidParameterError(f"{where}: a label must be hashable, got {x!r}") from None



def _py(x: Any) -> Any:
    """A NumPy scalar as the Python scalar it holds (for messages)."""
    return x.item() if isinstance(x, np.generic) else x


def _show(labels: Sequence[Any], n: int = 5) -> str:
    more = ", ..." if len(labels) > n else ""
    return "[" + ", ".join(repr(_py(x)) for x in list(labels)[:n]) + more + "]"


class Taxonomy:
    """A forest of labels: each label has at most one parent.

    Parameters
    ----------
    parents : mapping
        Label -> parent label, or None for a top-level label. A parent that is not itself a
        key is a top-level label. See :meth:`from_nested`, :meth:`from_paths` and
        :meth:`coerce` for the other forms.

    Raises
    ------
    InvalidParameterError
        For parent links that form a cycle (the message lists it), a missing or unhashable
        label, or ``parents`` that is not a mapping.

    Examples
    --------
    >>> from pandas_agree import Taxonomy
    >>> tax = Taxonomy({"Dog": "Mammal", "Cat": "Mammal", "Mammal": "Animal", "Bird": "Animal"})
    >>> tax
    Taxonomy(5 labels, 1 top-level, depth 3)
    >>> tax.ancestors("Dog"), tax.depth("Dog")
    (('Mammal', 'Animal'), 3)
    >>> sorted(tax.augment({"Dog", "Bird"}))
    ['Animal', 'Bird', 'Dog', 'Mammal']
    >>> Taxonomy({"A": "B", "B": "A"})
    Traceback (most recent call last):
    ...
    pandas_agree.errors.InvalidParameterError: the parent links form a cycle: 'A' -> 'B' -> 'A'
    """

    __slots__ = (
        "_anc",
        "_anc_ptr",
        "_dense",
        "_depth",
        "_diameter",
        "_index",
        "_labels",
        "_lookup",
        "_parent",
    )

    def __init__(self, parents: Mapping[Hashable, Hashable | None]) -> None:
        if isinstance(parents, Taxonomy):
            parents = parents.parents()
        if not isinstance(parents, Mapping):
            raise InvalidParameterError(
                "`parents` must be a mapping label -> parent label (None for a top-level "
                f"label), got {type(parents).__name__}; Taxonomy.from_nested, "
                "Taxonomy.from_paths and Taxonomy.coerce take the other forms"
            )
        labels: list[Hashable] = []
        index: dict[Hashable, int] = {}
        for child in parents:
            _check_label(child, "`parents`")
            index[child] = len(labels)
            labels.append(child)
        for child, par in parents.items():
            if _is_missing(par):
                continue
            _check_label(par, f"`parents`[{child!r}]")
            if par not in index:
                index[par] = len(labels)
                labels.append(par)
        parent = np.full(len(labels), -1, dtype=np.int64)
        for child, par in parents.items():
            if not _is_missing(par):
                parent[index[child]] = index[par]
        self._build(labels, index, parent)

    # ------------------------------------------------------------------ construction

    def _build(
        self, labels: list[Hashable], index: dict[Hashable, int], parent: np.ndarray
    ) -> None:
        n = len(labels)
        depth = np.ones(n, dtype=np.int64)
        cur = parent.copy()
        for _ in range(n + 1):
            alive = cur >= 0
            if not alive.any():
                break
            depth[alive] += 1
            cur[alive] = parent[cur[alive]]
        else:
            raise InvalidParameterError(
                "the parent links form a cycle: " + _cycle(labels, parent, int(np.argmax(cur >= 0)))
            )
        ptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(depth, out=ptr[1:])
        anc = np.empty(int(ptr[-1]), dtype=np.int64)
        cur = np.arange(n, dtype=np.int64)
        for step in range(int(depth.max()) if n else 0):
            has = depth > step
            anc[ptr[:-1][has] + step] = cur[has]
            cur = np.where(has, parent[np.maximum(cur, 0)], -1)
        self._labels = tuple(labels)
        self._index = index
        self._parent = parent
        self._depth = depth
        self._anc_ptr = ptr
        self._anc = anc
        self._diameter: int | None = None
        self._dense: dict[str, np.ndarray] = {}
        self._lookup = pd.Index(labels, dtype=object)

    @classmethod
    def from_nested(cls, tree: Mapping[Hashable, Any] | Sequence[Any]) -> Taxonomy:
        """A taxonomy from a nested dict: label -> children.

        Children are a dict (label -> children), a list or tuple of labels and dicts, or
        None (no children). The top level may also be a list.

        Raises
        ------
        InvalidParameterError
            For a label that appears twice (it would have two places in the tree).

        Examples
        --------
        >>> tax = Taxonomy.from_nested({"Animal": {"Mammal": ["Dog", "Cat"], "Bird": None}})
        >>> tax.parent("Cat"), tax.parent("Animal")
        ('Mammal', None)
        """
        links: dict[Hashable, Hashable | None] = {}

        def walk(node: Any, parent: Hashable | None) -> None:
            if node is None:
                return
            if isinstance(node, Mapping):
                for label, children in node.items():
                    add(label, parent)
                    walk(children, label)
            elif isinstance(node, (list, tuple)):
                for item in node:
                    if isinstance(item, (Mapping, list, tuple)):
                        walk(item, parent)
                    else:
                        add(item, parent)
            else:
                raise InvalidParameterError(
                    f"`tree`: the children of {parent!r} must be a dict, a list or None, got "
                    f"{node!r}"
                )

        def add(label: Hashable, parent: Hashable | None) -> None:
            _check_label(label, "`tree`")
            if label in links:
                raise InvalidParameterError(
                    f"`tree`: the label {label!r} appears twice (under {links[label]!r} and "
                    f"under {parent!r}); each label has one place in a taxonomy"
                )
            links[label] = parent

        if not isinstance(tree, (Mapping, list, tuple)):
            raise InvalidParameterError(f"`tree` must be a dict or a list, got {tree!r}")
        walk(tree, None)
        return cls(links)

    @classmethod
    def from_paths(
        cls,
        paths: Iterable[str | Sequence[Hashable]],
        *,
        sep: str = "/",
        names: Literal["leaf", "path"] = "leaf",
    ) -> Taxonomy:
        """A taxonomy from paths from the top: ``"Animal/Mammal/Dog"`` or sequences.

        Every prefix of a path is a label. Label Studio's taxonomy results (a list of paths,
        each a list of names) can be passed as they are.

        Parameters
        ----------
        paths : iterable of str or sequence
            Strings are split at ``sep``; lists and tuples are paths already.
        sep : str, default "/"
        names : {"leaf", "path"}, default "leaf"
            ``"leaf"``: a label is named by its last part (``"Dog"``), and the same name
            under two parents is an error. ``"path"``: a label is named by its whole path
            joined by ``sep`` (``"Animal/Mammal/Dog"``), so equal names under different
            parents stay apart; the values to compare must then be such paths.

        Raises
        ------
        InvalidParameterError
            For an empty path or part, or (``names="leaf"``) a name under two parents.

        Examples
        --------
        >>> tax = Taxonomy.from_paths(["Animal/Mammal/Dog", "Animal/Bird"])
        >>> tax.labels
        ('Animal', 'Mammal', 'Dog', 'Bird')
        >>> Taxonomy.from_paths([["Animal", "Mammal"], ["Toy", "Dog"]]).parent("Dog")
        'Toy'
        >>> Taxonomy.from_paths(["Toy/Dog", "Animal/Dog"], names="path").labels
        ('Toy', 'Toy/Dog', 'Animal', 'Animal/Dog')
        >>> Taxonomy.from_paths(["Toy/Dog", "Animal/Dog"])
        Traceback (most recent call last):
        ...
        pandas_agree.errors.InvalidParameterError: `paths`: the label 'Dog' has two parents, ...
        """
        if names not in ("leaf", "path"):
            raise InvalidParameterError(f"`names` must be 'leaf' or 'path', got {names!r}")
        if not isinstance(sep, str) or not sep:
            raise InvalidParameterError(f"`sep` must be a non-empty string, got {sep!r}")
        if isinstance(paths, (str, bytes, Mapping)) or not isinstance(paths, Iterable):
            raise InvalidParameterError(
                f"`paths` must be a list of paths (strings or lists of names), got {paths!r}"
            )
        links: dict[Hashable, Hashable | None] = {}
        for path in paths:
            if isinstance(path, str):
                parts: list[Any] = path.split(sep)
            elif isinstance(path, (list, tuple)):
                parts = list(path)
            else:
                raise InvalidParameterError(
                    f"`paths`: each path must be a string or a list of names, got {path!r}"
                )
            if not parts or any(p == "" or _is_missing(p) for p in parts):
                raise InvalidParameterError(f"`paths`: the path {path!r} has an empty part")
            parent: Hashable | None = None
            for k, part in enumerate(parts):
                _check_label(part, f"`paths` ({path!r})")
                if names == "path":
                    if not all(isinstance(p, str) for p in parts[: k + 1]):
                        raise InvalidParameterError(
                            f"`paths`: names='path' joins the parts with {sep!r}, so they must "
                            f"be strings; {path!r} is not"
                        )
                    label: Hashable = sep.join(parts[: k + 1])
                else:
                    label = part
                if label in links and links[label] != parent:
                    raise InvalidParameterError(
                        f"`paths`: the label {label!r} has two parents, {links[label]!r} and "
                        f"{parent!r} (in {path!r}); pass names='path' to name labels by their "
                        "whole path"
                    )
                links.setdefault(label, parent)
                parent = label
        return cls(links)

    @classmethod
    def coerce(cls, obj: Any, *, sep: str = "/") -> Taxonomy:
        """A :class:`Taxonomy` from any of its forms.

        A Taxonomy is returned as it is. A mapping whose values are labels or None is parent
        links; a mapping whose values are dicts, lists or None is a nested dict (a mapping
        of None only means the same either way: top-level labels). Any other iterable is a
        list of paths (split at ``sep``).

        Examples
        --------
        >>> Taxonomy.coerce({"Dog": "Animal"}).parent("Dog")
        'Animal'
        >>> Taxonomy.coerce({"Animal": ["Dog"]}).parent("Dog")
        'Animal'
        >>> Taxonomy.coerce(["Animal/Dog"]).parent("Dog")
        'Animal'
        """
        if isinstance(obj, Taxonomy):
            return obj
        if isinstance(obj, Mapping):
            values = list(obj.values())
            nested = [isinstance(v, (Mapping, list, tuple)) for v in values]
            if any(nested):
                scalar = [v for v, n in zip(values, nested) if not n and not _is_missing(v)]
                if scalar:
                    raise InvalidParameterError(
                        "`taxonomy` mixes parent links (label -> parent, e.g. "
                        f"{scalar[0]!r}) and nested children (label -> dict or list); use one "
                        "form, or build it with Taxonomy(...) or Taxonomy.from_nested(...)"
                    )
                return cls.from_nested(obj)
            return cls(obj)
        if isinstance(obj, (str, bytes)) or not isinstance(obj, Iterable):
            raise InvalidParameterError(
                "`taxonomy` must be a Taxonomy, a mapping (parent links or a nested dict) or a "
                f"list of paths, got {obj!r}"
            )
        return cls.from_paths(obj, sep=sep)

    # ------------------------------------------------------------------ reading

    @property
    def labels(self) -> tuple[Hashable, ...]:
        """The labels, in the order they were given."""
        return self._labels

    @property
    def diameter(self) -> int:
        """The longest path between two labels, in edges (through the virtual root if needed).

        Examples
        --------
        >>> Taxonomy.from_paths(["A/B/C", "A/D", "E"]).diameter  # C-B-A-(root)-E
        4
        """
        if self._diameter is None:
            self._diameter = _diameter(self._parent, self._depth)
        return self._diameter

    def __len__(self) -> int:
        return len(self._labels)

    def __iter__(self) -> Iterator[Hashable]:
        return iter(self._labels)

    def __contains__(self, label: object) -> bool:
        try:
            return label in self._index
        except TypeError:
            return False

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Taxonomy):
            return NotImplemented
        return self.parents() == other.parents()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        top = int((self._parent < 0).sum())
        deepest = int(self._depth.max()) if len(self) else 0
        return f"Taxonomy({len(self)} labels, {top} top-level, depth {deepest})"

    def parents(self) -> dict[Hashable, Hashable | None]:
        """The parent links: label -> parent label (None at the top)."""
        return {
            lab: (None if p < 0 else self._labels[p])
            for lab, p in zip(self._labels, self._parent.tolist())
        }

    def parent(self, label: Hashable) -> Hashable | None:
        """The parent of ``label`` (None for a top-level label)."""
        p = int(self._parent[self._code(label)])
        return None if p < 0 else self._labels[p]

    def ancestors(self, label: Hashable) -> tuple[Hashable, ...]:
        """The ancestors of ``label``, nearest first (not the label itself)."""
        c = self._code(label)
        return tuple(
            self._labels[i] for i in self._anc[self._anc_ptr[c] + 1 : self._anc_ptr[c + 1]]
        )

    def depth(self, label: Hashable) -> int:
        """Depth of ``label``: 1 for a top-level label."""
        return int(self._depth[self._code(label)])

    def augment(self, labels: Iterable[Hashable] | Hashable) -> frozenset:
        """A label (or a set of labels) with all the ancestors of its labels."""
        codes = self.codes(_as_list(labels), what="`labels`")
        return frozenset(self._labels[i] for i in sorted_unique(self._expand(codes)[1]))

    def to_frame(self) -> pd.DataFrame:
        """One row per label: ``label``, ``parent`` (None at the top), ``depth``.

        Examples
        --------
        >>> Taxonomy({"Dog": "Animal"}).to_frame()
            label  parent  depth
        0     Dog  Animal      2
        1  Animal    None      1
        """
        return pd.DataFrame(
            {
                "label": pd.Series(self._labels, dtype=object),
                "parent": pd.Series(list(self.parents().values()), dtype=object),
                "depth": self._depth.copy(),
            }
        )

    def codes(self, values: Iterable[Hashable], *, what: str = "`value`") -> np.ndarray:
        """Label codes (positions in :attr:`labels`) of ``values``; unknown labels raise.

        Raises
        ------
        InvalidParameterError
            Naming the first value that is not a label of the taxonomy.
        """
        values = list(values)
        arr = np.fromiter(values, dtype=object, count=len(values))
        try:
            out = self._lookup.get_indexer(arr).astype(np.int64)
        except (TypeError, ValueError):  # unhashable values: look them up one by one
            out = np.array([self._index.get(x, -1) if is_hashable(x) else -1 for x in values])
        bad = out < 0
        if bad.any():
            raise self._unknown(values[int(np.argmax(bad))], what)
        return out.astype(np.int64)

    def _code(self, label: Hashable) -> int:
        return int(self.codes([label], what="`label`")[0])

    def _unknown(self, x: Any, what: str) -> InvalidParameterError:
        return InvalidParameterError(
            f"{what}: the label {_py(x)!r} is not in the taxonomy ({len(self)} labels: "
            f"{_show(self._labels)}); add it to the taxonomy or correct the value"
        )

    def _expand(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(position in ``codes``, label) for every label of ``codes`` and its ancestors."""
        lengths = self._depth[codes]
        pos = np.repeat(np.arange(codes.size), lengths)
        start = np.repeat(self._anc_ptr[codes], lengths)
        offset = np.arange(pos.size) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        return pos, self._anc[start + offset]

    # ------------------------------------------------------------------ distances

    def _lca(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Lowest common ancestor codes of two code arrays (-1: the virtual root)."""
        par = np.append(self._parent, -1)  # index -1 is the virtual root, its own parent
        dep = np.append(self._depth, 0)
        a = np.array(a, dtype=np.int64)
        b = np.array(b, dtype=np.int64)
        da, db = dep[a], dep[b]
        for x, dx, dy in ((a, da, db), (b, db, da)):
            while True:
                up = dx > dy
                if not up.any():
                    break
                x[up] = par[x[up]]
                dx[up] -= 1
        while True:
            differ = a != b
            if not differ.any():
                break
            a[differ] = par[a[differ]]
            b[differ] = par[b[differ]]
        return a

    def path_lengths(self, a: Sequence[Hashable], b: Sequence[Hashable]) -> np.ndarray:
        """Edges on the tree path between ``a[i]`` and ``b[i]`` (through the virtual root).

        Examples
        --------
        >>> tax = Taxonomy.from_paths(["A/B/C", "A/D", "E"])
        >>> tax.path_lengths(["C", "C", "C"], ["D", "E", "C"]).tolist()
        [3, 4, 0]
        """
        ca, cb = self.codes(a, what="`a`"), self.codes(b, what="`b`")
        return self._path_codes(ca, cb)

    def _path_codes(self, ca: np.ndarray, cb: np.ndarray) -> np.ndarray:
        dep = np.append(self._depth, 0)
        return dep[ca] + dep[cb] - 2 * dep[self._lca(ca, cb)]

    def _single_codes(self, kind: str, ca: np.ndarray, cb: np.ndarray) -> np.ndarray:
        dep = np.append(self._depth, 0)
        if kind == "path":
            diam = self.diameter
            length = self._path_codes(ca, cb).astype(float)
            return length / diam if diam else length
        common = dep[self._lca(ca, cb)].astype(float)
        return 1.0 - 2.0 * common / (dep[ca] + dep[cb])

    def distance_matrix(
        self, kind: str = "path", labels: Sequence[Hashable] | None = None
    ) -> pd.DataFrame:
        """The distances between labels (default: all of them) as a square DataFrame.

        ``kind`` is one of ``"path"``, ``"wu_palmer"``, ``"jaccard"``, ``"masi"`` (the last
        two on single labels, augmented with their ancestors).

        Examples
        --------
        >>> tax = Taxonomy.from_paths(["A/B", "A/C"])
        >>> tax.distance_matrix("path")
             A    B    C
        A  0.0  0.5  0.5
        B  0.5  0.0  1.0
        C  0.5  1.0  0.0
        """
        kind = _kind(kind)
        names = list(self._labels) if labels is None else list(labels)
        codes = self.codes(names, what="`labels`")
        ca, cb = np.repeat(codes, codes.size), np.tile(codes, codes.size)
        if kind in ("path", "wu_palmer"):
            flat = self._single_codes(kind, ca, cb)
        else:
            func = self.distance(kind).func
            flat = np.array([func(self._labels[i], self._labels[j]) for i, j in zip(ca, cb)])
        index = pd.Index(names, dtype=object)
        return pd.DataFrame(flat.reshape(codes.size, codes.size), index=index, columns=index)

    def distance(self, kind: str = "path") -> Distance:
        """A :class:`~pandas_agree.Distance` for alpha: ``alpha(df, distance=tax.distance())``.

        Parameters
        ----------
        kind : {"path", "wu_palmer", "jaccard", "masi"}, default "path"
            See the module description. ``"tree"`` means ``"path"``. ``path`` and
            ``wu_palmer`` compare single labels; ``jaccard`` and ``masi`` compare label
            sets (a single label is a one-label set), augmented with their ancestors.

        Returns
        -------
        Distance
            Named ``"tree_<kind>"``; a value that is not a label of the taxonomy raises an
            error naming it when alpha evaluates the distance.

        Examples
        --------
        >>> import pandas as pd
        >>> import pandas_agree as pa
        >>> tax = Taxonomy.from_paths(["Animal/Mammal/Dog", "Animal/Mammal/Cat", "Animal/Bird"])
        >>> df = pd.DataFrame({"unit": [1, 1, 2, 2, 3, 3], "coder": ["A", "B"] * 3,
        ...                    "value": ["Dog", "Cat", "Bird", "Bird", "Cat", "Cat"]})
        >>> tree = tax.distance("path")  # edges over the diameter, 3 (Dog-Mammal-Animal-Bird)
        >>> round(tree("Dog", "Cat"), 4), tree("Dog", "Bird")
        (0.6667, 1.0)
        >>> round(pa.alpha(df, distance=tree).alpha, 4)  # D_o = 2/9, D_e = 2/3
        0.6667
        >>> round(pa.alpha(df, distance="nominal").alpha, 4)
        0.5455
        """
        kind = _kind(kind)
        from .. import Distance as _Distance

        return _Distance(f"tree_{kind}", "callable", self._pair_function(kind))

    def _pair_function(self, kind: str) -> Callable[[Any, Any], float]:
        name = f"tree_{kind}"
        index = self._index
        if kind in ("path", "wu_palmer"):
            dense = self._dense.get(kind)
            if dense is None and len(self) <= _DENSE_LABELS:
                n = len(self)
                ca, cb = np.repeat(np.arange(n), n), np.tile(np.arange(n), n)
                dense = self._single_codes(kind, ca, cb).reshape(n, n)
                self._dense[kind] = dense

            def code(x: Any) -> int:
                if isinstance(x, _SET_TYPES):
                    raise ValueTypeError(
                        f"the distance {name!r} compares single labels, got the set {x!r}; "
                        "for label sets use the 'jaccard' or 'masi' tree distance"
                    )
                try:
                    return index[x]
                except (KeyError, TypeError):
                    raise self._unknown(x, f"the distance {name!r}") from None

            if dense is not None:
                table = dense

                def single(a: Any, b: Any) -> float:
                    return float(table[code(a), code(b)])

            else:  # too many labels for a table: walk up to the lowest common ancestor
                par = self._parent.tolist()
                dep = self._depth.tolist()
                scale = float(self.diameter or 1)

                def single(a: Any, b: Any) -> float:
                    ca, cb = code(a), code(b)
                    da, db = dep[ca], dep[cb]
                    depth_a, depth_b = da, db
                    while da > db:
                        ca, da = par[ca], da - 1
                    while db > da:
                        cb, db = par[cb], db - 1
                    while ca != cb:  # both reach -1, the virtual root at depth 0, at worst
                        ca, cb, da = par[ca], par[cb], da - 1
                    if kind == "path":
                        return (depth_a + depth_b - 2 * da) / scale
                    return 1.0 - 2.0 * da / (depth_a + depth_b)

            single.__name__ = single.__qualname__ = name
            return single

        import pandas_agree as pa

        base = pa.distances.jaccard if kind == "jaccard" else pa.distances.masi
        cache: dict[frozenset, frozenset] = {}

        def augmented(x: Any) -> frozenset:
            key = frozenset(_as_list(x))
            got = cache.get(key)
            if got is None:
                for element in key:
                    if element not in index:
                        raise self._unknown(element, f"the distance {name!r}")
                got = self.augment(key)
                cache[key] = got
            return got

        def on_sets(a: Any, b: Any) -> float:
            return float(base(augmented(a), augmented(b)))

        on_sets.__name__ = on_sets.__qualname__ = name
        return on_sets


def _kind(kind: Any) -> str:
    try:
        return TREE_DISTANCES[kind]
    except (KeyError, TypeError):
        raise InvalidParameterError(
            f"`kind` must be one of {sorted(set(TREE_DISTANCES.values()))} (or 'tree' for "
            f"'path'), got {kind!r}"
        ) from None


def _as_list(x: Any) -> list[Any]:
    if isinstance(x, (set, frozenset, list, tuple)):
        return list(x)
    if isinstance(x, np.ndarray):
        return x.tolist()
    return [x]


def _cycle(labels: Sequence[Hashable], parent: np.ndarray, start: int) -> str:
    """A cycle reached from ``start``, as ``'a' -> 'b' -> 'a'``."""
    k = start
    for _ in range(len(labels)):  # walk into the cycle
        k = int(parent[k])
    first, loop = k, [k]
    k = int(parent[k])
    while k != first:
        loop.append(k)
        k = int(parent[k])
    loop.append(first)
    return " -> ".join(repr(labels[i]) for i in loop)


def _diameter(parent: np.ndarray, depth: np.ndarray) -> int:
    """Longest path between two labels of the forest (edges; via the virtual root)."""
    n = parent.size
    if n < 2:
        return 0
    height = np.zeros(n, dtype=np.int64)  # edges down to the deepest descendant
    for d in range(int(depth.max()), 1, -1):
        at = np.flatnonzero(depth == d)
        np.maximum.at(height, parent[at], height[at] + 1)
    # the two longest branches below each node (the virtual root is node n)
    owner = np.where(parent < 0, n, parent)
    branch = height + 1
    order = np.lexsort((-branch, owner))
    owner, branch = owner[order], branch[order]
    start = np.ones(n, dtype=bool)
    start[1:] = owner[1:] != owner[:-1]
    firsts = np.flatnonzero(start)
    best1 = branch[firsts]
    has2 = np.append(firsts[1:], n) - firsts >= 2
    best2 = np.where(has2, branch[np.minimum(firsts + 1, n - 1)], 0)
    through = best1 + best2
    # a path through the virtual root needs two branches: its end there is not a label
    through = np.where((owner[firsts] == n) & ~has2, 0, through)
    return int(max(through.max(initial=0), height.max(initial=0)))


def bind_distance(name: str, taxonomy: Any) -> Distance:
    """The tree distance ``name`` on ``taxonomy``, for ``alpha(..., distance=name, taxonomy=...)``.

    Parameters
    ----------
    name : str
        ``"tree"`` or ``"path"`` (normalised path length), ``"wu_palmer"``, ``"jaccard"``
        or ``"masi"`` (label sets augmented with their ancestors); the ``"tree_"``-prefixed
        names too.
    taxonomy : Taxonomy or anything :meth:`Taxonomy.coerce` takes

    Returns
    -------
    Distance

    Raises
    ------
    InvalidParameterError
        For a name that is not a tree distance, or an invalid taxonomy.

    Examples
    --------
    >>> d = bind_distance("tree", {"Dog": "Mammal", "Cat": "Mammal"})
    >>> d.name, d("Dog", "Cat"), d("Dog", "Mammal")
    ('tree_path', 1.0, 0.5)
    """
    if not isinstance(name, str) or name not in TREE_DISTANCES:
        raise InvalidParameterError(
            f"`distance` {name!r} does not use a taxonomy; with `taxonomy` pass one of "
            f"{sorted(TREE_DISTANCES)}"
        )
    return Taxonomy.coerce(taxonomy).distance(name)


# ---------------------------------------------------------------------------------------------
# hierarchical precision, recall and F


@dataclass(frozen=True)
class HierarchicalF1Result(Result):
    """Hierarchical precision, recall and F (Kiritchenko et al. 2006), pooled over coder pairs.

    Attributes
    ----------
    precision, recall, f1 : float
        Pooled over every coder pair: the sums of ``matched``, ``n_a`` and ``n_b`` over
        pairs give ``matched / n_b``, ``matched / n_a`` and ``2 matched / (n_a + n_b)``.
        NaN when no pair shares a unit (see ``reason``).
    n_units : int
        Units rated by at least two of the coders compared.
    n_coders : int
    reason : str or None
        Why the pooled values are NaN, when they are.
    pairs : pandas.DataFrame
        One row per coder pair: ``coder_a``, ``coder_b``, ``n_units`` (units both rated),
        ``n_a`` and ``n_b`` (sizes of the augmented label sets, summed over those units),
        ``matched`` (sizes of their intersections, summed), ``precision``, ``recall``,
        ``f1``.
    """

    precision: float
    recall: float
    f1: float
    n_units: int
    n_coders: int
    reason: str | None = None
    pairs: pd.DataFrame = field(default=None, repr=False)  # type: ignore[assignment]

    _fields: ClassVar[tuple[str, ...]] = (
        "precision",
        "recall",
        "f1",
        "n_units",
        "n_coders",
        "reason",
    )

    def __float__(self) -> float:
        return float(self.f1)

    def __repr__(self) -> str:
        return (
            f"HierarchicalF1Result(precision={self.precision:.4f}, recall={self.recall:.4f}, "
            f"f1={self.f1:.4f}, n_units={self.n_units}, n_coders={self.n_coders})"
        )

    def to_series(self) -> pd.Series:
        """The pooled values as a Series."""
        return pd.Series(
            {k: getattr(self, k) for k in self._fields}, name="hierarchical_f1", dtype=object
        )

    def to_frame(self) -> pd.DataFrame:
        """The per-pair rows and a last ``"(pooled)"`` row (the sums over pairs)."""
        pairs = self.pairs.copy()
        sums = pairs[["n_a", "n_b", "matched"]].sum()
        pooled = {
            "coder_a": POOLED,
            "coder_b": POOLED,
            "n_units": self.n_units,
            "n_a": int(sums["n_a"]),
            "n_b": int(sums["n_b"]),
            "matched": int(sums["matched"]),
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.f1,
        }
        return pd.concat([pairs, pd.DataFrame([pooled])], ignore_index=True)


def _prf(m: np.ndarray, na: np.ndarray, nb: np.ndarray) -> tuple[np.ndarray, ...]:
    m, na, nb = (np.asarray(x, dtype=float) for x in (m, na, nb))
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(nb > 0, m / nb, np.nan)
        r = np.where(na > 0, m / na, np.nan)
        f = np.where(na + nb > 0, 2 * m / (na + nb), np.nan)
    return p, r, f


@declared()
def hierarchical_f1(
    data: pd.DataFrame,
    taxonomy: Any,
    *,
    coders,
    unit, coder, value,
) -> HierarchicalF1Result:
    r"""Hierarchical precision, recall and F between coders (Kiritchenko et al. 2006).

    For each unit, each coder's labels (a label, or a set of labels) are augmented with all
    their ancestors in ``taxonomy`` (the virtual root excluded). For coders ``a`` (the
    reference) and ``b``, over the units both rated, with :math:`\hat A_u, \hat B_u` the
    augmented sets:

    .. math::

        hP = \frac{\sum_u |\hat A_u \cap \hat B_u|}{\sum_u |\hat B_u|}, \quad
        hR = \frac{\sum_u |\hat A_u \cap \hat B_u|}{\sum_u |\hat A_u|}, \quad
        hF = \frac{2\, hP\, hR}{hP + hR}
           = \frac{2 \sum_u |\hat A_u \cap \hat B_u|}{\sum_u |\hat A_u| + \sum_u |\hat B_u|}

    (micro-averaged: sums over units before dividing). Swapping a and b swaps hP and hR.
    The pooled values sum the same counts over every coder pair.

    Every label of the taxonomy counts, its top-level labels included: to leave out a root
    that every unit belongs to, as Kiritchenko et al. do, build the taxonomy without it.

    Parameters
    ----------
    data : pandas.DataFrame
        Long data: one row per (unit, coder). ``value`` is a label, or a set, frozenset,
        list or tuple of labels (an empty set: rated, with no label). A missing value means
        the coder did not rate the unit; such rows are not compared.
    taxonomy : Taxonomy or anything :meth:`Taxonomy.coerce` takes
    coders : sequence, optional
        Coders to compare, in order (pairs ``(a, b)`` with ``a`` listed first); default
        every coder of ``data``, sorted.

    Returns
    -------
    HierarchicalF1Result
        ``float(result)`` is the pooled hF; ``result.pairs`` the per-pair table.

    Raises
    ------
    InvalidParameterError
        For a label that is not in the taxonomy (named, with its unit and coder), fewer
        than two coders.
    DuplicateRatingError
        For a coder rating a unit twice.

    Examples
    --------
    >>> import pandas as pd
    >>> import pandas_agree as pa
    >>> tax = pa.Taxonomy.from_paths(["Animal/Mammal/Dog", "Animal/Mammal/Cat", "Animal/Bird"])
    >>> df = pd.DataFrame({"unit": [1, 1, 2, 2], "coder": ["A", "B"] * 2,
    ...                    "value": ["Dog", "Cat", "Bird", {"Bird", "Dog"}]})
    >>> res = pa.hierarchical_f1(df, tax)
    >>> res  # unit 1: |{Animal, Mammal}| of 3 and 3; unit 2: 2 of 2 and 4
    HierarchicalF1Result(precision=0.5714, recall=0.8000, f1=0.6667, n_units=2, n_coders=2)
    >>> res.pairs[["coder_a", "coder_b", "n_a", "n_b", "matched"]]
      coder_a coder_b  n_a  n_b  matched
    0       A       B    5    7        4
    """
    tax = Taxonomy.coerce(taxonomy)
    if not isinstance(data, pd.DataFrame):
        raise ValueTypeError(f"`data` must be a pandas DataFrame, got {type(data).__name__}")
    for param, col in (("unit", unit), ("coder", coder), ("value", value)):
        if col not in data.columns:
            raise ColumnNotFoundError(
                f"`{param}` column {col!r} is not in the DataFrame; its columns are "
                f"{list(data.columns)} (pass {param}=<column name>)"
            )
    for param, col in (("unit", unit), ("coder", coder)):
        missing = data[col].isna().to_numpy()
        if missing.any():
            raise InvalidParameterError(
                f"`{param}` column {col!r} is missing in {int(missing.sum())} row(s), e.g. "
                f"index {data.index[np.flatnonzero(missing)[0]]!r}"
            )
    raw = data[value].to_numpy(dtype=object)
    rated = ~pd.isna(raw)
    frame = data.loc[rated, [unit, coder]]
    raw = raw[rated]
    u_codes, units = pd.factorize(frame[unit])
    c_codes, found = pd.factorize(frame[coder], sort=True)
    found = pd.Index(found, dtype=object)
    if coders is None:
        coder_index = found
    else:
        if isinstance(coders, (str, bytes)) or not isinstance(coders, Sequence | pd.Index):
            raise InvalidParameterError(f"`coders` must be a list of names, got {coders!r}")
        coder_index = pd.Index(list(coders), dtype=object)
        if coder_index.has_duplicates:
            raise InvalidParameterError(f"`coders` lists a name twice: {list(coders)!r}")
    if len(coder_index) < 2:
        raise InvalidParameterError(
            f"hierarchical F1 needs at least two coders, got {len(coder_index)}: "
            f"{list(coder_index)!r}"
        )
    c_codes = coder_index.get_indexer(found)[c_codes]
    keep = c_codes >= 0
    u_codes, c_codes, raw = u_codes[keep], c_codes[keep], raw[keep]
    rows = frame.index[keep]
    n_units = len(units)
    n_c = len(coder_index)
    rating = u_codes.astype(np.int64) * n_c + c_codes
    dup = pd.Series(rating).duplicated(keep=False).to_numpy()
    if dup.any():
        k = int(np.flatnonzero(dup)[0])
        raise DuplicateRatingError(
            f"coder {_py(coder_index[c_codes[k]])!r} rated unit {_py(units[u_codes[k]])!r} "
            f"more than once ({int(dup.sum())} rows are repeats, e.g. index {_py(rows[k])!r}); "
            "keep one row per unit and coder, or merge the labels into one set"
        )
    # the labels of every rating, then every label with its ancestors
    is_set = np.fromiter((isinstance(x, _SET_TYPES) for x in raw), dtype=bool, count=raw.size)
    if is_set.any():
        lists = [_as_list(x) if s else [x] for x, s in zip(raw, is_set)]
        lengths = np.fromiter((len(x) for x in lists), dtype=np.int64, count=len(lists))
        flat = np.fromiter(itertools.chain.from_iterable(lists), dtype=object, count=lengths.sum())
        owner = np.repeat(np.arange(len(lists)), lengths)
    else:
        flat, owner = raw, np.arange(raw.size)
    bad = np.flatnonzero(pd.isna(flat))
    if bad.size:
        k = int(owner[bad[0]])
        raise MissingInSetError(
            f"`value` column {value!r}: the label set of unit {_py(units[u_codes[k]])!r}, coder "
            f"{_py(coder_index[c_codes[k]])!r} holds a missing label: {raw[k]!r}"
        )
    try:
        codes = tax.codes(flat)
    except InvalidParameterError:
        index = tax._index
        for j, x in enumerate(flat):
            if not (is_hashable(x) and x in index):
                k = int(owner[j])
                raise tax._unknown(
                    x,
                    f"`value` column {value!r} (unit {_py(units[u_codes[k]])!r}, coder "
                    f"{_py(coder_index[c_codes[k]])!r})",
                ) from None
        raise
    pos, anc = tax._expand(codes)
    n_lab = len(tax)
    rating_of = owner[pos]
    keys = sorted_unique(rating[rating_of].astype(np.int64) * n_lab + anc)
    key_rating = keys // n_lab  # unit * n_c + coder
    key_unit = key_rating // n_c
    key_coder = key_rating % n_c
    rated_by = np.zeros((n_units, n_c), dtype=bool)
    rated_by[u_codes, c_codes] = True
    out = []
    compared = np.zeros(n_units, dtype=bool)
    for a in range(n_c):
        for b in range(a + 1, n_c):
            both = rated_by[:, a] & rated_by[:, b]
            compared |= both
            ka = keys[(key_coder == a) & both[key_unit]]
            kb = keys[(key_coder == b) & both[key_unit]]
            ka_unit = (ka // n_lab) // n_c * n_lab + ka % n_lab  # unit * n_lab + label
            kb_unit = (kb // n_lab) // n_c * n_lab + kb % n_lab
            matched = np.intersect1d(ka_unit, kb_unit, assume_unique=True).size
            out.append((coder_index[a], coder_index[b], int(both.sum()), ka.size, kb.size, matched))
    pairs = pd.DataFrame(out, columns=["coder_a", "coder_b", "n_units", "n_a", "n_b", "matched"])
    p, r, f = _prf(pairs["matched"], pairs["n_a"], pairs["n_b"])
    pairs["precision"], pairs["recall"], pairs["f1"] = p, r, f
    pairs = pairs.astype(
        {"n_units": np.int64, "n_a": np.int64, "n_b": np.int64, "matched": np.int64}
    )
    tot = pairs[["matched", "n_a", "n_b"]].sum()
    pp, pr, pf = (float(x[0]) for x in _prf([tot["matched"]], [tot["n_a"]], [tot["n_b"]]))
    reason = None
    if int(compared.sum()) == 0:
        reason = "no unit is rated by two of the coders compared"
    elif tot["n_a"] + tot["n_b"] == 0:
        reason = "every compared rating is an empty label set"
    elif math.isnan(pp) or math.isnan(pr):
        reason = "one side of every pair has only empty label sets"
    return HierarchicalF1Result(
        precision=pp,
        recall=pr,
        f1=pf,
        n_units=int(compared.sum()),
        n_coders=n_c,
        reason=reason,
        pairs=pairs,
    )
