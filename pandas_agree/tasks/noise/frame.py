"""The noise model of Beigman Klebanov & Beigman (2009) on long data, whole or per group.

:func:`agreed_subset_noise` (``df.agree.agreed_subset_noise``) counts agreed and disagreed
items in long nominal data and estimates how many hard (coin-flip) items hide among the agreed
ones; see :mod:`pandas_agree.tasks.noise.model` for the
model. With ``by=`` it gives one row per group (units nested in groups, as in
:func:`pandas_agree.report`) and a pooled row.
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Hashable, Sequence

import numpy as np
import pandas as pd

from ...data.prepare import CodedData, prepare
from ...declare import declared
from ...errors import AgreementError, DegenerateDataWarning
from ...krippendorff.report import POOLED, as_list, coded_groups, subset
from .model import DataNoiseResult, noise_from_codes

__all__ = ["agreed_subset_noise"]

_COLUMNS = ["n_items", "n_disagreed", "n_single", "p_agree_hard", "t0", "tau", "kappa"]


def _labelled(result: DataNoiseResult, coded: CodedData) -> DataNoiseResult:
    """Replace the codes in ``counts`` and ``shares`` by coder and value labels."""
    coders = coded.coders.take(result.counts.index.to_numpy()).rename("annotator")
    labels = coded.values.take(result.counts.columns.to_numpy()).rename("label")
    counts = result.counts.set_axis(coders, axis=0).set_axis(labels, axis=1)
    shares = result.shares.set_axis(coders, axis=0).set_axis(labels, axis=1)
    return dataclasses.replace(result, counts=counts, shares=shares)


def _fit(coded: CodedData, confidence: float, p_agree_hard: float | None) -> DataNoiseResult:
    used_coders = np.unique(coded.coder_codes)
    used_values = np.unique(coded.value_codes)
    res = noise_from_codes(
        coded.unit_codes,
        np.searchsorted(used_coders, coded.coder_codes),
        np.searchsorted(used_values, coded.value_codes),
        confidence,
        p_agree_hard=p_agree_hard,
    )
    res = dataclasses.replace(
        res,
        counts=res.counts.set_axis(used_coders, axis=0).set_axis(used_values, axis=1),
        shares=res.shares.set_axis(used_coders, axis=0).set_axis(used_values, axis=1),
    )
    return _labelled(res, coded)


@declared()
def agreed_subset_noise(
    data: pd.DataFrame,
    confidence: float = 0.95,
    *,
    unit, coder, value,
    by: Hashable | Sequence[Hashable] | None = None,
    p_agree_hard: float | None = None,
    on_duplicate,
) -> DataNoiseResult | pd.DataFrame:
    r"""Noise in the agreed subset of long nominal data (Beigman Klebanov & Beigman 2009).

    An item (unit) is agreed when all its annotators gave the same value; items with one
    annotator are left out and counted in ``n_single``. ``p``, the chance that the annotators
    agree on a hard item, is estimated from the disagreed items (the paper's footnote 3,
    generalised to any number of categories; see
    :func:`pandas_agree.tasks.noise.model.noise_from_codes`)
    unless ``p_agree_hard`` is given. ``tau`` bounds the share of hard items among the agreed
    ones with probability ``confidence``.

    Parameters
    ----------
    data : pandas.DataFrame
        Long data; values are compared as nominal categories (sets compare as wholes).
    confidence : float, default 0.95
    by : column name or list of names, optional
        Compute per group (one row each and a pooled row); returns a DataFrame.
    p_agree_hard : float, optional
        Use this ``p`` instead of estimating it (required when nothing is disagreed).

    Returns
    -------
    DataNoiseResult or pandas.DataFrame
        Without ``by``: the result (``tau``, ``t0``, ``n_items``, ``n_disagreed``,
        ``p_agree_hard``, ``kappa``, per-annotator ``counts`` and ``shares`` labelled by coder
        and value). With ``by``: columns ``n_items, n_disagreed, n_single, p_agree_hard,
        t0, tau, kappa, reason``; a group where tau cannot be computed gets NaN and a reason.

    Examples
    --------
    Section 3.1 of the paper: two annotators, 1,000 items, 100 disagreements split evenly,
    so p = 0.5; up to 125 of the 900 agreed items may be coin flips (tau = 13.9 %).

    >>> import pandas as pd
    >>> import pandas_agree as pa
    >>> rows = [(i, c, i % 2) for i in range(900) for c in "ab"]
    >>> rows += [(i, "a", i % 2) for i in range(900, 1000)]
    >>> rows += [(i, "b", 1 - i % 2) for i in range(900, 1000)]
    >>> df = pd.DataFrame(rows, columns=["unit", "coder", "value"])
    >>> res = df.agree.agreed_subset_noise()
    >>> res.t0 - res.n_disagreed, round(res.tau, 4), res.p_agree_hard
    (125, 0.1389, 0.5)
    """
    by_cols = as_list(by, "by")
    if not by_cols:
        coded = prepare(data, unit=unit, coder=coder, value=value, on_duplicate=on_duplicate)
        return _fit(coded, confidence, p_agree_hard)
    coded, group_of_unit, labels = coded_groups(
        data, by_cols, unit, coder, value, on_duplicate=on_duplicate
    )
    rating_group = group_of_unit[coded.unit_codes]
    rows, reasons = [], []
    subsets = [subset(coded, rating_group == g) for g in range(len(labels))] + [coded]
    for sub in subsets:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DegenerateDataWarning)
                res = _fit(sub, confidence, p_agree_hard)
            rows.append([getattr(res, c) for c in _COLUMNS])
            reasons.append(res.reason)
        except AgreementError as exc:
            rows.append([np.nan] * len(_COLUMNS))
            reasons.append(str(exc))
    if len(by_cols) == 1:
        index = labels.append(pd.Index([POOLED], name=labels.name))
    else:
        index = labels.append(pd.MultiIndex.from_tuples([(POOLED,) * len(by_cols)]))
    table = pd.DataFrame(rows, columns=_COLUMNS, index=index)
    table["reason"] = pd.Series(reasons, index=index, dtype=object)
    return table
