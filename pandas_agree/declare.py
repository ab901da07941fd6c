"""Declaring a public function once: its shared parameters, their documentation, its frontends.

Public functions share parameters: the column names of long data (one row per unit, coder
and value), of span, relation and pyramid frames, the preparation options and the bootstrap's
settings. :func:`declared` writes them once:

* it **completes** the shared parameters the function names as *bare* parameters (no
  default, no annotation: ``*, unit, coder, value, on_duplicate``) with their defaults and
  annotations from :data:`SHARED`, where they stand, so that a default is written once for
  the whole package;
* it **documents** them: each shared parameter the docstring does not document itself gets its
  entry in the numpydoc Parameters section, where the signature puts it (a function whose
  ``categories`` means something special documents it itself, and that text wins; a
  function that changes a shared default with ``defaults=`` must);
* it **registers** the function: :func:`find` gives it to the top-level namespace
  (``pandas_agree.<name>``), to each accessor named in ``frontends`` (``"frame"`` for
  ``DataFrame.agree``, ``"array"`` for xarray's ``DataArray.agree`` and ``Dataset.agree``,
  ``"dask"`` for dask's ``DataFrame.agree``) and, with ``coefficient=True``, to the
  coefficients of ``report(coefficients=[...])`` and the CLI's ``--coefficients``.

Adding a coefficient is therefore its formula in :mod:`pandas_agree._core` and one decorated
function in its topic folder; nothing else is listed by hand (``docs/architecture.md`` shows
the two steps). Declarations are found by importing the topic folders (:data:`TOPICS`) on the
first look-up of a name that is not yet declared, which keeps ``import pandas_agree`` cheap.

Examples
--------
>>> from pandas_agree.declare import declared
>>> @declared(register=False)
... def n_ratings(data, *, unit, coder, value, on_duplicate):
...     '''Number of ratings.
...
...     Parameters
...     ----------
...     data : pandas.DataFrame
...         Long data.
...
...     Returns
...     -------
...     int
...     '''
...     return int(data[value].notna().sum())
>>> import inspect
>>> [(p.name, p.default) for p in inspect.signature(n_ratings).parameters.values()][1:]
[('unit', 'unit'), ('coder', 'coder'), ('value', 'value'), ('on_duplicate', 'raise')]
>>> import pandas as pd
>>> n_ratings(pd.DataFrame({"u": [1, 1], "c": ["a", "b"], "v": [3, None]}), value="v")
1
"""

from __future__ import annotations

import functools
import importlib
import inspect
import pkgutil
import re
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = [
    "FRAGMENT_COLUMNS",
    "RELATION_COLUMNS",
    "SHARED",
    "SPAN_COLUMNS",
    "TOPICS",
    "Declaration",
    "SharedParameter",
    "declarations",
    "declared",
    "every_declaration",
    "find",
]

#: The topic folders whose modules declare public functions (imported on first look-up).
TOPICS = ("krippendorff", "kappa", "tasks", "spans")

#: The frontends a declaration may name.
FRONTENDS = ("frame", "array", "dask")


@dataclass(frozen=True)
class SharedParameter:
    """A parameter that many public functions share: default, annotation, documentation.

    ``group`` names the parameters documented together with this one (the column names of
    long data or of a span frame); a function names all of a group or none of it.
    """

    name: str
    default: Any
    annotation: str
    doc: str  # the numpydoc entry: "name : type" line, then the indented description
    group: tuple[str, ...] = ()


def _shared(*specs: SharedParameter) -> dict[str, SharedParameter]:
    return {spec.name: spec for spec in specs}


_COLUMNS = ("unit", "coder", "value")
#: The columns every span frame starts with, in this order.
SPAN_COLUMNS = ("document", "coder", "start", "end", "label")
_COLUMNS_DOC = """unit, coder, value : hashable, default "unit", "coder", "value"
    Column names of the long data: one row per (unit, coder, value)."""
_SPAN_COLUMNS_DOC = """document, coder, start, end, label : hashable
    Column names of the span frame (defaults: the names themselves): one row per span with
    its character offsets (``end`` exclusive), as the readers of :mod:`pandas_agree.io`
    return."""
#: The columns that join the fragments of a discontinuous span into one annotation.
FRAGMENT_COLUMNS = ("annotation", "fragment")
_FRAGMENT_COLUMNS_DOC = """annotation, fragment : hashable, default "annotation", "fragment"
    Column names of the annotation id and fragment number (used when the frame has both, as
    :func:`pandas_agree.io.read_brat` gives them for discontinuous annotations)."""
