"""The pyramid method (Nenkova & Passonneau): summary content units, scores and their study.

:mod:`.annotation` (SCU annotations to reliability data), :mod:`.scoring` (pyramid scores of
summaries) and :mod:`.study` (the reliability study of scores: ANOVA, Tukey HSD).
"""

from .annotation import *  # noqa: F403
from .annotation import __all__ as _annotation_all
from .scoring import *  # noqa: F403
from .scoring import __all__ as _scoring_all
from .study import *  # noqa: F403
from .study import __all__ as _study_all

__all__ = [*_annotation_all, *_scoring_all, *_study_all]
