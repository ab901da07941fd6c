"""Annotation tasks beyond one value per unit."""

__all__: list[str] = []