_WEIGHTS_DOC = """weights : str, callable or matrix, optional
    Agreement weights (Gwet 2014, chapter 3): a scheme of
    :data:`pandas_agree.kappa.weights.WEIGHT_SCHEMES` (``"linear"``, ``"quadratic"``,
    ``"ordinal"``, ``"radical"``, ``"ratio"``, ``"circular"``, ``"bipolar"``,
    ``"identity"``), a callable ``w(a, b)`` or a ``q x q`` matrix; see
    :mod:`pandas_agree.kappa.weights`. Order-based schemes need ordered categories."""

#: The columns of a relation frame, in this order (the readers of :mod:`pandas_agree.io`
#: return them with ``relations=True``).
RELATION_COLUMNS = (
    "document",
    "coder",
    "relation",
    "label",
    "head",
    "tail",
    "head_start",
    "head_end",
    "head_label",
    "tail_start",
    "tail_end",
    "tail_label",
)
_RELATION_COLUMNS_DOC = ", ".join(RELATION_COLUMNS) + """ : hashable
    Column names of the relation frame (defaults: the names themselves): one row per relation
    with the ids, offsets and labels of its head and tail spans, as the readers of
    :mod:`pandas_agree.io` return with ``relations=True``."""

#: Parameters documented together: a function names all of a group's own names or none.
_GROUPS: dict[tuple[str, ...], str] = {
    _COLUMNS: _COLUMNS_DOC,
    SPAN_COLUMNS: _SPAN_COLUMNS_DOC,
    FRAGMENT_COLUMNS: _FRAGMENT_COLUMNS_DOC,
    RELATION_COLUMNS: _RELATION_COLUMNS_DOC,
}

#: The shared parameters by name. A function names one as a *bare* parameter (no default,
#: no annotation); :func:`declared` completes it from here.
SHARED: dict[str, SharedParameter] = _shared(
    *(
        SharedParameter(n, n, "Hashable", "", group)
        for group in _GROUPS
        for n in group
    ),
    SharedParameter(
        "categories",
        None,
        "Sequence[Hashable] | None",
        """categories : sequence, optional
    Every category, in rank order where an order matters. Default: an ordered categorical's
    categories or the values found (numbers in numeric order). Text labels have no order:
    a computation that needs one raises unless ``categories`` gives it. A value outside
    ``categories`` raises.""",
    ),
    SharedParameter(
        "on_duplicate",
        "raise",
        'Literal["raise", "first", "last", "union"]',
        """on_duplicate : {"raise", "first", "last", "union"}, default "raise"
    Two ratings of one unit by one coder: an error, the first or last row, or the union of
    their values as one set (see :func:`pandas_agree.data.prepare.prepare`).""",
    ),
    SharedParameter(
        "sep",
        None,
        "str | bool | None",
        """sep : str, None or False, optional
    Split string values at ``sep`` into sets of labels (``"PER;LOC"`` with ``sep=";"``).
    Under a set distance, strings that look like several labels raise
    :class:`~pandas_agree.errors.AmbiguousValuesError` unless ``sep`` is given;
    ``sep=False`` reads each string as one label. See
    :func:`pandas_agree.data.prepare.prepare`.""",
    ),
    SharedParameter("weights", None, "WeightsLike", _WEIGHTS_DOC),
    SharedParameter(
        "coders",
        None,
        "Sequence[Hashable] | None",
        """coders : sequence, optional
    Use only these coders' ratings (default: every coder).""",
    ),
    SharedParameter(
        "ci",
        None,
        "float | None",
        """ci : float, optional
    Confidence level of the bootstrap intervals (for example 0.95); None for none.""",
    ),
    SharedParameter(
        "n_boot",
        2000,
        "int",
        """n_boot : int, default 2000
    Number of bootstrap replicates (with ``ci``).""",
    ),
    SharedParameter(
        "rng",
        None,
        "int | np.random.Generator | None",
        """rng : int, numpy.random.Generator or None
    Seed or generator of the bootstrap; the same seed gives the same replicates.""",
    ),
    SharedParameter(
        "match",
        "exact",
        "Literal['exact', 'overlap']",  # as Python renders the annotation written in source
        """match : {"exact", "overlap"}, default "exact"
    Two spans match when they have the same offsets (``"exact"``) or share at least one
    character (``"overlap"``); see :func:`pandas_agree.span_f1`.""",
    ),
    SharedParameter(
        "coverage",
        None,
        "Iterable[tuple[Hashable, Hashable]] | None",
        """coverage : iterable of (document, coder) pairs, optional
    Who annotated which document (the readers' ``frame.attrs["coverage"]``).""",
    ),
    SharedParameter(
        "fragments",
        False,
        "bool",
        """fragments : bool, default False
    Count each row (each fragment of a discontinuous annotation) as a span of its own.""",
    ),
    SharedParameter(
        "docset",
        "docset",
        "Hashable | None",
        """docset : hashable or None, default "docset"
    Column naming the docset (the pyramid); ``None`` when all rows are one docset.""",
    ),
    SharedParameter(
        "peer",
        "peer",
        "Hashable",
        """peer : hashable, default "peer"
    Column naming the peer summary.""",
    ),
    SharedParameter(
        "scu",
        "scu",
        "Hashable",
        """scu : hashable, default "scu"
    Column naming the SCU (ids are local to a pyramid).""",
    ),
    SharedParameter(
        "summary",
        "summary",
        "Hashable",
        """summary : hashable, default "summary"
    Column naming the model summary a contributor comes from.""",
    ),
)


