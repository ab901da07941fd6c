"""Annotation tasks beyond one value per unit, turned into reliability data and scored.

:mod:`.coref` (coreference chains), :mod:`.pyramid` (summary content units and pyramid
scores), :mod:`.noise` (the noise model of an agreed gold standard), :mod:`.association`
(Dice association between coders' classes) and :mod:`.classes` (classes of items shared by
coref and pyramid).
"""

__all__: list[str] = []
