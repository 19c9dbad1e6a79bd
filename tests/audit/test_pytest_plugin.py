"""``require_rate`` and the ``textcontract`` pytest fixture, run through pytester."""

from __future__ import annotations

from pathlib import Path

import pytest

import textcontract.testing
from tests.audit.audit_builders import REPO, SHIPPED
from textcontract.testing import require_rate

pytest_plugins = ["pytester"]

# The plugin is loaded through its pytest11 entry point, as users get it.
PLUGIN: tuple[str, ...] = ()


def test_testing_exports_exactly_its_all() -> None:
    assert textcontract.testing.__all__ == [
        "CaseResult",
        "ContractFixture",
        "RuleCase",
        "describe_offending_checks",
        "evaluate_case",
        "load_rule_cases",
        "mismatches",
        "require_rate",
    ]
    assert all(hasattr(textcontract.testing, name) for name in textcontract.testing.__all__)


def test_require_rate_fails_on_none_saying_why() -> None:
    with pytest.raises(AssertionError, match=r"null: no eligible variant was measured"):
        require_rate(None, 0.0)


def test_require_rate_fails_below_the_minimum_and_returns_the_value() -> None:
    with pytest.raises(AssertionError, match=r"detection 0\.5000 is below the minimum 0\.9"):
        require_rate(0.5, 0.9, name="detection")
    assert require_rate(0.9, 0.9) == 0.9


def test_fixture_check_passes_and_fails_readably(pytester: pytest.Pytester) -> None:
    orders = REPO / "fixtures" / "orders"
    pytester.makepyfile(
        f"""
        from pathlib import Path

        ORDERS = Path({str(orders)!r})

        def test_accepted(textcontract):
            report = textcontract.check(
                ORDERS / "textcontract.yaml",
                ORDERS / "order-1001.md",
                ORDERS / "order-1001.context.json",
            )
            assert report.accepted

        def test_rejected(textcontract):
            textcontract.check(
                str(ORDERS / "textcontract.yaml"),
                ORDERS / "order-1002.md",
                ORDERS / "order-1002.context.json",
            )
        """
    )
    result = pytester.runpytest(*PLUGIN)
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*the document is rejected and complete by contract 'order-confirmation'*",
            "*violated*claims-match-order*CLAIM_STATE_MISMATCH*surface:body*",
            "*violated*no-refund-promise*NO_REFUND_PROMISE*surface:body*",
            "*violated*links-to-our-domains*LINK_DOMAIN*surface:body*",
        ]
    )


def test_fixture_audit_applies_thresholds(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        f"""
        CORPUS = {str(SHIPPED)!r}

        def test_met(textcontract):
            result = textcontract.audit(CORPUS, detection=0.75, preservation=0.8)
            assert result.verdict.value.value == "CONCERNS"

        def test_detection_missed(textcontract):
            textcontract.audit(CORPUS, detection=0.95)
        """
    )
    result = pytester.runpytest(*PLUGIN)
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*detection 0.7826 is below the minimum 0.95*"])


def test_fixture_audit_null_figure_fails(pytester: pytest.Pytester, tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "audit.yaml").write_text(
        f"contract: {REPO / 'fixtures' / 'orders' / 'textcontract.yaml'}\n", encoding="utf-8"
    )
    pytester.makepyfile(
        f"""
        def test_null(textcontract):
            textcontract.audit({str(corpus)!r}, preservation=0.0)
        """
    )
    result = pytester.runpytest(*PLUGIN)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*preservation is null*never meets a threshold*"])


def test_fixture_audit_fails_on_a_failed_preflight(pytester: pytest.Pytester) -> None:
    vacuous = REPO / "fixtures" / "preflight" / "mutations"
    pytester.makepyfile(
        f"""
        def test_vacuous(textcontract):
            textcontract.audit({str(vacuous)!r})
        """
    )
    result = pytester.runpytest(*PLUGIN)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        ["*the audit did not run: preflight failed: order-1004/cheapen#tone*"]
    )
