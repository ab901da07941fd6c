"""Long frames in, integer codes out: the one edge every statistic reads its data through.

:mod:`.prepare` (columns, missing values and duplicates, to :class:`~.prepare.CodedData`),
:mod:`.sets` (set-valued cells in every shape to one sparse encoding) and
:mod:`.categorical` (declared categories and their order).
"""

__all__: list[str] = []
