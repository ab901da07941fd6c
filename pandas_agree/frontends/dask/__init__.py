"""``dask.dataframe.DataFrame.agree``: alpha and per-group reports on data too big for memory.

The package holds the public functions and the accessor; :mod:`pandas_agree.frontends.dask.chunks`
the dask pass and :mod:`pandas_agree.frontends.dask.tables` the count table in memory.

Importing this module registers the ``agree`` accessor on dask DataFrames through dask's own
:func:`dask.dataframe.extensions.register_dataframe_accessor` (when dask is installed; the
module imports without it; ``import pandas_agree`` imports it when ``dask.dataframe`` is
imported). It offers :func:`alpha` and :func:`report`, with the same
parameters and results as :func:`pandas_agree.alpha` and :func:`pandas_agree.report`.

Alpha only needs the (unit, value) -> count table of the data, so the ratings are never
gathered in one place:

1. the coder labels are collected (a pass over the coder column alone) and numbered;
2. per partition (``map_partitions``): missing values are dropped, set-like values (set,
   list, tuple, and the numpy arrays Parquet list columns arrive as) become frozensets,
   categoricals codes, and each rating carries its coder as one bit of one to four int64
   columns (with more than about 220 coders: as a code);
3. one dask ``groupby([unit, value]).sum()`` (a tree reduction) counts the ratings of each
   cell and sums their coder bits; units split across partitions are merged by the
   groupby. A coder rating a unit twice shows as a carry in those sums (with many coders, a
   ``groupby([unit, coder]).size()`` checks instead), and the OR of the bits of pairable
   units gives ``n_coders``;
4. the combined count table is collected and handed to the numpy core: value domain,
   :class:`~pandas_agree._core.counts.UnitValueCounts`, the distance's kernel, and
   ``alpha = 1 - (n - 1) O / E``, as the pandas path does.

Scheduling is dask's: ``dask.compute`` runs on the local (threaded) scheduler, or on a
``distributed`` cluster when a :class:`distributed.Client` is active. The count table has
one row per non-empty (unit, value) cell and must fit in memory.

Differences from the pandas path:

* ``on_duplicate`` must be ``"raise"`` (``first``/``last`` need a row order that dask
  partitions do not give; ``union`` would need every duplicate's values in one place).
* The result's ``fit`` is None: intervals (``confidence_interval``, ``bootstrap``) and
  diagnostics (``by_unit``, ``by_coder``) need the pandas path; ``report(ci=...)`` raises.
* A categorical value column with unknown categories is made known (one extra pass) and
  its categories sorted, as ``astype("category")`` does in pandas.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Sequence
from typing import Any, cast

import numpy as np
import pandas as pd

from ..._core.count_table import group_alphas
from ...declare import Declaration, declared
from ...errors import InvalidParameterError
from ...krippendorff.alpha import DistanceLike, check_distance, make_kernel, with_taxonomy
from ...krippendorff.report import as_list, check_distances, finish_report, group_table, pooled_row
from ...results import AlphaResult
from ..accessor import DeclaredAccessor, DeclaredMethods
from ..forward import forward

try:
    from dask.dataframe.extensions import register_dataframe_accessor

    from .tables import prepare_table, table_alpha
except ImportError:  # pragma: no cover - exercised without the dask extra
    register_dataframe_accessor = None  # type: ignore[assignment]

__all__ = ["DaskAgreeAccessor", "alpha", "collected", "report"]

# ---------------------------------------------------------------------------------------------
# Public API


@declared(register=False)
def alpha(
    data: Any,
    distance: DistanceLike = "nominal",
    *,
    unit, coder, value, categories, on_duplicate,
    weights: Any = None,
    taxonomy: Any = None,
    split_every: int | None = None,
    sep,
) -> AlphaResult:
    """Krippendorff's alpha of a dask DataFrame of long data (one row per rating).

    Parameters
    ----------
    data : dask.dataframe.DataFrame
        Long data. Not modified.
    distance, weights, taxonomy
        As for :func:`pandas_agree.alpha`.
    on_duplicate : {"raise"}
        Only ``"raise"``: a coder rating a unit twice raises
        :class:`~pandas_agree.errors.DuplicateRatingError`.
    split_every : int, optional
        Fan-in of dask's tree reduction of the count table (dask's default, 8, when None).
        Larger values mean fewer combine rounds (often faster) and more rows per task.
    sep : str, None or False, optional
        Split string values into sets of labels, per partition (see
        :func:`pandas_agree.alpha`).

    Returns
    -------
    AlphaResult
        The numbers of :func:`pandas_agree.alpha` on the same data (to float rounding).
        ``fit`` is None: bootstrap intervals and diagnostics need the pandas path.

    Raises
    ------
    NoPairableUnitsError, DuplicateRatingError, ColumnNotFoundError, ValueTypeError,
    MixedValueTypesError, InvalidParameterError
        As :func:`pandas_agree.alpha`; ``ValueTypeError`` also when the value column holds
        the text of sets (dask's ``dataframe.convert-string`` turned sets into strings).

    Notes
    -----
    A pass over the coder column, then one ``dask.compute`` over the unit, coder and value
    columns, on the current scheduler (local threads, or a ``distributed`` client when one
    is active). The (unit, value) -> count table is collected and must fit in memory.

    Examples
    --------
    Krippendorff (2011), section C, in three partitions (published nominal alpha 0.743):

    >>> import dask.dataframe as dd
    >>> import pandas_agree as pa
    >>> ddf = dd.from_pandas(pa.datasets.krippendorff_2011(), npartitions=3)
    >>> ddf.agree.alpha("nominal")
    AlphaResult(alpha=0.7434, distance='nominal', n_units=11, n_coders=4, n_pairable=40)
    """
    dist = check_distance(with_taxonomy(distance, taxonomy), weights)
    table = prepare_table(
        data, [], unit, coder, value, categories, on_duplicate, dist.is_set, split_every, sep
    )
    kernel = make_kernel(dist, table.coded, weights)
    # With warnings on, table_alpha raises instead of returning None.
    return cast(AlphaResult, table_alpha(table, dist, kernel))


@declared(register=False)
def report(
    data: Any,
    distance: DistanceLike | Sequence[DistanceLike] = "nominal",
    by: Hashable | Sequence[Hashable] | None = None,
    *,
    unit, coder, value, categories, on_duplicate,
    weights: Any = None,
    taxonomy: Any = None,
    sep,
    ci: float | None = None,
    ci_method: str | None = None,
    n_boot: int | None = None,
    rng: int | np.random.Generator | None = None,
    pooled: bool = True,
    tidy: bool = False,
    progress: Any = None,
    coefficients: Sequence[Any] | None = None,
    split_every: int | None = None,
) -> pd.DataFrame:
    """Alpha per group for several distances, from a dask DataFrame.

    The table of :func:`pandas_agree.report` (units nested in groups, one alpha column per
    distance, ``n_units``, ``n_coders``, ``n_pairable``, ``reason``, a ``"pooled"`` row,
    ``tidy=True`` for the long form), equal to float rounding. One ``dask.compute`` serves
    every distance.

    Parameters
    ----------
    data : dask.dataframe.DataFrame
        Long data. Not modified.
    distance, by, weights, taxonomy, pooled, tidy
        As for :func:`pandas_agree.report`.
    on_duplicate : {"raise"}
        Only ``"raise"`` (see :func:`alpha`).
    ci, ci_method, n_boot, rng, progress, coefficients
        Not available on a dask DataFrame: bootstrap intervals and the other coefficients
        need the ratings in memory. They are here so that the signature is that of
        :func:`pandas_agree.report`; passing any of them raises
        :class:`~pandas_agree.errors.InvalidParameterError` (never silently ignored).
    split_every : int, optional
        As for :func:`alpha`.

    Returns
    -------
    pandas.DataFrame
        As :func:`pandas_agree.report`.

    Raises
    ------
    InvalidParameterError
        For ``ci``, ``ci_method``, ``n_boot``, ``rng``, ``progress`` or ``coefficients``, and
        as :func:`alpha`.

    Examples
    --------
    Passonneau (2006), Figures 2-4 (MASI -0.349, 0.010, -0.327), in two partitions (sets
    stay sets when dask does not convert object columns to strings):

    >>> import dask
    >>> import dask.dataframe as dd
    >>> import pandas_agree as pa
    >>> with dask.config.set({"dataframe.convert-string": False}):
    ...     ddf = dd.from_pandas(pa.datasets.masi_figures(), npartitions=2)
    >>> ddf.agree.report("masi", by="figure")["masi"].round(3).tolist()
    [-0.349, 0.01, -0.327, 0.116]
    """
    distances, names = check_distances(with_taxonomy(distance, taxonomy), weights)
    memory_only = {
        "ci": ci,
        "ci_method": ci_method,
        "n_boot": n_boot,
        "rng": rng,
        "progress": progress,
        "coefficients": coefficients,
    }
    for name, given in memory_only.items():
        if given is not None:
            raise InvalidParameterError(
                f"`{name}` is not available on a dask DataFrame (got {name}={given!r}): "
                "bootstrap intervals and other coefficients need the ratings in memory; use "
                "pandas_agree.report on a pandas frame (ddf.compute())"
            )
    by_cols = as_list(by, "by")
    scalars_as_sets = any(d.is_set for d in distances)
    table = prepare_table(
        data,
        by_cols,
        unit,
        coder,
        value,
        categories,
        on_duplicate,
        scalars_as_sets,
        split_every,
        sep,
    )
    labels = table.labels
    n_groups = len(labels)
    counts = table.counts
    group_counts = {
        "n_units": np.bincount(table.group_of_unit[counts.m >= 2], minlength=n_groups),
        "n_coders": table.n_coders_group,
        "n_pairable": None,
    }
    alphas: dict[str, np.ndarray] = {}
    disagreement: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    pooled_fits: dict[str, AlphaResult | None] = {}
    for dist in distances:
        kernel = make_kernel(dist, table.coded, weights)
        a, d_o, d_e, n_g = group_alphas(kernel, counts, table.group_of_unit, n_groups)
        alphas[dist.name] = a
        disagreement[dist.name] = (d_o, d_e)
        group_counts["n_pairable"] = np.rint(n_g).astype(np.int64)
        if pooled and by_cols:
            pooled_fits[dist.name] = table_alpha(table, dist, kernel, warn=False)
    out = group_table(labels, alphas, group_counts)
    extra = None
    if pooled and by_cols:
        extra = pooled_row(out, pooled_fits, names, table.group_of_unit, None, len(by_cols))
    return finish_report(out, names, disagreement, pooled_fits, extra, tidy, False)


_COLLECTED_NOTE = """On dask's ``DataFrame.agree``: the frame is computed (collected into one pandas
    frame) and the pandas function runs on it; ``alpha`` and ``report`` run on the partitions
    instead and never collect the ratings."""


def collected(func: Callable[..., Any]) -> Callable[..., Any]:
    """``func`` on a dask frame: computed into pandas first (the signature is ``func``'s).

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> import pandas_agree as pa
    >>> df = pa.datasets.krippendorff_2011()
    >>> ddf = dd.from_pandas(df, npartitions=2)
    >>> collected(pa.fleiss_kappa)(ddf, unequal="gwet") == pa.fleiss_kappa(df, unequal="gwet")
    True
    """

    @functools.wraps(func)
    def run(data: Any, *args: Any, **kwargs: Any) -> Any:
        return func(data.compute(), *args, **kwargs)

    head, _, body = (func.__doc__ or "").partition("\n")
    run.__doc__ = f"{head}\n\n    {_COLLECTED_NOTE}\n{body}"
    return run


class _DaskMethods(DeclaredMethods):
    """Methods of the dask accessor: the declared functions, collected (alpha and report not)."""

    def _method(cls, found: Declaration) -> Any:
        return forward(collected(found.func))


class DaskAgreeAccessor(DeclaredAccessor, metaclass=_DaskMethods):
    """Agreement statistics on a dask DataFrame of long data: ``ddf.agree.alpha("masi")``.

    Registered as ``dask.dataframe.DataFrame.agree`` when this module is imported with dask
    installed. ``alpha`` and ``report`` are :func:`pandas_agree.frontends.dask.alpha` and
    :func:`pandas_agree.frontends.dask.report`, which run on the partitions; every other
    function declared for dask (the kappa family, diagnostics, ...) computes the frame into
    pandas first (:func:`collected`). The frame is never modified.
    """

    _frontend = "dask"

    alpha = forward(alpha)
    report = forward(report)


if register_dataframe_accessor is not None:
    register_dataframe_accessor("agree")(DaskAgreeAccessor)
