"""Beigman Klebanov & Beigman's (2009) noise model of an agreed gold standard.

:mod:`.model` (the model and its posterior) and :mod:`.frame` (the model on long data).
"""

from .frame import *  # noqa: F403
from .frame import __all__ as _frame_all
from .model import *  # noqa: F403
from .model import __all__ as _model_all

__all__ = [*_model_all, *_frame_all]
