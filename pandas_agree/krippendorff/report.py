"""Per-group agreement reports: one row per group and a pooled row, several distances side by side.

This module holds :func:`pandas_agree.report` (``pandas_agree.report`` is the function; the module
is ``pandas_agree.krippendorff.report``, so that one name has one meaning) and the building blocks
the dask,
xarray and noise routes share (:func:`as_list`, :func:`check_distances`, :func:`coded_groups`,
:func:`subset`, :func:`group_table`, :func:`pooled_row`, :func:`finish_report`).

``report(df, by="docset", distance=["nominal", "jaccard", "masi"])`` gives the table shape of
Passonneau (2006), Table 2. Units are identified *within* their group: unit ``7`` of docset
``30016`` and unit ``7`` of docset ``30040`` are different units, in the groups and in the
pooled row.

The groups are computed together, not by one alpha call per group: the data are coded once,
each distance's kernel is built once on the whole value domain, per-unit observed
disagreements are summed by group with ``bincount``, and the expected disagreement of every
group comes from one pass over a (groups x values) matrix of marginals. (Ordinal alpha, whose
metric depends on each group's marginals, and user distances on very large domains are
fitted group by group.)

The same numbers come from a pandas pipeline::

    df.groupby("docset").apply(lambda g: g.agree.alpha("masi").alpha)
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .._core.groups import GroupFits, group_fits
from .._core.states import AlphaState, Precision, alpha_states
from ..data.prepare import CodedData, check_columns, prepare
from ..declare import declared
from ..errors import (
    DegenerateDataWarning,
    DuplicateRatingError,
    InvalidParameterError,
    MissingInSetError,
    NoPairableUnitsError,
    user_stacklevel,
)
from ..reasons import NO_VARIATION, NO_VARIATION_IN_FLOAT, group_reason
from ..registry import add_coefficients, check_coefficients
from .alpha import (
    DistanceLike,
    check_distance,
    coded_counts,
    fit_alpha,
    make_kernel,
    with_taxonomy,
)
from .bootstrap import bootstrap_alpha, check_bootstrap_args, check_level
from .distances import Distance

__all__ = [
    "POOLED",
    "as_list",
    "check_distances",
    "check_group_names",
    "check_pooled_label",
    "coded_groups",
    "finish_report",
    "group_table",
    "pooled_row",
    "report",
    "report_columns",
    "subset",
    "text_last",
]

#: Label of the pooled row (in every level of a MultiIndex).
POOLED = "pooled"


def as_list(x: Any, name: str) -> list[Any]:
    if x is None:
        return []
    if isinstance(x, (str, Distance)) or callable(x) or not isinstance(x, Sequence):
        return [x]
    out = list(x)
    if not out:
        raise InvalidParameterError(f"`{name}` must not be empty, got {x!r}")
    return out


def check_distances(distance: Any, weights: Any) -> tuple[list[Distance], list[str]]:
    """The distances of a report and their names (at least one, names distinct)."""
    distances = [check_distance(d, weights) for d in as_list(distance, "distance")]
    if not distances:
        raise InvalidParameterError("`distance` must name at least one distance, got None")
    names = [d.name for d in distances]
    if len(set(names)) != len(names):
        raise InvalidParameterError(f"`distance` names must be distinct, got {names}")
    return distances, names


def _group_codes(data: pd.DataFrame, by: list[Hashable]) -> tuple[np.ndarray, pd.Index]:
    for col in by:
        check_columns(data, by=col)
        if data[col].isna().any():
            raise InvalidParameterError(
                f"`by` column {col!r} has {int(data[col].isna().sum())} missing label(s); "
                "fill them or drop those rows explicitly"
            )
    if len(by) == 1:
        codes, uniques = pd.factorize(data[by[0]], sort=True)
        return codes.astype(np.intp), pd.Index(uniques, name=by[0])
    index = pd.MultiIndex.from_frame(data[by])
    codes, uniques = pd.factorize(index, sort=True)
    return codes.astype(np.intp), pd.MultiIndex.from_tuples(list(uniques), names=by)


def coded_groups(
    data: pd.DataFrame,
    by: list[Hashable],
    unit: Hashable,
    coder: Hashable,
    value: Hashable,
    **prepare_kwargs: Any,
) -> tuple[CodedData, np.ndarray, pd.Index]:
    """Code the data once with units nested in groups; return the group of every unit code."""
    check_columns(data, unit=unit, coder=coder, value=value)
    if not by:
        coded = prepare(data, unit=unit, coder=coder, value=value, **prepare_kwargs)
        return coded, np.zeros(len(coded.units), dtype=np.intp), pd.Index([POOLED])
    group, labels = _group_codes(data, by)
    unit_codes, unit_labels = pd.factorize(data[unit])
    if (unit_codes < 0).any():
        raise InvalidParameterError(f"`unit` column {unit!r} has missing labels")
    nested = group.astype(np.int64) * len(unit_labels) + unit_codes
    # The user's column names, so that errors name the columns the user wrote.
    frame = pd.DataFrame(
        {unit: nested, coder: data[coder].to_numpy(), value: data[value]._values},
        index=data.index,
    )
    try:
        coded = prepare(frame, unit=unit, coder=coder, value=value, **prepare_kwargs)
    except DuplicateRatingError:
        raise duplicates_in_groups(data, by, unit, coder, value) from None
    except MissingInSetError as exc:  # name the user's unit, not its code within the groups
        raise _missing_in_groups(data, unit, coder, value) or exc from None
    group_of_unit = (np.asarray(coded.units, dtype=np.int64) // len(unit_labels)).astype(np.intp)
    return coded, group_of_unit, labels


def _missing_in_groups(
    data: pd.DataFrame, unit: Hashable, coder: Hashable, value: Hashable
) -> MissingInSetError | None:
    """The missing-element error of a grouped report in the user's unit and coder labels:
    the first row whose set holds a missing element (a pass on the error path only)."""
    from ..data.sets import is_set_cell, missing_in_set_message

    for row, cell in enumerate(data[value]):
        if is_set_cell(cell) and any(
            x is None or (isinstance(x, float) and np.isnan(x)) or x is pd.NA for x in cell
        ):
            return MissingInSetError(
                missing_in_set_message(
                    value, data[unit].iloc[row], data[coder].iloc[row], set(cell)
                )
            )
    return None


def duplicates_in_groups(
    data: pd.DataFrame, by: list[Hashable], unit: Hashable, coder: Hashable, value: Hashable
) -> DuplicateRatingError:
    """The duplicate error of a grouped computation, in the user's group, unit and coder labels.

    The grouped report and :func:`~pandas_agree.krippendorff.disagreements.disagreements`
    with ``by`` number units within their group; this names the pairs as the user wrote them.
    """
    keys = [*by, unit, coder]
    rated = data.loc[data[value].notna().to_numpy(), keys]
    repeated = rated[rated.duplicated(keep=False)].drop_duplicates()
    shown = ", ".join(repr(tuple(row)) for row in repeated.head(5).itertuples(index=False))
    more = f" and {len(repeated) - 5} more" if len(repeated) > 5 else ""
    names = ", ".join(str(k) for k in keys)
    return DuplicateRatingError(
        f"{len(repeated)} (unit, coder) pair(s) have more than one rating within their group: "
        f"({names}) = {shown}{more}. If a group holds several documents whose unit ids repeat, "
        "add the document column to `by`; if a coder really rated a unit twice, pass "
        "on_duplicate='first', 'last' or 'union' to say which to use"
    )


def subset(coded: CodedData, mask: np.ndarray) -> CodedData:
    return CodedData(
        unit_codes=coded.unit_codes[mask],
        coder_codes=coded.coder_codes[mask],
        value_codes=coded.value_codes[mask],
        units=coded.units,
        coders=coded.coders,
        values=coded.values,
        is_set=coded.is_set,
        ordered=coded.ordered,
        n_missing=0,
        rows=coded.rows[mask],
    )


def _group_fits(
    coded: CodedData,
    group_of_unit: np.ndarray,
    n_groups: int,
    dist: Distance,
    weights: Any,
    n_units: np.ndarray,
) -> GroupFits:
    """Per-group alpha, D_o, D_e and state in one vectorised pass (see :func:`group_fits`)."""
    kernel = make_kernel(dist, coded, weights)
    return group_fits(kernel, coded_counts(coded), group_of_unit, n_groups, n_units)


def _group_counts(
    coded: CodedData, group_of_unit: np.ndarray, n_groups: int
) -> dict[str, np.ndarray]:
    m = np.bincount(coded.unit_codes, minlength=len(coded.units))
    pairable = m[coded.unit_codes] >= 2
    rating_group = group_of_unit[coded.unit_codes]
    units = np.bincount(group_of_unit[m >= 2], minlength=n_groups)
    n_pairable = np.bincount(rating_group[pairable], minlength=n_groups)
    key = rating_group[pairable] * len(coded.coders) + coded.coder_codes[pairable]
    seen = np.unique(key)
    coders = np.bincount(seen // len(coded.coders), minlength=n_groups)
    return {"n_units": units, "n_coders": coders, "n_pairable": n_pairable}


@declared()
def report(
    data: pd.DataFrame,
    distance: DistanceLike | Sequence[DistanceLike] = "nominal",
    by: Hashable | Sequence[Hashable] | None = None,
    *,
    unit, coder, value, categories, on_duplicate,
    sep,
    weights: Any = None,
    ci,
    ci_method: str = "krippendorff",
    n_boot, rng,
    pooled: bool = True,
    tidy: bool = False,
    progress: Callable[[int], None] | None = None,
    coefficients: Sequence[Any] | None = None,
    taxonomy: Any = None,
) -> pd.DataFrame:
    """Alpha per group for several distances: the table of an agreement study.

    Parameters
    ----------
    data : pandas.DataFrame
        Long data. Not modified.
    distance : distance or list of distances, default "nominal"
        One alpha column per distance, named by the distance.
    by : column name or list of names, optional
        Grouping columns (several give a MultiIndex). ``None`` gives the pooled row alone.
    weights : mapping or callable, optional
        Element weights of the weighted distances, as for :func:`pandas_agree.alpha`.
    ci : float, optional
        Confidence level (for example 0.95): adds ``<distance>_low`` and ``<distance>_high``
        columns from a bootstrap per group (``ci_method``, ``n_boot``, ``rng``; for the
        pooled row, ``ci_method="clusters"`` resamples the groups).
    ci_method : {"krippendorff", "units", "clusters"}, default "krippendorff"
        See :mod:`pandas_agree.krippendorff.bootstrap`. ``"clusters"`` applies to the pooled
        row (its clusters are the groups); group rows then use ``"units"``.
    pooled : bool, default True
        Add a final row over all data, labelled ``"pooled"``.
    tidy : bool, default False
        Return the long form instead: one row per group x distance with columns ``alpha``,
        ``observed``, ``expected`` (and ``low``, ``high``), for plotting and ``pivot``.
    progress : callable, optional
        Called with the number of bootstrap replicates just finished (for a progress bar;
        ``ci`` computes ``n_boot`` replicates per group and distance, pooled row included).
    coefficients : name, callable or list of them, optional
        Other coefficients per group beside alpha, one column each (named by the coefficient),
        plus ``coefficient_reason``: names from
        :func:`pandas_agree.registry.available_coefficients` (``"cohen_kappa"``,
        ``"fleiss_kappa"``, ``"conger_kappa"``, ``"gwet_ac1"``, ...) or callables
        ``f(data, unit=, coder=, value=, ...)``; see
        :func:`pandas_agree.registry.register_coefficient`. In the tidy form the
        columns repeat on every row of a group.
    taxonomy : Taxonomy, mapping or sequence, optional
        A label hierarchy for the tree distances, as for :func:`pandas_agree.alpha`.

    Returns
    -------
    pandas.DataFrame
        One row per group (and the pooled row) with one alpha column per distance, the
        counts ``n_units``, ``n_coders``, ``n_pairable`` (then the interval bounds and other
        coefficients, if asked for), and last the text: ``reason`` (why an alpha is NaN: a
        group too small to compute alpha does not stop the report) and
        ``coefficient_reason``.

    Examples
    --------
    Passonneau (2006), Figures 2-4, one row per figure:

    >>> import pandas_agree as pa
    >>> df = pa.datasets.masi_figures()
    >>> pa.report(df, ["nominal", "jaccard", "masi"], by="figure").round(3)
             nominal  jaccard   masi  n_units  n_coders  n_pairable reason
    figure
    figure2   -0.364   -0.333 -0.349        3         2           6   None
    figure3   -0.154    0.138  0.010        3         2           6   None
    figure4   -0.444   -0.238 -0.327        7         2          14   None
    pooled    -0.136    0.278  0.116       13         4          26   None
    """
    distances, names = check_distances(with_taxonomy(distance, taxonomy), weights)
    if coefficients is not None:
        check_coefficients(coefficients)
    by_cols = as_list(by, "by")
    coefficient_columns = [] if coefficients is None else [
        *(name for name, _ in check_coefficients(coefficients)), "coefficient_reason"
    ]
    check_group_names(by_cols, [*report_columns(names, ci is not None), *coefficient_columns])
    gen = None
    if ci is not None:
        check_level(ci)
        gen = check_bootstrap_args(ci_method, n_boot, rng)  # the one generator of this call
        if ci_method == "clusters" and not by_cols:
            raise InvalidParameterError(
                "`ci_method` 'clusters' resamples the groups of `by`, got by=None; pass by= or "
                "use ci_method='units'"
            )
    if progress is not None and not callable(progress):
        raise InvalidParameterError(f"`progress` must be callable or None, got {progress!r}")
    coded, group_of_unit, labels = coded_groups(
        data,
        by_cols,
        unit,
        coder,
        value,
        on_duplicate=on_duplicate,
        categories=categories,
        scalars_as_sets=any(d.is_set for d in distances),
        sep=sep,
    )
    if pooled and by_cols:
        check_pooled_label(labels)
    n_groups = len(labels)
    counts = _group_counts(coded, group_of_unit, n_groups)
    alphas: dict[str, np.ndarray] = {}
    disagreement: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    states: dict[str, np.ndarray] = {}  # AlphaState codes per group
    precision: dict[str, tuple[Precision | None, ...]] = {}
    pooled_fits = {}
    for dist in distances:
        fits = _group_fits(coded, group_of_unit, n_groups, dist, weights, counts["n_units"])
        alphas[dist.name] = fits.alpha
        disagreement[dist.name] = (fits.observed, fits.expected)
        states[dist.name] = fits.states
        precision[dist.name] = fits.precision
        if pooled and by_cols:
            pooled_fits[dist.name] = _pooled_fit(coded, dist, weights, data)
    table = group_table(labels, alphas, counts, states, precision)
    boot = None
    if ci is not None:
        boot = _Bootstrap(ci, ci_method, n_boot, gen, progress)
        _add_intervals(table, coded, group_of_unit, distances, weights, boot, states)
    extra = None
    if pooled and by_cols:
        extra = pooled_row(table, pooled_fits, names, group_of_unit, boot, len(by_cols))
    out = finish_report(
        table, names, disagreement, pooled_fits, extra, tidy, ci is not None, states=states
    )
    if coefficients is not None:
        out = add_coefficients(
            out, data, coefficients, by_cols, tidy=tidy, pooled=pooled, unit=unit, coder=coder,
            value=value, on_duplicate=on_duplicate, categories=categories, pooled_label=POOLED,
        )
    return text_last(out)


def group_table(
    labels: pd.Index,
    alphas: dict[str, np.ndarray],
    counts: dict[str, np.ndarray],
    states: dict[str, np.ndarray] | None = None,
    precision: dict[str, Sequence[Precision | None]] | None = None,
) -> pd.DataFrame:
    """The rows of the groups: one alpha column per distance, the counts and ``reason``.

    ``reason`` is rendered from the groups' ``states`` per distance (AlphaState codes or
    members, one per group; by default read off the numbers: no pairable unit where
    ``n_units`` is 0, else ``D_e = 0`` where alpha is NaN) and the ``precision`` notes of
    the values each group uses (default: none).
    """
    names = list(alphas)
    n_units = np.asarray(counts["n_units"])
    if states is None:
        noted = np.zeros(n_units.size, dtype=bool)
        states = {
            n: alpha_states(n_units, np.where(np.isnan(alphas[n]), 0.0, 1.0), noted) for n in names
        }
    states = {n: np.asarray(states[n], dtype=np.int8) for n in names}  # codes (or members)
    # Only rows not plainly defined (no NaN, no precision note) get a sentence; others None.
    plain = np.logical_and.reduce([states[n] == AlphaState.DEFINED for n in names])
    reasons = np.full(n_units.size, None, dtype=object)
    for g in np.flatnonzero(~plain):
        reasons[g] = group_reason(
            int(n_units[g]),
            {n: AlphaState(int(states[n][g])) for n in names},
            None if precision is None else {n: precision[n][g] for n in names},
        )
    table = pd.DataFrame(alphas, index=labels)
    for key, val in counts.items():
        table[key] = val
    table["reason"] = pd.Series(reasons, index=labels, dtype=object)
    return table


def finish_report(
    table: pd.DataFrame,
    names: list[str],
    disagreement: dict[str, tuple[np.ndarray, np.ndarray]],
    pooled_fits: dict[str, Any],
    pooled_row: pd.DataFrame | None,
    tidy: bool,
    with_ci: bool,
    states: dict[str, np.ndarray] | None = None,
) -> pd.DataFrame:
    """Append the pooled row, warn about undefined alphas, and return the wide or tidy form.

    Refuses (:class:`~pandas_agree.errors.InvalidParameterError`) a group labelled like the
    pooled row and grouping columns named like an output column. ``states`` (the groups'
    states per distance) lets the warning say when ``D_e`` is 0 only in float64; without
    them an undefined alpha in a row with pairable units is taken as ``D_e = 0``.
    """
    by_names = [n for n in table.index.names if n is not None]
    check_group_names(by_names, [*table.columns, *_TIDY_COLUMNS])
    disagreement = dict(disagreement)  # the caller's dict stays as it was
    if pooled_row is not None:
        check_pooled_label(table.index)
        table = pd.concat([table, pooled_row])
        for name in names:
            fit = pooled_fits[name]
            d_o, d_e = disagreement[name]
            extra_o, extra_e = (np.nan, np.nan) if fit is None else (fit.observed, fit.expected)
            disagreement[name] = (np.append(d_o, extra_o), np.append(d_e, extra_e))
    # A row with pairable units and an undefined alpha has D_e = 0 for that distance
    # (decided from the numbers, not by reading the rendered reasons).
    undefined = table[names].isna().to_numpy().any(axis=1)
    if (undefined & (table["n_units"].to_numpy() > 0)).any():
        found = set() if states is None else set(np.unique(np.concatenate([*states.values()])))
        found |= {fit.state for fit in pooled_fits.values() if fit is not None}
        only_float = AlphaState.NO_VARIATION_PRECISION in found and (
            states is not None and AlphaState.NO_VARIATION not in found
        )
        warnings.warn(
            "some groups have alpha NaN: "
            + (NO_VARIATION_IN_FLOAT if only_float else NO_VARIATION),
            DegenerateDataWarning,
            stacklevel=user_stacklevel(),
        )
    if tidy:
        return text_last(_tidy(table, names, with_ci, disagreement))
    return text_last(table)


#: Text columns of a report: they come after every number.
TEXT_COLUMNS = ("reason", "coefficient_reason")


def text_last(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with the text columns (:data:`TEXT_COLUMNS`) moved to the end, in order.

    Examples
    --------
    >>> import pandas as pd
    >>> list(text_last(pd.DataFrame(columns=["a", "reason", "a_low"])).columns)
    ['a', 'a_low', 'reason']
    """
    text = [c for c in TEXT_COLUMNS if c in frame.columns]
    if not text:
        return frame
    return frame[[c for c in frame.columns if c not in text] + text]


