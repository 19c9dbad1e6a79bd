"""The pytest plugin (entry point ``pytest11: textcontract``): the ``textcontract`` fixture.

::

    def test_confirmation(textcontract):
        textcontract.check("textcontract.yaml", "Your order #1001 has shipped.",
                           {"order.status": "shipped"})

    def test_contract_strength(textcontract):
        textcontract.audit("mutations/", detection=0.9, preservation=1.0)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from textcontract.testing._helpers import ContractFixture

__all__ = ["textcontract"]


@pytest.fixture
def textcontract() -> ContractFixture:
    """Check outputs against contracts and audit contracts, failing with readable messages."""
    # Imported here, not at plugin load: every project with textcontract installed loads this
    # plugin, and only the tests that ask for the fixture should pay for the library.
    from textcontract.testing._helpers import ContractFixture

    return ContractFixture()
