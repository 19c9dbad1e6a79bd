"""The ``textcontract`` fixture asserts a rejection too: ``check(..., expect="rejected")``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from textcontract.testing import ContractFixture

pytest_plugins = ["pytester"]

ORDERS = Path(__file__).resolve().parents[2] / "fixtures" / "orders"
CONTRACT = ORDERS / "textcontract.yaml"


def _check(document: str, **options: Any) -> None:
    context = ORDERS / document.replace(".md", ".context.json")
    ContractFixture().check(CONTRACT, ORDERS / document, context, **options)


def test_a_rejection_passes_when_it_is_expected() -> None:
    _check("order-1002.md", expect="rejected")
    _check("order-1002.md", expect="rejected", codes=["NO_REFUND_PROMISE", "LINK_DOMAIN"])


def test_an_accepted_output_fails_an_expected_rejection_saying_so() -> None:
    with pytest.raises(AssertionError) as caught:
        _check("order-1001.md", expect="rejected")
    assert str(caught.value).startswith(
        "expected a rejection, but the document is accepted and complete by contract "
        "'order-confirmation'"
    )


def test_a_rejection_for_another_reason_fails_when_codes_are_named() -> None:
    with pytest.raises(AssertionError) as caught:
        _check("order-1002.md", expect="rejected", codes=["NO_REFUND_PROMISE", "REQUIRED_FACT"])
    message = str(caught.value)
    assert message.startswith("expected a rejection with REQUIRED_FACT, which no offending check")
    assert "violated     no-refund-promise" in message


def test_the_default_still_asks_for_an_accepted_and_complete_output() -> None:
    _check("order-1001.md")
    with pytest.raises(AssertionError, match="the document is rejected and complete"):
        _check("order-1002.md")


def test_misuse_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="expect must be 'accepted' or 'rejected'"):
        _check("order-1001.md", expect="maybe")
    with pytest.raises(ValueError, match="use it with expect='rejected'"):
        _check("order-1001.md", codes=["X"])


def test_the_plugin_gives_it_to_tests(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        f"""
        from pathlib import Path

        ORDERS = Path({str(ORDERS)!r})

        def test_caught(textcontract):
            report = textcontract.check(
                ORDERS / "textcontract.yaml",
                ORDERS / "order-1002.md",
                ORDERS / "order-1002.context.json",
                expect="rejected",
                codes=["NO_REFUND_PROMISE"],
            )
            assert not report.accepted

        def test_not_caught(textcontract):
            textcontract.check(
                ORDERS / "textcontract.yaml",
                ORDERS / "order-1001.md",
                ORDERS / "order-1001.context.json",
                expect="rejected",
            )
        """
    )
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*expected a rejection, but the document is accepted*"])
