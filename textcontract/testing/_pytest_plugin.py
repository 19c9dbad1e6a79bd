"""The pytest plugin (entry point ``pytest11: textcontract``): the ``textcontract`` fixture.

::

    def test_confirmation(textcontract):
        textcontract.check("textcontract.yaml", "Your order #1001 has shipped.",
                           {"order.status": "shipped"})

    def test_contract_strength(textcontract):
        textcontract.audit("mutations/", detection=0.9, preservation=1.0)
"""

from __future__ import annotations

import pytest

from textcontract.testing._helpers import ContractFixture

__all__ = ["textcontract"]


@pytest.fixture
def textcontract() -> ContractFixture:
    """Check outputs against contracts and audit contracts, failing with readable messages."""
    return ContractFixture()
