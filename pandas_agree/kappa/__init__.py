"""The kappa family and its relatives on categorical long data.

:mod:`.coefficients` (percent agreement, Cohen, Scott, Fleiss, Bennett, Gwet),
:mod:`.multi_coder` (Conger, Light, Hubert), :mod:`.categories` (agreement per category),
:mod:`.marginals` (bounds set by the marginals) and :mod:`.weights` (weight matrices of the
weighted coefficients).
"""

__all__: list[str] = []
