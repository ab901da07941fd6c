"""Krippendorff's alpha and everything built on it.

:mod:`.alpha` (the coefficient, the reliability and coincidence matrices), :mod:`.distances`
(the registry of distance functions), :mod:`.report` (alpha per group and pooled, several
distances side by side), :mod:`.bootstrap` (confidence intervals), :mod:`.diagnostics` (who and
what pulls agreement down) and :mod:`.multivalued` (Krippendorff and Craggs' mv-alpha).
"""

__all__: list[str] = []
