"""Adapters that run textcontract inside other systems; each is an optional extra.

- :mod:`textcontract.integrations.dask` (``textcontract[dask]``, also importable as
  :mod:`textcontract.dask`): checks over Dask bags and dataframes, sharded audits on a cluster.
"""

__all__: list[str] = []
