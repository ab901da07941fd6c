"""Numpy-only core: counts, disagreement kernels, agreement coefficients. No pandas here.

One optional C module, :mod:`._firstcodes`, numbers 64-bit keys (set masks, short strings)
by first appearance; numpy gives the same codes without it.
"""

__all__: list[str] = []