@dataclass(frozen=True)
class Declaration:
    """What :func:`declared` recorded about one public function."""

    name: str
    module: str
    func: Callable[..., Any] = field(repr=False)
    shared: tuple[str, ...]
    frontends: tuple[str, ...]
    coefficient: bool = False
    two_coders: bool = False
    report_defaults: Mapping[str, Any] = field(default_factory=dict)
    defaults: Mapping[str, Any] = field(default_factory=dict)  # shared defaults it changes
    registered: bool = True  # False: declared with register=False (parameters and docs only)

    @property
    def columns(self) -> bool:
        """Whether the function reads ``unit``/``coder``/``value`` columns (arrays map to them)."""
        return set(_COLUMNS) <= set(self.shared)


_DECLARED: dict[str, Declaration] = {}
#: Every declaration made, registered or not, in the order made.
_EVERY: list[Declaration] = []
_LOADED = False


@functools.cache
def _annotation(name: str) -> Any:
    """The annotation of the shared parameter ``name`` as an object: its text evaluated
    among the names the texts of :data:`SHARED` use, so that ``typing.get_type_hints``
    resolves it whatever the declaring module imports."""
    import numpy as np

    from .kappa.weights import WeightsLike

    namespace = {
        "Hashable": Hashable,
        "Iterable": Iterable,
        "Literal": Literal,
        "Sequence": Sequence,
        "WeightsLike": WeightsLike,
        "np": np,
    }
    return eval(SHARED[name].annotation, namespace)


def _annotations(
    func: Callable[..., Any], sig: inspect.Signature, shared: tuple[str, ...]
) -> dict[str, Any]:
    """``func``'s own annotations and those of its shared parameters, in signature order."""
    own = getattr(func, "__annotations__", {})
    out = {
        n: _annotation(n) if n in shared else own[n]
        for n in sig.parameters
        if n in shared or n in own
    }
    if "return" in own:
        out["return"] = own["return"]
    return out


def _parameters_section(lines: list[str]) -> tuple[int, int, str] | None:
    """The numpydoc Parameters section of a docstring's lines: its first line after the
    rule, the line after its last and its indentation (None when there is none)."""
    start = next(
        (
            i
            for i in range(len(lines) - 1)
            if lines[i].strip() == "Parameters" and set(lines[i + 1].strip()) == {"-"}
        ),
        None,
    )
    if start is None:
        return None
    indent = lines[start][: len(lines[start]) - len(lines[start].lstrip())]
    end = len(lines)
    for i in range(start + 2, len(lines) - 1):
        nxt = lines[i + 1].strip()
        if lines[i].strip() and nxt and set(nxt) == {"-"} and lines[i].startswith(indent):
            end = i
            break
    return start + 2, end, indent


def _entries(lines: list[str], start: int, end: int, indent: str) -> list[tuple[int, list[str]]]:
    """The first line and the parameter names of each entry in ``lines[start:end]``.

    An entry is a line at the section's indentation: ``a, b : type`` or, without a type,
    ``a, b`` (numpydoc allows both); the indented lines below it describe it.
    """
    out = []
    for i in range(start, end):
        line = lines[i]
        if line.strip() and line.startswith(indent) and not line[len(indent)].isspace():
            names = line.strip().split(" : ")[0]
            out.append((i, [n.strip().lstrip("*") for n in names.split(",")]))
    return out