#: Columns of the tidy form besides the counts and ``reason``.
_TIDY_COLUMNS = ("distance", "alpha", "observed", "expected", "low", "high")
_COUNT_COLUMNS = ("n_units", "n_coders", "n_pairable", "reason")


def report_columns(names: Sequence[str], with_ci: bool) -> list[str]:
    """Every column a report of distances ``names`` can have, in its wide or tidy form."""
    bounds = [f"{n}_{end}" for n in names for end in ("low", "high")] if with_ci else []
    return [*names, *_COUNT_COLUMNS, *bounds, *_TIDY_COLUMNS]


def check_group_names(by: Sequence[Hashable], columns: Sequence[Hashable]) -> None:
    """Refuse a ``by`` column named like a column of the report (one rule, wide and tidy)."""
    names = set(columns)
    clash = [b for b in by if isinstance(b, Hashable) and b in names]
    if clash:
        raise InvalidParameterError(
            f"`by` column {clash[0]!r} has the name of a column of the report's wide or tidy "
            f"form ({sorted(map(str, names))}); rename it, e.g. "
            f"data.rename(columns={{{clash[0]!r}: 'group'}}), and pass by='group'"
        )


def check_pooled_label(labels: pd.Index) -> None:
    """Refuse a group labelled like the pooled row (:data:`POOLED`), at any level."""
    for level in range(labels.nlevels):
        values = labels.get_level_values(level)
        if values.isin([POOLED]).any():
            raise InvalidParameterError(
                f"`by` column {values.name!r} has a group labelled {POOLED!r}, the label of "
                "the pooled row; rename that group or pass pooled=False"
            )


