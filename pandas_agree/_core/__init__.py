"""Numpy-only core: counts, disagreement kernels. No pandas here."""
