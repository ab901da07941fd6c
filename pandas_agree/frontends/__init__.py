"""Adapters between the statistics and the places users meet them; no statistics here.

:mod:`.accessor` (``DataFrame.agree``), :mod:`.xarray` (``DataArray.agree``), :mod:`.dask`
(dask's ``DataFrame.agree``), :mod:`.cli` (the ``pandas-agree`` command), :mod:`.plot`
(matplotlib figures), :mod:`.forward` (accessor methods made from the public functions) and
:mod:`.lazy` (accessors registered when their library is imported).
"""

__all__: list[str] = []