def _documented(doc: str | None) -> set[str]:
    """The parameter names the Parameters section of ``doc`` documents."""
    lines = (doc or "").split("\n")
    section = _parameters_section(lines)
    if section is None:
        return set()
    return {n for _, names in _entries(lines, *section) for n in names}


def _insert_docs(doc: str | None, shared: Iterable[str], order: list[str]) -> str | None:
    """``doc`` with the numpydoc entries of ``shared`` parameters it does not document.

    ``order`` is the signature's order of the parameters: each entry goes before the first
    entry of ``doc`` whose (first) parameter comes after it, so that the section follows
    the signature. A group's entry (``unit, coder, value``) stands where its first name
    does, and is left out when ``doc`` documents any name of the group itself.
    """
    if not doc:
        return doc
    lines = doc.split("\n")
    section = _parameters_section(lines)
    if section is None:
        return doc
    start, end, indent = section
    entries = _entries(lines, start, end, indent)
    documented = {n for _, names in entries for n in names}
    shared = tuple(shared)
    texts: dict[str, int] = {}  # entry text -> position in the signature of its first name
    for name in shared:
        spec = SHARED[name]
        if spec.doc:
            if name not in documented:
                texts[spec.doc] = order.index(name)
            continue
        for group, text in _GROUPS.items():
            if name in group and set(group) <= set(shared) and not set(group) & documented:
                texts[text] = min(order.index(n) for n in group)
    if not texts:
        return doc
    pending = sorted(texts, key=texts.__getitem__)
    at = end
    while at > start and not lines[at - 1].strip():
        at -= 1
    body = lines[start : entries[0][0]] if entries else lines[start:at]
    bounds = [i for i, _ in entries] + [at]
    for (first, names), stop in zip(entries, bounds[1:]):
        if names[0] in order:
            while pending and texts[pending[0]] < order.index(names[0]):
                body += _indented(pending.pop(0), indent)
        body += lines[first:stop]
    for text in pending:
        body += _indented(text, indent)
    after = lines[at:] if at < len(lines) and not lines[at].strip() else ["", *lines[at:]]
    return "\n".join(lines[:start] + body + after)


def _indented(text: str, indent: str) -> list[str]:
    return [indent + row if row else row for row in text.split("\n")]


