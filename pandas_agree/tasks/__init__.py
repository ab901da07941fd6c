"""Annotation tasks beyond one value per unit, turned into reliability data and scored.

:mod:`.coref` (coreference chains), :mod:`.pyramid` (summary content units and pyramid
scores), :mod:`.noise` (the noise model of an agreed gold standard), :mod:`.association`
(Dice association between coders' classes), :mod:`.classes` (classes of items shared by
coref and pyramid), :mod:`.models` (can a model replace an annotator: the alt-test,
candidate reports, self-consistency) and :mod:`.hierarchy` (label taxonomies: hierarchical
F1 and tree distances).
"""

__all__: list[str] = []
