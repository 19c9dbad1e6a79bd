"""``textcontract.dask``: checking and auditing on a Dask cluster (extra ``textcontract[dask]``).

The functions live in :mod:`textcontract.integrations.dask`; see it for what each does.
Dask and pandas are imported only when a function needs them.
"""

from textcontract.integrations.dask import (
    ContractSource,
    audit,
    check_bag,
    check_dataframe,
    check_record,
    compiled,
    contract_source,
)

__all__ = [
    "ContractSource",
    "audit",
    "check_bag",
    "check_dataframe",
    "check_record",
    "compiled",
    "contract_source",
]