def _fit_state(fit: Any) -> tuple[AlphaState, Precision | None]:
    """The state of a pooled fit (None: no pairable unit) and its precision record."""
    if fit is None:
        return AlphaState.NO_PAIRABLE_UNITS, None
    kernel = None if fit.fit is None else fit.fit.kernel
    precision = None if kernel is None else kernel.precision(fit.fit.counts.n_c)
    return fit.state, precision


def _pooled_fit(coded: CodedData, dist: Distance, weights: Any, data: pd.DataFrame):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DegenerateDataWarning)
            return fit_alpha(coded, dist, weights, source=data)
    except NoPairableUnitsError:
        return None


@dataclass(frozen=True)
class _Bootstrap:
    """The bootstrap settings of a report: one interval per (group, distance)."""

    level: float
    method: str
    n_boot: int
    gen: np.random.Generator
    progress: Callable[[int], None] | None = None

    def interval(self, result: Any, method: str | None = None, cluster=None) -> tuple[float, float]:
        if result is None or result.state.undefined:
            if self.progress is not None:
                self.progress(self.n_boot)
            return np.nan, np.nan
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DegenerateDataWarning)
            boot = bootstrap_alpha(
                result, method or self.method, self.n_boot, self.gen, cluster, self.progress
            )
        ci = boot.confidence_interval(self.level)
        return ci.low, ci.high


