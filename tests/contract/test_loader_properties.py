"""The contract loader on arbitrary input raises ContractError and nothing else."""

from __future__ import annotations

import contextlib
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from textcontract.contract import parse_contract_text
from textcontract.errors import ContractError

_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**6), max_value=10**6),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
)
_values: st.SearchStrategy[Any] = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=12,
)
_rule_fields = st.fixed_dictionaries(
    {"id": st.sampled_from(["r", "R!", "", "a.b"])},
    optional={
        "type": st.sampled_from(
            ["RequiredFact", "ForbiddenPattern", "TokenRange", "LinkDomains", "Nope", ""]
        ),
        "key": _values,
        "patterns": _values,
        "min": _values,
        "max": _values,
        "allowed": _values,
        "severity": _values,
        "surfaces": _values,
        "code": _values,
    },
)


def _yaml(value: Any) -> str:
    import json

    return json.dumps(value, allow_nan=True)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=300))
def test_random_text_never_raises_anything_but_contract_error(text: str) -> None:
    with contextlib.suppress(ContractError):
        parse_contract_text(text + "\n")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_rule_fields, max_size=4), _values)
def test_random_rules_never_raise_anything_but_contract_error(
    rules: list[dict[str, Any]], extra: Any
) -> None:
    document = {"textcontract": 1, "id": "fuzz", "rules": rules, "defaults": extra}
    try:
        definition = parse_contract_text(_yaml(document) + "\n")
    except ContractError:
        return
    assert definition.digest.startswith("sha256:")
