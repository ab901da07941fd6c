"""Numpy-only core: counts, disagreement kernels, agreement coefficients. No pandas here."""

__all__: list[str] = []
