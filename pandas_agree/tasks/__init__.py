"""Annotation tasks beyond one value per unit: model annotators beside human ones
(:mod:`pandas_agree.tasks.models`)."""

__all__: list[str] = []