def _add_intervals(
    table: pd.DataFrame,
    coded: CodedData,
    group_of_unit: np.ndarray,
    distances: list[Distance],
    weights: Any,
    boot: _Bootstrap,
    states: dict[str, np.ndarray],
) -> None:
    group_method = "units" if boot.method == "clusters" else boot.method
    rating_group = group_of_unit[coded.unit_codes]
    for dist in distances:
        kernel = make_kernel(dist, coded, weights)
        lows, highs = [], []
        for g in range(len(table)):
            res = None
            if not AlphaState(int(states[dist.name][g])).undefined:  # pairable, D_e > 0
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", DegenerateDataWarning)
                    res = fit_alpha(subset(coded, rating_group == g), dist, weights, kernel=kernel)
            low, high = boot.interval(res, group_method)
            lows.append(low)
            highs.append(high)
        table[f"{dist.name}_low"] = lows
        table[f"{dist.name}_high"] = highs


def pooled_row(
    table, fits, names, group_of_unit, boot: _Bootstrap | None, n_levels
) -> pd.DataFrame:
    first = fits[names[0]]
    row: dict[str, Any] = {
        name: np.nan if fits[name] is None else fits[name].alpha for name in names
    }
    row["n_units"] = 0 if first is None else first.n_units
    row["n_coders"] = 0 if first is None else first.n_coders
    row["n_pairable"] = 0 if first is None else first.n_pairable
    fit_states = {name: _fit_state(fits[name]) for name in names}
    row["reason"] = group_reason(
        row["n_units"],
        {name: state for name, (state, _) in fit_states.items()},
        {name: precision for name, (_, precision) in fit_states.items()},
    )
    if boot is not None:
        for name in names:
            res, cluster = fits[name], None
            if boot.method == "clusters" and res is not None:
                # The clusters of the pooled row are the groups: one label per input row.
                coded = res.fit.coded
                cluster = np.full(len(res.fit.source), -1, dtype=np.int64)
                cluster[coded.rows] = group_of_unit[coded.unit_codes]
            row[f"{name}_low"], row[f"{name}_high"] = boot.interval(res, cluster=cluster)
    if n_levels == 1:
        index = pd.Index([POOLED], name=table.index.name)
    else:
        index = pd.MultiIndex.from_tuples([(POOLED,) * n_levels], names=table.index.names)
    return pd.DataFrame([row], index=index)[table.columns]


def _tidy(
    table: pd.DataFrame,
    names: list[str],
    with_ci: bool,
    disagreement: dict[str, tuple[np.ndarray, np.ndarray]],
) -> pd.DataFrame:
    frames = []
    for name in names:
        part = pd.DataFrame(
            {
                "distance": name,
                "alpha": table[name],
                "observed": disagreement[name][0],
                "expected": disagreement[name][1],
                "n_units": table["n_units"],
                "n_coders": table["n_coders"],
                "n_pairable": table["n_pairable"],
                "reason": table["reason"],
            },
            index=table.index,
        )
        if with_ci:
            part.insert(2, "low", table[f"{name}_low"])
            part.insert(3, "high", table[f"{name}_high"])
        frames.append(part)
    return pd.concat(frames).reset_index()
