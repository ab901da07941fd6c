"""Partitions on long data: (group, coder, item, class) rows -> class codes and set codes.

The engine of :func:`pandas_agree.tasks.coref.chains_to_codes` (chains of mentions) and
:func:`pandas_agree.tasks.pyramid.annotation.scus_to_codes` (SCUs of contributors): each calls it
with its own
parameter names and nouns (:class:`Roles`), so that error messages speak the caller's language.
The pandas edge only: validation and reshaping, no statistics.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..data.prepare import check_columns
from ..errors import DuplicateRatingError, InvalidParameterError

__all__ = [
    "MISSING",
    "OUTPUT",
    "SHOW",
    "Roles",
    "check_flag",
    "check_missing",
    "partition",
    "partition_codes",
    "set_codes",
    "show",
]

MISSING = ("raise", "singleton")
OUTPUT = ("unit", "coder", "value")
SHOW = 5  # how many offending entries an error message lists


@dataclass(frozen=True)
class Roles:
    """Public parameter names and nouns, so that error messages speak the caller's language."""

    group: str
    coder: str
    item: str
    cls: str
    missing: str
    item_noun: str
    cls_noun: str


def show(values: Sequence[Any]) -> str:
    shown = ", ".join(repr(v) for v in list(values)[:SHOW])
    more = f" and {len(values) - SHOW} more" if len(values) > SHOW else ""
    return f"[{shown}]{more}"


