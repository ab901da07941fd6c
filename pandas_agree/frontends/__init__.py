"""Adapters between the statistics and the places users meet them; no statistics here.

:mod:`.accessor` (``DataFrame.agree``), :mod:`.xarray` (``DataArray.agree``), :mod:`.dask`
(dask's ``DataFrame.agree``), :mod:`.cli` (the ``pandas-agree`` command), :mod:`.plot`
(matplotlib figures), :mod:`.forward` (accessor methods made from the public functions) and
:mod:`.lazy` (accessors registered when their library is imported), :mod:`.html` (the
agreement report page, one self-contained HTML file).
"""

__all__: list[str] = []
