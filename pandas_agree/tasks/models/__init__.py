"""Model annotators beside human ones: can a model replace an annotator?

This subpackage owns the questions asked of a candidate annotator (a language model, a
cheaper annotator) coded as one more coder of long data: the alternative annotator test of
Calderon, Reichart and Dror (2025) with its winning rate and advantage probability
(:func:`alt_test`); where the candidate sits among the humans, by Krippendorff's alpha with
the candidate replacing each human in turn, pairwise agreement and its z-score, agreement
with the human majority and per-label agreement (:func:`candidate_report`); and how well
repeated runs of a model agree with each other (:func:`self_consistency`). Array arithmetic
lives in :mod:`pandas_agree._core.alt_test`.
"""

from .alt_test import AltTestResult, alt_test
from .candidates import CandidateReport, candidate_report
from .consistency import SelfConsistencyResult, self_consistency

__all__ = [
    "AltTestResult",
    "CandidateReport",
    "SelfConsistencyResult",
    "alt_test",
    "candidate_report",
    "self_consistency",
]