def check_flag(value: Any, param: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise InvalidParameterError(f"`{param}` must be True or False, got {value!r}")
    return bool(value)


def check_missing(value: Any, param: str) -> str:
    if not isinstance(value, str) or value not in MISSING:
        raise InvalidParameterError(f"`{param}` must be one of {list(MISSING)}, got {value!r}")
    return value


def partition(
    data: pd.DataFrame,
    *,
    group: Hashable | None,
    coder: Hashable,
    item: Hashable,
    cls: Hashable,
    missing: str,
    roles: Roles,
) -> pd.DataFrame:
    """Validate partition data; return columns g, coder, item, cls (int code), added (bool).

    ``g`` is the group label (0 when ``group`` is None). ``cls`` numbers the classes of all
    (group, coder) pairs from 0; a row with a missing class id, and each markable a coder
    lacks when ``missing="singleton"``, gets a class of its own. Rows keep the input order;
    added singletons come last with ``added=True``.
    """
    columns = {roles.coder: coder, roles.item: item, roles.cls: cls}
    if group is not None:
        columns = {roles.group: group, **columns}
    check_columns(data, **columns)
    missing = check_missing(missing, roles.missing)
    if len(data) == 0:
        raise InvalidParameterError("`data` has no rows: there are no codings to compare")
    frame = pd.DataFrame(
        {
            "g": data[group].to_numpy(dtype=object) if group is not None else 0,
            "coder": data[coder].to_numpy(dtype=object),
            "item": data[item].to_numpy(dtype=object),
            "cls": data[cls].to_numpy(dtype=object),
        }
    )
    for role, param, col in (
        ("g", roles.group, group),
        ("coder", roles.coder, coder),
        ("item", roles.item, item),
    ):
        if col is None:
            continue
        na = pd.isna(frame[role]).to_numpy()
        if na.any():
            rows = list(data.index[na])
            raise InvalidParameterError(
                f"`{param}` column {col!r} has {int(na.sum())} missing label(s) (rows "
                f"{show(rows)}); every row needs a {param}"
            )
    _check_duplicates(frame, data, roles, grouped=group is not None)

    named = frame["cls"].notna().to_numpy()
    codes = frame.groupby(["g", "coder", "cls"], sort=False, dropna=True).ngroup().to_numpy()
    n_named = int(np.nanmax(codes)) + 1 if named.any() else 0
    codes = codes.copy()
    codes[~named] = n_named + np.arange(int((~named).sum()))
    frame["cls"] = codes.astype(np.int64)
    frame["added"] = False

    lack = _lacking(frame)
    if len(lack):
        if missing == "raise":
            raise InvalidParameterError(_lacking_message(frame, lack, roles, group is not None))
        start = int(frame["cls"].max()) + 1
        lack = lack.assign(cls=start + np.arange(len(lack), dtype=np.int64), added=True)
        frame = pd.concat([frame, lack[list(frame.columns)]], ignore_index=True)
    return frame


def _check_duplicates(frame: pd.DataFrame, data: pd.DataFrame, roles: Roles, grouped: bool) -> None:
    dup = frame.duplicated(["g", "coder", "item"], keep=False).to_numpy()
    if not dup.any():
        return
    rows = frame[dup]
    keys = rows.drop_duplicates(["g", "coder", "item"])
    where = [
        (f"{roles.group} {g!r}: " if grouped else "") + f"{roles.coder} {c!r}, {roles.item} {i!r}"
        for g, c, i in zip(keys["g"], keys["coder"], keys["item"])
    ]
    raise DuplicateRatingError(
        f"{len(keys)} {roles.item_noun}(s) appear in more than one row for the same "
        f"{roles.coder}: {'; '.join(where[:SHOW])}"
        f"{f' and {len(where) - SHOW} more' if len(where) > SHOW else ''} (rows "
        f"{show(list(data.index[dup]))}). Each {roles.coder} puts each {roles.item_noun} in "
        f"exactly one {roles.cls_noun}: remove the repeated rows"
    )


def _lacking(frame: pd.DataFrame) -> pd.DataFrame:
    """(g, coder, item) triples where a coder of group g lacks an item another coder has."""
    items = frame[["g", "item"]].drop_duplicates()
    coders = frame[["g", "coder"]].drop_duplicates()
    expected = items.merge(coders, on="g", how="inner")
    if len(expected) == len(frame):
        return expected.iloc[:0]
    have = frame[["g", "coder", "item"]].assign(_have=True)
    merged = expected.merge(have, on=["g", "coder", "item"], how="left")
    return merged.loc[merged["_have"].isna(), ["g", "coder", "item"]].reset_index(drop=True)


def _lacking_message(frame: pd.DataFrame, lack: pd.DataFrame, roles: Roles, grouped: bool) -> str:
    parts = []
    pairs = lack.drop_duplicates(["g", "coder"])
    for g, c in zip(pairs["g"].iloc[:SHOW], pairs["coder"].iloc[:SHOW]):
        items = lack.loc[(lack["g"] == g) & (lack["coder"] == c), "item"].tolist()
        holders = frame.loc[(frame["g"] == g) & frame["item"].isin(items), "coder"].unique()
        where = f"in {roles.group} {g!r}, " if grouped else ""
        parts.append(
            f"{where}{roles.coder} {c!r} lacks {show(items)}, which {roles.coder}(s) "
            f"{show(list(holders))} have"
        )
    more = f"; and {len(pairs) - SHOW} more" if len(pairs) > SHOW else ""
    return (
        f"the {roles.item_noun}s differ between {roles.coder}s: {'; '.join(parts)}{more}. "
        f"Every {roles.coder} must classify the same {roles.item_noun}s (Passonneau 1997); "
        f"pass {roles.missing}='singleton' to count a {roles.item_noun} a {roles.coder} lacks "
        f"as a singleton (a {roles.cls_noun} of its own)"
    )


def set_codes(
    frame: pd.DataFrame,
    *,
    group: Hashable | None,
    item: Hashable,
    keep_self: bool,
    roles: Roles,
) -> pd.DataFrame:
    """Reliability data from a partition frame: unit, coder, value = set of class-mates."""
    if group is not None and group in OUTPUT:
        raise InvalidParameterError(
            f"`{roles.group}` column {group!r} would clash with the output columns "
            f"{list(OUTPUT)}; rename it first"
        )
    n = len(frame)
    if group is None:
        labels = frame["item"].to_numpy(dtype=object)
    else:
        labels = np.empty(n, dtype=object)
        labels[:] = list(zip(frame["g"], frame["item"]))
    codes = frame["cls"].to_numpy()
    order = np.argsort(codes, kind="stable")
    sorted_codes = codes[order]
    starts = np.flatnonzero(np.r_[True, sorted_codes[1:] != sorted_codes[:-1]])
    members = np.split(labels[order], starts[1:])
    class_sets = dict(zip(sorted_codes[starts].tolist(), (frozenset(m) for m in members)))
    values = np.empty(n, dtype=object)
    if keep_self:
        values[:] = [class_sets[c] for c in codes.tolist()]
    else:
        values[:] = [class_sets[c].difference((u,)) for c, u in zip(codes.tolist(), labels)]
    out: dict[Hashable, Any] = {}
    if group is not None:
        out[group] = frame["g"].to_numpy(dtype=object)
    if item not in OUTPUT:
        out[item] = frame["item"].to_numpy(dtype=object)
    out["unit"] = labels
    out["coder"] = frame["coder"].to_numpy(dtype=object)
    out["value"] = values
    return pd.DataFrame(out)


def partition_codes(
    data: pd.DataFrame,
    group: Hashable | None,
    coder: Hashable,
    item: Hashable,
    cls: Hashable,
    keep_self: Any,
    missing: str,
    roles: Roles,
) -> pd.DataFrame:
    """Validate partition data and turn it into set-valued reliability data."""
    keep_self = check_flag(keep_self, "keep_self")
    frame = partition(
        data, group=group, coder=coder, item=item, cls=cls, missing=missing, roles=roles
    )
    return set_codes(frame, group=group, item=item, keep_self=keep_self, roles=roles)
