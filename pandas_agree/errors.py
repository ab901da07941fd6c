"""Exceptions and warnings raised by pandas_agree.

Every error a user can cause subclasses :class:`ValueError` or :class:`TypeError`, so
``except ValueError`` keeps working, and names the offending parameter and what was
passed.
"""

from __future__ import annotations

__all__ = [
    "AgreementError",
    "AmbiguousValuesError",
    "ColumnNotFoundError",
    "DegenerateDataWarning",
    "DuplicateRatingError",
    "InvalidParameterError",
    "MissingInSetError",
    "MixedValueTypesError",
    "NoEligibleHumansError",
    "NoPairableUnitsError",
    "ReaderError",
    "UnknownDistanceError",
    "ValueTypeError",
]


class AgreementError(ValueError):
    """Base class of the value errors raised by pandas_agree."""


class InvalidParameterError(AgreementError):
    """A parameter has a value outside what the function accepts."""


class ColumnNotFoundError(AgreementError, KeyError):
    """A column named by ``unit=``, ``coder=``, ``value=`` (or ``by=``) is not in the frame."""

    def __str__(self) -> str:  # KeyError would quote the message; keep it readable
        return str(self.args[0]) if self.args else ""


class DuplicateRatingError(AgreementError):
    """The same coder rated the same unit more than once and no ``on_duplicate`` rule was given."""


class UnknownDistanceError(AgreementError):
    """A distance name is not in the registry."""


class MissingInSetError(AgreementError):
    """A set-valued rating holds a missing element (``{"a", None}``, an Arrow list with a null).

    A missing *rating* is a missing cell; a missing *label inside* a set has no meaning for
    a set distance, so it is refused, naming the unit, the coder and the value.
    """


class AmbiguousValuesError(InvalidParameterError):
    """Values could mean two things; an explicit argument must say which (the message names it).

    For example ``"PER;LOC"`` under a set distance: one label, or the set ``{PER, LOC}``?
    """


class NoPairableUnitsError(AgreementError):
    """No unit has two or more values, so there is nothing to compare."""


class NoEligibleHumansError(AgreementError):
    """No human annotator can be compared with a candidate annotator.

    The alternative annotator test compares a candidate with each human on the items both
    annotated and at least one other human annotated; this is raised when no human has
    enough such items (``min_items``), so there is no test to run.
    """


class ReaderError(AgreementError):
    """A file read by :mod:`pandas_agree.io` is malformed; names the file and line.

    Attributes
    ----------
    file : str
        The path of the offending file.
    line : int or None
        The 1-based line number, or None when the problem concerns the whole file.
    """

    def __init__(self, message: str, file: object = None, line: int | None = None) -> None:
        self.file = None if file is None else str(file)
        self.line = line
        where = ""
        if self.file is not None:
            where = self.file if line is None else f"{self.file}, line {line}"
            where += ": "
        super().__init__(where + message)


class ValueTypeError(TypeError):
    """Values cannot be used with the requested distance (for example text with ``interval``)."""


class MixedValueTypesError(ValueTypeError):
    """A value column mixes sets and scalars under a distance that cannot compare the two."""


class DegenerateDataWarning(RuntimeWarning):
    """The data make a coefficient undefined (for example every pairable value is the same)."""


def user_stacklevel() -> int:
    """The ``stacklevel`` that points a warning at the first frame outside pandas_agree.

    Warnings from deep inside the package (through the accessor, a report, xarray) then name
    the user's line, whatever the call path.
    """
    import inspect
    import os

    package = os.path.dirname(os.path.abspath(__file__))
    frame = inspect.currentframe()
    level = 0
    try:
        while frame is not None:
            if not os.path.abspath(frame.f_code.co_filename).startswith(package):
                return level
            frame = frame.f_back
            level += 1
    finally:
        del frame
    return level