def declared(
    *,
    frontends: Iterable[str] = FRONTENDS,
    coefficient: bool = False,
    two_coders: bool = False,
    report_defaults: Mapping[str, Any] | None = None,
    defaults: Mapping[str, Any] | None = None,
    register: bool = True,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Declare a public function: complete its shared parameters and docs, register it.

    The shared parameters are those of :data:`SHARED` that the function names as bare
    keyword-only parameters; ``unit``, ``coder`` and ``value`` go together.

    Parameters
    ----------
    frontends : iterable of {"frame", "array", "dask"}
        The accessors that get the function as a method. ``"array"`` needs the columns
        (the array's dimensions become the unit and coder columns).
    coefficient : bool, default False
        Register the function for ``report(coefficients=[...])``: its result converts to a
        number with ``float()``.
    two_coders : bool, default False
        A coefficient of exactly two coders: a report group with another number of coders
        gets NaN and a reason instead of stopping the report.
    report_defaults : mapping, optional
        Arguments a report passes to the coefficient (for example Gwet's handling of
        unequal numbers of ratings in ``fleiss_kappa``).
    defaults : mapping, optional
        Shared parameters whose default differs for this function (``{"on_duplicate":
        "union"}``); the function's docstring must document them itself, stating the
        changed default (the shared entry states the shared one).
    register : bool, default True
        Register the function (``False``: only complete its parameters, annotations and
        docs; :func:`every_declaration` still lists it).

    Returns
    -------
    callable
        The decorator. The function it returns has the completed signature, its
        ``__annotations__`` hold the shared parameters' annotations as objects (so that
        ``typing.get_type_hints`` resolves them) and its docstring the shared entries.

    Raises
    ------
    TypeError
        At decoration: for a group named in part, a name of ``defaults`` that is no bare
        shared parameter or that the docstring does not document itself.
    ValueError
        For an unknown frontend, ``"array"`` without the columns, or a name registered by
        two modules.
    """
    frontends = tuple(frontends)
    bad = [f for f in frontends if f not in FRONTENDS]
    if bad:
        raise ValueError(f"`frontends` must be among {FRONTENDS}, got {bad}")

    def decorate(func: Callable[..., Any]) -> Callable[..., Any]:
        sig = inspect.signature(func)
        shared = tuple(
            p.name
            for p in sig.parameters.values()
            if p.name in SHARED
            and p.default is p.empty
            and p.annotation is p.empty
            and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
        )
        named = set(shared)
        for group in _GROUPS:
            others = {n for g in _GROUPS if g != group for n in g}
            inside = named & (set(group) - others)
            if inside and not set(group) <= named:
                raise TypeError(
                    f"{func.__qualname__} must name {list(group)} together; missing "
                    f"{[n for n in group if n not in named]}"
                )
        if "array" in frontends and not set(_COLUMNS) <= named:
            raise ValueError(f"{func.__qualname__}: frontend 'array' needs unit, coder, value")
        changed = dict(defaults or {})
        unknown = [n for n in changed if n not in named]
        if unknown:
            raise TypeError(f"{func.__qualname__}: `defaults` names no shared parameter {unknown}")
        undocumented = [n for n in changed if n not in _documented(func.__doc__)]
        if undocumented:
            raise TypeError(
                f"{func.__qualname__}: `defaults` changes {undocumented}, which its docstring "
                "must document itself (the shared entry states the shared default)"
            )
        params = [
            p.replace(default=changed.get(p.name, SHARED[p.name].default),
                      annotation=SHARED[p.name].annotation)
            if p.name in named
            else p
            for p in sig.parameters.values()
        ]
        public_sig = sig.replace(parameters=params)

        @functools.wraps(func)
        def public(*args: Any, **kwargs: Any) -> Any:
            bound = public_sig.bind(*args, **kwargs)
            bound.apply_defaults()
            return func(*bound.args, **bound.kwargs)

        public.__signature__ = public_sig  # type: ignore[attr-defined]
        # functools.wraps copied the inner function's annotations, which lack the shared ones
        public.__annotations__ = _annotations(func, sig, shared)
        public.__doc__ = _insert_docs(func.__doc__, shared, list(sig.parameters))
        name = func.__name__
        module = func.__module__
        previous = _DECLARED.get(name)
        if register and previous is not None and previous.module != module:
            raise ValueError(f"{name!r} is declared twice: in {previous.module} and {module}")
        declaration = Declaration(
            name=name,
            module=module,
            func=public,
            shared=shared,
            frontends=frontends,
            coefficient=coefficient,
            two_coders=two_coders,
            report_defaults=dict(report_defaults or {}),
            defaults=changed,
            registered=register,
        )
        _EVERY.append(declaration)
        if register:
            _DECLARED[name] = declaration
        return public

    return decorate


def _load() -> None:
    """Import every module of the topic folders once, so that every declaration is made."""
    global _LOADED
    if _LOADED:
        return
    for topic in TOPICS:
        package = importlib.import_module(f"pandas_agree.{topic}")
        for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            importlib.import_module(info.name)
    _LOADED = True


def declarations(
    frontend: str | None = None, *, coefficient: bool | None = None
) -> dict[str, Declaration]:
    """Every declaration (optionally those of one frontend, or the coefficients), by name.

    Examples
    --------
    >>> from pandas_agree.declare import declarations
    >>> declarations()["cohen_kappa"].two_coders
    True
    >>> "alpha" in declarations("array")
    True
    """
    _load()
    return {
        name: d
        for name, d in sorted(_DECLARED.items())
        if (frontend is None or frontend in d.frontends)
        and (coefficient is None or d.coefficient == coefficient)
    }


def every_declaration() -> list[Declaration]:
    """Every declaration made, ``register=False`` ones too (their ``registered`` is False),
    in the order made: those of the topic folders and of any other module imported.

    Examples
    --------
    >>> from pandas_agree.declare import every_declaration
    >>> [d.module for d in every_declaration() if d.name == "unmatched_pairs"]
    ['pandas_agree.spans.f1']
    """
    _load()
    return list(_EVERY)


def find(name: str) -> Declaration | None:
    """The declaration of ``name``, importing the topic folders if it is not yet known."""
    found = _DECLARED.get(name)
    if found is None and not _LOADED and re.fullmatch(r"[a-z][a-z0-9_]*", name):
        _load()
        found = _DECLARED.get(name)
    return found
